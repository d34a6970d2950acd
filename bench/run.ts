/**
 * `npm run bench`: every benchmark of the project in one run, printed as one table (and written to
 * .bench/results.json). Speed goals live here, not in tests: these machines are shared and noisy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Row } from './util';
import { benchCore } from './core';
import { benchSim } from './sim';
import { benchServer } from './server';
import { benchEditor, floorMain } from './editor';
import { benchBalance } from './balance';
import { benchRoster } from './roster';
import { benchBattle } from './battle';
import { benchLoad } from './load';
import { benchLiveOdds } from './liveOdds';

interface Suite {
  title: string;
  key: string;
  run: () => Promise<Row[]>;
}

// bench/run.ts is bundled by esbuild before it runs (npm run bench), so what is timed is the same
// bundled code the CLI and the server ship, not a transpile-on-the-fly of the sources.
const SUITES: Suite[] = [
  { title: 'Validator and CLI core', key: 'core', run: benchCore },
  { title: 'Simulator', key: 'sim', run: benchSim },
  { title: 'Language server over stdio', key: 'server', run: benchServer },
  { title: 'Speed as the editor sees it: built server vs yaml-language-server over stdio', key: 'editor', run: benchEditor },
  { title: 'Points estimate', key: 'balance', run: benchBalance },
  { title: 'Rosters', key: 'roster', run: benchRoster },
  { title: 'Fleet battle', key: 'battle', run: benchBattle },
  { title: 'Under load: hovers beside battles, threads, the dice floor', key: 'load', run: benchLoad },
  { title: 'Live odds lens beside diagnostics', key: 'liveOdds', run: benchLiveOdds },
];

function fmt(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const all: Record<string, unknown[]> = {};
  for (const s of SUITES) {
    if (only.length && !only.includes(s.key)) continue;
    const rows = await s.run();
    all[s.title] = rows;
    console.log(`\n${s.title}`);
    for (const r of rows) {
      const ms = r.medianMs;
      console.log(`  ${r.name.padEnd(92)} ${fmt(ms).padStart(9)} ${r.unit ?? 'ms'}   goal ${r.goal}${r.note ? `   (${r.note})` : ''}`);
    }
  }
  const out = path.join(process.cwd(), '.bench');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify({ date: new Date().toISOString(), node: process.version, results: all }, null, 2));
}

// The floor of the editor bench's (d): run by that bench in a fresh process of this same bundle.
if (process.argv[2] === '--floor') floorMain(process.argv[3]!);
else
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
