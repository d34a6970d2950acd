/**
 * `fabled-star balance` through `runBalance` with an in-memory file system: the JSON shape of issue
 * 13, the order (most off first), the field it names, the text table, and bad input (one line, exit 2).
 */
import { strict as assert } from 'node:assert';
import { runBalance } from '../../server/src/cli/balance';
import type { CliIO } from '../../server/src/cli/io';
import { CLASSES, CLASS_NAMES } from '../../server/src/core/rules/data';
import { memoryIO as sharedMemoryIO } from './memoryIO';
import { Workspace } from '../../server/src/core/workspace';
import { pointsEstimateMarkdown } from '../../server/src/core/features/pointsEstimate';

const HOMEBREW = `faction: Lab
units:
  - name: Bargain Cruiser
    class: Cruiser
    points: 190
    stats: "6/6 3+ 6+ 14 3+ 16 6/3 7/3 5"
    weapons:
      - Bargain Lance — Energy, 24", 4, 6
      - Bargain Ion Array — Ion, 18", 3, 6
  - name: Gilded Destroyer
    class: Destroyer
    points: 280
    stats: "9/6 9+ - - - 3 6/3 - -"
    weapons:
      - Gilded Popgun — Blast, 6", 1, 1
  - name: Fair Cruiser
    class: Cruiser
    points: 200
    stats: "6/6 5+ 8+ 6 5+ 7 6/3 7/3 5"
    weapons:
      - Fair Broadside — Energy, 18", 2, 4
      - Fair Flak — Auto, 6", 1, 4
    orders:
      - Full Burn
  - name: No Guns
    class: Carrier
    points: 300
    stats: "6/3 5+ 9+ 10 5+ 11 5/3 6/3 7"
`;

/** Ten cards at their class's standard points: a field of their own. */
const FIELD = [
  'faction: Ref',
  'units:',
  ...CLASS_NAMES.flatMap((cls, i) => [
    `  - name: Ref ${cls}`,
    `    class: ${cls}`,
    `    points: ${CLASSES[cls].points}`,
    `    stats: "6/6 5+ 8+ ${i} 6+ ${2 + i} 6/3 - -"`,
    '    weapons:',
    `      - Gun — Energy, 6", ${1 + (i % 3)}, ${2 + i}`,
  ]),
  '',
].join('\n');

function memoryIO(files: Record<string, string>): CliIO & { out: string; err: string } {
  // A locked file and a folder that cannot be listed, as the balance tests need.
  return sharedMemoryIO(files, { readError: 'EACCES', unlistable: { '/ws/secret': 'cannot list /ws/secret: EACCES' } });
}

const FILES = { '/ws/lab/homebrew.unit.yaml': HOMEBREW, '/ws/ref/field.unit.yaml': FIELD };

describe('balance CLI', () => {
  it("prints the estimate's JSON, most off first", async () => {
    const io = memoryIO(FILES);
    assert.equal(await runBalance(['/ws/lab', '--format', 'json'], io), 0, io.err);
    const r = JSON.parse(io.out);
    assert.deepEqual(Object.keys(r), ['field', 'cards']);
    assert.deepEqual(Object.keys(r.field), ['source', 'cards', 'k', 'spreadPct']);
    assert.equal(r.field.source, 'examples', 'too few standard-cost cards: the bundled examples');
    assert.equal(r.field.cards, 20);
    assert.ok(r.field.k > 0 && r.field.spreadPct > 0);
    assert.equal(r.cards.length, 4);
    // FORMATS.md's fields; `reason` beside them only where there is no estimate.
    for (const c of r.cards)
      assert.deepEqual(Object.keys(c), [
        'file',
        'line',
        'name',
        'faction',
        'class',
        'points',
        'estimate',
        'ratio',
        'firepower',
        'durability',
        'unpriced',
        ...(c.estimate === null ? ['reason'] : []),
      ]);
    assert.deepEqual(
      r.cards.map((c: { name: string }) => c.name),
      ['Gilded Destroyer', 'Bargain Cruiser', 'Fair Cruiser', 'No Guns'],
    );
    const [dear, cheap, fair, none] = r.cards;
    assert.equal(dear.file, 'lab/homebrew.unit.yaml');
    assert.equal(dear.line, 10);
    assert.equal(dear.faction, 'Lab');
    assert.equal(dear.class, 'Destroyer');
    // The ratio is points over the estimate before the estimate is rounded to 0.1 (a far-off card's small estimate moves it by more than 0.01).
    assert.ok(Math.abs(dear.ratio - dear.points / dear.estimate) < 0.001 + (dear.points / dear.estimate) * (0.05 / dear.estimate));
    assert.ok(dear.ratio > 2 && cheap.ratio < 0.5 && fair.ratio > 0.7 && fair.ratio < 1.4);
    assert.ok(cheap.firepower > fair.firepower && cheap.durability > fair.durability);
    assert.deepEqual(fair.unpriced, ['LD', 'tonnage', 'orders']);
    assert.deepEqual([none.estimate, none.ratio, none.firepower], [null, null, 0]);
    assert.match(none.reason, /deals no damage|weapon/i, none.reason);
  });

  it('takes its field from the cards given when ten cost their class\u2019s standard points', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runBalance(['/ws/lab', '--cards', '/ws/ref', '--format', 'json'], io), 0, io.err);
    const r = JSON.parse(io.out);
    assert.equal(r.field.source, 'workspace');
    assert.equal(r.field.cards, 12, 'the ten reference cards and the two listed cards at standard points');
    assert.equal(r.cards.length, 4, '--cards are the field, not listed');
  });

  it('prints names from files as text: no control character reaches the terminal', async () => {
    const io = memoryIO({ '/ws/evil.unit.yaml': HOMEBREW.replace('Gilded Destroyer', '"Gilded\\u001b[2J\\nDestroyer"') });
    assert.equal(await runBalance(['/ws/evil.unit.yaml'], io), 0, io.err);
    assert.ok(!io.out.includes('\u001b'));
    assert.match(io.out, /Gilded\\u001b\[2J\\nDestroyer/);
  });

  it('prints the ratio and estimate a hover shows for the same card, never rounded twice', async () => {
    // Two hundred cards alike but for their points: some ratio lands just under a half-hundredth.
    const names: string[] = [];
    const lines = ['faction: Lab', 'units:'];
    for (let p = 101; p <= 300; p++) {
      if (p === CLASSES.Cruiser.points) continue;
      names.push(`Probe ${p}`);
      lines.push(
        `  - name: Probe ${p}`,
        '    class: Cruiser',
        `    points: ${p}`,
        '    stats: "6/6 5+ 8+ 6 5+ 7 6/3 7/3 5"',
        '    weapons:',
        '      - Lance \u2014 Energy, 18", 2, 4',
      );
    }
    const text = lines.join('\n') + '\n';
    const io = memoryIO({ '/ws/probe.unit.yaml': text });
    assert.equal(await runBalance(['/ws/probe.unit.yaml'], io), 0, io.err);
    const ws = new Workspace();
    const doc = ws.set('file:///ws/probe.unit.yaml', text)!;
    let checked = 0;
    for (const card of doc.kind === 'unit' ? doc.units : []) {
      const hover = pointsEstimateMarkdown(card, ws);
      const ratio = /printed points are ([\d.]+) \u00d7 the estimate/.exec(hover)?.[1];
      const estimate = /\u2248 (\d+) pts/.exec(hover)?.[1];
      const row = io.out.split('\n').find((l) => l.startsWith(`${card.name.value} `));
      assert.ok(ratio && estimate && row, `${card.name.value}: ${hover}`);
      const cells = row.trim().split(/ {2,}|(?<=\S) (?=\S)/);
      assert.ok(
        row.includes(` ${estimate} `) && row.includes(` ${ratio} `),
        `${card.name.value}: hover ${estimate} pts, ${ratio}x; balance: ${cells.join(' | ')}`,
      );
      checked++;
    }
    assert.equal(checked, names.length);
  });

  it('prints a table with the field, the spread and the verdicts', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runBalance(['/ws/lab/homebrew.unit.yaml'], io), 0, io.err);
    assert.match(io.out, /^Reference field: 20 cards at their class's standard points from the bundled example cards\./);
    assert.match(
      io.out,
      /fitted to the battle prices of the bundled field and \d+ variants of its cards, times 0\.\d\d \(the field's printed points over its battle prices, on average\); leave-one-out error ±\d+%/,
    );
    assert.match(io.out, /Gilded Destroyer +Destroyer +280 +\d+ +[\d.]+ .*far too dear +lab\/homebrew\.unit\.yaml:10/);
    assert.match(io.out, /Bargain Cruiser .*far too cheap/);
    assert.match(io.out, /No Guns: no estimate: it deals no damage/);
  });

  for (const [what, argv, message] of [
    ['no paths', [], /give the card files/],
    ['a missing path', ['/ws/nowhere'], /no such file or folder: \/ws\/nowhere/],
    ['a bad format', ['/ws/lab', '--format', 'xml'], /--format must be text or json/],
    ['an unknown flag', ['/ws/lab', '--bogus'], /Unknown option '--bogus'/],
    ['an unreadable file', ['/ws/locked.unit.yaml'], /cannot read \/ws\/locked\.unit\.yaml: EACCES/],
    ['no unit cards', ['/ws/empty'], /no unit cards/],
    ['a folder it cannot list', ['/ws/secret'], /cannot list \/ws\/secret/],
  ] as const) {
    it(`bad input, ${what}: one line, exit 2`, async () => {
      const io = memoryIO({ ...FILES, '/ws/empty/x.fleet.yaml': 'name: F\n' });
      const realExists = io.exists;
      io.exists = (p) => p === '/ws/locked.unit.yaml' || realExists(p);
      const realIsDir = io.isDirectory;
      io.isDirectory = (p) => p === '/ws/secret' || realIsDir(p);
      assert.equal(await runBalance([...argv], io), 2);
      assert.equal(io.out, '');
      assert.match(io.err, message);
      assert.equal(io.err.trim().split('\n').length, 1, io.err);
    });
  }
});
