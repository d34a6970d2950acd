/**
 * `verify` compares the whole sheet as it shows (core/roster/printed.ts, verify.ts): every untouched
 * export of every format of generated fleets matches (names with " + ", ", " and digest-like text,
 * fleets and cards with problems, problems' files named any way); a sheet changed by hand, in its
 * figures, its lines about problems, its comments, its markup or its style, does not, and the line
 * is named.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Workspace } from '../../server/src/core/workspace';
import { buildRoster } from '../../server/src/core/roster/model';
import { renderRoster, ROSTER_FORMATS, type RosterFormat } from '../../server/src/core/roster/render';
import { verifyRoster } from '../../server/src/core/roster/verify';
import type { FleetDocument } from '../../server/src/core/model/types';
import { propertySettings } from './property-settings';
import { runRoster } from '../../server/src/cli/roster';
import { runVerify } from '../../server/src/cli/verify';
import { memoryIO } from './memoryIO';

const q = (s: string) => JSON.stringify(s);

interface GenCard {
  name: string;
  cls: string;
  points: number;
  /** A stat line with a stat left out: the card has an error of its own. */
  broken: boolean;
}

const STATS = '"9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"';
const BROKEN = '"9/6 5+ 7+ 4 6+ 5 6/3 7/2"';

function cardsYaml(faction: string, cards: GenCard[]): string {
  return `faction: ${q(faction)}\nunits:\n${cards
    .map(
      (c) =>
        `  - name: ${q(c.name)}\n    class: ${c.cls}\n    points: ${c.points}\n    stats: ${c.broken ? BROKEN : STATS}\n    weapons:\n      - Lance — Energy, 18", 2, 3\n`,
    )
    .join('')}`;
}

const BOARD = (faction: string) => `faction: ${q(faction)}
doctrine: Elite
cpSources: [{ name: Commander Burst, cp: 2 }, { name: First Officer Burst, cp: 2 }]
factionAbility: { name: Steady, text: Once per game reroll one die. }
commandAbilities:
  - { name: A1, cost: 1, timing: Any, effect: One. }
  - { name: A2, cost: 1, timing: Any, effect: Two. }
  - { name: A3, cost: 2, timing: Any, effect: Three. }
  - { name: A4, cost: 2, timing: Any, effect: Four. }
  - { name: A5, cost: 4, timing: Any, effect: Five. }
  - { name: A6, cost: 3, timing: Any, effect: Six. }
`;

interface GenFleet {
  name: string;
  faction: string;
  points: number;
  objectives: number | undefined;
  entries: { card: number; count: number; embark: number[] }[];
}

function fleetYaml(f: GenFleet, cards: GenCard[]): string {
  const out = [`name: ${q(f.name)}`, `faction: ${q(f.faction)}`, `points: ${f.points}`];
  if (f.objectives !== undefined) out.push(`objectives: ${f.objectives}`);
  out.push('units:');
  for (const e of f.entries) {
    out.push(`  - unit: ${q(cards[e.card]!.name)}`);
    if (e.count !== 1) out.push(`    count: ${e.count}`);
    if (e.embark.length) out.push(`    embark: [${e.embark.map((i) => q(cards[i]!.name)).join(', ')}]`);
  }
  return out.join('\n') + '\n';
}

const hex16 = fc.array(fc.constantFrom(...'0123456789abcdef'.split('')), { minLength: 16, maxLength: 16 }).map((a) => a.join(''));
const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéßøЖ艦'.split(''));
const word = fc
  .tuple(letter, fc.array(fc.oneof({ weight: 5, arbitrary: letter }, fc.constantFrom("'", '-', '&', '.', '*', '#', '_')), { maxLength: 7 }))
  .map(([a, b]) => a + b.join(''));
const plain = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
/** Names as players write them, and the ones that looked like the sheet's own marks: " + ", ", ", a digest. */
const name = fc.oneof(
  { weight: 4, arbitrary: plain },
  fc.tuple(plain, plain).map(([a, b]) => `${a} + ${b}`),
  fc.tuple(plain, plain).map(([a, b]) => `${a}, ${b}`),
  hex16.map((h) => `fs1-${h}`),
  fc.tuple(plain, hex16).map(([a, h]) => `${a} fs1-${h}`),
);
const CLASSES = ['Fighter', 'Escort', 'Frigate', 'Destroyer', 'Cruiser', 'Carrier'];

const scenario = fc
  .record({
    faction: plain,
    cards: fc.uniqueArray(
      fc.record({
        name,
        cls: fc.constantFrom(...CLASSES),
        points: fc.integer({ min: 10, max: 500 }),
        broken: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
      }),
      { minLength: 1, maxLength: 5, selector: (c) => c.name.toLowerCase() },
    ),
    fleetName: name,
    points: fc.constantFrom(500, 1000, 2000, 750),
    objectives: fc.option(fc.integer({ min: 0, max: 14 }), { nil: undefined }),
    board: fc.boolean(),
    // How the exporter named the files of its problems (the CLI: relative to its folder; the editor: the file's name).
    folder: fc.constantFrom('', 'my cards/', 'list#2/', 'C#/', 'a_b*c/', '100%/'),
  })
  .chain((s) =>
    fc.record({
      s: fc.constant(s),
      entries: fc.array(
        fc.record({
          card: fc.nat({ max: s.cards.length - 1 }),
          count: fc.integer({ min: 1, max: 4 }),
          embark: fc.array(fc.nat({ max: s.cards.length - 1 }), { maxLength: 2 }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    }),
  );

function cardsWorkspace(s: { faction: string; cards: GenCard[]; board: boolean }): Workspace {
  const ws = new Workspace();
  ws.set('file:///org/gen.unit.yaml', cardsYaml(s.faction, s.cards));
  if (s.board) ws.set('file:///org/gen.faction.yaml', BOARD(s.faction));
  return ws;
}

describe('verify: every untouched export of a generated fleet matches', () => {
  for (const format of ROSTER_FORMATS)
    it(`the ${format} export`, () => {
      let withProblems = 0;
      fc.assert(
        fc.property(scenario, ({ s, entries }) => {
          const player = cardsWorkspace(s);
          const f: GenFleet = { name: s.fleetName, faction: s.faction, points: s.points, objectives: s.objectives, entries };
          const doc = player.set('file:///home/p/lists/a.fleet.yaml', `# my list\n\n${fleetYaml(f, s.cards)}`) as FleetDocument;
          const roster = buildRoster(doc, player);
          if (roster.counts.errors + roster.counts.warnings > 0) withProblems++;
          const file = (uri: string) => `${s.folder}${uri.split('/').pop()}`;
          const text = renderRoster(roster, format, { file });
          // The organiser has the cards (the same ones), not the player's fleet file.
          const v = verifyRoster(text, cardsWorkspace(s));
          assert.equal(v.status, 'match', v.summary);
          assert.equal(v.claimed, roster.digest);
          assert.equal(v.actual, roster.digest);
        }),
        propertySettings(50, 3701),
      );
      assert.ok(withProblems > 10, `fleets with problems drawn: ${withProblems}`);
    });
});

// ---------------------------------------------------------------------------------------------

const CARDS = `faction: Testers
units:
  - name: Hauler
    class: Carrier
    points: 300
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Lance — Energy, 18", 2, 3
  - name: Wing
    class: Fighter
    points: 60
    stats: "9/6 4+ 6+ - - 1 7/2 - -"
  - name: Hammer + Anvil
    class: Frigate
    points: 110
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
  - name: Lance, Second
    class: Escort
    points: 80
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
`;
/** Over its limit: an error, so the one line says "(1 error)" and the others list it. */
const FLEET = `name: T
faction: Testers
points: 400
units:
  - unit: Hauler
    embark: [Wing]
  - unit: Wing
    count: 2
`;

function exported(format: RosterFormat, fleet = FLEET): { text: string; ws: Workspace } {
  const ws = new Workspace();
  ws.set('file:///ws/t.unit.yaml', CARDS);
  const text = renderRoster(buildRoster(ws.set('file:///ws/t.fleet.yaml', fleet) as FleetDocument, ws), format);
  const org = new Workspace();
  org.set('file:///org/t.unit.yaml', CARDS);
  return { text, ws: org };
}

/** The sheet changed by `edit` does not match; the line named is the first one changed. */
function doctored(format: RosterFormat, edit: (text: string) => string, fleet = FLEET, printed = true): void {
  const { text, ws } = exported(format, fleet);
  assert.equal(verifyRoster(text, ws).status, 'match', 'untouched');
  const changed = edit(text);
  assert.notEqual(changed, text, 'the edit applies');
  const v = verifyRoster(changed, ws);
  assert.equal(v.status, 'mismatch', v.summary);
  if (!printed) return; // the list read back differs too: the digest says so first
  assert.match(v.summary, /what it prints does not: line \d+ says/);
  const a = changed.split('\n');
  const b = text.split('\n');
  const first = a.findIndex((l, i) => l !== b[i]) + 1;
  assert.equal(v.printed?.line, first, v.summary);
}

describe('verify: a sheet changed by hand does not match', () => {
  it('text: an added weapon line ending "(2 notes)"', () =>
    doctored('text', (t) => t.replace(/( +)Weapon: Lance — Energy, 18", 2, 3\n/, '$&$1Weapon: Sunspear — Energy, 24", 5, 9 (2 notes)\n')));
  it('text: an added line naming a problem code', () =>
    doctored('text', (t) => t.replace(/( +)Weapon: Lance — Energy, 18", 2, 3\n/, '$&$1Weapon: Sunspear — Energy, 24", 5, 9 (see FS-WEAPON-TYPE)\n')));
  it('text: the count of errors changed', () =>
    doctored('text', (t) =>
      t.replace(/NOT LEGAL AS WRITTEN: 1 error\b/, 'NOT LEGAL AS WRITTEN: 0 errors').replace(/^  1 error, 2 warnings$/m, '  0 errors, 2 warnings'),
    ));
  it('text: an error left out of the problems', () => doctored('text', (t) => t.replace(/^.*error FS-FLEET-OVER.*\n/m, '')));
  it('markdown: an added weapon on the weapons line, ending "(2 notes)"', () =>
    doctored('markdown', (t) => t.replace(/(- Weapons: Lance — Energy, 18", 2, 3)\n/, '$1; Sunspear — Energy, 24", 5, 9 (2 notes)\n')));
  it('markdown: the true stat line hidden in a comment and a doctored one shown', () => {
    const stat = /^( {2}- )(M 9\/6 · BS 5\+[^\n]*)$/m;
    doctored('markdown', (t) => t.replace(stat, (_, lead: string, line: string) => `<!-- ${lead}${line} -->\n${lead}${line.replace('BS 5+', 'BS 2+')}`));
    // The doctored line with a word the old filter dropped; the true one in a comment whose marks it dropped too.
    doctored('markdown', (t) =>
      t.replace(
        stat,
        (_, lead: string, line: string) => `${lead}${line.replace('BS 5+', 'BS 2+')} <!-- 2 notes -->\n<!-- FS-NOTE\n${lead}${line}\nFS-NOTE -->`,
      ),
    );
  });
  it('markdown: a comment added on a line of its own', () =>
    doctored('markdown', (t) => t.replace('## Units\n', '## Units\n<!-- checked by the organiser -->\n')));
  it('the one line of a fleet with an error: every figure', () => {
    for (const edit of [
      (t: string) => t.replace(/Hauler \+ Wing 360/, 'Hauler + Wing 36'),
      (t: string) => t.replace(/2× Wing 120/, '2× Wing 12'),
      (t: string) => t.replace(/480\/400/, '380/400'),
      (t: string) => t.replace(/ \(1 error\)/, ''),
    ])
      doctored('short', edit);
    // Not a count the line prints: the list read back differs as well.
    doctored('short', (t) => t.replace(/\(1 error\)/, '(1 error, 2 notes)'), FLEET, false);
  });
  it('HTML: a CSS rule in the style block that prints every entry’s points as 8', () =>
    doctored('html', (t) =>
      t.replace(
        'tfoot td { font-weight: 700; }',
        'tfoot td { font-weight: 700; }\ntr.entry td.n:last-child { font-size: 0; } tr.entry td.n:last-child::after { content: "8"; font-size: 10pt; }',
      ),
    ));
  it('HTML: a style rule added to an existing line, or a style attribute', () => {
    doctored('html', (t) => t.replace('tfoot td { font-weight: 700; }', 'tfoot td { font-weight: 700; } .problem { display: none; }'));
    doctored('html', (t) => t.replace('<section class="verdict" role="alert">', '<section class="verdict" role="alert" style="display:none">'));
  });
  it('HTML: a hidden attribute on a row', () => {
    doctored('html', (t) => t.replace('<tr class="problem-row">', '<tr class="problem-row" hidden>'));
    doctored('html', (t) => t.replace('<tr class="embarked">', '<tr class="embarked" hidden>'), FLEET, false);
    // The entry's row: the list read back loses the unit as well, so its digest differs too.
    doctored('html', (t) => t.replace('<tr class="entry">', '<tr class="entry" hidden>'), FLEET, false);
  });
  it('HTML: a comment, and markup in a problem’s words', () => {
    doctored('html', (t) => t.replace('<h2>Units</h2>', '<h2>Units</h2><!-- ok -->'));
    // The sheet says its problems in words (no codes, no file positions): markup hidden among them.
    doctored('html', (t) => t.replace(/(<li>The fleet costs )/, '$1<b hidden>x</b>'));
  });
  it('HTML: the QR code drawn again for another line, or its label or class changed', () => {
    // Its own long line, compared whole like every other (the import passes it over as no unit).
    doctored('html', (t) => t.replace(/(<path fill="#000" d="M)(\d+)/, (_, a: string, n: string) => `${a}${Number(n) + 1}`));
    doctored('html', (t) => t.replace('aria-label="QR code of the roster', 'aria-label="QR code of the checked roster'));
    // Not the QR code's line as drawn: the import says it too (it was not read whole).
    doctored('html', (t) => t.replace('<svg class="qr share"', '<svg class="qr share" hidden'), FLEET, false);
  });
  it('markdown: markup in a problem’s location', () =>
    doctored('markdown', (t) => t.replace(/\(t\\\.fleet\\\.yaml(:\d+:\d+)\)/, '(**480 pts** t\\.fleet\\.yaml$1)')));
  it('JSON: a key given twice (a reader sees the first, a parser keeps the last)', () =>
    doctored('json', (t) => t.replace(/^( *)"total": 480,$/m, '$1"total": 380,\n$1"total": 480,')));
});

describe('verify: what is not a change', () => {
  for (const format of ROSTER_FORMATS) {
    it(`${format}: line endings, a final line break, and problems' files named another way`, () => {
      const { text, ws } = exported(format);
      assert.equal(verifyRoster(text.replace(/\n/g, '\r\n'), ws).status, 'match');
      assert.equal(verifyRoster(text.replace(/\n$/, ''), ws).status, 'match');
      const elsewhere = new Workspace();
      elsewhere.set('file:///ws/t.unit.yaml', CARDS);
      const doc = elsewhere.set('file:///ws/t.fleet.yaml', FLEET) as FleetDocument;
      const named = renderRoster(buildRoster(doc, elsewhere), format, { file: (u) => `lists/my fleets/${u.split('/').pop()}` });
      assert.equal(verifyRoster(named, ws).status, 'match', verifyRoster(named, ws).summary);
    });
  }
  const SPECIAL = `name: fs1-0123456789abcdef
faction: Testers
points: 500
units:
  - unit: Hammer + Anvil
  - unit: Lance, Second
    count: 2
  - unit: Hauler
    embark: [Wing]
`;
  for (const format of ROSTER_FORMATS)
    it(`${format}: a card named "Hammer + Anvil", one named "Lance, Second", a fleet named like a digest`, () => {
      const { text, ws } = exported(format, SPECIAL);
      const v = verifyRoster(text, ws);
      assert.equal(v.status, 'match', v.summary);
      assert.notEqual(v.claimed, 'fs1-0123456789abcdef');
    });
});

describe('verify: a sheet exported with a collection (the exporter\u2019s shelf, not the card files)', () => {
  /** A collection that owns one Wing of the two fielded (one is embarked) and no "Lance, Second". */
  const SHELF = 'owned:\n  - Hauler\n  - Wing\n  - Hammer + Anvil\n';
  const LIST = `${FLEET}  - unit: Lance, Second\n    count: 2\n`;
  const sheet = (format: RosterFormat, shelf = SHELF) => {
    const ws = new Workspace();
    ws.set('file:///ws/t.unit.yaml', CARDS);
    ws.set('file:///ws/shelf.collection.yaml', shelf);
    return renderRoster(buildRoster(ws.set('file:///ws/t.fleet.yaml', LIST) as FleetDocument, ws), format);
  };
  const organiser = () => {
    const org = new Workspace();
    org.set('file:///org/t.unit.yaml', CARDS);
    return org;
  };
  for (const format of ROSTER_FORMATS)
    it(`${format}: what to buy (or that every model is owned) is read back; the sheet matches`, () => {
      const ALL = 'owned:\n  - Hauler\n  - unit: Wing\n    count: 3\n  - unit: Lance, Second\n    count: 2\n';
      for (const shelf of [SHELF, ALL]) {
        const text = sheet(format, shelf);
        if (format !== 'short')
          assert.match(
            text,
            shelf === ALL ? /every model this list fields|"toBuy": \[\]/ : /To field this list: 2 x Wing, 2 x Lance, Second|"toBuy"/,
            'the sheet says it',
          );
        const v = verifyRoster(text, organiser());
        assert.equal(v.status, 'match', v.summary);
        // The organiser's own collection is not what the sheet printed.
        const own = organiser();
        own.set('file:///org/mine.collection.yaml', 'owned:\n  - Hauler\n');
        assert.equal(verifyRoster(text, own).status, 'match', 'another collection');
      }
    });
  for (const format of ['text', 'markdown', 'html', 'json'] as const)
    it(`${format}: a to-buy line that names a card the list does not field, or more copies than it fields, does not match`, () => {
      const text = sheet(format);
      assert.match(text, /Lance, Second/);
      let applied = 0;
      for (const edit of [
        (t: string) => t.replace(/2 x Lance, Second|"count": 2(?=\s*\}\s*\]\s*,?\s*"rules")/, (m) => m.replace('2', '3')),
        (t: string) => t.replace(/\d x Wing|"name": "Wing"/, (m) => m.replace('Wing', 'Hammer + Anvil')),
        (t: string) => t.replace(/To field this list: /, 'To field this list: 8 x Hauler, '),
      ]) {
        const changed = edit(text);
        if (changed === text) continue;
        applied++;
        assert.equal(verifyRoster(changed, organiser()).status, 'mismatch', `${format}: ${changed.split('\n').find((l) => /To field|toBuy/.test(l))}`);
      }
      assert.ok(applied >= (format === 'json' ? 2 : 3), `${applied} edits applied`);
    });
});

describe('verify: a list that wrote the names in other letter case', () => {
  for (const format of ROSTER_FORMATS)
    it(`${format}: the sheet prints them as the cards do, and matches`, () => {
      const { text, ws } = exported(format, FLEET.replace('unit: Hauler', 'unit: hauler').replace('embark: [Wing]', 'embark: [WING]'));
      assert.ok(!/\bhauler\b|WING/.test(text), 'names as the cards spell them');
      const v = verifyRoster(text, ws);
      assert.equal(v.status, 'match', v.summary);
    });
});

describe('verify CLI: where the sheet differs', () => {
  it('names the line of a doctored sheet in text and JSON, exit 1; an untouched sheet with problems exits 0', () => {
    const io = memoryIO({ '/ws/cards/t.unit.yaml': CARDS, '/ws/lists/t.fleet.yaml': FLEET });
    assert.equal(runRoster(['/ws/lists/t.fleet.yaml', '--cards', '/ws/cards', '--format', 'text'], io), 1, io.err);
    const sheet = io.out;
    assert.match(sheet, /lists\/t\.fleet\.yaml:3:9: error FS-FLEET-OVER/);
    const ok = memoryIO({ '/org/cards/t.unit.yaml': CARDS, '/org/sheet.txt': sheet });
    assert.equal(runVerify(['/org/sheet.txt', '--cards', '/org/cards'], ok), 0, ok.out);
    const lines = sheet.split('\n');
    const at = lines.findIndex((l) => l.includes('2× Wing [Fighter] 120 pts'));
    lines[at] = lines[at]!.replace('120 pts', '12 pts');
    const bad = memoryIO({ '/org/cards/t.unit.yaml': CARDS, '/org/sheet.txt': lines.join('\n') });
    assert.equal(runVerify(['/org/sheet.txt', '--cards', '/org/cards'], bad), 1);
    assert.match(
      bad.out,
      new RegExp(
        `what it prints does not: line ${at + 1} says "2× Wing \\[Fighter\\] 12 pts \\(60 each\\)"; they give "2× Wing \\[Fighter\\] 120 pts \\(60 each\\)"`,
      ),
    );
    assert.match(bad.out, new RegExp(`^  sheet:  line ${at + 1} differs`, 'm'));
    const json = memoryIO({ '/org/cards/t.unit.yaml': CARDS, '/org/sheet.txt': lines.join('\n') });
    assert.equal(runVerify(['/org/sheet.txt', '--cards', '/org/cards', '--format', 'json'], json), 1);
    assert.equal(JSON.parse(json.out).printed.line, at + 1);
  });
});
