// One build script, one esbuild context per bundle (ARCHITECTURE.md). `--watch` rebuilds on change;
// `--production` minifies and drops source maps (what `npm run package` ships).
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20' };

// tinypool (the simulations' worker threads, server/src/node/sim-pool.ts) is an ES module that
// finds its thread entry beside itself through import.meta.url: in these CommonJS bundles that is
// the bundle's own URL, so it starts dist/entry/worker.js, tinypool's entry bundled below, which
// loads dist/sim-thread.js (written below), which requires dist/sim-worker.js. All four ship in
// the VSIX (.vscodeignore).
const withPool = {
  ...node,
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: 'var __bundleUrl = require("url").pathToFileURL(__filename).href;' },
};

const bundles = [
  { ...withPool, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' },
  // playwright-core prints `cards --format pdf` when installed (server/src/cli/pdf.ts); never bundled.
  { ...withPool, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', external: ['playwright-core'] },
  { ...withPool, entryPoints: ['server/src/node/sim-worker.ts'], outfile: 'dist/sim-worker.js' },
  { ...withPool, entryPoints: ['node_modules/tinypool/dist/entry/worker.js'], outfile: 'dist/entry/worker.js' },
  { ...node, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  // The views, one folder each (client/webview/<view>/main.ts -> dist/<view>.js and .css).
  ...['engagement', 'battle', 'field'].map((view) => ({
    ...common,
    entryPoints: [`client/webview/${view}/main.ts`],
    outfile: `dist/${view}.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  })),
];

// A missing entry point is a broken build (a file moved without its line here), not a bundle to skip.
const missing = bundles.flatMap((b) => b.entryPoints).filter((entry) => !existsSync(entry));
if (missing.length) {
  console.error(`esbuild.mjs: no such entry point: ${missing.join(', ')}`);
  process.exit(1);
}

// The threads' entry (sim-pool.ts `workerFile`): tinypool import()s it, and Node reads a CommonJS
// file it imports all through for its exports (cjs-module-lexer), about 80 ms of CPU for the
// worker bundle in every thread started. A file of one line is read that way instead; the bundle it
// requires is loaded as require loads it.
mkdirSync('dist', { recursive: true });
writeFileSync(
  'dist/sim-thread.js',
  "'use strict';\n// The simulations' worker threads start here (esbuild.mjs says why it is apart).\nconst worker = require('./sim-worker.js');\nmodule.exports = worker.default;\n",
);

if (watch) {
  for (const b of bundles) {
    const ctx = await esbuild.context(b);
    await ctx.watch();
  }
} else {
  await Promise.all(bundles.map((b) => esbuild.build(b)));
}
