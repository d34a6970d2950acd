/**
 * Battles spread over threads, over stdio against the bundled server: a burst of battle requests, as a busy editor
 * sends them, neither starves the editor nor grows without bound. The battles run on worker
 * threads and wait in a bounded queue; hovers are answered meanwhile.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CancellationTokenSource } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';
import { EXAMPLES } from '../exampleFleets';
import { MAX_WAITING } from '../../server/src/lsp/pool';
import { serverThreads } from '../../server/src/node/runners';

function exampleFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(unit|faction|fleet)\.yaml$/.test(f) && !p.includes('showcase')) out[relative(EXAMPLES, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(EXAMPLES);
  return out;
}

describe('a burst of battle requests over stdio', function () {
  this.timeout(180_000);
  let c: Client;
  let fleet: string;
  let vs: string;
  before(async () => {
    const files = exampleFiles();
    c = await startServer({ files });
    fleet = await c.open('fleets/standard-1000.fleet.yaml', files['fleets/standard-1000.fleet.yaml']);
    vs = c.uri('fleets/standard-1000-myr-valari.fleet.yaml');
    for (let i = 0; i < 200 && !(await c.request('fabledStar/fleetSummary', { uri: vs })); i++) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => c?.stop());

  it("answers hovers while 24 battles are in flight, and holds at most the queue's cap of them", async () => {
    const n = 24;
    const sources = Array.from({ length: n }, () => new CancellationTokenSource());
    const settled: (number | 'done' | undefined)[] = Array.from({ length: n }, () => undefined);
    const pending = sources.map((s, i) =>
      c.conn.sendRequest('fabledStar/battle', { fleet: { uri: fleet }, vs: { uri: vs }, options: { trials: 100_000, seed: i + 1 } }, s.token).then(
        () => (settled[i] = 'done'),
        (e: { code?: number }) => (settled[i] = e.code),
      ),
    );
    const hover = await c.request<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: fleet }, position: c.pos(fleet, 'unit: ', 8) });
    assert.ok(hover, 'the hover was answered');
    assert.ok(!settled.includes('done'), 'before any battle finished');
    // The oldest waiting requests beyond the cap are answered ServerCancelled at once.
    const dropped = n - MAX_WAITING - serverThreads();
    for (let i = 0; i < 100 && settled.filter((x) => x === -32802).length < dropped; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(settled.filter((x) => x === -32802).length, dropped, JSON.stringify(settled));
    // The first ones started at once; of those that waited, the oldest were dropped.
    assert.deepEqual(
      settled.slice(serverThreads(), serverThreads() + dropped),
      Array.from({ length: dropped }, () => -32802),
      'the oldest waiting were dropped',
    );
    sources.forEach((s) => s.cancel());
    await Promise.all(pending);
    assert.ok(
      settled.every((x) => x === -32802 || x === -32800),
      JSON.stringify(settled),
    );
  });

  it('tells the client a fleet changed only when something it depends on did (the Fleet view asks again for each)', async () => {
    const changed = () => c.notifications.filter((n) => n.method === 'fabledStar/fleetSummaryChanged' && (n.params as { uri: string }).uri === fleet).length;
    const published = () => c.published.filter((p) => p.uri === fleet).length;
    const start = changed();
    await c.edit(fleet, 'objectives: 6', 'objectives: 7');
    await c.waitFor('a notification for the edit', () => (changed() > start ? true : undefined), 20000);
    await new Promise((r) => setTimeout(r, 500));
    const before = changed();
    // Settings that change nothing the roster shows: every file is checked again, with the same result.
    for (let i = 0; i < 2; i++) {
      const p = published();
      await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: c.settings } });
      await c.waitFor('the fleet checked again', () => (published() > p ? true : undefined), 20000);
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(changed(), before, 'no notification when nothing changed');
    await c.edit(fleet, 'objectives: 7', 'objectives: 6');
    await c.waitFor('a notification for the next edit', () => (changed() > before ? true : undefined), 20000);
  });

  it('answers a repeated request once: the older duplicate is cancelled', async () => {
    const params = { fleet: { uri: fleet }, vs: { uri: vs }, options: { trials: 3000, seed: 99 } };
    const older = c.conn.sendRequest('fabledStar/battle', params).then(
      () => 'done',
      (e: { code?: number }) => e.code,
    );
    const newer = await c.request<{ trials: number }>('fabledStar/battle', params);
    assert.equal(newer.trials, 3000);
    assert.equal(await older, -32802);
  });
});
