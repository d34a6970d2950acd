/**
 * `import` (core/roster/import/) and names no card has: one clearly meant (a typo, a plural, a name
 * cut short) is read as that card and said so (the result's guesses, a comment on the entry); one
 * close to several is kept as a comment naming them. "embarked on a cruiser" goes aboard the
 * cruiser entry of the list.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { exampleFallback } from '../../server/src/core/examples/index';
import { importRoster } from '../../server/src/core/roster/import';
import { guessNoteAt, unreadNotes } from '../../server/src/core/model/importNotes';

const ws = exampleFallback(new Workspace());
const POST = [
  'Lantern Watch - Myr-Valari 1000',
  '1x Celestial Batleship (280)',
  '3 x Shardlite Escort @ 80',
  '2x Lumen Cruiser (190)',
  'Veilwing Fighters (60) embarked on a cruiser',
  '- 2x Lumen Dxxtrxyxr',
].join('\n');

describe('import: names read as the closest card', () => {
  const r = importRoster(POST, ws);

  it('takes the card a typo or a plural clearly means, and says so', () => {
    assert.deepEqual(
      r.entries.map((e) => [e.count, e.unit, e.embark]),
      [
        [1, 'Celestial Battleship', []],
        [3, 'Shardlight Escort', []],
        [1, 'Lumen Cruiser', []],
        [1, 'Lumen Cruiser', ['Veilwing Fighter Wing']],
      ],
    );
    assert.deepEqual(
      r.guesses.map((g) => [g.line, g.written, g.unit]),
      [
        [2, 'Celestial Batleship', 'Celestial Battleship'],
        [3, 'Shardlite Escort', 'Shardlight Escort'],
        [5, 'Veilwing Fighters', 'Veilwing Fighter Wing'],
      ],
    );
  });

  it('says a line that names a card misspelt among other words, never passes it over in silence', () => {
    const post = ['Myr-Valari list 1000', '2x Lumen Destroyer', 'Lumen Destroyr or a Bomber', '1 Lumen Cruiser'].join('\n');
    const got = importRoster(post, ws);
    const p = got.problems.find((x) => x.line === 3);
    assert.ok(p, got.problems.map((x) => `${x.line}: ${x.why}`).join('\n'));
    assert.equal(p.closest, 'Lumen Destroyer');
    // Chat that names no card stays a note.
    const chat = importRoster(['2x Lumen Destroyer', 'Good luck to my opponent today'].join('\n'), ws);
    assert.deepEqual(
      chat.problems.filter((x) => x.line === 2),
      [],
    );
  });

  it('keeps a name close to several cards as a comment naming each', () => {
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.candidates]),
      [[6, ['Lumen Destroyer', 'Lumen Cruiser']]],
    );
    assert.deepEqual(
      unreadNotes(r.fleet).map((n) => [n.line, n.text, n.candidates]),
      [[6, '- 2x Lumen Dxxtrxyxr', ['Lumen Destroyer', 'Lumen Cruiser']]],
    );
  });

  it('writes each guess as a note on its entry that reads back', () => {
    const at = r.fleet.indexOf('unit: Celestial Battleship') + 'unit: Celestial Battleship'.length;
    const note = guessNoteAt(r.fleet, at);
    assert.deepEqual([note?.written, note?.others], ['Celestial Batleship', []]);
    const x = r.fleet.indexOf('- Veilwing Fighter Wing') + '- Veilwing Fighter Wing'.length;
    assert.equal(guessNoteAt(r.fleet, x)?.written, 'Veilwing Fighters');
  });

  it('a host the list does not hold is said; the unit stays an entry', () => {
    const h = importRoster('2x Lumen Destroyer\n- Veilwing Fighter Wing embarked on a carrier\n', ws);
    assert.deepEqual(
      h.entries.map((e) => [e.count, e.unit, e.embark]),
      [
        [2, 'Lumen Destroyer', []],
        [1, 'Veilwing Fighter Wing', []],
      ],
    );
    assert.match(h.problems[0]?.why ?? '', /no entry of the list is one/);
  });

  it('a host named by its card takes the unit aboard', () => {
    const h = importRoster('- Dawnhold Carrier\n- Lumen Cruiser\n- 2x Veilwing Fighter Wing aboard the Dawnhold Carrier\n', ws);
    assert.deepEqual(
      h.entries.map((e) => [e.count, e.unit, e.embark]),
      [
        [1, 'Dawnhold Carrier', ['Veilwing Fighter Wing', 'Veilwing Fighter Wing']],
        [1, 'Lumen Cruiser', []],
      ],
    );
    assert.deepEqual(h.problems, []);
  });
});
