/**
 * The fleet battle (BATTLE.md) against cases worked out by hand, scripted scenarios traced through
 * the engine's hooks, the duel as its one-unit case, and properties over generated fleets.
 *
 * d10 facts used: a target N+ (3 <= N <= 10) succeeds on N..10, i.e. (11 - N) / 10; natural 1-2
 * always fail. "Certain" kills use 1000 attacks at 3+: all miss with chance 0.2^1000, which is 0
 * in floating point, so the exact kernels make them certain.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { BattleRun, initiativeOdds } from '../../server/src/core/sim/battle';
import type { BattleHooks, BattleUnit, Fleet } from '../../server/src/core/sim/battle';
import { BattleSession, simulateBattle, gameSizeFor, validateBattleOptions } from '../../server/src/core/sim/fleet-battle';
import { simulateEngagement } from '../../server/src/core/sim/engagement';
import { makeRng } from '../../server/src/core/sim/dice';
import type { UnitProfile, WeaponProfile } from '../../server/src/core/sim/types';
import type { WeaponType } from '../../server/src/core/rules/data';

function unit(p: Partial<UnitProfile> = {}): UnitProfile {
  return { name: 'U', class: 'Destroyer', bases: 1, baseMm: 60, bs: 5, hp: 10, combinedShields: false, weapons: [], move: [9, 6], ...p };
}
function gun(type: WeaponType, attacks = 1, damage = 1, range = 12): WeaponProfile {
  return { name: `${type} gun`, type, range, damage, attacks };
}
function member(profile: UnitProfile, points = 100, extra: Partial<BattleUnit> = {}): BattleUnit {
  return { name: profile.name, copy: 1, points, profile, ...extra };
}
function fleet(name: string, units: BattleUnit[]): Fleet {
  return { name, faction: name, units };
}
/** Runs a battle to the end with raw totals. */
function run(a: Fleet, b: Fleet, setup: { range?: number; rounds?: number; trials?: number; seed?: number; depth?: number }, hooks: BattleHooks = {}) {
  const r = new BattleRun([a, b], { depth: 48, rounds: 6, trials: 2000, seed: 1, ...setup }, makeRng(setup.seed ?? 1), hooks);
  r.step();
  return r.outcome();
}
function within(actual: number, expected: number, se: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= 4 * se + 1e-12, `${what}: expected ${expected} ± ${4 * se}, got ${actual}`);
}

const killer = (name: string, ld?: UnitProfile['ld']) => unit({ name, bs: 3, hp: 1, ld, weapons: [gun('Energy', 1000)] });
const dummy = (name: string, p: Partial<UnitProfile> = {}) => unit({ name, hp: 1, ...p });

describe('battle: boarding worked out by hand', () => {
  // Both roll CR 10/1: one die each, a success only on a 10 (0.1). The attacker deals 1 HP exactly
  // when it succeeds and the defender does not: 0.1 x 0.9 = 0.09 per Board action.
  const boarder = unit({ name: 'Boarder', cr: { target: 10, dice: 1 }, hp: 5 });
  const hulk = (sh?: number) => unit({ name: 'Hulk', cr: { target: 10, dice: 1 }, hp: 1, sh });

  it('boards every activation and destroys a 1-HP target with 1 - 0.91^rounds', () => {
    const n = 40000;
    const o = run(fleet('A', [member(boarder)]), fleet('B', [member(hulk())]), { range: 3, rounds: 3, trials: n });
    const p = 1 - 0.91 ** 3;
    within(o.totals.annihilation[0] / n, p, Math.sqrt((p * (1 - p)) / n), 'P(Hulk destroyed)');
    // It boards each round until the target is gone: E[boards] = 1 + 0.91 + 0.91^2.
    const boards = 1 + 0.91 + 0.91 ** 2;
    assert.ok(Math.abs(o.totals.tally.boarded[0]! / n - boards) < 0.03, `boards per battle ${o.totals.tally.boarded[0]! / n}, expected ${boards}`);
    assert.equal(o.totals.annihilation[1], 0, 'the Hulk has nothing that deals damage');
  });

  it('never boards a target with shields up, or one beyond 3"', () => {
    for (const [range, target] of [
      [3, hulk(1)],
      [6, hulk()],
    ] as const) {
      const o = run(fleet('A', [member(boarder)]), fleet('B', [member(target)]), { range, trials: 500 });
      assert.equal(o.totals.tally.boarded[0], 0, `range ${range}`);
      assert.equal(o.totals.annihilation[0], 0);
    }
  });

  it('needs CR on the target too', () => {
    const o = run(fleet('A', [member(boarder)]), fleet('B', [member(unit({ name: 'No crew', hp: 1 }))]), { range: 0, trials: 500 });
    assert.equal(o.totals.tally.boarded[0], 0);
  });

  it('deals the difference of successes, 1 HP at a time, none lost', () => {
    // CR 3/10 (0.8 per die) against CR 10/1: the attacker's 10 dice almost always beat one die by
    // several successes; a 20-HP target loses the difference each time, so 3 boards never kill
    // it but remove about 3 x (8 - 0.1) HP.
    const big = unit({ name: 'Big', cr: { target: 3, dice: 10 }, hp: 5 });
    const tank = unit({ name: 'Tank', cr: { target: 10, dice: 1 }, hp: 40 });
    const n = 5000;
    const session = new BattleSession([fleet('A', [member(big)]), fleet('B', [member(tank, 400)])], { range: 3, rounds: 3, trials: n });
    session.step();
    const r = session.result();
    assert.equal(r.sides[0].annihilation.p, 0);
    assert.ok(Math.abs(r.sides[0].units[0]!.boarded - 3) < 1e-12, 'one Board per activation, every round');
  });
});

describe('battle: ramming worked out by hand', () => {
  // Tonnage 2: two dice, each a hit on 5+ (0.6). One round, the target has 1 HP, no D, no AC.
  const rammer = (hp: number) => unit({ name: 'Rammer', tonnage: 2, hp });
  it('destroys a 1-HP target with 1 - 0.4^2 = 0.84 in one Ram', () => {
    const n = 40000;
    const o = run(fleet('A', [member(rammer(5))]), fleet('B', [member(dummy('Target'))]), { range: 0, rounds: 1, trials: n });
    within(o.totals.annihilation[0] / n, 0.84, Math.sqrt((0.84 * 0.16) / n), 'P(rammed to death)');
    assert.equal(o.totals.tally.rammed[0], n, 'one Ram per activation');
  });

  it('lets the target dodge each hit (D 6+: 0.5) but a natural 10, so a die lands with 0.1 + 0.5 x 0.5 = 0.35', () => {
    const n = 40000;
    const o = run(fleet('A', [member(rammer(5))]), fleet('B', [member(dummy('Dodger', { dodge: 6 }))]), { range: 0, rounds: 1, trials: n });
    const p = 1 - 0.65 ** 2;
    within(o.totals.annihilation[0] / n, p, Math.sqrt((p * (1 - p)) / n), 'P(rammed to death)');
  });

  it('hurts the rammer too: two 1-HP units die together, and nobody wins', () => {
    const n = 20000;
    const o = run(fleet('A', [member(rammer(1))]), fleet('B', [member(dummy('Target'))]), { range: 0, rounds: 1, trials: n });
    // Every hit left hits both: both die with 0.84, nobody is destroyed otherwise.
    assert.equal(o.totals.annihilation[0] + o.totals.annihilation[1], 0, 'mutual destruction is no annihilation win');
    within(o.totals.draws / n, 1, 0, 'equal points destroyed: a draw');
    within(1 - o.totals.alive[0]![0]! / n, 0.84, Math.sqrt((0.84 * 0.16) / n), 'P(rammer destroyed)');
  });

  it('rams only as a last resort: a unit with a weapon in reach fires instead', () => {
    const armed = unit({ name: 'Armed', tonnage: 5, weapons: [gun('Energy', 1, 1, 3)] });
    const o = run(fleet('A', [member(armed)]), fleet('B', [member(dummy('Target', { hp: 30 }))]), { range: 0, trials: 200 });
    assert.equal(o.totals.tally.rammed[0], 0);
    assert.ok(o.totals.tally.fired[0]! > 0);
  });
});

describe('battle: initiative and Action Tokens, scripted', () => {
  it('a side that lost more units spends its tokens while the other has more units waiting', () => {
    // A: four unarmed 1-HP units without LD. B: two certain killers and two idle units, with LD,
    // so B always activates first (A rolls nothing: initiativeOdds(none, LD) = 0).
    const a = fleet(
      'A',
      ['a1', 'a2', 'a3', 'a4'].map((n) => member(dummy(n))),
    );
    const b = fleet('B', [member(killer('k1', { target: 5, dice: 3 })), member(killer('k2')), member(dummy('i1', { hp: 5 })), member(dummy('i2', { hp: 5 }))]);
    const trace: string[] = [];
    const names = [...a.units, ...b.units].map((u) => u.name);
    run(
      a,
      b,
      { range: 12, rounds: 3, trials: 1 },
      { onActivation: (u, v) => trace.push(`${v.round}:${names[u]}`), onToken: (s, v) => trace.push(`${v.round}:token${'AB'[s]}`) },
    );
    assert.deepEqual(trace, [
      // Round 1: k1 kills a1 (the first of equal targets), a2 acts, k2 kills a2, a3, i1, a4, i2.
      '1:k1',
      '1:a2',
      '1:k2',
      '1:a3',
      '1:i1',
      '1:a4',
      '1:i2',
      // Round 2: A lost 2 units, B none: A gains 2 Action Tokens. k1 kills a3; A has 1 waiting
      // against B's 3, so it spends a token; k2 kills a4 and the battle is over.
      '2:k1',
      '2:tokenA',
      '2:k2',
    ]);
  });

  it('rolls the LD of the unit with the most expected successes on each side', () => {
    // Side A: LD 9/1 (0.2 expected) and LD 4/6 (4.2); side B: LD 6/3 (1.5). Who acts first each
    // round follows initiativeOdds(4/6, 6/3).
    const p = initiativeOdds({ target: 4, dice: 6 }, { target: 6, dice: 3 });
    const a = fleet('A', [member(dummy('weak', { ld: { target: 9, dice: 1 }, hp: 1000 })), member(dummy('strong', { ld: { target: 4, dice: 6 }, hp: 1000 }))]);
    const b = fleet('B', [member(dummy('b', { ld: { target: 6, dice: 3 }, hp: 1000 }))]);
    let rounds = 0;
    let firstA = 0;
    let last = -1;
    const n = 5000;
    run(
      a,
      b,
      { range: 12, rounds: 4, trials: n },
      {
        onActivation: (u, v) => {
          const key = v.round;
          if (key !== last || u === -1) {
            // The first activation of each round.
            rounds++;
            if (v.side[u] === 0) firstA++;
          }
          last = key;
        },
        endOfRound: () => {
          last = -1;
        },
      },
    );
    assert.equal(rounds, 4 * n);
    within(firstA / rounds, p, Math.sqrt((p * (1 - p)) / rounds) * 2, 'P(side A first)');
  });
});

describe('battle: embarked units', () => {
  it('launch from their host once it is on the table, moving on from its position', () => {
    const host = unit({ name: 'Host', hp: 50, move: [6, 6] });
    const fighter = unit({ name: 'Fighter', class: 'Fighter', bases: 4, baseMm: 25, hp: 1, move: [9, 6], weapons: [gun('Energy', 1, 1, 6)] });
    const far = unit({ name: 'Far', hp: 50, move: [3], weapons: [] });
    const a = fleet('A', [member(host), member(fighter, 60, { host: 0 })]);
    const b = fleet('B', [member(far)]);
    const seen: string[] = [];
    run(
      a,
      b,
      { rounds: 2, trials: 1, depth: 48 },
      {
        onActivation: (u, v) => {
          if (u === 0) seen.push(`host@${v.pos[0]}`);
          if (u === 1) {
            assert.equal(v.onTable[0], 1, 'the host is on the table before its fighter launches');
            seen.push(`fighter@${v.pos[1]}`);
          }
        },
      },
    );
    // Round 1: the host enters 6" and moves 6" more (out of reach of everything: it has no weapon,
    // so it closes in); the fighter launches from 12" and moves 9" + 6" (its reach is 6").
    assert.deepEqual(seen.slice(0, 2), ['host@12', 'fighter@27']);
  });

  it('die with their host when it is destroyed before they launch, and count as destroyed points', () => {
    const host = dummy('Host');
    const fighter = unit({ name: 'Fighter', class: 'Fighter', bases: 4, baseMm: 25, hp: 1, weapons: [gun('Energy', 1, 1, 6)] });
    const a = fleet('A', [member(host, 190), member(fighter, 60, { host: 0 })]);
    const b = fleet('B', [member(killer('Killer', { target: 3, dice: 10 }), 145)]);
    const r = simulateBattle([a, b], { range: 12, trials: 200 });
    assert.equal(r.sides[1].annihilation.p, 1, 'the killer acts first and destroys the host; the fighter dies with it');
    assert.deepEqual(r.sides[0].units[1]!.alive, [0, 0, 0, 0, 0, 0]);
    assert.equal(r.sides[0].units[1]!.fired, 0);
    assert.equal(r.sides[1].pointsDestroyed.mean, 250);
  });
});

describe('battle: the duel is its one-unit case', () => {
  const att = unit({ name: 'Att', sh: 3, armour: 6, ld: { target: 5, dice: 3 }, weapons: [gun('Energy', 3, 2), gun('Ion', 4, 1, 18)] });
  const def = unit({ name: 'Def', dodge: 8, hp: 8, armour: 5, ld: { target: 6, dice: 3 }, weapons: [gun('Piercing', 3, 2)] });
  for (const [range, seed] of [
    [12, 1],
    [18, 7],
    [3, 11],
  ] as const)
    it(`two one-unit fleets at ${range}" give the duel's numbers from seed ${seed}`, () => {
      const duel = simulateEngagement(att, def, { range, seed, trials: 3000, rounds: 5 });
      const battle = simulateBattle([fleet('A', [member(att)]), fleet('B', [member(def)])], { range, seed, trials: 3000, rounds: 5 });
      assert.equal(battle.sides[0].annihilation.p, duel.attackerWins);
      assert.equal(battle.sides[1].annihilation.p, duel.defenderWins);
      assert.ok(Math.abs(battle.meanRounds - duel.meanRounds) < 1e-12);
      assert.deepEqual(
        battle.sides[0].units[0]!.alive,
        duel.survival.map((s) => s.attacker),
      );
      assert.deepEqual(
        battle.sides[1].units[0]!.alive,
        duel.survival.map((s) => s.defender),
      );
    });
});

describe('battle: options and game sizes', () => {
  it('approaches on the table of the game size', () => {
    assert.equal(gameSizeFor([500, 500]).depth, 36);
    assert.equal(gameSizeFor([1000, 500]).depth, 48);
    assert.equal(gameSizeFor([2000]).depth, 44);
    assert.equal(gameSizeFor([750]).name, 'Standard');
    assert.equal(gameSizeFor([99999]).name, 'Battle');
    assert.equal(gameSizeFor([undefined]).name, 'Skirmish');
  });
  for (const bad of [{ trials: 0 }, { trials: '1e99' }, { rounds: 101 }, { range: -1 }, { seed: 1.5 }, { warp: 9 }, [1], 'x'])
    it(`rejects ${JSON.stringify(bad)} with a sentence`, () => {
      const v = validateBattleOptions(bad);
      assert.equal(v.options, undefined);
      assert.ok(v.errors.length > 0 && v.errors.every((e) => e.endsWith('.')));
    });
});

describe('battle: properties', function () {
  this.timeout(600000);
  const weapon = fc.record({
    name: fc.constant('w'),
    type: fc.constantFrom<WeaponType>('Energy', 'Auto', 'Piercing', 'Ion', 'Blast'),
    range: fc.constantFrom(6, 12, 18),
    damage: fc.integer({ min: 1, max: 3 }),
    attacks: fc.integer({ min: 1, max: 4 }),
  });
  const profile = fc.record({
    name: fc.constantFrom('P', 'Q', 'R'),
    class: fc.constant<UnitProfile['class']>('Destroyer'),
    bases: fc.constant(1),
    baseMm: fc.constant(60),
    bs: fc.integer({ min: 4, max: 7 }),
    hp: fc.integer({ min: 2, max: 6 }),
    sh: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    armour: fc.option(fc.integer({ min: 5, max: 8 }), { nil: undefined }),
    dodge: fc.option(fc.integer({ min: 7, max: 9 }), { nil: undefined }),
    ld: fc.option(fc.record({ target: fc.integer({ min: 4, max: 8 }), dice: fc.integer({ min: 1, max: 4 }) }), { nil: undefined }),
    cr: fc.option(fc.record({ target: fc.integer({ min: 4, max: 8 }), dice: fc.integer({ min: 1, max: 4 }) }), { nil: undefined }),
    tonnage: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    move: fc.constantFrom([6], [9, 6], [6, 3]).map((m) => [...m]),
    combinedShields: fc.constant(false),
    weapons: fc.array(weapon, { minLength: 1, maxLength: 2 }),
  });
  const fleetArb = fc.array(fc.tuple(profile, fc.integer({ min: 50, max: 300 })), { minLength: 1, maxLength: 3 });
  const toFleet = (name: string, units: [UnitProfile, number][]) =>
    fleet(
      name,
      units.map(([p, pts], i) => ({ name: `${p.name}${i}`, copy: 1, points: pts, profile: p })),
    );
  const mode = fc.constantFrom<number | undefined>(undefined, 6, 12);
  const N = 1500;

  it('mirror fleets win equally often within 4 standard errors; chances sum to 1', () => {
    fc.assert(
      fc.property(fleetArb, mode, fc.integer({ min: 0, max: 1000 }), (units, range, seed) => {
        const f = toFleet('M', units);
        const r = simulateBattle([f, f], { range, seed, trials: N });
        const [a, b] = r.sides;
        assert.ok(Math.abs(a.pointsVictory.p + b.pointsVictory.p + r.draw.p - 1) < 1e-12, 'points victory and draw sum to 1');
        assert.ok(a.annihilation.p + b.annihilation.p <= 1 + 1e-12);
        const d = a.pointsVictory.p - b.pointsVictory.p;
        const se = Math.sqrt(Math.max(1e-12, a.pointsVictory.p + b.pointsVictory.p - d * d) / N);
        assert.ok(Math.abs(d) <= 4 * se + 1e-9, `points victory ${a.pointsVictory.p} vs ${b.pointsVictory.p}`);
        const da = a.annihilation.p - b.annihilation.p;
        const sea = Math.sqrt(Math.max(1e-12, a.annihilation.p + b.annihilation.p - da * da) / N);
        assert.ok(Math.abs(da) <= 4 * sea + 1e-9, `annihilation ${a.annihilation.p} vs ${b.annihilation.p}`);
      }),
      { numRuns: 12, seed: 20261130 },
    );
  });

  it("points destroyed never exceed the opponent's points", () => {
    fc.assert(
      fc.property(fleetArb, fleetArb, mode, (ua, ub, range) => {
        const a = toFleet('A', ua);
        const b = toFleet('B', ub);
        const o = run(a, b, { range, trials: 400 });
        const pts = [a, b].map((f) => f.units.reduce((t, u) => t + u.points, 0));
        for (const s of [0, 1]) for (const x of o.totals.pointsDestroyed[s]!) assert.ok(x <= pts[1 - s]! + 1e-9 && x >= 0, `${x} of ${pts[1 - s]}`);
      }),
      { numRuns: 15, seed: 7 },
    );
  });

  it('adding a unit to a side never lowers its chances beyond 4 standard errors', () => {
    fc.assert(
      fc.property(fleetArb, fleetArb, fc.constantFrom(6, 12), fc.nat(2), (ua, ub, range, pick) => {
        const a = toFleet('A', ua);
        const b = toFleet('B', ub);
        const extra = a.units[pick % a.units.length]!;
        const bigger = fleet('A', [...a.units, { ...extra, name: `${extra.name}+`, copy: 2 }]);
        const before = simulateBattle([a, b], { range, trials: N, seed: 3 });
        const after = simulateBattle([bigger, b], { range, trials: N, seed: 3 });
        const check = (x: number, y: number, what: string) => {
          const se = Math.sqrt((x * (1 - x) + y * (1 - y)) / N);
          assert.ok(y >= x - 4 * se - 1e-9, `${what}: ${x} -> ${y}`);
        };
        check(before.sides[0].annihilation.p, after.sides[0].annihilation.p, 'annihilating the opponent');
        check(1 - before.sides[1].annihilation.p, 1 - after.sides[1].annihilation.p, 'surviving');
      }),
      { numRuns: 10, seed: 11 },
    );
  });

  it('a side that cannot reach the other never destroys anything', () => {
    fc.assert(
      fc.property(fleetArb, fleetArb, (ua, ub) => {
        // At a fixed 30" nothing with a range of at most 18" fires, and Board and Ram need 3" and contact.
        const a = toFleet('A', ua);
        const far = toFleet(
          'B',
          ub.map(([p, pts]) => [{ ...p, weapons: p.weapons.map((w) => ({ ...w, range: 30 })) }, pts]),
        );
        const o = run(a, far, { range: 30, trials: 300 });
        assert.ok(o.totals.pointsDestroyed[0].every((x) => x === 0));
        assert.equal(o.totals.annihilation[0], 0);
        assert.ok([...o.totals.tally.fired.slice(0, a.units.length)].every((x) => x === 0));
      }),
      { numRuns: 15, seed: 5 },
    );
  });

  it('boarding happens where it is the only way to deal damage, approaching from the table edges', () => {
    const boarder = unit({ name: 'Boarder', cr: { target: 4, dice: 4 }, hp: 6, move: [9, 6] });
    const target = unit({ name: 'Target', cr: { target: 8, dice: 1 }, hp: 6, move: [6] });
    const r = simulateBattle([fleet('A', [member(boarder)]), fleet('B', [member(target)])], { trials: 2000, rounds: 6 });
    assert.ok(r.sides[0].units[0]!.boarded > 1, `boards per battle ${r.sides[0].units[0]!.boarded}`);
    assert.ok(r.sides[0].pointsDestroyed.mean > 0);
    assert.ok(r.sides[0].annihilation.p > 0.5);
  });
});

describe('battle: work budget', () => {
  const absurd = unit({ name: 'Absurd', hp: 1e9, weapons: Array.from({ length: 300 }, (_, i) => ({ ...gun('Auto', 500, 1, 12), name: `w${i}` })) });
  it('ends each trial at its work limit, plays every trial and says so, the same way every time', () => {
    const go = () =>
      simulateBattle(
        [fleet('A', [member(absurd)]), fleet('B', [member({ ...absurd, name: 'Other' })])],
        { range: 12, trials: 20, rounds: 100 },
        // About 7 million a trial: each ends at its limit (within an activation, about 40,000), scored as it stood.
        { workLimit: 3e5 },
      );
    const r = go();
    assert.equal(r.trials, 20);
    assert.equal(r.cutTrials, 20);
    assert.ok(r.assumptions.some((a) => a.startsWith('Cut short: 20 of 20 trials reached the work limit of one battle')));
    assert.deepEqual(go(), r, 'counted work, not time: the same cut every run');
  });

  it('gives the same numbers however the work is sliced', () => {
    const a = fleet('A', [member(unit({ name: 'A', weapons: [gun('Energy', 3, 2)] }))]);
    const b = fleet('B', [member(unit({ name: 'B', weapons: [gun('Piercing', 2, 2)] }))]);
    const whole = simulateBattle([a, b], { range: 12, trials: 3000 });
    const s = new BattleSession([a, b], { range: 12, trials: 3000 });
    let slices = 0;
    while (!s.step(500)) slices++;
    assert.ok(slices > 5, `ran in ${slices} slices`);
    assert.deepEqual(s.result(), whole);
  });
});
