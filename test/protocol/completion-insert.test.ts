/**
 * Multi-line completions as a user gets them in VS Code: the bundled server is asked over stdio at
 * the places users type (a new file, a new card, a new key, a new list item, a new fleet entry; at
 * column 0 and indented; after the "- " a list key inserts and on a blank line), each item is
 * accepted with VS Code's indentation rule (vscodeCompletion.ts), and the result is checked by the
 * project's validator. No item may leave a YAML or key error; a template, once its placeholders are
 * at their defaults (and an empty card-name stop is filled from that stop's own completion), leaves
 * no error or warning at all.
 */
import { strict as assert } from 'node:assert';
import type { CompletionItem, CompletionList } from 'vscode-languageserver-protocol';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check/index';
import { startServer, positionAt, type Client } from './harness';
import { acceptAsVSCode, expandSnippet } from './vscodeCompletion';

const CARDS = `faction: Ashen Reach
units:
  - name: Cinder Destroyer
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Cinder Lance — Energy, 18", 2, 3
      - Ash Battery — Auto, 9", 1, 4
    orders:
      - Attack Run
    abilities:
      - Hit & Run
  - name: Ember Cruiser
    class: Cruiser
    points: 190
    stats: "9/6 5+ 7+ 5 5+ 7 6/3 7/3 4"
    weapons:
      - Ember Spear — Piercing, 24", 3, 2
      - Ember Battery — Auto, 12", 1, 6
    orders:
      - Full Burn
    abilities:
      - Launch Bay Tier 1
  - name: Spark Wing
    class: Fighter
    points: 60
    stats: "9/6 4+ 6+ — — 1 7/2 — —"
    weapons:
      - Spark Darts — Energy, 6", 1, 1
    abilities:
      - Dogfighters
`;

/** A card with a free weapon, order and ability slot, for list-item templates (one weapon short: a warning). */
const ROOMY = `faction: Ashen Reach
units:
  - name: Pyre Dreadnought
    class: Dreadnought
    points: 480
    stats: "6/3 4+ 8+ 8 4+ 14 5/4 5/4 6"
    weapons:
      - Pyre Lance — Energy, 24", 3, 3
      - Pyre Battery — Auto, 12", 1, 6
      - Pyre Torch — Blast, 9", 2, 2
    orders:
      - Full Burn
    abilities:
      - Hit & Run
`;

const BOARD_FIVE = `faction: Ashen Reach
doctrine: Standard
cp: 3
factionAbility:
  name: Ashfall
  text: Reroll one failed Dodge roll per turn.
commandAbilities:
  - name: One
    cost: 1
    timing: Any time
    effect: Something.
  - name: Two
    cost: 1
    timing: Any time
    effect: Something.
  - name: Three
    cost: 1
    timing: Any time
    effect: Something.
  - name: Four
    cost: 1
    timing: Any time
    effect: Something.
  - name: Five
    cost: 1
    timing: Any time
    effect: Something.
`;

const STRUCTURE = new Set(['FS-YAML-SYNTAX', 'FS-DUPLICATE-KEY', 'FS-UNKNOWN-KEY', 'FS-TYPE']);

/** Errors and warnings of `text` as `file`, in a workspace holding the card file. */
function problemsOf(file: string, text: string): { code: string; severity: string; message: string; line: number }[] {
  const ws = new Workspace();
  ws.set('file:///ws/cards/ashen.unit.yaml', CARDS);
  const uri = `file:///ws/${file}`;
  const doc = ws.set(uri, text);
  assert.ok(doc, `${file} reads as a Fabled Star file`);
  return checkDocument(doc, ws)
    .filter((p) => p.severity === 'error' || p.severity === 'warning')
    .map((p) => ({ code: p.code, severity: p.severity, message: p.message, line: text.slice(0, p.span.start).split('\n').length }));
}

/** The problems of `after` that `before` does not have (by code and message). */
function added<T extends { code: string; message: string }>(before: T[], after: T[]): T[] {
  const left = before.map((p) => `${p.code} ${p.message}`);
  return after.filter((p) => {
    const i = left.indexOf(`${p.code} ${p.message}`);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** The text without the cursor's line: what the file checks as before the user started the item. */
function withoutCursorLine(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(0, start) + (end < 0 ? '' : text.slice(end + 1));
}

/** Where `¦` stands in a case's text, and the text without it. */
function place(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('¦');
  assert.ok(offset >= 0);
  return { text: marked.replace('¦', ''), offset };
}

/** The tab stops of a snippet that have no default (empty `$n`), in order. */
function emptyStops(item: CompletionItem): number[] {
  const t = (item.textEdit as { newText: string }).newText;
  return [...t.matchAll(/\$(\d+)(?!\d)|\$\{(\d+)\}/g)].map((m) => Number(m[1] ?? m[2])).filter((n) => n !== 0);
}

describe('multi-line completions, accepted as VS Code accepts them', function () {
  this.timeout(60000);
  let c: Client;
  let seq = 0;

  before(async () => {
    c = await startServer({ files: { 'cards/ashen.unit.yaml': CARDS } });
    const probe = await c.open('fleets/probe.fleet.yaml', 'name: P\nfaction: Ashen Reach\npoints: 500\nunits:\n  - unit: Cinder Destroyer\n');
    await c.diagnosticsWhere(probe, 'the workspace cards to be read', (d) => !d.some((x) => x.code === 'FS-UNIT-UNKNOWN'));
  });
  after(async () => c?.stop());

  /** Opens `text` as a new document named like `file` and asks for completion at `offset`. */
  async function completeAt(file: string, text: string, offset: number): Promise<CompletionItem[]> {
    const rel = file.replace(/^(.*?)(\.\w+\.yaml)$/, `$1-${seq++}$2`);
    const uri = await c.open(rel, text);
    try {
      const r = await c.request<CompletionList | CompletionItem[] | null>('textDocument/completion', {
        textDocument: { uri },
        position: positionAt(text, offset),
      });
      return Array.isArray(r) ? r : (r?.items ?? []);
    } finally {
      await c.close(uri);
    }
  }

  /** Accepts `item`; then fills each empty tab stop as a user does: from that stop's own completion. */
  async function accept(file: string, text: string, item: CompletionItem, pick?: (items: CompletionItem[]) => CompletionItem | undefined): Promise<string> {
    const stops = emptyStops(item);
    if (!stops.length) return acceptAsVSCode(text, item).text;
    // Mark each empty stop, then complete at each mark in turn.
    const fill: Record<number, string> = {};
    for (const n of stops) fill[n] = `\u2020${n}\u2020`;
    let out = acceptAsVSCode(text, item, fill).text;
    for (const n of stops) {
      const mark = `\u2020${n}\u2020`;
      const at = out.indexOf(mark);
      const bare = out.replace(mark, '');
      const items = (await completeAt(file, bare, at)).filter((i) => i.kind !== 15 /* snippet */);
      const chosen = pick?.(items) ?? items[0];
      assert.ok(chosen, `nothing to complete at tab stop $${n} of ${item.label}:\n${bare}`);
      out = acceptAsVSCode(bare, chosen).text;
    }
    return out;
  }

  /** A user writing an entry with embarked units picks a ship with a bay: a Cruiser here. */
  const hostFirst = (cands: CompletionItem[]) => cands.find((x) => /Cruiser/.test(x.label)) ?? cands[0];

  const templates: { name: string; file: string; text: string; labels: string[] }[] = [
    { name: 'a new unit cards file', file: 'cards/new.unit.yaml', text: '¦', labels: ['New unit cards file: Destroyer', 'New unit cards file: Fighter'] },
    {
      name: 'a new unit cards file, typed',
      file: 'cards/new.unit.yaml',
      text: 'New¦',
      labels: ['New unit cards file: Destroyer', 'New unit cards file: Fighter'],
    },
    { name: 'a new Command Board', file: 'cards/new.faction.yaml', text: '¦', labels: ['New Command Board'] },
    { name: 'a new fleet', file: 'fleets/new.fleet.yaml', text: '¦', labels: ['New fleet'] },
    {
      name: 'a new card after "- "',
      file: 'cards/more.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - ¦',
      labels: ['New unit card: Destroyer', 'New unit card: Fighter', 'New unit card: Carrier'],
    },
    {
      name: 'a new card after "- New"',
      file: 'cards/more.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - New¦',
      labels: ['New unit card: Destroyer', 'New unit card: Fighter', 'New unit card: Carrier'],
    },
    {
      name: 'a new card on a blank line after a card',
      file: 'cards/more.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - name: Husk Escort\n    class: Escort\n    points: 80\n    stats: "9/6 5+ 6+ 2 8+ 2 7/2 — 1"\n    weapons:\n      - Husk Needler — Auto, 9", 1, 3\n    abilities:\n      - Combined Shields\n  ¦',
      labels: ['New unit card: Destroyer', 'New unit card: Fighter', 'New unit card: Carrier'],
    },
    {
      name: 'a new card, flush list',
      file: 'cards/more.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n- ¦',
      labels: ['New unit card: Destroyer', 'New unit card: Fighter', 'New unit card: Carrier'],
    },
    {
      name: 'a new card in a board',
      file: 'cards/more.faction.yaml',
      text: BOARD_FIVE + '  - name: Six\n    cost: 1\n    timing: Any time\n    effect: Something.\nunits:\n  - ¦',
      labels: ['New unit card: Destroyer', 'New unit card: Fighter', 'New unit card: Carrier'],
    },
    {
      name: 'weapon systems after "- "',
      file: 'cards/roomy.unit.yaml',
      text: ROOMY.replace('      - Pyre Lance', '      - ¦\n      - Pyre Lance'),
      labels: ['New weapon system', 'New weapon line'],
    },
    {
      name: 'weapon systems after "- weapon"',
      file: 'cards/roomy.unit.yaml',
      text: ROOMY.replace('    orders:', '      - weapon¦\n    orders:'),
      labels: ['New weapon system', 'New weapon line'],
    },
    {
      name: 'weapon systems on a blank line',
      file: 'cards/roomy.unit.yaml',
      text: ROOMY.replace('    orders:', '      ¦\n    orders:'),
      labels: ['New weapon system', 'New weapon line'],
    },
    { name: 'an order', file: 'cards/roomy.unit.yaml', text: ROOMY.replace('    abilities:', '      - ¦\n    abilities:'), labels: ['New order'] },
    { name: 'an ability', file: 'cards/roomy.unit.yaml', text: ROOMY + '      - ¦', labels: ['New ability'] },
    { name: 'a command ability', file: 'cards/more.faction.yaml', text: BOARD_FIVE + '  - ¦', labels: ['New command ability'] },
    {
      name: 'a fleet entry after "- "',
      file: 'fleets/f.fleet.yaml',
      text: 'name: F\nfaction: Ashen Reach\npoints: 500\nunits:\n  - unit: Cinder Destroyer\n  - ¦',
      labels: ['New fleet entry', 'New fleet entry with embarked units'],
    },
    {
      name: 'a fleet entry on a blank line',
      file: 'fleets/f.fleet.yaml',
      text: 'name: F\nfaction: Ashen Reach\npoints: 500\nunits:\n  - unit: Cinder Destroyer\n    count: 1\n  ¦',
      labels: ['New fleet entry', 'New fleet entry with embarked units'],
    },
  ];

  for (const t of templates) {
    it(`${t.name}: ${t.labels.join(', ')} check clean`, async () => {
      const { text, offset } = place(t.text);
      const items = await completeAt(t.file, text, offset);
      for (const label of t.labels) {
        const item = items.find((i) => i.label === label);
        assert.ok(item, `no "${label}" in ${items.map((i) => i.label).join(', ')}`);
        // The typed word must not filter it away: VS Code filters from the range start to the cursor.
        const range = (item.textEdit as { range: { start: { line: number; character: number } } }).range;
        const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        const typed = text.slice(lineStart + range.start.character, offset);
        const filter = (item.filterText ?? item.label).toLowerCase();
        let k = 0;
        for (const ch of typed.toLowerCase()) k = filter.indexOf(ch, k) + 1 || -1;
        assert.ok(k > 0 || typed === '', `"${typed}" filters away ${label} (${filter})`);
        // A host for the embarked units: the first card whose embark completion is not empty.
        const out = await accept(t.file, text, item, hostFirst);
        const before = problemsOf(t.file, withoutCursorLine(text, offset));
        assert.deepEqual(added(before, problemsOf(t.file, out)), [], `after ${label}:\n${out}`);
      }
    });
  }

  it('offers no template where a value goes', async () => {
    for (const marked of ['faction: ¦', 'faction: Ashen Reach\nunits:\n  - name: ¦', 'faction: Ashen Reach\nunits:\n  - name: X\n    class: ¦']) {
      const { text, offset } = place(marked);
      const items = await completeAt('cards/v.unit.yaml', text, offset);
      assert.deepEqual(
        items.filter((i) => i.kind === 15).map((i) => i.label),
        [],
        marked,
      );
    }
  });

  /** Key completions that open a list or a mapping: each leaves the cursor where that list's items or keys go. */
  const keys: { name: string; file: string; text: string; key: string; then: string; col: number }[] = [
    { name: 'units in a new unit file', file: 'cards/k.unit.yaml', text: 'faction: Ashen Reach\n¦', key: 'units', then: 'New unit card: Destroyer', col: 4 },
    {
      name: 'stats in a card',
      file: 'cards/k.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - name: K\n    class: Cruiser\n    ¦',
      key: 'stats',
      then: 'BS',
      col: 6,
    },
    {
      name: 'stats typed in a card',
      file: 'cards/k.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - name: K\n    class: Cruiser\n    sta¦',
      key: 'stats',
      then: 'BS',
      col: 6,
    },
    {
      name: 'weapons in a card',
      file: 'cards/k.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - name: K\n    class: Cruiser\n    ¦',
      key: 'weapons',
      then: 'New weapon system',
      col: 8,
    },
    {
      name: 'abilities in a card',
      file: 'cards/k.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - name: K\n    class: Cruiser\n    ¦',
      key: 'abilities',
      then: 'New ability',
      col: 8,
    },
    {
      name: 'orders after "- " of a new card',
      file: 'cards/k.unit.yaml',
      text: 'faction: Ashen Reach\nunits:\n  - name: K\n    class: Cruiser\n    ord¦',
      key: 'orders',
      then: 'New order',
      col: 8,
    },
    {
      name: 'units in a fleet',
      file: 'fleets/k.fleet.yaml',
      text: 'name: K\nfaction: Ashen Reach\npoints: 500\n¦',
      key: 'units',
      then: 'New fleet entry',
      col: 4,
    },
    {
      name: 'embark in a fleet entry',
      file: 'fleets/k.fleet.yaml',
      text: 'name: K\nfaction: Ashen Reach\npoints: 500\nunits:\n  - unit: Ember Cruiser\n    ¦',
      key: 'embark',
      then: 'Spark Wing',
      col: 8,
    },
    {
      name: 'commandAbilities in a board',
      file: 'cards/k.faction.yaml',
      text: 'faction: Ashen Reach\ndoctrine: Standard\n¦',
      key: 'commandAbilities',
      then: 'New command ability',
      col: 4,
    },
    {
      name: 'factionAbility in a board',
      file: 'cards/k.faction.yaml',
      text: 'faction: Ashen Reach\ndoctrine: Standard\n¦',
      key: 'factionAbility',
      then: 'text',
      col: 2,
    },
  ];
  for (const k of keys) {
    it(`${k.name}: "${k.key}" leaves the cursor at column ${k.col}, where ${k.then} is offered`, async () => {
      const { text, offset } = place(k.text);
      const items = await completeAt(k.file, text, offset);
      const item = items.find((i) => i.label === k.key);
      assert.ok(item, `no ${k.key} in ${items.map((i) => i.label).join(', ')}`);
      const out = acceptAsVSCode(text, item);
      const col = out.cursor - (out.text.lastIndexOf('\n', out.cursor - 1) + 1);
      assert.equal(col, k.col, `cursor column after ${k.key}:\n${out.text}`);
      assert.deepEqual(
        problemsOf(k.file, out.text).filter((p) => STRUCTURE.has(p.code) && !/null|empty|nothing/i.test(p.message)),
        [],
      );
      const next = await completeAt(k.file, out.text, out.cursor);
      assert.ok(
        next.some((i) => i.label === k.then),
        `no ${k.then} after ${k.key}: ${next.map((i) => i.label).join(', ')}`,
      );
    });
  }

  it('every multi-line item offered at these places leaves no YAML or key error', async () => {
    let tried = 0;
    for (const t of [...templates, ...keys]) {
      const { text, offset } = place(t.text);
      for (const item of await completeAt(t.file, text, offset)) {
        const newText = (item.textEdit as { newText: string }).newText;
        if (!newText.includes('\n')) continue;
        tried++;
        const out = item.kind === 15 ? await accept(t.file, text, item, hostFirst) : acceptAsVSCode(text, item).text;
        const bad = problemsOf(t.file, out).filter((p) => STRUCTURE.has(p.code) && !/null|empty|nothing/i.test(p.message));
        assert.deepEqual(bad, [], `${item.label} at ${t.name}:\n${out}`);
      }
    }
    assert.ok(tried > 20, `only ${tried} multi-line items`);
  });

  it('reads snippets as VS Code does: choices take their first option, escapes stay literal', () => {
    assert.deepEqual(expandSnippet('a: ${1|x\\,y,z|} b: ${2:q\\}} $0c \\$4'), { text: 'a: x,y b: q} c $4', final: 13 });
  });
});
