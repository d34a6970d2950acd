/**
 * The fleet battle (BATTLE.md): two fleets play the game's round (sections 9, 13, 14, 15, 18) for
 * up to `rounds` rounds, sampled over seeded trials. This is the one round engine of the simulator:
 * the duel (`simulateEngagement`) is the case of two one-unit fleets at a fixed range.
 *
 * A Fire action is resolved as in the duel: in kernel mode it jumps to a defender state drawn from
 * that action's exact distribution (computed once per state by the exact volley and cached); when
 * the exact kernels would cost too much (absurd cards) the whole run restarts in dice mode, where
 * every Fire action is rolled by the sampled volley and the policy uses a fixed rule.
 *
 * Work is counted, not timed: every activation adds its cost to `ops`, a run stops after the trial
 * that crosses its work limit (the result says it was cut short and how many trials ran), and
 * `BattleRun.step` runs a slice of work at a time so that a caller can yield between slices and
 * cancel. The same seed and options always give the same numbers.
 *
 * Hooks (`BattleHooks`) are the named points where rule variants plug in without copying the round:
 * how hits become hull damage, the end of each round, and the outcome of a trial.
 */
import { ACTION_POINTS_PER_ACTIVATION, BOARDING, DICE, RAMMING, SHIELD_RECHARGE } from '../rules/data';
import type { UnitProfile } from './types';
import { Dice, binomialPmf, pSuccess, rollSucceeds } from './dice';
import type { RandomGenerator } from './dice';
import { applyHits, attacksAgainst, basesLeft, maxShields, planFire, weaponReach } from './fire';
import type { FireContext } from './fire';
import { exactVolley } from './volley-exact';
import type { Budget } from './volley-exact';
import { sampleCost, sampleVolley } from './volley-sample';

// Hot-path aliases (see engagement.ts): imported bindings can be getters under some loaders.
const RECHARGE_DICE = SHIELD_RECHARGE.dice;
const RECHARGE_TARGET = SHIELD_RECHARGE.target;
const succeeds = rollSucceeds;
const basesOf = basesLeft;
const maxShieldsOf = maxShields;
const volleyBySampling = sampleVolley;
const NATURAL_CRITICAL = DICE.critical;

/** Exact kernels stop (and the run restarts with dice) beyond this much work. */
export const KERNEL_WORK_LIMIT = 4e7;
/**
 * Sampling work limit of one run, in the units of `ops` (about a table lookup or a die each; a
 * binomial draw of the sampled volley counts several). A 20,000-trial battle of the two 2,000-point
 * example fleets uses about a third of it (1,600 per trial); two absurd cards (hundreds of
 * weapons, huge HP) or a million trials of a hundred rounds reach it and stop with fewer trials,
 * saying so.
 */
export const SAMPLING_WORK_LIMIT = 1e8;
/**
 * A run split over threads (sim/chunked.ts) plays its trials in chunks of this many, whatever the
 * number of threads. Each chunk says which exact kernels it used (`ChunkOutcome.used`), so that the
 * kernels' work can be added up as one run adds it, whichever engine computed them.
 */
export const CHUNK_TRIALS = 1000;
/** A sampled Fire action costs this many ops per unit of `sampleCost` (binomial draws are dear). */
const DICE_FIRE_WEIGHT = 3;

export type SecondAction = 'aim' | 'shields' | 'brace' | 'none';

/** One unit of a fleet as the battle sees it. */
export interface BattleUnit {
  /** The card's name, and which copy of it in the fleet this is (1, 2, ...). */
  name: string;
  copy: number;
  points: number;
  /** The card's numbers; its `move`, `cr` and `tonnage` drive movement, Board and Ram. */
  profile: UnitProfile;
  /** Index (in the same fleet) of the unit it starts embarked in (section 6). */
  host?: number;
  /** Starting SH and hull points (default: full). */
  start?: { sh: number; hull: number };
  /** Shots at this unit get the cover modifier. */
  cover?: boolean;
}

export interface Fleet {
  name: string;
  faction: string;
  units: BattleUnit[];
}

export interface BattleSetup {
  /** Fixed range in inches (every unit N" from every enemy all battle), or undefined: approach. */
  range?: number;
  /** Table depth in inches for the approach model. */
  depth: number;
  rounds: number;
  trials: number;
  seed: number;
  /** Sampling work limit (default SAMPLING_WORK_LIMIT). */
  workLimit?: number;
}

/** What a hook sees of the battle: read-only views of the per-unit state. */
export interface BattleView {
  round: number;
  side: Int8Array;
  alive: Uint8Array;
  hull: Float64Array;
  sh: Float64Array;
  /** Distance of each unit from its own board edge, and whether it is on the table. */
  pos: Float64Array;
  onTable: Uint8Array;
  units: readonly BattleUnit[];
  /** Points destroyed so far by each side. */
  pointsDestroyed: [number, number];
  /** Units routed (rule variants): not alive, not destroyed. */
  routed: Uint8Array;
  /** Index (global) of the unit's host while it is embarked, else -1. */
  host: Int32Array;
}

/**
 * What a hook may do to the battle (rule variants, BATTLE.md "Rule variants"): roll the run's own
 * seeded dice, rout a unit (it leaves the battle intact: it never acts again, is not alive but not
 * destroyed either, so its fleet is not annihilated; it counts as lost for Action Tokens and its
 * whole card counts as destroyed points for the enemy; units it carries leave with it), or withdraw a side (its units leave alive and the battle ends after this
 * round).
 */
export interface BattleActions {
  /** One natural d10 roll from the run's seeded dice. */
  roll(): number;
  rout(u: number): void;
  withdraw(side: 0 | 1): void;
}

/**
 * Trial i rolls from the seed's generator jumped i times (xoroshiro128+'s jump: 2^64 draws apart),
 * not from where trial i - 1 stopped. So two runs from one seed play trial i with the same dice for
 * as long as they play it alike, whatever the trials before consumed: a rule variant compared with
 * the standard rules changes a battle only where the variant does (common random numbers). A
 * retreat then never costs the retreating side a unit it would have kept, battle by battle, and
 * the comparison's differences are far less noisy than two independent samples'.
 *
 * "Alike" needs two more things. The policy's choices depend on the battle's state only, never on
 * which states the run met before: its caches (plans, kernels, decisions, Aim and protection
 * values) are keyed by everything a choice depends on, and no two keys coincide (see `pack`).
 * And both runs resolve Fire actions the same way and play the same trials: a comparison pairs
 * them up (variants/compare.ts `pairRuns`, with `BattleRun.restart`) when one fell back to dice
 * or was cut short by its work limit.
 */
function lanes(source: RandomGenerator): (() => RandomGenerator) | undefined {
  const base = source.clone() as RandomGenerator & { jump?: () => void };
  if (typeof base.jump !== 'function') return undefined;
  return () => {
    const stream = base.clone();
    base.jump!();
    return stream;
  };
}

/**
 * Named hook points for rule variants (BATTLE.md "Rule variants"). A variant that changes how hits
 * become damage sets `allocateDamage`; it is used for every Fire action (exact kernels and sampled
 * volleys alike), Board and Ram.
 */
export interface BattleHooks {
  name?: string;
  /** Hull left after `hits` unsaved hits of `damage` each on a unit with `hull` left and `hp` per base. */
  allocateDamage?: (hull: number, hits: number, damage: number, hp: number) => number;
  /** Called after each activation (unit u), and when a side spends an Action Token instead: a trace for tests and tools. */
  onActivation?: (u: number, view: BattleView) => void;
  onToken?: (side: 0 | 1, view: BattleView) => void;
  /** Called at the start of each round, before Initiative. */
  startOfRound?: (view: BattleView, act: BattleActions) => void;
  /** Called after each round that did not end the battle; returning true ends the battle. */
  endOfRound?: (view: BattleView, act: BattleActions) => boolean | void;
  /** Called once when the battle ends (a side gone, the round limit, or a hook ended it), before the last round's tally. */
  endOfBattle?: (view: BattleView, act: BattleActions) => void;
  /** The winner of a finished trial by points (default: more points destroyed; undefined: a draw). */
  victory?: (view: BattleView) => 0 | 1 | undefined;
  /**
   * The winner by the variant's own rule (morale), counted apart from points victory (BATTLE.md:
   * "the result carries that victory apart"); undefined: nobody wins by it.
   */
  variantVictory?: (view: BattleView) => 0 | 1 | undefined;
}

/** An exact Fire-action outcome distribution from one defender state. */
export interface DuelKernel {
  keys: Float64Array;
  probs: Float64Array;
  cdf: Float64Array;
  expectedHull: number;
  expectedBasesLost: number;
  /** The exact volley's work to compute it, its name across engines, and the last chunk that used it (see `Engine.newChunk`). */
  cost?: number;
  id?: string;
  chunk?: number;
}

/** A card as the engine sees it (units of the same card share one). */
interface UnitType {
  p: UnitProfile;
  stride: number;
  fullHull: number;
  /** Distinct weapon reaches (weapons with attacks), ascending. */
  reaches: number[];
  maxReach: number;
  canBrace: boolean;
}

/** Per-activation counters, per unit. */
interface Tally {
  fired: Float64Array;
  boarded: Float64Array;
  rammed: Float64Array;
  aim: Float64Array;
  shields: Float64Array;
  brace: Float64Array;
}

export interface BattleTotals {
  trials: number;
  annihilation: [number, number];
  pointsVictory: [number, number];
  draws: number;
  /** Points destroyed by each side, one entry per trial. */
  pointsDestroyed: [number[], number[]];
  /**
   * How each trial ended, one code per trial in trial order (`trialCode`): what a comparison on
   * the same dice pairs trial by trial for its paired standard errors (sim/compare.ts).
   */
  outcomes: number[];
  roundsSum: number;
  /** ended[r]: trials that ended in round r + 1 with a side gone, or before the round limit by a hook. */
  ended: Float64Array;
  /** alive[u][r]: trials in which unit u was alive after round r + 1. */
  alive: Float64Array[];
  tally: Tally;
  /** routed[u]: trials in which unit u was routed (rule variants). */
  routed: Float64Array;
  /** routedBy[u][r]: trials in which unit u had been routed by the end of round r + 1. */
  routedBy: Float64Array[];
  /** Trials in which the last units of both fleets were destroyed by the same action (a Ram). */
  bothDestroyed: number;
  /** Trials won by each side by the variant's own rule (hooks.variantVictory). */
  variantVictory: [number, number];
  /** Trials in which each side withdrew (rule variants). */
  withdrew: [number, number];
}

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

/** The distribution of max(0, X - Y), X and Y the successes of two CR rolls (boarding damage). */
function boardingPmf(a: { target: number; dice: number }, d: { target: number; dice: number }): Float64Array {
  const x = binomialPmf(a.dice, pSuccess(a.target));
  const y = binomialPmf(d.dice, pSuccess(d.target));
  const out = new Float64Array(a.dice + 1);
  for (let i = 0; i < x.length; i++) for (let j = 0; j < y.length; j++) out[Math.max(0, i - j)]! += x[i]! * y[j]!;
  return out;
}

interface Decision {
  action: SecondAction;
  aim?: number;
  /** Expected hull points the second action is worth (for comparing with Board). */
  value: number;
}

const NO_DECISION: Decision = { action: 'none', value: -Infinity };
const ZERO3 = new Float64Array(3);
const BOARD_RANGE = BOARDING.range;
const RAM_RANGE = RAMMING.range;

/**
 * The engine: unit types, caches of plans, kernels and decisions, and the per-trial state. One
 * instance runs one battle (`BattleRun` drives it).
 */
class Engine {
  readonly n: number;
  readonly units: BattleUnit[];
  readonly side: Int8Array;
  readonly typeOf: Int32Array;
  readonly types: UnitType[] = [];
  readonly fixed: boolean;
  readonly range: number;
  readonly depth: number;
  readonly budget: Budget = { ops: 0, limit: KERNEL_WORK_LIMIT };
  mode: 'kernel' | 'dice' = 'kernel';
  readonly rechargePmf: Float64Array;
  /** hooks.allocateDamage, or the standard rule. */
  readonly allocate: (hull: number, hits: number, damage: number, hp: number) => number;
  private plans = new Map<number, FireContext>();
  private kernels: Map<number, Map<number, DuelKernel>>[] = [];
  private decisions = new Map<number | string, Decision>();
  private readonly slotPk: Float64Array;
  private readonly slotState: Float64Array;
  private readonly slotKernel: (DuelKernel | undefined)[];
  private protects = new Map<number | string, Float64Array>();
  private aims = new Map<number | string, { aim?: number; value: number }>();
  private boardPmfs = new Map<number, Float64Array>();
  private initiative: Float64Array;

  // Per-trial state, indexed by unit.
  readonly sh: Float64Array;
  readonly hull: Float64Array;
  readonly braced: Uint8Array;
  readonly alive: Uint8Array;
  readonly routed: Uint8Array;
  /** On the table (entered or launched); embarked and not-yet-entered units are not. */
  readonly onTable: Uint8Array;
  /** Distance from its own board edge (approach model). */
  readonly pos: Float64Array;
  readonly moved: Float64Array;
  readonly activated: Uint8Array;
  readonly startHull: Float64Array;
  readonly credit: Float64Array;
  readonly host: Int32Array;
  /** Units of each side, in fleet order, each host followed by what it carries. */
  readonly order: [number[], number[]];
  /** Global index of the first unit of side 1. */
  readonly offset: number;
  ops = 0;
  /**
   * The work budget inside a trial: a trial that takes `ops` past it stops at the next activation
   * and is not counted (`overBudget` says why it stopped), so that no one trial can run for minutes.
   */
  stopAt = Infinity;
  overBudget = false;
  /** The chunk of trials being played, and the kernels it has used so far: [id, cost] (see `newChunk`). */
  private chunk = 0;
  used: [string, number][] = [];
  /** Kernels another run already paid for (a chunk played again exactly, sim/chunked.ts): computed, not charged. */
  prepaid: ReadonlySet<string> | undefined;
  /** What a trial that goes past its budget must give back (see playTrial). */
  readonly snapshot: Tally & { alive: Float64Array; routedBy: Float64Array };
  /** Counters of the current run (reset with the totals). */
  tally!: Tally;

  constructor(
    fleets: [Fleet, Fleet],
    setup: BattleSetup,
    readonly hooks: BattleHooks,
  ) {
    this.units = [...fleets[0].units, ...fleets[1].units];
    this.offset = fleets[0].units.length;
    this.n = this.units.length;
    this.side = new Int8Array(this.n);
    this.typeOf = new Int32Array(this.n);
    this.host = new Int32Array(this.n).fill(-1);
    const typeKeys = new Map<string, number>();
    this.units.forEach((u, i) => {
      const s = i < this.offset ? 0 : 1;
      this.side[i] = s;
      const key = JSON.stringify(u.profile);
      let t = typeKeys.get(key);
      if (t === undefined) {
        t = this.types.length;
        typeKeys.set(key, t);
        const p = u.profile;
        const reaches = [...new Set(p.weapons.filter((w) => w.attacks > 0).map((w) => weaponReach(p, w)))].sort((a, b) => a - b);
        this.types.push({
          p,
          stride: maxShields(p, p.bases * p.hp) + 1,
          fullHull: p.bases * p.hp,
          reaches,
          maxReach: reaches.length ? reaches[reaches.length - 1]! : -1,
          canBrace: p.armour !== undefined,
        });
      }
      this.typeOf[i] = t;
      const h = u.host;
      const base = s === 0 ? 0 : this.offset;
      const size = s === 0 ? this.offset : this.n - this.offset;
      if (h !== undefined && Number.isInteger(h) && h >= 0 && h < size && h !== i - base && this.units[base + h]!.host === undefined) this.host[i] = base + h;
    });
    for (let t = 0; t < this.types.length * this.types.length; t++) this.kernels.push(new Map());
    this.order = [[], []];
    for (const s of [0, 1] as const) {
      const lo = s === 0 ? 0 : this.offset;
      const hi = s === 0 ? this.offset : this.n;
      for (let i = lo; i < hi; i++) {
        if (this.host[i]! >= 0) continue;
        this.order[s].push(i);
        for (let j = lo; j < hi; j++) if (this.host[j] === i) this.order[s].push(j);
      }
    }
    this.fixed = setup.range !== undefined;
    this.range = setup.range ?? 0;
    this.depth = setup.depth;
    this.rechargePmf = binomialPmf(RECHARGE_DICE, pSuccess(RECHARGE_TARGET));
    this.allocate = hooks.allocateDamage ?? applyHits;
    // DuelKernel keys must stay exact integers.
    for (const t of this.types) if ((t.fullHull + 1) * t.stride > Number.MAX_SAFE_INTEGER / 4) this.mode = 'dice';
    this.sh = new Float64Array(this.n);
    this.hull = new Float64Array(this.n);
    this.braced = new Uint8Array(this.n);
    this.alive = new Uint8Array(this.n);
    this.routed = new Uint8Array(this.n);
    this.onTable = new Uint8Array(this.n);
    this.pos = new Float64Array(this.n);
    this.moved = new Float64Array(this.n);
    this.activated = new Uint8Array(this.n);
    this.startHull = new Float64Array(this.n);
    this.initiative = new Float64Array((this.n + 1) * (this.n + 1)).fill(NaN);
    this.slotPk = new Float64Array(this.n * this.n * 2).fill(-1);
    this.slotState = new Float64Array(this.n * this.n * 2).fill(-1);
    this.slotKernel = new Array<DuelKernel | undefined>(this.n * this.n * 2).fill(undefined);
    this.credit = new Float64Array(this.n);
    const z = () => new Float64Array(this.n);
    this.snapshot = {
      fired: z(),
      boarded: z(),
      rammed: z(),
      aim: z(),
      shields: z(),
      brace: z(),
      alive: new Float64Array(this.n * setup.rounds),
      routedBy: new Float64Array(this.n * setup.rounds),
    };
  }

  /**
   * Starts a chunk of trials: `used` lists each kernel the chunk uses, once, from its first lookup
   * through the maps (computed now or before). A lookup that the caches built on kernels (the
   * last-kernel slots, decisions, Aim and protection values) answer instead found what an earlier
   * chunk of this engine looked up and listed. So the kernels listed by chunks 0..k together are
   * those one run uses in its trials of chunks 0..k, whichever engines played them: their work is
   * one run's kernel work (sim/chunked.ts adds it up). Sampling work (\`ops\`) never depends on the
   * caches at all.
   */
  newChunk(): void {
    this.chunk++;
    this.used = [];
  }

  /** Distance between two units on the table. */
  dist(a: number, b: number): number {
    if (this.fixed) return this.range;
    return Math.max(0, this.depth - this.pos[a]! - this.pos[b]!);
  }

  /** The smallest weapon reach of type t that is at least d (the same weapons fire), or -1. */
  private reachIndex(t: UnitType, d: number): number {
    const r = t.reaches;
    for (let i = 0; i < r.length; i++) if (r[i]! >= d) return i;
    return -1;
  }

  private planKey(f: number, tgt: number, ri: number, attBases: number, aim: number | undefined, braced: boolean): number {
    const st = this.types[this.typeOf[f]!]!;
    return ((ri * (st.p.bases + 1) + attBases) * (st.p.weapons.length + 1) + (aim ?? -1) + 1) * 2 + (braced ? 1 : 0);
  }

  /** The Fire plan of unit f at unit tgt: reach index ri, attacker bases, aim, target braced. */
  plan(f: number, tgt: number, ri: number, attBases: number, aim: number | undefined, braced: boolean): FireContext {
    const ft = this.typeOf[f]!;
    const tt = this.typeOf[tgt]!;
    // Cover is per unit (two units of one card may differ), so it is part of the key; the cards
    // are the lowest digits because planKey's sizes depend on the shooter's card.
    const key = ((this.planKey(f, tgt, ri, attBases, aim, braced) * 2 + (this.units[tgt]!.cover ? 1 : 0)) * this.types.length + ft) * this.types.length + tt;
    let ctx = this.plans.get(key);
    if (!ctx) {
      const st = this.types[ft]!;
      ctx = planFire(st.p, this.types[tt]!.p, {
        attackerBases: attBases,
        cover: this.units[tgt]!.cover === true,
        brace: braced,
        aim,
        range: st.reaches[ri] ?? Infinity,
      });
      if (this.hooks.allocateDamage) ctx.allocate = this.hooks.allocateDamage;
      this.plans.set(key, ctx);
    }
    return ctx;
  }

  /** The exact kernel of a Fire action of f at tgt (in state sh/hull/braced), or undefined when the work limit is reached. */
  kernel(f: number, tgt: number, ri: number, attBases: number, aim: number | undefined, sh: number, hull: number, braced: boolean): DuelKernel | undefined {
    const tt = this.types[this.typeOf[tgt]!]!;
    // Cover is per unit, so it is part of the key.
    const pk = this.planKey(f, tgt, ri, attBases, aim, braced) * 2 + (this.units[tgt]!.cover ? 1 : 0);
    const stateKey = hull * tt.stride + sh;
    // The last kernel of this shooter at this target (unaimed, aimed): a unit's state changes only
    // when it is hit, so most lookups end here without touching the maps.
    const slot = (f * this.n + tgt) * 2 + (aim === undefined ? 0 : 1);
    if (this.slotPk[slot] === pk && this.slotState[slot] === stateKey) return this.slotKernel[slot];
    const byPair = this.kernels[this.typeOf[f]! * this.types.length + this.typeOf[tgt]!]!;
    let byState = byPair.get(pk);
    if (!byState) byPair.set(pk, (byState = new Map()));
    const hit = byState.get(stateKey);
    if (hit) {
      if (hit.chunk !== this.chunk) {
        hit.chunk = this.chunk;
        this.used.push([hit.id!, hit.cost!]);
      }
      this.slotPk[slot] = pk;
      this.slotState[slot] = stateKey;
      this.slotKernel[slot] = hit;
      return hit;
    }
    const id = `${this.typeOf[f]! * this.types.length + this.typeOf[tgt]!}:${pk}:${stateKey}`;
    // Paid for by the run this chunk is played again for: computed, not counted again.
    const budget = this.prepaid?.has(id) ? { ops: 0, limit: Infinity } : this.budget;
    const paid = budget.ops;
    const ex = exactVolley(this.plan(f, tgt, ri, attBases, aim, braced), new Map([[stateKey, 1]]), tt.stride, budget);
    if (!ex) return undefined;
    const n = ex.dist.size;
    const keys = new Float64Array(n);
    const probs = new Float64Array(n);
    const cdf = new Float64Array(n);
    let i = 0;
    let acc = 0;
    let expectedHull = 0;
    let expectedBasesLost = 0;
    const b0 = basesOf(hull, tt.p.hp);
    for (const [k, p] of ex.dist) {
      keys[i] = k;
      probs[i] = p;
      acc += p;
      cdf[i] = acc;
      const h = Math.floor(k / tt.stride);
      expectedHull += p * (hull - h);
      expectedBasesLost += p * (b0 - basesOf(h, tt.p.hp));
      i++;
    }
    const kern: DuelKernel = { keys, probs, cdf, expectedHull, expectedBasesLost, cost: budget.ops - paid, id, chunk: this.chunk };
    this.used.push([id, kern.cost!]);
    byState.set(stateKey, kern);
    this.slotPk[slot] = pk;
    this.slotState[slot] = stateKey;
    this.slotKernel[slot] = kern;
    return kern;
  }

  /**
   * Packs small whole numbers into one exact number key (mixed radix: part i is a digit below
   * sizes[i]), or a string when they would not fit. The key must never be shared by two different
   * lists of parts: callers whose sizes depend on some parts (a card's bases, strides) put those
   * parts last, with fixed sizes, so that the low digits say which sizes the high digits used.
   * A part outside its size (a state no card allows) falls back to the string too.
   */
  private pack(parts: number[], sizes: number[]): number | string {
    let space = 1;
    for (const x of sizes) space *= x;
    if (space >= Number.MAX_SAFE_INTEGER) return parts.join(',');
    let k = 0;
    for (let i = 0; i < parts.length; i++) {
      const x = parts[i]!;
      if (!Number.isInteger(x) || x < 0 || x >= sizes[i]!) return parts.join(',');
      k = k * sizes[i]! + x;
    }
    return k;
  }

  /**
   * What enemy e's next unaimed Fire action is expected to take from u as u stands: [as it is,
   * if u braced, after u's Shields Back Online roll (an expectation over the roll)]. Cached by
   * everything it depends on: the two cards, e's bases and reach, u's cover and state.
   */
  private protectValues(e: number, u: number): Float64Array | undefined {
    const et = this.types[this.typeOf[e]!]!;
    const ri = this.reachIndex(et, this.dist(e, u));
    if (ri < 0) return ZERO3;
    const ut = this.types[this.typeOf[u]!]!;
    const eb = basesOf(this.hull[e]!, et.p.hp);
    const sh = this.sh[u]!;
    const hull = this.hull[u]!;
    const T = this.types.length;
    // The two cards last: the sizes before them depend on them (see pack).
    const key = this.pack(
      [eb, ri, this.units[u]!.cover ? 1 : 0, sh, hull, this.typeOf[e]!, this.typeOf[u]!],
      [et.p.bases + 1, et.reaches.length, 2, ut.stride, ut.fullHull + 1, T, T],
    );
    const hit = this.protects.get(key);
    if (hit) return hit;
    const plain = this.kernel(e, u, ri, eb, undefined, sh, hull, false)?.expectedHull;
    if (plain === undefined) return undefined;
    let braced = plain;
    if (ut.canBrace) {
      const x = this.kernel(e, u, ri, eb, undefined, sh, hull, true)?.expectedHull;
      if (x === undefined) return undefined;
      braced = x;
    }
    const max = maxShieldsOf(ut.p, hull);
    let after = plain;
    if (sh < max) {
      after = 0;
      for (let k = 0; k < this.rechargePmf.length; k++) {
        const y = this.kernel(e, u, ri, eb, undefined, Math.min(max, sh + k), hull, false)?.expectedHull;
        if (y === undefined) return undefined;
        after += this.rechargePmf[k]! * y;
      }
    }
    const v = Float64Array.of(plain, braced, after);
    this.protects.set(key, v);
    return v;
  }

  /** The best Aim of u at tgt: the weapon whose aimed Fire action adds the most expected hull damage (cached by state). */
  private bestAim(u: number, tgt: number, ri: number): { aim?: number; value: number } | undefined {
    const ut = this.types[this.typeOf[u]!]!;
    const tt = this.types[this.typeOf[tgt]!]!;
    const myBases = basesOf(this.hull[u]!, ut.p.hp);
    const fsh = this.sh[tgt]!;
    const fhull = this.hull[tgt]!;
    const fbr = this.braced[tgt] === 1;
    const T = this.types.length;
    // The two cards last: the sizes before them depend on them (see pack).
    const key = this.pack(
      [myBases, ri, this.units[tgt]!.cover ? 1 : 0, fbr ? 1 : 0, fsh, fhull, this.typeOf[u]!, this.typeOf[tgt]!],
      [ut.p.bases + 1, ut.reaches.length, 2, 2, tt.stride, tt.fullHull + 1, T, T],
    );
    const hit = this.aims.get(key);
    if (hit) return hit;
    const foeBases = basesOf(fhull, tt.p.hp);
    const plain = this.kernel(u, tgt, ri, myBases, undefined, fsh, fhull, fbr)?.expectedHull;
    if (plain === undefined) return undefined;
    let value = -Infinity;
    let aim: number | undefined;
    const ctx = this.plan(u, tgt, ri, myBases, undefined, fbr);
    for (const plan of ctx.plans) {
      if (attacksAgainst(plan, foeBases) === 0) continue;
      const e = this.kernel(u, tgt, ri, myBases, plan.index, fsh, fhull, fbr)?.expectedHull;
      if (e === undefined) return undefined;
      if (e - plain > value) {
        value = e - plain;
        aim = plan.index;
      }
    }
    const r = { aim, value };
    this.aims.set(key, r);
    return r;
  }

  /**
   * The second action of unit u (its own brace cleared) that goes with a Fire action at `tgt` (or
   * no Fire action), given the enemies that can fire at it: Aim is worth the extra expected hull
   * damage it adds; Shields Back Online and Brace the expected hull damage they avert from those
   * enemies' next unaimed Fire actions. The highest wins; ties to Aim, then Shields, then Brace.
   */
  private decideExpected(u: number, tgt: number, ri: number, threats: number[]): Decision | undefined {
    const ut = this.types[this.typeOf[u]!]!;
    let action: SecondAction = 'none';
    let aim: number | undefined;
    let value = -Infinity;
    if (tgt >= 0) {
      const a = this.bestAim(u, tgt, ri);
      if (!a) return undefined;
      if (a.aim !== undefined) {
        value = a.value;
        action = 'aim';
        aim = a.aim;
      }
    }
    let threat = 0;
    let braced = 0;
    let after = 0;
    for (const e of threats) {
      const v = this.protectValues(e, u);
      if (!v) return undefined;
      threat += v[0]!;
      braced += v[1]!;
      after += v[2]!;
    }
    if (this.sh[u]! < maxShieldsOf(ut.p, this.hull[u]!) && threat - after > value) {
      value = threat - after;
      action = 'shields';
      aim = undefined;
    }
    if (ut.canBrace && threat - braced > value) {
      value = threat - braced;
      action = 'brace';
      aim = undefined;
    }
    return { action, aim, value };
  }

  /** The fixed rule of dice mode: Shields if missing; else Aim the in-reach weapon with most attacks x damage; else Brace. */
  private decideRule(u: number, d: number | undefined): Decision {
    const ut = this.types[this.typeOf[u]!]!;
    if (this.sh[u]! < maxShieldsOf(ut.p, this.hull[u]!)) return { action: 'shields', value: 0 };
    let best = -1;
    let bestValue = 0;
    if (d !== undefined)
      ut.p.weapons.forEach((w, i) => {
        if (weaponReach(ut.p, w) >= d && w.attacks * w.damage > bestValue) {
          best = i;
          bestValue = w.attacks * w.damage;
        }
      });
    if (best >= 0) return { action: 'aim', aim: best, value: 0 };
    return ut.canBrace ? { action: 'brace', value: 0 } : { action: 'none', value: 0 };
  }

  /**
   * The second action, cached by the joint state when the only enemy that can fire at u is its
   * target (always so in a duel): then it depends on nothing else.
   */
  decide(u: number, tgt: number, ri: number, threats: number[]): Decision | undefined {
    if (this.mode === 'dice') return this.decideRule(u, tgt >= 0 ? this.dist(u, tgt) : undefined);
    const solo = threats.length === 0 || (threats.length === 1 && threats[0] === tgt);
    if (!solo || tgt < 0) return this.decideExpected(u, tgt, ri, threats);
    const ut = this.types[this.typeOf[u]!]!;
    const tt = this.types[this.typeOf[tgt]!]!;
    const et = this.reachIndex(tt, this.dist(tgt, u));
    // One exact number when it fits (no allocation on the hot path), else a string. The sizes of
    // the digits depend on the two units' cards, so the two units are the lowest digits (with the
    // fixed size n): two pairs of units never share a key (see pack).
    const S1 = ut.stride;
    const H1 = ut.fullHull + 1;
    const S2 = tt.stride;
    const H2 = tt.fullHull + 1;
    const R1 = ut.reaches.length;
    const R2 = tt.reaches.length + 1;
    const space = this.n * this.n * R1 * R2 * 2 * S1 * H1 * S2 * H2 * 2;
    const shU = this.sh[u]!;
    const hullU = this.hull[u]!;
    const shT = this.sh[tgt]!;
    const hullT = this.hull[tgt]!;
    let key: number | string;
    if (space < Number.MAX_SAFE_INTEGER && ri < R1 && shU < S1 && hullU < H1 && shT < S2 && hullT < H2) {
      key =
        ((((((((ri * R2 + et + 1) * 2 + threats.length) * S1 + shU) * H1 + hullU) * S2 + shT) * H2 + hullT) * 2 + this.braced[tgt]!) * this.n + u) * this.n +
        tgt;
    } else key = [u, tgt, ri, et, threats.length, shU, hullU, shT, hullT, this.braced[tgt]].join(',');
    const hit = this.decisions.get(key);
    if (hit) return hit;
    const d = this.decideExpected(u, tgt, ri, threats);
    if (d) this.decisions.set(key, d);
    return d;
  }

  /** P(side 0 activates first) this round: each side rolls the LD of its unit with the most expected successes. */
  initiativeFirst(): number {
    const best = [-1, -1];
    const score = [-1, -1];
    for (let i = 0; i < this.n; i++) {
      // Embarked units do not count for Initiative (section 6).
      if (!this.alive[i] || (this.host[i]! >= 0 && !this.onTable[i])) continue;
      const ld = this.types[this.typeOf[i]!]!.p.ld;
      if (!ld) continue;
      const s = this.side[i]!;
      const e = ld.dice * pSuccess(ld.target);
      const b = best[s]! >= 0 ? this.types[this.typeOf[best[s]!]!]!.p.ld! : undefined;
      if (e > score[s]! || (e === score[s] && b && (ld.target < b.target || (ld.target === b.target && ld.dice > b.dice)))) {
        score[s] = e;
        best[s] = i;
      }
    }
    const slot = (best[0]! + 1) * (this.n + 1) + best[1]! + 1;
    let p = this.initiative[slot]!;
    if (Number.isNaN(p)) {
      const ld = (i: number) => (i >= 0 ? this.types[this.typeOf[i]!]!.p.ld : undefined);
      p = this.initiative[slot] = initiativeOdds(ld(best[0]!), ld(best[1]!));
    }
    return p;
  }

  boardPmf(u: number, e: number): Float64Array {
    const key = this.typeOf[u]! * this.types.length + this.typeOf[e]!;
    let pmf = this.boardPmfs.get(key);
    if (!pmf) this.boardPmfs.set(key, (pmf = boardingPmf(this.units[u]!.profile.cr!, this.units[e]!.profile.cr!)));
    return pmf;
  }

  /** Expected hull points a Board action of u at e removes. */
  boardValue(u: number, e: number): number {
    const pmf = this.boardPmf(u, e);
    const cap = this.hull[e]!;
    let v = 0;
    for (let d = 1; d < pmf.length; d++) v += pmf[d]! * Math.min(d, cap);
    return v;
  }

  canBoard(u: number, e: number): boolean {
    return this.units[u]!.profile.cr !== undefined && this.units[e]!.profile.cr !== undefined && this.sh[e] === 0 && this.dist(u, e) <= BOARD_RANGE;
  }

  canRam(u: number, e: number): boolean {
    return (this.units[u]!.profile.tonnage ?? 0) > 0 && this.dist(u, e) <= RAM_RANGE;
  }

  pointsPerBase(u: number): number {
    return this.units[u]!.points / this.units[u]!.profile.bases;
  }
}

/** The result of sampled trials, before it is turned into the JSON of a battle or a duel. */
export interface BattleOutcome {
  totals: BattleTotals;
  mode: 'kernel' | 'dice';
  /** Whether the work limit stopped the run before all trials ran (its own, or its partner's in a comparison). */
  cutShort: boolean;
  /** What a comparison's pairing changed (`BattleRun.restart`): dice mode, and fewer trials, to match the run beside it. */
  matched: { dice: boolean; trials: boolean };
  /** Trials asked for. */
  requested: number;
  ops: number;
}

/** What one chunk of trials gave (`BattleRun.runChunk`). */
export interface ChunkOutcome {
  totals: BattleTotals;
  /** Sampling work done. */
  ops: number;
  /** Stopped by the work limit (the trial that went past it is not counted). */
  cut: boolean;
  /** The exact kernels ran out of work: the whole run must be played in dice mode. */
  fallback: boolean;
  mode: 'kernel' | 'dice';
  /** The exact kernels the chunk used, each once: [id, work to compute it] (see `Engine.newChunk`). */
  used: [string, number][];
}

/**
 * One trial's end as a small number: bit 0 side 0 annihilated side 1, bit 1 side 1 annihilated
 * side 0, bits 2-3 the points victory (0 or 1 the winner, 2 a draw). Read with `trialEnd`.
 */
export function trialCode(annihilated0: boolean, annihilated1: boolean, winner: 0 | 1 | undefined): number {
  return (annihilated0 ? 1 : 0) | (annihilated1 ? 2 : 0) | ((winner ?? 2) << 2);
}

/** A trial code read back (see `trialCode`). */
export function trialEnd(code: number): { annihilated: [boolean, boolean]; winner: 0 | 1 | undefined } {
  const w = (code >> 2) & 3;
  return { annihilated: [(code & 1) !== 0, (code & 2) !== 0], winner: w === 2 ? undefined : (w as 0 | 1) };
}

export function emptyTotals(n: number, rounds: number): BattleTotals {
  const z = () => new Float64Array(n);
  return {
    trials: 0,
    annihilation: [0, 0],
    pointsVictory: [0, 0],
    draws: 0,
    pointsDestroyed: [[], []],
    outcomes: [],
    roundsSum: 0,
    ended: new Float64Array(rounds),
    alive: Array.from({ length: n }, () => new Float64Array(rounds)),
    tally: { fired: z(), boarded: z(), rammed: z(), aim: z(), shields: z(), brace: z() },
    routed: z(),
    routedBy: Array.from({ length: n }, () => new Float64Array(rounds)),
    bothDestroyed: 0,
    variantVictory: [0, 0],
    withdrew: [0, 0],
  };
}

/**
 * A battle run that can be driven a slice at a time: `step(ops)` runs whole trials until about
 * `ops` units of work are done (or the run ends) and returns whether it has ended; `outcome()`
 * summarises the trials run so far. The same fleets, setup and seed always give the same numbers,
 * however the work is sliced.
 */
export class BattleRun {
  private readonly e: Engine;
  private readonly source: RandomGenerator;
  private dice: Dice;
  /** The next trial's stream (see `lanes`), or undefined for a generator that cannot jump. */
  private lane: (() => RandomGenerator) | undefined;
  private totals: BattleTotals;
  private readonly workLimit: number;
  /** Trials to run: the setup's, or fewer after `restart` (a paired comparison's runs match in count). */
  private trialLimit: number;
  private readonly matched = { dice: false, trials: false };
  private stopped = false;
  private cut = false;

  constructor(
    fleets: [Fleet, Fleet],
    readonly setup: BattleSetup,
    rng: RandomGenerator,
    readonly hooks: BattleHooks = {},
  ) {
    this.e = new Engine(fleets, setup, hooks);
    this.source = rng;
    this.dice = new Dice(rng.clone());
    this.lane = lanes(rng);
    this.totals = emptyTotals(this.e.n, setup.rounds);
    this.e.tally = this.totals.tally;
    this.workLimit = setup.workLimit ?? SAMPLING_WORK_LIMIT;
    this.trialLimit = setup.trials;
  }

  /** How Fire actions are resolved: exact kernels, or dice after the kernels ran out of work. */
  get mode(): 'kernel' | 'dice' {
    return this.e.mode;
  }

  /**
   * Starts the run again from its seed, in dice mode (`dice`) and/or for at most `trials` trials:
   * what a comparison does so that its two runs play the same trials in the same mode (see
   * `pairRuns`). The caches stay (in kernel mode the trials it plays again need nothing new), and
   * so does the work done so far, except that the trials played again are not counted twice: the
   * run may use its work limit afresh.
   */
  restart(o: { dice?: boolean; trials?: number }): void {
    const e = this.e;
    if (o.dice && e.mode !== 'dice') {
      e.mode = 'dice';
      this.matched.dice = true;
    }
    if (o.trials !== undefined && o.trials < this.trialLimit) {
      this.trialLimit = Math.max(0, o.trials);
      this.matched.trials = true;
    }
    this.totals = emptyTotals(e.n, this.setup.rounds);
    e.tally = this.totals.tally;
    e.ops = 0;
    this.dice = new Dice(this.source.clone());
    this.lane = lanes(this.source);
    this.stopped = false;
    this.cut = false;
  }

  get done(): boolean {
    return this.stopped;
  }

  /** This run (what a comparison pairs up, see variants/compare.ts `SteppedRun`). */
  get battle(): BattleRun {
    return this;
  }

  /** Numbers drawn from the generator since the run (re)started (what the benchmark's floor draws). */
  get diceDrawn(): number {
    return this.dice.draws;
  }

  /** Trials finished so far. */
  get trials(): number {
    return this.totals.trials;
  }

  /** Runs about `slice` units of work (whole trials); returns true when the run has ended. */
  step(slice = Infinity): boolean {
    const e = this.e;
    const until = e.ops + slice;
    while (!this.stopped && e.ops < until) {
      if (this.totals.trials >= this.trialLimit) {
        this.stopped = true;
        break;
      }
      if (e.ops >= this.workLimit) {
        this.stopped = true;
        this.cut = true;
        break;
      }
      if (this.lane) this.dice.rng = this.lane();
      e.stopAt = this.workLimit;
      const ok = playTrial(e, this.totals, this.setup.rounds, this.dice);
      if (!ok && e.overBudget) {
        // Past the work limit inside a trial: that trial is not counted.
        this.stopped = true;
        this.cut = true;
        break;
      }
      if (!ok) {
        // The exact kernels ran out of work: start again, rolling every Fire action.
        e.mode = 'dice';
        this.totals = emptyTotals(e.n, this.setup.rounds);
        e.tally = this.totals.tally;
        this.dice = new Dice(this.source.clone());
        this.lane = lanes(this.source);
      }
    }
    return this.stopped;
  }

  /**
   * Plays one chunk of trials apart from this run's own totals (sim/chunked.ts spreads chunks over
   * threads): `count` trials, trial i rolling from \`start\` jumped i times (as trial c + i of the
   * whole run does when \`start\` is the seed's generator jumped c times), in dice mode with \`dice\`,
   * its work counted from 0 and stopped at \`workLimit\` as \`step\` stops. The engine's kernels
   * stay between chunks. Played again exactly (\`prepaid\`, on a fresh run), the kernels named
   * there are not charged and the kernel budget starts at \`kernelWork\`, so that the chunk stops
   * where one run would.
   */
  runChunk(
    start: RandomGenerator,
    count: number,
    o: { dice?: boolean; workLimit?: number; prepaid?: readonly string[]; kernelWork?: number } = {},
  ): ChunkOutcome {
    const e = this.e;
    if (o.dice) e.mode = 'dice';
    const mode = e.mode;
    e.newChunk();
    if (o.prepaid) {
      e.prepaid = new Set(o.prepaid);
      e.budget.ops = o.kernelWork ?? 0;
    }
    e.ops = 0;
    const totals = emptyTotals(e.n, this.setup.rounds);
    const lane = lanes(start);
    const dice = new Dice(start.clone());
    const limit = o.workLimit ?? this.workLimit;
    let cut = false;
    let fallback = false;
    for (let i = 0; i < count; i++) {
      if (e.ops >= limit) {
        cut = true;
        break;
      }
      if (lane) dice.rng = lane();
      e.stopAt = limit;
      if (!playTrial(e, totals, this.setup.rounds, dice)) {
        if (e.overBudget) cut = true;
        else fallback = true;
        break;
      }
    }
    e.tally = this.totals.tally;
    e.prepaid = undefined;
    return { totals, ops: e.ops, cut, fallback, mode, used: e.used };
  }

  outcome(): BattleOutcome {
    // Fewer trials after a restart for a comparison: cut short too (its partner was).
    const cutShort = this.cut || (this.stopped && this.totals.trials < this.setup.trials);
    return { totals: this.totals, mode: this.e.mode, cutShort, matched: { ...this.matched }, requested: this.setup.trials, ops: this.e.ops };
  }

  /** The engine, for the duel's exact chain (decisions and kernels shared with the sampled run). */
  get engine(): DuelAccess {
    const e = this.e;
    return {
      mode: () => e.mode,
      budget: e.budget,
      rechargePmf: e.rechargePmf,
      decide: (f, me, foe) => {
        const u = f === 0 ? 0 : 1;
        const t = 1 - u;
        const ut = e.types[e.typeOf[u]!]!;
        e.sh[u] = me.sh;
        e.hull[u] = me.hull;
        e.braced[u] = 0;
        e.sh[t] = foe.sh;
        e.hull[t] = foe.hull;
        e.braced[t] = foe.braced ? 1 : 0;
        const ri = e.hull[u]! > 0 ? reachOf(ut, e.range) : -1;
        const tt = e.types[e.typeOf[t]!]!;
        const threats = reachOf(tt, e.range) >= 0 ? [t] : [];
        const d = e.decide(u, ri >= 0 ? t : -1, ri, threats);
        if (!d) return undefined;
        const kern = ri >= 0 ? e.kernel(u, t, ri, basesOf(me.hull, ut.p.hp), d.aim, foe.sh, foe.hull, foe.braced) : IDENTITY;
        if (!kern) return undefined;
        return { action: d.action, kernel: kern === IDENTITY ? identityKernel(foe.hull, foe.sh, tt.stride) : kern };
      },
      stride: (f) => e.types[e.typeOf[f]!]!.stride,
    };
  }
}

function reachOf(t: UnitType, d: number): number {
  for (let i = 0; i < t.reaches.length; i++) if (t.reaches[i]! >= d) return i;
  return -1;
}

const IDENTITY = {} as DuelKernel;
function identityKernel(hull: number, sh: number, stride: number): DuelKernel {
  return {
    keys: Float64Array.of(hull * stride + sh),
    probs: Float64Array.of(1),
    cdf: Float64Array.of(1),
    expectedHull: 0,
    expectedBasesLost: 0,
  };
}

/** What the duel's exact chain needs of the engine. */
export interface DuelAccess {
  mode(): 'kernel' | 'dice';
  budget: Budget;
  rechargePmf: Float64Array;
  decide(
    f: 0 | 1,
    me: { sh: number; hull: number },
    foe: { sh: number; hull: number; braced: boolean },
  ): { action: SecondAction; kernel: DuelKernel } | undefined;
  stride(f: 0 | 1): number;
}

/** Draws the defender's next state from a kernel. */
function drawKernel(e: Engine, k: DuelKernel, tgt: number, dice: Dice): void {
  const u = dice.uniform();
  let lo = 0;
  let hi = k.cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (k.cdf[mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  const key = k.keys[lo]!;
  const stride = e.types[e.typeOf[tgt]!]!.stride;
  const h = Math.floor(key / stride);
  e.hull[tgt] = h;
  e.sh[tgt] = key - h * stride;
  // Whole numbers only, so that work adds up the same whichever way the trials are grouped.
  e.ops += 4 + (31 - Math.clz32(k.cdf.length + 1));
}

/**
 * Points destroyed: each base lost is worth the card's points divided by its bases (a destroyed
 * unit is worth its whole card). `credit[u]` is what unit u has already given its enemies.
 */
function credit(e: Engine, u: number, pts: [number, number]): void {
  const p = e.units[u]!.profile;
  const start = basesOf(e.startHull[u]!, p.hp);
  const now = e.alive[u] ? basesOf(e.hull[u]!, p.hp) : 0;
  const c = Math.max(0, start - now) * e.pointsPerBase(u);
  pts[1 - e.side[u]!]! += c - e.credit[u]!;
  e.credit[u] = c;
}

/** Marks unit u destroyed (with whatever it still carries, section 6). */
function destroy(e: Engine, u: number, lost: [number, number], pts: [number, number]): void {
  e.alive[u] = 0;
  e.hull[u] = 0;
  lost[e.side[u]!]!++;
  credit(e, u, pts);
  for (let i = 0; i < e.n; i++)
    if (e.host[i] === u && e.alive[i] && !e.onTable[i]) {
      e.alive[i] = 0;
      lost[e.side[i]!]!++;
      credit(e, i, pts);
    }
}

/** After damage to unit u: destruction or lost bases are recorded; the Combined Shields pool shrinks with its bases. */
function afterDamage(e: Engine, u: number, lost: [number, number], pts: [number, number]): void {
  if (e.hull[u]! <= 0) {
    destroy(e, u, lost, pts);
    return;
  }
  credit(e, u, pts);
  const max = maxShieldsOf(e.units[u]!.profile, e.hull[u]!);
  if (e.sh[u]! > max) e.sh[u] = max;
}

/** Whether any enemy of u is on the table and alive. */
function enemiesOf(e: Engine, u: number, out: number[]): number[] {
  out.length = 0;
  const s = e.side[u]!;
  const lo = s === 0 ? e.offset : 0;
  const hi = s === 0 ? e.n : e.offset;
  for (let i = lo; i < hi; i++) if (e.alive[i] && e.onTable[i]) out.push(i);
  return out;
}

const scratchEnemies: number[] = [];
const scratchThreats: number[] = [];

/**
 * How far unit u would like to stand from enemy t: its longest weapon's reach; without weapons,
 * the boarding range when it could board t, else base contact when it has Tonnage.
 */
function wantedDistance(e: Engine, u: number, t: number | undefined): number {
  const ut = e.types[e.typeOf[u]!]!;
  if (ut.maxReach >= 0) return ut.maxReach;
  const me = e.units[u]!.profile;
  if (me.cr && t !== undefined && e.units[t]!.profile.cr && e.sh[t] === 0) return BOARDING.range;
  if (me.tonnage) return RAMMING.range;
  if (me.cr) return BOARDING.range;
  return 0;
}

/** Moves u toward the nearest enemy by at most `stick` inches, stopping at its wanted distance. Returns whether it moved. */
function moveToward(e: Engine, u: number, stick: number): void {
  const s = e.side[u]!;
  const lo = s === 0 ? e.offset : 0;
  const hi = s === 0 ? e.n : e.offset;
  let nearest = -1;
  let best = Infinity;
  for (let i = lo; i < hi; i++) {
    if (!e.alive[i] || !e.onTable[i]) continue;
    const d = e.dist(u, i);
    if (d < best) {
      best = d;
      nearest = i;
    }
  }
  // No enemy on the table yet: head for their edge.
  if (nearest < 0) best = Math.max(0, e.depth - e.pos[u]!);
  const step = Math.min(stick, Math.max(0, best - wantedDistance(e, u, nearest >= 0 ? nearest : undefined)));
  e.pos[u]! += step;
  e.moved[u]! += step;
}

/** Whether u can do anything that deals damage from where it stands: Fire, Board or Ram. */
function canAct(e: Engine, u: number, enemies: number[]): boolean {
  const ut = e.types[e.typeOf[u]!]!;
  for (const t of enemies) {
    const d = e.dist(u, t);
    if (d <= ut.maxReach || e.canBoard(u, t) || e.canRam(u, t)) return true;
  }
  return false;
}

/**
 * One activation of unit u (2 AP, section 9). Returns false when the exact kernels ran out of work.
 */
function activate(e: Engine, u: number, dice: Dice, lost: [number, number], pts: [number, number]): boolean {
  e.braced[u] = 0;
  e.activated[u] = 1;
  const ut = e.types[e.typeOf[u]!]!;
  const me = e.units[u]!;
  let ap = ACTION_POINTS_PER_ACTIVATION;
  let moves = 0;
  // The scans over the units below cost about one op per unit.
  e.ops += 6 + e.n;
  // Enter or launch: the entry is the unit's Move action (sections 6, 18).
  if (!e.onTable[u]) {
    e.onTable[u] = 1;
    const h = e.host[u]!;
    e.pos[u] = h >= 0 ? e.pos[h]! : 0;
    if (!e.fixed) moveToward(e, u, me.profile.move?.[0] ?? 0);
    ap--;
    moves++;
  }
  const enemies = enemiesOf(e, u, scratchEnemies);
  // Out of reach of everything: move toward the nearest enemy (a second move with the B stick).
  if (!e.fixed)
    while (ap > 0 && moves < (me.profile.move?.length ?? 0) && !canAct(e, u, enemies)) {
      moveToward(e, u, me.profile.move![moves]!);
      ap--;
      moves++;
    }
  if (ap === 0 || enemies.length === 0) return true;
  // A unit with CR closes on the nearest enemy with CR to Board it (giving up its second action).
  if (!e.fixed && ap === 2 && moves < (me.profile.move?.length ?? 0) && me.profile.cr) {
    let nearest = Infinity;
    let nearestCr = Infinity;
    for (const t of enemies) {
      const d = e.dist(u, t);
      nearest = Math.min(nearest, d);
      if (e.units[t]!.profile.cr) nearestCr = Math.min(nearestCr, d);
    }
    if (nearestCr < Infinity && nearestCr > BOARD_RANGE) {
      const step = Math.min(me.profile.move![moves]!, nearestCr - BOARD_RANGE, nearest);
      e.pos[u]! += step;
      e.moved[u]! += step;
      ap--;
      moves++;
    }
  }
  // Target: the enemy in reach whose expected points removed by this Fire action is highest.
  let tgt = -1;
  let tgtRi = -1;
  let tgtValue = -Infinity;
  const myBases = basesOf(e.hull[u]!, ut.p.hp);
  for (const t of enemies) {
    const d = e.dist(u, t);
    let ri = -1;
    for (let i = 0; i < ut.reaches.length; i++)
      if (ut.reaches[i]! >= d) {
        ri = i;
        break;
      }
    if (ri < 0) continue;
    let value: number;
    if (enemies.length === 1) value = 0;
    else if (e.mode === 'kernel') {
      const k = e.kernel(u, t, ri, myBases, undefined, e.sh[t]!, e.hull[t]!, e.braced[t] === 1);
      if (!k) return false;
      value = k.expectedBasesLost * e.pointsPerBase(t);
      e.ops += 2;
    } else value = 0;
    if (tgt < 0 || value > tgtValue || (value === tgtValue && (d < e.dist(u, tgt) || (d === e.dist(u, tgt) && e.hull[t]! < e.hull[tgt]!)))) {
      tgt = t;
      tgtRi = ri;
      tgtValue = value;
    }
  }
  // The enemies that can fire at u: what Shields Back Online and Brace protect against.
  const threats = scratchThreats;
  threats.length = 0;
  for (const t of enemies) if (e.dist(t, u) <= e.types[e.typeOf[t]!]!.maxReach) threats.push(t);
  const board = me.profile.cr !== undefined && enemies.some((t) => e.units[t]!.profile.cr !== undefined && e.dist(u, t) <= BOARD_RANGE);

  if (tgt >= 0) {
    let second: Decision = NO_DECISION;
    if (ap >= 2) {
      const d = e.decide(u, tgt, tgtRi, threats);
      if (!d) return false;
      second = d;
    }
    // Board replaces the second action whichever it is, Aim too, when it is worth more. Aim must
    // come before the Fire action, so it is weighed against boarding as things stand now; without
    // Aim the unit fires unaimed and then weighs Board against Shields Back Online or Brace.
    if (board && second.action === 'aim') {
      const b = bestBoard(e, u, enemies);
      if (b >= 0 && e.boardValue(u, b) > second.value) {
        const d = e.decide(u, -1, -1, threats);
        if (!d) return false;
        second = d;
      }
    }
    const aim = second.action === 'aim' ? second.aim : undefined;
    // Without boarding in reach the second action comes first, as in the duel (Aim must precede Fire).
    if (!board && second.action !== 'aim' && second !== NO_DECISION) protect(e, u, second.action, dice);
    if (second.action === 'aim') e.tally.aim[u]!++;
    if (!fire(e, u, tgt, tgtRi, myBases, aim, dice, lost, pts)) return false;
    if (board && second !== NO_DECISION && second.action !== 'aim') {
      // After the Fire action: Board if a target's shields are down and that is worth more.
      const b = bestBoard(e, u, enemies);
      if (b >= 0 && e.boardValue(u, b) > second.value) boardAction(e, u, b, dice, lost, pts);
      else protect(e, u, second.action, dice);
    }
    return true;
  }
  // Nothing to fire at: Board, else Ram as a last resort, then protect with what is left.
  const b = bestBoard(e, u, enemies);
  if (b >= 0) {
    boardAction(e, u, b, dice, lost, pts);
    ap--;
  } else {
    let r = -1;
    for (const t of enemies) if (e.canRam(u, t) && (r < 0 || e.hull[t]! < e.hull[r]!)) r = t;
    if (r >= 0) {
      ramAction(e, u, r, dice, lost, pts);
      ap--;
    }
  }
  if (ap > 0 && e.alive[u]) {
    const d = e.decide(u, -1, -1, threats);
    if (!d) return false;
    protect(e, u, d.action, dice);
  }
  return true;
}

/**
 * The enemy u boards: among those it can board and would damage, the one whose expected hull points
 * removed are worth the most points (then the most hull points; the duel's units carry no points).
 */
function bestBoard(e: Engine, u: number, enemies: number[]): number {
  let best = -1;
  let value = 0;
  let hull = 0;
  for (const t of enemies) {
    if (!e.alive[t] || !e.canBoard(u, t)) continue;
    const h = e.boardValue(u, t);
    if (!(h > 0)) continue;
    const v = h * (e.pointsPerBase(t) / e.units[t]!.profile.hp);
    if (best < 0 || v > value || (v === value && h > hull)) {
      value = v;
      hull = h;
      best = t;
    }
  }
  return best;
}

/** Shields Back Online or Brace. */
function protect(e: Engine, u: number, action: SecondAction, dice: Dice): void {
  if (action === 'shields') {
    let restored = 0;
    for (let i = 0; i < RECHARGE_DICE; i++) if (succeeds(dice.d10(), RECHARGE_TARGET)) restored++;
    e.sh[u] = Math.min(maxShieldsOf(e.units[u]!.profile, e.hull[u]!), e.sh[u]! + restored);
    e.tally.shields[u]!++;
    e.ops += RECHARGE_DICE;
  } else if (action === 'brace') {
    e.braced[u] = 1;
    e.tally.brace[u]!++;
  }
}

function fire(
  e: Engine,
  u: number,
  tgt: number,
  ri: number,
  myBases: number,
  aim: number | undefined,
  dice: Dice,
  lost: [number, number],
  pts: [number, number],
): boolean {
  const hullBefore = e.hull[tgt]!;
  const braced = e.braced[tgt] === 1;
  e.tally.fired[u]!++;
  if (e.mode === 'kernel') {
    const k = e.kernel(u, tgt, ri, myBases, aim, e.sh[tgt]!, hullBefore, braced);
    if (!k) return false;
    drawKernel(e, k, tgt, dice);
  } else {
    const ctx = e.plan(u, tgt, ri, myBases, aim, braced);
    const s = { sh: e.sh[tgt]!, hull: hullBefore };
    volleyBySampling(ctx, s, dice);
    e.ops += DICE_FIRE_WEIGHT * sampleCost(ctx, basesOf(hullBefore, ctx.hp));
    e.sh[tgt] = s.sh;
    e.hull[tgt] = s.hull;
  }
  if (e.hull[tgt]! !== hullBefore) afterDamage(e, tgt, lost, pts);
  return true;
}

/** Board (section 13): both roll CR; the attacker's successes above the defender's are HP damage, 1 HP at a time. */
function boardAction(e: Engine, u: number, t: number, dice: Dice, lost: [number, number], pts: [number, number]): void {
  const a = e.units[u]!.profile.cr!;
  const d = e.units[t]!.profile.cr!;
  let x = 0;
  let y = 0;
  for (let i = 0; i < a.dice; i++) if (succeeds(dice.d10(), a.target)) x++;
  for (let i = 0; i < d.dice; i++) if (succeeds(dice.d10(), d.target)) y++;
  e.ops += a.dice + d.dice;
  e.tally.boarded[u]!++;
  if (x <= y) return;
  const before = e.hull[t]!;
  e.hull[t] = e.allocate(before, x - y, 1, e.units[t]!.profile.hp);
  if (e.hull[t] !== before) afterDamage(e, t, lost, pts);
}

/**
 * Ram (section 13): Tonnage dice, each 5+ a hit (4+ if the target moved 3" or more this round);
 * the target dodges each hit if it has D, except a natural 10 (a Critical Hit, section 2); each
 * hit left deals 1 HP to both units, ignoring shields, each unit saving with its own armour (no
 * Piercing).
 */
function ramAction(e: Engine, u: number, t: number, dice: Dice, lost: [number, number], pts: [number, number]): void {
  const tons = e.units[u]!.profile.tonnage!;
  const need = e.moved[t]! >= RAMMING.movedAtLeast ? RAMMING.hitTargetMoved : RAMMING.hitTarget;
  let hits = 0;
  let crits = 0;
  for (let i = 0; i < tons; i++) {
    const roll = dice.d10();
    if (roll >= NATURAL_CRITICAL) crits++;
    else if (succeeds(roll, need)) hits++;
  }
  const tp = e.units[t]!.profile;
  // A natural 10 is a Critical Hit: it cannot be Dodged (section 2); the other hits can.
  if (tp.dodge !== undefined) {
    let left = 0;
    for (let i = 0; i < hits; i++) if (!succeeds(dice.d10(), tp.dodge)) left++;
    hits = left;
  }
  hits += crits;
  e.ops += tons + 2 * hits;
  e.tally.rammed[u]!++;
  const unsaved = (p: UnitProfile, braced: boolean) => {
    if (p.armour === undefined) return hits;
    let n = 0;
    for (let i = 0; i < hits; i++) if (!succeeds(dice.d10(), p.armour - (braced ? 1 : 0))) n++;
    return n;
  };
  const toTarget = unsaved(tp, e.braced[t] === 1);
  const toRammer = unsaved(e.units[u]!.profile, e.braced[u] === 1);
  for (const [x, n] of [
    [t, toTarget],
    [u, toRammer],
  ] as const) {
    if (n === 0 || !e.alive[x]) continue;
    const before = e.hull[x]!;
    e.hull[x] = e.allocate(before, n, RAMMING.damage, e.units[x]!.profile.hp);
    if (e.hull[x] !== before) afterDamage(e, x, lost, pts);
  }
}

function sideAlive(e: Engine, s: number): boolean {
  const lo = s === 0 ? 0 : e.offset;
  const hi = s === 0 ? e.offset : e.n;
  for (let i = lo; i < hi; i++) if (e.alive[i]) return true;
  return false;
}

function sideRouted(e: Engine, s: number): boolean {
  const lo = s === 0 ? 0 : e.offset;
  const hi = s === 0 ? e.offset : e.n;
  for (let i = lo; i < hi; i++) if (e.routed[i]) return true;
  return false;
}

/** Units of side s that may still activate this round. */
function waiting(e: Engine, s: number): number {
  let n = 0;
  for (const i of e.order[s]!) if (e.alive[i] && !e.activated[i] && (e.host[i]! < 0 || e.onTable[i] || e.onTable[e.host[i]!])) n++;
  return n;
}

function nextUnit(e: Engine, s: number): number {
  for (const i of e.order[s]!) if (e.alive[i] && !e.activated[i] && (e.host[i]! < 0 || e.onTable[i] || e.onTable[e.host[i]!])) return i;
  return -1;
}

/** The per-unit action counts a trial adds to, which an over-budget trial puts back. */
const TALLY_ARRAYS = ['fired', 'boarded', 'rammed', 'aim', 'shields', 'brace'] as const;

/**
 * One trial within the work budget: false when the exact kernels ran out of work, or when the trial
 * went past `e.stopAt` (then `e.overBudget` is set and the totals are as they were before it).
 */
function playTrial(e: Engine, totals: BattleTotals, rounds: number, dice: Dice): boolean {
  e.overBudget = false;
  const t = totals.tally;
  const snap = e.snapshot;
  for (const k of TALLY_ARRAYS) snap[k].set(t[k]);
  for (let i = 0; i < e.n; i++) {
    snap.alive.set(totals.alive[i]!, i * rounds);
    snap.routedBy.set(totals.routedBy[i]!, i * rounds);
  }
  const w0 = totals.withdrew[0];
  const w1 = totals.withdrew[1];
  e.tally = t;
  if (runTrial(e, totals, rounds, dice)) return true;
  if (e.overBudget) {
    for (const k of TALLY_ARRAYS) t[k].set(snap[k]);
    for (let i = 0; i < e.n; i++) {
      totals.alive[i]!.set(snap.alive.subarray(i * rounds, (i + 1) * rounds));
      totals.routedBy[i]!.set(snap.routedBy.subarray(i * rounds, (i + 1) * rounds));
    }
    totals.withdrew[0] = w0;
    totals.withdrew[1] = w1;
  }
  return false;
}

/** One trial; false when the exact kernels ran out of work (or it went past its work budget). */
function runTrial(e: Engine, totals: BattleTotals, rounds: number, dice: Dice): boolean {
  for (let i = 0; i < e.n; i++) {
    const u = e.units[i]!;
    const full = u.profile.bases * u.profile.hp;
    e.hull[i] = u.start?.hull ?? full;
    e.startHull[i] = e.hull[i]!;
    e.credit[i] = 0;
    e.sh[i] = u.start?.sh ?? maxShieldsOf(u.profile, e.hull[i]!);
    e.braced[i] = 0;
    e.alive[i] = 1;
    e.routed[i] = 0;
    e.pos[i] = 0;
    // With a fixed range every unit stands on the table; embarked units still launch first.
    e.onTable[i] = e.fixed && e.host[i]! < 0 ? 1 : 0;
  }
  const lost: [number, number] = [0, 0];
  const pts: [number, number] = [0, 0];
  let played = 0;
  let over = false;
  const h = e.hooks;
  const act = h.startOfRound || h.endOfRound || h.endOfBattle ? actions(e, dice, lost, pts, totals, () => (over = true)) : undefined;
  for (let r = 0; r < rounds && !over; r++) {
    played = r + 1;
    e.moved.fill(0);
    e.activated.fill(0);
    h.startOfRound?.(view(e, r + 1, pts), act!);
    // Action Tokens (section 15): the side that has lost more units gains the difference.
    const tokens = [Math.max(0, lost[0] - lost[1]), Math.max(0, lost[1] - lost[0])];
    const first: 0 | 1 = dice.uniform() < e.initiativeFirst() ? 0 : 1;
    e.ops += 2;
    let turn: number = first;
    for (;;) {
      const w0 = waiting(e, turn);
      const w1 = waiting(e, 1 - turn);
      if (w0 + w1 === 0) break;
      if (w0 === 0) {
        turn = 1 - turn;
        continue;
      }
      if (tokens[turn]! > 0 && w1 > w0) {
        tokens[turn]!--;
        e.hooks.onToken?.(turn as 0 | 1, view(e, r + 1, pts));
        turn = 1 - turn;
        continue;
      }
      const u = nextUnit(e, turn);
      if (!activate(e, u, dice, lost, pts)) return false;
      // The work budget holds inside a trial too (see Engine.stopAt).
      if (e.ops > e.stopAt) {
        e.overBudget = true;
        return false;
      }
      e.hooks.onActivation?.(u, view(e, r + 1, pts));
      if (!sideAlive(e, 0) || !sideAlive(e, 1)) {
        over = true;
        break;
      }
      turn = 1 - turn;
    }
    if (!over && h.endOfRound?.(view(e, r + 1, pts), act!)) over = true;
    // A side whose last units fled at the end of this round: the battle lasted this round.
    if (!over && (!sideAlive(e, 0) || !sideAlive(e, 1))) over = true;
    if ((over || r === rounds - 1) && h.endOfBattle) h.endOfBattle(view(e, r + 1, pts), act!);
    for (let i = 0; i < e.n; i++) {
      if (e.alive[i]) totals.alive[i]![r]!++;
      if (e.routed[i]) totals.routedBy[i]![r]!++;
    }
  }
  // Alive (and routed) after rounds that were never played: as at the end.
  for (let r = played; r < rounds; r++)
    for (let i = 0; i < e.n; i++) {
      if (e.alive[i]) totals.alive[i]![r]!++;
      if (e.routed[i]) totals.routedBy[i]![r]!++;
    }
  const a0 = sideAlive(e, 0);
  const a1 = sideAlive(e, 1);
  // Annihilation is destroying the whole other fleet: a fleet driven off (a unit routed) was not.
  const gone0 = !a0 && !sideRouted(e, 0);
  const gone1 = !a1 && !sideRouted(e, 1);
  if (a0 && gone1) totals.annihilation[0]++;
  if (a1 && gone0) totals.annihilation[1]++;
  // Both fleets destroyed at once (a Ram that kills the last rammer and its target): nobody's win.
  if (gone0 && gone1) totals.bothDestroyed++;
  if (h.variantVictory) {
    const w = h.variantVictory(view(e, played, pts));
    if (w === 0 || w === 1) totals.variantVictory[w]++;
  }
  // Ended before the round limit: a side gone, or a hook ended it (a retreat, a rout of the last unit).
  if (!a0 || !a1 || played < rounds) totals.ended[played - 1]!++;
  const winner = e.hooks.victory ? e.hooks.victory(view(e, played, pts)) : pts[0] > pts[1] + 1e-9 ? 0 : pts[1] > pts[0] + 1e-9 ? 1 : undefined;
  if (winner === undefined) totals.draws++;
  else totals.pointsVictory[winner]++;
  totals.pointsDestroyed[0].push(pts[0]);
  totals.pointsDestroyed[1].push(pts[1]);
  totals.outcomes.push(trialCode(a0 && gone1, a1 && gone0, winner));
  totals.roundsSum += played;
  for (let i = 0; i < e.n; i++) if (e.routed[i]) totals.routed[i]!++;
  totals.trials++;
  return true;
}

/** What hooks may do in one trial (BattleActions). */
function actions(e: Engine, dice: Dice, lost: [number, number], pts: [number, number], totals: BattleTotals, end: () => void): BattleActions {
  const rout = (u: number) => {
    if (!e.alive[u]) return;
    e.alive[u] = 0;
    e.routed[u] = 1;
    lost[e.side[u]!]!++;
    // Its whole card counts as lost (BATTLE.md: routed, not destroyed, its points count as lost).
    pts[1 - e.side[u]!]! += e.units[u]!.points - e.credit[u]!;
    e.credit[u] = e.units[u]!.points;
  };
  return {
    roll: () => {
      e.ops += 1;
      return dice.d10();
    },
    rout: (u) => {
      if (!Number.isInteger(u) || u < 0 || u >= e.n || !e.alive[u]) return;
      rout(u);
      for (let i = 0; i < e.n; i++) if (e.host[i] === u && !e.onTable[i]) rout(i);
    },
    withdraw: (side) => {
      totals.withdrew[side]++;
      end();
    },
  };
}

function view(e: Engine, round: number, pts: [number, number]): BattleView {
  return {
    round,
    side: e.side,
    alive: e.alive,
    hull: e.hull,
    sh: e.sh,
    pos: e.pos,
    onTable: e.onTable,
    units: e.units,
    pointsDestroyed: pts,
    routed: e.routed,
    host: e.host,
  };
}
