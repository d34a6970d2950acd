/**
 * One Fire action of the attacker at the defender (RULES.md reference model): exact when the work
 * fits, otherwise seeded sampling that says so.
 */
import type { Point, UnitProfile, VolleyOptions, VolleyResult, WeaponBreakdown } from './types';
import { attacksAgainst, basesLeft, planFire } from './fire';
import { atLeast } from './cumulative';
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

/**
 * The outcomes of Fire actions, each with a weight (its probability, or 1 for a sampled trial) out
 * of `total` (1, or the number of trials): the distributions of hull damage, shields removed and
 * bases destroyed, their means, the chance of a kill, and the sums of squares behind the sampled
 * figures' standard errors.
 */
class Outcomes {
  private readonly hull = new Map<number, number>();
  private readonly shields = new Map<number, number>();
  private readonly bases = new Map<number, number>();
  hullSum = 0;
  hullSquares = 0;
  shieldsSum = 0;
  shieldsSquares = 0;
  private basesSum = 0;
  private kills = 0;

  constructor(private readonly total: number) {}

  add(hullLost: number, shieldsLost: number, basesLost: number, killed: boolean, weight: number): void {
    const p = weight / this.total;
    bump(this.hull, hullLost, p);
    bump(this.shields, shieldsLost, p);
    bump(this.bases, basesLost, p);
    this.hullSum += weight * hullLost;
    this.hullSquares += weight * hullLost * hullLost;
    this.shieldsSum += weight * shieldsLost;
    this.shieldsSquares += weight * shieldsLost * shieldsLost;
    this.basesSum += weight * basesLost;
    if (killed) this.kills += weight;
  }

  get killProbability(): number {
    return this.kills / this.total;
  }

  /** The figures of a volley result, with the weapons' breakdown. */
  result(method: VolleyResult['method'], weapons: WeaponBreakdown[]): VolleyResult {
    return {
      method,
      expectedShieldsRemoved: this.shieldsSum / this.total,
      expectedHullDamage: this.hullSum / this.total,
      expectedBasesDestroyed: this.basesSum / this.total,
      killProbability: this.killProbability,
      hullDamage: toPoints(this.hull),
      hullDamageAtLeast: atLeast(toPoints(this.hull)),
      shieldsRemoved: toPoints(this.shields),
      basesDestroyed: toPoints(this.bases),
      weapons,
    };
  }
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
  const out = new Outcomes(1);
  for (const [key, p] of dist) {
    const hull = Math.floor(key / stride);
    const sh = key - hull * stride;
    out.add(hull0 - hull, sh0 - sh, bases0 - basesLeft(hull, v.ctx.hp), hull === 0, p);
  }
  return out.result('exact', breakdown(v, tallies));
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
  const out = new Outcomes(trials);
  const s = { sh: sh0, hull: hull0 };
  for (let t = 0; t < trials; t++) {
    s.sh = sh0;
    s.hull = hull0;
    sampleVolley(v.ctx, s, dice, sums, literalDice);
    out.add(hull0 - s.hull, sh0 - s.sh, bases0 - basesLeft(s.hull, v.ctx.hp), s.hull === 0, 1);
  }
  const mean = (x: number) => x / trials;
  const se = (sum: number, sum2: number) => {
    if (trials < 2) return 0;
    const m = sum / trials;
    return Math.sqrt(Math.max(0, (sum2 / trials - m * m) * (trials / (trials - 1))) / trials);
  };
  const kill = out.killProbability;
  const tallies: WeaponTally[] = v.ctx.plans.map((_, i) => ({
    expectedHits: mean(sums.hits[i]!),
    expectedCrits: mean(sums.crits[i]!),
    expectedShieldsRemoved: mean(sums.shields[i]!),
    expectedHullDamage: mean(sums.hull[i]!),
  }));
  return {
    ...out.result('sampled', breakdown(v, tallies)),
    trials,
    seed,
    standardError: {
      expectedHullDamage: se(out.hullSum, out.hullSquares),
      killProbability: trials < 2 ? 0 : Math.sqrt((kill * (1 - kill)) / trials),
      expectedShieldsRemoved: se(out.shieldsSum, out.shieldsSquares),
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
