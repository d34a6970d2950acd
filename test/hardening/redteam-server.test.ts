/**
 * The red-team review, language-server items, over stdio with the bundled server:
 * files the server reads (6), URI spellings (7), folders removed while scanned (8), a change that
 * reuses a version (11), plain-text clients (12) and untitled documents (13).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { URI } from 'vscode-uri';
import type { CompletionItem, CompletionList, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { startServer, type Client } from '../protocol/harness';
import type { CardInfo } from '../../protocol';
import type { Connection } from 'vscode-languageserver/node';
import { ServerState, SETTINGS_CACHE_MAX } from '../../server/src/lsp/state';

const card = (name: string, cls = 'Frigate', points = 110) =>
  `  - name: ${name}\n    class: ${cls}\n    points: ${points}\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - Pulse Laser — Ion, 9", 2, 4\n      - Pulse Laser — Ion, 9", 2, 4\n`;
const unitFile = (...names: string[]) => `faction: Red\nunits:\n${names.map((n) => card(n)).join('')}`;
const canonical = (uri: string) => URI.parse(uri).toString();
const names = async (c: Client) => (await c.request<CardInfo[]>('fabledStar/listCards', {})).map((x) => x.name).sort();

describe('red team: the language server', function () {
  this.timeout(120_000);
  let c: Client | undefined;
  const cleanup: string[] = [];
  afterEach(async () => {
    await c?.stop();
    c = undefined;
    for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('6. reads no watched file through a link out of the workspace, no procfs file, device or pipe, and no file outside the folders', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'fabled-outside-'));
    cleanup.push(outside);
    writeFileSync(join(outside, 'outside.unit.yaml'), unitFile('Outsider'));
    const links: Record<string, string> = {
      'cards/link.unit.yaml': join(outside, 'outside.unit.yaml'),
      'cards/passwd.unit.yaml': '/etc/passwd',
      'cards/status.fleet.yaml': '/proc/self/status',
      'cards/pagemap.unit.yaml': '/proc/self/pagemap',
      'cards/zero.unit.yaml': '/dev/zero',
      linkdir: outside,
    };
    c = await startServer({
      files: { 'cards/inside.unit.yaml': unitFile('Inside') },
      before: (root) => {
        for (const [rel, target] of Object.entries(links)) symlinkSync(target, join(root, rel));
        execFileSync('mkfifo', [join(root, 'cards', 'pipe.fleet.yaml')]);
      },
    });
    const client = c;
    await client.poll('the first scan', async () => (await names(client)).includes('Inside'));
    const events = [
      ...Object.keys(links).map((rel) => client.uri(rel)),
      client.uri('linkdir/outside.unit.yaml'),
      client.uri('cards/pipe.fleet.yaml'),
      pathToFileURL(join(outside, 'outside.unit.yaml')).toString(),
    ];
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: events.flatMap((uri) => [1, 2].map((type) => ({ uri, type }))) });
    // A file written after them, announced last: once it is in, the events before it were handled.
    const late = client.writeFile('cards/late.unit.yaml', unitFile('Late'));
    await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: late, type: 1 }] });
    await client.poll('the late file', async () => (await names(client)).includes('Late'), 30_000);
    assert.deepEqual(await names(client), ['Inside', 'Late']);
    for (const uri of events) assert.equal(client.diagnostics.has(uri) || client.diagnostics.has(canonical(uri)), false, `${uri} was read`);
    const symbols = await client.request<{ location: { uri: string } }[]>('workspace/symbol', { query: '' });
    assert.deepEqual([...new Set(symbols.map((s) => s.location.uri.replace(/.*\//, '')))].sort(), ['inside.unit.yaml', 'late.unit.yaml']);
  });

  it('7. keeps one document for a file opened under another spelling of its URI (Neovim, Helix: "(copy)" unencoded)', async () => {
    const rel = 'cards/my cards (copy).unit.yaml';
    c = await startServer({
      files: { [rel]: unitFile('Copy Card'), 'fleets/f.fleet.yaml': 'name: F\nfaction: Red\npoints: 500\nunits:\n  - unit: Copy Card\n' },
    });
    const client = c;
    await client.poll('the first scan', async () => (await names(client)).includes('Copy Card'));
    const opened = await client.open(rel, unitFile('Copy Card'));
    assert.match(opened, /\(copy\)/, 'the client spells the parentheses as they are');
    const key = canonical(opened);
    await client.waitFor('diagnostics of the open file', () => client.diagnostics.get(key) ?? client.diagnostics.get(opened));
    const diags = (client.diagnostics.get(key) ?? client.diagnostics.get(opened))!.diagnostics;
    assert.deepEqual(
      diags.filter((d) => d.code === 'FS-DUPLICATE-CARD'),
      [],
      'an unchanged file reports itself as a duplicate',
    );
    assert.deepEqual(await names(client), ['Copy Card']);
    // Renamed in the buffer: the copy on disk must not keep the old name alive.
    await client.edit(opened, 'name: Copy Card', 'name: Renamed Card');
    await client.poll('the rename', async () => JSON.stringify(await names(client)) === JSON.stringify(['Renamed Card']));
    const fleet = client.uri('fleets/f.fleet.yaml');
    await client.waitFor('the fleet to lose its card', () => {
      const d = client.diagnostics.get(canonical(fleet)) ?? client.diagnostics.get(fleet);
      return d?.diagnostics.some((x) => x.code === 'FS-UNIT-UNKNOWN');
    });
    // Closing under the client's spelling leaves one document, read back from disk.
    await client.close(opened);
    await client.poll('the disk copy', async () => JSON.stringify(await names(client)) === JSON.stringify(['Copy Card']));
  });

  it('8. drops the cards of a folder removed while it is being scanned', async () => {
    const files: Record<string, string> = { 'b/b.unit.yaml': unitFile('Sentinel') };
    for (let i = 0; i < 3000; i++) files[`a/f${String(i).padStart(4, '0')}.unit.yaml`] = unitFile(`Ghost ${i}`);
    c = await startServer({ files, folders: ['a', 'b'] });
    const client = c;
    await client.conn.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [], removed: [{ uri: pathToFileURL(join(client.root, 'a')).toString(), name: 'a' }] },
    });
    await client.poll('folder b', async () => (await names(client)).includes('Sentinel'), 60_000);
    // Give a scan that kept going a moment to show it.
    await new Promise((r) => setTimeout(r, 500));
    const left = await names(client);
    assert.deepEqual(left.filter((n) => n.startsWith('Ghost')).length, 0, `${left.length - 1} ghost cards`);
  });

  it('11. reads a change that reuses a version number (any change is newer than the model)', async () => {
    c = await startServer({ files: {} });
    const client = c;
    const uri = await client.open('cards/v.unit.yaml', unitFile('Versioned'));
    await client.diagnosticsWhere(uri, 'the first check', (d) => !d.some((x) => x.code === 'FS-MISSING-FIELD'));
    const broken = 'faction: Red\nunits:\n  - name: Versioned\n';
    await client.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 1 }, contentChanges: [{ text: broken }] });
    client.texts.set(uri, broken);
    await client.waitFor('the change', () =>
      (client.diagnostics.get(canonical(uri)) ?? client.diagnostics.get(uri))?.diagnostics.some((x) => x.code === 'FS-MISSING-FIELD'),
    );
    const h = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 10 } });
    assert.ok(h, 'hover on the new text');
  });

  it('12. gives a client that asks for plain text real plain text in hovers and completion documentation', async () => {
    c = await startServer({
      files: { 'cards/p.unit.yaml': unitFile('Radiant Court') },
      capabilities: (caps) => ({
        ...caps,
        textDocument: {
          ...caps.textDocument,
          hover: { contentFormat: ['plaintext'] },
          completion: { completionItem: { snippetSupport: false, documentationFormat: ['plaintext'] } },
        },
      }),
    });
    const client = c;
    const uri = await client.open('cards/p.unit.yaml', unitFile('Radiant Court'));
    const texts: string[] = [];
    for (const [needle, delta] of [
      ['Radiant', 2],
      ['class: Frig', 9],
      ['stats', 2],
      ['Ion', 1],
    ] as const) {
      const h = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: client.pos(uri, needle, delta) });
      assert.ok(h, `hover at ${needle}`);
      const content = h.contents as MarkupContent;
      assert.equal(content.kind, 'plaintext');
      texts.push(content.value);
    }
    const list = await client.request<CompletionList | CompletionItem[]>('textDocument/completion', {
      textDocument: { uri },
      position: client.pos(uri, 'class: ', 7),
    });
    const items = Array.isArray(list) ? list : list.items;
    for (const i of items) {
      if (!i.documentation) continue;
      if (typeof i.documentation === 'string') texts.push(i.documentation);
      else {
        assert.equal(i.documentation.kind, 'plaintext');
        texts.push(i.documentation.value);
      }
    }
    assert.ok(texts.join('').includes('Radiant Court'));
    for (const t of texts) {
      assert.doesNotMatch(t, /\*\*|__|\\[\\`*_[\]<>#|~.@:]|^\s*\|.*\|\s*$|^#+ |^\s*\|?\s*:?-{3,}/m, t);
      assert.doesNotMatch(t, /<[a-z]+[ >]/i, t);
    }
    // A table (the card's stat line under its name) becomes aligned columns.
    const table = texts[0]!.split('\n');
    const head = table.findIndex((l) => /^M\s+BS\s+D\s+SH\s+AC\s+HP\s+LD\s+CR\s+T$/.test(l));
    assert.ok(head >= 0, texts[0]);
    assert.match(table[head + 1]!, /^9\/6\s+5\+\s+7\+/);
    assert.equal(table[head]!.indexOf('BS'), table[head + 1]!.indexOf('5+'), 'columns line up');
  });

  it('13. gives an untitled document the features of its language', async () => {
    c = await startServer({ files: {} });
    const client = c;
    const uri = 'untitled:Untitled-1';
    const text = 'faction: Red\nunits:\n  - name: Nameless\n';
    await client.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'fabled-unit', version: 1, text } });
    client.versions.set(uri, 1);
    client.texts.set(uri, text);
    const d = await client.diagnosticsWhere(uri, 'diagnostics of the untitled document', (ds) => ds.some((x) => x.code === 'FS-MISSING-FIELD'));
    assert.ok(d.length > 0);
    const h = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 2 } });
    assert.ok(h, 'a hover');
    // The same for the other two languages.
    for (const [n, lang, body, code] of [
      [2, 'fabled-fleet', 'name: F\nfaction: Red\npoints: 500\nunits:\n  - unit: Nobody\n', 'FS-UNIT-UNKNOWN'],
      [3, 'fabled-faction', 'faction: Red\ndoctrine: Nonsense\n', 'FS-DOCTRINE-UNKNOWN'],
    ] as const) {
      const u = `untitled:Untitled-${n}`;
      await client.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: u, languageId: lang, version: 1, text: body } });
      client.versions.set(u, 1);
      await client.diagnosticsWhere(u, `diagnostics of ${lang}`, (ds) => ds.length > 0 && (code === 'FS-DOCTRINE-UNKNOWN' || ds.some((x) => x.code === code)));
    }
    // A plain YAML file stays out.
    await client.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: 'untitled:Untitled-9', languageId: 'yaml', version: 1, text } });
    const none = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri: 'untitled:Untitled-9' },
      position: { line: 0, character: 2 },
    });
    assert.equal(none, null);
  });
});

describe('red team: the settings cache', () => {
  it('9. keeps the settings of at most a bounded number of resources, and forgets a closed one', async () => {
    let asked = 0;
    const connection = {
      workspace: {
        getConfiguration: () => {
          asked++;
          return Promise.resolve({ codeLens: { enabled: false } });
        },
      },
      console: { error: () => undefined, warn: () => undefined, log: () => undefined, info: () => undefined },
    } as unknown as Connection;
    const state = new ServerState(connection);
    state.initialize({ processId: null, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } } });
    for (let i = 0; i < 20_000; i++) await state.settingsFor(`file:///w/f${i}.unit.yaml`);
    assert.equal(asked, 20_000);
    assert.ok(state.settingsCached <= SETTINGS_CACHE_MAX, `${state.settingsCached} cached`);
    // The most recent stay (no new round trip); a closed one is asked for again.
    const recent = `file:///w/f${19_999}.unit.yaml`;
    assert.equal((await state.settingsFor(recent)).codeLens.enabled, false);
    assert.equal(asked, 20_000);
    state.closed(recent);
    await state.settingsFor(recent);
    assert.equal(asked, 20_001);
  });
});
