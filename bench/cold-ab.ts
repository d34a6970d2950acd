/**
 * Interleaved A/B of the cold open (part (a) of `npm run bench -- editor`): each argument is a
 * server bundle, optionally followed by `|` and Node options for its process. The runs alternate
 * so that every variant sees the same load; medians of the wall clock (didOpen -> diagnostics) and
 * of the server's CPU time (main thread, and the whole process with its helper threads).
 *
 *   cp dist/server.js /tmp/before.js   # then change and rebuild
 *   npx tsx bench/cold-ab.ts /tmp/before.js dist/server.js "dist/server.js|--single-threaded-gc"
 *
 * N=runs per variant (default 9); PAUSE=ms between initialize and didOpen (default 300, as the bench).
 */
import { performance } from 'node:perf_hooks';
import { coldFile, cpuMs, mainThreadMs } from './editor';
import { startServer } from '../test/protocol/harness';

const variants = process.argv.slice(2);
if (!variants.length) {
  console.error('usage: npx tsx bench/cold-ab.ts <server bundle>[|<node options>] ...');
  process.exit(2);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main(): Promise<void> {
  const text = coldFile();
  const runs = Number(process.env.N ?? 9);
  const res = variants.map(() => ({ wall: [] as number[], main: [] as number[], all: [] as number[], problems: 0 }));
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < variants.length; k++) {
      const [bundle, args] = variants[k]!.split('|');
      process.env.FABLED_SERVER_BUNDLE = bundle;
      process.env.FABLED_SERVER_NODE_ARGS = args ?? '';
      const c = await startServer({ folder: false });
      try {
        await new Promise((r) => setTimeout(r, Number(process.env.PAUSE ?? 300)));
        const pid = c.child.pid!;
        const m0 = mainThreadMs(pid);
        const a0 = cpuMs(pid);
        const t0 = performance.now();
        const uri = await c.open('big.unit.yaml', text);
        await c.waitFor('diagnostics', () => c.arrivals.has(uri), 60000);
        res[k]!.wall.push(c.arrivals.get(uri)!.at - t0);
        res[k]!.main.push(mainThreadMs(pid) - m0);
        res[k]!.all.push(cpuMs(pid) - a0);
        res[k]!.problems = c.diagnostics.get(uri)!.diagnostics.length;
      } finally {
        await c.stop();
      }
    }
  }
  for (let k = 0; k < variants.length; k++) {
    const r = res[k]!;
    console.log(
      `${variants[k]}: wall ${median(r.wall).toFixed(0)} ms (${Math.min(...r.wall).toFixed(0)}-${Math.max(...r.wall).toFixed(0)}), ` +
        `main thread ${median(r.main).toFixed(0)} ms, process CPU ${median(r.all).toFixed(0)} ms, ${r.problems} problems, n=${runs}`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
