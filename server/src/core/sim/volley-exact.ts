/**
 * The exact Fire action: a dynamic programme over the defender's state (current SH, remaining hull
 * points), convolved weapon by weapon in card order. Each state is one number,
 * `hull * (maxSh + 1) + sh`, held in a Map, so that HP in the thousands costs nothing: only the
 * states a volley can reach are ever stored.
 *
 * For one weapon from one state the work splits in two:
 * - SH = 0 (every state once shields are down): the number of unsaved hits has a closed form
 *   (a binomial, a mixture of two for Energy, a sum of {0,1,2}-valued dice for Auto) that depends
 *   only on the attack count, so it is computed once per attack count and reused for every hull.
 * - SH > 0: sum over the number of Critical Hits, the landed normal hits, the deterministic shield
 *   step, then the armour rolls of what got through.
 *
 * A work counter bounds the cost; when a volley would exceed it (absurd attack counts) the caller
 * falls back to sampling.
 */
import { binomialPmf, convolve } from './dice';
import { absorb, applyHits, attacksAgainst, basesLeft } from './fire';
import type { FireContext, WeaponPlan } from './fire';

/** A distribution over defender states, keyed `hull * stride + sh`. */
export type StateDist = Map<number, number>;

export interface WeaponTally {
  expectedHits: number;
  expectedCrits: number;
  expectedShieldsRemoved: number;
  expectedHullDamage: number;
  /**
   * The d10s a player rolls for this weapon at the table, on average: every attack die, a dodge
   * roll for each normal hit (when the defender has D) and an armour roll for each hit that met no
   * shields (when it has AC). The exact programme rolls none of them; the benchmark's tabletop
   * floor counts them (bench/load.ts). Set by the exact volley.
   */
  expectedDice?: number;
}

export interface ExactVolley {
  /** Final distribution over defender states. */
  dist: StateDist;
  stride: number;
  tallies: WeaponTally[];
}

export interface Budget {
  ops: number;
  limit: number;
}

/**
 * An empty work budget whose count V8 keeps as a double from the start: made with a fraction, then
 * set to 0. A count made as a small integer changes representation at the first fractional cost
 * (a volley's work often is one), and every piece of optimised code that read it is thrown away
 * and compiled again (a battle's engine: its kernels, part-way through a run).
 */
export function newBudget(limit: number): Budget {
  const b = { ops: 0.5, limit };
  b.ops = 0;
  return b;
}

/** The default work limit: about a tenth of a second of arithmetic. */
export const EXACT_WORK_LIMIT = 3e7;

export interface PassOutcome {
  /** P(u unsaved hits) given that the hits met no shields at all or SH was 0. */
  unsaved: Float64Array;
  /** SH left (key) -> probability, for outcomes where every hit was absorbed. */
  stay: Map<number, number>;
  expectedHits: number;
  expectedCrits: number;
  expectedShieldsRemoved: number;
  /** Expected Critical Hits and normal hits that met no shields (each gets an armour roll when the defender has AC). */
  expectedThroughCrits: number;
  expectedThroughNormals: number;
}

function spend(budget: Budget, ops: number): boolean {
  budget.ops += ops;
  return budget.ops <= budget.limit;
}

/** Distribution of landed normal hits given `c` Critical Hits out of `a` attacks. */
function landedNormals(plan: WeaponPlan, a: number, c: number): Float64Array {
  const q = 1 - (plan.energy && c >= 1 ? plan.pDodgeEnergy : plan.pDodge);
  // Among the a - c dice that were not 10s, each is a normal hit with P(normal) / P(not a 10).
  const rolled = binomialPmf(a - c, (plan.pNormal / (1 - plan.pCrit)) * q);
  return plan.auto ? convolve(rolled, binomialPmf(c * plan.extraHitsPerCrit, q)) : rolled;
}

/** The distribution of the sum of `n` independent copies of `die`. */
function iidSum(die: Float64Array, n: number): Float64Array {
  const width = die.length - 1;
  let acc = new Float64Array(n * width + 1);
  let next = new Float64Array(n * width + 1);
  acc[0] = 1;
  let len = 1;
  for (let i = 0; i < n; i++) {
    next.fill(0, 0, len + width);
    for (let s = 0; s < len; s++) {
      const m = acc[s]!;
      if (m === 0) continue;
      for (let d = 0; d <= width; d++) next[s + d]! += m * die[d]!;
    }
    [acc, next] = [next, acc];
    len += width;
  }
  return acc;
}

/** Unsaved hits when the defender has no shields up: closed forms, O(attacks) or O(attacks^2). */
export function outcomeNoShields(plan: WeaponPlan, a: number, budget: Budget): PassOutcome | undefined {
  const fc = plan.pUnsavedCrit;
  const fn = plan.pUnsavedNormal;
  const rN = plan.pNormal / (1 - plan.pCrit);
  const q0 = 1 - plan.pDodge;
  const q1 = 1 - plan.pDodgeEnergy;
  let unsaved: Float64Array;
  let expectedHits: number;
  if (plan.auto) {
    // Each die is independent and yields a small number of unsaved hits (a Critical Hit plus its
    // extra normal hits), so the total is a sum of identical dice, added one at a time.
    const k = plan.extraHitsPerCrit;
    if (!spend(budget, (a * a * (k + 2) * (k + 2)) / 2 + a)) return undefined;
    const g = q0 * fn;
    const die = new Float64Array(k + 2);
    const critDie = convolve(Float64Array.of(1 - fc, fc), binomialPmf(k, g));
    for (let i = 0; i < critDie.length; i++) die[i]! += plan.pCrit * critDie[i]!;
    die[0]! += plan.pNormal * (1 - g) + (1 - plan.pCrit - plan.pNormal);
    die[1]! += plan.pNormal * g;
    unsaved = iidSum(die, a);
    expectedHits = a * (plan.pCrit * (1 + k * q0) + plan.pNormal * q0);
  } else if (plan.energy && q0 !== q1) {
    // No Critical Hit: the plain dodge; at least one: the Energy dodge. Bin(a, p1) covers every crit
    // count with the Energy dodge, so subtracting its no-crit part leaves the "at least one" part.
    if (!spend(budget, 3 * a + 3)) return undefined;
    const none = Math.pow(1 - plan.pCrit, a);
    const withoutCrit = binomialPmf(a, rN * q0 * fn);
    const all1 = binomialPmf(a, plan.pCrit * fc + plan.pNormal * q1 * fn);
    const noCrit1 = binomialPmf(a, rN * q1 * fn);
    unsaved = new Float64Array(a + 1);
    for (let u = 0; u <= a; u++) unsaved[u] = Math.max(0, none * withoutCrit[u]! + all1[u]! - none * noCrit1[u]!);
    expectedHits = a * plan.pCrit + none * a * rN * q0 + (a * (1 - plan.pCrit) - none * a) * rN * q1;
  } else {
    if (!spend(budget, a + 1)) return undefined;
    unsaved = binomialPmf(a, plan.pCrit * fc + plan.pNormal * q0 * fn);
    expectedHits = a * (plan.pCrit + plan.pNormal * q0);
  }
  const expectedCrits = a * plan.pCrit;
  return {
    unsaved,
    stay: new Map(),
    expectedHits,
    expectedCrits,
    expectedShieldsRemoved: 0,
    expectedThroughCrits: expectedCrits,
    expectedThroughNormals: expectedHits - expectedCrits,
  };
}

/**
 * The general case, shields up: sum over Critical Hits c and landed normal hits n, resolve the
 * shields (deterministic), then armour-roll what met no shields, crits and normal hits apart.
 */
export function outcomeWithShields(plan: WeaponPlan, a: number, sh: number, budget: Budget): PassOutcome | undefined {
  if (!spend(budget, (a * a * a) / 2 + 4 * a * a + 10)) return undefined;
  const crits = binomialPmf(a, plan.pCrit);
  const stay = new Map<number, number>();
  // rows[cu][nu]: mass of (crits, normal hits) that met no shields.
  const rows = new Map<number, Float64Array>();
  let expectedHits = 0;
  let expectedCrits = 0;
  let expectedShieldsRemoved = 0;
  let expectedThroughCrits = 0;
  let expectedThroughNormals = 0;
  for (let c = 0; c <= a; c++) {
    const pc = crits[c]!;
    if (pc === 0) continue;
    expectedCrits += pc * c;
    const normals = landedNormals(plan, a, c);
    for (let n = 0; n < normals.length; n++) {
      const mass = pc * normals[n]!;
      if (mass === 0) continue;
      expectedHits += mass * (c + n);
      const r = absorb(sh, c, n, plan.shieldsPerCrit, plan.shieldsPerHit);
      expectedShieldsRemoved += mass * (sh - r.shieldsLeft);
      expectedThroughCrits += mass * r.crits;
      expectedThroughNormals += mass * r.normals;
      if (r.crits + r.normals === 0) {
        stay.set(r.shieldsLeft, (stay.get(r.shieldsLeft) ?? 0) + mass);
      } else {
        let row = rows.get(r.crits);
        if (!row) rows.set(r.crits, (row = new Float64Array(normals.length)));
        row[r.normals]! += mass;
      }
    }
  }
  let unsaved = new Float64Array(1);
  const normalRows = new Map<number, Float64Array>();
  for (const [cu, row] of rows) {
    // Armour for the normal hits of this row, then for its cu Critical Hits.
    let last = row.length - 1;
    while (last > 0 && row[last] === 0) last--;
    const thinned = new Float64Array(last + 1);
    for (let nu = 0; nu <= last; nu++) {
      const m = row[nu]!;
      if (m === 0) continue;
      let b = normalRows.get(nu);
      if (!b) normalRows.set(nu, (b = binomialPmf(nu, plan.pUnsavedNormal)));
      for (let k = 0; k <= nu; k++) thinned[k]! += m * b[k]!;
    }
    const total = convolve(thinned, binomialPmf(cu, plan.pUnsavedCrit));
    if (total.length > unsaved.length) {
      const grown = new Float64Array(total.length);
      grown.set(unsaved);
      unsaved = grown;
    }
    for (let u = 0; u < total.length; u++) unsaved[u]! += total[u]!;
  }
  return { unsaved, stay, expectedHits, expectedCrits, expectedShieldsRemoved, expectedThroughCrits, expectedThroughNormals };
}

/**
 * Outcome computations per (attacks, SH) for one weapon plan, kept by the sums of whoever fires
 * many volleys (`VolleySums`), so that its volleys with the same weapon numbers share them.
 */
/**
 * A pass outcome as a volley's sums read it: its `stay` also as two arrays, SH left and chance, in
 * the Map's order (walking a Map's iterator for every state of every volley was a good part of a
 * kernel's cost), and the work it took.
 */
interface CachedOutcome {
  o: PassOutcome;
  cost: number;
  stayLeft: Float64Array;
  stayP: Float64Array;
}

class OutcomeCache {
  private map = new Map<number, CachedOutcome>();
  constructor(private readonly plan: WeaponPlan) {}
  /**
   * A hit is charged the work its computation took, so that what a volley costs the budget never
   * depends on what was computed before: a battle split over threads (sim/chunked.ts) then adds up
   * the same work as one run, whichever engine met a state first.
   */
  get(a: number, sh: number, budget: Budget): CachedOutcome | undefined {
    const key = a * 4096 + sh;
    const hit = this.map.get(key);
    if (hit) return spend(budget, hit.cost) ? hit : undefined;
    const before = budget.ops;
    const o = sh > 0 ? outcomeWithShields(this.plan, a, sh, budget) : outcomeNoShields(this.plan, a, budget);
    if (!o) return undefined;
    const c = { o, cost: budget.ops - before, stayLeft: Float64Array.from(o.stay.keys()), stayP: Float64Array.from(o.stay.values()) };
    this.map.set(key, c);
    return c;
  }
}

function cacheFor(plan: WeaponPlan, sums: VolleySums): OutcomeCache {
  let c = sums.byPlan.get(plan);
  if (!c) {
    // A weapon's outcomes depend on these numbers alone (not on its name, its bases' attacks or the
    // plan it is part of): plans that share them share one cache, kept by the owner of the sums. An
    // aimed plan and the unaimed one differ in one weapon; a shooter's plans at its other bases
    // differ in attack counts, which are the cache's key.
    const numbers = [
      ...[plan.pCrit, plan.pNormal, plan.pDodge, plan.pDodgeEnergy, plan.energy, plan.auto],
      ...[plan.extraHitsPerCrit, plan.shieldsPerCrit, plan.shieldsPerHit, plan.pUnsavedCrit, plan.pUnsavedNormal],
    ].join(',');
    c = sums.outcomes.get(numbers);
    if (!c) sums.outcomes.set(numbers, (c = new OutcomeCache(plan)));
    sums.byPlan.set(plan, c);
  }
  return c;
}

/** The d10s one weapon's firing rolls at the table, on average (`WeaponTally.expectedDice`), given its pass outcome. */
function tabletopDice(plan: WeaponPlan, a: number, o: PassOutcome): number {
  let n = a;
  // Each normal hit rolled (Auto's extra hits too) is dodged or not; Critical Hits cannot be.
  if (plan.dodgeTarget !== undefined) n += a * (plan.pNormal + plan.pCrit * plan.extraHitsPerCrit);
  if (plan.armourTargetCrit !== undefined) n += o.expectedThroughCrits;
  if (plan.armourTargetNormal !== undefined) n += o.expectedThroughNormals;
  return n;
}

/**
 * A distribution being summed, weapon by weapon: each key's mass in a typed array indexed by the key
 * while keys are whole numbers below `space` (every state a volley can reach from its start), and
 * the keys in the order they were first met; a Map (the same keys in the same order, the same sums)
 * from the first key that is not. A Map's lookup and update for every outcome of every state was
 * most of a kernel's cost. Two of them, reused by every volley of their owner (`VolleySums`: one is
 * read while the other is summed); `mark` says which keys the current distribution holds without
 * clearing the arrays.
 */
class StateSum {
  private space = 0;
  private mass = new Float64Array(256);
  private mark = new Int32Array(256);
  private gen = 0;
  order = new Float64Array(64);
  count = 0;
  map: StateDist | undefined;

  /** Empties it for keys below `space` (a Map from the start when there is no such bound). */
  reset(space: number): this {
    this.count = 0;
    this.map = space > 0 ? undefined : new Map();
    this.space = space;
    if (space > this.mass.length) {
      this.mass = new Float64Array(space);
      this.mark = new Int32Array(space);
      this.gen = 0;
    }
    // A new generation: no key is marked as held (the marks wrap long after any volley ends).
    this.gen = (this.gen + 1) | 0;
    if (this.gen === 0) {
      this.mark.fill(0);
      this.gen = 1;
    }
    return this;
  }

  add(key: number, p: number): void {
    if (this.map === undefined && key >>> 0 === key && key < this.space) {
      if (this.mark[key] === this.gen) this.mass[key]! += p;
      else {
        // As a Map adds to a missing key: 0 + p.
        this.mark[key] = this.gen;
        this.mass[key] = 0 + p;
        if (this.count === this.order.length) {
          const grown = new Float64Array(2 * this.order.length);
          grown.set(this.order);
          this.order = grown;
        }
        this.order[this.count++] = key === 0 ? 0 : key;
      }
      return;
    }
    const m = this.map ?? this.toMap();
    this.map = m;
    m.set(key, (m.get(key) ?? 0) + p);
  }

  /** The mass of the i-th key first met (while no Map holds them). */
  massAt(i: number): number {
    return this.mass[this.order[i]!]!;
  }

  /** The distribution as a Map, keys in the order first met. */
  toMap(): StateDist {
    if (this.map) return this.map;
    const m: StateDist = new Map();
    for (let i = 0; i < this.count; i++) m.set(this.order[i]!, this.mass[this.order[i]!]!);
    return m;
  }
}

/**
 * The two sums a volley works in (one is read while the other is summed), kept by whoever fires
 * many volleys (a battle's engine, a shots-to-kill table) so that their arrays are made once, not
 * once a volley; the core itself keeps none between calls.
 */
export class VolleySums {
  readonly pair = [new StateSum(), new StateSum()] as const;
  /** The weapons' outcome caches, by the numbers they depend on (see `cacheFor`). */
  readonly outcomes = new Map<string, OutcomeCache>();
  /**
   * The same caches by weapon plan, as met. Kept here, not on the plans: a property added to a
   * plan gives it another shape than the plans without one, and the optimised code that reads
   * plans of both shapes was thrown away and compiled again.
   */
  readonly byPlan = new Map<WeaponPlan, OutcomeCache>();
  private outcome: VolleyOutcome | undefined;
  /** Where `exactVolleyFrom` writes its outcome (made on first use: `exactVolley` needs none). */
  get out(): VolleyOutcome {
    return (this.outcome ??= new VolleyOutcome());
  }
}

/** A volley's outcome as `exactVolleyFrom` writes it: states and their chances, in the order first met (read below the count it returns). */
export class VolleyOutcome {
  keys = new Float64Array(64);
  probs = new Float64Array(64);
  /** Room for n states (the arrays may be new after this). */
  reserve(n: number): void {
    if (n <= this.keys.length) return;
    const size = Math.max(n, 2 * this.keys.length);
    this.keys = new Float64Array(size);
    this.probs = new Float64Array(size);
  }
}
/** The most states a volley's sums keep in typed arrays (beyond, Maps): 512 KB a buffer. */
const DENSE_STATES = 1 << 16;

/** The states a volley from `start` (a distribution, or one state) can reach are keys below this (its largest hull, every SH), or 0 when they are not all whole numbers in bounds. */
function stateSpace(start: StateDist | number, stride: number): number {
  let top = 0;
  for (const key of typeof start === 'number' ? [start] : start.keys()) {
    if (!Number.isSafeInteger(key) || key < 0) return 0;
    if (key > top) top = key;
  }
  const space = (Math.floor(top / stride) + 1) * stride;
  return Number.isSafeInteger(stride) && stride > 0 && space <= DENSE_STATES ? space : 0;
}

/**
 * Runs the volley from a distribution of starting states. Returns undefined when the work limit is
 * reached (the caller then samples).
 */
export function exactVolley(ctx: FireContext, start: StateDist, stride: number, budget: Budget, sums = new VolleySums()): ExactVolley | undefined {
  const tallies: WeaponTally[] = [];
  const last = volleySums(ctx, start, stride, budget, sums, tallies);
  if (last === null) return undefined;
  return { dist: last ? last.toMap() : start, stride, tallies };
}

/**
 * The volley from one starting state (`key`, with certainty), its outcome written into `out`
 * (`VolleyOutcome`: the states in the order first met, as `exactVolley`'s Map holds them, and
 * their chances): what a battle's engine stores as a kernel, without a Map made and read for
 * each. Returns the number of states, or -1 when the work limit is reached.
 */
export function exactVolleyFrom(ctx: FireContext, key: number, stride: number, budget: Budget, sums: VolleySums, tallies: WeaponTally[]): number {
  const last = volleySums(ctx, key, stride, budget, sums, tallies);
  if (last === null) return -1;
  const out = sums.out;
  if (!last) {
    out.reserve(1);
    out.keys[0] = key;
    out.probs[0] = 1;
    return 1;
  }
  if (last.map) {
    out.reserve(last.map.size);
    let i = 0;
    for (const [k, p] of last.map) {
      out.keys[i] = k;
      out.probs[i++] = p;
    }
    return i;
  }
  out.reserve(last.count);
  for (let i = 0; i < last.count; i++) {
    out.keys[i] = last.order[i]!;
    out.probs[i] = last.massAt(i);
  }
  return last.count;
}

/**
 * The volley's dynamic programme from `start` (a distribution, or one state with certainty), weapon
 * by weapon in card order, each weapon's expectations into `tallies`: the sum of the last weapon
 * that fired (one of `sums`), undefined when none did (the distribution is `start`), null when the
 * work limit is reached.
 */
function volleySums(
  ctx: FireContext,
  start: StateDist | number,
  stride: number,
  budget: Budget,
  sums: VolleySums,
  tallies: WeaponTally[],
): StateSum | undefined | null {
  const hp = ctx.hp;
  const allocate = ctx.allocate ?? applyHits;
  const space = stateSpace(start, stride);
  // The states so far: `start`, then the sums of the last weapon that fired.
  let from: StateSum | undefined;
  for (const plan of ctx.plans) {
    const tally: WeaponTally = { expectedHits: 0, expectedCrits: 0, expectedShieldsRemoved: 0, expectedHullDamage: 0, expectedDice: 0 };
    tallies.push(tally);
    if (!plan.inRange) continue;
    // SH above 4095 cannot be keyed by the outcome cache; such inputs are sampled instead.
    const cache = cacheFor(plan, sums);
    const [a, b] = sums.pair;
    const next = (from === a ? b : a).reset(space);
    const step = (key: number, w: number): boolean => {
      const hull = Math.floor(key / stride);
      const sh = key - hull * stride;
      const a = attacksAgainst(plan, basesLeft(hull, hp));
      if (a === 0 || sh >= 4096) {
        if (sh >= 4096) return false;
        next.add(key, w);
        return true;
      }
      const c = cache.get(a, sh, budget);
      if (!c) return false;
      const o = c.o;
      const stayLeft = c.stayLeft;
      const stayP = c.stayP;
      if (!spend(budget, o.unsaved.length + stayLeft.length)) return false;
      tally.expectedHits += w * o.expectedHits;
      tally.expectedCrits += w * o.expectedCrits;
      tally.expectedShieldsRemoved += w * o.expectedShieldsRemoved;
      tally.expectedDice! += w * tabletopDice(plan, a, o);
      for (let i = 0; i < stayLeft.length; i++) next.add(hull * stride + stayLeft[i]!, w * stayP[i]!);
      for (let u = 0; u < o.unsaved.length; u++) {
        const p = o.unsaved[u]!;
        if (p === 0) continue;
        const after = allocate(hull, u, plan.damage, hp);
        tally.expectedHullDamage += w * p * (hull - after);
        next.add(after * stride, w * p);
      }
      return true;
    };
    if (!from && typeof start === 'number') {
      if (!step(start, 1)) return null;
    } else if (!from || from.map) {
      for (const [key, w] of from ? from.map! : (start as StateDist)) if (!step(key, w)) return null;
    } else for (let i = 0; i < from.count; i++) if (!step(from.order[i]!, from.massAt(i))) return null;
    from = next;
  }
  return from;
}
