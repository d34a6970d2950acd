/**
 * The bundled language server (dist/server.js over stdio) against hostile input: the corpus opened
 * as editor buffers, edits in arbitrary order compared with the same text opened fresh, positions
 * outside the document, cancelled requests, huge result sets, and a check that nothing in the
 * workspace is ever written. The server runs with a bounded heap; bounds are generous safety
 * bounds (speed is measured by `npm run bench`).
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CancellationTokenSource,
  WorkDoneProgress,
  type DocumentSymbol,
  type CompletionList,
  type SymbolInformation,
} from 'vscode-languageserver-protocol/node';
import { positionAt, type Client } from '../protocol/harness';
import { CASES, NORMAL_UNIT } from './corpus';
import { bigUnitFile } from '../../bench/generate';
import { alive, FAR, requestsAt, runEditProperty, SERVER_BOUND_MS, SERVER_CI_RUNS, startBounded, wholeDocumentRequests, within, ZERO } from './server-harness';
import { bound } from './bounds';

describe('hardening: language server with hostile documents', function () {
  this.timeout(300_000);
  let c: Client;
  before(async () => {
    c = await startBounded({ settings: { referenceTarget: 'Normal Destroyer' } });
  });
  after(async () => c?.stop());

  CASES.forEach((hc, i) => {
    it(`${hc.name}: ${hc.expect.join(' and ') || 'no problems'} within ${SERVER_BOUND_MS} ms, then every request answers and a normal file is checked correctly`, async () => {
      const text = hc.bytes ? hc.bytes().toString('utf8') : hc.text();
      const uri = await c.open(`hostile/${hc.file}`, text);
      const ds = await c.diagnosticsWhere(uri, `diagnostics of ${hc.file}`, () => true, bound(SERVER_BOUND_MS));
      const codes = [...new Set(ds.map((d) => String(d.code)))];
      for (const code of hc.expect) assert.ok(codes.includes(code), `expected ${code}; got ${codes.join(', ') || 'nothing'}`);
      if (hc.only)
        assert.deepEqual(
          codes.filter((x) => !hc.expect.includes(x)),
          [],
        );
      const middle = positionAt(text, Math.floor(text.length / 2));
      for (const [method, params] of [...requestsAt(uri, middle), ...wholeDocumentRequests(uri)])
        await within(`${method} on ${hc.file}`, c.request(method, params));
      await c.close(uri);
      c.texts.delete(uri);
      alive(c);

      // A new name each time, so that what arrives is this file's answer, not an earlier one's.
      const normal = await c.open(`normal-${i}.unit.yaml`, NORMAL_UNIT);
      assert.deepEqual(await c.diagnosticsWhere(normal, 'diagnostics of a normal file', () => true, bound(SERVER_BOUND_MS)), []);
      const hover = await within(
        'hover on a normal file',
        c.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: normal }, position: c.pos(normal, 'Destroyer', 2, 1) }),
      );
      assert.match(hover?.contents.value ?? '', /Destroyer/);
      await c.close(normal);
    });
  });
});

describe('hardening: language server requests at any position', function () {
  this.timeout(120_000);
  let c: Client;
  before(async () => {
    c = await startBounded();
  });
  after(async () => c?.stop());

  const positions = [
    ZERO,
    { line: 0, character: 1e6 },
    { line: 3, character: 2 },
    { line: 999, character: 0 },
    FAR,
    { line: 2 ** 31 - 1, character: 2 ** 31 - 1 },
  ];
  for (const position of positions) {
    it(`answers every request at line ${position.line}, character ${position.character}`, async () => {
      const uri = await c.open('pos.unit.yaml', NORMAL_UNIT);
      for (const [method, params] of [...requestsAt(uri, position), ...wholeDocumentRequests(uri)]) {
        // A result, or an error the server chose to send: never silence, never a crash.
        await within(
          method,
          c.request(method, params).catch((e: { code?: number }) => assert.ok(typeof e.code === 'number', `${method}: ${String(e)}`)),
        );
      }
      await c.close(uri);
      alive(c);
    });
  }

  it('answers requests about documents it was never told about, and URIs that are not files', async () => {
    for (const uri of [
      'file:///nowhere/never-opened.unit.yaml',
      'untitled:Untitled-1',
      'file:///%E0%A4%A.unit.yaml',
      'not a uri',
      'file:///x.fleet.yaml?query#frag',
    ]) {
      for (const [method, params] of [...requestsAt(uri, FAR), ...wholeDocumentRequests(uri)]) {
        await within(
          method,
          c.request(method, params).catch((e: { code?: number }) => assert.ok(typeof e.code === 'number', `${method} ${uri}: ${String(e)}`)),
        );
      }
    }
    alive(c);
  });
});

describe('hardening: language server edits (property)', function () {
  this.timeout(600_000);
  let editor: Client;
  let fresh: Client;
  before(async () => {
    [editor, fresh] = await Promise.all([startBounded(), startBounded()]);
  });
  after(async () => Promise.all([editor?.stop(), fresh?.stop()]));

  it(`an incrementally edited document gets the diagnostics of the same text opened fresh (${SERVER_CI_RUNS} edit sequences, fixed seed)`, async () => {
    await runEditProperty(editor, fresh, { seed: 7, numRuns: SERVER_CI_RUNS });
  });
});

describe('hardening: language server cancellation and result caps', function () {
  this.timeout(300_000);
  let c: Client;
  const big = bigUnitFile(20_000);
  before(async () => {
    // Three files of the same faction, each with many cards: symbol and completion lists that
    // would run to thousands of items.
    c = await startBounded({
      files: {
        'a.unit.yaml': bigUnitFile(20_000, 'Bench'),
        'b.unit.yaml': bigUnitFile(20_000, 'Bench').replace(/Bench (\w+) (\d+)/g, 'Bench $1 B$2'),
        'c.unit.yaml': bigUnitFile(20_000, 'Bench').replace(/Bench (\w+) (\d+)/g, 'Bench $1 C$2'),
      },
    });
    await c.waitFor('the workspace to be read', () => c.diagnostics.size >= 3, 60_000);
  });
  after(async () => c?.stop());

  it('answers every cancelled request, with its result or a cancellation, and keeps serving', async () => {
    const uri = await c.open('big.unit.yaml', big);
    await c.diagnosticsWhere(uri, 'diagnostics of the big file', () => true, 30_000);
    const answers: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      const source = new CancellationTokenSource();
      const position = positionAt(big, Math.floor((i / 40) * big.length));
      const [method, params] = [...requestsAt(uri, position), ...wholeDocumentRequests(uri)][i % 10]!;
      answers.push(
        c.conn.sendRequest(method, params, source.token).then(
          () => 'result',
          (e: { code?: number }) => {
            // RequestCancelled (-32800) or ServerCancelled (-32802); nothing else.
            assert.ok(e.code === -32800 || e.code === -32802, `${method} failed with ${String(e)}`);
            return 'cancelled';
          },
        ),
      );
      source.cancel();
    }
    await within('the cancelled requests', Promise.all(answers), 60_000);
    const symbols = await within('a request after them', c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }));
    assert.ok(symbols.length > 0);
    alive(c);
  });

  it('stops a cancelled simulation mid-run, and answers other requests while it runs', async () => {
    // The run reports work-done progress after each slice of work: the first report proves it has
    // started, so the cancel below lands in the middle of the run, never before it.
    const normal = await c.open('during-simulation.unit.yaml', NORMAL_UNIT);
    const source = new CancellationTokenSource();
    const progressToken = 'hardening-simulation';
    let reported!: () => void;
    const midRun = new Promise<void>((r) => (reported = r));
    const sub = c.conn.onProgress(WorkDoneProgress.type, progressToken, (v) => {
      if (v.kind === 'report') reported();
    });
    const p = c.conn.sendRequest(
      'fabledStar/simulate',
      {
        attacker: { name: 'Bench Destroyer 0' },
        defender: { name: 'Bench Cruiser 1' },
        options: { trials: 1_000_000, rounds: 100 },
        workDoneToken: progressToken,
      },
      source.token,
    );
    let settled = false;
    void p.then(
      () => (settled = true),
      () => (settled = true),
    );
    await within('the first progress report of the simulation', midRun, 60_000);
    // A request made while the simulation runs is answered before it ends (the server is not deaf).
    const hover = await within(
      'a hover while the simulation runs',
      c.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: normal }, position: c.pos(normal, 'Destroyer', 2, 1) }),
      2000,
    );
    assert.match(hover?.contents.value ?? '', /Destroyer/);
    assert.equal(settled, false, 'the simulation was still running when the hover was answered');
    source.cancel();
    await within(
      'the cancelled simulation',
      p.then(
        () => assert.fail('the simulation ran to the end although it was cancelled'),
        (e: { code?: number }) => assert.equal(e.code, -32800, String(e)),
      ),
    );
    sub.dispose();
    alive(c);
  });

  it('caps the outline of a file with thousands of cards', async () => {
    const uri = c.uri('a.unit.yaml');
    const symbols = await within('documentSymbol', c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }));
    const count = (list: DocumentSymbol[]): number => list.reduce((n, s) => n + 1 + count(s.children ?? []), 0);
    // Uncapped, this file's outline has a symbol for each of ~770 cards and ~5,000 of their parts.
    assert.ok(count(symbols) <= 2500, `${count(symbols)} symbols`);
  });

  it('caps workspace symbols', async () => {
    const symbols = await within('workspace/symbol', c.request<SymbolInformation[]>('workspace/symbol', { query: '' }));
    assert.ok(symbols.length > 0 && symbols.length <= 2500, `${symbols.length} symbols`);
  });

  it('caps completions of card names and says the list is incomplete', async () => {
    const uri = await c.open('many.fleet.yaml', 'name: F\nfaction: Bench\npoints: 2000\nunits:\n  - unit: \n');
    const list = await within(
      'completion',
      c.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 4, character: 10 } }),
    );
    assert.ok(list.items.length > 0 && list.items.length <= 1000, `${list.items.length} items`);
    assert.equal(list.isIncomplete, true);
    await c.close(uri);
  });
});

/** Every file below a folder with a hash of its content and its modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p.slice(dir.length)] = `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

describe('hardening: the language server never writes to the user\u2019s files', function () {
  this.timeout(120_000);

  it('leaves the workspace as it was through edits, renames, fixes, simulations and saves, and never asks the editor to apply an edit', async () => {
    const c = await startBounded({
      files: {
        'cards/myr.unit.yaml': NORMAL_UNIT.replace('Hostile', 'Myr'),
        'fleets/f.fleet.yaml': 'name: F\nfaction: Myr\npoints: 500\nunits:\n  - unit: Normal Destroyr\n',
      },
    });
    try {
      let applyEdits = 0;
      c.conn.onRequest('workspace/applyEdit', () => {
        applyEdits++;
        return { applied: false };
      });
      const card = c.uri('cards/myr.unit.yaml');
      await c.waitFor('the workspace to be read', () => c.diagnostics.has(card), 30_000);
      const before = snapshot(c.root);
      const fleet = await c.open('fleets/f.fleet.yaml', 'name: F\nfaction: Myr\npoints: 500\nunits:\n  - unit: Normal Destroyr\n');
      const ds = await c.diagnosticsWhere(fleet, 'the misspelt card', (d) => d.length > 0);
      await c.request('textDocument/codeAction', { textDocument: { uri: fleet }, range: ds[0]!.range, context: { diagnostics: ds } });
      const cardUri = await c.open('cards/myr.unit.yaml', NORMAL_UNIT.replace('Hostile', 'Myr'));
      const rename = await c.request<{ changes?: Record<string, unknown[]> } | null>('textDocument/rename', {
        textDocument: { uri: cardUri },
        position: c.pos(cardUri, 'Normal Destroyer', 2),
        newName: 'Renamed',
      });
      assert.ok(rename?.changes && Object.keys(rename.changes).length > 0, 'the rename answers with edits for the editor to apply');
      await c.request('fabledStar/simulate', {
        attacker: { name: 'Normal Destroyer', faction: 'Myr' },
        defender: { name: 'Normal Destroyer', faction: 'Myr' },
        options: { trials: 100 },
      });
      await c.edit(cardUri, 'points: 145', 'points: 150');
      await c.conn.sendNotification('textDocument/didSave', { textDocument: { uri: cardUri } });
      await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: card, type: 2 }] });
      await c.close(cardUri);
      await c.close(fleet);
      await c.request('textDocument/documentSymbol', { textDocument: { uri: card } });
      assert.deepEqual(snapshot(c.root), before);
      assert.equal(applyEdits, 0);
      alive(c);
    } finally {
      await c.stop();
    }
  });
});

describe('hardening: text from files is shown as text by the language server', function () {
  this.timeout(60_000);
  // A name that would be markup, a command link and formatting if it were read as Markdown.
  const NAME = '<img src=x onerror=alert(1)> [run](command:workbench.action.terminal.new) *x* `y` <b>z</b>';

  it('escapes a card name full of HTML and Markdown in hovers and completion documentation', async () => {
    const cards = NORMAL_UNIT.replace('Hostile', 'Myr').replace('name: Normal Destroyer', `name: "${NAME}"`);
    const c = await startBounded({ files: { 'cards/evil.unit.yaml': cards } });
    try {
      const card = c.uri('cards/evil.unit.yaml');
      await c.waitFor('the workspace to be read', () => c.diagnostics.has(card), 30_000);
      const fleet = await c.open('f.fleet.yaml', `name: "${NAME}"\nfaction: Myr\npoints: 500\nunits:\n  - unit: "${NAME}"\n  - unit: \n`);
      await c.diagnosticsWhere(fleet, 'fleet diagnostics', () => true);
      const open = await c.open('cards/evil.unit.yaml', cards);
      const markdown: string[] = [];
      for (const [uri, position] of [
        [open, c.pos(open, '<img', 1)],
        [fleet, c.pos(fleet, '<img', 1, 1)],
        [fleet, c.pos(fleet, 'points', 1)],
      ] as const) {
        const h = await c.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position });
        if (h) markdown.push(h.contents.value);
      }
      const list = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri: fleet }, position: { line: 5, character: 10 } });
      for (const item of list.items) {
        const doc = item.documentation;
        if (doc && typeof doc === 'object') markdown.push(doc.value);
      }
      assert.ok(
        markdown.some((m) => m.includes('img')),
        'the name shows up somewhere',
      );
      for (const m of markdown) {
        // Markdown escapes with a backslash: "\<b\>" is text, "<b>" would be markup.
        assert.doesNotMatch(m, /(^|[^\\])<(img|b>)/, `no raw HTML in:\n${m}`);
        assert.doesNotMatch(m, /(^|[^\\])\]\(command:/, `no command link in:\n${m}`);
      }
    } finally {
      await c.stop();
    }
  });
});

describe('hardening: language server under load', function () {
  this.timeout(300_000);

  it('answers pulled diagnostics for hostile documents, then for a normal one', async () => {
    const c = await startBounded({ pull: true });
    try {
      for (const hc of CASES.filter((x) => /50 MB|16 MB|40,000 \[|binary junk$|10,000 copies/.test(x.name))) {
        const uri = await c.open(`pull/${hc.file}`, hc.bytes ? hc.bytes().toString('utf8') : hc.text());
        const report = await within(
          `pulled diagnostics of ${hc.file}`,
          c.request<{ kind: string; items: { code: string }[] }>('textDocument/diagnostic', { textDocument: { uri } }),
        );
        const codes = report.items.map((d) => String(d.code));
        for (const code of hc.expect) assert.ok(codes.includes(code), `${hc.file}: expected ${code}; got ${codes.join(', ')}`);
        await c.close(uri);
      }
      const normal = await c.open('pull/normal.unit.yaml', NORMAL_UNIT);
      const report = await within(
        'pulled diagnostics of a normal file',
        c.request<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri: normal } }),
      );
      assert.deepEqual(report.items, []);
      alive(c);
    } finally {
      await c.stop();
    }
  });

  it('answers a burst of 300 edits to a 50,000-line file for its last version', async () => {
    const c = await startBounded();
    try {
      const text = bigUnitFile(45_000);
      const uri = await c.open('burst.unit.yaml', text);
      await c.diagnosticsWhere(uri, 'first diagnostics', () => true, 30_000);
      let last = 0;
      // Typing 300 characters onto a card's name, one edit each, without waiting for answers.
      let typed = '';
      for (let i = 0; i < 300; i++) {
        last = await c.edit(uri, `Bench Destroyer 0${typed}\n`, `Bench Destroyer 0${typed}a\n`);
        typed += 'a';
      }
      const ds = await c.diagnosticsWhere(uri, `diagnostics of version ${last}`, () => true, bound(SERVER_BOUND_MS));
      assert.deepEqual(ds, []);
      alive(c);
    } finally {
      await c.stop();
    }
  });
});
