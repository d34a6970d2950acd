/**
 * Properties of the simulator on random cards (fast-check, with fixed seeds so that every run
 * checks the same cases and a failure is reproducible):
 * - the exact Fire action and the die-by-die sampled one agree within 4 standard errors;
 * - so do the binomial-draw sampler and the exact engagement chain with its sampled counterpart;
 * - distributions sum to 1 and agree with their expectations;
 * - the same seed reproduces a run;
 * - cover and brace never help the attacker.
 * The standard error used is the exact one (from the exact distribution's variance), so a sample
 * that happens to be constant is still judged fairly.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { CLASSES, CLASS_NAMES, DICE, DOGFIGHTERS, PRECISION_STRIKE, SMALL_CRAFT_MAX_RANGE, WEAPON_TYPES } from '../../server/src/core/rules/data';
import type { UnitClass } from '../../server/src/core/rules/data';
import { simulate, simulateEngagement } from '../../server/src/core/sim/index';
import { exactVolleyResult, sampledVolleyResult, volleySetup } from '../../server/src/core/sim/volley';
import { exactVolley, exactVolleyFrom, outcomeNoShields, outcomeWithShields, VolleySums } from '../../server/src/core/sim/volley-exact';
import type { WeaponTally } from '../../server/src/core/sim/volley-exact';
import { maxShields } from '../../server/src/core/sim/fire';
import type { EngagementOptions, Point, UnitProfile, VolleyResult } from '../../server/src/core/sim/types';

const weaponArb = fc.record({
  name: fc.constantFrom('Lance', 'Cannon', 'Flak', 'Torpedo'),
  type: fc.constantFrom(...WEAPON_TYPES),
  range: fc.constantFrom(6, 9, 12, 18),
  damage: fc.integer({ min: 1, max: 4 }),
  attacks: fc.integer({ min: 1, max: 6 }),
});

const unitArb = (name: string) =>
  fc
    .record({
      class: fc.constantFrom(...CLASS_NAMES),
      bs: fc.integer({ min: 3, max: 10 }),
      dodge: fc.option(fc.integer({ min: 3, max: 10 }), { nil: undefined }),
      sh: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
      armour: fc.option(fc.integer({ min: 3, max: 10 }), { nil: undefined }),
      hp: fc.integer({ min: 1, max: 6 }),
      ld: fc.option(fc.record({ target: fc.integer({ min: 3, max: 10 }), dice: fc.integer({ min: 1, max: 4 }) }), { nil: undefined }),
      weapons: fc.array(weaponArb, { minLength: 1, maxLength: 3 }),
    })
    .map((u): UnitProfile => {
      const row = CLASSES[u.class as UnitClass];
      return { name, ...u, bases: row.bases, baseMm: row.baseMm, combinedShields: row.combinedShields };
    });

const pairArb = fc
  .tuple(
    unitArb('Attacker'),
    unitArb('Defender'),
    fc.record({
      cover: fc.boolean(),
      brace: fc.boolean(),
      aim: fc.nat(3),
      aimed: fc.boolean(),
      range: fc.option(fc.constantFrom(6, 9, 12), { nil: undefined }),
      basesA: fc.nat(3),
      basesD: fc.nat(3),
      shields: fc.option(fc.nat(30), { nil: undefined }),
    }),
    fc.integer({ min: 0, max: 0xffffffff }),
  )
  .map(([att, def, o, seed]) => {
    const defenderBases = 1 + (o.basesD % def.bases);
    const opts: EngagementOptions = {
      cover: o.cover,
      brace: o.brace,
      range: o.range,
      attackerBases: 1 + (o.basesA % att.bases),
      defenderBases,
      seed,
    };
    if (o.aimed) opts.aim = String(o.aim % att.weapons.length);
    if (o.shields !== undefined) opts.defenderShields = o.shields % (maxShields(def, defenderBases * def.hp) + 1);
    return { att, def, opts };
  });

function moments(points: Point[]): { mean: number; variance: number } {
  const mean = points.reduce((a, p) => a + p.value * p.p, 0);
  return {
    mean,
    variance: Math.max(
      0,
      points.reduce((a, p) => a + (p.value - mean) ** 2 * p.p, 0),
    ),
  };
}

/** Whether a sampled estimate is within 4 exact standard errors of the exact value. */
function within4(sampled: number, exact: number, variance: number, trials: number): boolean {
  return Math.abs(sampled - exact) <= 4 * Math.sqrt(variance / trials) + 1e-9;
}

function agree(exact: VolleyResult, sampled: VolleyResult): string | undefined {
  const n = sampled.trials!;
  const hull = moments(exact.hullDamage);
  const sh = moments(exact.shieldsRemoved);
  const k = exact.killProbability;
  if (!within4(sampled.expectedHullDamage, exact.expectedHullDamage, hull.variance, n))
    return `hull ${sampled.expectedHullDamage} vs ${exact.expectedHullDamage}`;
  if (!within4(sampled.killProbability, k, k * (1 - k), n)) return `kill ${sampled.killProbability} vs ${k}`;
  if (!within4(sampled.expectedShieldsRemoved, exact.expectedShieldsRemoved, sh.variance, n))
    return `shields ${sampled.expectedShieldsRemoved} vs ${exact.expectedShieldsRemoved}`;
  return undefined;
}

/**
 * A second, deliberately plain implementation of RULES.md's reference model, written from the text
 * and sharing nothing with the engine but the rules pack: per-face d10 counting, one die and one
 * hit at a time, the defender as (SH, bases left, HP of the damaged base). Used to check the
 * engine's exact results to 1e-12 on random cards.
 */
function referenceVolley(att: UnitProfile, def: UnitProfile, o: EngagementOptions): { hull: number; kill: number; shields: number } {
  const succeeds = (target: number) => {
    const t = Math.max(target, DICE.bestTarget);
    let n = 0;
    for (let r = 1; r <= 10; r++) if (r > DICE.autoFailAtOrBelow && (r === DICE.critical || r >= t)) n++;
    return n / 10;
  };
  const aimIdx = o.aim === undefined ? -1 : Number(o.aim);
  const attBases = o.attackerBases ?? att.bases;
  const defBases = o.defenderBases ?? def.bases;
  const poolMax = (bases: number) => (def.sh ?? 0) * (def.combinedShields ? bases : 1);
  const sh0 = o.defenderShields ?? poolMax(defBases);
  type S = { sh: number; bases: number; cur: number };
  const key = (s: S) => `${s.sh},${s.bases},${s.cur}`;
  let dist = new Map<string, { s: S; p: number }>([[key({ sh: sh0, bases: defBases, cur: def.hp }), { s: { sh: sh0, bases: defBases, cur: def.hp }, p: 1 }]]);
  att.weapons.forEach((w, wi) => {
    const reach = CLASSES[att.class].smallCraft ? Math.min(w.range, SMALL_CRAFT_MAX_RANGE) : w.range;
    if (o.range !== undefined && reach < o.range) return;
    const next = new Map<string, { s: S; p: number }>();
    const put = (s: S, p: number) => {
      const k = key(s);
      const e = next.get(k);
      if (e) e.p += p;
      else next.set(k, { s, p });
    };
    for (const { s, p } of dist.values()) {
      if (s.bases === 0) {
        put(s, p);
        continue;
      }
      // 1. attacks
      let a = w.attacks;
      if (att.class === 'Fighter') a = attBases * (def.baseMm <= DOGFIGHTERS.targetBaseAtMostMm ? 2 : 1);
      if (att.class === 'Bomber') a = attBases * (def.baseMm >= PRECISION_STRIKE.targetBaseAtLeastMm ? 2 : 1);
      if (w.type === 'Blast') a *= s.bases;
      // 2. to hit, die by die: distribution over (crits, normal hits)
      const bs = Math.max(att.bs + (o.cover ? 1 : 0) - (wi === aimIdx ? 1 : 0), DICE.bestTarget);
      let pCrit = 0;
      let pHit = 0;
      for (let r = 1; r <= 10; r++) {
        if (r <= 2) continue;
        if (r === 10) pCrit += 0.1;
        else if (r >= bs) pHit += 0.1;
      }
      let rolls = new Map<string, number>([['0,0', 1]]);
      for (let i = 0; i < a; i++) {
        const n2 = new Map<string, number>();
        for (const [k, q] of rolls) {
          const [c, n] = k.split(',').map(Number) as [number, number];
          const add = (kk: string, pp: number) => n2.set(kk, (n2.get(kk) ?? 0) + pp);
          add(`${c + 1},${n}`, q * pCrit);
          add(`${c},${n + 1}`, q * pHit);
          add(`${c},${n}`, q * (1 - pCrit - pHit));
        }
        rolls = n2;
      }
      for (const [k, q] of rolls) {
        const [c, rolled] = k.split(',').map(Number) as [number, number];
        // 3. Auto
        const normals = rolled + (w.type === 'Auto' ? c : 0);
        // 4. dodge, hit by hit
        const dodge = def.dodge === undefined ? 0 : succeeds(def.dodge + (w.type === 'Energy' && c >= 1 ? 1 : 0));
        let landed = new Map<number, number>([[0, 1]]);
        for (let i = 0; i < normals; i++) {
          const n2 = new Map<number, number>();
          for (const [m, qq] of landed) {
            n2.set(m + 1, (n2.get(m + 1) ?? 0) + qq * (1 - dodge));
            n2.set(m, (n2.get(m) ?? 0) + qq * dodge);
          }
          landed = n2;
        }
        for (const [nl, ql] of landed) {
          // 5. shields, crits first, one hit at a time
          let sh = s.sh;
          const through: boolean[] = [];
          for (let i = 0; i < c + nl; i++) {
            const crit = i < c;
            if (sh > 0) sh = Math.max(0, sh - (w.type === 'Ion' ? (crit ? 3 : 2) : 1));
            else through.push(crit);
          }
          // 6. armour, hit by hit; 7. damage, hit by hit
          let states = new Map<string, { s: S; p: number }>([[key({ sh, bases: s.bases, cur: s.cur }), { s: { sh, bases: s.bases, cur: s.cur }, p: 1 }]]);
          for (const crit of through) {
            const save = def.armour === undefined ? 0 : succeeds(def.armour + (w.type === 'Piercing' ? (crit ? 2 : 1) : 0) - (o.brace ? 1 : 0));
            const n2 = new Map<string, { s: S; p: number }>();
            const add = (t: S, pp: number) => {
              const kk = key(t);
              const e = n2.get(kk);
              if (e) e.p += pp;
              else n2.set(kk, { s: t, p: pp });
            };
            for (const { s: t, p: pt } of states.values()) {
              add(t, pt * save);
              if (t.bases === 0) {
                add(t, pt * (1 - save));
                continue;
              }
              let { bases, cur } = t;
              cur -= w.damage;
              let shNow = t.sh;
              if (cur <= 0) {
                bases -= 1;
                cur = def.hp;
                if (def.combinedShields) shNow = Math.min(shNow, poolMax(bases));
              }
              add({ sh: shNow, bases, cur: bases === 0 ? def.hp : cur }, pt * (1 - save));
            }
            states = n2;
          }
          for (const { s: t, p: pt } of states.values()) put(t, p * q * ql * pt);
        }
      }
    }
    dist = next;
  });
  let hull = 0;
  let kill = 0;
  let shields = 0;
  const start = defBases * def.hp;
  for (const { s, p } of dist.values()) {
    const left = s.bases === 0 ? 0 : (s.bases - 1) * def.hp + s.cur;
    hull += p * (start - left);
    shields += p * (sh0 - s.sh);
    if (s.bases === 0) kill += p;
  }
  return { hull, kill, shields };
}

describe('sim properties', function () {
  this.timeout(120_000);

  it('the exact volley matches an independent step-by-step implementation to 1e-12', () => {
    fc.assert(
      fc.property(pairArb, ({ att, def, opts }) => {
        const r = exactVolleyResult(att, def, opts)!;
        const ref = referenceVolley(att, def, opts);
        assert.ok(Math.abs(r.expectedHullDamage - ref.hull) < 1e-12, `hull ${r.expectedHullDamage} vs ${ref.hull}`);
        assert.ok(Math.abs(r.killProbability - ref.kill) < 1e-12, `kill ${r.killProbability} vs ${ref.kill}`);
        assert.ok(Math.abs(r.expectedShieldsRemoved - ref.shields) < 1e-12, `shields ${r.expectedShieldsRemoved} vs ${ref.shields}`);
      }),
      { seed: 29, numRuns: 300 },
    );
  });

  it("a volley from one state into the engine's scratch is exactly the volley's distribution, in its order, with its tallies", () => {
    // One set of sums for every case, as a battle's engine keeps them: what one volley leaves behind
    // never changes the next, and weapons of other cards that share a cache of outcomes (by the
    // numbers they depend on) get the outcomes their own numbers give.
    const sums = new VolleySums();
    fc.assert(
      fc.property(pairArb, fc.nat(40), fc.nat(8), ({ att, def, opts }, hullAt, shAt) => {
        const { ctx } = volleySetup(att, def, opts);
        const stride = maxShields(def, def.bases * def.hp) + 1;
        const hull = 1 + (hullAt % (def.bases * def.hp));
        const key = hull * stride + (shAt % stride);
        const want = exactVolley(ctx, new Map([[key, 1]]), stride, { ops: 0, limit: Infinity })!;
        const tallies: WeaponTally[] = [];
        const budget = { ops: 0, limit: Infinity };
        const n = exactVolleyFrom(ctx, key, stride, budget, sums, tallies);
        assert.equal(n, want.dist.size);
        const got = [...Array(n).keys()].map((i) => [sums.out.keys[i], sums.out.probs[i]]);
        assert.deepEqual(got, [...want.dist], 'the same states in the same order, the same chances to the bit');
        assert.deepEqual(tallies, want.tallies);
        // The same work charged, and none at all over a limit of zero.
        const again = { ops: 0, limit: Infinity };
        exactVolley(ctx, new Map([[key, 1]]), stride, again);
        assert.equal(budget.ops, again.ops);
        if (budget.ops > 0) assert.equal(exactVolleyFrom(ctx, key, stride, { ops: 0, limit: 0 }, sums, []), -1);
      }),
      { seed: 41, numRuns: 300 },
    );
  });

  it('exact and die-by-die sampled volleys agree within 4 standard errors', () => {
    fc.assert(
      fc.property(pairArb, ({ att, def, opts }) => {
        const exact = exactVolleyResult(att, def, opts)!;
        const sampled = sampledVolleyResult(att, def, { ...opts, trials: 3000 });
        const why = agree(exact, sampled);
        assert.equal(why, undefined, why);
      }),
      { seed: 20240601, numRuns: 120 },
    );
  });

  it('exact and binomial-draw sampled volleys agree within 4 standard errors', () => {
    fc.assert(
      fc.property(pairArb, ({ att, def, opts }) => {
        const exact = exactVolleyResult(att, def, opts)!;
        const sampled = sampledVolleyResult(att, def, { ...opts, trials: 3000 }, 0);
        const why = agree(exact, sampled);
        assert.equal(why, undefined, why);
      }),
      { seed: 7, numRuns: 80 },
    );
  });

  it('probabilities sum to 1 and match the expectations', () => {
    fc.assert(
      fc.property(pairArb, ({ att, def, opts }) => {
        const r = exactVolleyResult(att, def, opts)!;
        for (const [points, mean] of [
          [r.hullDamage, r.expectedHullDamage],
          [r.shieldsRemoved, r.expectedShieldsRemoved],
          [r.basesDestroyed, r.expectedBasesDestroyed],
        ] as const) {
          assert.ok(Math.abs(points.reduce((a, p) => a + p.p, 0) - 1) < 1e-9, 'sums to 1');
          assert.ok(
            points.every((p) => p.p >= 0 && p.p <= 1 + 1e-12),
            'each in [0, 1]',
          );
          assert.ok(Math.abs(moments(points).mean - mean) < 1e-9, 'mean matches');
        }
        const v = volleySetup(att, def, opts).resolved;
        const full = r.hullDamage.find((p) => p.value === v.defenderHull)?.p ?? 0;
        assert.ok(Math.abs(full - r.killProbability) < 1e-12, 'kill = P(all hull lost)');
        assert.ok(r.hullDamage.every((p) => p.value <= v.defenderHull) && r.shieldsRemoved.every((p) => p.value <= v.defenderShields));
        assert.ok(Math.abs(r.weapons.reduce((a, w) => a + w.expectedHullDamage, 0) - r.expectedHullDamage) < 1e-9, 'weapons add up');
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it('the closed forms without shields equal the general shield computation at SH 0', () => {
    fc.assert(
      fc.property(pairArb, fc.integer({ min: 0, max: 30 }), ({ att, def, opts }, a) => {
        for (const plan of volleySetup(att, def, opts).ctx.plans) {
          const fast = outcomeNoShields(plan, a, { ops: 0, limit: Infinity })!;
          const slow = outcomeWithShields(plan, a, 0, { ops: 0, limit: Infinity })!;
          // With no shields, "every hit absorbed" can only mean "no hit landed": the same state as 0 unsaved.
          const slowAt = (u: number) => (slow.unsaved[u] ?? 0) + (u === 0 ? (slow.stay.get(0) ?? 0) : 0);
          const n = Math.max(fast.unsaved.length, slow.unsaved.length);
          for (let u = 0; u < n; u++) assert.ok(Math.abs((fast.unsaved[u] ?? 0) - slowAt(u)) < 1e-12, `P(${u} unsaved)`);
          assert.ok(Math.abs(fast.expectedHits - slow.expectedHits) < 1e-9, 'expected hits');
          assert.ok(Math.abs(fast.expectedCrits - slow.expectedCrits) < 1e-9, 'expected crits');
        }
      }),
      { seed: 5, numRuns: 200 },
    );
  });

  it('cover and brace never help the attacker', () => {
    fc.assert(
      fc.property(pairArb, ({ att, def, opts }) => {
        const base = exactVolleyResult(att, def, { ...opts, cover: false, brace: false })!;
        for (const o of [{ cover: true }, { brace: true }]) {
          const r = exactVolleyResult(att, def, { ...opts, cover: false, brace: false, ...o })!;
          assert.ok(r.expectedHullDamage <= base.expectedHullDamage + 1e-12, JSON.stringify(o));
          assert.ok(r.killProbability <= base.killProbability + 1e-12, JSON.stringify(o));
        }
      }),
      { seed: 3, numRuns: 150 },
    );
  });

  it('the same seed reproduces a sampled volley and an engagement', () => {
    fc.assert(
      fc.property(pairArb, ({ att, def, opts }) => {
        assert.deepEqual(sampledVolleyResult(att, def, { ...opts, trials: 200 }), sampledVolleyResult(att, def, { ...opts, trials: 200 }));
        const e = { ...opts, trials: 200, rounds: 3 };
        assert.deepEqual(simulateEngagement(att, def, e, undefined, { exact: false }), simulateEngagement(att, def, e, undefined, { exact: false }));
      }),
      { seed: 13, numRuns: 25 },
    );
  });

  it('the exact engagement chain and the sampled engagement agree within 4 standard errors', () => {
    fc.assert(
      fc.property(pairArb, fc.integer({ min: 1, max: 4 }), ({ att, def, opts }, rounds) => {
        const trials = 3000;
        const r = simulateEngagement(att, def, { ...opts, rounds, trials });
        assert.ok(r.exact, 'small cards fit the exact chain');
        const x = r.exact;
        assert.ok(Math.abs(x.attackerWins + x.defenderWins + x.neither - 1) < 1e-9, 'exact odds sum to 1');
        assert.ok(Math.abs(r.attackerWins + r.defenderWins + r.neither - 1) < 1e-9, 'sampled odds sum to 1');
        for (const k of ['attackerWins', 'defenderWins', 'neither'] as const) {
          assert.ok(within4(r[k], x[k], x[k] * (1 - x[k]), trials), `${k}: sampled ${r[k]} vs exact ${x[k]}`);
        }
      }),
      { seed: 17, numRuns: 40 },
    );
  });

  it('garbage profiles and options never throw and still give distributions', () => {
    const junk = fc.oneof(
      fc.integer({ min: -5, max: 40 }),
      fc.double(),
      fc.constantFrom(NaN, Infinity, -Infinity, 1e300, -0, 99_999_999),
      fc.string({ maxLength: 4 }),
      fc.constant(undefined),
      fc.constant(null),
    );
    const junkUnit = fc.record({
      name: fc.oneof(fc.string(), junk),
      class: fc.oneof(fc.constantFrom(...CLASS_NAMES), fc.string({ maxLength: 6 })),
      bases: junk,
      baseMm: junk,
      bs: junk,
      dodge: junk,
      sh: junk,
      armour: junk,
      hp: junk,
      ld: fc.option(fc.record({ target: junk, dice: junk })),
      combinedShields: fc.boolean(),
      weapons: fc.array(
        fc.record({
          name: fc.oneof(fc.string(), junk),
          type: fc.oneof(fc.constantFrom(...WEAPON_TYPES), fc.string({ maxLength: 5 })),
          range: junk,
          damage: junk,
          attacks: junk,
        }),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(
        junkUnit,
        junkUnit,
        fc.record({
          range: junk,
          cover: fc.anything(),
          aim: junk,
          brace: fc.anything(),
          defenderShields: junk,
          attackerBases: junk,
          defenderBases: junk,
          rounds: junk,
          seed: junk,
        }),
        (a, d, o) => {
          const r = simulate(a as never, d as never, { ...(o as object), trials: 50 } as never);
          for (const points of [r.volley.hullDamage, r.volley.shieldsRemoved, r.volley.basesDestroyed])
            assert.ok(Math.abs(points.reduce((x, p) => x + p.p, 0) - 1) < 1e-9);
          const e = r.engagement;
          assert.ok(Math.abs(e.attackerWins + e.defenderWins + e.neither - 1) < 1e-9);
          assert.ok(Number.isFinite(r.volley.expectedHullDamage) && Number.isFinite(e.meanRounds));
        },
      ),
      { seed: 23, numRuns: 150 },
    );
  });
});
