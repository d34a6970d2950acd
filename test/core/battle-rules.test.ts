/**
 * The fight as the rulebook and BATTLE.md play it, where an independent model of the battle found the
 * engine reading them otherwise: Board in place of Aim, the duel boarding and ramming as
 * the one-unit battle does, a ram's natural 10 that cannot be dodged, both fleets destroyed by one
 * Ram, routs that are neither destructions nor annihilations, morale's win apart from points
 * victory, a battle whose last units flee, mirror matches named apart, and when craft launch.
 *
 * d10 facts used: a target N+ (3 <= N <= 10) succeeds on N..10, i.e. (11 - N) / 10; a natural 10
 * is a Critical Hit. "Certain" kills use 1000 attacks at 3+ (all miss with chance 0.2^1000 = 0).
 */
import { strict as assert } from 'node:assert';
import { BattleRun } from '../../server/src/core/sim/battle';
import type { BattleHooks, BattleUnit, Fleet } from '../../server/src/core/sim/battle';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import { simulateEngagement } from '../../server/src/core/sim/engagement';
import { makeRng } from '../../server/src/core/sim/dice';
import { renderBattleReport } from '../../server/src/cli/battle';
import { renderReport, simulate } from '../../server/src/core/sim/index';
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
function run(a: Fleet, b: Fleet, setup: { range?: number; rounds?: number; trials?: number; seed?: number; depth?: number }, hooks: BattleHooks = {}) {
  const r = new BattleRun([a, b], { depth: 48, rounds: 6, trials: 2000, seed: 1, ...setup }, makeRng(setup.seed ?? 1), hooks);
  r.step();
  return r.outcome();
}
function within(actual: number, expected: number, n: number, what: string): void {
  const se = Math.sqrt((expected * (1 - expected)) / n);
  assert.ok(Math.abs(actual - expected) <= 4 * se + 1e-12, `${what}: expected ${expected} ± ${4 * se}, got ${actual}`);
}

const killer = (name: string, p: Partial<UnitProfile> = {}) => unit({ name, bs: 3, hp: 1, weapons: [gun('Energy', 1000)], ...p });

// A boarder whose gun barely gains from Aim (BS 7+ to 6+: +0.1 expected HP) and whose CR (6 dice at
// 4+) deals about 4.1 HP a Board against a shieldless barge's one die at 10+.
const ashBoarder = unit({ name: 'Ash Boarder', bs: 7, hp: 6, cr: { target: 4, dice: 6 }, weapons: [gun('Energy', 1, 1, 3)] });
const barge = unit({ name: 'Barge', hp: 12, cr: { target: 10, dice: 1 }, move: [6] });

describe('battle rules: Board replaces Aim when it is worth more', () => {
  it('a boarder whose best other action is Aim boards instead, every activation', () => {
    const n = 2000;
    const o = run(fleet('A', [member(ashBoarder)]), fleet('B', [member(barge)]), { range: 3, trials: n });
    const t = o.totals;
    assert.equal(t.tally.aim[0], 0, 'it never aims: boarding is worth some 40 times more');
    // It fires unaimed and then boards, unless that Fire action destroyed the barge.
    assert.ok(t.tally.boarded[0]! > 0.95 * t.tally.fired[0]!, `boarded ${t.tally.boarded[0]}, fired ${t.tally.fired[0]}`);
    assert.ok(t.tally.boarded[0]! <= t.tally.fired[0]!);
    assert.ok(t.annihilation[0] / n > 0.99, `it takes the barge apart: ${t.annihilation[0] / n}`);
  });

  it('keeps aiming when boarding is worth less (a near miss)', () => {
    // CR 10/1 against the barge's CR 3/6: boarding almost never gets through (0.1 x 0.0...).
    const weak = unit({ ...ashBoarder, name: 'Weak Boarder', bs: 5, cr: { target: 10, dice: 1 } });
    const tough = unit({ ...barge, name: 'Tough Barge', cr: { target: 3, dice: 6 } });
    const o = run(fleet('A', [member(weak)]), fleet('B', [member(tough)]), { range: 3, trials: 500 });
    assert.equal(o.totals.tally.boarded[0], 0);
    assert.equal(o.totals.tally.aim[0], o.totals.tally.fired[0], 'it aims before every Fire action');
  });
});

describe('battle rules: the duel is the one-unit battle, boarding and ramming included', () => {
  const same = (range: number, seed: number, att: UnitProfile, def: UnitProfile) => {
    const duel = simulateEngagement(att, def, { range, seed, trials: 3000 });
    const battle = simulateBattle([fleet('A', [member(att)]), fleet('B', [member(def)])], { range, seed, trials: 3000 });
    assert.equal(duel.attackerWins, battle.sides[0].annihilation.p, 'attacker wins');
    assert.equal(duel.defenderWins, battle.sides[1].annihilation.p, 'defender wins');
    assert.ok(Math.abs(duel.meanRounds - battle.meanRounds) < 1e-12, 'mean rounds');
    assert.deepEqual(
      duel.survival.map((s) => s.attacker),
      battle.sides[0].units[0]!.alive,
    );
    assert.deepEqual(
      duel.survival.map((s) => s.defender),
      battle.sides[1].units[0]!.alive,
    );
    return { duel, battle };
  };

  it('at 3" the duel boards exactly as the battle does (seed 9)', () => {
    const { duel, battle } = same(3, 9, ashBoarder, barge);
    assert.ok(battle.sides[0].units[0]!.boarded > 0.5, `the battle boards: ${battle.sides[0].units[0]!.boarded}`);
    assert.equal(duel.closeCombat?.attacker.boarded, battle.sides[0].units[0]!.boarded, 'the duel boards as often');
    assert.ok(duel.attackerWins > 0.99);
  });

  it('at 0" the duel rams exactly as the battle does (seed 4)', () => {
    const rammer = unit({ name: 'Rammer', hp: 6, tonnage: 3, armour: 7 });
    const hulk = unit({ name: 'Hulk', hp: 5, dodge: 7, armour: 8, tonnage: 1 });
    const { duel, battle } = same(0, 4, rammer, hulk);
    assert.ok(battle.sides[0].units[0]!.rammed > 1);
    assert.equal(duel.closeCombat?.attacker.rammed, battle.sides[0].units[0]!.rammed);
    assert.equal(duel.closeCombat?.defender.rammed, battle.sides[1].units[0]!.rammed);
  });
});

describe("battle rules: a ram's natural 10 cannot be dodged", () => {
  it('Tonnage 2 against a 1-HP target with D 3+: each die lands with 0.1 (the 10) + 0.5 x 0.2 = 0.2', () => {
    // 5+ hits (0.6); the 10 (0.1) is a Critical Hit and stays; the 5-9 hits (0.5) are dodged on 3+ (0.8).
    const n = 40000;
    const rammer = unit({ name: 'Rammer', tonnage: 2, hp: 5 });
    const o = run(fleet('A', [member(rammer)]), fleet('B', [member(unit({ name: 'Dodger', hp: 1, dodge: 3 }))]), { range: 0, rounds: 1, trials: n });
    within(o.totals.annihilation[0] / n, 1 - 0.8 ** 2, n, 'P(rammed to death)');
  });
});

describe('battle rules: both fleets destroyed by one Ram', () => {
  it('is its own outcome: nobody annihilates, and the JSON says how often', () => {
    // Two 1-HP units: every hit left hits both, so both die together with 1 - 0.4^2 = 0.84.
    const n = 20000;
    const r = simulateBattle([fleet('A', [member(unit({ name: 'Rammer', tonnage: 2, hp: 1 }))]), fleet('B', [member(unit({ name: 'Target', hp: 1 }))])], {
      range: 0,
      rounds: 1,
      trials: n,
    });
    within(r.bothDestroyed.p, 0.84, n, 'both destroyed');
    assert.ok(r.bothDestroyed.se > 0);
    assert.equal(r.sides[0].annihilation.p + r.sides[1].annihilation.p, 0);
    assert.match(renderBattleReport(r), /Both fleets destroyed at once \(a Ram\)\s+8\d(\.\d+)?%/);
    const none = simulateBattle([fleet('A', [member(killer('K'))]), fleet('B', [member(unit({ name: 'T', hp: 1 }))])], { range: 12, trials: 100 });
    assert.deepEqual(none.bothDestroyed, { p: 0, se: 0 });
  });

  it('in the duel too: part of "neither", said apart', () => {
    const n = 20000;
    const d = simulate(unit({ name: 'Rammer', tonnage: 2, hp: 1 }), unit({ name: 'Target', hp: 1 }), { range: 0, rounds: 1, trials: n });
    within(d.engagement.bothDestroyed!, 0.84, n, 'both destroyed');
    assert.equal(d.engagement.attackerWins + d.engagement.defenderWins, 0);
    assert.equal(d.engagement.neither, 1);
    assert.match(renderReport(d), /Neither wins\s+100\.0%.*\n\s+of which both destroyed at once \(a Ram\)\s+8\d\.\d%/);
  });
});

describe('battle rules: routs are not destructions', () => {
  it('break tests: a fleet driven off is not annihilated, fled units show apart by round, and the battle ends with the round they fled', () => {
    // B's gunner (LD 10+, one die) loses round 1 by hundreds of HP and always flees at its end.
    const n = 2000;
    const a = fleet('A', [member(killer('Killer', { hp: 10000 }), 100)]);
    const b = fleet('B', [member(unit({ name: 'Gunner', hp: 1000, bs: 3, ld: { target: 10, dice: 1 }, weapons: [gun('Energy', 2)] }), 150)]);
    const r = simulateBattle([a, b], { range: 12, rounds: 4, trials: n, variants: [{ name: 'break-tests', parameters: {} }] });
    const g = r.sides[1].units[0]!;
    assert.deepEqual(g.alive, [0, 0, 0, 0], 'fled: not alive');
    assert.deepEqual(g.routed, [1, 1, 1, 1], 'routed by the end of each round');
    assert.equal(r.sides[0].annihilation.p, 0, 'the gunner fled intact: its fleet was not destroyed');
    assert.equal(r.sides[0].pointsVictory.p, 1, 'its card counts as lost for points victory');
    assert.equal(r.sides[0].pointsDestroyed.mean, 150);
    assert.equal(r.meanRounds, 1, 'the last units fled at the end of round 1: one round played');
    assert.equal(r.bothDestroyed.p, 0);
  });

  it('break tests: routed[r] grows round by round (a tester that holds half the time)', () => {
    const n = 20000;
    const a = fleet('A', [member(killer('Killer'), 100)]);
    const b = fleet('B', [member(unit({ name: 'Decoy', hp: 1 }), 200), member(unit({ name: 'Tester', hp: 1000, ld: { target: 6, dice: 1 } }), 100)]);
    const r = simulateBattle([a, b], { range: 12, rounds: 3, trials: n, variants: [{ name: 'break-tests', parameters: {} }] });
    const tester = r.sides[1].units[1]!;
    within(tester.routed![0]!, 0.5, n, 'fled after round 1');
    assert.equal(tester.routed![1], 1, 'fled after round 2 at the latest');
    assert.deepEqual(r.sides[1].units[0]!.routed, [0, 0, 0], 'the decoy was destroyed, not routed');
    assert.equal(r.sides[0].annihilation.p, 0, 'B was driven off, not destroyed');
    within(r.meanRounds - 1, 0.5, n, 'rounds played - 1');
  });

  it('morale: the win on morale is its own figure, points victory stays by points', () => {
    // The Marauder (90 pts, no Tonnage) destroys the cheap Hauler (100 pts) in round 1 and cannot
    // hurt the 10,000-HP one; the Haulers' Tonnage 10 wins morale and the Marauder routs (90 pts lost).
    const n = 500;
    const haulers = fleet('Haulers', [member(unit({ name: 'Cheap Hauler', hp: 1 }), 100), member(unit({ name: 'Big Hauler', hp: 10000, tonnage: 10 }), 100)]);
    const marauder = fleet('Marauder', [member(killer('Marauder', { hp: 10000 }), 90)]);
    const r = simulateBattle([haulers, marauder], { range: 12, trials: n, variants: [{ name: 'morale', parameters: {} }] });
    assert.deepEqual(r.sides[0].variantVictory, { p: 1, se: 0 }, 'the Haulers win on morale');
    assert.deepEqual(r.sides[1].variantVictory, { p: 0, se: 0 });
    assert.equal(r.sides[1].pointsVictory.p, 1, 'the Marauder destroyed 100 points, the Haulers 90: points victory is the Marauder');
    assert.equal(r.sides[0].pointsDestroyed.mean, 90);
    assert.equal(r.sides[0].annihilation.p, 0, 'the Marauder fled: not annihilated');
    assert.deepEqual(r.sides[1].units[0]!.routed, [0, 0, 1]);
    const text = renderBattleReport(r);
    assert.match(text, /Wins on morale: Haulers 100\.0%; Marauder 0\.0%/);
    assert.match(text, /more points destroyed\s+wins on morale\n\s+Haulers\s+0%\s+± 0\.00%\s+0%\s+± 0\.00%\s+100%/);
    assert.match(text, /Fled the battle intact/);
  });

  it('morale in the duel: the wins are destructions, the morale win is apart', () => {
    const a = unit({ name: 'A', hp: 100, tonnage: 3 });
    const b = unit({ name: 'B', hp: 100, tonnage: 2 });
    const d = simulateEngagement(a, b, { range: 12, trials: 300 }, undefined, { variants: [{ name: 'morale', parameters: {} }] });
    assert.equal(d.attackerWins, 0, 'nobody was destroyed');
    assert.equal(d.neither, 1);
    assert.deepEqual(d.variantVictory, { attacker: 1, defender: 0 });
    assert.deepEqual(d.routed, { attacker: 0, defender: 1 });
  });
});

describe('battle rules: a mirror match names its sides and copies apart', () => {
  it('"X" and "X (2)", and each copy of a card with its number, in the JSON and the text', () => {
    const d = unit({ name: 'Lumen Destroyer', bs: 4, weapons: [gun('Energy', 3)] });
    const f = fleet('Lantern Watch', [member(d), member(d, 100, { copy: 2 }), member(unit({ name: 'Escort', weapons: [gun('Auto', 2)] }), 80)]);
    const r = simulateBattle([f, f], { range: 12, trials: 50 });
    assert.deepEqual(
      r.sides.map((s) => s.fleet),
      ['Lantern Watch', 'Lantern Watch (2)'],
    );
    assert.deepEqual(
      r.sides[1].units.map((u) => [u.name, u.copy]),
      [
        ['Lumen Destroyer #1', 1],
        ['Lumen Destroyer #2', 2],
        ['Escort', 1],
      ],
    );
    const text = renderBattleReport(r);
    assert.match(text, /^Lantern Watch \(Lantern Watch, 280 pts\) vs Lantern Watch \(2\) /);
    assert.ok(!/#1 #1/.test(text), 'the copy number is not added twice');
    const other = simulateBattle([f, fleet('Other', f.units)], { range: 12, trials: 10 });
    assert.equal(other.sides[1].fleet, 'Other', 'different names stay as they are');
  });

  it("the duel of a card against itself names the defender apart in `sim`'s report", () => {
    const d = unit({ name: 'Ember Vanguard', bs: 4, weapons: [gun('Energy', 3)] });
    const text = renderReport(simulate(d, d, { range: 12, trials: 200 }));
    assert.match(text, /^Ember Vanguard fires at Ember Vanguard \(2\)/);
    assert.match(text, /Ember Vanguard wins .*\n\s+Ember Vanguard \(2\) wins/);
  });
});

describe('battle rules: craft launch at their first chance', () => {
  it('each carried unit launches in the round its host enters, on the side’s activations after the host, in the side’s order', () => {
    const host = unit({ name: 'Carrier', hp: 50, move: [6, 3] });
    const craft = (name: string) => unit({ name, class: 'Fighter', bases: 4, baseMm: 25, hp: 1, move: [9, 6], weapons: [gun('Energy', 1, 1, 6)] });
    const a = fleet('A', [member(host), member(craft('F1'), 60, { host: 0 }), member(craft('F2'), 60, { host: 0 }), member(unit({ name: 'Line', hp: 20 }))]);
    const b = fleet('B', [member(unit({ name: 'Far', hp: 50, move: [3] })), member(unit({ name: 'Far 2', hp: 50, move: [3] }))]);
    const seen: string[] = [];
    run(a, b, { rounds: 1, trials: 1, depth: 48 }, { onActivation: (u, v) => u < 4 && seen.push(`${a.units[u]!.name}@${v.pos[u]}`) });
    // Nobody can fire yet, so the side activates the most points first (BATTLE.md): the carrier
    // (100) enters 6" and moves 3" more, then Line (100, after "Carrier" by name); each craft (60)
    // launches from the carrier (its table edge) with 9" + 6".
    assert.deepEqual(seen, ['Carrier@9', 'Line@15', 'F1@24', 'F2@24']);
    const r = simulateBattle([a, b], { trials: 10 });
    assert.ok(
      r.assumptions.some((x) => /launch .*first chance/i.test(x) && /host's position/.test(x)),
      r.assumptions.join('\n'),
    );
  });
});

describe('battle rules: the printed policy and assumptions say what BATTLE.md says, item by item', () => {
  it("Board in place of Aim, Shields or Brace; a ram's 10 not dodged; both destroyed; routs; launching; names", () => {
    const r = simulateBattle([fleet('A', [member(ashBoarder)]), fleet('B', [member(barge)])], { range: 3, trials: 20 });
    assert.match(
      r.policy,
      /Board replaces that second action, whichever it would be \(Aim, Shields Back Online or Brace\), when .* boarding is expected to remove more hull points/,
    );
    assert.match(r.policy, /Rams as a last resort/);
    assert.match(
      r.policy,
      /first a unit that can Fire, Board or Ram now, then the units that must move .*the most points first, ties by card name, then copy: never the order the fleet list is written in/,
    );
    assert.match(r.policy, /ties to the nearer, then to fewer HP left, then by card name, then copy/);
    const a = r.assumptions.join('\n');
    assert.match(a, /dodges each hit with D except a natural 10 \(a Critical Hit cannot be Dodged/);
    assert.match(a, /both fleets destroyed\): neither side annihilates/);
    assert.match(a, /a fleet whose units fled \(rule variants\) was not destroyed/);
    assert.match(a, /Embarked units launch at their first chance/);
    assert.match(a, /names its second side "\(2\)"/);
    const duel = simulateEngagement(ashBoarder, barge, { range: 3, trials: 20 });
    assert.match(duel.policy, /Board replaces the second action, whichever it would be \(Aim, Shields Back Online or Brace\)/);
    const variants = simulateBattle([fleet('A', [member(ashBoarder)]), fleet('B', [member(barge)])], {
      range: 3,
      trials: 20,
      variants: [
        { name: 'break-tests', parameters: {} },
        { name: 'morale', parameters: {} },
      ],
    });
    const v = variants.variantRules!.flatMap((x) => x.assumptions).join('\n');
    assert.match(v, /not alive .*counts as lost for Action Tokens .*has not been annihilated/);
    assert.match(v, /the battle ends with that round/);
    assert.match(v, /morale win is its own figure \(variantVictory/);
  });
});
