/**
 * The simulator against cases worked out by hand. Each expected figure is written as the
 * arithmetic of the reference model (RULES.md), one attack or a few dice at a time, with a comment
 * saying where each factor comes from; none is a copy of the program's output.
 *
 * d10 facts used throughout: a natural 10 is a Critical Hit (0.1); 1-2 always fail; a target N+
 * (3 <= N <= 10) succeeds on N..10, i.e. (11 - N) / 10, and a target above 10 only on the 10.
 */
import { strict as assert } from 'node:assert';
import {
  simulateVolley,
  simulateEngagement,
  simulate,
  validateOptions,
  profileFromCard,
  initiativeOdds,
  renderReport,
  POLICY_EXPECTED,
  POLICY_RULE,
} from '../../server/src/core/sim/index';
import { exactVolleyResult, sampledVolleyResult } from '../../server/src/core/sim/volley';
import { absorb, applyHits } from '../../server/src/core/sim/fire';
import { binomialPmf, pSuccess, hitChances } from '../../server/src/core/sim/dice';
import type { UnitProfile, VolleyOptions, WeaponProfile, Point } from '../../server/src/core/sim/types';
import type { UnitCard, Field, StatEntry } from '../../server/src/core/model/types';
import type { StatName, WeaponType } from '../../server/src/core/rules/data';

const EPS = 1e-12;

function unit(p: Partial<UnitProfile> = {}): UnitProfile {
  return { name: 'U', class: 'Destroyer', bases: 1, baseMm: 60, bs: 5, hp: 10, combinedShields: false, weapons: [], ...p };
}
function gun(type: WeaponType, attacks = 1, damage = 1, range = 12, name = `${type} gun`): WeaponProfile {
  return { name, type, range, damage, attacks };
}
function dist(points: Point[]): Record<number, number> {
  return Object.fromEntries(points.map((p) => [p.value, p.p]));
}
function near(actual: number, expected: number, what: string, eps = EPS): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${what}: expected ${expected}, got ${actual}`);
}
function nearDist(actual: Point[], expected: Record<number, number>, what: string): void {
  const a = dist(actual);
  for (const k of new Set([...Object.keys(a), ...Object.keys(expected)])) near(a[Number(k)] ?? 0, expected[Number(k)] ?? 0, `${what} P(${k})`);
}

describe('sim: d10 probabilities', () => {
  const cases: [number, number][] = [
    [3, 0.8],
    [5, 0.6],
    [7, 0.4],
    [10, 0.1],
    [11, 0.1], // above 10: only the natural 10
    [2, 0.8], // never better than 3+
  ];
  for (const [t, p] of cases) it(`a ${t}+ roll succeeds with ${p}`, () => near(pSuccess(t), p, `${t}+`));
  it('an attack at 5+ is a crit on 10 (0.1) and a normal hit on 5..9 (0.5)', () => {
    const h = hitChances(5);
    near(h.crit, 0.1, 'crit');
    near(h.normal, 0.5, 'normal');
  });
  it('an attack needing 11+ only hits with Critical Hits', () => {
    const h = hitChances(11);
    near(h.crit, 0.1, 'crit');
    near(h.normal, 0, 'normal');
  });
  it('binomial vectors match the textbook formula and sum to 1', () => {
    const b = binomialPmf(4, 0.3);
    const choose = [1, 4, 6, 4, 1];
    b.forEach((p, k) => near(p, choose[k]! * 0.3 ** k * 0.7 ** (4 - k), `Bin(4,0.3)(${k})`));
    near(
      binomialPmf(5000, 0.37).reduce((a, x) => a + x, 0),
      1,
      'sum',
      1e-12,
    );
  });
});

describe('sim: shields and damage steps', () => {
  const absorbCases: { sh: number; c: number; n: number; perCrit: number; perHit: number; want: [number, number, number]; why: string }[] = [
    { sh: 3, c: 1, n: 3, perCrit: 1, perHit: 1, want: [0, 1, 0], why: 'crit then two normals absorbed, one normal through' },
    { sh: 3, c: 1, n: 1, perCrit: 3, perHit: 2, want: [0, 1, 0], why: 'an Ion crit takes all 3 SH, the normal hit meets none' },
    { sh: 4, c: 1, n: 1, perCrit: 3, perHit: 2, want: [0, 0, 0], why: 'Ion crit 4->1, Ion hit 1->0 (never below 0)' },
    { sh: 1, c: 2, n: 0, perCrit: 1, perHit: 1, want: [1, 0, 0], why: 'one crit absorbed, the other crit through' },
    { sh: 5, c: 0, n: 2, perCrit: 3, perHit: 2, want: [0, 0, 1], why: 'two Ion hits remove 4 of 5' },
    { sh: 0, c: 2, n: 3, perCrit: 1, perHit: 1, want: [2, 3, 0], why: 'no shields: everything through' },
  ];
  for (const t of absorbCases)
    it(`absorb: ${t.why}`, () => {
      const r = absorb(t.sh, t.c, t.n, t.perCrit, t.perHit);
      assert.deepEqual([r.crits, r.normals, r.shieldsLeft], t.want);
    });

  const hitCases: { hull: number; hits: number; dmg: number; hp: number; want: number; why: string }[] = [
    { hull: 6, hits: 1, dmg: 2, hp: 3, want: 4, why: 'fresh base 3 -> 1' },
    { hull: 6, hits: 2, dmg: 2, hp: 3, want: 3, why: 'second hit kills the damaged base; 1 damage lost' },
    { hull: 4, hits: 1, dmg: 5, hp: 3, want: 3, why: 'damaged base (1 HP) dies; 4 damage lost' },
    { hull: 6, hits: 4, dmg: 2, hp: 3, want: 0, why: 'two hits per base, two bases' },
    { hull: 9, hits: 3, dmg: 1, hp: 3, want: 6, why: 'three 1-damage hits kill exactly one base' },
    { hull: 9, hits: 100, dmg: 1, hp: 3, want: 0, why: 'overkill stops at 0' },
    { hull: 5, hits: 0, dmg: 3, hp: 5, want: 5, why: 'no hits' },
  ];
  for (const t of hitCases) it(`applyHits: ${t.why}`, () => assert.equal(applyHits(t.hull, t.hits, t.dmg, t.hp), t.want));
});

interface VolleyCase {
  name: string;
  att: UnitProfile;
  def: UnitProfile;
  opts?: VolleyOptions;
  hull?: number;
  kill?: number;
  shields?: number;
  hullDist?: Record<number, number>;
  shieldDist?: Record<number, number>;
  basesDist?: Record<number, number>;
  hits?: number[];
  attacks?: number[];
  inRange?: boolean[];
}

const V: VolleyCase[] = [
  {
    name: 'one attack at BS 5+ hits on 5..10',
    att: unit({ bs: 5, weapons: [gun('Energy')] }),
    def: unit({ hp: 2 }),
    hull: 0.6,
    hullDist: { 0: 0.4, 1: 0.6 },
    hits: [0.6],
  },
  {
    name: 'BS 10+ hits only on the 10',
    att: unit({ bs: 10, weapons: [gun('Energy')] }),
    def: unit(),
    hull: 0.1,
  },
  {
    name: 'cover makes BS 10+ need 11: still the 10 hits',
    att: unit({ bs: 10, weapons: [gun('Energy')] }),
    def: unit(),
    opts: { cover: true },
    hull: 0.1,
  },
  {
    name: 'cover: BS 5+ becomes 6+',
    att: unit({ bs: 5, weapons: [gun('Energy')] }),
    def: unit(),
    opts: { cover: true },
    hull: 0.5,
  },
  {
    name: 'aim: BS 5+ becomes 4+ for the aimed weapon only',
    att: unit({ bs: 5, weapons: [gun('Energy', 1, 1, 12, 'a'), gun('Energy', 1, 1, 12, 'b')] }),
    def: unit(),
    opts: { aim: 'b' },
    hits: [0.6, 0.7],
  },
  {
    name: 'aim by index',
    att: unit({ bs: 5, weapons: [gun('Energy'), gun('Energy')] }),
    def: unit(),
    opts: { aim: '0' },
    hits: [0.7, 0.6],
  },
  {
    name: 'aim never makes BS better than 3+',
    att: unit({ bs: 3, weapons: [gun('Energy')] }),
    def: unit(),
    opts: { aim: '0' },
    hull: 0.8,
  },
  {
    name: 'aim and cover at BS 3+ cancel out: 3+ (modifiers summed before the 3+ floor)',
    att: unit({ bs: 3, weapons: [gun('Energy')] }),
    def: unit(),
    opts: { aim: '0', cover: true },
    hull: 0.8,
  },
  {
    name: 'dodge D 7+ cancels normal hits 40% of the time; crits cannot be dodged',
    att: unit({ bs: 5, weapons: [gun('Piercing')] }),
    def: unit({ dodge: 7 }),
    // crit 0.1 + normal 0.5 x undodged 0.6
    hull: 0.1 + 0.5 * 0.6,
  },
  {
    name: 'Energy with one attack: a crit leaves no normal hit to penalise',
    att: unit({ bs: 5, weapons: [gun('Energy')] }),
    def: unit({ dodge: 7 }),
    hull: 0.1 + 0.5 * 0.6,
  },
  {
    name: 'Energy with two attacks: a crit worsens the dodge of the other hit (7+ -> 8+)',
    att: unit({ bs: 5, weapons: [gun('Energy', 2)] }),
    def: unit({ dodge: 7 }),
    // crits: 2 x 0.1. No crit (0.81): each die a normal hit with 0.5/0.9, lands 0.6.
    // One crit (2 x 0.1 x 0.9): the other die a normal hit with 0.5/0.9, lands 0.7 (8+ dodges 0.3).
    hull: 0.2 + 0.81 * 2 * (0.5 / 0.9) * 0.6 + 0.18 * (0.5 / 0.9) * 0.7,
  },
  {
    name: 'Energy with shields up: the penalised dodge also applies to hits that meet shields',
    att: unit({ bs: 5, weapons: [gun('Energy', 2)] }),
    def: unit({ dodge: 7, sh: 1 }),
    // hull only if both hits land: two crits 0.01; crit + normal landing vs 8+ 0.18 x (0.5/0.9) x 0.7;
    // two normals landing vs 7+ 0.81 x ((0.5/0.9) x 0.6)^2
    hull: 0.01 + 0.18 * (0.5 / 0.9) * 0.7 + 0.81 * ((0.5 / 0.9) * 0.6) ** 2,
    shields: 1 - 0.81 * (1 - (0.5 / 0.9) * 0.6) ** 2,
  },
  {
    name: 'Energy against D 10+: 11+ still dodges on the 10, so no change',
    att: unit({ bs: 5, weapons: [gun('Energy', 2)] }),
    def: unit({ dodge: 10 }),
    hull: 0.2 + 2 * 0.5 * 0.9,
  },
  {
    name: 'Auto: a crit adds a normal hit',
    att: unit({ bs: 5, weapons: [gun('Auto')] }),
    def: unit({ hp: 5 }),
    hullDist: { 0: 0.4, 1: 0.5, 2: 0.1 },
    hits: [0.5 + 2 * 0.1],
  },
  {
    name: "Auto: the crit's extra hit can be dodged",
    att: unit({ bs: 5, weapons: [gun('Auto')] }),
    def: unit({ hp: 5, dodge: 7 }),
    // crit (0.1): 1 + extra lands 0.6; normal (0.5): lands 0.6
    hullDist: { 2: 0.1 * 0.6, 1: 0.1 * 0.4 + 0.5 * 0.6, 0: 0.4 + 0.5 * 0.4 },
  },
  {
    name: 'shields absorb one hit per SH',
    att: unit({ bs: 5, weapons: [gun('Energy')] }),
    def: unit({ sh: 3 }),
    shieldDist: { 0: 0.4, 1: 0.6 },
    hull: 0,
  },
  {
    name: 'Ion: a hit removes 2 SH, a crit 3',
    att: unit({ bs: 5, weapons: [gun('Ion')] }),
    def: unit({ sh: 3 }),
    shieldDist: { 0: 0.4, 2: 0.5, 3: 0.1 },
    shields: 0.5 * 2 + 0.1 * 3,
  },
  {
    name: 'Ion never takes SH below 0',
    att: unit({ bs: 5, weapons: [gun('Ion')] }),
    def: unit({ sh: 1 }),
    shieldDist: { 0: 0.4, 1: 0.6 },
    hull: 0,
  },
  {
    name: 'two hits against 1 SH: one absorbed, one through',
    att: unit({ bs: 5, weapons: [gun('Energy', 2)] }),
    def: unit({ sh: 1 }),
    hull: 0.6 * 0.6,
  },
  {
    name: 'shields take crits first, so the Piercing normal hit is what reaches armour',
    att: unit({ bs: 5, weapons: [gun('Piercing', 2)] }),
    def: unit({ sh: 1, armour: 6 }),
    // crit+normal (2 x 0.1 x 0.5): crit absorbed, normal vs 7+ (saves 0.4).
    // two crits (0.01): one through vs 8+ (saves 0.3). two normals (0.25): one through vs 7+.
    hull: 0.1 * 0.6 + 0.01 * 0.7 + 0.25 * 0.6,
  },
  {
    name: 'armour AC 6+ saves half',
    att: unit({ bs: 5, weapons: [gun('Energy')] }),
    def: unit({ armour: 6 }),
    hull: 0.6 * 0.5,
  },
  {
    name: 'Piercing: AC +1 against hits, +2 against crits',
    att: unit({ bs: 5, weapons: [gun('Piercing')] }),
    def: unit({ armour: 6 }),
    hull: 0.1 * 0.7 + 0.5 * 0.6,
  },
  {
    name: 'brace improves AC by 1',
    att: unit({ bs: 5, weapons: [gun('Energy')] }),
    def: unit({ armour: 6 }),
    opts: { brace: true },
    hull: 0.6 * 0.4,
  },
  {
    name: 'brace never makes AC better than 3+',
    att: unit({ bs: 5, weapons: [gun('Energy')] }),
    def: unit({ armour: 3 }),
    opts: { brace: true },
    hull: 0.6 * 0.2,
  },
  {
    name: 'Piercing and brace together: crits vs 7+, hits vs 6+',
    att: unit({ bs: 5, weapons: [gun('Piercing')] }),
    def: unit({ armour: 6 }),
    opts: { brace: true },
    hull: 0.1 * 0.6 + 0.5 * 0.5,
  },
  {
    name: 'Piercing crit against AC 10+: 12+ saves only on the 10',
    att: unit({ bs: 10, weapons: [gun('Piercing')] }),
    def: unit({ armour: 10 }),
    hull: 0.1 * 0.9,
  },
  {
    name: 'damage goes base by base and overflow is lost',
    att: unit({ bs: 3, weapons: [gun('Energy', 2, 2)] }),
    def: unit({ class: 'Frigate', bases: 2, hp: 3, baseMm: 50, combinedShields: true }),
    // 0 hits 0.04; 1 hit 0.32 (3 -> 1); 2 hits 0.64 (second hit kills the damaged base, 1 lost)
    hullDist: { 0: 0.04, 2: 0.32, 3: 0.64 },
    basesDist: { 0: 0.36, 1: 0.64 },
    kill: 0,
  },
  {
    name: 'damage above the HP left is lost: hull damage is capped by the hull',
    att: unit({ bs: 3, weapons: [gun('Energy', 1, 5)] }),
    def: unit({ hp: 2 }),
    hullDist: { 0: 0.2, 2: 0.8 },
    kill: 0.8,
  },
  {
    name: 'Blast multiplies attacks by the bases left when it fires',
    att: unit({ bs: 3, weapons: [gun('Energy', 1, 5), gun('Blast', 1, 1)] }),
    def: unit({ class: 'Frigate', bases: 2, hp: 1, baseMm: 50, combinedShields: true }),
    // first weapon kills a base with 0.8; then Blast has 1 attack (kill 0.8), else 2 attacks (kill 0.64)
    kill: 0.8 * 0.8 + 0.2 * 0.64,
    attacks: [1, 2],
  },
  {
    name: 'Blast against a reduced squadron',
    att: unit({ bs: 3, weapons: [gun('Blast', 2)] }),
    def: unit({ class: 'Fighter', bases: 4, hp: 1, baseMm: 25 }),
    opts: { defenderBases: 3 },
    // 2 printed attacks x 3 bases left; every hit kills a 1 HP base: P(all 3 bases die) = P(>= 3 hits of 6)
    attacks: [6],
    kill: 1 - [0, 1, 2].reduce((a, k) => a + [1, 6, 15][k]! * 0.8 ** k * 0.2 ** (6 - k), 0),
  },
  {
    name: 'Dogfighters: 2 attacks per Fighter base against a 40mm target (printed attacks ignored)',
    att: unit({ class: 'Fighter', bases: 4, baseMm: 25, weapons: [gun('Auto', 7, 1, 6)] }),
    def: unit({ baseMm: 40 }),
    attacks: [8],
  },
  {
    name: 'Dogfighters: 1 attack per base against a 50mm target, with 3 bases left',
    att: unit({ class: 'Fighter', bases: 4, baseMm: 25, weapons: [gun('Auto', 7, 1, 6)] }),
    def: unit({ baseMm: 50 }),
    opts: { attackerBases: 3 },
    attacks: [3],
  },
  {
    name: 'Precision Strike: 2 attacks per Bomber base against a 50mm target',
    att: unit({ class: 'Bomber', bases: 3, baseMm: 25, weapons: [gun('Piercing', 1, 3, 6)] }),
    def: unit({ baseMm: 50 }),
    attacks: [6],
  },
  {
    name: 'Precision Strike: 1 attack per base against a 40mm target',
    att: unit({ class: 'Bomber', bases: 3, baseMm: 25, weapons: [gun('Piercing', 1, 3, 6)] }),
    def: unit({ baseMm: 40 }),
    attacks: [3],
  },
  {
    name: 'range: weapons that do not reach do not fire',
    att: unit({ bs: 5, weapons: [gun('Energy', 1, 1, 9), gun('Energy', 1, 1, 12)] }),
    def: unit(),
    opts: { range: 12 },
    inRange: [false, true],
    hull: 0.6,
  },
  {
    name: 'Fighter weapons never reach beyond 6"',
    att: unit({ class: 'Fighter', bases: 4, baseMm: 25, weapons: [gun('Energy', 1, 1, 12)] }),
    def: unit(),
    opts: { range: 9 },
    inRange: [false],
    hull: 0,
  },
  {
    name: 'Combined Shields: the pool is SH per base x bases left',
    att: unit({ bs: 3, weapons: [gun('Energy', 1)] }),
    def: unit({ class: 'Frigate', bases: 2, hp: 3, baseMm: 50, sh: 2, combinedShields: true }),
    opts: { defenderBases: 1 },
    shieldDist: { 0: 0.2, 1: 0.8 },
  },
  {
    name: 'the defender state carries from weapon to weapon: the first strips the shield, the second hits hull',
    att: unit({ bs: 3, weapons: [gun('Energy', 1, 1, 12, 'first'), gun('Energy', 1, 2, 12, 'second')] }),
    def: unit({ sh: 1 }),
    // the second weapon reaches hull only if the first hit (0.8) and it hits (0.8)
    hull: 0.8 * 0.8 * 2,
    shields: 0.8 + 0.2 * 0.8,
  },
  {
    name: 'defender-shields sets the starting SH',
    att: unit({ bs: 3, weapons: [gun('Energy', 1, 1)] }),
    def: unit({ sh: 5 }),
    opts: { defenderShields: 0 },
    hull: 0.8,
    shields: 0,
  },
];

describe('sim: one Fire action, worked by hand', () => {
  for (const c of V) {
    it(c.name, () => {
      const r = exactVolleyResult(c.att, c.def, c.opts ?? {});
      assert.ok(r, 'exact result');
      assert.equal(r.method, 'exact');
      if (c.hull !== undefined) near(r.expectedHullDamage, c.hull, 'expectedHullDamage');
      if (c.kill !== undefined) near(r.killProbability, c.kill, 'killProbability');
      if (c.shields !== undefined) near(r.expectedShieldsRemoved, c.shields, 'expectedShieldsRemoved');
      if (c.hullDist) nearDist(r.hullDamage, c.hullDist, 'hull damage');
      if (c.shieldDist) nearDist(r.shieldsRemoved, c.shieldDist, 'shields removed');
      if (c.basesDist) nearDist(r.basesDestroyed, c.basesDist, 'bases destroyed');
      if (c.hits) c.hits.forEach((h, i) => near(r.weapons[i]!.expectedHits, h, `weapon ${i} expectedHits`));
      if (c.attacks)
        assert.deepEqual(
          r.weapons.map((w) => w.attacks),
          c.attacks,
        );
      if (c.inRange)
        assert.deepEqual(
          r.weapons.map((w) => w.inRange),
          c.inRange,
        );
      // The per-weapon breakdown adds up to the totals.
      near(
        r.weapons.reduce((a, w) => a + w.expectedHullDamage, 0),
        r.expectedHullDamage,
        'sum of weapon hull damage',
        1e-9,
      );
      near(
        r.weapons.reduce((a, w) => a + w.expectedShieldsRemoved, 0),
        r.expectedShieldsRemoved,
        'sum of weapon shields',
        1e-9,
      );
    });
  }
});

describe('sim: sampling and fallbacks', () => {
  it('absurd attack counts are sampled, say so, and still agree with the obvious answer', () => {
    const att = unit({ bs: 5, weapons: [gun('Energy', 99_999_999, 1)] });
    const def = unit({ hp: 1000, armour: 6, sh: 20 });
    const r = simulateVolley(att, def, { trials: 2000 });
    assert.equal(r.method, 'sampled');
    assert.ok(r.trials && r.trials > 0 && r.standardError && r.note && /sampled|estimated/i.test(r.note), JSON.stringify(r.note));
    // Millions of unsaved hits: the defender is certainly destroyed.
    assert.equal(r.killProbability, 1);
    assert.equal(r.expectedHullDamage, 1000);
    assert.equal(r.expectedShieldsRemoved, 20);
  });
  it('HP in the thousands stays exact (only reachable states are kept)', () => {
    const att = unit({ bs: 5, weapons: [gun('Energy', 10, 3), gun('Blast', 4, 2)] });
    const def = unit({ class: 'Frigate', bases: 2, hp: 5000, baseMm: 50, sh: 3, armour: 5, combinedShields: true });
    const r = simulateVolley(att, def);
    assert.equal(r.method, 'exact');
    near(
      r.hullDamage.reduce((a, p) => a + p.p, 0),
      1,
      'sum',
      1e-9,
    );
  });
  it('an engagement with absurd attack counts rolls the dice and says which policy it used', () => {
    const swarm = unit({ name: 'Swarm', hp: 1_000_000, sh: 5, ld: { target: 5, dice: 2 }, weapons: [gun('Auto', 99_999_999, 1)] });
    const r = simulateEngagement(swarm, { ...swarm, name: 'Other' }, { trials: 300, rounds: 3 });
    assert.equal(r.policy, POLICY_RULE);
    assert.equal(r.exact, undefined);
    assert.ok(Math.abs(r.attackerWins + r.defenderWins + r.neither - 1) < 1e-12);
    // 10^8 attacks against 10^6 HP: whoever activates first destroys the other in round 1.
    assert.equal(r.neither, 0);
    assert.equal(r.meanRounds, 1);
  });
  it('an engagement with HP in the billions stays on exact kernels', () => {
    const hulk = unit({ name: 'Hulk', hp: 1_000_000_000, sh: 3, armour: 5, weapons: [gun('Energy', 4, 3), gun('Ion', 3, 2)] });
    const r = simulateEngagement(hulk, { ...hulk, name: 'Other' }, { trials: 500, rounds: 2 });
    assert.equal(r.policy, POLICY_EXPECTED);
    assert.equal(r.neither, 1);
  });
  it('the same seed gives the same sampled volley; another seed another', () => {
    const att = unit({ bs: 5, weapons: [gun('Auto', 5, 2), gun('Ion', 3, 1)] });
    const def = unit({ dodge: 7, sh: 3, armour: 6 });
    const a = sampledVolleyResult(att, def, { trials: 500, seed: 7 });
    const b = sampledVolleyResult(att, def, { trials: 500, seed: 7 });
    const c = sampledVolleyResult(att, def, { trials: 500, seed: 8 });
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.hullDamage, c.hullDamage);
  });
});

describe('sim: initiative', () => {
  const cases: { name: string; a?: { target: number; dice: number }; b?: { target: number; dice: number }; want: number }[] = [
    { name: 'a unit without LD never wins against one with LD', a: undefined, b: { target: 10, dice: 1 }, want: 0 },
    { name: 'two units without LD: a coin flip', a: undefined, b: undefined, want: 0.5 },
    { name: 'identical LD: a coin flip after re-rolls', a: { target: 6, dice: 3 }, b: { target: 6, dice: 3 }, want: 0.5 },
    // A succeeds 0.8, B 0.1: more 0.8 x 0.9, tie (both or neither) 0.08 + 0.18 goes to the lower target (A)
    { name: '3/1 against 10/1: ties go to the lower target', a: { target: 3, dice: 1 }, b: { target: 10, dice: 1 }, want: 0.8 * 0.9 + 0.8 * 0.1 + 0.2 * 0.9 },
    // same target 5 (0.6): one die against two. A more: 0.6 x 0.4^2; tie: 0.4 x 0.4^2 + 0.6 x 2 x 0.6 x 0.4 goes to more dice (B)
    { name: 'same target: ties go to more dice', a: { target: 5, dice: 1 }, b: { target: 5, dice: 2 }, want: 0.6 * 0.16 },
  ];
  for (const c of cases) it(c.name, () => near(initiativeOdds(c.a, c.b), c.want, 'P(first)'));
});

describe('sim: engagement, worked by hand', () => {
  const sniper = (name: string, ld?: { target: number; dice: number }) => unit({ name, bs: 3, hp: 1, ld, weapons: [gun('Energy', 1, 1, 12)] });
  it('a one-shot duel over one round: initiative decides who shoots first', () => {
    const a = sniper('A', { target: 3, dice: 1 });
    const b = sniper('B', { target: 10, dice: 1 });
    const pA = 0.8 * 0.9 + 0.8 * 0.1 + 0.2 * 0.9; // as in the initiative case above
    const r = simulateEngagement(a, b, { rounds: 1, trials: 4000, seed: 3 });
    assert.ok(r.exact, 'exact chain');
    // A first (pA): A kills with 0.8; else B kills with 0.8. B first: the mirror.
    near(r.exact.attackerWins, pA * 0.8 + (1 - pA) * 0.2 * 0.8, 'attacker wins');
    near(r.exact.defenderWins, (1 - pA) * 0.8 + pA * 0.2 * 0.8, 'defender wins');
    near(r.exact.neither, 0.04, 'neither');
    for (const k of ['attackerWins', 'defenderWins', 'neither'] as const)
      assert.ok(Math.abs(r[k] - r.exact[k]) <= 4 * r.standardError[k] + 1e-12, `${k}: sampled ${r[k]} vs exact ${r.exact[k]}`);
  });
  it('a target that cannot shoot back survives n rounds with 0.2^n', () => {
    const a = sniper('A');
    const b = unit({ name: 'B', hp: 1 });
    const r = simulateEngagement(a, b, { rounds: 3, trials: 2000, seed: 1 });
    near(r.exact!.attackerWins, 1 - 0.2 ** 3, 'attacker wins');
    near(r.exact!.defenderWins, 0, 'defender wins');
    near(r.exact!.meanRounds, 0.8 * 1 + 0.2 * 0.8 * 2 + 0.04 * 3, 'mean rounds');
    near(r.exact!.survival[1]!.defender, 0.04, 'defender alive after round 2');
  });
  it('out of range, nobody is hurt', () => {
    const a = unit({ name: 'A', weapons: [gun('Energy', 5, 3, 6)] });
    const b = unit({ name: 'B', weapons: [gun('Energy', 5, 3, 9)] });
    const r = simulateEngagement(a, b, { range: 12, trials: 100 });
    assert.equal(r.neither, 1);
    assert.equal(r.exact!.neither, 1);
  });
  it('a shield-less unit never picks Shields Back Online; an unarmoured one never braces', () => {
    const a = unit({ name: 'A', weapons: [gun('Energy', 3, 1)] });
    const b = unit({ name: 'B', weapons: [gun('Energy', 3, 1)] });
    const r = simulateEngagement(a, b, { trials: 300 });
    assert.equal(r.actions!.attacker.shields + r.actions!.attacker.brace + r.actions!.defender.shields + r.actions!.defender.brace, 0);
  });
  it('the same seed gives the same engagement, and the policy is returned', () => {
    const a = unit({ name: 'A', sh: 2, armour: 6, hp: 6, ld: { target: 6, dice: 2 }, weapons: [gun('Ion', 3, 2), gun('Auto', 2, 1)] });
    const b = unit({ name: 'B', dodge: 8, sh: 3, hp: 5, ld: { target: 5, dice: 2 }, weapons: [gun('Piercing', 4, 1)] });
    const x = simulateEngagement(a, b, { seed: 11, trials: 3000 });
    const y = simulateEngagement(a, b, { seed: 11, trials: 3000 });
    assert.deepEqual(x, y);
    assert.match(x.policy, /Shields Back Online/);
  });
});

describe('sim: options and input errors', () => {
  const bad: [unknown, RegExp][] = [
    [{ range: -3 }, /range/],
    [{ range: 'far' }, /range/],
    [{ trials: 0 }, /trials/],
    [{ trials: 1.5 }, /trials/],
    [{ trials: '1e99' }, /trials/],
    [{ rounds: 'six' }, /rounds/],
    [{ seed: -1 }, /seed/],
    [{ cover: 'yes' }, /cover/],
    [{ defenderShields: -2 }, /defenderShields/],
    [{ attackerBases: 0 }, /attackerBases/],
    [{ warp: 9 }, /Unknown option "warp"/],
    ['12', /object/],
    [[1, 2], /object/],
  ];
  for (const [raw, re] of bad)
    it(`rejects ${JSON.stringify(raw)} with a sentence`, () => {
      const v = validateOptions(raw);
      assert.equal(v.options, undefined);
      assert.ok(
        v.errors.some((e) => re.test(e)),
        v.errors.join(' | '),
      );
    });
  it('accepts numbers written as text (CLI flags) and fills nothing it was not given', () => {
    const v = validateOptions({ range: '12', trials: '500', seed: '3', cover: 'true' });
    assert.deepEqual(v.errors, []);
    assert.deepEqual(v.options, { range: 12, trials: 500, seed: 3, cover: true });
  });
  it('checks options against the cards: aimed weapon, bases, shields', () => {
    const att = unit({ name: 'A', weapons: [gun('Energy', 1, 1, 12, 'Lance')] });
    const def = unit({ name: 'F', class: 'Frigate', bases: 2, sh: 2, combinedShields: true });
    const v = validateOptions({ aim: 'Cannon', attackerBases: 2, defenderBases: 1, defenderShields: 3 }, att, def);
    assert.equal(v.errors.length, 3, v.errors.join(' | '));
    assert.match(v.errors.join(' '), /0: Lance/);
    assert.match(v.errors.join(' '), /2 per base x 1/);
  });
  it('the engine holds nonsense in range instead of throwing, even without validation', () => {
    const att = unit({ weapons: [gun('Energy', 2, 1)] });
    const r = simulate(att, unit(), { trials: -5, rounds: 1e9, defenderBases: 99, defenderShields: NaN } as never);
    assert.equal(r.engagement.trials, 1);
    assert.ok(r.engagement.rounds <= 100);
    assert.equal(r.options.defenderBases, 1);
  });
});

/** A unit card in the document model, as the parser would give it (offsets are not used here). */
function card(fields: {
  name: string;
  class: string;
  bases?: number;
  base?: number;
  stats: Partial<Record<StatName, StatEntry['value']>>;
  weapons?: Partial<Record<'name' | 'type' | 'range' | 'damage' | 'attacks', unknown>>[];
}): UnitCard {
  const span = { start: 0, end: 0 };
  const f = <T>(value: T | undefined, raw = String(value ?? '')): Field<T> => ({ value, raw, span });
  const entries: Partial<Record<StatName, StatEntry>> = {};
  for (const [k, v] of Object.entries(fields.stats)) entries[k as StatName] = { stat: k as StatName, raw: 'x', span, keySpan: span, value: v };
  return {
    span,
    name: f(fields.name),
    class: f(fields.class as never),
    points: f(100),
    bases: fields.bases === undefined ? undefined : f(fields.bases),
    base: fields.base === undefined ? undefined : f(fields.base),
    stats: { form: 'mapping', keySpan: span, span, entries },
    weapons: fields.weapons && {
      keySpan: span,
      span,
      items: fields.weapons.map((w) => ({
        form: 'mapping' as const,
        span,
        name: f(w.name as string),
        type: f(w.type as WeaponType),
        range: f(w.range as number),
        damage: f(w.damage as number),
        attacks: f(w.attacks as number),
      })),
    },
    faction: f('Test'),
  };
}

describe('sim: profiles from cards', () => {
  it('takes the class defaults for bases, base size and Combined Shields', () => {
    const r = profileFromCard(
      card({
        name: 'Maw Frigate',
        class: 'Frigate',
        stats: {
          BS: { kind: 'target', target: 6 },
          D: { kind: 'none' },
          SH: { kind: 'count', n: 2 },
          AC: { kind: 'target', target: 6 },
          HP: { kind: 'count', n: 3 },
          LD: { kind: 'none' },
        },
        weapons: [{ name: 'Maw Cannon', type: 'Piercing', range: 12, damage: 2, attacks: 3 }],
      }),
    );
    assert.deepEqual(r.profile, {
      name: 'Maw Frigate',
      class: 'Frigate',
      bases: 2,
      baseMm: 50,
      bs: 6,
      dodge: undefined,
      sh: 2,
      armour: 6,
      hp: 3,
      ld: undefined,
      combinedShields: true,
      weapons: [{ name: 'Maw Cannon', type: 'Piercing', range: 12, damage: 2, attacks: 3 }],
      // The card's points ride along (the retreat variant weighs a duel's units by them).
      points: 100,
    });
  });
  it("uses the card's base size and LD", () => {
    const r = profileFromCard(
      card({
        name: 'X',
        class: 'Cruiser',
        base: 80,
        stats: { BS: { kind: 'target', target: 4 }, HP: { kind: 'count', n: 8 }, LD: { kind: 'targetDice', target: 5, dice: 3 } },
      }),
    );
    assert.equal(r.profile?.baseMm, 80);
    assert.deepEqual(r.profile?.ld, { target: 5, dice: 3 });
  });
  const broken: [string, Parameters<typeof card>[0], RegExp][] = [
    ['no class', { name: 'X', class: 'Starbase', stats: { BS: { kind: 'target', target: 4 }, HP: { kind: 'count', n: 8 } } }, /class/],
    ['no BS', { name: 'X', class: 'Cruiser', stats: { HP: { kind: 'count', n: 8 } } }, /BS/],
    ['unreadable HP', { name: 'X', class: 'Cruiser', stats: { BS: { kind: 'target', target: 4 }, HP: undefined } }, /HP/],
    [
      'negative damage',
      {
        name: 'X',
        class: 'Cruiser',
        stats: { BS: { kind: 'target', target: 4 }, HP: { kind: 'count', n: 8 } },
        weapons: [{ name: 'W', type: 'Ion', range: 12, damage: -1, attacks: 2 }],
      },
      /damage/,
    ],
    [
      'weapon without attacks',
      {
        name: 'X',
        class: 'Cruiser',
        stats: { BS: { kind: 'target', target: 4 }, HP: { kind: 'count', n: 8 } },
        weapons: [{ name: 'W', type: 'Ion', range: 12, damage: 1 }],
      },
      /attacks/,
    ],
  ];
  for (const [what, c, re] of broken)
    it(`explains a card it cannot use: ${what}`, () => {
      const r = profileFromCard(card(c));
      assert.equal(r.profile, undefined);
      assert.match(r.error ?? '', re);
      assert.match(r.error ?? '', /^X: /);
    });
});

describe('sim: report', () => {
  it('prints a volley table, a histogram and the engagement odds', () => {
    const att = unit({ name: 'Lumen <b>Destroyer</b>', weapons: [gun('Energy', 3, 2, 18, 'Lumen Lance'), gun('Ion', 4, 2, 9, 'Pulse Laser')] });
    const def = unit({ name: 'Maw Frigate', class: 'Frigate', bases: 2, hp: 3, sh: 2, baseMm: 50, combinedShields: true, weapons: [gun('Piercing', 3, 2)] });
    const text = renderReport(simulate(att, def, { range: 12, trials: 500 }));
    assert.match(text, /Lumen Lance\s+Energy\s+3/);
    assert.match(text, /Pulse Laser\s+Ion\s+out of range/);
    assert.match(text, /\n\s+0 \| #+\s+\d+\.\d%/);
    assert.match(text, /Lumen <b>Destroyer<\/b> wins/);
    assert.match(text, /Policy: /);
  });
});
