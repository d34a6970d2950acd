/**
 * The one number the points estimate needs from a Fire action: the expected share of the
 * defender's total HP it removes, with every weapon in range and no modifiers (BATTLE.md, "The
 * points estimate"). Computed exactly by the simulator's own pieces (`planFire`, the per-weapon
 * outcome laws of `volley-exact.ts`, `applyHits`) and held to `exactVolleyResult` in the tests.
 *
 * Two memo tables make a workspace of thousands of cards cheap:
 * - per Fire action, keyed by what the volley reads from the two profiles (the attacker's class,
 *   bases, BS and each weapon's type, damage and attacks; the defender's class, bases, base size,
 *   D, SH, AC and HP), so renaming a card or editing its orders recomputes nothing, and editing a
 *   weapon recomputes only that card's own volleys;
 * - per weapon outcome, keyed by the dice that law depends on (hit, dodge and armour target
 *   numbers, weapon type, attacks and shields up), shared by every volley in which they recur.
 * Both are bounded: past a size they start again empty.
 */
import { planFire, attacksAgainst, basesLeft, applyHits, maxShields } from '../sim/fire';
import type { WeaponPlan } from '../sim/fire';
import { outcomeNoShields, outcomeWithShields, EXACT_WORK_LIMIT } from '../sim/volley-exact';
import type { Budget, PassOutcome } from '../sim/volley-exact';
import { sampledVolleyResult } from '../sim/volley';
import type { UnitProfile } from '../sim/types';
import { DICE, WEAPON_TYPES } from '../rules/data';

/** What one Fire action of an attacker does to a defender, as shares (0..1) of the defender. */
export interface Share {
  /** Expected share of its total HP removed by one Fire action at full shields (BATTLE.md's figure). */
  share: number;
  /**
   * One over the Fire actions needed to destroy it when shields carry over from one Fire action to
   * the next: SH / (expected shields removed at full shields) + HP / (expected hull damage with
   * shields down). Equal to `share` for a defender without shields.
   */
  sequential: number;
  /** False when the exact programme would take too long (absurd attack counts) and it was sampled. */
  exact: boolean;
}

/** Seeded trials of the sampled fallback: only absurd cards get there. */
const FALLBACK_TRIALS = 400;
const FALLBACK_SEED = 1;
const VOLLEY_MEMO_MAX = 200_000;
const OUTCOME_MEMO_MAX = 50_000;

/** A weapon outcome in flat arrays: unsaved-hit probabilities, and SH left when all was absorbed. */
interface Flat {
  unsaved: Float64Array;
  stayLeft: Int32Array;
  stayP: Float64Array;
}

/**
 * The two memo tables and the dense programme's scratch arrays of one points-estimate state (an
 * `Estimates` instance owns one): two services never share figures or buffers.
 */
export class Volleys {
  /** Attacker key -> defender key -> share (two levels: the key strings are made once per card and reused). */
  private readonly shares = new Map<string, Map<string, Share>>();
  private shareCount = 0;
  /** Plan key -> (attacks * 4096 + SH) -> outcome. */
  private readonly outcomes = new Map<number, Map<number, Flat>>();
  private outcomeCount = 0;
  /** Two scratch arrays for the dense programme, grown as needed and reused (no garbage per volley). */
  bufA = new Float64Array(1024);
  bufB = new Float64Array(1024);
  /** Counters for tests and the benchmark: Fire actions computed and served from the memo. */
  readonly stats = { computed: 0, memoHits: 0 };

  /** Empties both memo tables (the benchmark's cold start; tests). */
  clear(): void {
    this.shares.clear();
    this.shareCount = 0;
    this.outcomes.clear();
    this.outcomeCount = 0;
    this.stats.computed = 0;
    this.stats.memoHits = 0;
  }

  /** The outcome table of one weapon plan (by `planKey`), made on first use. */
  outcomesFor(pk: number): Map<number, Flat> {
    let m = this.outcomes.get(pk);
    if (!m) {
      if (this.outcomeCount >= OUTCOME_MEMO_MAX) {
        this.outcomes.clear();
        this.outcomeCount = 0;
      }
      this.outcomes.set(pk, (m = new Map()));
    }
    return m;
  }

  /** Counts an outcome added to a table (the tables start again empty past their size). */
  countOutcome(): void {
    this.outcomeCount++;
  }

  /** Without the share memo: what one Fire action of the attacker does to the defender (see `Share`). */
  computeShare(att: UnitProfile, def: UnitProfile): Share {
    return shareWith(this, att, def);
  }

  /**
   * The memoized share; `att` and `def` must already be sanitized profiles (the estimate's are) and
   * their keys may be passed in when the caller has them.
   */
  shareOf(att: UnitProfile, def: UnitProfile, attKey = offenseKey(att), defKey = defenseKey(def)): Share {
    let row = this.shares.get(attKey);
    const hit = row?.get(defKey);
    if (hit) {
      this.stats.memoHits++;
      return hit;
    }
    const s = shareWith(this, att, def);
    this.stats.computed++;
    if (this.shareCount >= VOLLEY_MEMO_MAX) {
      this.shares.clear();
      this.shareCount = 0;
      row = undefined;
    }
    if (!row) this.shares.set(attKey, (row = new Map()));
    row.set(defKey, s);
    this.shareCount++;
    return s;
  }
}

/** What a Fire action reads from its attacker: class (Dogfighters, Precision Strike), bases, BS, weapons. */
export function offenseKey(p: UnitProfile): string {
  return `${p.class}|${p.bases}|${p.bs}|${p.weapons.map((w) => `${w.type}:${w.damage}:${w.attacks}`).join(',')}`;
}

/** What a Fire action reads from its defender. */
export function defenseKey(p: UnitProfile): string {
  return `${p.class}|${p.bases}|${p.baseMm}|${p.dodge ?? '-'}|${p.sh ?? '-'}|${p.armour ?? '-'}|${p.hp}|${p.combinedShields ? 'c' : ''}`;
}

const tenths = (p: number) => Math.round(p * DICE.sides);

/**
 * The chances a weapon outcome depends on (not its damage, which is applied afterwards), as one
 * number: each is a whole number of d10 faces (0..10, four bits), and the weapon type decides
 * Auto's extra hits and Ion's shield cost.
 */
function planKey(plan: WeaponPlan): number {
  let k = WEAPON_TYPES.indexOf(plan.weapon.type);
  for (const p of [plan.pCrit, plan.pNormal, plan.pDodge, plan.pDodgeEnergy, plan.pUnsavedCrit, plan.pUnsavedNormal]) k = k * 16 + tenths(p);
  return k * 2 + (plan.energy ? 1 : 0);
}

function outcome(v: Volleys, plan: WeaponPlan, memo: Map<number, Flat>, a: number, sh: number, budget: Budget): Flat | undefined {
  const key = a * 4096 + sh;
  const hit = memo.get(key);
  if (hit) return hit;
  const o: PassOutcome | undefined = sh > 0 ? outcomeWithShields(plan, a, sh, budget) : outcomeNoShields(plan, a, budget);
  if (!o) return undefined;
  let last = o.unsaved.length - 1;
  while (last > 0 && o.unsaved[last] === 0) last--;
  const flat: Flat = { unsaved: o.unsaved.slice(0, last + 1), stayLeft: Int32Array.from(o.stay.keys()), stayP: Float64Array.from(o.stay.values()) };
  v.countOutcome();
  memo.set(key, flat);
  return flat;
}

/**
 * The exact expected hull damage of one Fire action (all weapons in range, full strength, full
 * shields, no modifiers), or undefined past the work limit. The same programme as `exactVolley`
 * (a distribution over the defender's (hull, SH) states, weapon by weapon), keeping only what the
 * mean needs; the states sit in a flat array when there are few of them (every real card), in a
 * map otherwise.
 */
/** A Fire action planned once for both programmes: the weapon plans and their outcome tables. */
interface Planned {
  /** Whose outcome tables and scratch arrays the programmes use. */
  v: Volleys;
  plans: WeaponPlan[];
  memos: Map<number, Flat>[];
  hp: number;
  hull0: number;
}

function plan(v: Volleys, att: UnitProfile, def: UnitProfile): Planned {
  const ctx = planFire(att, def, { attackerBases: att.bases, cover: false, brace: false });
  return { v, plans: ctx.plans, memos: ctx.plans.map((p) => v.outcomesFor(planKey(p))), hp: ctx.hp, hull0: def.bases * ctx.hp };
}

function exactExpectation(pl: Planned, sh0: number): Expected | undefined {
  if (sh0 >= 4096) return undefined;
  const stride = sh0 + 1;
  const size = (pl.hull0 + 1) * stride;
  if (size > Number.MAX_SAFE_INTEGER) return undefined;
  const budget: Budget = { ops: 0, limit: EXACT_WORK_LIMIT };
  return size <= DENSE_STATES ? denseProgramme(pl, sh0, stride, budget) : sparseProgramme(pl, sh0, stride, budget);
}

/** Above this many (hull, SH) states the distribution is kept in a map. */
const DENSE_STATES = 1 << 16;

interface Expected {
  hull: number;
  shields: number;
}

function denseProgramme(pl: Planned, sh0: number, stride: number, budget: Budget): Expected | undefined {
  const { v, plans, memos, hp, hull0 } = pl;
  const size = (hull0 + 1) * stride;
  if (v.bufA.length < size) {
    v.bufA = new Float64Array(size);
    v.bufB = new Float64Array(size);
  }
  let dist = v.bufA;
  let next = v.bufB;
  dist.fill(0, 0, size);
  dist[hull0 * stride + sh0] = 1;
  for (let k = 0; k < plans.length; k++) {
    const plan = plans[k]!;
    const memo = memos[k]!;
    const damage = plan.damage;
    next.fill(0, 0, size);
    for (let key = size - 1; key >= 0; key--) {
      const w = dist[key]!;
      if (w === 0) continue;
      const hull = Math.floor(key / stride);
      const sh = key - hull * stride;
      const a = attacksAgainst(plan, basesLeft(hull, hp));
      if (a === 0) {
        next[key]! += w;
        continue;
      }
      const o = outcome(pl.v, plan, memo, a, sh, budget);
      if (!o) return undefined;
      const un = o.unsaved;
      const sl = o.stayLeft;
      budget.ops += un.length + sl.length;
      if (budget.ops > budget.limit) return undefined;
      const base = hull * stride;
      for (let i = 0; i < sl.length; i++) next[base + sl[i]!]! += w * o.stayP[i]!;
      for (let u = 0; u < un.length; u++) {
        const p = un[u]!;
        if (p !== 0) next[applyHits(hull, u, damage, hp) * stride]! += w * p;
      }
    }
    const t = dist;
    dist = next;
    next = t;
  }
  let eHull = 0;
  let eSh = 0;
  for (let key = 0; key < size; key++) {
    const p = dist[key]!;
    if (p === 0) continue;
    const hull = Math.floor(key / stride);
    eHull += p * hull;
    eSh += p * (key - hull * stride);
  }
  return { hull: hull0 - eHull, shields: sh0 - eSh };
}

function sparseProgramme(pl: Planned, sh0: number, stride: number, budget: Budget): Expected | undefined {
  const { plans, memos, hp, hull0 } = pl;
  let dist = new Map<number, number>([[hull0 * stride + sh0, 1]]);
  for (let k = 0; k < plans.length; k++) {
    const plan = plans[k]!;
    const memo = memos[k]!;
    const next = new Map<number, number>();
    for (const [key, w] of dist) {
      const hull = Math.floor(key / stride);
      const sh = key - hull * stride;
      const a = attacksAgainst(plan, basesLeft(hull, hp));
      if (a === 0) {
        next.set(key, (next.get(key) ?? 0) + w);
        continue;
      }
      const o = outcome(pl.v, plan, memo, a, sh, budget);
      if (!o) return undefined;
      budget.ops += o.unsaved.length + o.stayLeft.length;
      if (budget.ops > budget.limit) return undefined;
      for (let i = 0; i < o.stayLeft.length; i++) {
        const k = hull * stride + o.stayLeft[i]!;
        next.set(k, (next.get(k) ?? 0) + w * o.stayP[i]!);
      }
      for (let u = 0; u < o.unsaved.length; u++) {
        const p = o.unsaved[u]!;
        if (p === 0) continue;
        const k = applyHits(hull, u, plan.damage, hp) * stride;
        next.set(k, (next.get(k) ?? 0) + w * p);
      }
    }
    dist = next;
  }
  let eHull = 0;
  let eSh = 0;
  for (const [key, p] of dist) {
    const hull = Math.floor(key / stride);
    eHull += p * hull;
    eSh += p * (key - hull * stride);
  }
  return { hull: hull0 - eHull, shields: sh0 - eSh };
}

function expectation(att: UnitProfile, def: UnitProfile, pl: Planned, shields: 'full' | 'down'): Expected & { exact: boolean } {
  const exact = exactExpectation(pl, shields === 'full' ? maxShields(def, pl.hull0) : 0);
  if (exact) return { hull: exact.hull, shields: exact.shields, exact: true };
  const sampled = sampledVolleyResult(att, def, { trials: FALLBACK_TRIALS, seed: FALLBACK_SEED, ...(shields === 'down' ? { defenderShields: 0 } : {}) });
  return { hull: sampled.expectedHullDamage, shields: sampled.expectedShieldsRemoved, exact: false };
}

/** What one Fire action of the attacker does to the defender (see `Share`), its weapon outcomes from `v`'s tables. */
function shareWith(v: Volleys, att: UnitProfile, def: UnitProfile): Share {
  const total = def.bases * def.hp;
  if (!(total > 0)) return { share: 0, sequential: 0, exact: true };
  const pl = plan(v, att, def);
  const full = expectation(att, def, pl, 'full');
  const share = Math.min(1, Math.max(0, full.hull / total));
  const sh0 = maxShields(def, total);
  if (sh0 === 0) return { share, sequential: share, exact: full.exact };
  // Shields first, then the hull with shields down: Fire actions needed, one phase after the other.
  const down = expectation(att, def, pl, 'down');
  const actions = sh0 / full.shields + total / down.hull;
  return { share, sequential: Number.isFinite(actions) && actions > 0 ? Math.min(1, 1 / actions) : 0, exact: full.exact && down.exact };
}

/** What one Fire action of the attacker does to the defender, worked out afresh (tests, the benchmark). */
export function computeShare(att: UnitProfile, def: UnitProfile): Share {
  return new Volleys().computeShare(att, def);
}
