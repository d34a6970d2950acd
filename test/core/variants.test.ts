/**
 * Rule variants from other games (BATTLE.md "Rule variants"): each on cases worked out by hand, and
 * the invariants the issue names as properties over generated cards and fleets:
 * - sustained-damage changes nothing for single-base units and changes squadrons;
 * - retreat never lowers the retreating side's survival (nor the other side's: the battle just ends);
 * - break-tests: routed units never fire again and count as lost;
 * - morale always ends within three rounds with a winner.
 *
 * d10 facts used: a target N+ succeeds on N..10, i.e. (11 - N) / 10. "Certain" kills use 1000
 * attacks at 3+ (all miss with chance 0.2^1000, 0 in floating point).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { BattleRun } from '../../server/src/core/sim/battle';
import type { BattleHooks, BattleUnit, Fleet } from '../../server/src/core/sim/battle';
import { simulateBattle, validateBattleOptions } from '../../server/src/core/sim/fleet-battle';
import { simulateEngagement } from '../../server/src/core/sim/engagement';
import { applyHits, planFire } from '../../server/src/core/sim/fire';
import { exactVolley } from '../../server/src/core/sim/volley-exact';
import { makeRng } from '../../server/src/core/sim/dice';
import { composeVariants, parseVariants, readVariantSpec, VARIANT_NAMES, variantSpec } from '../../server/src/core/sim/variants/index';
import { variantEffects } from '../../server/src/core/sim/variants/catalog';
import { sustainedHits } from '../../server/src/core/sim/variants/sustained-damage';
import { comparedDone, comparedProgress, pairRuns, stepCompared } from '../../server/src/core/sim/variants/compare';
import { simulate, SimulationRun } from '../../server/src/core/sim/index';
import type { BattleResult, UnitProfile, WeaponProfile } from '../../server/src/core/sim/types';
import type { WeaponType } from '../../server/src/core/rules/data';
import { propertySettings } from './property-settings';

function unit(p: Partial<UnitProfile> = {}): UnitProfile {
  return { name: 'U', class: 'Destroyer', bases: 1, baseMm: 60, bs: 5, hp: 10, combinedShields: false, weapons: [], move: [9, 6], ...p };
}
function gun(type: WeaponType, attacks = 1, damage = 1, range = 12): WeaponProfile {
  return { name: `${type} gun`, type, range, damage, attacks };
}
function member(profile: UnitProfile, points = 100): BattleUnit {
  return { name: profile.name, copy: 1, points, profile };
}
function fleet(name: string, units: BattleUnit[]): Fleet {
  return { name, faction: name, units };
}
function within(actual: number, expected: number, n: number, what: string): void {
  const se = Math.sqrt((expected * (1 - expected)) / n);
  assert.ok(Math.abs(actual - expected) <= 4 * se + 1e-9, `${what}: expected ${expected} ± ${4 * se}, got ${actual}`);
}
function variantBattle(a: Fleet, b: Fleet, variants: string[], setup: { range?: number; rounds?: number; trials?: number; seed?: number } = {}): BattleResult {
  return simulateBattle([a, b], { range: 12, trials: 2000, ...setup, variants });
}
const killer = (name: string, p: Partial<UnitProfile> = {}) => unit({ name, bs: 3, hp: 1, weapons: [gun('Energy', 1000)], ...p });

describe('variants: choosing them', () => {
  it('knows the four variants and rejects unknown names with the list', () => {
    assert.deepEqual([...VARIANT_NAMES], ['sustained-damage', 'break-tests', 'retreat', 'morale']);
    const r = parseVariants(['morale', 'flanking']);
    assert.equal(r.choices, undefined);
    assert.match(r.errors.join(' '), /Unknown variant "flanking"; the variants are sustained-damage, break-tests, retreat, morale\./);
  });

  it('rejects a conflicting combination and says why', () => {
    const r = parseVariants(['retreat', 'morale']);
    assert.equal(r.choices, undefined);
    assert.match(r.errors[0]!, /^Variants morale and retreat cannot be combined: /);
  });

  it('reads parameters with their defaults, bounds and clear errors', () => {
    assert.deepEqual(parseVariants(['retreat']).choices, [{ name: 'retreat', parameters: { threshold: 0.5 } }]);
    assert.deepEqual(parseVariants(['retreat:threshold=0.25']).choices, [{ name: 'retreat', parameters: { threshold: 0.25 } }]);
    assert.match(parseVariants(['retreat:threshold=2']).errors[0]!, /retreat:threshold must be the share .* \(0\.01 to 1\), not "2"/);
    assert.match(parseVariants(['retreat:nerve=1']).errors[0]!, /has no parameter "nerve"; its parameters are threshold/);
    assert.match(parseVariants(['morale:x=1']).errors[0]!, /takes no parameters/);
    assert.match(parseVariants([42]).errors[0]!, /must be a name/);
    // Twice would silently keep one of two thresholds: refused, with the way to give both parameters.
    assert.match(parseVariants(['retreat', 'retreat:threshold=0.9']).errors[0]!, /Variant retreat is given twice; give it once/);
    assert.match(parseVariants(['morale', 'Morale']).errors[0]!, /Variant morale is given twice/);
  });

  it('writes a choice as one string with every parameter, which reads back as the same choice', () => {
    assert.equal(variantSpec('retreat'), 'retreat:threshold=0.5');
    assert.equal(variantSpec('retreat', { threshold: 0.3 }), 'retreat:threshold=0.3');
    assert.equal(variantSpec('morale'), 'morale');
    for (const name of VARIANT_NAMES) {
      const read = readVariantSpec(variantSpec(name, { threshold: 0.25 }));
      assert.deepEqual(read.errors, []);
      assert.equal(variantSpec(read.name!, read.parameters), variantSpec(name, { threshold: 0.25 }));
    }
    assert.equal(readVariantSpec('flanking').name, undefined);
    assert.deepEqual(readVariantSpec('Retreat: threshold = 0.75'), { name: 'retreat', parameters: { threshold: 0.75 }, errors: [] });
    assert.match(readVariantSpec('retreat:threshold=0').errors[0]!, /retreat:threshold must be the share/);
  });

  it('says from the catalogue what the variants played do to a result: routs, retreats, who decides the winner', () => {
    assert.deepEqual(variantEffects([]), { routs: false, withdraws: false });
    assert.deepEqual(variantEffects(['sustained-damage']), { routs: false, withdraws: false });
    assert.deepEqual(variantEffects(['break-tests', 'retreat']), { routs: true, withdraws: true });
    assert.deepEqual(variantEffects(['morale']), { routs: true, withdraws: false, victory: 'wins on morale' });
  });

  it('combines compatible variants in one order whatever order they are typed in', () => {
    const a = parseVariants(['morale', 'break-tests', 'sustained-damage']).choices!;
    assert.deepEqual(
      a.map((c) => c.name),
      ['sustained-damage', 'break-tests', 'morale'],
    );
    const c = composeVariants(a);
    assert.equal(c.rounds, 3);
    assert.equal(c.hooks.allocateDamage, sustainedHits);
    assert.ok(c.info.every((i) => i.assumptions.length > 0));
  });

  it('validateBattleOptions checks variants with the other options', () => {
    // Read once into {name, parameters}, from the text or from the object form a request sends.
    assert.deepEqual(validateBattleOptions({ variants: ['retreat'] }).options, { variants: [{ name: 'retreat', parameters: { threshold: 0.5 } }] });
    assert.deepEqual(validateBattleOptions({ variants: [{ name: 'retreat', parameters: { threshold: 0.3 } }] }).options, {
      variants: [{ name: 'retreat', parameters: { threshold: 0.3 } }],
    });
    assert.deepEqual(validateBattleOptions({ variants: [{ name: 'retreat' }] }).options, { variants: [{ name: 'retreat', parameters: { threshold: 0.5 } }] });
    assert.match(validateBattleOptions({ variants: ['nope'] }).errors[0]!, /Unknown variant/);
    assert.match(validateBattleOptions({ variants: [{ name: 'nope' }] }).errors[0]!, /Unknown variant "nope"/);
    // The same words for a bad parameter either way.
    assert.deepEqual(
      validateBattleOptions({ variants: [{ name: 'retreat', parameters: { threshold: 7 } }] }).errors,
      validateBattleOptions({ variants: ['retreat:threshold=7'] }).errors,
    );
  });

  it('never throws on garbage variant options; the session plays the standard rules then', () => {
    const a = fleet('A', [member(unit({ name: 'a', weapons: [gun('Energy', 2)] }))]);
    for (const variants of [42, [{}], ['nope'], 'morale', [null], ['retreat:threshold=abc']] as unknown[]) {
      const r = simulateBattle([a, a], { range: 12, trials: 5, variants: variants as string[] });
      assert.ok(Array.isArray(r.variants));
    }
    assert.match(validateBattleOptions({ compare: 'yes' }).errors[0]!, /compare must be true or false/);
    assert.deepEqual(validateBattleOptions({ compare: 'true', variants: ['morale'] }).options, {
      compare: true,
      variants: [{ name: 'morale', parameters: {} }],
    });
  });

  it('results carry the variants with their assumptions; the standard result carries none', () => {
    const a = fleet('A', [member(unit({ name: 'a', weapons: [gun('Energy', 2)] }))]);
    const b = fleet('B', [member(unit({ name: 'b', weapons: [gun('Energy', 2)] }))]);
    assert.deepEqual(variantBattle(a, b, [], { trials: 10 }).variants, []);
    const r = variantBattle(a, b, ['break-tests'], { trials: 10 });
    assert.equal(r.variants.length, 1);
    assert.deepEqual(r.variants, ['break-tests']);
    assert.equal(r.variantRules![0]!.name, 'break-tests');
    assert.equal(r.variantRules![0]!.title, 'break tests');
    assert.ok(r.variantRules![0]!.assumptions.some((x) => /routed/.test(x)));
  });
});

describe('variants: sustained-damage', () => {
  it('worked by hand: two 2-damage hits on two 3-HP bases lose nothing at the base edge', () => {
    // Standard: the first hit leaves the first base at 1 HP, the second kills it (1 damage lost): 3 left.
    assert.equal(applyHits(6, 2, 2, 3), 3);
    // Sustained: the pool holds 4 = one base (3) removed and 1 left on the pool: 2 left.
    assert.equal(sustainedHits(6, 2, 2, 3), 2);
    // Three hits: standard kills both bases only with the fourth; sustained with the third (pool 6).
    assert.equal(applyHits(6, 3, 2, 3), 1);
    assert.equal(sustainedHits(6, 3, 2, 3), 0);
  });

  it('worked by hand: Grievous damage removes a whole base per hit and leaves the pool', () => {
    // Three 2-HP bases with 1 on the pool (5 left); one 3-damage hit. Standard: it kills the damaged
    // base (4 left). Sustained: a whole base goes, the pool stays: 3 left.
    assert.equal(applyHits(5, 1, 3, 2), 4);
    assert.equal(sustainedHits(5, 1, 3, 2), 3);
    // Target Limit: one hit of 100 damage removes one base, never more.
    assert.equal(sustainedHits(6, 1, 100, 2), 4);
  });

  it('is the standard rule for single-base units, and never kinder to squadrons (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 0, max: 1000 }),
        (hp, bases, hits, damage, cut) => {
          const full = hp * bases;
          const hull = 1 + (cut % full);
          const s = sustainedHits(hull, hits, damage, hp);
          const std = applyHits(hull, hits, damage, hp);
          if (hull <= hp) assert.equal(s, std, 'one base left: the same');
          assert.ok(s <= std, 'never less damage than the standard rule');
          assert.ok(s >= 0 && s <= hull);
          // Target Limit: at most one base per unsaved hit.
          assert.ok(Math.ceil(hull / hp) - Math.ceil(s / hp) <= hits);
        },
      ),
    );
  });

  const weapon = fc.record({
    name: fc.constant('w'),
    type: fc.constantFrom<WeaponType>('Energy', 'Auto', 'Piercing', 'Ion'),
    range: fc.constant(12),
    damage: fc.integer({ min: 1, max: 4 }),
    attacks: fc.integer({ min: 1, max: 4 }),
  });
  const card = (bases: fc.Arbitrary<number>) =>
    fc.record({
      name: fc.constantFrom('P', 'Q'),
      class: fc.constant<UnitProfile['class']>('Destroyer'),
      bases,
      baseMm: fc.constant(60),
      bs: fc.integer({ min: 3, max: 7 }),
      hp: fc.integer({ min: 1, max: 6 }),
      sh: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      armour: fc.option(fc.integer({ min: 5, max: 8 }), { nil: undefined }),
      ld: fc.option(fc.record({ target: fc.integer({ min: 4, max: 8 }), dice: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
      move: fc.constant([9, 6]).map((m) => [...m]),
      combinedShields: fc.constant(false),
      weapons: fc.array(weapon, { minLength: 1, maxLength: 2 }),
    });

  it('changes nothing for single-base units: the same numbers from the same seed (property over generated cards)', () => {
    fc.assert(
      fc.property(card(fc.constant(1)), card(fc.constant(1)), fc.constantFrom(6, 12), (a, b, range) => {
        const std = simulateEngagement(a, b, { range, trials: 300, seed: 3 }, undefined, { exact: false });
        const v = simulateEngagement(a, b, { range, trials: 300, seed: 3 }, undefined, {
          exact: false,
          variants: [{ name: 'sustained-damage', parameters: {} }],
        });
        const { variants, variantRules, ...rest } = v;
        assert.deepEqual(variants, ['sustained-damage']);
        assert.equal(variantRules?.[0]?.name, 'sustained-damage');
        assert.deepEqual(rest, std);
      }),
      propertySettings(25, 41),
    );
  });

  it('changes squadrons whose bases take damage in uneven steps (property over generated cards, exact)', () => {
    // One Fire action at a squadron, computed exactly under both rules. Whenever some number of
    // hits the weapon can land kills more bases with the pool than base by base, the expected
    // bases destroyed must be strictly higher with the pool; it is never lower.
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 3, max: 8 }),
        (bases, hp, damage, attacks, bs) => {
          const att = unit({ name: 'Gunship', bs, weapons: [gun('Energy', attacks, damage)] });
          const def = unit({ name: 'Wing', bases, hp });
          const full = bases * hp;
          const expectedBasesLost = (allocate?: typeof sustainedHits) => {
            const ctx = planFire(att, def, { attackerBases: 1, cover: false, brace: false });
            if (allocate) ctx.allocate = allocate;
            const ex = exactVolley(ctx, new Map([[full, 1]]), 1, { ops: 0, limit: 1e8 })!;
            let e = 0;
            for (const [key, p] of ex.dist) e += p * (bases - Math.ceil(key / hp));
            return e;
          };
          const std = expectedBasesLost();
          const pool = expectedBasesLost(sustainedHits);
          assert.ok(pool >= std - 1e-12, `never fewer bases: ${pool} vs ${std}`);
          let differs = false;
          for (let k = 1; k <= attacks; k++)
            if (Math.ceil(sustainedHits(full, k, damage, hp) / hp) < Math.ceil(applyHits(full, k, damage, hp) / hp)) differs = true;
          if (differs) assert.ok(pool > std + 1e-12, `more bases with the pool: ${pool} vs ${std}`);
          else assert.ok(Math.abs(pool - std) < 1e-12, `the same when no number of hits differs: ${pool} vs ${std}`);
        },
      ),
      propertySettings(200, 43),
    );
    // And some generated case does change (the property above is not vacuous): two 5-HP bases, 2-damage hits.
    assert.ok(Math.ceil(sustainedHits(10, 5, 2, 5) / 5) < Math.ceil(applyHits(10, 5, 2, 5) / 5));
  });
});

describe('variants: retreat', () => {
  // A: 100 points, 1 HP, no weapons; B: 300 points, one 7+ shot a round that it always Aims (6+: 0.5 to kill A).
  const weak = () => fleet('A', [member(unit({ name: 'Runner', hp: 1 }), 100)]);
  const strong = () => fleet('B', [member(unit({ name: 'Hunter', bs: 7, hp: 50, weapons: [gun('Energy', 1)] }), 300)]);

  it('worked by hand: the weaker side announces in round 1 and leaves alive after it', () => {
    const n = 20000;
    const std = variantBattle(weak(), strong(), [], { rounds: 3, trials: n });
    const r = variantBattle(weak(), strong(), ['retreat'], { rounds: 3, trials: n });
    // Standard: A survives three shots with 0.5^3; with retreat only the first round's shot: 0.5.
    within(std.sides[0].units[0]!.alive[2]!, 0.125, n, 'standard survival');
    within(r.sides[0].units[0]!.alive[2]!, 0.5, n, 'survival with retreat');
    within(r.sides[0].retreated!.p, 0.5, n, 'A retreats whenever it lives through round 1');
    assert.equal(r.sides[1].retreated!.p, 0);
    assert.ok(r.meanRounds <= 1 + 1e-12, 'every battle ends in round 1');
    assert.equal(r.sides[1].annihilation.p + r.sides[0].retreated!.p, 1, 'A is destroyed or retreats');
  });

  it("in the duel (sim), weighs the two units by their cards' points, and the engagement ends with the retreat", () => {
    // The duel plays two one-unit fleets without points; the retreat reads the profiles' card points.
    const runner = unit({ name: 'Runner', hp: 1, points: 100 });
    const hunter = unit({ name: 'Hunter', bs: 7, hp: 50, weapons: [gun('Energy', 1)], points: 300 });
    const n = 20000;
    const d = simulate(runner, hunter, { range: 12, rounds: 3, trials: n }, { variants: parseVariants(['retreat']).choices! });
    within(d.engagement.retreated!.attacker, 0.5, n, 'the runner retreats whenever it lives through round 1');
    assert.equal(d.engagement.retreated!.defender, 0);
    assert.ok(Math.abs(d.engagement.meanRounds - 1) < 1e-12, `every duel ends in round 1, not ${d.engagement.meanRounds}`);
    assert.deepEqual(d.engagement.roundsTaken, [{ value: 1, p: 1 }]);
    // As the same two units as one-unit fleets with those points.
    const b = variantBattle(fleet('A', [member(runner, 100)]), fleet('B', [member(hunter, 300)]), ['retreat'], { range: 12, rounds: 3, trials: n });
    within(d.engagement.retreated!.attacker, b.sides[0].retreated!.p, n, 'the duel retreats as the battle does');
    // Without card points the class's points stand in: two Destroyers are even, nobody retreats at the default threshold.
    const even = simulate(
      unit({ name: 'x', hp: 1 }),
      unit({ name: 'y', hp: 1 }),
      { range: 12, trials: 500 },
      { variants: parseVariants(['retreat']).choices! },
    );
    assert.deepEqual(even.engagement.retreated, { attacker: 0, defender: 0 });
  });

  it('respects its threshold: at 0.3 a side with a third of the enemy points fights on', () => {
    const r = variantBattle(weak(), strong(), ['retreat:threshold=0.3'], { rounds: 3, trials: 2000 });
    assert.equal(r.sides[0].retreated!.p, 0);
    assert.deepEqual(r.variantRules![0]!.parameters, { threshold: 0.3 });
  });

  it("never lowers the retreating side's survival (property over generated fleets)", () => {
    const profile = fc.record({
      name: fc.constantFrom('P', 'Q', 'R'),
      hp: fc.integer({ min: 2, max: 6 }),
      bs: fc.integer({ min: 4, max: 7 }),
      attacks: fc.integer({ min: 1, max: 3 }),
      points: fc.integer({ min: 50, max: 300 }),
    });
    const fleetArb = fc.array(profile, { minLength: 1, maxLength: 3 });
    const build = (name: string, xs: { name: string; hp: number; bs: number; attacks: number; points: number }[]) =>
      fleet(
        name,
        xs.map((x, i) => ({ ...member(unit({ name: x.name, hp: x.hp, bs: x.bs, weapons: [gun('Energy', x.attacks)] }), x.points), copy: i + 1 })),
      );
    fc.assert(
      fc.property(fleetArb, fleetArb, fc.constantFrom<number | undefined>(undefined, 12), (xa, xb, range) => {
        const n = 1500;
        const a = build('A', xa);
        const b = build('B', xb);
        const setup = { ...(range !== undefined ? { range } : {}), rounds: 4, trials: n, seed: 9 };
        const std = simulateBattle([a, b], setup);
        const v = simulateBattle([a, b], { ...setup, variants: ['retreat'] });
        // Exactly, round by round and for both sides: trial i rolls the same dice in both runs until
        // a retreat ends it (the retreating units leave alive, and so do the ones left on the table).
        for (const s of [0, 1] as const)
          v.sides[s].units.forEach((u, i) =>
            u.alive.forEach((p, r) => {
              const q = std.sides[s].units[i]!.alive[r]!;
              assert.ok(p >= q - 1e-12, `side ${s} unit ${i} after round ${r + 1}: survival ${p} with retreat, ${q} without`);
            }),
          );
      }),
      propertySettings(15, 47),
    );
  });
});

describe('variants: break-tests', () => {
  it('worked by hand: a unit that loses by one holds on its LD roll (6+, one die: 0.5)', () => {
    // Round 1: the killer destroys the 1-HP decoy (worth more): A's score 1, B's 0. The tester (LD 6+,
    // one die) needs one success: it holds half the time. In round 2 the killer takes some 800 HP off
    // it: no roll of one die reaches that, so it routs.
    const n = 20000;
    const a = fleet('A', [member(killer('Killer'), 100)]);
    const b = fleet('B', [member(unit({ name: 'Decoy', hp: 1 }), 200), member(unit({ name: 'Tester', hp: 1000, ld: { target: 6, dice: 1 } }), 100)]);
    const r = variantBattle(a, b, ['break-tests'], { rounds: 3, trials: n });
    const tester = r.sides[1].units[1]!;
    within(tester.alive[0]!, 0.5, n, 'the tester holds after round 1');
    assert.equal(tester.alive[1], 0, 'it routs in round 2 at the latest');
    assert.equal(tester.routed![2], 1);
    assert.deepEqual(r.sides[1].units[0]!.routed, [0, 0, 0], 'the decoy was destroyed, not routed');
    assert.equal(r.sides[0].pointsDestroyed.mean, 300, "the routed tester's points count as lost");
    assert.equal(r.sides[0].annihilation.p, 0, 'B has nothing left on the table, but it fled: not annihilated');
    assert.equal(r.sides[0].pointsVictory.p, 1);
  });

  it('routed units never fire again, and a unit without LD never breaks', () => {
    // B's gunner (LD 10+, one die: 0.1) loses every round by some 800 HP: it routs after round 1
    // whenever its roll fails... and its roll can never reach 800, so always. It fired once.
    const n = 2000;
    const a = fleet('A', [member(killer('Killer', { hp: 10000 }), 100)]);
    const gunner = (ld?: UnitProfile['ld']) => fleet('B', [member(unit({ name: 'Gunner', hp: 1000, bs: 3, ld, weapons: [gun('Energy', 2)] }), 150)]);
    const r = variantBattle(a, gunner({ target: 10, dice: 1 }), ['break-tests'], { rounds: 4, trials: n });
    const g = r.sides[1].units[0]!;
    assert.equal(g.fired, 1, 'it fires in round 1 and never again');
    assert.deepEqual(g.alive, [0, 0, 0, 0]);
    assert.deepEqual(g.routed, [1, 1, 1, 1]);
    const std = variantBattle(a, gunner({ target: 10, dice: 1 }), [], { rounds: 4, trials: n });
    assert.ok(std.sides[1].units[0]!.fired > 1, 'under the standard rules it fires again');
    const fearless = variantBattle(a, gunner(undefined), ['break-tests'], { rounds: 4, trials: n });
    assert.deepEqual(fearless.sides[1].units[0]!.routed, [0, 0, 0, 0]);
    assert.ok(fearless.sides[1].units[0]!.fired > 1);
  });

  it('routed units never act again (traced through the hooks, property over seeds)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10000 }), (seed) => {
        const a = fleet('A', [
          member(unit({ name: 'A1', bs: 4, hp: 6, ld: { target: 7, dice: 1 }, weapons: [gun('Energy', 3, 2)] }), 120),
          member(unit({ name: 'A2', bs: 5, hp: 4, ld: { target: 8, dice: 1 }, weapons: [gun('Ion', 2)] }), 80),
        ]);
        const b = fleet('B', [member(unit({ name: 'B1', bs: 4, hp: 8, ld: { target: 6, dice: 2 }, weapons: [gun('Piercing', 2, 2)] }), 150)]);
        const composed = composeVariants(parseVariants(['break-tests']).choices!);
        const routed = new Set<number>();
        let routs = 0;
        const hooks: BattleHooks = {
          ...composed.hooks,
          startOfRound: (v, act) => {
            // A new trial: nobody is routed yet.
            if (v.round === 1) routed.clear();
            composed.hooks.startOfRound!(v, act);
          },
          endOfRound: (v, act) => {
            const stop = composed.hooks.endOfRound!(v, act);
            v.routed.forEach((x, i) => {
              if (x && !routed.has(i)) {
                routed.add(i);
                routs++;
                assert.equal(v.alive[i], 0, 'a routed unit is out of the battle');
              }
            });
            return stop;
          },
          onActivation: (u) => assert.ok(!routed.has(u), `unit ${u} acted after it was routed`),
        };
        const run = new BattleRun([a, b], { range: 12, depth: 48, rounds: 6, trials: 100, seed }, makeRng(seed), hooks);
        run.step();
        assert.ok(routs > 0, 'some unit was routed');
        const t = run.outcome().totals;
        assert.ok(t.routed[0]! + t.routed[1]! + t.routed[2]! > 0);
      }),
      propertySettings(10, 53),
    );
  });
});

describe('variants: morale', () => {
  const hulk = (name: string, p: Partial<UnitProfile>) => unit({ name, hp: 100, ...p });

  it('worked by hand: higher Tonnage wins, the defender wins ties, the loser routs', () => {
    const a = fleet('A', [member(hulk('A', { tonnage: 3 }), 100)]);
    const b = fleet('B', [member(hulk('B', { tonnage: 2 }), 100)]);
    const r = variantBattle(a, b, ['morale'], { trials: 500 });
    assert.equal(r.rounds, 3);
    assert.equal(r.meanRounds, 3);
    assert.deepEqual(r.sides[0].variantVictory, { p: 1, se: 0 });
    assert.equal(r.sides[0].pointsVictory.p, 1, "the routed loser's card counts as lost");
    assert.equal(r.sides[0].annihilation.p, 0, 'a routed fleet was not destroyed');
    assert.deepEqual(r.sides[1].units[0]!.routed, [0, 0, 1]);
    assert.deepEqual(r.sides[1].units[0]!.alive, [1, 1, 0]);
    const tie = variantBattle(fleet('A', [member(hulk('A', { tonnage: 2 }))]), b, ['morale'], { trials: 500 });
    assert.equal(tie.sides[1].variantVictory!.p, 1, 'the defender wins ties');
    assert.equal(tie.sides[1].pointsVictory.p, 1);
  });

  it('worked by hand: one LD die at 6+ against nothing wins half the time (ties to the defender)', () => {
    const n = 20000;
    const r = variantBattle(fleet('A', [member(hulk('A', { ld: { target: 6, dice: 1 } }))]), fleet('B', [member(hulk('B', {}))]), ['morale'], { trials: n });
    within(r.sides[0].variantVictory!.p, 0.5, n, 'A wins');
    assert.equal(r.sides[0].pointsVictory.p, r.sides[0].variantVictory!.p, "nobody fires: only the loser's rout scores points");
    assert.equal(r.draw.p, 0);
  });

  it('always ends within three rounds with a winner (property over generated fleets, battle and duel)', () => {
    const profile = fc.record({
      name: fc.constantFrom('P', 'Q'),
      hp: fc.integer({ min: 1, max: 6 }),
      bs: fc.integer({ min: 3, max: 7 }),
      attacks: fc.integer({ min: 0, max: 3 }),
      tonnage: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      ld: fc.option(fc.record({ target: fc.integer({ min: 4, max: 9 }), dice: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
    });
    const build = (name: string, xs: { name: string; hp: number; bs: number; attacks: number; tonnage?: number; ld?: UnitProfile['ld'] }[]) =>
      fleet(
        name,
        xs.map((x, i) => ({
          ...member(unit({ name: x.name, hp: x.hp, bs: x.bs, tonnage: x.tonnage, ld: x.ld, weapons: x.attacks ? [gun('Energy', x.attacks)] : [] })),
          copy: i + 1,
        })),
      );
    fc.assert(
      fc.property(
        fc.array(profile, { minLength: 1, maxLength: 3 }),
        fc.array(profile, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        (xa, xb, rounds, breaks) => {
          const v = breaks ? ['morale', 'break-tests'] : ['morale'];
          const r = simulateBattle([build('A', xa), build('B', xb)], { range: 12, rounds, trials: 200, variants: v });
          assert.equal(r.rounds, 3);
          assert.ok(r.meanRounds <= 3);
          assert.ok(Math.abs(r.sides[0].pointsVictory.p + r.sides[1].pointsVictory.p + r.draw.p - 1) < 1e-12);
          assert.ok(Math.abs(r.sides[0].variantVictory!.p + r.sides[1].variantVictory!.p - 1) < 1e-12, 'always one winner on morale');
          assert.ok(r.sides[0].annihilation.p <= r.sides[0].variantVictory!.p + 1e-12, 'destroying the other fleet wins on morale');
          assert.ok(r.sides[1].annihilation.p <= r.sides[1].variantVictory!.p + 1e-12);
          for (const s of r.sides) for (const u of s.units) assert.ok(u.alive[2]! + u.routed![2]! <= 1 + 1e-12);
          const d = simulate(
            build('A', xa).units[0]!.profile,
            build('B', xb).units[0]!.profile,
            { range: 12, rounds, trials: 200 },
            { variants: parseVariants(v).choices! },
          );
          assert.equal(d.engagement.rounds, 3);
          const vv = d.engagement.variantVictory!;
          assert.ok(Math.abs(vv.attacker + vv.defender - 1) < 1e-12, 'always a winner on morale');
          assert.ok(d.engagement.attackerWins <= vv.attacker + 1e-12);
          assert.equal(d.engagement.exact, undefined, 'the exact chain knows only the standard rules');
        },
      ),
      propertySettings(30, 59),
    );
  });
});

describe('variants: compare', () => {
  it('carries the standard result beside the variant one, with the difference in numbers and words', () => {
    const a = fleet('Vanguard', [member(unit({ name: 'a', bs: 4, hp: 30, ld: { target: 6, dice: 2 }, weapons: [gun('Energy', 3)] }))]);
    const b = fleet('Hunger', [member(unit({ name: 'b', bs: 4, hp: 30, tonnage: 1, weapons: [gun('Energy', 3)] }))]);
    const r = simulateBattle([a, b], { range: 12, trials: 3000, variants: ['morale'], compare: true });
    const c = r.compare!;
    assert.deepEqual(c.standard.variants, []);
    assert.equal(c.standard.rounds, 6);
    assert.equal(c.difference.sides[0]!.pointsVictory, Math.round((r.sides[0].pointsVictory.p - c.standard.sides[0].pointsVictory.p) * 1e6) / 1e6);
    assert.match(c.summary[0]!, /^With morale: Vanguard wins \d+(?:\.\d+)?% instead of \d+(?:\.\d+)?%/);
    // Without compare, no standard result.
    assert.equal(simulateBattle([a, b], { range: 12, trials: 10, variants: ['morale'] }).compare, undefined);
  });
});

describe('variants: a variant run and the standard run beside it', () => {
  /** A run of `total` slices of work that records which run each step went to. */
  const fakeRun = (name: string, total: number, log: string[]) => {
    let left = total;
    return {
      get done() {
        return left === 0;
      },
      step(ops?: number) {
        log.push(`${name}:${ops ?? 'all'}`);
        left = ops === undefined ? 0 : Math.max(0, left - 1);
        return left === 0;
      },
    };
  };

  it('steps the variant run to its end first, then the standard one, a slice at a time', () => {
    const log: string[] = [];
    const run = fakeRun('variant', 2, log);
    const standard = fakeRun('standard', 1, log);
    assert.equal(stepCompared(run, standard, 10), false);
    assert.equal(stepCompared(run, standard, 10), false);
    assert.equal(stepCompared(run, standard, 10), true);
    assert.deepEqual(log, ['variant:10', 'variant:10', 'standard:10']);
    assert.equal(comparedDone(run, standard), true);
  });

  it('runs both to the end without a slice size, and the variant alone without compare', () => {
    const log: string[] = [];
    assert.equal(stepCompared(fakeRun('variant', 3, log), fakeRun('standard', 3, log)), true);
    assert.deepEqual(log, ['variant:all', 'standard:all']);
    const alone = fakeRun('variant', 1, log);
    assert.equal(comparedDone(alone, undefined), false);
    assert.equal(stepCompared(alone, undefined, 5), true);
  });

  /** Two fleets of mixed cards whose battle lasts: a retreat happens in some trials, not in all. */
  const pairFleets = (): [Fleet, Fleet] => [
    fleet('A', [
      member(unit({ name: 'Lancer', bs: 4, hp: 2, bases: 2, weapons: [gun('Energy', 2, 1)] }), 110),
      member(unit({ name: 'Anvil', bs: 5, hp: 4, weapons: [gun('Energy', 1, 2)] }), 145),
    ]),
    fleet('B', [
      member(unit({ name: 'Spear', bs: 4, hp: 3, weapons: [gun('Energy', 2, 1)] }), 145),
      member(unit({ name: 'Hammer', bs: 6, hp: 2, bases: 3, weapons: [gun('Energy', 3, 2)] }), 80),
    ]),
  ];
  /** Survival with the variant is never below the standard run's, unit by unit and round by round. */
  const neverLower = (v: BattleResult, std: BattleResult) => {
    for (const s of [0, 1] as const)
      v.sides[s].units.forEach((u, i) =>
        u.alive.forEach((p, r) => {
          const q = std.sides[s].units[i]!.alive[r]!;
          assert.ok(p >= q - 1e-12, `side ${s} unit ${i} after round ${r + 1}: ${p} with retreat, ${q} without`);
        }),
      );
  };

  it('plays every trial of both runs when some reach the work limit of one trial, each ended where it stood', () => {
    // A limit of one trial (about 130 a trial, 300 at most) that some standard battles (longer) reach, fewer with the retreat.
    const options = { range: 12, rounds: 6, trials: 4000, seed: 5, variants: ['retreat:threshold=0.8'], compare: true };
    const r = simulateBattle(pairFleets(), options, { workLimit: 171 });
    const std = r.compare!.standard;
    assert.equal(std.trials, options.trials, 'the standard run plays every trial');
    assert.equal(r.trials, options.trials, 'the retreat run plays every trial');
    assert.ok(std.cutTrials! > 0 && std.cutTrials! < options.trials, `${std.cutTrials} standard trials ended at the limit`);
    assert.ok((r.cutTrials ?? 0) <= std.cutTrials!, 'a retreat only shortens a battle');
    assert.match(
      std.assumptions.join(' '),
      new RegExp(`Cut short: ${std.cutTrials!.toLocaleString('en-US')} of 4,000 trials reached the work limit of one battle`),
    );
    assert.ok(!r.assumptions.some((x) => x.includes('as many as the run beside')), 'no trials are dropped to match the other run');
    neverLower(r, std);
    assert.ok(
      r.sides.every((s) => s.retreated!.p > 0 && s.retreated!.p < 0.5),
      'both sides retreat in some battles',
    );
  });

  it('says why nobody retreats in a duel where nobody does, and counts retreats where they happen', () => {
    const retreat = parseVariants(['retreat:threshold=0.9']).choices!;
    const a = unit({ name: 'A', hp: 6, weapons: [gun('Energy', 3)] });
    // Two single-base units of one class: equal points until one is destroyed, so nobody falls behind.
    const even = simulate(a, unit({ name: 'D', hp: 6, weapons: [gun('Auto', 3)] }), { range: 12, trials: 500, seed: 2 }, { variants: retreat, compare: true });
    assert.deepEqual(even.engagement.retreated, { attacker: 0, defender: 0 });
    assert.ok(
      even.engagement.compare!.summary.some((x) => /^Nobody retreats: neither side's points fell below 90% of the other's/.test(x)),
      even.engagement.compare!.summary.join(' | '),
    );
    // A squadron loses points base by base: it retreats, and the summary counts it.
    const squadron = simulate(
      a,
      unit({ name: 'S', bases: 3, hp: 2, weapons: [gun('Auto', 1)] }),
      { range: 12, trials: 500, seed: 2 },
      { variants: retreat, compare: true },
    );
    assert.ok(squadron.engagement.retreated!.defender > 0);
    assert.ok(
      squadron.engagement.compare!.summary.some((x) => /^S retreats in \d+(?:\.\d+)?%/.test(x) || / retreats in .* S in \d+(?:\.\d+)?%/.test(x)),
      squadron.engagement.compare!.summary.join(' | '),
    );
  });

  it("says a duel was cut short to match the standard rules' run, not by its own work limit", () => {
    // Morale's three-round duels cost less than the standard rules' six: the standard run reaches the limit first.
    const a = unit({ name: 'A', hp: 12, weapons: [gun('Energy', 2)] });
    const d = unit({ name: 'D', hp: 12, weapons: [gun('Auto', 2)] });
    const opts = { range: 12, rounds: 6, trials: 4000, seed: 5 };
    const morale = parseVariants(['morale']).choices!;
    const run = new SimulationRun(a, d, opts, { workLimit: 100000, variants: morale, compare: true });
    while (!run.step());
    const r = run.result();
    assert.ok(r.engagement.trials < opts.trials, `cut short (${r.engagement.trials} trials)`);
    assert.equal(r.engagement.compare!.standard.trials, r.engagement.trials);
    const cut = r.assumptions.filter((x) => x.startsWith('Cut short'));
    assert.equal(cut.length, 1);
    assert.match(cut[0]!, /as many as the standard rules' engagement beside it played before its work limit/);
    // Alone, with the same limit, it reaches its own limit later (or not at all) and says so.
    const alone = new SimulationRun(a, d, opts, { workLimit: 100000, variants: morale });
    while (!alone.step());
    const own = alone.result();
    assert.ok(own.engagement.trials > r.engagement.trials, 'alone, the morale run plays more');
    assert.ok(!own.assumptions.some((x) => /as many as the standard rules/.test(x)));
  });

  it('pairs the runs when one fell back to dice: the other starts again in dice', () => {
    const setup = { range: 12, depth: 48, rounds: 5, trials: 600, seed: 8 };
    const hooks = composeVariants([{ name: 'retreat', parameters: { threshold: 0.8 } }]).hooks;
    const variant = new BattleRun(pairFleets(), setup, makeRng(setup.seed), hooks);
    const standard = new BattleRun(pairFleets(), setup, makeRng(setup.seed));
    variant.step();
    // As when its exact kernels run out of work: the standard run plays every Fire action with dice.
    standard.restart({ dice: true });
    standard.step();
    assert.equal(variant.mode, 'kernel');
    assert.equal(pairRuns(variant, standard), true);
    assert.equal(variant.mode, 'dice');
    assert.equal(variant.done, false);
    variant.step();
    assert.equal(pairRuns(variant, standard), false, 'paired: nothing more to do');
    const v = variant.outcome().totals;
    const t = standard.outcome().totals;
    assert.equal(v.trials, t.trials);
    assert.ok(v.withdrew[0] > 0 && v.withdrew[1] > 0 && v.withdrew[0] + v.withdrew[1] < v.trials / 2, `withdrew ${v.withdrew}`);
    for (let u = 0; u < v.alive.length; u++)
      for (let k = 0; k < setup.rounds; k++)
        assert.ok(v.alive[u]![k]! >= t.alive[u]![k]!, `unit ${u} after round ${k + 1}: ${v.alive[u]![k]} < ${t.alive[u]![k]}`);
    // The first round is the same battle in both runs, trial by trial (no side starts behind).
    for (let u = 0; u < v.alive.length; u++) assert.equal(v.alive[u]![0], t.alive[u]![0]);
  });

  it('counts the progress of both runs', () => {
    assert.deepEqual(comparedProgress({ trials: 3, requested: 10 }, undefined), { trials: 3, requested: 10 });
    assert.deepEqual(comparedProgress({ trials: 10, requested: 10 }, { trials: 4, requested: 10 }), { trials: 14, requested: 20 });
  });
});
