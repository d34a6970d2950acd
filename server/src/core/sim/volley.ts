/**
 * One Fire action of the attacker at the defender (RULES.md reference model): exact when the work
 * fits, otherwise seeded sampling that says so.
 */
import type { Point, UnitProfile, VolleyOptions, VolleyResult, WeaponBreakdown } from './types';
import { attacksAgainst, basesLeft, planFire } from './fire';
import type { FireContext } from './fire';
import { EXACT_WORK_LIMIT, exactVolley } from './volley-exact';
import type { StateDist, WeaponTally } from './volley-exact';
import { newWeaponSums, sampleCost, sampleVolley } from './volley-sample';
import { Dice, makeRng } from './dice';
import { asResolved, type Resolved } from './options';
import { sanitizeProfile } from './profile';

/** A sampled volley does at most about this many dice' worth of work (about a second). */
export const SAMPLE_WORK_LIMIT = 2e7;

export interface VolleyInternals {
  resolved: Resolved;
  ctx: FireContext;
}

/** Options resolved and the Fire action planned, for profiles held to what the engine can run. */
export function volleySetup(attacker: UnitProfile, defender: UnitProfile, opts: VolleyOptions | Resolved): VolleyInternals {
  const att = sanitizeProfile(attacker);
  const def = sanitizeProfile(defender);
  const resolved = asResolved(att, def, opts);
  const ctx = planFire(att, def, {
    attackerBases: resolved.attackerBases,
    cover: resolved.cover,
    brace: resolved.brace,
    aim: resolved.aim,
    range: resolved.volleyRange,
  });
  return { resolved, ctx };
}

function toPoints(m: Map<number, number>): Point[] {
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([value, p]) => ({ value, p }));
}

function bump(m: Map<number, number>, k: number, p: number): void {
  m.set(k, (m.get(k) ?? 0) + p);
}

function breakdown(v: VolleyInternals, tallies: WeaponTally[]): WeaponBreakdown[] {
  return v.ctx.plans.map((plan, i) => ({
    name: plan.weapon.name,
    type: plan.weapon.type,
    inRange: plan.inRange,
    attacks: attacksAgainst({ ...plan, inRange: true }, v.resolved.defenderBases),
    aimed: plan.aimed,
    expectedHits: tallies[i]?.expectedHits ?? 0,
    expectedCrits: tallies[i]?.expectedCrits ?? 0,
    expectedShieldsRemoved: tallies[i]?.expectedShieldsRemoved ?? 0,
    expectedHullDamage: tallies[i]?.expectedHullDamage ?? 0,
  }));
}

/** Builds the result from the exact final distribution. */
function fromExact(v: VolleyInternals, dist: StateDist, stride: number, tallies: WeaponTally[]): VolleyResult {
  const { defenderHull: hull0, defenderShields: sh0, defenderBases: bases0 } = v.resolved;
  const hullDamage = new Map<number, number>();
  const shields = new Map<number, number>();
  const bases = new Map<number, number>();
  let eHull = 0;
  let eShields = 0;
  let eBases = 0;
  let kill = 0;
  for (const [key, p] of dist) {
    const hull = Math.floor(key / stride);
    const sh = key - hull * stride;
    const lost = bases0 - basesLeft(hull, v.ctx.hp);
    bump(hullDamage, hull0 - hull, p);
    bump(shields, sh0 - sh, p);
    bump(bases, lost, p);
    eHull += p * (hull0 - hull);
    eShields += p * (sh0 - sh);
    eBases += p * lost;
    if (hull === 0) kill += p;
  }
  return {
    method: 'exact',
    expectedShieldsRemoved: eShields,
    expectedHullDamage: eHull,
    expectedBasesDestroyed: eBases,
    killProbability: kill,
    hullDamage: toPoints(hullDamage),
    shieldsRemoved: toPoints(shields),
    basesDestroyed: toPoints(bases),
    weapons: breakdown(v, tallies),
  };
}

/** The exact volley, or undefined when it would exceed the work limit. */
export function exactVolleyResult(att: UnitProfile, def: UnitProfile, opts: VolleyOptions | Resolved, limit = EXACT_WORK_LIMIT): VolleyResult | undefined {
  const v = volleySetup(att, def, opts);
  const stride = v.resolved.defenderShields + 1;
  if ((v.resolved.defenderHull + 1) * stride > Number.MAX_SAFE_INTEGER) return undefined;
  const start: StateDist = new Map([[v.resolved.defenderHull * stride + v.resolved.defenderShields, 1]]);
  const ex = exactVolley(v.ctx, start, stride, { ops: 0, limit });
  return ex && fromExact(v, ex.dist, stride, ex.tallies);
}

/**
 * The sampled volley: `trials` seeded Fire actions (fewer when that would take more than about a
 * second; the result says how many ran), with standard errors of the three headline figures.
 */
export function sampledVolleyResult(
  att: UnitProfile,
  def: UnitProfile,
  opts: (VolleyOptions & { trials?: number; seed?: number }) | Resolved,
  literalDice?: number,
): VolleyResult {
  const v = volleySetup(att, def, opts);
  const { defenderHull: hull0, defenderShields: sh0, defenderBases: bases0, seed } = v.resolved;
  const cost = sampleCost(v.ctx, bases0, literalDice);
  const trials = Math.max(1, Math.min(v.resolved.trials, Math.floor(SAMPLE_WORK_LIMIT / cost)));
  const dice = new Dice(makeRng(seed));
  const sums = newWeaponSums(v.ctx.plans.length);
  const hullDamage = new Map<number, number>();
  const shields = new Map<number, number>();
  const bases = new Map<number, number>();
  let sH = 0;
  let sH2 = 0;
  let sS = 0;
  let sS2 = 0;
  let sB = 0;
  let kills = 0;
  const s = { sh: sh0, hull: hull0 };
  for (let t = 0; t < trials; t++) {
    s.sh = sh0;
    s.hull = hull0;
    sampleVolley(v.ctx, s, dice, sums, literalDice);
    const dh = hull0 - s.hull;
    const ds = sh0 - s.sh;
    const db = bases0 - basesLeft(s.hull, v.ctx.hp);
    sH += dh;
    sH2 += dh * dh;
    sS += ds;
    sS2 += ds * ds;
    sB += db;
    if (s.hull === 0) kills++;
    bump(hullDamage, dh, 1 / trials);
    bump(shields, ds, 1 / trials);
    bump(bases, db, 1 / trials);
  }
  const mean = (x: number) => x / trials;
  const se = (sum: number, sum2: number) => {
    if (trials < 2) return 0;
    const m = sum / trials;
    return Math.sqrt(Math.max(0, (sum2 / trials - m * m) * (trials / (trials - 1))) / trials);
  };
  const kill = kills / trials;
  const tallies: WeaponTally[] = v.ctx.plans.map((_, i) => ({
    expectedHits: mean(sums.hits[i]!),
    expectedCrits: mean(sums.crits[i]!),
    expectedShieldsRemoved: mean(sums.shields[i]!),
    expectedHullDamage: mean(sums.hull[i]!),
  }));
  return {
    method: 'sampled',
    expectedShieldsRemoved: mean(sS),
    expectedHullDamage: mean(sH),
    expectedBasesDestroyed: mean(sB),
    killProbability: kill,
    hullDamage: toPoints(hullDamage),
    shieldsRemoved: toPoints(shields),
    basesDestroyed: toPoints(bases),
    weapons: breakdown(v, tallies),
    trials,
    seed,
    standardError: {
      expectedHullDamage: se(sH, sH2),
      killProbability: trials < 2 ? 0 : Math.sqrt((kill * (1 - kill)) / trials),
      expectedShieldsRemoved: se(sS, sS2),
    },
  };
}

/** One Fire action: exact when it fits, else sampled with a note saying why. */
export function simulateVolley(att: UnitProfile, def: UnitProfile, opts: (VolleyOptions & { trials?: number; seed?: number }) | Resolved = {}): VolleyResult {
  const exact = exactVolleyResult(att, def, opts);
  if (exact) return exact;
  const sampled = sampledVolleyResult(att, def, opts);
  const v = volleySetup(att, def, opts);
  const maxAttacks = Math.max(0, ...sampled.weapons.map((w) => (w.inRange ? w.attacks : 0)));
  sampled.note =
    `The exact distribution would take too long to compute (up to ${maxAttacks} attacks from one weapon, ` +
    `${v.ctx.hp} HP per base), so it was estimated from ${sampled.trials} seeded trials (seed ${sampled.seed}).`;
  return sampled;
}
