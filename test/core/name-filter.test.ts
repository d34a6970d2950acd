/**
 * The scan's name filter finds, without parsing, the files that may define a card an
 * open fleet names: it must never miss one, however the name is written (plain, quoted, escaped,
 * folded over lines, in a block scalar, in any case), and it should pass over files that cannot.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Workspace } from '../../server/src/core/workspace';
import { cardNameFilter } from '../../server/src/core/features/nameFilter';

const WORDS = ['Lance', 'of', "O'Neil", 'Cruiser', '13', '1', 'a-b', 'x.y', '(old)', 'K', 'İ', '#2', 'C++', 'Éclair', 'ΣΟΦΟΣ', '\u212Aelvin', 'Straße'];

/** A name written as YAML in one of several styles, at the card's indent (4). */
function written(name: string, style: number): string {
  switch (style) {
    case 0:
      return `name: ${name}`;
    case 1:
      return `name: '${name.replace(/'/g, "''")}'`;
    case 2:
      // Every character escaped where it can be: \x41 for "A".
      return `name: "${[...name].map((ch) => (/[A-Za-z]/.test(ch) ? `\\x${ch.charCodeAt(0).toString(16)}` : ch === '"' ? '\\"' : ch)).join('')}"`;
    case 3:
      // A plain scalar folded over lines.
      return `name: ${name.split(' ').join('\n      ')}`;
    default:
      return `name: >-\n      ${name.split(' ').join('\n      ')}`;
  }
}

function unitText(name: string, style: number): string {
  return `faction: Myr\nunits:\n  - ${written(name, style)}\n    class: Frigate\n    points: 40\n`;
}

/** How a fleet may write the same name: other case, spaces around. */
function asFleetWrites(name: string, upper: boolean): string {
  return ` ${upper ? name.toUpperCase() : name.toLowerCase()} `;
}

describe('the name filter of the first scan', () => {
  it('never misses a file that defines a named card (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), fc.nat(4), fc.boolean(), (words, style, upper) => {
        const text = unitText(words.join(' '), style);
        const ws = new Workspace();
        ws.set('file:///ws/a.unit.yaml', text);
        for (const ref of ws.allCards()) {
          const name = ref.card.name.value!;
          // The fleet's name resolves to this card exactly when the index finds it by that name.
          const fleetName = asFleetWrites(name, upper);
          if (!ws.findCards(fleetName, 'Myr').length) continue;
          const may = cardNameFilter([fleetName]);
          if (may) assert.ok(may(text), `${JSON.stringify(fleetName)} is in ${JSON.stringify(text)}`);
        }
      }),
      { seed: 14, numRuns: 500 },
    );
  });

  it('passes over files that cannot define the names', () => {
    const may = cardNameFilter(['Bench Cruiser 1', "O'Neil"])!;
    assert.equal(may(unitText('Bench Cruiser 13', 0)), false);
    assert.equal(may(unitText('Bench Cruiser 21', 0)), false);
    assert.equal(may(unitText('Other', 0)), false);
    assert.equal(may(unitText('bench   cruiser 1', 0)), true);
    assert.equal(may(unitText("O'Neil", 1)), true);
  });

  it('takes files with letters that lower-case to ASCII (the Kelvin sign is a "k" to the index)', () => {
    const text = unitText('\u212Aite', 0);
    const ws = new Workspace();
    ws.set('file:///ws/a.unit.yaml', text);
    assert.equal(ws.findCards('kite').length, 1);
    assert.equal(cardNameFilter(['kite'])!(text), true);
  });

  it('takes the files past ASCII for a name whose lower case is past ASCII, and passes over the others', () => {
    const may = cardNameFilter(['Éclair', 'Bench Cruiser 1'])!;
    assert.ok(may, 'a filter, so that those files go first');
    assert.equal(may(unitText('ÉCLAIR', 0)), true);
    assert.equal(may(unitText('Bench Cruiser 1', 0)), true);
    assert.equal(may(unitText('Other', 0)), false);
    // A Kelvin sign lower-cases to "k": the name is looked for as ASCII.
    assert.equal(cardNameFilter(['\u212Aite'])!(unitText('KITE', 0)), true);
    assert.equal(cardNameFilter(['\u212Aite'])!(unitText('Other', 0)), false);
  });
});
