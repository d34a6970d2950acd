/**
 * `npm run fuzz`: the property tests of test/hardening run long, with a fresh seed each time
 * (`npm test` runs them with a fixed seed and a bounded count). A failure prints fast-check's
 * counterexample and the seed that reproduces it:
 *
 *   npm run fuzz -- --seed 12345 --runs 20000 --server-runs 300
 *
 * Options: --runs N (core runs per unit of weight, default 2000), --server-runs N (edit sequences
 * through the language server, default 200), --seed N (default: random), --core-only.
 */
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_PROPERTIES } from '../test/hardening/properties';

/** fast-check's report and the failure inside it (the counterexample alone does not say what broke). */
function describe(e: unknown): string {
  const err = e as Error & { cause?: unknown };
  const cause = err.cause instanceof Error ? `\nCaused by: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '2000' },
      'server-runs': { type: 'string', default: '200' },
      seed: { type: 'string' },
      'core-only': { type: 'boolean', default: false },
    },
  });
  const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
  const runs = Number(values.runs);
  const serverRuns = Number(values['server-runs']);
  if (!Number.isInteger(seed) || !(runs > 0) || !(serverRuns >= 0)) {
    console.error('fuzz: --seed, --runs and --server-runs take whole numbers');
    return 2;
  }
  console.log(`seed ${seed}`);
  let failed = 0;
  let total = 0;
  for (const p of CORE_PROPERTIES) {
    const numRuns = runs * p.weight;
    const t = performance.now();
    try {
      p.run({ seed, numRuns });
      console.log(`ok   ${numRuns.toLocaleString('en')} runs in ${((performance.now() - t) / 1000).toFixed(1)} s: ${p.name}`);
      total += numRuns;
    } catch (e) {
      failed++;
      console.log(`FAIL ${p.name}\n${describe(e)}`);
    }
  }
  if (!values['core-only'] && serverRuns > 0) {
    if (!existsSync(join(__dirname, '..', 'dist', 'server.js'))) {
      console.error('fuzz: dist/server.js is missing: run "node esbuild.mjs" first');
      return 2;
    }
    // Loaded only here: the server harness spawns processes.
    const { startBounded, runEditProperty } = await import('../test/hardening/server-harness');
    const [editor, fresh] = await Promise.all([startBounded(), startBounded()]);
    const t = performance.now();
    try {
      await runEditProperty(editor, fresh, { seed, numRuns: serverRuns });
      console.log(
        `ok   ${serverRuns.toLocaleString('en')} edit sequences in ${((performance.now() - t) / 1000).toFixed(1)} s: language server, incremental edits vs a fresh open`,
      );
      total += serverRuns;
    } catch (e) {
      failed++;
      console.log(`FAIL language server, incremental edits vs a fresh open\n${describe(e)}`);
    } finally {
      await Promise.all([editor.stop(), fresh.stop()]);
    }
  }
  console.log(
    failed ? `${failed} propert${failed === 1 ? 'y' : 'ies'} failed (seed ${seed})` : `all properties held: ${total.toLocaleString('en')} runs (seed ${seed})`,
  );
  return failed ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);
