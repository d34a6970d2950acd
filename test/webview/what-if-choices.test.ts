/**
 * The what-if commands' choices (client/src/whatIfChoices.ts): after a save, Compare with Saved
 * Version still has the list as it was when it was opened, and git's HEAD, to offer (each once,
 * never the list as it is now); the opponent picked last comes first; a list over its points
 * limit is told apart before it is offered.
 */
import { strict as assert } from 'node:assert';
import { lastPickedFirst, overLimitWarning, versionsToCompare } from '../../client/src/whatIfChoices';

describe('what-if choices', () => {
  it('offers the version when the file was opened and git\u2019s HEAD after a save (nothing unsaved)', () => {
    const v = versionsToCompare('count: 1', { saved: undefined, opened: 'count: 2', head: 'count: 3' });
    assert.deepEqual(
      v.map((x) => [x.label, x.text]),
      [
        ['the version when you opened it', 'count: 2'],
        ['the last commit', 'count: 3'],
      ],
    );
  });

  it('offers each text once, the saved one first, and never the list as it is now', () => {
    const v = versionsToCompare('now', { saved: 'saved', opened: 'saved', head: 'now' });
    assert.deepEqual(
      v.map((x) => x.label),
      ['the saved version'],
    );
    assert.deepEqual(versionsToCompare('now', { saved: 'now', opened: 'now', head: undefined }), []);
    assert.deepEqual(
      versionsToCompare('now', { saved: 'a', opened: 'b', head: 'c' }).map((x) => x.text),
      ['a', 'b', 'c'],
    );
  });

  it('puts the opponent picked last first, under its own heading, and not twice', () => {
    type Item = { label: string; uri?: string };
    const items: Item[] = [
      { label: '-- In this workspace' },
      { label: 'A', uri: 'file:///a' },
      { label: 'B', uri: 'file:///b' },
      { label: 'C', uri: 'file:///c' },
    ];
    const heading = (label: string): Item => ({ label: `-- ${label}` });
    const key = (i: Item) => i.uri;
    assert.deepEqual(
      lastPickedFirst(items, 'file:///b', key, heading).map((i) => i.label),
      ['-- Picked last', 'B', '-- In this workspace', 'A', 'C'],
    );
    assert.deepEqual(lastPickedFirst(items, 'file:///gone', key, heading), items, 'an opponent no longer offered: the list as it was');
    assert.deepEqual(lastPickedFirst(items, undefined, key, heading), items);
  });

  it('warns of a list over its points limit, and only of one', () => {
    assert.equal(overLimitWarning({ total: 1230, limit: 1000 }), 'over its limit by 230 pts: it cannot fight until it is within 1000');
    assert.equal(overLimitWarning({ total: 1000, limit: 1000 }), undefined);
    assert.equal(overLimitWarning({ total: 1230 }), undefined, 'no limit written');
    assert.equal(overLimitWarning(null), undefined);
  });
});
