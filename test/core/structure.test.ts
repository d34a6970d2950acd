/**
 * Folding ranges (cards, weapon lists, fleet entries, comment blocks) and selection ranges (a value
 * out to its card and the document), from the YAML structure; over LSP in test/protocol/structure.test.ts.
 */
import { strict as assert } from 'node:assert';
import { foldingRanges, selectionSpans } from '../../server/src/core/service';

const CARDS = `# Ashen Reach cards.
# Two of them.
faction: Ashen Reach
units:
  - name: Cinder Destroyer
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Cinder Lance — Energy, 18", 2, 3
      - Ash Battery — Auto, 9", 1, 4
    abilities:
      - name: Drift
        text: |
          Moves 3" after firing.
          Then stops.

  - name: Spark Wing
    class: Fighter
`;

const FLEET = `name: Patrol
faction: Myr-Valari
points: 500
units:
  - unit: Lumen Cruiser
    count: 2
  - unit: Dawnhold Carrier
    embark:
      - Veilwing Fighter Wing
      - Lumen Bomber Wing
`;

/** Folds as "first line-last line" (1-based), comment folds marked. */
function lines(text: string): string[] {
  const line = (off: number) => text.slice(0, off).split('\n').length;
  return foldingRanges(text).map((f) => `${line(f.start)}-${line(f.end)}${f.kind ? ` ${f.kind}` : ''}`);
}

describe('folding and selection ranges', () => {
  it('folds each card, its lists, a multi-line text and the comment block', () => {
    const got = lines(CARDS);
    for (const want of ['1-2 comment', '4-19', '5-16', '9-11', '12-16', '13-16', '14-16', '18-19'])
      assert.ok(got.includes(want), `${want} in ${got.join(', ')}`);
    // A fold ends at its content, not at the blank line after it.
    assert.ok(!got.includes('5-17'));
  });

  it('folds each fleet entry and its embarked units', () => {
    const got = lines(FLEET);
    for (const want of ['4-10', '5-6', '7-10', '8-10']) assert.ok(got.includes(want), `${want} in ${got.join(', ')}`);
  });

  it('a text that does not parse still folds its comments and never throws', () => {
    assert.doesNotThrow(() => foldingRanges('units: [\n  - {\n# a\n# b\n'));
    assert.ok(lines('units: [\n  - {\n# a\n# b\n').includes('3-4 comment'));
  });

  it('selects from the value under the cursor out to its card, its list and the document', () => {
    const off = CARDS.indexOf('class: Destroyer') + 9;
    const got = selectionSpans(CARDS, off).map((s) => CARDS.slice(s.start, s.end));
    assert.equal(got[0], 'Destroyer');
    assert.equal(got[1], 'class: Destroyer');
    assert.ok(
      got.some((t) => t.startsWith('- name: Cinder Destroyer') && t.endsWith('Then stops.')),
      'the card with its dash',
    );
    assert.ok(
      got.some((t) => t.startsWith('units:\n')),
      'the list with its key',
    );
    assert.equal(got[got.length - 1], CARDS.trimEnd());
    for (let i = 1; i < got.length; i++) assert.ok(got[i]!.length > got[i - 1]!.length, 'each range holds the one before');
  });
});
