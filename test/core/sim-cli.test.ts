/**
 * `fabled-star sim` through `runSim` with an in-memory file system: options as FORMATS.md lists
 * them, the JSON shape, the text report, and every way the input can be wrong (exit 2, a sentence).
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { runSim, closestNames } from '../../server/src/cli/sim';
import { nodeIO, type CliIO } from '../../server/src/cli/io';
import { memoryIO } from './memoryIO';

const CARDS = `faction: Testers
units:
  - name: Lance Destroyer
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Lance — Energy, 18", 2, 3
      - Pulse — Ion, 9", 2, 4
  - name: Maw Frigate
    class: Frigate
    points: 110
    stats: "9/3 6+ 8+ 2 6+ 3 - - 2"
    weapons:
      - Maw Cannon — Piercing, 12", 2, 3
  - name: Broken Card
    class: Cruiser
    points: 190
    stats: { M: 9, BS: 5+ }
`;

const FILES = { '/ws/cards/test.unit.yaml': CARDS };
const BASE = ['--cards', '/ws/cards', '--attacker', 'Lance Destroyer', '--defender', 'Maw Frigate', '--trials', '2000'];

describe('sim CLI', () => {
  it('prints the JSON of FORMATS.md', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runSim([...BASE, '--format', 'json', '--range', '12', '--seed', '5'], io), 0, io.err);
    const r = JSON.parse(io.out);
    assert.equal(r.attacker, 'Lance Destroyer');
    assert.equal(r.defender, 'Maw Frigate');
    assert.equal(r.volley.method, 'exact');
    for (const k of ['expectedShieldsRemoved', 'expectedHullDamage', 'killProbability']) assert.equal(typeof r.volley[k], 'number', k);
    assert.ok(
      Array.isArray(r.volley.hullDamage) &&
        r.volley.hullDamage.every((p: { value: number; p: number }) => typeof p.value === 'number' && typeof p.p === 'number'),
    );
    assert.deepEqual([r.engagement.rounds, r.engagement.trials, r.engagement.seed], [6, 2000, 5]);
    assert.ok(Math.abs(r.engagement.attackerWins + r.engagement.defenderWins + r.engagement.neither - 1) < 1e-9);
    // The Ion weapon (9") does not reach 12".
    assert.deepEqual(
      r.volley.weapons.map((w: { inRange: boolean }) => w.inRange),
      [true, false],
    );
  });

  it('passes every option through', async () => {
    const io = memoryIO(FILES);
    const args = [
      ...BASE,
      '--format',
      'json',
      '--cover',
      '--brace',
      '--aim',
      'Pulse',
      '--range',
      '9',
      '--defender-shields',
      '1',
      '--defender-bases',
      '1',
      '--attacker-bases',
      '1',
      '--rounds',
      '2',
      '--seed',
      '9',
    ];
    assert.equal(await runSim(args, io), 0, io.err);
    const r = JSON.parse(io.out);
    assert.deepEqual(r.options, {
      range: 9,
      cover: true,
      aim: 'Pulse',
      brace: true,
      defenderShields: 1,
      attackerBases: 1,
      defenderBases: 1,
      rounds: 2,
      trials: 2000,
      seed: 9,
    });
    assert.equal(r.volley.weapons[1].aimed, true);
    assert.equal(r.engagement.rounds, 2);
  });

  it('the same seed prints the same numbers', async () => {
    const a = memoryIO(FILES);
    const b = memoryIO(FILES);
    await runSim([...BASE, '--format', 'json', '--seed', '42'], a);
    await runSim([...BASE, '--format', 'json', '--seed', '42'], b);
    assert.equal(a.out, b.out);
  });

  it('prints a readable report by default', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runSim(BASE, io), 0, io.err);
    assert.match(io.out, /Lance Destroyer fires at Maw Frigate/);
    assert.match(io.out, /Weapon\s+Type\s+Attacks/);
    assert.match(io.out, /\| #+/);
    assert.match(io.out, /Maw Frigate wins/);
  });

  it('--help exits 0 and lists the options', async () => {
    const io = memoryIO(FILES);
    assert.equal(await runSim(['--help'], io), 0);
    for (const flag of [
      '--attacker',
      '--defender',
      '--cards',
      '--cover',
      '--aim',
      '--brace',
      '--range',
      '--defender-shields',
      '--attacker-bases',
      '--defender-bases',
      '--rounds',
      '--trials',
      '--seed',
      '--format',
    ])
      assert.ok(io.out.includes(flag), flag);
  });

  const failures: [string, string[], RegExp][] = [
    [
      'an unknown card, with the closest names',
      ['--cards', '/ws/cards', '--attacker', 'Lance Destroyr', '--defender', 'Maw Frigate'],
      /Unknown attacker card "Lance Destroyr"\. Did you mean: "Lance Destroyer"/,
    ],
    [
      'a card the simulator cannot use',
      ['--cards', '/ws/cards', '--attacker', 'Broken Card', '--defender', 'Maw Frigate'],
      /cannot be simulated: Broken Card: HP is missing/,
    ],
    ['no defender', ['--cards', '/ws/cards', '--attacker', 'Maw Frigate'], /--attacker NAME and --defender NAME/],
    ['a negative trial count', [...BASE.slice(0, 6), '--trials=-5'], /--trials must be a whole number/],
    ['--trials given twice (it would play the second)', [...BASE, '--trials=5'], /--trials is given twice; give it once/],
    ['a non-numeric range', [...BASE, '--range', 'far'], /range must be a distance/],
    ['too many shields', [...BASE, '--defender-shields', '9'], /--defender-shields 9 is more than Maw Frigate can hold \(4 = 2 per base x 2\)/],
    ['an unknown weapon to aim', [...BASE, '--aim', 'Cannon'], /its weapons are 0: Lance, 1: Pulse/],
    ['an unknown flag', [...BASE, '--warp'], /Unknown option '--warp'/],
    ['a wrong format', [...BASE, '--format', 'xml'], /--format must be text or json/],
    ['a missing folder', ['--cards', '/nowhere', '--attacker', 'a', '--defender', 'b'], /no such file or folder: \/nowhere/],
  ];
  for (const [what, args, re] of failures)
    it(`exits 2 on ${what}`, async () => {
      const io = memoryIO(FILES);
      assert.equal(await runSim(args, io), 2);
      assert.match(io.err, re);
      assert.equal(io.out, '');
    });

  it('suggests names by substring and edit distance', () => {
    assert.deepEqual(closestNames('frigate', ['Maw Frigate', 'Lance Destroyer', 'Prism Frigate Squadron']), ['Maw Frigate', 'Prism Frigate Squadron']);
    assert.deepEqual(closestNames('zzzzzzzzzzzz', ['Maw Frigate']), []);
  });

  it('runs on the examples folder from disk', async () => {
    const real = nodeIO();
    let out = '';
    let err = '';
    const io: CliIO = { ...real, stdout: (s) => (out += s), stderr: (s) => (err += s) };
    const examples = path.join(__dirname, '..', '..', 'examples');
    const code = await runSim(
      ['--cards', examples, '--attacker', 'Lumen Destroyer', '--defender', 'Consumed Maw Frigate', '--format', 'json', '--trials', '1000'],
      io,
    );
    assert.equal(code, 0, err);
    assert.equal(JSON.parse(out).volley.method, 'exact');
  });
});
