/**
 * The example cards bundled as data (server/src/core/examples): up to date with examples/, every
 * card simulatable, and hidden when the user's workspace has a card of the same name and faction.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { EXAMPLES_JSON, exampleFiles, examplesJson } from '../../scripts/build-examples';
import { exampleCards, exampleFleets, exampleWorkspace, findExampleCard, isExampleUri } from '../../server/src/core/examples/index';
import { fleetForBattle } from '../../server/src/core/features/battle';
import { checkDocument } from '../../server/src/core/check/index';
import { definition } from '../../server/src/core/features/navigation';
import { hover } from '../../server/src/core/features/hover';
import { resolveSettings } from '../../protocol';
import { profileFromCard } from '../../server/src/core/sim/index';
import { Workspace } from '../../server/src/core/workspace';
import type { FleetDocument } from '../../server/src/core/model/types';
import { runCheck } from '../../server/src/cli/check';
import { runRoster } from '../../server/src/cli/roster';
import { memoryIO } from './memoryIO';
import { embarkChoices } from '../../server/src/core/roster/edits';

describe('bundled example cards', () => {
  it('are up to date with examples/ (node --import=tsx scripts/build-examples.ts)', async () => {
    assert.equal(readFileSync(EXAMPLES_JSON, 'utf8'), await examplesJson());
    const paths = exampleFiles().map((f) => f.path);
    assert.ok(paths.includes('consumed/maw-capitals.unit.yaml') && paths.includes('myr-valari/myr-valari.unit.yaml'));
    assert.ok(!paths.some((p) => p.startsWith('showcase/')), 'no deliberate mistakes');
    assert.ok(paths.includes('fleets/standard-1000.fleet.yaml'), 'the example fleets, as opponents');
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

describe('bundled example fleets', () => {
  it('are every example fleet list, each legal and ready to fight with the bundled cards', () => {
    const fleets = exampleFleets();
    assert.deepEqual(fleets.map((f) => f.uri.replace(/^.*\//, '')).sort(), [
      'battle-2000-consumed.fleet.yaml',
      'battle-2000.fleet.yaml',
      'skirmish-500.fleet.yaml',
      'standard-1000-myr-valari.fleet.yaml',
      'standard-1000.fleet.yaml',
    ]);
    assert.equal(fleets.length, 5);
    for (const f of fleets) {
      assert.ok(isExampleUri(f.uri), f.uri);
      const problems = checkDocument(f, exampleWorkspace());
      assert.deepEqual(
        problems.filter((p) => p.severity === 'error').map((p) => p.message),
        [],
        f.uri,
      );
      const built = fleetForBattle(f, exampleWorkspace(), problems);
      assert.ok(built.fleet && built.fleet.units.length > 0, `${f.uri}: ${built.errors.join('; ')}`);
    }
    // Smallest game first.
    const sizes = fleets.map((f) => f.points.value ?? 0);
    assert.deepEqual(
      sizes,
      [...sizes].sort((a, b) => a - b),
    );
  });

  it("resolve when pasted into a workspace that has none of their faction's cards, and give way to the user's own cards", () => {
    const text = exampleFleets().find((f) => f.uri.endsWith('standard-1000.fleet.yaml'))!.text;
    const bare = new Workspace();
    const pastedBare = bare.set('file:///ws/pasted.fleet.yaml', text)!;
    assert.ok(
      checkDocument(pastedBare, bare).some((p) => p.code === 'FS-UNIT-UNKNOWN'),
      'without the examples to fall back on, its cards are unknown',
    );

    const ws = Object.assign(new Workspace(), { fallback: exampleWorkspace });
    ws.set('file:///ws/mine.unit.yaml', 'faction: Homebrew\nunits:\n  - name: Lantern\n    class: Fighter\n    points: 20\n');
    const pasted = ws.set('file:///ws/pasted.fleet.yaml', text) as FleetDocument;
    assert.deepEqual(
      checkDocument(pasted, ws)
        .filter((p) => p.severity === 'error')
        .map((p) => p.message),
      [],
    );
    const built = fleetForBattle(pasted, ws, checkDocument(pasted, ws));
    assert.ok(built.fleet, built.errors.join('; '));
    assert.ok(ws.factions().includes('Consumed') && ws.factions()[0] === 'Homebrew', ws.factions().join(', '));
    // Its own cards stay its own: the examples are not counted among them.
    assert.deepEqual(
      ws.allCards().map((r) => r.name),
      ['Lantern'],
    );
    // Its hover says where the card comes from, and go to definition has no file to go to.
    const h = hover(pasted, ws, pasted.text.indexOf('Gnawing Cruiser') + 2, resolveSettings({}));
    assert.match(h?.markdown ?? '', /A bundled example card: the workspace has no card of this faction/);
    // Go to definition has no file to go to for an example card.
    const at = pasted.text.indexOf('Oblivion Maw') + 2;
    assert.deepEqual(definition(pasted, ws, at), []);

    // A card of the user's own in that faction: the faction is the user's now, the examples step aside.
    ws.set('file:///ws/consumed.unit.yaml', 'faction: Consumed\nunits:\n  - name: Oblivion Maw\n    class: Capital Ship\n    points: 300\n');
    const after = checkDocument(ws.get('file:///ws/pasted.fleet.yaml')!, ws);
    assert.ok(
      after.some((p) => p.code === 'FS-UNIT-UNKNOWN' && p.message.includes('Gnawing Cruiser')),
      after.map((p) => p.message).join('\n'),
    );
    assert.equal(definition(pasted, ws, at)[0]?.uri, 'file:///ws/consumed.unit.yaml');
  });

  it("offer Embark on an example Carrier, with the example faction's Fighters and Bombers, in a folder without cards", () => {
    // A new player's first fleet: the Fleet view's Embark... is offered from these choices.
    const ws = Object.assign(new Workspace(), { fallback: exampleWorkspace });
    const fleet = ws.set('file:///ws/first.fleet.yaml', 'name: First\nfaction: Myr-Valari\npoints: 1000\nunits:\n  - Dawnhold Carrier\n') as FleetDocument;
    const choices = embarkChoices(fleet, ws, 0);
    assert.ok(choices.length > 0, 'the Carrier can embark something');
    assert.ok(
      choices.every((c) => c.class === 'Fighter' || c.class === 'Bomber'),
      choices.map((c) => `${c.name} (${c.class})`).join(', '),
    );
    assert.ok(choices.some((c) => c.class === 'Fighter' && c.fits));
  });

  it('resolve from the command line too: check and roster of a pasted example fleet in a folder without cards', async () => {
    const text = exampleFleets().find((f) => f.uri.endsWith('battle-2000.fleet.yaml'))!.text;
    const io = memoryIO({ '/ws/pasted.fleet.yaml': text });
    io.cwd = '/ws';
    const code = await runCheck(['/ws/pasted.fleet.yaml', '--format', 'json'], io);
    const report = JSON.parse(io.out) as { diagnostics: { code: string; severity: string }[] };
    assert.deepEqual(
      report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      [],
    );
    assert.equal(code, 0, io.err);
    const r = memoryIO({ '/ws/pasted.fleet.yaml': text });
    r.cwd = '/ws';
    assert.equal(await runRoster(['/ws/pasted.fleet.yaml', '--format', 'short'], r), 0, r.err);
    assert.doesNotMatch(r.out, /\?/, r.out);
  });
});
