/**
 * Where the server's simulations run (server/src/node/runners.ts `serverRunner`), over stdio against
 * the bundled server: Price by battle's battles run on its worker threads, not on the thread that
 * answers the editor, which answers a hover within 50 ms while they run (Linux: /proc says how
 * much CPU each thread of the server spent).
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CancellationTokenSource, type Hover } from 'vscode-languageserver-protocol/node';
import { startServer } from './harness';
import { PriceByBattlePartial } from '../../protocol';

const CARD = [
  'faction: Lab',
  'units:',
  '  - name: Lab Frigate',
  '    class: Frigate',
  '    points: 110',
  '    stats: "9/3 5+ 7+ 3 7+ 3 6/2 8/2 2"',
  '    weapons:',
  '      - Lance — Energy, 12", 2, 2',
  '      - Battery — Auto, 9", 1, 3',
  '',
].join('\n');

/** CPU time (clock ticks) of a process's threads: its main thread's (the one whose id is the process's) and the others'. */
function cpuOf(pid: number): { main: number; others: number } {
  let main = 0;
  let others = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpu = Number(f[11]) + Number(f[12]);
      if (Number(t) === pid) main += cpu;
      else others += cpu;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return { main, others };
}

describe('the server runs no simulation on its own thread', function () {
  this.timeout(300_000);
  it('Price by battle plays on worker threads, and a hover is answered within 50 ms while it runs', async () => {
    const c = await startServer({ files: { 'cards/lab.unit.yaml': CARD } });
    try {
      const uri = await c.open('cards/lab.unit.yaml', CARD);
      const hover = () => c.request<Hover>('textDocument/hover', { textDocument: { uri }, position: c.pos(uri, 'points: 1', 9) });
      await hover();
      const pid = c.child.pid!;
      const source = new CancellationTokenSource();
      let first!: () => void;
      const started = new Promise<void>((res) => (first = res));
      const sub = c.conn.onProgress(PriceByBattlePartial, 'runner-price', () => first());
      let settled = false;
      const p = c.conn
        .sendRequest('fabledStar/priceByBattle', { card: { name: 'Lab Frigate' }, partialResultToken: 'runner-price' }, source.token)
        .catch(() => undefined)
        .finally(() => (settled = true));
      await started;
      // Measured while the pricing runs, and only then: once it has ended the workers are idle and
      // the server's thread alone answers, whatever the threads did while it ran (a fixed 30 hovers
      // 150 ms apart outlasted a pricing that now takes about a third of a second, and failed).
      // Hovers 30 ms apart: enough of them in that time, and few enough that on a slow machine,
      // where the pricing takes longer, the hovers' own CPU stays small beside the battles'.
      const before = cpuOf(pid);
      const waits: number[] = [];
      const cap = performance.now() + 60_000;
      while (!settled && performance.now() < cap) {
        const t0 = performance.now();
        assert.ok(await hover(), 'a hover while it prices');
        waits.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 30));
      }
      source.cancel();
      await p;
      const after = cpuOf(pid);
      sub.dispose();
      assert.ok(waits.length >= 5, `only ${waits.length} hovers while it priced: too short a pricing to measure`);
      waits.sort((a, b) => a - b);
      const median = waits[waits.length >> 1]!;
      const main = after.main - before.main;
      const others = after.others - before.others;
      assert.ok(median <= 50, `hovers took ${waits.map((w) => w.toFixed(0)).join(', ')} ms`);
      // The battles' CPU time is the worker threads': the server's thread only answers (hovers, progress).
      assert.ok(others > 4 * main, `while pricing: the server's thread ${main} ticks, its other threads ${others}`);
    } finally {
      await c.stop();
    }
  });
});
