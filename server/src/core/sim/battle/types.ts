/**
 * The battle's shapes (BATTLE.md): its fleets and setup, what rule variants' hooks see and may do,
 * the totals a run adds up and the outcome it gives. Types only: every other module of the battle
 * (and the variants) imports them from here, and this imports nothing of the battle.
 */
import type { UnitProfile } from '../types';
import type { Budget } from '../volley-exact';

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
  /**
   * Sampling work limit of one trial (default TRIAL_WORK_LIMIT): a trial that reaches it ends
   * there and counts as it stands (`BattleTotals.cutTrials`); the run goes on.
   */
  workLimit?: number;
  /**
   * A limit on the whole run's sampling work instead (the duel's, SAMPLING_WORK_LIMIT): the trial
   * that would pass it is not counted and the run stops there, with fewer trials.
   */
  runWorkLimit?: number;
  /**
   * Stop once the 95% half-width of every headline figure is at most this (run.ts `sureTo`),
   * checked where a chunk of trials would end (every CHUNK_TRIALS trials, and the last), from
   * PRECISION_MIN_TRIALS on: the trials `sim/chunked.ts` stops at for the same seed.
   */
  precision?: number;
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

/**
 * An exact Fire-action outcome distribution from one defender state, as the duel's exact chain
 * reads it: the defender's next states (hull x stride + SH) and their chances. The battle itself
 * reads its kernels from the engine's store (engine.ts `KernelStore`).
 */
export interface DuelKernel {
  keys: Float64Array;
  probs: Float64Array;
}

/** A card as the engine sees it (units of the same card share one). */
export interface UnitType {
  p: UnitProfile;
  /**
   * The card's numbers the battle reads at every activation, copied out of its profile: profiles of
   * different cards differ in which optional fields they carry (a different hidden class each), so
   * reading them where every card passes makes the property loads polymorphic.
   */
  hp: number;
  bases: number;
  stride: number;
  fullHull: number;
  /** Distinct weapon reaches (weapons with attacks), ascending. */
  reaches: number[];
  maxReach: number;
  canBrace: boolean;
  /** Expected LD successes (what Initiative picks a side's roller by); 0 without LD. */
  ldExpected: number;
}

/** Per-activation counters, per unit. */
export interface Tally {
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
   * How each trial ended, one code per trial in trial order (run.ts `trialCode`): what a comparison
   * on the same dice pairs trial by trial for its paired standard errors (sim/compare.ts).
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
  /** Trials that reached the work limit of one trial and were ended there, scored as they stood. */
  cutTrials: number;
}

export interface Decision {
  action: SecondAction;
  aim?: number;
  /** Expected hull points the second action is worth (for comparing with Board). */
  value: number;
}

/** The result of sampled trials, before it is turned into the JSON of a battle or a duel. */
export interface BattleOutcome {
  totals: BattleTotals;
  mode: 'kernel' | 'dice';
  /**
   * Whether the work limit cut the run: trials ended at the work limit of one trial
   * (`totals.cutTrials`), or fewer trials than asked (a duel's run-wide limit, or its partner's in a comparison).
   */
  cutShort: boolean;
  /** What a comparison's pairing changed (`BattleRun.restart`): dice mode, and fewer trials, to match the run beside it. */
  matched: { dice: boolean; trials: boolean };
  /** Trials asked for. */
  requested: number;
  ops: number;
  /** Stopped because its figures were sure to the precision asked (or paired with a run that was): fewer trials than asked, not cut short. */
  sure?: boolean;
}

/** What one chunk of trials gave (`BattleRun.runChunk`). */
export interface ChunkOutcome {
  totals: BattleTotals;
  /** Sampling work done. */
  ops: number;
  /** Stopped by a run-wide work limit (the trial that went past it is not counted); trials ended by their own limit are `totals.cutTrials`. */
  cut: boolean;
  /** The exact kernels ran out of work: the whole run must be played in dice mode. */
  fallback: boolean;
  mode: 'kernel' | 'dice';
  /** The exact kernels the chunk used, each once: [id, work to compute it] (see `Engine.newChunk`). */
  used: [string, number][];
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
