/**
 * `fabledStar/roster` and `fabledStar/rosterEdit` over stdio against the bundled server: the Fleet
 * view's data (entries, points, embarked units, problems with their ranges, what can be added or
 * embarked), an export in any format, and edits that the client applies and the server re-reads.
 */
import { strict as assert } from 'node:assert';
import type { CodeAction, Diagnostic, Range, TextEdit } from 'vscode-languageserver-protocol';
import { fleetServer, positionAt, type Client } from './harness';
import { FILES, FLEET, lineOf } from './fixtures';
import type { ImportRosterResult, RosterData, RosterEditResult } from '../../protocol';

const FLEET_PATH = 'fleets/vanguard.fleet.yaml';

function offsetAt(text: string, p: { line: number; character: number }): number {
  const lines = text.split('\n');
  let o = 0;
  for (let i = 0; i < p.line; i++) o += lines[i]!.length + 1;
  return o + p.character;
}

describe('roster requests over stdio', function () {
  this.timeout(60000);
  let c: Client;
  let fleet: string;

  before(async () => {
    // Every workspace file indexed: the Myr-Valari cards resolve, and the Consumed card is known as one.
    ({ c, uri: fleet } = await fleetServer(
      FILES,
      FLEET_PATH,
      FLEET,
      (r) => r.entries[0]!.class === 'Destroyer' && r.entries[3]!.problems[0]?.code === 'FS-UNIT-FACTION',
    ));
  });
  after(async () => c?.stop());

  const roster = () => c.request<RosterData>('fabledStar/roster', { uri: fleet });

  /** Asks for an edit, applies it as the client would, and returns the roster of the new text. */
  async function edit(params: Record<string, unknown>): Promise<RosterData> {
    const answer = await c.request<RosterEditResult | null>('fabledStar/rosterEdit', { uri: fleet, version: c.versions.get(fleet), ...params });
    assert.ok(answer && 'edit' in answer, `no edit for ${JSON.stringify(params)}: ${JSON.stringify(answer)}`);
    assert.equal(answer.version, c.versions.get(fleet), 'the edit says which text it was computed on');
    const e = answer.edit;
    const text = c.texts.get(fleet)!;
    const start = offsetAt(text, e.range.start);
    const end = offsetAt(text, e.range.end);
    const version = await c.change(fleet, [{ range: e.range, text: e.newText }], text.slice(0, start) + e.newText + text.slice(end));
    void version;
    return roster();
  }

  it('gives the tree’s data: entries with points, embarked units and problems at their places', async () => {
    const r = await roster();
    assert.deepEqual(
      [r.name, r.faction, r.limit, r.gameSize, r.total, r.remaining, r.over, r.legal],
      ['Radiant Vanguard', 'Myr-Valari', 1000, 'Standard', 650, 350, false, false],
    );
    assert.deepEqual(
      r.entries.map((e) => [e.unit, e.class ?? null, e.count, e.each, e.total, e.complete]),
      [
        ['Lumen Destroyer', 'Destroyer', 2, 145, 290, true],
        ['Lumen Destroyr', null, 1, 0, 0, false],
        ['Lumen Cruiser', 'Cruiser', 1, 250, 250, true],
        // A card of another faction: its points count (its FS-UNIT-FACTION error says it does not belong).
        ['Maw Frigate', 'Frigate', 1, 110, 110, true],
      ],
    );
    const line = (range: Range) => range.start.line;
    assert.equal(line(r.entries[2]!.range), lineOf(FLEET, 'Lumen Cruiser'));
    assert.deepEqual(
      r.entries[2]!.embarked.map((x) => [x.name, x.class, x.points, line(x.range)]),
      [['Veilwing Fighter Wing', 'Fighter', 60, lineOf(FLEET, 'Veilwing')]],
    );
    assert.deepEqual(
      r.entries[1]!.problems.map((p) => [p.code, p.uri === fleet, p.range.start]),
      [['FS-UNIT-UNKNOWN', true, positionAt(FLEET, FLEET.indexOf('Lumen Destroyr'))]],
    );
    assert.equal(r.entries[3]!.problems[0]!.code, 'FS-UNIT-FACTION');
    assert.deepEqual(
      r.problems.map((p) => [p.code, line(p.range)]),
      [['FS-FLEET-UNDER', lineOf(FLEET, 'points')]],
    );
    assert.equal(r.entries[0]!.card?.uri, c.uri('cards/myr.unit.yaml'));
    assert.deepEqual(r.counts, { errors: 2, warnings: 0, infos: 1 });
    assert.deepEqual(
      r.byClass.find((k) => k.class === 'Destroyer'),
      { class: 'Destroyer', units: 2, points: 290 },
    );
    assert.match(
      r.copyText,
      /^Radiant Vanguard \(Myr-Valari\): 2× Lumen Destroyer 290, Lumen Destroyr \?, Lumen Cruiser \+ Veilwing Fighter Wing 250, Maw Frigate 110; 650\/1000 \(2 errors\) · rules July 30 · fs1-[0-9a-f]{16}$/,
    );
  });

  it('offers the faction’s cards to add, and to each bay what it can carry', async () => {
    const r = await roster();
    const names = r.addChoices.map((x) => x.name);
    assert.ok(names.includes('Lumen Destroyer') && names.includes('Veilwing Fighter Wing'));
    assert.ok(!names.includes('Maw Frigate'), 'not a Consumed card');
    assert.ok(r.addChoices.every((x) => x.fits === (x.points ?? 0) <= 460));
    assert.deepEqual(r.entries[0]!.embarkChoices, []);
    // Launch Bay Tier 1 holds one Fighter, and the Cruiser already carries one.
    assert.deepEqual(
      r.entries[2]!.embarkChoices.map((x) => [x.name, x.fits]),
      [['Veilwing Fighter Wing', false]],
    );
  });

  it('renders an export in any format; a roster with errors says so at the top', async () => {
    const html = await c.request<RosterData>('fabledStar/roster', { uri: fleet, format: 'html' });
    assert.match(html.rendered!, /<section class="verdict" role="alert">⚠ Not legal as written: 2 errors/);
    const md = await c.request<RosterData>('fabledStar/roster', { uri: fleet, format: 'markdown' });
    assert.match(md.rendered!, /^# Radiant Vanguard\n/);
    const none = await c.request<RosterData>('fabledStar/roster', { uri: fleet, format: 'pdf' });
    assert.equal(none.rendered, undefined);
  });

  it('edits the YAML: add, embark, disembark and remove, each re-read by the server with no new error', async () => {
    const before = await roster();
    let r = await edit({ action: 'add', card: 'Shardlight Escort' });
    assert.equal(r.entries.at(-1)!.unit, 'Shardlight Escort');
    assert.equal(r.total, before.total + 80);
    assert.equal(r.counts.errors, before.counts.errors);
    assert.match(c.texts.get(fleet)!, /\n  - unit: Shardlight Escort\n?$/);

    r = await edit({ action: 'remove', entry: 1 });
    assert.deepEqual(
      r.entries.map((e) => e.unit),
      ['Lumen Destroyer', 'Lumen Cruiser', 'Maw Frigate', 'Shardlight Escort'],
    );
    assert.equal(r.counts.errors, before.counts.errors - 1);

    r = await edit({ action: 'disembark', entry: 1, embarked: 0 });
    assert.equal(r.entries[1]!.embarked.length, 0);
    assert.deepEqual(
      r.entries[1]!.embarkChoices.map((x) => [x.name, x.fits]),
      [['Veilwing Fighter Wing', true]],
    );
    r = await edit({ action: 'embark', entry: 1, card: 'Veilwing Fighter Wing' });
    assert.deepEqual(
      r.entries[1]!.embarked.map((x) => x.name),
      ['Veilwing Fighter Wing'],
    );
    assert.equal(r.counts.errors, before.counts.errors - 1);
  });

  it('refuses what it cannot do: a stale version, bad parameters, a uri that is not a fleet', async () => {
    const stale = await c.request<RosterEditResult>('fabledStar/rosterEdit', { uri: fleet, version: 1, action: 'add', card: 'Shardlight Escort' });
    assert.ok('refused' in stale && stale.refused === 'stale' && /changed since/.test(stale.message), JSON.stringify(stale));
    for (const bad of [
      { action: 'remove', entry: 99 },
      { action: 'remove', entry: -1 },
      { action: 'remove', entry: 'x' },
      { action: 'embark', entry: 0 },
      { action: 'add', card: '  ' },
      { action: 'explode' },
    ])
      assert.deepEqual(
        await c.request<RosterEditResult>('fabledStar/rosterEdit', { uri: fleet, ...bad }).then((r) => 'refused' in r && r.refused),
        'cannot',
        JSON.stringify(bad),
      );
    assert.equal(await c.request('fabledStar/rosterEdit', { uri: c.uri('cards/myr.unit.yaml'), action: 'remove', entry: 0 }), null);
    assert.equal(await c.request('fabledStar/roster', { uri: c.uri('cards/myr.unit.yaml') }), null);
    assert.equal(await c.request('fabledStar/roster', { uri: c.uri('nowhere.fleet.yaml') }), null);
    assert.equal(await c.request('fabledStar/roster', {}), null);
  });

  it('reads a posted list into a fleet list against the workspace cards (Paste Roster as Fleet), the export round trip included', async () => {
    const post = 'Radiant Vanguard - 1000 pts\r\n- 2x Lumen Destroyer (290)\r\n- Lumen Dxxtrxyxr\r\n';
    const r = await c.request<ImportRosterResult | null>('fabledStar/importRoster', { text: post });
    assert.ok(r);
    assert.deepEqual([r.format, r.name, r.faction, r.points, r.entries], ['post', 'Radiant Vanguard', 'Myr-Valari', 1000, 1]);
    assert.deepEqual(r.problems, [
      {
        line: 3,
        text: '- Lumen Dxxtrxyxr',
        why: 'no card named "Lumen Dxxtrxyxr"',
        closest: 'Lumen Destroyer',
        candidates: ['Lumen Destroyer', 'Lumen Cruiser'],
      },
    ]);
    assert.match(r.fleet, /^ {2}- unit: Lumen Destroyer\n {4}count: 2\n/m);
    // The open fleet's own markdown export reads back to its entries that name cards.
    const md = await c.request<RosterData>('fabledStar/roster', { uri: fleet, format: 'markdown' });
    const back = await c.request<ImportRosterResult | null>('fabledStar/importRoster', { text: md.rendered });
    assert.equal(back?.format, 'markdown');
    assert.equal(back?.name, md.name);
    // Not text: null, never a failure.
    assert.equal(await c.request('fabledStar/importRoster', { text: 42 }), null);
    assert.equal(await c.request('fabledStar/importRoster', {}), null);
  });

  it('reads a huge paste off the server thread: a hover asked meanwhile is answered before the import, and promptly', async () => {
    // About five seconds of reading on a busy machine of two cores (on the server's thread, every hover waited for it).
    const text = Array.from({ length: 40_000 }, (_, i) => (i % 2 ? '- 2x Lumen Destroyer' : `Some chatter about line ${i}`)).join('\n');
    let imported = Infinity;
    const started = Date.now();
    const answer = c.request<ImportRosterResult | null>('fabledStar/importRoster', { text }).then((r) => {
      imported = Date.now();
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    const asked = Date.now();
    const hover = await c.request<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: fleet }, position: c.pos(fleet, 'unit: ', 8) });
    const hovered = Date.now();
    assert.ok(hover?.contents, 'the hover has its answer');
    const r = await answer;
    assert.equal(r?.entries, 20_000);
    assert.ok(hovered < imported, `the hover (${hovered - started} ms) waited for the import (${imported - started} ms)`);
    assert.ok(hovered - asked < 2000, `the hover took ${hovered - asked} ms while the import ran`);
  });

  it('a pasted list with typos: each guess is a warning whose quick fixes keep it or take another candidate; a line close to several cards offers each', async () => {
    const post = 'Veil Patrol - Myr-Valari 1000\n1x Lumen Destroyr (145)\n2x Lumen Dxxtrxyxr\n3 x Shardlite Escort @ 80\n';
    const r = await c.request<ImportRosterResult | null>('fabledStar/importRoster', { text: post });
    assert.ok(r);
    assert.deepEqual(
      r.guesses?.map((g) => [g.line, g.written, g.unit]),
      [
        [2, 'Lumen Destroyr', 'Lumen Destroyer'],
        [4, 'Shardlite Escort', 'Shardlight Escort'],
      ],
    );
    // The list as Paste Roster as Fleet opens it, a note of another candidate added by hand to the escort's.
    const text = r.fleet.replace('read as the closest card\n    count: 3', 'read as the closest card; other candidates: "Lumen Cruiser"\n    count: 3');
    assert.notEqual(text, r.fleet);
    const uri = await c.open('fleets/imported.fleet.yaml', text);
    const ds = await c.diagnosticsWhere(
      uri,
      'the import notes',
      (d: Diagnostic[]) => d.filter((x) => x.code === 'FS-IMPORT-GUESS').length === 2 && d.some((x) => x.code === 'FS-IMPORT-UNREAD'),
    );
    const at = (code: string, n = 0) => ds.filter((d) => d.code === code)[n]!;
    assert.equal(at('FS-IMPORT-GUESS').severity, 2);
    assert.match(String(at('FS-IMPORT-GUESS').message), /said "Lumen Destroyr".*read as Lumen Destroyer, the closest card/);
    const actions = async (d: Diagnostic) =>
      c.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d], triggerKind: 2 } });
    const applied = (a: CodeAction | undefined) => {
      assert.ok(a?.edit?.changes?.[uri], JSON.stringify(a));
      const lines = text.split('\n');
      const off = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
      return [...(a.edit.changes[uri] as TextEdit[])]
        .sort((x, y) => off(y.range.start) - off(x.range.start))
        .reduce((t, e) => t.slice(0, off(e.range.start)) + e.newText + t.slice(off(e.range.end)), text);
    };
    // Keep the guess: the note goes, the line ends at its value.
    const keep = (await actions(at('FS-IMPORT-GUESS'))).find((a) => a.title === "Keep Lumen Destroyer (remove the import's note)");
    assert.match(applied(keep), /^ {2}- unit: Lumen Destroyer\n/m);
    // Another candidate: the name changes and the note goes.
    const other = (await actions(at('FS-IMPORT-GUESS', 1))).find((a) => a.title === 'Change to "Lumen Cruiser" (the import\'s other candidate)');
    assert.match(applied(other), /^ {2}- unit: Lumen Cruiser\n {4}count: 3\n/m);
    // A line close to two cards: one fix per card, each adds its copies and takes the note away.
    const unread = await actions(at('FS-IMPORT-UNREAD'));
    assert.deepEqual(
      unread.filter((a) => /^Add /.test(a.title)).map((a) => a.title),
      ['Add 2\u00d7 Lumen Destroyer for line 3 of the imported list', 'Add 2\u00d7 Lumen Cruiser for line 3 of the imported list'],
    );
    const added = applied(unread.find((a) => a.title.includes('Lumen Cruiser')));
    assert.doesNotMatch(added, /^# line 3:/m);
    assert.match(added, /^ {2}- unit: Lumen Cruiser\n {4}count: 2\n?$/m);
  });
});
