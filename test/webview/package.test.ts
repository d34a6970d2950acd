/**
 * What the VSIX carries, as vsce itself lists it from .vscodeignore: only what runs (the bundles,
 * grammars, snippets, icons, manifest and licence), and every file the manifest points at.
 * The size limit is checked by `npm run package`'s output in CI, not here (it needs a production build).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './harness';

const run = promisify(execFile);

/** Every shipped file must match one of these. */
const ALLOWED = [
  /^package\.json$/,
  /^(README|CHANGELOG)\.md$/,
  /^LICENSE$/,
  /^dist\/(client|server|engagement|battle|field|sim-worker|sim-thread)\.js$/,
  /^dist\/entry\/worker\.js$/,
  // The browser version (package.json `browser`).
  /^dist\/web\/(client|server|sim-worker)\.js$/,
  /^dist\/(engagement|battle|field)\.css$/,
  /^language-configuration\.json$/,
  /^syntaxes\/[\w.-]+\.tmLanguage\.json$/,
  /^icons\/fabled-(unit|faction|fleet)\.svg$/,
  /^icons\/fabled-star\.png$/,
  // The screenshots of the player's page and the walkthrough.
  /^docs\/images\/[\w-]+\.png$/,
  // Each problem code's page (the Problems panel opens it in the editor) and the format page they link to.
  /^docs\/codes\/(FS-[A-Z0-9-]+|README)\.md$/,
  /^docs\/format\.md$/,
];

/** Every `./path` (or `icons/...`-style path) that the manifest names. */
function manifestPaths(manifest: Record<string, unknown>): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string') {
      if (
        (key === 'path' ||
          key === 'url' ||
          key === 'configuration' ||
          key === 'light' ||
          key === 'dark' ||
          key === 'main' ||
          key === 'browser' ||
          key === 'icon' ||
          key === 'image' ||
          key === 'markdown') &&
        /^\.?\/?[\w-]+\/|\.json$|\.png$|\.svg$|\.js$/.test(v) &&
        !v.startsWith('$(')
      ) {
        out.add(v.replace(/^\.\//, ''));
      }
      return;
    }
    if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk({ main: manifest['main'], browser: manifest['browser'], icon: manifest['icon'] }, '');
  walk(manifest['contributes'], 'contributes');
  return [...out].sort();
}

/** The views esbuild.mjs builds (its list of view folders): each one's bundle must ship, or its panel opens blank. */
const VIEWS = (() => {
  const m = /\.\.\.\[([^\]]+)\]\.map\(\(view\)/.exec(readFileSync(join(ROOT, 'esbuild.mjs'), 'utf8'));
  return m ? [...m[1]!.matchAll(/'([\w-]+)'/g)].map((x) => x[1]!) : [];
})();

describe('VSIX contents (vsce ls)', function () {
  this.timeout(120_000);
  let files: string[];

  before(async function () {
    // vsce lists only files that exist; the bundles come from `npm run build` (which `npm test` runs first).
    for (const bundle of ['dist/client.js', 'dist/server.js', ...VIEWS.flatMap((v) => [`dist/${v}.js`, `dist/${v}.css`])]) {
      assert.ok(existsSync(join(ROOT, bundle)), `${bundle} is missing: run npm run build first`);
    }
    const vsce = join(ROOT, 'node_modules', '.bin', 'vsce');
    const { stdout } = await run(vsce, ['ls', '--no-dependencies'], { cwd: ROOT, maxBuffer: 1 << 24 });
    files = stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .sort();
  });

  it("ships every problem code's page, which the editor opens from the package", () => {
    const pages = readdirSync(join(ROOT, 'docs', 'codes')).filter((f) => f.endsWith('.md'));
    assert.ok(pages.length > 50, `${pages.length} pages`);
    for (const p of pages) assert.ok(files.includes(`docs/codes/${p}`), `docs/codes/${p} is not shipped (.vscodeignore)`);
  });

  it('ships nothing but what runs: no sources, source maps or node_modules', () => {
    const stray = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
    assert.deepEqual(stray, []);
    assert.ok(!files.some((f) => f.endsWith('.map') || f.endsWith('.ts') || f.startsWith('node_modules/')));
  });

  it('ships every file the manifest points at', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const wanted = manifestPaths(manifest);
    assert.ok(
      wanted.includes('dist/client.js') && wanted.includes('dist/web/client.js') && wanted.includes('language-configuration.json'),
      `found ${wanted.join(', ')}`,
    );
    assert.deepEqual(
      wanted.filter((p) => !files.includes(p)),
      [],
    );
  });

  it("ships every view's script and style sheet (esbuild.mjs's list of views)", () => {
    assert.ok(VIEWS.length >= 3 && VIEWS.includes('engagement'), VIEWS.join(', '));
    for (const v of VIEWS) for (const f of [`dist/${v}.js`, `dist/${v}.css`]) assert.ok(files.includes(f), `${f} is not shipped (.vscodeignore)`);
  });

  it('ships the four bundles, the licence and the extension icon', () => {
    for (const f of [
      'dist/client.js',
      'dist/server.js',
      'dist/engagement.js',
      'dist/engagement.css',
      'dist/battle.js',
      'dist/battle.css',
      'dist/field.js',
      'dist/field.css',
      // The simulations' worker threads: the server starts them from these three.
      'dist/sim-worker.js',
      'dist/sim-thread.js',
      'dist/entry/worker.js',
      'LICENSE',
      'icons/fabled-star.png',
    ]) {
      assert.ok(files.includes(f), f);
    }
  });
});
