/**
 * How soon V8 compiles a hot function into optimised code.
 *
 * The server works in bursts: opening a big file, reading a workspace, a keystroke. V8 optimises
 * the functions a burst makes hot by compiling them on background threads (four of them, however
 * many cores the machine has), and the YAML parser's functions are large and costly to compile.
 * Opening a 20,000-line card file on a two-core machine took about 200 ms on the main thread and
 * 250 ms more on those threads. Almost all of that was optimising compiles (with them made on the
 * main thread instead, its time doubled). They competed for the cores with the work itself.
 *
 * Node 20's V8 (11.x) optimises a function once it has run through 66 KB of bytecode. With twice
 * that budget, the same open took about 350 ms of CPU instead of 460, and its diagnostics came about
 * 10% sooner. A budget four times the default did no better, and eight times was slower than the
 * default: more of the burst ran unoptimised. `npm run bench -- editor` measures the open.
 * Steady work (the simulator, a long scan) is optimised a moment later and then runs as fast.
 *
 * Other V8 versions tier up differently (Node 22 and later add Maglev and do not have this flag):
 * they are left as they are, since nothing here was measured on them.
 */
import * as v8 from 'node:v8';

/** V8's default `--interrupt-budget` in the versions this applies to (11.x, Node 20). */
const DEFAULT_BUDGET = 66 * 1024;
export const BUDGET_FACTOR = 2;

/** The flag to set for a V8 version (process.versions.v8), or undefined to leave V8 as it is. */
export function tieringFlag(v8Version: string): string | undefined {
  const major = Number(v8Version.split('.')[0]);
  return major === 11 ? `--interrupt-budget=${DEFAULT_BUDGET * BUDGET_FACTOR}` : undefined;
}

/** Sets the budget for this process's V8 (before any work, so that every function gets it). */
export function tuneTiering(v8Version = process.versions.v8): string | undefined {
  const flag = tieringFlag(v8Version);
  if (flag) v8.setFlagsFromString(flag);
  return flag;
}
