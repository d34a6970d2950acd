/**
 * The bundled server (dist/server.js) over stdio, driven by a real JSON-RPC client as an editor
 * drives it, on files written to a fresh temporary folder: diagnostics (push and pull), edits and
 * their cross-file effects, every language feature, the custom requests and the settings.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type {
  CodeAction,
  CompletionList,
  Diagnostic,
  DocumentSymbol,
  Hover,
  InlayHint,
  CodeLens,
  Location,
  WorkspaceEdit,
  TextEdit,
  SymbolInformation,
} from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO } from '../../server/src/cli/io';
import { FILES, FLEET, MYR_UNITS, MYR_BROKEN, lineOf } from './fixtures';
import { exampleFiles } from '../../scripts/build-examples';
import type { CardInfo, FleetSummary, SimulateResult } from '../../protocol';
import type { SimulationResult } from '../../server/src/core/sim/types';

const FLEET_PATH = 'fleets/vanguard.fleet.yaml';
const UNITS_PATH = 'cards/myr.unit.yaml';
const BROKEN_PATH = 'cards/broken.unit.yaml';

/** A hover's Markdown. */
const md = (h: Hover | null): string => {
  const v = h?.contents as { value?: string } | undefined;
  return v?.value ?? '';
};

/** A diagnostic's message as text (LSP 3.18 allows Markdown content there). */
const msg = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);

const codes = (ds: Diagnostic[]) => ds.map((d) => `${d.code}@${d.range.start.line}`).sort();

function applyEdits(text: string, edits: TextEdit[]): string {
  const off = (p: { line: number; character: number }) => {
    const lines = text.split('\n');
    let o = 0;
    for (let i = 0; i < p.line; i++) o += lines[i]!.length + 1;
    return o + p.character;
  };
  return [...edits]
    .sort((a, b) => off(b.range.start) - off(a.range.start))
    .reduce((t, e) => t.slice(0, off(e.range.start)) + e.newText + t.slice(off(e.range.end)), text);
}

describe('language server over stdio (push diagnostics)', function () {
  this.timeout(60000);
  let c: Client;
  let fleet: string;

  before(async () => {
    c = await startServer({ files: FILES });
    fleet = await c.open(FLEET_PATH, FLEET);
    // The workspace folder is indexed after start: wait until the fleet's cards resolve.
    await c.diagnosticsWhere(fleet, 'the fleet to see the workspace cards', (d) => d.some((x) => x.code === 'FS-FLEET-UNDER' && /650/.test(msg(x))));
  });
  after(async () => c?.stop());

  it('reports a fleet\u2019s problems on the right lines, with the version it was computed for', async () => {
    // The scan reads the Consumed file after the Myr-Valari ones at times: wait until Maw Frigate is known as Consumed's.
    const ds = await c.diagnosticsWhere(fleet, 'fleet diagnostics', (d) => d.length === 3 && d.some((x) => x.code === 'FS-UNIT-FACTION'));
    assert.deepEqual(
      codes(ds),
      [
        `FS-FLEET-UNDER@${lineOf(FLEET, 'points')}`,
        `FS-UNIT-FACTION@${lineOf(FLEET, 'Maw Frigate')}`,
        `FS-UNIT-UNKNOWN@${lineOf(FLEET, 'Lumen Destroyr')}`,
      ].sort(),
    );
    const unknown = ds.find((d) => d.code === 'FS-UNIT-UNKNOWN')!;
    assert.deepEqual(unknown.range, { start: { line: 6, character: 10 }, end: { line: 6, character: 24 } });
    assert.equal(c.diagnostics.get(fleet)!.version, 1);
  });

  it('links a fleet problem to the card it is about', async () => {
    const ds = await c.diagnosticsWhere(fleet, 'fleet diagnostics', (d) => d.some((x) => x.code === 'FS-UNIT-FACTION'));
    const rel = ds.find((d) => d.code === 'FS-UNIT-FACTION')!.relatedInformation;
    assert.ok(rel && rel.length === 1);
    assert.equal(rel[0]!.location.uri, c.uri('consumed/consumed.unit.yaml'));
    assert.equal(rel[0]!.location.range.start.line, lineOf(FILES['consumed/consumed.unit.yaml']!, 'Maw Frigate'));
  });

  it('publishes diagnostics for workspace card files that are not open', async () => {
    const uri = c.uri(BROKEN_PATH);
    const ds = await c.diagnosticsWhere(uri, 'the broken card file', (d) => d.length >= 5);
    assert.deepEqual(
      codes(ds),
      [
        `FS-BASES@${lineOf(MYR_BROKEN, 'bases: 3')}`,
        `FS-RANGE-BAND@${lineOf(MYR_BROKEN, '13.5')}`,
        `FS-STAT-MISSING@${lineOf(MYR_BROKEN, 'stats:')}`,
        `FS-STAT-RANGE@${lineOf(MYR_BROKEN, 'BS: 2+')}`,
        `FS-UNIVERSAL-RULE-CLASS@${lineOf(MYR_BROKEN, 'Dogfighters')}`,
      ].sort(),
    );
  });

  it('re-validates on an incremental edit, for the new version', async () => {
    const v = await c.edit(fleet, 'Lumen Destroyr', 'Lumen Destroyer');
    const ds = await c.diagnosticsWhere(fleet, 'the typo fixed', (d) => !d.some((x) => x.code === 'FS-UNIT-UNKNOWN'));
    assert.equal(c.diagnostics.get(fleet)!.version, v);
    assert.match(msg(ds.find((d) => d.code === 'FS-FLEET-UNDER')!), /795 of 1000/);
    await c.edit(fleet, 'Lumen Destroyer\n  - unit: Lumen Cruiser', 'Lumen Destroyr\n  - unit: Lumen Cruiser');
    await c.diagnosticsWhere(fleet, 'the typo back', (d) => d.some((x) => x.code === 'FS-UNIT-UNKNOWN'));
  });

  it('coalesces a burst of edits and publishes for the latest version', async () => {
    const from = c.published.length;
    const first = (c.versions.get(fleet) ?? 0) + 1;
    let last = 0;
    for (let i = 0; i < 12; i++) last = await c.edit(fleet, i % 2 ? 'points: 1000 ' : 'points: 1000', i % 2 ? 'points: 1000' : 'points: 1000 ');
    await c.diagnosticsWhere(fleet, 'the last version', () => true);
    const seen = c.published
      .slice(from)
      .filter((p) => p.uri === fleet)
      .map((p) => p.version!);
    assert.equal(seen[seen.length - 1], last);
    assert.ok(
      seen.every((v, i) => v >= first && (i === 0 || v > seen[i - 1]!)),
      `versions published: ${seen.join(', ')}`,
    );
    assert.ok(seen.length < 12, `one publication per keystroke: ${seen.join(', ')}`);
  });

  it('re-validates the fleets that use a card when its file is edited', async () => {
    const units = await c.open(UNITS_PATH, MYR_UNITS);
    const refreshes = c.inlayRefreshes;
    await c.edit(units, 'name: Lumen Cruiser', 'name: Lumen Lancer');
    await c.waitFor('the client asked to refresh hints (fleet points depend on the card)', () => c.inlayRefreshes > refreshes);
    const ds = await c.diagnosticsWhere(fleet, 'the fleet to lose Lumen Cruiser', (d) =>
      d.some((x) => x.code === 'FS-UNIT-UNKNOWN' && /Lumen Cruiser/.test(msg(x))),
    );
    assert.equal(ds.find((x) => /Lumen Cruiser/.test(msg(x)))!.range.start.line, lineOf(c.texts.get(fleet)!, 'unit: Lumen Cruiser'));
    await c.edit(units, 'name: Lumen Lancer', 'name: Lumen Cruiser');
    await c.diagnosticsWhere(fleet, 'the fleet to find Lumen Cruiser again', (d) => !d.some((x) => /Lumen Cruiser/.test(msg(x))));
    await c.close(units);
  });

  it('follows a card file deleted and created on disk (watched files)', async () => {
    await c.waitFor('the file watcher registration', () => c.registrations.some((r) => (r as { method: string }).method === 'workspace/didChangeWatchedFiles'));
    const consumed = c.uri('consumed/consumed.unit.yaml');
    rmSync(join(c.root, 'consumed/consumed.unit.yaml'));
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: consumed, type: 3 }] });
    await c.diagnosticsWhere(fleet, 'Maw Frigate to become unknown', (d) => d.some((x) => x.code === 'FS-UNIT-UNKNOWN' && /Maw Frigate/.test(msg(x))));
    await c.diagnosticsWhere(consumed, 'the deleted file to be cleared', (d) => d.length === 0);
    const created = c.writeFile('consumed/consumed.unit.yaml', FILES['consumed/consumed.unit.yaml']!);
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: created, type: 1 }] });
    await c.diagnosticsWhere(fleet, 'Maw Frigate to be known again', (d) => d.some((x) => x.code === 'FS-UNIT-FACTION'));
  });

  it('flags a card name used in two files, in both, each linking to the other', async () => {
    const dupe = await c.open(
      'cards/dupe.unit.yaml',
      'faction: Myr-Valari\nunits:\n  - name: Lumen Destroyer\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n',
    );
    const ds = await c.diagnosticsWhere(dupe, 'a duplicate-name error', (d) => d.some((x) => x.code === 'FS-DUPLICATE-CARD'));
    const d = ds.find((x) => x.code === 'FS-DUPLICATE-CARD')!;
    assert.equal(d.range.start.line, 2);
    assert.equal(d.relatedInformation?.[0]?.location.uri, c.uri(UNITS_PATH));
    const units = c.uri(UNITS_PATH);
    await c.diagnosticsWhere(units, 'the other file to be flagged too (it is not open)', (x) =>
      x.some((y) => y.code === 'FS-DUPLICATE-CARD' && y.range.start.line === lineOf(MYR_UNITS, 'name: Lumen Destroyer')),
    );
    await c.close(dupe);
    await c.diagnosticsWhere(units, 'the flag gone once the duplicate closes (it was never saved)', (x) => !x.some((y) => y.code === 'FS-DUPLICATE-CARD'));
  });

  it('indexes workspace folders added and removed while running', async () => {
    const extra = mkdtempSync(join(tmpdir(), 'fabled-extra-'));
    try {
      writeFileSync(
        join(extra, 'extra.unit.yaml'),
        'faction: Myr-Valari\nunits:\n  - name: Lumen Destroyr\n    class: Destroyer\n    points: 150\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n',
      );
      const folder = { uri: pathToFileURL(extra).toString(), name: 'extra' };
      await c.conn.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [folder], removed: [] } });
      await c.diagnosticsWhere(fleet, 'the typo to name a card of the new folder', (d) => !d.some((x) => x.code === 'FS-UNIT-UNKNOWN'));
      await c.conn.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [folder] } });
      await c.diagnosticsWhere(fleet, 'the card gone with its folder', (d) => d.some((x) => x.code === 'FS-UNIT-UNKNOWN'));
    } finally {
      rmSync(extra, { recursive: true, force: true });
    }
  });

  it('hovers with rule text, the unit\u2019s own value and the section', async () => {
    const units = c.uri(UNITS_PATH);
    await c.open(UNITS_PATH, MYR_UNITS);
    const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri: units }, position: c.pos(units, 'LD: 6/3', 5) });
    const text = md(h);
    assert.equal((h.contents as { kind: string }).kind, 'markdown');
    assert.match(text, /Roll 3 dice; each 6\+ succeeds/);
    assert.match(text, /§1 Core Statistics/);
    assert.deepEqual(h.range, { start: c.pos(units, '6/3'), end: c.pos(units, '6/3', 3) });
    const cls = await c.request<Hover>('textDocument/hover', { textDocument: { uri: units }, position: c.pos(units, 'class: Cruiser', 9) });
    assert.match(md(cls), /1 base · 2 weapon systems · 1 order · 1 ability · 190 pts standard/);
    const pts = await c.request<Hover>('textDocument/hover', { textDocument: { uri: fleet }, position: c.pos(fleet, 'points: 1000', 9) });
    assert.match(md(pts), /\*\*650 \/ 1000 pts\*\*[\s\S]*350 pts left[\s\S]*§17/);
    await c.close(units);
  });

  it('completes card names of the fleet\u2019s faction, and what an embark host can carry', async () => {
    const l = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri: fleet }, position: c.pos(fleet, 'unit: Maw Frigate', 6) });
    const labels = l.items.map((i) => i.label);
    assert.ok(labels.includes('Lumen Destroyer') && !labels.includes('Maw Frigate'), labels.join(', '));
    const item = l.items.find((i) => i.label === 'Lumen Destroyer')!;
    assert.deepEqual((item.textEdit as TextEdit).range, { start: c.pos(fleet, 'Maw Frigate'), end: c.pos(fleet, 'Maw Frigate', 11) });
    const e = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri: fleet }, position: c.pos(fleet, 'Veilwing Fighter Wing', 0) });
    assert.deepEqual(
      e.items.filter((i) => i.kind === 7).map((i) => i.label),
      ['Veilwing Fighter Wing'],
    );
  });

  it('offers a snippet for a new fleet in an empty file', async () => {
    const uri = await c.open('fleets/empty.fleet.yaml', '');
    const l = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 0, character: 0 } });
    const s = l.items.find((i) => i.label === 'New fleet')!;
    assert.equal(s.insertTextFormat, 2);
    assert.match((s.textEdit as TextEdit).newText, /^name: \$\{1:My Fleet\}\nfaction: /);
    await c.close(uri);
  });

  it('fixes a diagnostic with a quick fix that the server\u2019s own checks accept', async () => {
    const uri = c.uri(BROKEN_PATH);
    await c.open(BROKEN_PATH, MYR_BROKEN);
    const ds = await c.diagnosticsWhere(uri, 'the broken file (open)', (d) => d.some((x) => x.code === 'FS-RANGE-BAND'));
    const diag = ds.find((d) => d.code === 'FS-RANGE-BAND')!;
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: diag.range, context: { diagnostics: [diag] } });
    assert.deepEqual(
      actions.map((a) => a.title),
      // The fixes first; hiding the problem with a comment comes last.
      ['Snap 13.5" to the range band 12"', 'Snap 13.5" to the range band 15"', 'Ignore FS-RANGE-BAND on this line'],
    );
    const edit = actions[0]!.edit as WorkspaceEdit;
    const fixed = applyEdits(MYR_BROKEN, edit.changes![uri]!);
    await c.change(uri, [{ text: fixed }], fixed);
    await c.diagnosticsWhere(uri, 'the range problem gone', (d) => !d.some((x) => x.code === 'FS-RANGE-BAND') && d.some((x) => x.code === 'FS-BASES'));
    await c.close(uri);
    const units = await c.open(UNITS_PATH, MYR_UNITS);
    const at = c.pos(units, 'stats: "9/6 5+ 7+ 5', 2);
    const refactor = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: units },
      range: { start: at, end: at },
      context: { diagnostics: [], only: ['refactor'] },
    });
    assert.deepEqual(
      refactor.map((a) => [a.kind, a.title]),
      [['refactor.rewrite', 'Write the stats as a mapping (one key per stat)']],
    );
    assert.match(applyEdits(MYR_UNITS, (refactor[0]!.edit as WorkspaceEdit).changes![units]!), /name: Lumen Cruiser[\s\S]*?stats:\n {6}M: 9\/6\n/);
    await c.close(units);
  });

  it('outlines the fleet and the card file', async () => {
    const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: fleet } });
    assert.equal(syms[0]!.name, 'Radiant Vanguard');
    assert.deepEqual(
      syms[0]!.children!.map((s) => s.name),
      ['Lumen Destroyer', 'Lumen Destroyr', 'Lumen Cruiser', 'Maw Frigate'],
    );
    assert.deepEqual(
      syms[0]!.children![2]!.children!.map((s) => s.name),
      ['Veilwing Fighter Wing'],
    );
    const ws = await c.request<SymbolInformation[]>('workspace/symbol', { query: 'shard' });
    assert.deepEqual(
      ws.map((s) => s.name),
      ['Shardlight Escort'],
    );
  });

  it('goes to a card in another file, finds its references and renames it everywhere', async () => {
    const def = await c.request<Location[]>('textDocument/definition', { textDocument: { uri: fleet }, position: c.pos(fleet, 'Lumen Cruiser', 2) });
    assert.deepEqual(def, [
      {
        uri: c.uri(UNITS_PATH),
        range: {
          start: { line: lineOf(MYR_UNITS, 'name: Lumen Cruiser'), character: 10 },
          end: { line: lineOf(MYR_UNITS, 'name: Lumen Cruiser'), character: 23 },
        },
      },
    ]);
    const refs = await c.request<Location[]>('textDocument/references', {
      textDocument: { uri: fleet },
      position: c.pos(fleet, 'Lumen Cruiser', 2),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(
      refs.map((r) => `${r.uri.replace(/^.*\//, '')}:${r.range.start.line}`).sort(),
      [`myr.unit.yaml:${lineOf(MYR_UNITS, 'name: Lumen Cruiser')}`, `vanguard.fleet.yaml:${lineOf(FLEET, 'unit: Lumen Cruiser')}`].sort(),
    );
    const prep = await c.request<{ range: unknown; placeholder: string }>('textDocument/prepareRename', {
      textDocument: { uri: fleet },
      position: c.pos(fleet, 'Lumen Cruiser', 2),
    });
    assert.equal(prep.placeholder, 'Lumen Cruiser');
    const edit = await c.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: fleet },
      position: c.pos(fleet, 'Lumen Cruiser', 2),
      newName: 'Lumen Lancer',
    });
    assert.deepEqual(Object.keys(edit.changes!).sort(), [c.uri(UNITS_PATH), fleet].sort());
    assert.match(applyEdits(MYR_UNITS, edit.changes![c.uri(UNITS_PATH)]!), /name: Lumen Lancer/);
    assert.match(applyEdits(c.texts.get(fleet)!, edit.changes![fleet]!), /unit: Lumen Lancer/);
  });

  it('shows points as inlay hints and a points code lens', async () => {
    const hints = await c.request<InlayHint[]>('textDocument/inlayHint', {
      textDocument: { uri: fleet },
      range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } },
    });
    const byLine = hints.map((h) => `${h.position.line}:${h.label}`);
    assert.ok(byLine.includes(`${lineOf(FLEET, 'unit: Lumen Destroyer')}:2 × 145 = 290 pts · Σ 290 / 1000`), byLine.join('\n'));
    assert.ok(byLine.includes(`${lineOf(FLEET, 'unit: Lumen Cruiser')}:250 pts (incl. 60 embarked) · Σ 540 / 1000`), byLine.join('\n'));
    const lens = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: fleet } });
    assert.match(lens[0]!.command!.title, /^650 \/ 1000 pts — 350 left/);
    assert.equal(lens[1]!.command!.title, 'Battle vs …');
    assert.equal(lens[1]!.command!.command, 'fabledStar.simulateBattle');
    assert.equal((lens[1]!.command!.arguments![0] as { fleet: { uri: string } }).fleet.uri, fleet);
    const units = c.uri(UNITS_PATH);
    await c.open(UNITS_PATH, MYR_UNITS);
    const cardLens = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: units } });
    assert.equal(cardLens[0]!.command!.command, 'fabledStar.simulateEngagement');
    assert.deepEqual(cardLens[0]!.command!.arguments, [{ attacker: { name: 'Lumen Destroyer', uri: units, faction: 'Myr-Valari' } }]);
    await c.close(units);
  });

  it('estimates a homebrew card\u2019s points: hover, lens and a note when far off, and turns them off', async () => {
    const text = [
      'faction: Myr-Valari',
      'units:',
      '  - name: Bargain Cruiser',
      '    class: Cruiser',
      '    points: 190',
      '    stats: "6/6 3+ 6+ 14 3+ 16 6/3 7/3 5"',
      '    weapons:',
      '      - Bargain Lance — Energy, 24", 4, 6',
      '      - Bargain Ion Array — Ion, 18", 3, 6',
      '',
    ].join('\n');
    const uri = await c.open('cards/bargain.unit.yaml', text);
    const ds = await c.diagnosticsWhere(uri, 'the points-estimate note', (d) => d.some((x) => x.code === 'FS-POINTS-ESTIMATE'));
    const note = ds.find((x) => x.code === 'FS-POINTS-ESTIMATE')!;
    assert.equal(note.severity, 3, 'information, never a warning or an error');
    assert.equal(note.range.start.line, lineOf(text, 'points: 190'));
    assert.match(msg(note), /190 pts is far too cheap: .* about \d+ pts/);
    const lens = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(
      lens.some((l) => /^≈ \d+ pts · far too cheap$/.test(l.command!.title)),
      lens.map((l) => l.command!.title).join(', '),
    );
    const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri }, position: c.pos(uri, 'points: 1', 9) });
    assert.match(md(h), /Points estimate: ≈ \d+ pts[\s\S]*Not priced: LD/);
    const sim = await c.request<SimulateResult>('fabledStar/simulate', {
      attacker: { name: 'Bargain Cruiser' },
      defender: { name: 'Lumen Cruiser' },
      options: { trials: 200 },
    });
    assert.equal(sim.pointsEstimate!.attacker.points, 190);
    assert.equal(sim.pointsEstimate!.attacker.verdict, 'far too cheap');
    assert.ok(sim.pointsEstimate!.attacker.estimate! > 190);
    assert.equal(sim.pointsEstimate!.defender.points, 190);
    assert.ok(sim.pointsEstimate!.defender.estimate! > 0 && sim.pointsEstimate!.defender.verdict === undefined);
    c.settings = { pointsEstimate: { enabled: false } };
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: c.settings } });
    await c.diagnosticsWhere(uri, 'the note gone', (d) => !d.some((x) => x.code === 'FS-POINTS-ESTIMATE'));
    const off = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(!off.some((l) => l.command!.title.startsWith('≈')));
    c.settings = {};
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: {} } });
    await c.diagnosticsWhere(uri, 'the note back', (d) => d.some((x) => x.code === 'FS-POINTS-ESTIMATE'));
    await c.close(uri);
  });

  it('answers the custom requests: listCards, fleetSummary, simulate, ruleText', async () => {
    const cards = await c.request<CardInfo[]>('fabledStar/listCards', {});
    const lumen = cards.find((x) => x.name === 'Lumen Destroyer');
    assert.ok(lumen, cards.map((x) => x.name).join(', '));
    assert.deepEqual([lumen.faction, lumen.class, lumen.points, lumen.uri], ['Myr-Valari', 'Destroyer', 145, c.uri(UNITS_PATH)]);
    assert.equal(lumen.selectionRange.start.line, lineOf(MYR_UNITS, 'Lumen Destroyer'));
    assert.deepEqual(
      (await c.request<CardInfo[]>('fabledStar/listCards', { faction: 'consumed' })).map((x) => x.name),
      ['Maw Frigate'],
    );
    // The cards a fleet uses, as the fleet resolves them: Maw Frigate too (a Consumed card in a Myr-Valari fleet: its points count), not the misspelt entry.
    assert.deepEqual((await c.request<CardInfo[]>('fabledStar/listCards', { fleet })).map((x) => `${x.faction}/${x.name}`).sort(), [
      'Consumed/Maw Frigate',
      'Myr-Valari/Lumen Cruiser',
      'Myr-Valari/Lumen Destroyer',
      'Myr-Valari/Veilwing Fighter Wing',
    ]);
    const s = await c.request<FleetSummary>('fabledStar/fleetSummary', { uri: fleet });
    assert.deepEqual([s.total, s.limit, s.over, s.remaining], [650, 1000, false, 350]);
    assert.equal(await c.request('fabledStar/fleetSummary', { uri: c.uri(UNITS_PATH) }), null);
    const sim = await c.request<SimulationResult>('fabledStar/simulate', {
      attacker: { name: 'Lumen Destroyer' },
      defender: { name: 'Maw Frigate' },
      options: { trials: 500, seed: 7 },
    });
    assert.equal(sim.attacker, 'Lumen Destroyer');
    assert.equal(sim.defender, 'Maw Frigate');
    assert.equal(sim.volley.method, 'exact');
    assert.ok(sim.volley.expectedHullDamage > 0 && sim.volley.killProbability >= 0 && sim.volley.killProbability <= 1);
    assert.equal(sim.engagement.trials, 500);
    const byPos = await c.request<SimulationResult>('fabledStar/simulate', {
      attacker: { uri: fleet, position: c.pos(fleet, 'Lumen Cruiser', 1) },
      defender: { name: 'Maw Frigate' },
      options: { trials: 200 },
    });
    assert.equal(byPos.attacker, 'Lumen Cruiser');
    await assert.rejects(c.request('fabledStar/simulate', { attacker: { name: 'Nobody' }, defender: { name: 'Maw Frigate' } }), /No attacker card "Nobody"/);
    await assert.rejects(
      c.request('fabledStar/simulate', { attacker: { name: 'Lumen Destroyer' }, defender: { name: 'Maw Frigate' }, options: { rounds: -3 } }),
      /rounds/,
    );
    const rule = await c.request<{ number: number; title: string; markdown: string }[]>('fabledStar/ruleText', { section: 12 });
    assert.deepEqual(
      rule.map((r) => [r.number, r.title]),
      [[12, 'Weapons & Weapon Types']],
    );
  });

  it('offers the bundled example cards as opponents, labelled, and simulates against them', async () => {
    const own = await c.request<CardInfo[]>('fabledStar/listCards', {});
    assert.ok(own.length > 0 && own.every((x) => !x.example), 'no examples unless asked for');
    const all = await c.request<CardInfo[]>('fabledStar/listCards', { examples: true });
    const examples = all.filter((x) => x.example);
    // The workspace's cards first, as before, then the examples.
    assert.deepEqual(
      all.slice(0, own.length).map((x) => x.name),
      own.map((x) => x.name),
    );
    assert.deepEqual([...new Set(examples.map((x) => x.faction))], ['Consumed', 'Myr-Valari']);
    assert.ok(examples.every((x) => x.uri.startsWith('fabled-example:/') && typeof x.points === 'number'));
    const radiant = examples.find((x) => x.name === 'Radiant Court');
    assert.ok(radiant, examples.map((x) => x.name).join(', '));
    assert.equal(radiant.class, 'Capital Ship');
    // A card of the workspace hides its example twin (same name and faction); others stay.
    assert.equal(examples.filter((x) => x.name === 'Lumen Destroyer').length, 0);
    assert.equal(all.filter((x) => x.name === 'Lumen Destroyer').length, 1);
    assert.deepEqual(
      (await c.request<CardInfo[]>('fabledStar/listCards', { faction: 'consumed', examples: true })).map((x) => [x.name, !!x.example]).slice(0, 2),
      [
        ['Maw Frigate', false],
        ['Brood Carrier', true],
      ],
    );
    const sim = await c.request<SimulationResult>('fabledStar/simulate', {
      attacker: { name: 'Lumen Destroyer', faction: 'Myr-Valari' },
      defender: { name: 'Reaver Destroyer', faction: 'Consumed', example: true },
      options: { trials: 300, seed: 2 },
    });
    assert.equal(sim.defender, 'Reaver Destroyer');
    // Named without the flag (a panel restored after a reload), the example is still found.
    const again = await c.request<SimulationResult>('fabledStar/simulate', {
      attacker: { name: 'Lumen Destroyer' },
      defender: { name: 'Reaver Destroyer' },
      options: { trials: 300, seed: 2 },
    });
    assert.deepEqual(again.engagement, sim.engagement);
  });

  it('names the card a fleet entry or an embarked unit holds at the cursor', async () => {
    const entry = await c.request<CardInfo | null>('fabledStar/cardAt', { uri: fleet, position: c.pos(fleet, 'Lumen Cruiser', 1) });
    assert.deepEqual(entry && [entry.name, entry.faction, entry.uri], ['Lumen Cruiser', 'Myr-Valari', c.uri(UNITS_PATH)]);
    const units = await c.open(UNITS_PATH, MYR_UNITS);
    const inCard = await c.request<CardInfo | null>('fabledStar/cardAt', { uri: units, position: c.pos(units, 'Pulse Laser', 1) });
    assert.equal(inCard?.name, 'Lumen Destroyer');
    assert.equal(await c.request('fabledStar/cardAt', { uri: fleet, position: { line: 0, character: 0 } }), null);
    assert.equal(await c.request('fabledStar/cardAt', { uri: 'file:///nowhere.fleet.yaml', position: { line: 0, character: 0 } }), null);
    await c.close(units);
  });

  it('gives the same figures as the CLI for the options the view sends, "any range" included', async () => {
    const cases: [options: Record<string, unknown>, flags: string[]][] = [
      [{ cover: false, brace: false, rounds: 6, trials: 3000, seed: 4 }, ['--rounds', '6', '--trials', '3000', '--seed', '4']],
      [
        { range: 9, cover: true, brace: true, aim: 'Pulse Laser', defenderShields: 1, rounds: 4, trials: 2000, seed: 11 },
        ['--range', '9', '--cover', '--brace', '--aim', 'Pulse Laser', '--defender-shields', '1', '--rounds', '4', '--trials', '2000', '--seed', '11'],
      ],
    ];
    for (const [options, flags] of cases) {
      const sim = await c.request<SimulationResult>('fabledStar/simulate', {
        attacker: { name: 'Lumen Destroyer' },
        defender: { name: 'Maw Frigate' },
        options,
      });
      let out = '';
      const io = { ...nodeIO(), stdout: (t: string) => void (out += t), stderr: () => undefined };
      const code = await runSim(['--cards', c.root, '--attacker', 'Lumen Destroyer', '--defender', 'Maw Frigate', '--format', 'json', ...flags], io);
      assert.equal(code, 0);
      const cli = JSON.parse(out) as SimulationResult;
      assert.deepEqual(sim.volley, cli.volley, JSON.stringify(options));
      assert.deepEqual(sim.engagement, cli.engagement, JSON.stringify(options));
      assert.deepEqual(sim.options, cli.options);
    }
  });

  it('shows each weapon\u2019s odds against the reference target once it is set', async () => {
    const units = await c.open(UNITS_PATH, MYR_UNITS);
    const range = { start: { line: 0, character: 0 }, end: { line: lineOf(MYR_UNITS, 'Lumen Cruiser'), character: 0 } };
    const none = await c.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri: units }, range });
    // Odds hints are the ones whose tooltip names the reference target (the label stays short).
    const isOdds = (h: InlayHint) => /Against Maw Frigate/.test(typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? ''));
    assert.equal(none.filter(isOdds).length, 0);
    const refreshes = c.inlayRefreshes;
    c.settings = { referenceTarget: 'Maw Frigate' };
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: c.settings } });
    await c.waitFor('an inlay hint refresh', () => c.inlayRefreshes > refreshes);
    const hints = await c.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri: units }, range });
    const odds = hints.filter(isOdds);
    for (const h of odds) assert.ok(String(h.label).length <= 28, `"${String(h.label)}" fits the default hint length`);
    assert.deepEqual(
      odds.map((h) => h.position.line),
      [lineOf(MYR_UNITS, 'name: Lumen Lance'), lineOf(MYR_UNITS, 'Pulse Laser')],
    );
    const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri: units }, position: c.pos(units, 'Lumen Lance', 2) });
    assert.match(md(h), /Against Maw Frigate[\s\S]*kill chance/);
    c.settings = {};
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: {} } });
    await c.close(units);
  });

  it('survives junk, empty files and absurd numbers', async () => {
    const junk = await c.open('junk.unit.yaml', '\u0000\u0001\u0002 {[}: ::: \n\t- -\n' + '['.repeat(5000));
    const ds = await c.diagnosticsWhere(junk, 'junk diagnostics', (d) => d.length > 0);
    assert.ok(ds.every((d) => d.range.start.line >= 0));
    const empty = await c.open('empty.unit.yaml', '');
    await c.diagnosticsWhere(empty, 'empty file diagnostics', (d) => d.length === 1);
    const huge = await c.open(
      'huge.unit.yaml',
      'faction: X\nunits:\n  - name: Big\n    class: Dreadnought\n    points: 99999999999999999999\n    stats: "12/12 3+ 3+ 20 3+ 1000000000 3/10 3/10 999"\n    weapons:\n      - Doom — Blast, 30", 5, 99999999\n',
    );
    await c.diagnosticsWhere(huge, 'huge numbers diagnostics', () => true);
    for (const uri of [junk, empty, huge]) {
      await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 3 } });
      await c.request('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 0 } });
      await c.request('textDocument/documentSymbol', { textDocument: { uri } });
      await c.request('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } } });
    }
    // Still serving.
    const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri: fleet }, position: c.pos(fleet, 'points: 1000', 9) });
    assert.ok(h);
  });
});

describe('language server over stdio (pull diagnostics)', function () {
  this.timeout(60000);
  let c: Client;

  before(async () => {
    c = await startServer({ files: FILES, pull: true });
  });
  after(async () => c?.stop());

  it('answers textDocument/diagnostic, and unchanged while nothing changed', async () => {
    const fleet = await c.open(FLEET_PATH, FLEET);
    type Report = { kind: string; resultId?: string; items?: Diagnostic[] };
    const r = await c.poll('the cards to be indexed', async () => {
      const x = await c.request<Report>('textDocument/diagnostic', { textDocument: { uri: fleet } });
      return x.items?.some((d) => d.code === 'FS-UNIT-FACTION') ? x : undefined;
    });
    assert.deepEqual(
      codes(r.items!),
      [
        `FS-FLEET-UNDER@${lineOf(FLEET, 'points')}`,
        `FS-UNIT-FACTION@${lineOf(FLEET, 'Maw Frigate')}`,
        `FS-UNIT-UNKNOWN@${lineOf(FLEET, 'Lumen Destroyr')}`,
      ].sort(),
    );
    const again = await c.request<Report>('textDocument/diagnostic', { textDocument: { uri: fleet }, previousResultId: r.resultId });
    assert.equal(again.kind, 'unchanged');
    await c.edit(fleet, 'Lumen Destroyr', 'Lumen Destroyer');
    const after = await c.request<Report>('textDocument/diagnostic', { textDocument: { uri: fleet }, previousResultId: r.resultId });
    assert.equal(after.kind, 'full');
    assert.ok(!after.items!.some((d) => d.code === 'FS-UNIT-UNKNOWN'));
    assert.equal(c.diagnostics.size, 0, 'nothing is pushed to a client that pulls');
  });

  it('reports the workspace\u2019s card files through workspace/diagnostic', async () => {
    const r = await c.request<{ items: { uri: string; kind: string; items?: Diagnostic[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    const broken = r.items.find((i) => i.uri === c.uri(BROKEN_PATH))!;
    assert.equal(broken.items!.length, 5);
    assert.ok(!r.items.some((i) => i.uri === c.uri(FLEET_PATH)), 'open documents are pulled one by one');
  });

  it('clears the problems of a file deleted from disk: an empty report for it in the next workspace pull', async () => {
    type Pull = { items: { uri: string; kind: string; resultId?: string; items?: Diagnostic[] }[] };
    const gone = c.writeFile('cards/empty-then-gone.unit.yaml', '');
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: gone, type: 1 }] });
    const before = await c.poll('the new file in the workspace pull', async () => {
      const r = await c.request<Pull>('workspace/diagnostic', { previousResultIds: [] });
      return r.items.find((i) => i.uri === gone && (i.items?.length ?? 0) > 0) ? r : undefined;
    });
    rmSync(join(c.root, 'cards/empty-then-gone.unit.yaml'));
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: gone, type: 3 }] });
    // The client sends what it holds; a file left out of the answer would keep its old problems.
    const previousResultIds = before.items.filter((i) => i.resultId).map((i) => ({ uri: i.uri, value: i.resultId! }));
    const after = await c.poll('the deleted file reported empty', async () => {
      const r = await c.request<Pull>('workspace/diagnostic', { previousResultIds });
      const item = r.items.find((i) => i.uri === gone);
      return item?.kind === 'full' && item.items?.length === 0 ? r : undefined;
    });
    assert.ok(
      after.items.some((i) => i.uri !== gone),
      'the other files are still reported',
    );
  });

  it('clears the problems of a file pulled while open, then closed and deleted, which the client no longer names', async () => {
    type Pull = { items: { uri: string; kind: string; items?: Diagnostic[] }[] };
    const rel = 'cards/opened-then-gone.unit.yaml';
    const gone = c.writeFile(rel, '');
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: gone, type: 1 }] });
    await c.open(rel, '');
    const pulled = await c.request<{ kind: string; items?: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: gone } });
    assert.ok((pulled.items?.length ?? 0) > 0, 'an empty card file has a problem');
    await c.close(gone);
    rmSync(join(c.root, rel));
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: gone, type: 3 }] });
    await c.poll('the deleted file reported empty', async () => {
      const r = await c.request<Pull>('workspace/diagnostic', { previousResultIds: [] });
      const item = r.items.find((i) => i.uri === gone);
      return item?.kind === 'full' && item.items?.length === 0 ? r : undefined;
    });
  });

  it('asks the client to pull again when a card a fleet uses changes', async () => {
    const before = c.refreshes;
    const units = await c.open(UNITS_PATH, MYR_UNITS);
    await c.edit(units, 'name: Lumen Cruiser', 'name: Lumen Lancer');
    // The server re-reads the card file when it next needs it; a pull of the card file does.
    await c.request('textDocument/diagnostic', { textDocument: { uri: units } });
    await c.waitFor('a diagnostic refresh', () => c.refreshes > before);
    const fleet = c.uri(FLEET_PATH);
    const r = await c.request<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: fleet } });
    assert.ok(r.items.some((d) => d.code === 'FS-UNIT-UNKNOWN' && /Lumen Cruiser/.test(msg(d))));
  });
});

describe('language server over stdio (limits)', function () {
  this.timeout(60000);

  it('reads at most fabledStar.workspace.maxFiles files from the workspace, and says so', async () => {
    const c = await startServer({ files: FILES, settings: { workspace: { maxFiles: 2 } } });
    try {
      await c.waitFor('the cap warning', () =>
        c.notifications.some((n) => n.method === 'window/logMessage' && /Read the first 2 /.test((n.params as { message: string }).message)),
      );
      const cards = await c.request<CardInfo[]>('fabledStar/listCards', {});
      assert.ok(cards.length > 0);
      assert.ok(new Set(cards.map((x) => x.uri)).size <= 2, cards.map((x) => x.uri).join('\n'));
    } finally {
      await c.stop();
    }
  });
});

describe('language server over stdio: the points estimate follows its reference field', function () {
  this.timeout(60000);
  const REF = exampleFiles().find((f) => f.path === 'myr-valari/myr-valari.unit.yaml')!.text;
  const HOME = [
    'faction: Home',
    'units:',
    '  - name: Home Cruiser',
    '    class: Cruiser',
    '    points: 230',
    '    stats: "6/6 5+ 8+ 6 5+ 7 6/3 7/3 5"',
    '    weapons:',
    '      - Home Broadside — Energy, 18", 2, 4',
    '',
  ].join('\n');
  let c: Client;
  before(async () => {
    const files: Record<string, string> = { 'home.unit.yaml': HOME };
    for (const f of exampleFiles()) if (f.path.endsWith('.unit.yaml')) files[`ref/${f.path}`] = f.text;
    c = await startServer({ files });
  });
  after(async () => c?.stop());

  it('republishes the notes of files not open when an edit moves the field, and only then', async () => {
    const home = c.uri('home.unit.yaml');
    await c.diagnosticsWhere(home, 'the home file checked', () => true);
    const ref = await c.open('ref/myr-valari/myr-valari.unit.yaml', REF);
    await c.diagnosticsWhere(ref, 'the open field file checked', () => true);
    // An edit that leaves the field as it is (an order's wording) republishes nothing else.
    let before = c.arrivals.get(home)!.at;
    const v1 = await c.edit(ref, 'Target friendly unit gains', 'Target friendly unit gets');
    await c.waitFor('the edited file republished', () => (c.arrivals.get(ref)?.version === v1 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(c.arrivals.get(home)!.at, before, 'the home file was not republished');
    // A field card's HP changes: every card's estimate may move, so the home file is checked again.
    before = c.arrivals.get(home)!.at;
    await c.edit(ref, 'HP: 5', 'HP: 9');
    await c.waitFor('the home file republished for the new field', () => (c.arrivals.get(home)!.at > before ? true : undefined));
    await c.close(ref);
  });
});
