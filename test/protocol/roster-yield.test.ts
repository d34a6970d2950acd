/**
 * A big fleet's roster does not hold up what was asked with it, over stdio against the bundled
 * server: the roster of a 500-entry fleet takes tens of milliseconds on the server's thread, and
 * the Fleet view asks for it right behind each edit. A hover read with it is answered first, and a
 * roster cancelled in the same read (superseded by the next edit) is not computed at all. The
 * messages are written in one write, so that the server reads them together whatever the pipe does.
 */
import { strict as assert } from 'node:assert';
import { fleetServer, type Client } from './harness';
import { FILES } from './fixtures';
import type { RosterData } from '../../protocol';

function bigFleet(n: number): string {
  const names = ['Lumen Destroyer', 'Shardlight Escort', 'Lumen Cruiser'];
  const entries = Array.from({ length: n }, (_, i) => `  - unit: ${names[i % names.length]}\n    count: ${1 + (i % 3)}\n`);
  return `name: Big Screen\nfaction: Myr-Valari\npoints: 1000\nunits:\n${entries.join('')}`;
}

describe('a big roster does not hold up what was asked with it', function () {
  this.timeout(120_000);
  let c: Client;
  let uri: string;

  before(async () => {
    ({ c, uri } = await fleetServer(FILES, 'fleets/big.fleet.yaml', bigFleet(500), (r) => r.entries.length === 500 && r.entries[1]?.class === 'Escort'));
  });
  after(async () => c?.stop());

  type Answer = { id?: string; result?: unknown; error?: { code: number } };

  /**
   * Writes messages to the server in one write (so that it reads them together); the answers to
   * those with an id, in the order they come.
   */
  function together(messages: object[]): Promise<Answer[]> {
    const ids = new Set(messages.map((m) => (m as { id?: string }).id).filter((id) => id !== undefined));
    let seen = Buffer.alloc(0);
    return new Promise((resolve) => {
      const listen = (d: Buffer) => {
        seen = Buffer.concat([seen, d]);
        const answers: Answer[] = [];
        for (let at = 0; ;) {
          const head = seen.indexOf('\r\n\r\n', at);
          if (head < 0) break;
          const length = Number(/Content-Length: (\d+)/.exec(seen.subarray(at, head).toString())?.[1]);
          if (seen.length < head + 4 + length) break;
          const m = JSON.parse(seen.subarray(head + 4, head + 4 + length).toString()) as Answer;
          if (m.id !== undefined && ids.has(m.id)) answers.push(m);
          at = head + 4 + length;
        }
        if (answers.length === ids.size) {
          c.child.stdout!.off('data', listen);
          resolve(answers);
        }
      };
      c.child.stdout!.on('data', listen);
      const frame = (m: object) => {
        const body = JSON.stringify({ jsonrpc: '2.0', ...m });
        return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      };
      c.child.stdin!.write(messages.map(frame).join(''));
    });
  }

  it('answers a hover read with a roster request before the roster', async () => {
    const position = c.pos(uri, 'unit: ', 8);
    for (let i = 0; i < 3; i++) {
      const order = await together([
        { id: `roster-${i}`, method: 'fabledStar/roster', params: { uri } },
        { id: `hover-${i}`, method: 'textDocument/hover', params: { textDocument: { uri }, position } },
      ]);
      assert.deepEqual(
        order.map((a) => a.id),
        [`hover-${i}`, `roster-${i}`],
      );
      assert.equal((order[1]!.result as RosterData).entries.length, 500, 'the roster is whole');
    }
  });

  it('does not compute a roster cancelled in the same read', async () => {
    const order = await together([
      { id: 'cancelled-roster', method: 'fabledStar/roster', params: { uri } },
      { method: '$/cancelRequest', params: { id: 'cancelled-roster' } },
      { id: 'next-roster', method: 'fabledStar/roster', params: { uri } },
    ]);
    assert.deepEqual(
      order.map((a) => [a.id, a.error?.code]),
      [
        ['cancelled-roster', -32800],
        ['next-roster', undefined],
      ],
    );
    assert.equal((order[1]!.result as RosterData).entries.length, 500, 'the next roster is answered');
  });
});
