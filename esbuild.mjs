// One build script, one esbuild context per bundle (ARCHITECTURE.md). `--watch` rebuilds on change;
// `--production` minifies and drops source maps (what `npm run package` ships).
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

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

// The browser version (VS Code for the web: vscode.dev, github.dev): the client in the web
// extension host, the server and its simulations in web workers, under dist/web/. No Node: esbuild
// builds for the browser with no shims, and a test fails on any Node module in these bundles
// (test/web-server/bundles.test.ts). The LSP layer is the desktop's; the few of its modules that
// need Node are swapped for their browser counterparts (each with the same exports), and the
// language libraries for their browser builds.
const webSwaps = {
  'server/src/lsp/files.ts': 'server/src/web/files.ts',
  'server/src/node/runners.ts': 'server/src/web/runners.ts',
  'server/src/lsp/liveOdds.ts': 'server/src/web/liveOdds.ts',
  'server/src/node/sim-pool.ts': 'server/src/web/sim-pool.ts',
  'server/src/node/read.ts': 'server/src/web/read.ts',
  'client/src/platform.ts': 'client/src/web/platform.ts',
};
const webLibraries = {
  'vscode-languageserver/node': 'vscode-languageserver/browser',
  'vscode-languageclient/node': 'vscode-languageclient/browser',
};
const webSwap = {
  name: 'web-swap',
  setup(build) {
    const root = path.dirname(fileURLToPath(import.meta.url));
    const swaps = new Map(Object.entries(webSwaps).map(([from, to]) => [path.join(root, from), path.join(root, to)]));
    build.onResolve({ filter: /^(vscode-languageserver|vscode-languageclient)\/node$/ }, (args) =>
      build.resolve(webLibraries[args.path], { kind: args.kind, resolveDir: args.resolveDir }),
    );
    // The YAML parser reads `require('buffer').Buffer` only to hand `!!binary` values over as a
    // Buffer when there is one, and an array of bytes when there is none (its type/binary.js): in
    // the browser, none. Not a shim: the module it gets is empty.
    build.onResolve({ filter: /^buffer$/ }, (args) =>
      args.importer.includes(`${path.sep}@stoplight${path.sep}yaml-ast-parser${path.sep}`) ? { path: 'buffer', namespace: 'no-buffer' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-buffer' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = path.join(args.resolveDir, args.path);
      for (const candidate of [target, `${target}.ts`]) {
        const to = swaps.get(candidate);
        if (to) return { path: to };
      }
      return undefined;
    });
  },
};
const web = {
  ...common,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  plugins: [webSwap],
  // Some libraries read process.env.NODE_ENV; a browser has no process.
  define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
};
bundles.push(
  { ...web, entryPoints: ['server/src/web/server.ts'], outfile: 'dist/web/server.js' },
  { ...web, entryPoints: ['server/src/web/sim-worker.ts'], outfile: 'dist/web/sim-worker.js' },
  // The web extension host loads it as CommonJS (module.exports.activate), with `vscode` given.
  { ...web, format: 'cjs', entryPoints: ['client/src/web/extension.ts'], outfile: 'dist/web/client.js', external: ['vscode'] },
);

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
