/**
 * The main of a generator script: writes the files it generates, or with --check reports the ones
 * that are out of date (the tests and CI use that to catch a committed file that drifted).
 */
import { readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheck(files: { path: string; text: string }[], script: string): void {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const { path, text } of files) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // Missing counts as out of date.
    }
    if (current === text) continue;
    if (check) {
      console.error(`${path} is out of date: run node --import=tsx ${script}`);
      stale++;
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${path}`);
    }
  }
  process.exitCode = stale > 0 ? 1 : 0;
}

/** Runs a script's `main` when the script is the program (not imported): an error is one line on stderr and exit status 1. */
export function runMain(mod: NodeModule, main: () => void): void {
  if (require.main !== mod) return;
  try {
    main();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
