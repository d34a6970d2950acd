/**
 * `sim --vs-field` (FORMATS.md): one row per card of the field, each row's figures the same as
 * `sim --attacker X --defender Y` for that pair, sorted by points destroyed per Fire action.
 */
import { strict as assert } from 'node:assert';
import { runSim } from '../../server/src/cli/sim';
import { runCli, type CliRun, EXAMPLES } from '../helpers';
import { exampleWorkspace } from '../../server/src/core/examples/index';
import { cardErrors } from '../../server/src/core/check/index';
import type { FieldRow, VsFieldResult } from '../../server/src/core/sim/vs-field';
import type { SimulationResult } from '../../server/src/core/sim/types';
import { profileFromCard } from '../../server/src/core/sim/index';
import { memoryIO } from './memoryIO';

const cli = (args: string[]): Promise<CliRun> => runCli(runSim, args);

async function json<T>(args: string[]): Promise<T> {
  const r = await cli([...args, '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as T;
}

/** The example cards without an error: the field FORMATS.md promises. */
function cleanExampleNames(): string[] {
  const ws = exampleWorkspace();
  return ws
    .allCards()
    .filter((r) => cardErrors(r, ws).length === 0)
    .map((r) => r.name)
    .sort();
}

/** Each example card's points and bases, from the cards themselves. */
const CARD_FACTS = new Map(
  exampleWorkspace()
    .allCards()
    .map((r) => [r.name, { points: r.points ?? 0, bases: profileFromCard(r.card).profile?.bases ?? 1 }] as const),
);

function sameFigures(row: FieldRow, sim: SimulationResult, what: string): void {
  assert.ok(
    Math.abs(row.expectedHullDamage - sim.volley.expectedHullDamage) <= 1e-9,
    `${what}: hull damage ${row.expectedHullDamage} vs ${sim.volley.expectedHullDamage}`,
  );
  assert.ok(Math.abs(row.killProbability - sim.volley.killProbability) <= 1e-9, `${what}: kill ${row.killProbability} vs ${sim.volley.killProbability}`);
  const a = row.shotsToKill;
  const b = sim.shotsToKill!;
  assert.equal(a.cdf.length, b.cdf.length, what);
  if (a.mean === null) assert.equal(b.mean, null, what);
  else assert.ok(Math.abs(a.mean - b.mean!) <= 1e-9, `${what}: shots to kill ${a.mean} vs ${b.mean}`);
}

describe('sim --vs-field', () => {
  for (const side of ['attacker', 'defender'] as const) {
    it(`Lumen Destroyer as the ${side} at 9": every example card without an error is a row, each equal to sim for the pair to 1e-9`, async () => {
      const r = await json<VsFieldResult>([`--${side}`, 'Lumen Destroyer', '--vs-field', '--range', '9', '--cards', EXAMPLES]);
      assert.equal(r[side], 'Lumen Destroyer');
      assert.equal(r.range, 9);
      assert.equal(r.source, 'cards');
      const other = side === 'attacker' ? 'defender' : 'attacker';
      const names = r.field.map((f) => f[other]!).sort();
      assert.deepEqual(names, cleanExampleNames());
      assert.ok(names.includes('Lumen Destroyer'), 'the card itself is a row');
      // The showcase cards with errors are left out, and said to be.
      assert.ok(r.left.some((l) => l.name === 'Gloam Interceptor'));
      for (let i = 1; i < r.field.length; i++)
        assert.ok((r.field[i - 1]!.pointsPerAction ?? -1) >= (r.field[i]!.pointsPerAction ?? -1), 'sorted highest first');
      for (const row of r.field) {
        const pair = side === 'attacker' ? ['Lumen Destroyer', row.defender!] : [row.attacker!, 'Lumen Destroyer'];
        const sim = await json<SimulationResult>(['--attacker', pair[0]!, '--defender', pair[1]!, '--range', '9', '--trials', '50', '--cards', EXAMPLES]);
        sameFigures(row, sim, pair.join(' at '));
        // pointsPerAction: expected bases lost x points per base, per 100 points of the attacker.
        const att = CARD_FACTS.get(pair[0]!)!;
        const def = CARD_FACTS.get(pair[1]!)!;
        const expected = (sim.volley.expectedBasesDestroyed * (def.points / def.bases) * 100) / att.points;
        assert.ok(Math.abs(row.pointsPerAction! - expected) <= 1e-9, `${pair.join(' at ')}: points per action`);
        // For a one-base card that is its kill chance x its points.
        if (def.bases === 1) assert.ok(Math.abs(row.pointsPerAction! - (sim.volley.killProbability * def.points * 100) / att.points) <= 1e-9);
      }
    });
  }

  it('prints a table with a row per card, and the cards left out', async () => {
    const r = await cli(['--attacker', 'Lumen Destroyer', '--vs-field', '--range', '9', '--cards', EXAMPLES]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Lumen Destroyer fires at each card of the field at 9"/);
    for (const name of cleanExampleNames()) assert.match(r.out, new RegExp(`\\n  ${name} `));
    assert.match(r.out, /Not in the field \(2\):/);
  });

  it('plays against the bundled examples when the cards given have none without an error', async () => {
    const io = memoryIO({ '/ws/broken.unit.yaml': 'faction: X\nunits:\n  - name: Lumen Destroyer\n    class: Cruser\n' });
    const code = await runSim(['--attacker', 'Lumen Destroyer', '--vs-field', '--format', 'json'], io);
    // The card given cannot be simulated (no class): it says so.
    assert.equal(code, 2);
    assert.match(io.err, /no known class/);
    const empty = memoryIO({ '/ws/notes.fleet.yaml': 'name: A\nfaction: X\npoints: 500\nunits: []\n' });
    assert.equal(await runSim(['--defender', 'Radiant Court', '--vs-field', '--format', 'json'], empty), 0, empty.err);
    const r = JSON.parse(empty.out) as VsFieldResult;
    assert.equal(r.source, 'examples');
    assert.equal(r.range, null);
    assert.deepEqual(r.field.map((f) => f.attacker!).sort(), cleanExampleNames());
  });

  for (const [args, re] of [
    [['--vs-field', '--cards', EXAMPLES], /takes one card/],
    [['--attacker', 'Lumen Destroyer', '--defender', 'Lumen Cruiser', '--vs-field', '--cards', EXAMPLES], /takes one card/],
    [['--attacker', 'Lumen Destroyer', '--vs-field', '--range', 'far', '--cards', EXAMPLES], /--range must be/],
    [['--attacker', 'Lumen Destroyer', '--vs-field', '--cover', '--cards', EXAMPLES], /Unknown option '--cover'/],
    [['--attacker', 'Lumen Destroyr', '--vs-field', '--cards', EXAMPLES], /Did you mean: "Lumen Destroyer"/],
  ] as const)
    it(`refuses ${args.filter((a) => a !== EXAMPLES).join(' ')} with a sentence (exit 2)`, async () => {
      const r = await cli([...args]);
      assert.equal(r.code, 2);
      assert.match(r.err, re);
      assert.equal(r.out, '');
    });
});
