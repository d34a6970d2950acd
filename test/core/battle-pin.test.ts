/**
 * The battle engine's numbers, pinned: `battle --format json` (and one text report, and one duel
 * of `sim`) for the bundled example fleets, byte for byte, as the engine gave them when these files
 * were written. Work on the engine's speed must not move a single byte: the same seed draws the
 * same numbers in the same order. The cases cover the approach, embarked craft launching,
 * boarding, a fixed range at boarding distance, rule variants' hooks (rolls, routs, damage
 * allocation), ramming (a small fleet of its own: no bundled card rams) and the duel.
 *
 * A change that moves the figures on purpose (a rule read anew) writes the files again with
 * `BATTLE_PIN_WRITE=1` and this test, and says why in its commit.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBattle } from '../../server/src/cli/battle';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO, type CliIO } from '../../server/src/cli/io';
import { memoryIO } from './memoryIO';
import { EXAMPLES } from '../exampleFleets';

const GOLDEN = join(__dirname, 'battle-pin');
const WRITE = process.env.BATTLE_PIN_WRITE === '1';

const fleet = (name: string) => join(EXAMPLES, 'fleets', `${name}.fleet.yaml`);
const pair = (a: string, b: string) => ['--fleet', fleet(a), '--vs', fleet(b), '--cards', EXAMPLES, '--threads', '1'];
const STANDARD = pair('standard-1000', 'standard-1000-myr-valari');

/** A unit that has no weapon but Tonnage closes to base contact and rams (BATTLE.md); no bundled card does. */
const RAM_FILES: Record<string, string> = {
  '/ws/cards/ram.unit.yaml': `faction: Testers
units:
  - name: Ram Hulk
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons: []
  - name: Maw Frigate
    class: Frigate
    points: 110
    stats: "9/3 6+ 8+ 2 6+ 3 - 6/2 2"
    weapons:
      - Maw Cannon — Piercing, 12", 2, 3
`,
  '/ws/a.fleet.yaml': `name: Rams
faction: Testers
points: 500
units:
  - unit: Ram Hulk
    count: 2
  - unit: Maw Frigate
`,
  '/ws/b.fleet.yaml': `name: Maws
faction: Testers
points: 500
units:
  - unit: Maw Frigate
    count: 3
`,
};

interface Case {
  file: string;
  run: (argv: string[], io: CliIO) => number | Promise<number>;
  argv: string[];
  files?: Record<string, string>;
}

const CASES: Case[] = [
  { file: 'standard-1000.json', run: runBattle, argv: [...STANDARD, '--trials', '3000', '--seed', '1', '--format', 'json'] },
  { file: 'standard-1000.txt', run: runBattle, argv: [...STANDARD, '--trials', '2000', '--seed', '11'] },
  { file: 'battle-2000.json', run: runBattle, argv: [...pair('battle-2000', 'battle-2000-consumed'), '--trials', '2000', '--seed', '2', '--format', 'json'] },
  { file: 'skirmish-500.json', run: runBattle, argv: [...pair('skirmish-500', 'standard-1000'), '--trials', '3000', '--seed', '3', '--format', 'json'] },
  { file: 'range-3.json', run: runBattle, argv: [...STANDARD, '--range', '3', '--trials', '2000', '--seed', '4', '--format', 'json'] },
  { file: 'break-tests.json', run: runBattle, argv: [...STANDARD, '--variant', 'break-tests', '--trials', '2000', '--seed', '5', '--format', 'json'] },
  {
    file: 'sustained-damage.json',
    run: runBattle,
    argv: [...pair('battle-2000', 'battle-2000-consumed'), '--variant', 'sustained-damage', '--trials', '1000', '--seed', '6', '--format', 'json'],
  },
  {
    file: 'ram.json',
    run: runBattle,
    argv: ['--fleet', '/ws/a.fleet.yaml', '--vs', '/ws/b.fleet.yaml', '--threads', '1', '--trials', '3000', '--seed', '7', '--format', 'json'],
    files: RAM_FILES,
  },
  {
    file: 'duel.json',
    run: runSim,
    argv: ['--attacker', 'Radiant Court', '--defender', 'Hollow Throne', '--cards', EXAMPLES, '--trials', '5000', '--seed', '8', '--format', 'json'],
  },
];

async function output(c: Case): Promise<string> {
  let out = '';
  let err = '';
  const base = c.files ? memoryIO(c.files) : nodeIO();
  const io: CliIO = { ...base, stdout: (s) => (out += s), stderr: (s) => (err += s) };
  assert.equal(await c.run(c.argv, io), 0, err);
  return out;
}

describe('battle pin: the example battles give the same bytes for the same seed', function () {
  this.timeout(300_000);
  if (WRITE) mkdirSync(GOLDEN, { recursive: true });
  for (const c of CASES)
    it(`${c.file}: ${c.argv.filter((a) => !a.startsWith('/')).join(' ')}`, async () => {
      const got = await output(c);
      const path = join(GOLDEN, c.file);
      if (WRITE) writeFileSync(path, got);
      assert.equal(got, readFileSync(path, 'utf8'));
    });

  it('the pinned runs exercise what they are there for: boarding, ramming, routs, launches', () => {
    const sides = (f: string) =>
      (JSON.parse(readFileSync(join(GOLDEN, f), 'utf8')) as { sides: { units: { boarded: number; rammed: number; fired: number; name: string }[] }[] }).sides;
    const all = (f: string) => sides(f).flatMap((s) => s.units);
    assert.ok(
      all('standard-1000.json').some((u) => u.boarded > 0.1),
      'boarding in the approach',
    );
    assert.ok(
      all('range-3.json').some((u) => u.boarded > 0.5),
      'boarding at 3"',
    );
    assert.ok(
      all('ram.json').some((u) => u.rammed > 0.5),
      'ramming',
    );
    assert.ok(
      all('battle-2000.json').some((u) => /Fighter/.test(u.name) && u.fired > 0.5),
      'launched craft fire',
    );
    assert.match(readFileSync(join(GOLDEN, 'break-tests.json'), 'utf8'), /"routed"/);
  });
});
