import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { startServer } from '../test/protocol/harness';
import { card } from '../bench/generate';
import { cpuMs } from './editor';
import { CLASS_NAMES } from '../server/src/core/rules/data';
const N = 20000;
const where = process.argv[2] ?? 'last';
const files: Record<string, string> = {};
for (let i = 0; i < N; i++) files[`cards/c${String(i).padStart(5, '0')}.unit.yaml`] = ['faction: Bench', 'units:', ...card(i, 'Bench')].join('\n') + '\n';
const base = where === 'last' ? N - 8 : where === 'mid' ? N / 2 : 0;
const out = ['name: F', 'faction: Bench', 'points: 100000', 'objectives: 10', 'units:'];
for (let e = 0; e < 8; e++) { const i = base + e; out.push(`  - unit: Bench ${CLASS_NAMES[4 + (i % 6)]} ${i}`); }
files['fleets/f.fleet.yaml'] = out.join('\n') + '\n';
(async () => {
let t0 = 0;
const pull = process.argv[3] === 'pull';
const c = await startServer({ files, pull, before: () => (t0 = performance.now()) });
const f = await c.open('fleets/f.fleet.yaml', files['fleets/f.fleet.yaml']);
let ms = 0; let cpu = 0;
if (pull) {
  for (;;) {
    const seen = c.refreshes;
    const r = await c.request<any>('textDocument/diagnostic', { textDocument: { uri: f } });
    if (!r.items.some((x: any) => x.code === 'FS-UNIT-UNKNOWN')) { ms = performance.now() - t0; cpu = cpuMs(c.child.pid); break; }
    await c.waitFor('refresh', () => c.refreshes > seen, 120000);
  }
} else {
await c.diagnosticsWhere(f, 'resolved', (d) => !d.some((x) => x.code === 'FS-UNIT-UNKNOWN'), 120000);
ms = c.arrivals.get(f)!.at - t0; cpu = cpuMs(c.child.pid); }
const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${c.child.pid}/status`, 'utf8'))![1]) / 1024;
console.log(where, ms.toFixed(0), 'ms cpu', cpu.toFixed(0), rss.toFixed(0), 'MB', pull);
process.stdout.write(c.stderr); await c.stop();
})();
