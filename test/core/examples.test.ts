/**
 * The example cards bundled as data (server/src/core/examples): up to date with examples/, every
 * card simulatable, and hidden when the user's workspace has a card of the same name and faction.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { EXAMPLES_JSON, exampleFiles, examplesJson } from '../../scripts/build-examples';
import { exampleCards, exampleWorkspace, findExampleCard, isExampleUri } from '../../server/src/core/examples/index';
import { profileFromCard } from '../../server/src/core/sim/index';
import { Workspace } from '../../server/src/core/workspace';

describe('bundled example cards', () => {
  it('are up to date with examples/ (node --import=tsx scripts/build-examples.ts)', async () => {
    assert.equal(readFileSync(EXAMPLES_JSON, 'utf8'), await examplesJson());
    const paths = exampleFiles().map((f) => f.path);
    assert.ok(paths.includes('consumed/maw-capitals.unit.yaml') && paths.includes('myr-valari/myr-valari.unit.yaml'));
    assert.ok(!paths.some((p) => p.startsWith('showcase/') || p.startsWith('fleets/')), 'no deliberate mistakes, no fleets');
  });

  it('are all valid cards the simulator can use', () => {
    const cards = exampleCards();
    assert.ok(cards.length >= 16, `${cards.length} cards`);
    assert.deepEqual([...new Set(cards.map((c) => c.faction))], ['Consumed', 'Myr-Valari']);
    for (const ref of cards) {
      assert.ok(isExampleUri(ref.uri), ref.uri);
      const p = profileFromCard(ref.card);
      assert.ok(p.profile, `${ref.card.name.value}: ${p.error}`);
    }
    for (const doc of exampleWorkspace().documents()) {
      assert.deepEqual(
        doc.problems.filter((x) => x.severity === 'error').map((x) => x.message),
        [],
        doc.uri,
      );
    }
  });

  it('step aside for a workspace card of the same name and faction, not for one of another faction', () => {
    const own = new Workspace();
    own.set('file:///ws/mine.unit.yaml', 'faction: Consumed\nunits:\n  - name: Reaver Destroyer\n    class: Destroyer\n    points: 140\n');
    own.set('file:///ws/other.unit.yaml', 'faction: Homebrew\nunits:\n  - name: Radiant Court\n    class: Capital Ship\n    points: 400\n');
    const names = exampleCards(own).map((r) => r.card.name.value);
    assert.ok(!names.includes('Reaver Destroyer'));
    assert.ok(names.includes('Radiant Court'));
    assert.equal(findExampleCard('radiant court')?.faction, 'Myr-Valari');
    assert.equal(findExampleCard('Nobody'), undefined);
  });
});
