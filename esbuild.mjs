// One build script, one esbuild context per bundle (ARCHITECTURE.md). `--watch` rebuilds on change;
// `--production` minifies and drops source maps (what `npm run package` ships).
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

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

const bundles = [
  { ...node, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' },
  { ...node, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js' },
  // balance --battles' worker threads (server/src/cli/price-pool.ts).
  { ...node, entryPoints: ['server/src/cli/price-worker.ts'], outfile: 'dist/price-worker.js' },
  { ...node, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  {
    ...common,
    entryPoints: ['client/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['client/webview/battle/main.ts'],
    outfile: 'dist/battle.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
].filter((b) => existsSync(b.entryPoints[0]));

if (watch) {
  for (const b of bundles) {
    const ctx = await esbuild.context(b);
    await ctx.watch();
  }
} else {
  await Promise.all(bundles.map((b) => esbuild.build(b)));
}
