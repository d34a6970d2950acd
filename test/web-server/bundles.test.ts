/**
 * The browser version's bundles (dist/web/) hold no `require` or `import` of a Node built-in: a web
 * worker and VS Code for the web's extension host have no Node. Read from the bundles' text after
 * the build, whatever the build's settings say.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeImports } from './nodeImports';

const ROOT = join(__dirname, '..', '..');
const WEB = join(ROOT, 'dist', 'web');

function bundles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? bundles(join(dir, d.name)) : d.name.endsWith('.js') || d.name.endsWith('.mjs') || d.name.endsWith('.cjs') ? [join(dir, d.name)] : [],
  );
}

describe('web bundles: no Node built-in', () => {
  it('the scanner finds each way of loading a Node module (it could fail)', () => {
    const samples = [
      'var fs = require("fs");',
      "const p = require('node:path')",
      'import { Worker } from "worker_threads";',
      "import * as cp from 'child_process';",
      'import "node:crypto";',
      'await import("os")',
      'export { x } from "node:fs/promises";',
      'require(`perf_hooks`)',
    ];
    for (const s of samples) assert.equal(nodeImports(s).length >= 1, true, `not found in: ${s}`);
    for (const s of ['require("vscode-uri")', 'import x from "yaml"', 'const s = "a path: fs/x"', 'import("./chunk.js")'])
      assert.deepEqual(nodeImports(s), [], `found in: ${s}`);
    // The desktop server's bundle does load Node modules: the scanner sees them there.
    const desktop = readFileSync(join(ROOT, 'dist', 'server.js'), 'utf8');
    assert.ok(
      nodeImports(desktop).some((i) => /fs|worker_threads|crypto/.test(i.spec)),
      'the desktop bundle shows no Node module to the scanner',
    );
  });

  it('dist/web holds the server, its simulation worker and the client, none loading a Node module', () => {
    for (const f of ['server.js', 'sim-worker.js', 'client.js']) assert.ok(existsSync(join(WEB, f)), `no dist/web/${f} (npm run build)`);
    const found = bundles(WEB).flatMap((file) =>
      nodeImports(readFileSync(file, 'utf8')).map((i) => `${file.slice(ROOT.length + 1)}:${i.line}: ${i.spec} (${i.around})`),
    );
    assert.deepEqual(found, []);
  });
});
