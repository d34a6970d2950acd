/**
 * Work-done progress with a client slow to create its token: the server asks for a token
 * (window/workDoneProgress/create) when the workspace scan starts, and the scan of a small
 * workspace is over long before a client that answers seconds late does. The protocol: one begin,
 * reports, one end per created token, and nothing on a token whose creation failed. The server
 * must neither send an end for a token it never began, nor anything on one the client refused.
 */
import { strict as assert } from 'node:assert';
import { ResponseError } from 'vscode-languageserver-protocol/node';
import { startServer, type Client } from './harness';

const CARDS = 12;

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < CARDS; i++) out[`cards/c${i}.unit.yaml`] = `faction: Late\nunits:\n  - name: Late Card ${i}\n    class: Frigate\n    points: 40\n`;
  return out;
}

type Value = { kind: 'begin' | 'report' | 'end'; title?: string };
const onToken = (c: Client, token: string | number): Value[] =>
  c.notifications.filter((n) => n.method === '$/progress' && (n.params as { token: unknown }).token === token).map((n) => (n.params as { value: Value }).value);

/** A client whose answer to window/workDoneProgress/create comes after `ms`, as `answer` says. */
function lateClient(ms: number, answer: 'ok' | 'error') {
  let answered!: () => void;
  const done = new Promise<void>((r) => (answered = r));
  const progressCreate = async () => {
    await new Promise((r) => setTimeout(r, ms));
    answered();
    if (answer === 'error') throw new ResponseError(-32603, 'this client shows no progress');
  };
  return { progressCreate, answered: done };
}

describe('work-done progress when the client answers create late (stdio)', function () {
  this.timeout(60000);
  let c: Client | undefined;
  afterEach(async () => {
    await c?.stop();
    c = undefined;
  });

  /** Every card of the workspace listed: the scan is over. */
  const scanned = (c: Client) =>
    c.poll(
      'the scan to end',
      async () => (await c.request<unknown[]>('fabledStar/listCards', {})).filter((x) => /Late Card/.test(JSON.stringify(x))).length === CARDS,
    );

  it('a token created after the scan ended gets one begin, then one end', async () => {
    const late = lateClient(3000, 'ok');
    c = await startServer({ files: files(), progressCreate: late.progressCreate });
    await c.waitFor('the create request', () => c!.progressTokens.length > 0);
    await scanned(c);
    const token = c.progressTokens[0]!;
    assert.deepEqual(onToken(c, token), [], 'nothing on a token the client has not created yet');
    await late.answered;
    // Round trips: the server handles the answer before it answers these, and sends what it sends
    // on the token before their answers.
    await c.waitFor('an end on the token', () => onToken(c!, token).some((v) => v.kind === 'end'), 10000);
    await c.request('fabledStar/listCards', {});
    const kinds = onToken(c, token).map((v) => v.kind);
    assert.deepEqual(kinds, ['begin', 'end'], `one begin and one end: ${kinds.join(' ')}`);
    assert.match(onToken(c, token)[0]!.title ?? '', /indexing/);
    assert.equal(c.progressTokens.length, 1, 'one token asked for');
  });

  it('a token the client refuses (an error, late) gets nothing, and the scan is whole', async () => {
    const late = lateClient(1500, 'error');
    c = await startServer({ files: files(), progressCreate: late.progressCreate });
    await c.waitFor('the create request', () => c!.progressTokens.length > 0);
    await scanned(c);
    await late.answered;
    await c.request('fabledStar/listCards', {});
    await c.request('fabledStar/listCards', {});
    assert.deepEqual(onToken(c, c.progressTokens[0]!), [], 'no progress on a token never created');
  });

  it('a token refused at once gets nothing either', async () => {
    const late = lateClient(0, 'error');
    c = await startServer({ files: files(), progressCreate: late.progressCreate });
    await c.waitFor('the create request', () => c!.progressTokens.length > 0);
    await scanned(c);
    await late.answered;
    await c.request('fabledStar/listCards', {});
    assert.deepEqual(onToken(c, c.progressTokens[0]!), []);
  });
});
