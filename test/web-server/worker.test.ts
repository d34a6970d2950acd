/**
 * dist/web/server.js in a plain browser Worker, as the browser version runs it: a page on
 * 127.0.0.1 (no cross-origin isolation, so no SharedArrayBuffer) starts `new Worker('/dist/web/server.js')`
 * and speaks LSP to it over postMessage, with no workspace folder. It answers initialize, publishes
 * the diagnostics of opened documents (cards in one resolving for a fleet in another), hovers with
 * rule text, and plays `fabledStar/battle` between two opened fleets with the figures of the CLI
 * (`node dist/cli.js battle --format json`) for the same seed and trials; the battle runs in the
 * simulation worker fetched beside the server bundle.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../chromium';
import { EXAMPLES, EXAMPLE_BATTLE_ARGS } from '../exampleFleets';

const ROOT = join(__dirname, '..', '..');

/** The examples' card, faction and fleet files (the showcase's deliberate mistakes left out), by path under examples/. */
function exampleFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(unit|faction|fleet)\.yaml$/.test(f) && !p.includes('showcase')) out[relative(EXAMPLES, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(EXAMPLES);
  return out;
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>web server</title><script>
window.received = [];
window.requests = [];
window.worker = new Worker('/dist/web/server.js');
window.worker.onmessage = (e) => window.received.push(e.data);
window.worker.onerror = (e) => window.received.push({ workerError: String(e.message) });
window.send = (m) => window.worker.postMessage(m);
</script>`;

interface Rpc {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

describe('dist/web/server.js in a browser Worker', function () {
  this.timeout(240_000);
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const fetched: string[] = [];
  let nextId = 1;

  const all = () => page.evaluate(() => (window as unknown as { received: Rpc[] }).received);
  const notify = (method: string, params: unknown) =>
    page.evaluate((m) => (window as unknown as { send(m: unknown): void }).send(m), { jsonrpc: '2.0', method, params });

  async function request<R>(method: string, params: unknown, ms = 120_000): Promise<R> {
    const id = nextId++;
    await page.evaluate((m) => (window as unknown as { send(m: unknown): void }).send(m), { jsonrpc: '2.0', id, method, params });
    const until = Date.now() + ms;
    for (;;) {
      const got = (await all()).find((m) => m.id === id && m.method === undefined);
      if (got) {
        if (got.error) throw new Error(`${method}: ${got.error.message}`);
        return got.result as R;
      }
      if (Date.now() > until) throw new Error(`${method}: no answer in ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The last diagnostics published for a uri once `ok` holds for them. */
  async function diagnostics(uri: string, ok: (d: { message: string; severity?: number; code?: unknown }[]) => boolean, ms = 60_000) {
    const until = Date.now() + ms;
    let last: { message: string; severity?: number; code?: unknown }[] | undefined;
    for (;;) {
      const published = (await all()).filter((m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri);
      last = published.length ? (published[published.length - 1]!.params as { diagnostics: typeof last }).diagnostics : undefined;
      if (last && ok(last)) return last;
      if (Date.now() > until) throw new Error(`diagnostics of ${uri}: ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const uri = (p: string) => `file:///workspace/${p}`;
  const open = (p: string, text: string) =>
    notify('textDocument/didOpen', {
      textDocument: {
        uri: uri(p),
        languageId: p.endsWith('.fleet.yaml') ? 'fabled-fleet' : p.endsWith('.faction.yaml') ? 'fabled-faction' : 'fabled-unit',
        version: 1,
        text,
      },
    });

  before(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      fetched.push(path);
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(PAGE);
      }
      const m = /^\/dist\/web\/([a-z-]+\.js)$/.exec(path);
      if (!m) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(join(ROOT, 'dist', 'web', m[1]!)));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${origin}/`);
    assert.equal(await page.evaluate(() => typeof SharedArrayBuffer), 'undefined', 'the page must not be cross-origin isolated');
  });

  after(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  it('answers initialize with no workspace folder', async () => {
    const r = await request<{ capabilities: { hoverProvider?: unknown }; serverInfo: { name: string } }>('initialize', {
      processId: null,
      rootUri: null,
      workspaceFolders: null,
      capabilities: { textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } },
    });
    assert.equal(r.serverInfo.name, 'fabled-star-language-server');
    assert.ok(r.capabilities.hoverProvider);
    await notify('initialized', {});
  });

  it('resolves a fleet with the cards of another opened document, and checks the example fleets clean', async () => {
    const files = exampleFiles();
    // A homebrew card of the Consumed in a cards document of its own, which no bundled example
    // has: only that opened document can resolve it for the fleet.
    const squadrons = files['consumed/maw-squadrons.unit.yaml']!;
    const start = squadrons.indexOf('  - name: Maw Escort Pack');
    const end = squadrons.indexOf('\n  - name:', start + 1);
    const card = squadrons.slice(start, end < 0 ? undefined : end).replace('Maw Escort Pack', 'Maw Escort Brood');
    const fleet = 'fleets/brood.fleet.yaml';
    await open(fleet, files['fleets/standard-1000.fleet.yaml']!.replaceAll('Maw Escort Pack', 'Maw Escort Brood'));
    const before = await diagnostics(uri(fleet), (d) => d.some((x) => x.severity === 1));
    assert.ok(
      before.some((d) => d.message.includes('Maw Escort Brood')),
      JSON.stringify(before),
    );
    await open('homebrew/brood.unit.yaml', `faction: Consumed\nunits:\n${card}\n`);
    for (const [p, text] of Object.entries(files)) if (!p.startsWith('fleets/')) await open(p, text);
    await diagnostics(uri(fleet), (d) => !d.some((x) => x.severity === 1));
    for (const f of ['standard-1000', 'standard-1000-myr-valari']) {
      await open(`fleets/${f}.fleet.yaml`, files[`fleets/${f}.fleet.yaml`]!);
      const d = await diagnostics(uri(`fleets/${f}.fleet.yaml`), () => true);
      assert.deepEqual(
        d.filter((x) => x.severity === 1 || x.severity === 2),
        [],
      );
    }
  });

  it('hovers a stat with its rule text', async () => {
    const text = exampleFiles()['consumed/maw-squadrons.unit.yaml']!;
    const at = text.indexOf('class: Fighter');
    const line = text.slice(0, at).split('\n').length - 1;
    const character = at - text.lastIndexOf('\n', at) - 1 + 2;
    const h = await request<{ contents: { kind: string; value: string } } | null>('textDocument/hover', {
      textDocument: { uri: uri('consumed/maw-squadrons.unit.yaml') },
      position: { line, character },
    });
    assert.ok(h, 'no hover');
    assert.equal(h.contents.kind, 'markdown');
    assert.match(h.contents.value, /\u00a7\s*\d+/, h.contents.value);
    assert.match(h.contents.value, /Fighter/, h.contents.value);
  });

  it("plays a battle of two opened fleets with the CLI's figures for the same seed and trials", async () => {
    const options = { trials: 2000, seed: 42, rounds: 5 };
    const r = await request<{ sides: { fleet: string }[] }>('fabledStar/battle', {
      fleet: { uri: uri('fleets/standard-1000.fleet.yaml') },
      vs: { uri: uri('fleets/standard-1000-myr-valari.fleet.yaml') },
      options,
    });
    const cli = JSON.parse(
      execFileSync(
        process.execPath,
        [join(ROOT, 'dist', 'cli.js'), 'battle', ...EXAMPLE_BATTLE_ARGS, '--trials', '2000', '--seed', '42', '--rounds', '5', '--format', 'json'],
        {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      ),
    ) as unknown;
    assert.deepEqual(r, cli);
    assert.equal(r.sides[0]!.fleet, 'The Hunger Within');
    // Played in the simulation worker beside the server bundle, not on the server's thread.
    assert.ok(fetched.includes('/dist/web/sim-worker.js'), `fetched: ${fetched.join(', ')}`);
    assert.deepEqual(
      (await all()).filter((m) => 'workerError' in (m as object)),
      [],
    );
  });
});
