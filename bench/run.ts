/**
 * `npm run bench`: every benchmark of the project in one run, printed as one table (and written to
 * .bench/results.json). Speed goals live here, not in tests: these machines are shared and noisy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Row } from './util';

interface Suite {
  title: string;
  file: string;
  fn: string;
}

const SUITES: Suite[] = [
  { title: 'Validator and CLI core (issue 2)', file: './core.ts', fn: 'benchCore' },
  { title: 'Simulator (issue 4)', file: './sim.ts', fn: 'benchSim' },
  { title: 'Language server over stdio (issue 3)', file: './server.ts', fn: 'benchServer' },
];

function fmt(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const all: Record<string, unknown[]> = {};
  for (const s of SUITES) {
    if (only.length && !only.some((o) => s.file.includes(o))) continue;
    if (!fs.existsSync(path.join(__dirname, s.file))) continue;
    const mod = (await import(s.file)) as Record<string, () => Promise<Record<string, unknown>[]>>;
    const rows = await mod[s.fn]!();
    all[s.title] = rows;
    console.log(`\n${s.title}`);
    for (const r of rows as unknown as (Row & { median?: number; medianMs?: number })[]) {
      const ms = r.medianMs ?? r.median ?? NaN;
      console.log(`  ${r.name.padEnd(92)} ${fmt(ms).padStart(9)} ms   goal ${r.goal}${r.note ? `   (${r.note})` : ''}`);
    }
  }
  fs.mkdirSync(path.join(__dirname, '..', '.bench'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, '..', '.bench', 'results.json'), JSON.stringify({ date: new Date().toISOString(), node: process.version, results: all }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
