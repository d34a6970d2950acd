/**
 * The quick engagement (RULES.md "The engagement (duel) model"): two units at a fixed range play
 * rounds until one is destroyed or the round limit passes. Each round the Initiative winner
 * activates first; an activation is Fire plus the policy's second action.
 *
 * Three ways to run it, all from the same pieces:
 * - kernel sampling (the default): each Fire action jumps to a defender state drawn from that
 *   action's exact distribution (a "kernel", computed once per state and cached), so one trial
 *   costs a few uniform draws per activation;
 * - dice sampling, when exact kernels would be too costly (absurd attack counts): every Fire action
 *   is rolled by the sampled volley;
 * - the exact Markov chain over both units' states (SH, hull, braced), when the state space fits:
 *   the same kernels, propagated as distributions instead of sampled.
 *
 * Interpretations (also in `ENGAGEMENT_ASSUMPTIONS`): Brace lasts until the bracing unit's next activation (it protects against every
 * Fire action in between); Shields Back Online may be taken only with SH missing and restores at
 * most up to the current maximum (Combined Shields: per-base SH x bases left); the attacker starts
 * with full shields, the defender with `defenderShields`; cover protects the defender only; the
 * volley's aim and brace options do not apply, the policy chooses those.
 */
import { ACTION_POINTS_PER_ACTIVATION, ENGAGEMENT_DEFAULTS, SHIELD_RECHARGE } from '../rules/data';
import type { ActionCounts, EngagementOptions, EngagementResult, Point, UnitProfile } from './types';
import { Dice, binomialPmf, makeRng, pSuccess, rollSucceeds } from './dice';
import type { RandomGenerator } from './dice';
import { attacksAgainst, basesLeft, maxShields, planFire, weaponReach } from './fire';
import type { FireContext } from './fire';
import { exactVolley } from './volley-exact';
import type { Budget } from './volley-exact';
import { sampleVolley } from './volley-sample';
import { asResolved, type Resolved } from './options';
import { sanitizeProfile } from './profile';

// Hot-path aliases: some loaders (tsx, used by the tests and the benchmark) turn every use of an
// imported binding into a getter call, which costs more than the work in the sampling loop. The
// values never change, so they are read once here.
const RECHARGE_DICE = SHIELD_RECHARGE.dice;
const RECHARGE_TARGET = SHIELD_RECHARGE.target;
const succeeds = rollSucceeds;
const basesOf = basesLeft;
const maxShieldsOf = maxShields;
const volleyBySampling = sampleVolley;

export type SecondAction = 'aim' | 'shields' | 'brace' | 'none';

/** Work limits: kernels for sampling, and the exact chain on top. */
export const KERNEL_WORK_LIMIT = 4e7;
export const MARKOV_WORK_LIMIT = 2e7;

export const POLICY_EXPECTED =
  `Each activation spends ${ACTION_POINTS_PER_ACTIVATION} AP: Fire with every weapon in range, and one second action chosen greedily by expected hull points: ` +
  'Aim is worth the extra expected hull damage it adds to this Fire action (aiming the weapon that adds the most); ' +
  "Shields Back Online (only with SH missing) and Brace (only with AC) are worth the expected hull damage they avert from the opponent's next (unaimed) Fire action. " +
  "The highest value wins; ties go to Aim, then Shields Back Online, then Brace. Brace lasts until the unit's next activation.";

export const POLICY_RULE =
  `Each activation spends ${ACTION_POINTS_PER_ACTIVATION} AP: Fire with every weapon in range, and one second action by a fixed rule (used because exact expectations would be too costly for these cards): ` +
  'Shields Back Online if SH is missing; else Aim the in-range weapon with the most attacks x damage; else Brace if the unit has AC.';

/** P(side A activates first): LD successes, ties to the lower target, then more dice, then a re-roll. */
export function initiativeOdds(a: UnitProfile['ld'], b: UnitProfile['ld']): number {
  const da = a ? binomialPmf(a.dice, pSuccess(a.target)) : Float64Array.of(1);
  const db = b ? binomialPmf(b.dice, pSuccess(b.target)) : Float64Array.of(1);
  let more = 0;
  let less = 0;
  let tie = 0;
  for (let i = 0; i < da.length; i++)
    for (let j = 0; j < db.length; j++) {
      const p = da[i]! * db[j]!;
      if (i > j) more += p;
      else if (i < j) less += p;
      else tie += p;
    }
  // A unit without LD rolls nothing: it has no target number and no dice for the tie-breakers.
  let tieToA: boolean | undefined;
  if (a && !b) tieToA = true;
  else if (!a && b) tieToA = false;
  else if (a && b) {
    if (a.target !== b.target) tieToA = a.target < b.target;
    else if (a.dice !== b.dice) tieToA = a.dice > b.dice;
  }
  if (tieToA === true) return more + tie;
  if (tieToA === false) return more;
  return more + less === 0 ? 0.5 : more / (more + less);
}

/** An exact Fire-action outcome distribution from one defender state. */
interface Kernel {
  /** Next defender states, keyed `hull * stride + sh`, with cumulative probabilities for sampling. */
  keys: Float64Array;
  probs: Float64Array;
  cdf: Float64Array;
  expectedHull: number;
}

interface Side {
  p: UnitProfile;
  /** Largest SH the unit can ever hold, plus one: the stride of its state key. */
  stride: number;
  fullHull: number;
  /** Whether shots at this side get the cover modifier. */
  cover: boolean;
  canBrace: boolean;
}

interface UnitState {
  sh: number;
  hull: number;
  braced: boolean;
}

class Engine {
  readonly sides: [Side, Side];
  readonly pFirst: number;
  readonly rechargePmf: Float64Array;
  readonly rechargeP: number;
  /** Per firing side: plan key -> plan, and plan key -> defender state key -> kernel. */
  private plans: [Map<number, FireContext>, Map<number, FireContext>] = [new Map(), new Map()];
  private kernels: [Map<number, Map<number, Kernel>>, Map<number, Map<number, Kernel>>] = [new Map(), new Map()];
  private policies = new Map<number | string, { action: SecondAction; aim?: number }>();
  /** Numeric policy keys fit when the state sizes are small; otherwise strings. */
  private readonly numericKeys: boolean;
  private readonly keyS: number;
  private readonly keyH: number;
  readonly budget: Budget = { ops: 0, limit: KERNEL_WORK_LIMIT };
  mode: 'kernel' | 'dice' = 'kernel';

  constructor(
    att: UnitProfile,
    def: UnitProfile,
    readonly range: number,
    cover: boolean,
  ) {
    const side = (p: UnitProfile, c: boolean): Side => ({
      p,
      stride: maxShields(p, p.bases * p.hp) + 1,
      fullHull: p.bases * p.hp,
      cover: c,
      canBrace: p.armour !== undefined,
    });
    this.sides = [side(att, false), side(def, cover)];
    this.pFirst = initiativeOdds(att.ld, def.ld);
    this.rechargeP = pSuccess(SHIELD_RECHARGE.target);
    this.rechargePmf = binomialPmf(SHIELD_RECHARGE.dice, this.rechargeP);
    this.keyS = Math.max(this.sides[0].stride, this.sides[1].stride);
    this.keyH = Math.max(this.sides[0].fullHull, this.sides[1].fullHull) + 1;
    this.numericKeys = 2 * this.keyS * this.keyH * this.keyS * this.keyH * 2 * 2 < Number.MAX_SAFE_INTEGER;
  }

  /** The Fire plan of side `f` at the other side, by attacker bases, aim and whether the target braced. */
  plan(f: 0 | 1, attBases: number, aim: number | undefined, braced: boolean): FireContext {
    const shooter = this.sides[f].p;
    const key = (attBases * (shooter.weapons.length + 1) + (aim ?? -1) + 1) * 2 + (braced ? 1 : 0);
    let ctx = this.plans[f].get(key);
    if (!ctx) {
      ctx = planFire(shooter, this.sides[1 - f]!.p, { attackerBases: attBases, cover: this.sides[1 - f]!.cover, brace: braced, aim, range: this.range });
      this.plans[f].set(key, ctx);
    }
    return ctx;
  }

  /** The exact kernel of a Fire action, or undefined when the work limit is reached. */
  kernel(f: 0 | 1, attBases: number, aim: number | undefined, target: UnitState): Kernel | undefined {
    const shooter = this.sides[f].p;
    const t = this.sides[1 - f]!;
    const planKey = (attBases * (shooter.weapons.length + 1) + (aim ?? -1) + 1) * 2 + (target.braced ? 1 : 0);
    let byState = this.kernels[f].get(planKey);
    if (!byState) this.kernels[f].set(planKey, (byState = new Map()));
    const stateKey = target.hull * t.stride + target.sh;
    const hit = byState.get(stateKey);
    if (hit) return hit;
    const ex = exactVolley(this.plan(f, attBases, aim, target.braced), new Map([[stateKey, 1]]), t.stride, this.budget);
    if (!ex) return undefined;
    const n = ex.dist.size;
    const keys = new Float64Array(n);
    const probs = new Float64Array(n);
    const cdf = new Float64Array(n);
    let i = 0;
    let acc = 0;
    let expectedHull = 0;
    for (const [k, p] of ex.dist) {
      keys[i] = k;
      probs[i] = p;
      acc += p;
      cdf[i] = acc;
      expectedHull += p * (target.hull - Math.floor(k / t.stride));
      i++;
    }
    const kern = { keys, probs, cdf, expectedHull };
    byState.set(stateKey, kern);
    return kern;
  }

  private expected(f: 0 | 1, attBases: number, aim: number | undefined, target: UnitState): number | undefined {
    return this.kernel(f, attBases, aim, target)?.expectedHull;
  }

  /** The second action of side `f` (its own braced flag already cleared), cached by state. */
  decide(f: 0 | 1, self: UnitState, foe: UnitState): { action: SecondAction; aim?: number } | undefined {
    // The fixed rule is cheaper than any cache lookup.
    if (this.mode === 'dice') return this.decideRule(f, self);
    const { keyS: S, keyH: H } = this;
    const key = this.numericKeys
      ? (((((f * S + self.sh) * H + self.hull) * S + foe.sh) * H + foe.hull) * 2 + (foe.braced ? 1 : 0)) * 2 + (this.mode === 'kernel' ? 1 : 0)
      : `${f},${self.sh},${self.hull},${foe.sh},${foe.hull},${foe.braced ? 1 : 0},${this.mode}`;
    const hit = this.policies.get(key);
    if (hit) return hit;
    const d = this.mode === 'kernel' ? this.decideExpected(f, self, foe) : this.decideRule(f, self);
    if (d) this.policies.set(key, d);
    return d;
  }

  private decideRule(f: 0 | 1, self: UnitState): { action: SecondAction; aim?: number } {
    const s = this.sides[f];
    if (self.sh < maxShields(s.p, self.hull)) return { action: 'shields' };
    let best = -1;
    let bestValue = 0;
    s.p.weapons.forEach((w, i) => {
      if (weaponReach(s.p, w) >= this.range && w.attacks * w.damage > bestValue) {
        best = i;
        bestValue = w.attacks * w.damage;
      }
    });
    if (best >= 0) return { action: 'aim', aim: best };
    return s.canBrace ? { action: 'brace' } : { action: 'none' };
  }

  private decideExpected(f: 0 | 1, self: UnitState, foe: UnitState): { action: SecondAction; aim?: number } | undefined {
    const s = this.sides[f];
    const o: 0 | 1 = f === 0 ? 1 : 0;
    const myBases = basesLeft(self.hull, s.p.hp);
    const foeBases = basesLeft(foe.hull, this.sides[o].p.hp);
    let action: SecondAction = 'none';
    let aim: number | undefined;
    let value = -Infinity;
    // Aim: the weapon whose aimed Fire action adds the most expected hull damage.
    const plain = this.expected(f, myBases, undefined, foe);
    if (plain === undefined) return undefined;
    const ctx = this.plan(f, myBases, undefined, foe.braced);
    for (const plan of ctx.plans) {
      if (attacksAgainst(plan, foeBases) === 0) continue;
      const e = this.expected(f, myBases, plan.index, foe);
      if (e === undefined) return undefined;
      if (e - plain > value) {
        value = e - plain;
        action = 'aim';
        aim = plan.index;
      }
    }
    // What the opponent's next Fire action is expected to take from us, as we stand.
    const threat = this.expected(o, foeBases, undefined, { ...self, braced: false });
    if (threat === undefined) return undefined;
    const max = maxShields(s.p, self.hull);
    if (self.sh < max) {
      let after = 0;
      for (let k = 0; k < this.rechargePmf.length; k++) {
        const e = this.expected(o, foeBases, undefined, { sh: Math.min(max, self.sh + k), hull: self.hull, braced: false });
        if (e === undefined) return undefined;
        after += this.rechargePmf[k]! * e;
      }
      if (threat - after > value) {
        value = threat - after;
        action = 'shields';
        aim = undefined;
      }
    }
    if (s.canBrace) {
      const braced = this.expected(o, foeBases, undefined, { ...self, braced: true });
      if (braced === undefined) return undefined;
      if (threat - braced > value) {
        value = threat - braced;
        action = 'brace';
        aim = undefined;
      }
    }
    return { action, aim };
  }
}

interface RunTotals {
  wins: [number, number];
  /** ended[r]: engagements that ended (a unit destroyed) in round r + 1. */
  ended: Float64Array;
  /** Deaths by round, per side. */
  deaths: [Float64Array, Float64Array];
  actions: [ActionCounts, ActionCounts];
}

function emptyTotals(rounds: number): RunTotals {
  return {
    wins: [0, 0],
    ended: new Float64Array(rounds),
    deaths: [new Float64Array(rounds), new Float64Array(rounds)],
    actions: [
      { aim: 0, shields: 0, brace: 0 },
      { aim: 0, shields: 0, brace: 0 },
    ],
  };
}

/** Seeded trials; returns undefined if kernel mode ran out of work budget (the caller retries with dice). */
function sampleRun(e: Engine, start: [UnitState, UnitState], rounds: number, trials: number, rng: RandomGenerator): RunTotals | undefined {
  const dice = new Dice(rng);
  const totals = emptyTotals(rounds);
  const st: [UnitState, UnitState] = [{ ...start[0] }, { ...start[1] }];
  let volleyPlan: FireContext | undefined;
  // Kernel mode: the decision and its kernel depend only on the joint state, so they are kept per
  // state (a dense array when the state space is small), and an activation is one lookup and a draw.
  interface Step {
    action: SecondAction;
    kernel?: Kernel;
  }
  const S = [e.sides[0].stride, e.sides[1].stride];
  const H = [e.sides[0].fullHull + 1, e.sides[1].fullHull + 1];
  const stepSpace = S[0]! * H[0]! * S[1]! * H[1]! * 2;
  const dense = e.mode === 'kernel' && stepSpace <= 4_000_000;
  const steps: [(Step | undefined)[], (Step | undefined)[]] = dense ? [new Array(stepSpace), new Array(stepSpace)] : [[], []];
  const activate = (f: 0 | 1): boolean | undefined => {
    const o: 0 | 1 = f === 0 ? 1 : 0;
    const me = st[f];
    const foe = st[o];
    me.braced = false;
    const side = e.sides[f];
    let step: Step | undefined;
    const slot = dense ? ((me.hull * S[f]! + me.sh) * (H[o]! * S[o]!) + foe.hull * S[o]! + foe.sh) * 2 + (foe.braced ? 1 : 0) : -1;
    if (dense) step = steps[f][slot];
    if (!step) {
      const d = e.decide(f, me, foe);
      if (!d) return undefined;
      step = { action: d.action };
      if (e.mode === 'kernel') {
        step.kernel = e.kernel(f, basesOf(me.hull, side.p.hp), d.aim, foe);
        if (!step.kernel) return undefined;
      } else {
        volleyPlan = e.plan(f, basesOf(me.hull, side.p.hp), d.aim, foe.braced);
      }
      if (dense) steps[f][slot] = step;
    }
    if (step.action === 'shields') {
      let restored = 0;
      for (let i = 0; i < RECHARGE_DICE; i++) if (succeeds(dice.d10(), RECHARGE_TARGET)) restored++;
      me.sh = Math.min(maxShieldsOf(side.p, me.hull), me.sh + restored);
      totals.actions[f].shields++;
    } else if (step.action === 'brace') {
      me.braced = true;
      totals.actions[f].brace++;
    } else if (step.action === 'aim') totals.actions[f].aim++;
    const k = step.kernel;
    if (k) {
      const u = dice.uniform();
      let lo = 0;
      let hi = k.cdf.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (k.cdf[mid]! > u) hi = mid;
        else lo = mid + 1;
      }
      const key = k.keys[lo]!;
      const stride = S[o]!;
      foe.hull = Math.floor(key / stride);
      foe.sh = key - foe.hull * stride;
    } else {
      volleyBySampling(volleyPlan!, foe, dice);
    }
    return foe.hull === 0;
  };
  for (let t = 0; t < trials; t++) {
    st[0].sh = start[0].sh;
    st[0].hull = start[0].hull;
    st[0].braced = start[0].braced;
    st[1].sh = start[1].sh;
    st[1].hull = start[1].hull;
    st[1].braced = start[1].braced;
    for (let r = 0; r < rounds; r++) {
      const first: 0 | 1 = dice.uniform() < e.pFirst ? 0 : 1;
      const second: 0 | 1 = first === 0 ? 1 : 0;
      let killed = activate(first);
      if (killed === undefined) return undefined;
      if (killed) {
        totals.wins[first]++;
        totals.ended[r]!++;
        totals.deaths[second][r]!++;
        break;
      }
      killed = activate(second);
      if (killed === undefined) return undefined;
      if (killed) {
        totals.wins[second]++;
        totals.ended[r]!++;
        totals.deaths[first][r]!++;
        break;
      }
    }
  }
  return totals;
}

/** The exact chain is tried only up to this many joint states (dense arrays of this length). */
export const MARKOV_MAX_STATES = 1_000_000;

/**
 * A sparse probability vector over joint states: dense values plus the list of indices that hold
 * mass, so that a pass visits only live states and clearing costs only what was touched.
 */
class Bag {
  readonly val: Float64Array;
  readonly idx: Int32Array;
  n = 0;
  constructor(size: number) {
    this.val = new Float64Array(size);
    this.idx = new Int32Array(size);
  }
  add(j: number, p: number): void {
    if (p === 0) return;
    if (this.val[j] === 0) this.idx[this.n++] = j;
    this.val[j]! += p;
  }
  clear(): void {
    for (let i = 0; i < this.n; i++) this.val[this.idx[i]!] = 0;
    this.n = 0;
  }
}

/**
 * The exact chain over joint states (SH, hull, braced of both units), indexed
 * `unitIndexA * NB + unitIndexB`, one activation at a time. An activation is applied in two passes:
 * first the Fire kernel moves the foe (and the activating unit's brace flag is set), with the mass
 * of units that chose Shields Back Online parked apart; then that mass is spread over the recharge
 * roll. The two transitions are independent, and doing them apart costs |kernel| + |recharge| per
 * state instead of their product. Undefined when it does not fit the state or work limits.
 */
function markovRun(e: Engine, start: [UnitState, UnitState], rounds: number): RunTotals | undefined {
  const sides = e.sides;
  const size = sides.map((s) => (s.fullHull + 1) * s.stride * 2) as [number, number];
  const N = size[0] * size[1];
  if (N > MARKOV_MAX_STATES) return undefined;
  const unitIndex = (f: 0 | 1, u: UnitState) => (u.hull * sides[f].stride + u.sh) * 2 + (u.braced ? 1 : 0);
  // Decoding tables: unit index -> SH and hull.
  const tables = sides.map((side, f) => {
    const sh = new Float64Array(size[f as 0 | 1]);
    const hull = new Float64Array(size[f as 0 | 1]);
    for (let i = 0; i < sh.length; i++) {
      const j = i >> 1;
      sh[i] = j % side.stride;
      hull[i] = (j - sh[i]!) / side.stride;
    }
    return { sh, hull };
  });
  const maxSh = sides.map((side, f) => {
    const m = new Float64Array(side.fullHull + 1);
    for (let h = 0; h <= side.fullHull; h++) m[h] = maxShieldsOf(sides[f]!.p, h);
    return m;
  });
  let work = 0;
  const totals = emptyTotals(rounds);
  // Per side and joint state (own brace flag cleared): 1 + the index of its step in `kernels`/`actions`.
  const stepOf: [Int32Array, Int32Array] = [new Int32Array(N), new Int32Array(N)];
  const kernels: Kernel[] = [];
  const actions: number[] = [];
  const me: UnitState = { sh: 0, hull: 0, braced: false };
  const foe: UnitState = { sh: 0, hull: 0, braced: false };
  /** Pass one for side f at joint index idx: the kernel into `out` (or `parked`); returns the mass of kills. */
  const fire = (f: 0 | 1, idx: number, w: number, out: Bag, parked: Bag): number | undefined => {
    const o: 0 | 1 = f === 0 ? 1 : 0;
    const iA = Math.floor(idx / size[1]);
    const iB = idx - iA * size[1];
    const iMe = f === 0 ? iA : iB;
    const iFoe = f === 0 ? iB : iA;
    // The decision and its kernel depend on the joint state only (own brace flag cleared), so they
    // are looked up once per state and reused in later rounds.
    const slot = f === 0 ? (iMe & ~1) * size[1] + iFoe : iFoe * size[1] + (iMe & ~1);
    let id = stepOf[f][slot]!;
    if (id === 0) {
      me.sh = tables[f]!.sh[iMe]!;
      me.hull = tables[f]!.hull[iMe]!;
      me.braced = false;
      foe.sh = tables[o]!.sh[iFoe]!;
      foe.hull = tables[o]!.hull[iFoe]!;
      foe.braced = (iFoe & 1) === 1;
      const d = e.decide(f, me, foe);
      if (!d) return undefined;
      const kern = e.kernel(f, basesOf(me.hull, sides[f].p.hp), d.aim, foe);
      if (!kern) return undefined;
      kernels.push(kern);
      actions.push(d.action === 'shields' ? 1 : d.action === 'brace' ? 2 : 0);
      id = stepOf[f][slot] = kernels.length;
    }
    const kern = kernels[id - 1]!;
    const action = actions[id - 1]!;
    work += kern.keys.length + 10;
    const dst = action === 1 ? parked : out;
    const selfIdx = (iMe & ~1) + (action === 2 ? 1 : 0);
    const br = iFoe & 1;
    const stride = sides[o].stride;
    let killed = 0;
    for (let i = 0; i < kern.keys.length; i++) {
      const fk = kern.keys[i]!;
      const pk = w * kern.probs[i]!;
      if (fk < stride) {
        killed += pk; // hull 0: the foe is destroyed
        continue;
      }
      const foeIdx = fk * 2 + br;
      dst.add(f === 0 ? selfIdx * size[1] + foeIdx : foeIdx * size[1] + selfIdx, pk);
    }
    return killed;
  };
  /** Pass two: spread the parked mass of side f over its Shields Back Online roll, into `out`. */
  const recharge = (f: 0 | 1, parked: Bag, out: Bag) => {
    const pmf = e.rechargePmf;
    for (let k = 0; k < parked.n; k++) {
      const idx = parked.idx[k]!;
      const w = parked.val[idx]!;
      const iA = Math.floor(idx / size[1]);
      const iB = idx - iA * size[1];
      const iMe = f === 0 ? iA : iB;
      const sh = tables[f]!.sh[iMe]!;
      const max = maxSh[f]![tables[f]!.hull[iMe]!]!;
      for (let r = 0; r < pmf.length; r++) {
        const idxMe = iMe + 2 * (Math.min(max, sh + r) - sh);
        out.add(f === 0 ? idxMe * size[1] + iB : iA * size[1] + idxMe, w * pmf[r]!);
      }
      work += pmf.length;
    }
    parked.clear();
  };
  let alive = new Bag(N);
  let next = new Bag(N);
  const mid = new Bag(N);
  const parked = new Bag(N);
  alive.add(unitIndex(0, start[0]) * size[1] + unitIndex(1, start[1]), 1);
  for (let r = 0; r < rounds; r++) {
    for (const first of [0, 1] as const) {
      const pf = first === 0 ? e.pFirst : 1 - e.pFirst;
      if (pf === 0) continue;
      const second: 0 | 1 = first === 0 ? 1 : 0;
      for (let k = 0; k < alive.n; k++) {
        const idx = alive.idx[k]!;
        const killed = fire(first, idx, alive.val[idx]! * pf, mid, parked);
        if (killed === undefined) return undefined;
        totals.wins[first] += killed;
        totals.ended[r]! += killed;
        totals.deaths[second][r]! += killed;
      }
      recharge(first, parked, mid);
      for (let k = 0; k < mid.n; k++) {
        const idx = mid.idx[k]!;
        const killed = fire(second, idx, mid.val[idx]!, next, parked);
        if (killed === undefined) return undefined;
        totals.wins[second] += killed;
        totals.ended[r]! += killed;
        totals.deaths[first][r]! += killed;
      }
      mid.clear();
      recharge(second, parked, next);
      if (work > MARKOV_WORK_LIMIT) return undefined;
    }
    alive.clear();
    [alive, next] = [next, alive];
  }
  return totals;
}

function summarise(totals: RunTotals, n: number, rounds: number) {
  const attackerWins = totals.wins[0] / n;
  const defenderWins = totals.wins[1] / n;
  const neither = Math.max(0, 1 - attackerWins - defenderWins);
  let meanRounds = 0;
  const roundsTaken: Point[] = [];
  for (let r = 0; r < rounds; r++) {
    const p = totals.ended[r]! / n + (r === rounds - 1 ? neither : 0);
    meanRounds += (r + 1) * p;
    if (p > 0) roundsTaken.push({ value: r + 1, p });
  }
  const survival: { round: number; attacker: number; defender: number }[] = [];
  let deadA = 0;
  let deadB = 0;
  for (let r = 0; r < rounds; r++) {
    deadA += totals.deaths[0][r]!;
    deadB += totals.deaths[1][r]!;
    survival.push({ round: r + 1, attacker: 1 - deadA / n, defender: 1 - deadB / n });
  }
  return { attackerWins, defenderWins, neither, meanRounds, roundsTaken, survival };
}

/**
 * The engagement between attacker and defender. Sampled with `trials` seeded trials (the same seed
 * gives the same numbers); when the joint state space fits, also exact (`exact`).
 */
export function simulateEngagement(
  att: UnitProfile,
  def: UnitProfile,
  opts: EngagementOptions | Resolved = {},
  rng?: RandomGenerator,
  tuning: { exact?: boolean } = {},
): EngagementResult {
  att = sanitizeProfile(att);
  def = sanitizeProfile(def);
  const r = asResolved(att, def, opts);
  const e = new Engine(att, def, r.range, r.cover);
  const aHull = r.attackerBases * att.hp;
  const start: [UnitState, UnitState] = [
    { sh: maxShields(att, aHull), hull: aHull, braced: false },
    { sh: r.defenderShields, hull: r.defenderHull, braced: false },
  ];
  const source = rng ?? makeRng(r.seed);
  let totals = sampleRun(e, start, r.rounds, r.trials, source.clone());
  if (!totals) {
    e.mode = 'dice';
    totals = sampleRun(e, start, r.rounds, r.trials, source.clone())!;
  }
  const s = summarise(totals, r.trials, r.rounds);
  const se = (p: number) => Math.sqrt((p * (1 - p)) / r.trials);
  const result: EngagementResult = {
    method: 'sampled',
    rounds: r.rounds,
    trials: r.trials,
    seed: r.seed,
    range: r.range,
    attackerWins: s.attackerWins,
    defenderWins: s.defenderWins,
    neither: s.neither,
    standardError: { attackerWins: se(s.attackerWins), defenderWins: se(s.defenderWins), neither: se(s.neither) },
    meanRounds: s.meanRounds,
    survival: s.survival,
    policy: e.mode === 'kernel' ? POLICY_EXPECTED : POLICY_RULE,
    roundsTaken: s.roundsTaken,
    actions: {
      attacker: perTrial(totals.actions[0], r.trials),
      defender: perTrial(totals.actions[1], r.trials),
    },
  };
  if (e.mode === 'kernel' && tuning.exact !== false) {
    e.budget.limit = e.budget.ops + MARKOV_WORK_LIMIT;
    const exact = markovRun(e, start, r.rounds);
    if (exact) {
      const x = summarise(exact, 1, r.rounds);
      result.exact = { attackerWins: x.attackerWins, defenderWins: x.defenderWins, neither: x.neither, meanRounds: x.meanRounds, survival: x.survival };
    }
  }
  return result;
}

function perTrial(a: ActionCounts, n: number): ActionCounts {
  return { aim: a.aim / n, shields: a.shields / n, brace: a.brace / n };
}

export const ENGAGEMENT_ASSUMPTIONS: readonly string[] = [
  `Engagement: the units stand at the given range (default ${ENGAGEMENT_DEFAULTS.range}") for every round; weapons that do not reach it never fire.`,
  'Engagement: the attacker starts with full shields, the defender with --defender-shields (default full); both start with the given bases.',
  'Engagement: cover protects the defender only; --aim and --brace apply to the single volley, while in the engagement the policy chooses them.',
  "Engagement: Brace lasts until the bracing unit's next activation; Shields Back Online needs missing SH and never restores beyond the current maximum.",
  'Initiative: each side rolls its LD dice; ties go to the lower LD target, then to more dice, then re-roll. A unit without LD rolls nothing and loses every tie-break; two units without LD each go first half the time.',
];
