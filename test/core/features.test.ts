/**
 * The language features as pure functions: hover, completion, code actions, symbols, navigation,
 * inlay hints, code lenses and the workspace queries, over the fixture workspace. Cases are data:
 * a file, a place (the text after which the cursor sits) and what must (and must not) appear.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check/index';
import { hover, termHoverAt } from '../../server/src/core/features/hover';
import { fieldOf, type FieldOwner } from '../../server/src/core/model/fields';
import { complete } from '../../server/src/core/features/completion';
import { codeActions, fixAll, type CodeActionData } from '../../server/src/core/features/codeActions';
import { documentSymbols, workspaceSymbols } from '../../server/src/core/features/symbols';
import { definition, prepareRename, references, rename } from '../../server/src/core/features/navigation';
import { inlayHints } from '../../server/src/core/features/inlayHints';
import { ODDS_LABEL_MAX } from '../../server/src/core/features/odds';
import { codeLenses } from '../../server/src/core/features/codeLens';
import type { FleetDocument } from '../../server/src/core/model/types';
import { fleetSummary } from '../../server/src/core/features/fleetSummary';
import { dependents, findCard, listCards } from '../../server/src/core/features/workspaceQueries';
import { cursorContext, pathKeys } from '../../server/src/core/features/context';
import { resolveSettings } from '../../protocol';
import { FILES } from '../protocol/fixtures';

const U = (p: string) => `file:///ws/${p}`;
const UNITS = U('cards/myr.unit.yaml');
const BROKEN = U('cards/broken.unit.yaml');
const BOARD = U('cards/myr.faction.yaml');
const FLEET = U('fleets/vanguard.fleet.yaml');
const CONSUMED = U('consumed/consumed.unit.yaml');

function workspace(extra: Record<string, string> = {}): Workspace {
  const ws = new Workspace();
  for (const [p, t] of Object.entries({ ...FILES, ...extra })) ws.set(U(p), t);
  return ws;
}

const settings = resolveSettings({});

/** The offset just after the `nth` occurrence of `before` in the document (plus `delta`). */
function at(ws: Workspace, uri: string, before: string, delta = 0, nth = 0): number {
  const text = ws.get(uri)!.text;
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(before, i + 1);
  assert.ok(i >= 0, `"${before}" not in ${uri}`);
  return i + before.length + delta;
}

/** Applies edits (to one document) from last to first. */
function apply(text: string, edits: { span: { start: number; end: number }; newText: string }[]): string {
  return [...edits].sort((a, b) => b.span.start - a.span.start).reduce((t, e) => t.slice(0, e.span.start) + e.newText + t.slice(e.span.end), text);
}

describe('core features', () => {
  describe('hover explains the rule with the unit\u2019s own figures and quotes the rulebook', () => {
    const cases: { name: string; uri: string; before: string; delta?: number; has: (string | RegExp)[]; not?: (string | RegExp)[] }[] = [
      {
        name: 'an LD value',
        uri: UNITS,
        before: 'LD: 6/',
        has: ['Roll 3 dice', 'each 6+ succeeds', '§1 Core Statistics', /See also.*§16 Leadership/, 'Attack Run (difficulty 2) succeeds'],
      },
      { name: 'the LD key', uri: UNITS, before: '      L', has: ['LD — Leadership: 6/3'] },
      { name: 'a BS value', uri: UNITS, before: 'BS: 5', has: ['Each attack hits on a d10 roll of 5+', '60%'] },
      { name: 'SH on an Escort (Combined Shields pool)', uri: UNITS, before: '"9/6 5+ 6+ ', delta: 0, has: ['SH — Shields: 2', 'a pool of 4 for 2 bases'] },
      {
        name: 'a class',
        uri: UNITS,
        before: 'class: Destr',
        has: ['**Destroyer**', '1 base', '2 weapon systems', '145 pts standard', '§3 Unit Classes', 'Hit'],
      },
      { name: 'points on a card', uri: UNITS, before: 'points: 14', has: ['costs 145 pts'] },
      {
        name: 'the points estimate on a card\u2019s points',
        uri: UNITS,
        before: 'points: 14',
        has: [
          /Points estimate: ≈ \d+ pts\*\*; printed points are \d\.\d\d × the estimate/,
          /What it deals: [\d.]+ pts .* What it takes: [\d.]+ Fire actions/,
          /Not priced: LD, .*orders/,
          /its battle price, measured by fleets of its copies/,
          /fitted to the battle prices of the bundled field and \d+ variants of its cards, times 0\\?\.\d\d \(the field's printed points over its battle prices, on average\); its leave-one-out error is ±\d+%/,
          // What "fair" is measured against, in one sentence, where a designer reads it (before "Advanced").
          /“Fair” is measured against 20 cards at their class's standard points from the bundled example cards, on average: the estimate is the card’s battle price × 0\.\d\d, the scale at which their battle prices average their printed points\.[\s\S]*Advanced:/,
          // What the bundled Destroyers, at the class's standard cost, read on the same yardstick.
          /For comparison, on the same yardstick: (Lumen|Reaver) Destroyer \(145 pts\) at ≈ \d+ pts( and (Lumen|Reaver) Destroyer \(145 pts\) at ≈ \d+ pts)?\./,
          // In the order a designer reads: the estimate first, then the class card's cost, the details ("Advanced") last.
          /Points estimate:[\s\S]*costs 145 pts[\s\S]*Advanced:/,
        ],
      },
      { name: 'a weapon type', uri: UNITS, before: 'type: Ener', has: ['**Energy** weapon', 'Critical Hit', '§12 Weapons'] },
      { name: 'a weapon range', uri: UNITS, before: 'range: 1', has: ['18" is a standard range band', '§12 Weapons'] },
      { name: 'a weapon type in a weapon line', uri: UNITS, before: 'Pulse Laser — I', has: ['**Ion** weapon', 'SH'] },
      {
        name: 'a known order',
        uri: UNITS,
        before: 'name: Attack R',
        has: ['Order: Attack Run', 'Rulebook difficulty: 2', 'With LD 6/3, difficulty 2 succeeds', '§16 Leadership'],
      },
      { name: 'an order difficulty', uri: UNITS, before: 'difficulty: ', has: ['LD successes issuing the order needs', 'succeeds'] },
      { name: 'a known ability', uri: UNITS, before: '- Hit & R', has: ['Hit & Run', 'Move after performing a Fire action'] },
      { name: 'a universal rule', uri: UNITS, before: '- Dogfi', has: ['Dogfighters', 'universal class rule', '§4 Dogfighters'] },
      { name: 'a Launch Bay', uri: UNITS, before: 'Launch Bay Ti', has: ['Launch Bay Tier 1', '1 Fighter unit', '§6 Launch Bays'] },
      { name: 'the orders key on a Destroyer', uri: UNITS, before: '    order', has: ['1 of the Destroyer\u2019s 1 Order'.replace('\u2019', "'")] },
      { name: 'a rulebook term in an order effect', uri: UNITS, before: 'gains +1 B', has: ['§1 Core Statistics'] },
      {
        name: 'the fleet\u2019s points',
        uri: FLEET,
        before: 'points: 10',
        has: ['650 / 1000 pts', '350 pts left', 'Lumen Destroyr', 'Standard game', '§17 Deployment'],
      },
      {
        name: 'a fleet entry',
        uri: FLEET,
        before: 'unit: Lumen Dest',
        has: ['**Lumen Destroyer** — Destroyer, 145 pts', '| M | BS | D | SH | AC | HP | LD | CR | T |', '| 9/6 | 5+ |', '2 × 145 pts = 290 pts'],
      },
      { name: 'an entry with an embarked unit', uri: FLEET, before: 'unit: Lumen Cru', has: ['1 × 250 pts = 250 pts', '190 + 60 embarked'] },
      { name: 'an embarked unit', uri: FLEET, before: '- Veilwi', has: ['**Veilwing Fighter Wing** — Fighter, 60 pts'] },
      { name: 'embark', uri: FLEET, before: '    emb', has: ['carries 1 Fighter unit', '§6 Launch Bays'] },
      { name: 'a card of another faction', uri: FLEET, before: 'unit: Maw F', has: ['A Consumed card; this fleet is Myr-Valari'] },
      { name: 'the doctrine', uri: BOARD, before: 'doctrine: Stan', has: ['3 CP per round', '§21 The Command Board'] },
      { name: 'cp', uri: BOARD, before: 'cp: ', has: ['Standard doctrine gives 3 CP'] },
      { name: 'a command ability', uri: BOARD, before: 'name: Whisper', has: ['Whisper Step', '2 CP', /2 of the \d CP the faction generates/] },
      {
        name: 'a card name with markup, escaped',
        uri: UNITS,
        before: 'name: "<im',
        has: ['\\<img src=x onerror=alert(1)\\>', '\\*Shade\\*'],
        not: [/(?<!\\)<img/, /(?<!\\)\*Shade/],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const ws = workspace();
        const h = hover(ws.get(c.uri)!, ws, at(ws, c.uri, c.before, c.delta ?? 0), settings);
        assert.ok(h, 'no hover');
        for (const s of c.has) assert.ok(typeof s === 'string' ? h.markdown.includes(s) : s.test(h.markdown), `missing ${s} in:\n${h.markdown}`);
        for (const s of c.not ?? []) assert.ok(typeof s === 'string' ? !h.markdown.includes(s) : !s.test(h.markdown), `unexpected ${s} in:\n${h.markdown}`);
        assert.ok(
          h.span.start <= at(ws, c.uri, c.before, c.delta ?? 0) && at(ws, c.uri, c.before, c.delta ?? 0) <= h.span.end,
          'the hover range holds the cursor',
        );
      });
    }
    // The format is written once, in the field table: a key's hover says what the key holds in its words.
    const keys: [string, string, FieldOwner, string][] = [
      [UNITS, 'facti', 'unitFile', 'faction'],
      [UNITS, '    poin', 'card', 'points'],
      [BROKEN, '    base', 'card', 'bases'],
      [UNITS, '    stat', 'card', 'stats'],
      [UNITS, '    weap', 'card', 'weapons'],
      [UNITS, '    orde', 'card', 'orders'],
      [UNITS, '    abili', 'card', 'abilities'],
      [UNITS, '        ran', 'weapon', 'range'],
      [UNITS, '        dam', 'weapon', 'damage'],
      [UNITS, '        atta', 'weapon', 'attacks'],
      [UNITS, '        diff', 'order', 'difficulty'],
      [BOARD, 'facti', 'faction', 'faction'],
      [BOARD, 'doctr', 'faction', 'doctrine'],
      [BOARD, 'cp: ', 'faction', 'cp'],
      [BOARD, 'factionAbil', 'faction', 'factionAbility'],
      [BOARD, 'commandAbil', 'faction', 'commandAbilities'],
      [FLEET, 'facti', 'fleet', 'faction'],
      [FLEET, '    emb', 'fleetEntry', 'embark'],
      [FLEET, 'count: ', 'fleetEntry', 'count'],
    ];
    for (const [uri, before, owner, key] of keys)
      it(`the ${owner} key ${key} says what it holds as the field table does`, () => {
        const ws = workspace();
        const h = hover(ws.get(uri)!, ws, at(ws, uri, before), settings);
        const doc = fieldOf(owner, key)?.doc;
        assert.ok(doc, `${owner}.${key} is not in the field table`);
        assert.ok(h?.markdown.includes(doc), `missing "${doc}" in:\n${h?.markdown}`);
      });

    it('shows nothing on a blank line', () => {
      const ws = workspace();
      assert.equal(hover(ws.get(FLEET)!, ws, 0, settings)?.markdown.includes('§') ?? false, false);
    });
    it('finds a glossary term in free text', () => {
      const t = 'Reroll one failed Dodge roll.';
      const h = termHoverAt(t, t.indexOf('Dodge') + 2);
      assert.ok(h && h.markdown.includes('§1 Core Statistics'));
    });
  });

  describe('the cursor context reads half-typed YAML', () => {
    const cases: { text: string; path: string; mode: string; key?: string; prefix?: string }[] = [
      { text: 'faction: X\nunits:\n  - name: A\n    class: Des¦', path: 'units.[]', mode: 'value', key: 'class', prefix: 'Des' },
      { text: 'faction: X\nunits:\n  - name: A\n    stats:\n      M: 9/6\n      ¦', path: 'units.[].stats', mode: 'key' },
      { text: 'faction: X\nunits:\n  - name: A\n    weapons:\n      - name: L\n        ty¦', path: 'units.[].weapons.[]', mode: 'key', prefix: 'ty' },
      { text: 'name: F\nunits:\n- unit: A\n  embark:\n    - ¦', path: 'units.[].embark.[]', mode: 'item' },
      { text: 'name: F\nunits:\n  - unit: A\n    co¦', path: 'units.[]', mode: 'key', prefix: 'co' },
      { text: '¦', path: '', mode: 'key' },
    ];
    for (const c of cases) {
      it(`${JSON.stringify(c.text.split('\n').pop())} is ${c.mode} at ${c.path || 'the top'}`, () => {
        const off = c.text.indexOf('¦');
        const ctx = cursorContext(c.text.replace('¦', ''), off);
        assert.equal(pathKeys(ctx).join('.'), c.path);
        assert.equal(ctx.mode, c.mode);
        if (c.key) assert.equal(ctx.key, c.key);
        if (c.prefix !== undefined) assert.equal(ctx.prefix, c.prefix);
      });
    }
  });

  describe('completion offers what is allowed at the cursor', () => {
    const cases: { name: string; file: string; text: string; has: string[]; not?: string[] }[] = [
      {
        name: 'classes',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    class: ¦',
        has: ['Fighter', 'Capital Ship', 'Dreadnought'],
      },
      {
        name: 'weapon types',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    weapons:\n      - name: W\n        type: ¦',
        has: ['Energy', 'Auto', 'Piercing', 'Ion', 'Blast'],
      },
      {
        name: 'range bands',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    class: Cruiser\n    weapons:\n      - name: W\n        range: ¦',
        has: ['3"', '12"', '30"'],
      },
      {
        name: 'range bands a Fighter may use',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    class: Fighter\n    weapons:\n      - name: W\n        range: ¦',
        has: ['3"', '6"'],
        not: ['9"', '30"'],
      },
      {
        name: 'legal BS values',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    stats:\n      BS: ¦',
        has: ['3+', '10+'],
        not: ['2+', '—'],
      },
      {
        name: 'legal M values',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    stats:\n      M: ¦',
        has: ['9/6', '12/12', '3'],
        not: ['15', '—'],
      },
      {
        name: 'a dash for stats a unit may lack',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    stats:\n      D: ¦',
        has: ['—', '7+'],
      },
      {
        name: 'the missing stats as keys',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    stats:\n      M: 9/6\n      BS: 5+\n      ¦',
        has: ['D', 'SH', 'T'],
        not: ['M', 'BS'],
      },
      {
        name: 'stat values inside the stat line',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    stats: "9/6 ¦',
        has: ['3+', '5+'],
        not: ['9/6'],
      },
      {
        name: 'card keys not yet present',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    ¦',
        has: ['class', 'points', 'stats', 'weapons'],
        not: ['name', 'faction'],
      },
      { name: 'doctrines', file: 'cards/new.faction.yaml', text: 'faction: Myr-Valari\ndoctrine: ¦', has: ['Light', 'Standard', 'Elite'] },
      {
        name: 'known orders',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    class: Destroyer\n    orders:\n      - ¦',
        has: ['Attack Run', 'Full Burn', 'Priority Target', 'name'],
        not: ['Recover Craft'],
      },
      {
        name: 'Recover Craft for a Carrier only',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    class: Carrier\n    orders:\n      - ¦',
        has: ['Recover Craft', 'Full Burn'],
      },
      {
        name: 'abilities that fit the class',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - name: N\n    class: Escort\n    abilities:\n      - ¦',
        has: ['Combined Shields', 'Evasive Screen', 'Squad Leader & Cohesion'],
        not: ['Dogfighters', 'Single Base'],
      },
      {
        name: 'the fleet faction\u2019s cards for unit:',
        file: 'fleets/new.fleet.yaml',
        text: 'name: F\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: ¦',
        has: ['Lumen Destroyer', 'Veilwing Fighter Wing'],
        not: ['Maw Frigate'],
      },
      {
        name: 'cards matching what is typed',
        file: 'fleets/new.fleet.yaml',
        text: 'name: F\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: cru¦',
        has: ['Lumen Cruiser'],
        not: ['Lumen Destroyer'],
      },
      {
        name: 'only what the host can carry for embark',
        file: 'fleets/new.fleet.yaml',
        text: 'name: F\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Cruiser\n    embark:\n      - ¦',
        has: ['Veilwing Fighter Wing'],
        not: ['Lumen Bomber Wing', 'Lumen Destroyer'],
      },
      {
        name: 'game sizes for a fleet\u2019s points',
        file: 'fleets/new.fleet.yaml',
        text: 'name: F\nfaction: Myr-Valari\npoints: ¦',
        has: ['500', '1000', '2000'],
      },
      { name: 'fleet keys', file: 'fleets/new.fleet.yaml', text: 'name: F\n¦', has: ['faction', 'points', 'units'], not: ['name'] },
      { name: 'a new fleet in an empty file', file: 'fleets/new.fleet.yaml', text: '¦', has: ['New fleet'] },
      {
        name: 'a new card under units',
        file: 'cards/new.unit.yaml',
        text: 'faction: Myr-Valari\nunits:\n  - ¦',
        has: ['New unit card: Destroyer', 'New unit card: Fighter', 'name', 'class'],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const ws = workspace();
        const off = c.text.indexOf('¦');
        const text = c.text.replace('¦', '');
        const doc = ws.set(U(c.file), text);
        const labels = complete(doc, ws, text, off).items.map((i) => i.label);
        for (const h of c.has) assert.ok(labels.includes(h), `missing ${h} in ${labels.join(', ')}`);
        for (const n of c.not ?? []) assert.ok(!labels.includes(n), `unexpected ${n} in ${labels.join(', ')}`);
      });
    }
    it('says what each weapon type does and what each class gives, in words', () => {
      const ws = workspace();
      const at = (text: string) => complete(ws.set(U('cards/new.unit.yaml'), text), ws, text, text.length).items;
      const types = at('faction: Myr-Valari\nunits:\n  - name: N\n    weapons:\n      - name: W\n        type: ');
      assert.equal(types.length, 5);
      for (const t of types) assert.ok(t.detail && t.detail.length > 15 && /§12/.test(t.documentation ?? ''), `${t.label}: ${t.detail}`);
      assert.match(types.find((t) => t.label === 'Blast')!.detail!, /bases/);
      const classes = at('faction: Myr-Valari\nunits:\n  - name: N\n    class: ');
      assert.equal(classes.find((c) => c.label === 'Capital Ship')?.detail, '1 base · 3 weapons · 2 orders · 2 abilities · 340 pts');
      assert.equal(classes.find((c) => c.label === 'Fighter')?.detail, '4 bases · 1 weapon · no orders · 1 ability · 60 pts');
    });
    it("offers the rulebook's abilities and orders before the blank template for a homebrew one", () => {
      const ws = workspace();
      const at = (text: string) => {
        const items = complete(ws.set(U('cards/new.unit.yaml'), text), ws, text, text.length).items;
        // As VS Code orders them: by sortText (lower-cased, code unit by code unit), then label.
        const key = (i: (typeof items)[number]) => (i.sortText ?? i.label).toLowerCase();
        return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map((i) => i.label);
      };
      for (const [list, template] of [
        ['abilities', 'New ability'],
        ['orders', 'New order'],
      ] as const) {
        const labels = at(`faction: Myr-Valari\nunits:\n  - name: N\n    class: Cruiser\n    ${list}:\n      - `);
        assert.ok(labels.includes(template), `${template} in ${labels.join(', ')}`);
        assert.notEqual(labels[0], template, `${list}: ${labels.slice(0, 4).join(', ')}`);
        assert.ok(labels.indexOf(template) > 0, `${list}: ${labels.join(', ')}`);
      }
      // Elsewhere the template still comes first: a new weapon has no rulebook list to pick from.
      assert.equal(at('faction: Myr-Valari\nunits:\n  - name: N\n    class: Cruiser\n    weapons:\n      - ')[0], 'New weapon system');
    });
    it('completes inside a one-line list, as the card template writes orders: [] and abilities: []', () => {
      const ws = workspace();
      const at = (marked: string, file = 'cards/new.unit.yaml') => {
        const off = marked.indexOf('\u00a6');
        const text = marked.replace('\u00a6', '');
        const items = complete(ws.set(U(file), text), ws, text, off).items;
        const apply = (label: string) => {
          const i = items.find((x) => x.label === label);
          assert.ok(i, `no ${label} in ${items.map((x) => x.label).join(', ')}`);
          return text.slice(0, i.span.start) + i.insertText + text.slice(i.span.end);
        };
        return { labels: items.map((i) => i.label), apply };
      };
      const card = 'faction: Myr-Valari\nunits:\n  - name: N\n    class: Cruiser\n    points: 190\n';
      const orders = at(`${card}    orders: [\u00a6]\n    abilities: []\n`);
      assert.ok(orders.labels.includes('Full Burn') && orders.labels.includes('Attack Run'), orders.labels.join(', '));
      assert.ok(!orders.labels.includes('Launch Bay Tier 1'), 'no ability among the orders');
      assert.match(orders.apply('Full Burn'), /orders: \[Full Burn\]\n/);
      const abilities = at(`${card}    orders: []\n    abilities: [\u00a6]\n`);
      assert.ok(abilities.labels.includes('Launch Bay Tier 1'), abilities.labels.join(', '));
      assert.match(abilities.apply('Boarding (CR)'), /abilities: \[Boarding \(CR\)\]\n/);
      // A second item, partly typed: only that item is replaced, the first stays.
      const second = at(`${card}    abilities: [Launch Bay Tier 1, Boa\u00a6]\n`);
      assert.ok(!second.labels.includes('Launch Bay Tier 1'), 'the ability it has is not offered again');
      assert.match(second.apply('Boarding (CR)'), /abilities: \[Launch Bay Tier 1, Boarding \(CR\)\]\n/);
      // Past the closing bracket: nothing (no list item goes there).
      assert.deepEqual(at(`${card}    orders: []\u00a6\n`).labels, []);
      // A fleet entry's embarked units written the same way: what its host can carry.
      const fleet = at('name: F\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Cruiser\n    embark: [\u00a6]\n', 'fleets/f.fleet.yaml');
      assert.ok(fleet.labels.includes('Veilwing Fighter Wing') && !fleet.labels.includes('Lumen Destroyer'), fleet.labels.join(', '));
    });
    it('quotes a card name that YAML would misread, and only such a name', () => {
      const ws = workspace({ 'cards/odd.unit.yaml': 'faction: Myr-Valari\nunits:\n  - name: "Star: Breaker #1"\n    class: Cruiser\n    points: 190\n' });
      const text = 'name: F\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: ';
      const items = complete(ws.set(U('fleets/q.fleet.yaml'), text), ws, text, text.length).items;
      assert.equal(items.find((i) => i.label === 'Star: Breaker #1')?.insertText, '"Star: Breaker #1"');
      assert.equal(items.find((i) => i.label.startsWith('<img'))?.insertText, '<img src=x onerror=alert(1)> *Shade* & Co');
      const fleet = ws.set(U('fleets/q.fleet.yaml'), text + '"Star: Breaker #1"\n');
      assert.ok(fleet && fleet.kind === 'fleet' && fleet.units!.items[0]!.unit.value === 'Star: Breaker #1');
    });
  });

  describe('quick fixes fix what they flag', () => {
    const cases: { name: string; uri: string; code: string; title: RegExp; result: RegExp; gone: boolean }[] = [
      {
        name: 'a range snaps to the nearest bands',
        uri: BROKEN,
        code: 'FS-RANGE-BAND',
        title: /Snap 13\.5" to the range band 12"/,
        result: /range: 12"/,
        gone: true,
      },
      { name: 'a stat comes to its limit', uri: BROKEN, code: 'FS-STAT-RANGE', title: /Bring to the limit: 3\+/, result: /BS: 3\+/, gone: true },
      { name: 'bases become the class\u2019s count', uri: BROKEN, code: 'FS-BASES', title: /Set bases to the class's 2/, result: /bases: 2/, gone: true },
      { name: 'missing stats are added', uri: BROKEN, code: 'FS-STAT-MISSING', title: /Add the missing stat T/, result: /CR: 8\/2\n {6}T: —/, gone: true },
      {
        name: 'a universal rule of another class is removed',
        uri: BROKEN,
        code: 'FS-UNIVERSAL-RULE-CLASS',
        title: /Remove Dogfighters/,
        result: /abilities:\n$/,
        gone: true,
      },
      { name: 'cp follows the doctrine', uri: BOARD, code: 'FS-CP-MISMATCH', title: /Set cp to 3/, result: /cp: 3/, gone: true },
      {
        name: 'an unknown card name becomes the suggestion',
        uri: FLEET,
        code: 'FS-UNIT-UNKNOWN',
        title: /Change to "Lumen Destroyer"/,
        result: /- unit: Lumen Destroyer\n {2}- unit: Lumen Cruiser/,
        gone: true,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const ws = workspace();
        const doc = ws.get(c.uri)!;
        const problems = checkDocument(doc, ws).filter((p) => p.code === c.code);
        assert.ok(problems.length, `no ${c.code}`);
        const p = problems[0]!;
        const actions = codeActions(doc, p.span, [p]);
        const a = actions.find((x) => c.title.test(x.title));
        assert.ok(a, `no action like ${c.title} in ${actions.map((x) => x.title).join(' | ')}`);
        const fixed = apply(doc.text, a.edits);
        assert.match(fixed, c.result);
        const after = ws.set(c.uri, fixed)!;
        const left = checkDocument(after, ws).filter((x) => x.code === c.code);
        assert.equal(left.length === 0, c.gone, `after the fix: ${left.map((x) => x.message).join('; ')}`);
      });
    }
    it('adds the weapon systems a card lacks, removes one too many, in a range its class may use', () => {
      const ws = new Workspace();
      const problemsOf = (uri: string, code: string) => checkDocument(ws.get(uri)!, ws).filter((p) => p.code === code);
      const fixWith = (uri: string, code: string, title: RegExp) => {
        const doc = ws.get(uri)!;
        const p = problemsOf(uri, code)[0];
        assert.ok(p, `no ${code} in\n${doc.text}`);
        const a = codeActions(doc, p.span, [p]).find((x) => title.test(x.title));
        assert.ok(
          a,
          `no ${title} in ${codeActions(doc, p.span, [p])
            .map((x) => x.title)
            .join(' | ')}`,
        );
        return ws.set(uri, apply(doc.text, a.edits))!.text;
      };
      const head = 'faction: Homebrew\nunits:\n  - name: N\n    class: Battleship\n    points: 280\n    stats: "6/3 4+ 9+ 10 5+ 10 5/4 6/4 7"\n';
      ws.set(U('w1.unit.yaml'), head + '    weapons:\n      - Lance \u2014 Energy, 18", 2, 3\n    abilities: []\n');
      const added = fixWith(U('w1.unit.yaml'), 'FS-SLOTS-WEAPONS-UNDER', /Add 2 placeholder weapon systems \(the class has 3\)/);
      assert.match(
        added,
        /weapons:\n {6}- Lance \u2014 Energy, 18", 2, 3\n {6}- Weapon 2 \u2014 Energy, 12", 2, 3\n {6}- Weapon 3 \u2014 Energy, 12", 2, 3\n {4}abilities: \[\]\n$/,
      );
      assert.deepEqual(problemsOf(U('w1.unit.yaml'), 'FS-SLOTS-WEAPONS-UNDER'), []);
      // None yet, under "weapons: []": a block list under the key; a Fighter's in its 6".
      ws.set(
        U('w2.unit.yaml'),
        'faction: Homebrew\nunits:\n  - name: F\n    class: Fighter\n    points: 60\n    bases: 4\n    stats: "9/6 4+ 6+ - - 1 7/2 - -"\n    weapons: []\n',
      );
      const first = fixWith(U('w2.unit.yaml'), 'FS-SLOTS-WEAPONS-UNDER', /Add a placeholder weapon system/);
      assert.match(first, /weapons:\n {6}- Weapon 1 \u2014 Energy, 6", 2, 3\n$/);
      assert.deepEqual(
        checkDocument(ws.get(U('w2.unit.yaml'))!, ws)
          .filter((p) => p.severity === 'error')
          .map((p) => p.message),
        [],
      );
      // One too many: remove any one of them, and the error goes.
      ws.set(
        U('w3.unit.yaml'),
        added.replace(
          '    abilities: []\n',
          '      - name: Extra\n        type: Ion\n        range: 9"\n        damage: 1\n        attacks: 2\n    abilities: []\n',
        ),
      );
      const removed = fixWith(U('w3.unit.yaml'), 'FS-SLOTS-WEAPONS', /Remove the weapon system Extra \(the class has 3\)/);
      assert.equal(removed, added);
    });
    it("writes every dash as the em dash: bare dashes all at once, and a small craft's Tonnage", () => {
      const ws = new Workspace();
      const text =
        'faction: Homebrew\nunits:\n  - name: F\n    class: Fighter\n    points: 60\n    bases: 4\n    stats:\n      M: 9/6\n      BS: 4+\n      D: 6+\n      SH: -\n      AC: -\n      HP: 1\n      LD: 7/2\n      CR: -\n      T: 1\n    weapons:\n      - Darts \u2014 Energy, 6", 1, 1\n';
      const doc = ws.set(U('d.unit.yaml'), text)!;
      const problems = checkDocument(doc, ws);
      const dashes = problems.filter((p) => p.code === 'FS-BARE-DASH');
      assert.equal(dashes.length, 3);
      const all = codeActions(doc, dashes[0]!.span, problems).find((a) => a.title.startsWith('Fix all in this file'));
      assert.ok(
        all,
        codeActions(doc, dashes[0]!.span, problems)
          .map((a) => a.title)
          .join(' | '),
      );
      assert.match(all.title, /\(3\)/);
      const fixed = apply(text, all.edits);
      assert.match(fixed, /SH: \u2014\n {6}AC: \u2014\n/);
      assert.match(fixed, /CR: \u2014\n/);
      const t = checkDocument(ws.set(U('d.unit.yaml'), fixed)!, ws).find((p) => p.code === 'FS-TONNAGE-SMALL-CRAFT')!;
      const tfix = codeActions(ws.get(U('d.unit.yaml'))!, t.span, [t])[0]!;
      assert.match(apply(fixed, tfix.edits), /T: \u2014\n/, 'Tonnage as the other stats: the em dash');
      // In a stat line the same.
      const line = 'faction: Homebrew\nunits:\n  - name: F\n    class: Fighter\n    points: 60\n    bases: 4\n    stats: "9/6 4+ 6+ - - 1 7/2 - 2"\n';
      const ld = ws.set(U('l.unit.yaml'), line)!;
      const lt = checkDocument(ld, ws).find((p) => p.code === 'FS-TONNAGE-SMALL-CRAFT')!;
      assert.match(apply(line, codeActions(ld, lt.span, [lt])[0]!.edits), /stats: "9\/6 4\+ 6\+ - - 1 7\/2 - \u2014"/);
    });
    it('offers both bands when a range sits between two', () => {
      const ws = workspace();
      const doc = ws.get(BROKEN)!;
      const p = checkDocument(doc, ws).find((x) => x.code === 'FS-RANGE-BAND')!;
      const titles = codeActions(doc, p.span, [p]).map((a) => a.title);
      assert.ok(titles.some((t) => t.includes('12"')) && titles.some((t) => t.includes('15"')), titles.join(' | '));
    });
    const roundTrip = (a: CodeActionData | undefined, text: string) => apply(text, a!.edits);
    it('turns a stat line into the mapping form and back', () => {
      const ws = workspace();
      const doc = ws.get(UNITS)!;
      const off = at(ws, UNITS, 'stats: "9/6 5+ 7+ 5', -3);
      const toMap = codeActions(doc, { start: off, end: off }, []).find((a) => a.kind === 'refactor.rewrite');
      assert.ok(toMap && /mapping/.test(toMap.title));
      const mapped = roundTrip(toMap, doc.text);
      assert.match(mapped, /name: Lumen Cruiser[\s\S]*?stats:\n {6}M: 9\/6\n {6}BS: 5\+\n[\s\S]*? {6}T: 4\n {4}weapons/);
      const d2 = ws.set(UNITS, mapped)!;
      assert.equal(checkDocument(d2, ws).length, 0);
      const off2 = d2.text.indexOf('SH: 5');
      const toLine = codeActions(d2, { start: off2, end: off2 }, []).find((a) => a.kind === 'refactor.rewrite');
      assert.ok(toLine && /stat line/.test(toLine.title));
      assert.equal(roundTrip(toLine, d2.text), doc.text);
    });
  });

  describe('quick fixes players miss, looking across files', () => {
    const CARD = (name: string, abilities: string, weapons = '      - Gun — Energy, 12", 2, 3\n      - Lance — Auto, 9", 1, 4') =>
      `  - name: ${name}\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n${weapons}\n    abilities:\n${abilities}\n`;
    const cases: { name: string; files: Record<string, string>; file: string; code: string; title: RegExp; result: RegExp; also?: RegExp[] }[] = [
      {
        name: 'too many abilities: remove one of them',
        files: {
          'cards/x.unit.yaml':
            'faction: Myr-Valari\nunits:\n' + CARD('Ember Ship', '      - Hit & Run\n      - name: Ember Shroud\n        text: Enemies get -1 BS.'),
        },
        file: 'cards/x.unit.yaml',
        code: 'FS-SLOTS-ABILITIES',
        title: /^Remove the ability Ember Shroud$/,
        result: /abilities:\n {6}- Hit & Run\n$/,
        also: [/^Remove the ability Hit & Run$/],
      },
      {
        name: 'an unknown weapon type: every type, the closest first',
        files: {
          'cards/x.unit.yaml':
            'faction: Myr-Valari\nunits:\n' +
            CARD(
              'Lazer Ship',
              '      - Hit & Run',
              '      - name: Beam\n        type: Lazer\n        range: 12"\n        damage: 2\n        attacks: 3\n      - Lance — Auto, 9", 1, 4',
            ),
        },
        file: 'cards/x.unit.yaml',
        code: 'FS-WEAPON-TYPE',
        title: /^Change to "Energy"$/,
        result: /type: Energy\n/,
        also: [/^Change to "Blast"$/, /^Change to "Ion"$/, /^Change to "Auto"$/, /^Change to "Piercing"$/],
      },
      {
        name: 'an unknown weapon type inside a weapon line',
        files: {
          'cards/x.unit.yaml':
            'faction: Myr-Valari\nunits:\n' + CARD('Lazer Ship', '      - Hit & Run', '      - Beam — Lazer, 12", 2, 3\n      - Lance — Auto, 9", 1, 4'),
        },
        file: 'cards/x.unit.yaml',
        code: 'FS-WEAPON-TYPE',
        title: /^Change to "Ion"$/,
        result: /- Beam — Ion, 12", 2, 3\n/,
      },
      {
        name: 'an ability another card of the faction defines: copy its definition',
        files: {
          'cards/a.unit.yaml': 'faction: Myr-Valari\nunits:\n' + CARD('Ember Ship', '      - name: Ember Shroud\n        text: "Enemies get -1 BS: always."'),
          'cards/b.unit.yaml': 'faction: Myr-Valari\nunits:\n' + CARD('Ash Ship', '      - Ember Shroud'),
        },
        file: 'cards/b.unit.yaml',
        code: 'FS-ABILITY-UNKNOWN',
        title: /^Copy the definition of Ember Shroud from Ember Ship$/,
        result: /abilities:\n {6}- name: Ember Shroud\n {8}text: "Enemies get -1 BS: always."\n$/,
      },
      {
        name: 'a fleet over its limit: drop what fits it under, the closest fit first',
        files: {
          'fleets/x.fleet.yaml':
            'name: X\nfaction: Myr-Valari\npoints: 500\nunits:\n  - unit: Lumen Destroyer\n    count: 2\n  - unit: Lumen Cruiser\n  - unit: Veilwing Fighter Wing\n',
        },
        file: 'fleets/x.fleet.yaml',
        code: 'FS-FLEET-OVER',
        title: /^Remove Lumen Cruiser \(−190 pts\)$/,
        result: /units:\n {2}- unit: Lumen Destroyer\n {4}count: 2\n {2}- unit: Veilwing Fighter Wing\n$/,
        also: [/^Field 1 Lumen Destroyer instead of 2 \(−145 pts\)$/],
      },
      {
        name: 'a fighter embarked on a ship without a bay: move it to one with room',
        files: {
          'fleets/x.fleet.yaml':
            'name: X\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - unit: Lumen Destroyer\n    embark:\n      - Veilwing Fighter Wing\n  - unit: Lumen Cruiser\n',
        },
        file: 'fleets/x.fleet.yaml',
        code: 'FS-EMBARK-NO-BAY',
        title: /^Move Veilwing Fighter Wing to Lumen Cruiser, which has room in its launch bay$/,
        result: /units:\n {2}- unit: Lumen Destroyer\n {2}- unit: Lumen Cruiser\n {4}embark:\n {6}- Veilwing Fighter Wing\n$/,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const ws = workspace(c.files);
        const doc = ws.get(U(c.file))!;
        const problems = checkDocument(doc, ws);
        const p = problems.find((x) => x.code === c.code);
        assert.ok(p, `no ${c.code} in ${problems.map((x) => x.code).join(', ')}`);
        const actions = codeActions(doc, p.span, problems, ws);
        const titles = actions.map((a) => a.title);
        for (const t of c.also ?? [])
          assert.ok(
            titles.some((x) => t.test(x)),
            `no ${t} in ${titles.join(' | ')}`,
          );
        const a = actions.find((x) => c.title.test(x.title));
        assert.ok(a, `no action like ${c.title} in ${titles.join(' | ')}`);
        const fixed = apply(doc.text, a.edits);
        assert.match(fixed, c.result);
        const after = ws.set(U(c.file), fixed)!;
        const left = checkDocument(after, ws).filter((x) => x.severity !== 'info');
        assert.deepEqual(
          left.map((x) => `${x.code} ${x.message}`),
          [],
          fixed,
        );
      });
    }

    it('fixes every clear problem of a kind in one go, and every clear problem with source.fixAll', () => {
      const text =
        'faction: Myr-Valari\nunits:\n' +
        CARD('Typo Ship', '      - Hit & Run', '      - Beam — Energi, 12", 2, 3\n      - Lance — Autp, 13", 1, 4') +
        CARD(
          'Typo Two',
          '      - Hit & Run',
          '      - name: Beam\n        type: Piercng\n        range: 12"\n        damage: 2\n        attacks: 3\n      - Lance — Auto, 9", 1, 4',
        );
      const ws = workspace({ 'cards/t.unit.yaml': text });
      const doc = ws.get(U('cards/t.unit.yaml'))!;
      const problems = checkDocument(doc, ws);
      assert.equal(problems.filter((p) => p.code === 'FS-WEAPON-TYPE').length, 3);
      const first = problems.find((p) => p.code === 'FS-WEAPON-TYPE')!;
      const kindAll = codeActions(doc, first.span, problems, ws).find((a) => /^Fix all in this file: .*\(3\)$/.test(a.title));
      assert.ok(
        kindAll,
        codeActions(doc, first.span, problems, ws)
          .map((a) => a.title)
          .join(' | '),
      );
      const fixedTypes = apply(text, kindAll.edits);
      assert.deepEqual(
        checkDocument(ws.set(U('cards/t.unit.yaml'), fixedTypes)!, ws).map((p) => p.code),
        ['FS-RANGE-BAND'],
      );
      const all = fixAll(ws.set(U('cards/t.unit.yaml'), text)!, problems, ws);
      assert.ok(all && all.kind === 'source.fixAll');
      const fixed = apply(text, all.edits);
      assert.match(fixed, /Beam — Energy, 12", 2, 3\n {6}- Lance — Auto, 12", 1, 4\n/);
      assert.deepEqual(
        checkDocument(ws.set(U('cards/t.unit.yaml'), fixed)!, ws).map((p) => p.code),
        [],
      );
    });
  });

  describe('navigation follows card names across files', () => {
    it('goes from a fleet entry to the card', () => {
      const ws = workspace();
      const locs = definition(ws.get(FLEET)!, ws, at(ws, FLEET, 'unit: Lumen Cr'));
      assert.deepEqual(
        locs.map((l) => [l.uri, ws.get(l.uri)!.text.slice(l.span.start, l.span.end)]),
        [[UNITS, 'Lumen Cruiser']],
      );
    });
    it('goes from an embarked unit to its card', () => {
      const ws = workspace();
      const locs = definition(ws.get(FLEET)!, ws, at(ws, FLEET, '- Veil'));
      assert.equal(ws.get(locs[0]!.uri)!.text.slice(locs[0]!.span.start, locs[0]!.span.end), 'Veilwing Fighter Wing');
    });
    it('finds every fleet entry naming a card', () => {
      const ws = workspace({ 'fleets/second.fleet.yaml': 'name: S\nfaction: Myr-Valari\npoints: 500\nunits:\n  - unit: lumen destroyer\n' });
      const refs = references(ws.get(UNITS)!, ws, at(ws, UNITS, 'name: Lumen D'), false);
      assert.deepEqual(refs.map((r) => r.uri).sort(), [U('fleets/second.fleet.yaml'), FLEET].sort());
      assert.equal(references(ws.get(UNITS)!, ws, at(ws, UNITS, 'name: Lumen D'), true).length, 3);
    });
    it('renames a card everywhere, keeping each place\u2019s quoting', () => {
      const ws = workspace({ 'fleets/second.fleet.yaml': 'name: S\nfaction: Myr-Valari\npoints: 500\nunits:\n  - unit: "Lumen Destroyer"\n' });
      const off = at(ws, FLEET, 'unit: Lumen De');
      const prep = prepareRename(ws.get(FLEET)!, ws, off);
      assert.equal(prep?.placeholder, 'Lumen Destroyer');
      const r = rename(ws.get(FLEET)!, ws, off, 'Lumen Warden', (u) => ws.get(u)?.text);
      assert.equal(r.error, undefined);
      const byUri = new Map<string, typeof r.edits>();
      for (const e of r.edits) byUri.set(e.uri, [...(byUri.get(e.uri) ?? []), e]);
      assert.deepEqual([...byUri.keys()].sort(), [UNITS, U('fleets/second.fleet.yaml'), FLEET].sort());
      assert.match(apply(ws.get(U('fleets/second.fleet.yaml'))!.text, byUri.get(U('fleets/second.fleet.yaml'))!), /unit: "Lumen Warden"/);
      for (const [uri, edits] of byUri) ws.set(uri, apply(ws.get(uri)!.text, edits));
      assert.equal(checkDocument(ws.get(FLEET)!, ws).filter((p) => p.code === 'FS-UNIT-UNKNOWN').length, 1, 'only the old typo stays unknown');
    });
    it('refuses a rename onto another card\u2019s name', () => {
      const ws = workspace();
      const r = rename(ws.get(UNITS)!, ws, at(ws, UNITS, 'name: Lumen D'), 'Lumen Cruiser', () => undefined);
      assert.match(r.error ?? '', /already has a card named/);
    });
  });

  describe('symbols, hints, lenses and summaries', () => {
    it('outlines cards with their weapons, orders and abilities', () => {
      const ws = workspace();
      const syms = documentSymbols(ws.get(UNITS)!, ws);
      assert.deepEqual(syms.map((s) => s.name).slice(0, 3), ['Lumen Destroyer', 'Lumen Cruiser', 'Veilwing Fighter Wing']);
      assert.deepEqual(
        syms[0]!.children.map((c) => `${c.kind}:${c.name}`),
        ['stats:stats', 'weapon:Lumen Lance', 'weapon:Pulse Laser', 'order:Attack Run', 'ability:Hit & Run'],
      );
      for (const s of syms) assert.ok(s.selectionSpan.start >= s.span.start && s.selectionSpan.end <= s.span.end);
    });
    it('outlines a fleet\u2019s entries with points', () => {
      const ws = workspace();
      const [fleet] = documentSymbols(ws.get(FLEET)!, ws);
      assert.equal(fleet!.name, 'Radiant Vanguard');
      assert.match(fleet!.detail!, /650 \/ 1000 pts/);
      assert.deepEqual(
        fleet!.children.map((c) => `${c.name} ${c.detail}`),
        ['Lumen Destroyer × 2 · 290 pts', 'Lumen Destroyr × 1', 'Lumen Cruiser × 1 · 250 pts', 'Maw Frigate × 1 · 110 pts'],
      );
    });
    it('finds cards by a workspace symbol query', () => {
      assert.deepEqual(
        workspaceSymbols(workspace(), 'lmcru').map((s) => s.name),
        ['Lumen Cruiser'],
      );
    });
    it('hints points per entry with the running total', () => {
      const ws = workspace();
      const doc = ws.get(FLEET)!;
      const hints = inlayHints(doc, ws, { start: 0, end: doc.text.length }, settings);
      assert.deepEqual(
        hints.map((h) => h.label),
        [
          '650 used · 350 left',
          '2 × 145 = 290 pts · Σ 290 / 1000',
          '? pts · Σ 290 / 1000',
          '250 pts (incl. 60 embarked) · Σ 540 / 1000',
          // A card of another faction (the fleet's error says it does not belong) counts its points.
          '110 pts · Σ 650 / 1000',
        ],
      );
      assert.equal(doc.text.slice(hints[1]!.offset - 'Lumen Destroyer'.length, hints[1]!.offset), 'Lumen Destroyer');
    });
    it('hints the Combined Shields pool on Escorts and Frigates only', () => {
      const ws = workspace();
      const doc = ws.get(UNITS)!;
      const labels = inlayHints(doc, ws, { start: 0, end: doc.text.length }, settings).map((h) => h.label);
      // Both cards write a stat line: the hint sits inside it, in brackets.
      assert.deepEqual(labels, ['(SH pool 4)', '(SH pool 6)']);
      // A stats mapping: at the end of SH's own line, no brackets needed.
      const mapped = [
        'faction: Lab',
        'units:',
        '  - name: Lab Escort',
        '    class: Escort',
        '    points: 80',
        '    stats:',
        '      M: 9/6',
        '      BS: 5+',
        '      SH: 2',
        '      HP: 2',
        '',
      ].join('\n');
      const w = workspace({ 'cards/lab.unit.yaml': mapped });
      const d = w.get(U('cards/lab.unit.yaml'))!;
      const [hint] = inlayHints(d, w, { start: 0, end: d.text.length }, settings);
      assert.equal(hint?.label, 'SH pool 4', 'an Escort has 2 bases');
      assert.equal(hint.offset, mapped.indexOf('      SH: 2') + '      SH: 2'.length);
    });
    it('hints each weapon\u2019s odds against the reference target', () => {
      const ws = workspace();
      const doc = ws.get(UNITS)!;
      const s = resolveSettings({ referenceTarget: 'Maw Frigate' });
      const odds = inlayHints(doc, ws, { start: 0, end: doc.text.indexOf('Lumen Cruiser') }, s).filter((h) => h.kind === 'odds');
      assert.equal(odds.length, 2);
      // Lumen Lance's hits only take the Frigate's shields down; the Pulse Laser then does all the damage.
      assert.deepEqual(
        odds.map((o) => o.label),
        ['strips 1.38 SH', '0.34 HP · 100% of card dmg'],
      );
      for (const o of odds) assert.match(o.tooltip!, /^\*\*Against Maw Frigate\*\*/);
      assert.match(odds[0]!.tooltip!, /deals no hull damage alone: it takes shields down for the card's other weapons/);
      assert.match(
        odds[0]!.tooltip!,
        /whole Fire action \(all 2 weapon systems: .* kill chance [\d.<]+%\), this weapon deals 0% of the hull damage and strips \d+% of the shields/,
      );
      const h = hover(doc, ws, at(ws, UNITS, 'name: Lumen La'), s);
      assert.match(h!.markdown, /Against Maw Frigate[\s\S]*expected hull damage/);
    });
    it('keeps every weapon odds label short enough not to be cut, and never reads "0 dmg"', () => {
      const ws = workspace();
      for (const target of ['Maw Frigate', 'Lumen Destroyer', 'Lumen Cruiser']) {
        const s = resolveSettings({ referenceTarget: target });
        for (const uri of [UNITS, CONSUMED]) {
          const doc = ws.get(uri)!;
          const labels = inlayHints(doc, ws, { start: 0, end: doc.text.length }, s)
            .filter((h) => h.kind === 'odds')
            .map((h) => h.label);
          assert.ok(labels.length >= 2, `${target} in ${uri}: ${labels.length} odds hints`);
          for (const label of labels) {
            assert.ok(label.length <= ODDS_LABEL_MAX, `"${label}" is longer than ${ODDS_LABEL_MAX}`);
            assert.match(label, /^(\d+(\.\d+)? HP( · ([\d.<]+% kill|[\d.<]+% of card dmg))?|strips \d+(\.\d+)? SH|no effect)$/);
            assert.doesNotMatch(label, /^0 /);
          }
        }
      }
    });
    it('says "no effect" for a weapon that neither strips shields nor hurts the target', () => {
      const ws = workspace({
        'cards/blunt.unit.yaml': `faction: Myr-Valari
units:
  - name: Blunt Tug
    class: Destroyer
    points: 145
    stats: "10/2 6+ 8+ 4 6+ 3 7/2 6/3 3"
    weapons:
      - Soft Paddle — Energy, 12", 1, 0
`,
      });
      const doc = ws.get(U('cards/blunt.unit.yaml'))!;
      const hints = inlayHints(doc, ws, { start: 0, end: doc.text.length }, resolveSettings({ referenceTarget: 'Maw Frigate' })).filter(
        (h) => h.kind === 'odds',
      );
      assert.deepEqual(
        hints.map((h) => h.label),
        ['no effect'],
      );
      assert.match(hints[0]!.tooltip!, /neither strips shields nor damages the hull of Maw Frigate/);
    });
    it('puts the points and "Battle vs …" on a fleet lens and a simulate command on each card', () => {
      const ws = workspace();
      assert.deepEqual(
        codeLenses(ws.get(FLEET)!, ws, settings).map((l) => l.title),
        ['650 / 1000 pts — 350 left (1 unknown card not counted)', 'Battle vs …'],
      );
      const fleetName = (ws.get(FLEET) as FleetDocument).name.value;
      assert.ok(fleetName);
      assert.deepEqual(codeLenses(ws.get(FLEET)!, ws, settings)[1]!.battle, { fleet: { uri: FLEET, name: fleetName } });
      const cards = codeLenses(ws.get(UNITS)!, ws, resolveSettings({ referenceTarget: 'Maw Frigate', pointsEstimate: { enabled: false } }));
      // Per card: "Simulate vs ..." and "vs the field" (the card against every card of the field).
      assert.equal(cards.length, 12);
      assert.deepEqual(
        cards.filter((l) => l.vsField).map((l) => l.vsField!.card.name),
        cards.filter((l) => l.simulate).map((l) => l.simulate!.attacker.name),
      );
      assert.ok(cards.filter((l) => l.vsField).every((l) => l.title === 'vs the field'));
      assert.equal(cards[0]!.title, 'Simulate vs Maw Frigate');
      assert.deepEqual(cards[0]!.simulate, {
        attacker: { name: 'Lumen Destroyer', uri: UNITS, faction: 'Myr-Valari' },
        defender: { name: 'Maw Frigate', faction: 'Consumed' },
      });
      assert.equal(codeLenses(ws.get(UNITS)!, ws, settings)[0]!.title, 'Simulate vs …');
    });
    it('puts the points estimate above each card\u2019s points, unless turned off', () => {
      const ws = workspace();
      const doc = ws.get(UNITS)!;
      const estimates = codeLenses(doc, ws, settings).filter((l) => l.title.startsWith('≈'));
      assert.equal(estimates.length, 6);
      for (const l of estimates) {
        assert.match(l.title, /^≈ \d+ pts( · far too (cheap|dear))?$/);
        assert.equal(l.simulate, undefined, 'informational: no command');
        assert.match(doc.text.slice(l.span.start, l.span.end), /^points$/);
      }
      assert.equal(codeLenses(doc, ws, settings).filter((l) => l.title === 'Price by battle').length, 6);
      // A card the simulator cannot read (a weapon of no known type) gets no "Price by battle" to fail on click.
      const odd = ws.set(
        'file:///ws/odd.unit.yaml',
        'faction: Myr-Valari\nunits:\n  - name: Odd Gun\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/3 3"\n    weapons:\n      - Mystery Gun — Kinetic, 18", 2, 3\n',
      )!;
      assert.deepEqual(
        codeLenses(odd, ws, settings).filter((l) => l.title === 'Price by battle'),
        [],
      );
      assert.deepEqual(
        codeLenses(odd, ws, settings).filter((l) => l.vsField),
        [],
        'nor "vs the field"',
      );
      const off = resolveSettings({ pointsEstimate: { enabled: false } });
      assert.equal(codeLenses(doc, ws, off).filter((l) => l.title.startsWith('≈')).length, 0);
      assert.equal(resolveSettings({}).pointsEstimate.enabled, true);
      assert.equal(resolveSettings({ pointsEstimate: { enabled: 'no' } }).pointsEstimate.enabled, true, 'a value of the wrong kind is the default');
    });
    it('sums a fleet', () => {
      const ws = workspace();
      const s = fleetSummary(ws.get(FLEET) as never, ws);
      assert.deepEqual([s.total, s.limit, s.over, s.remaining, s.unknownUnits], [650, 1000, false, 350, ['Lumen Destroyr']]);
    });
  });

  describe('workspace queries', () => {
    it('re-validates the fleets that use a changed card file', () => {
      const ws = workspace();
      const before = ws.get(UNITS);
      const after = ws.set(UNITS, MYR_RENAMED());
      assert.ok(dependents(ws, UNITS, before, after).includes(FLEET));
      assert.ok(!dependents(ws, CONSUMED, ws.get(CONSUMED), undefined).includes(U('cards/broken.unit.yaml')));
      assert.deepEqual(dependents(ws, FLEET, ws.get(FLEET), ws.get(FLEET)), []);
    });
    it('lists cards sorted by faction and name, and finds one by a place inside it', () => {
      const ws = workspace();
      const names = listCards(ws).map((r) => `${r.faction}/${r.card.name.value}`);
      assert.equal(names[0], 'Consumed/Maw Frigate');
      assert.ok(names.indexOf('Myr-Valari/Broken Frigate') < names.indexOf('Myr-Valari/Lumen Cruiser'));
      assert.equal(findCard(ws, { uri: UNITS, offset: at(ws, UNITS, 'Sunspear') })?.card.name.value, 'Lumen Cruiser');
      assert.equal(findCard(ws, { uri: FLEET, offset: at(ws, FLEET, '- Veil') })?.card.name.value, 'Veilwing Fighter Wing');
    });
  });
});

function MYR_RENAMED(): string {
  return FILES['cards/myr.unit.yaml']!.replace('Lumen Destroyer', 'Lumen Warden');
}

describe('reading the lines around the cursor at the very start of a file', () => {
  // A file that starts with an empty line: walking up from line 2 used to find the '\n' at offset
  // 0 again and again (lastIndexOf clamps a negative start to 0), so completion never returned.
  for (const text of ['\ncpSources: x\nfaction: A\n', '\n\nunits:\n  - name: A\n', '\n']) {
    for (const offset of [0, 1, 2]) {
      it(`completes and reads the context of ${JSON.stringify(text)} at ${offset}`, () => {
        const ws = new Workspace();
        const doc = ws.set('file:///start.unit.yaml', text)!;
        const at = Math.min(offset, text.length);
        assert.ok(Array.isArray(complete(doc, ws, text, at).items));
        assert.ok(Array.isArray(cursorContext(text, at).path));
      });
    }
  }
});
