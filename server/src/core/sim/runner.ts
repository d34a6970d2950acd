/**
 * The one way the core has a simulation run: a `SimRunner`, supplied by whoever hosts the core.
 * Every battle, duel (an engagement), chunk of a battle's trials and pricing battle is a plain-data
 * task (it crosses to a worker thread, a background process or a web worker as it is) handed to
 * `run`, which resolves with the task's result. The language server supplies worker threads for
 * requests and a background process for the live odds lens, the CLI its threads, the tests this
 * thread (`inProcessRunner` in ./run-here.ts), the browser build web workers. The core never starts
 * a thread or a process itself.
 */
import type { BattleTotals, ChunkOutcome, Fleet } from './battle';
import type { BattleOptions, BattleResult, EngagementOptions, SimulationResult, UnitProfile } from './types';
import type { VariantChoice } from './variants/catalog';
import type { VsFieldInput, VsFieldResult } from './vs-field';

/** A battle as a runner receives it: what `BattleSession` is made from (plain data). */
export interface BattleJob {
  fleets: [Fleet, Fleet];
  options: BattleOptions;
  limits?: (number | undefined)[];
  workLimit?: number;
}

/** Another version of a battle's fleet, played against the same opponent on the same dice (sim/compare.ts). */
export interface ChangedFleet {
  fleet: Fleet;
  limit?: number;
}

/** An engagement between two units (a duel), as a runner receives it. */
export interface SimulationInput {
  attacker: UnitProfile;
  defender: UnitProfile;
  options: EngagementOptions;
  variants: VariantChoice[];
  compare: boolean;
}

/** One chunk of one battle's trials (core/sim/chunked.ts). */
export interface ChunkTask {
  kind: 'chunk';
  job: BattleJob;
  /** Names the run, so that a runner keeps one engine (its caches) for all the chunks it plays of it, and knows when another run of the same battle begins (chunked.ts `SessionCache`). */
  key: string;
  /** The comparison's standard-rules run rather than the battle itself. */
  standard: boolean;
  index: number;
  /** The generator's state at the chunk's first trial (`getState()`). */
  state: number[];
  count: number;
  dice: boolean;
  workLimit: number;
  /**
   * Played again exactly, on a fresh engine of its own: the kernels one run had paid for before this
   * chunk (not charged again), and their work (where the kernel budget starts).
   */
  exact?: { prepaid: string[]; kernelWork: number };
}

/** A battle or an engagement run whole, reporting its progress (and a battle its partial results) as it goes. */
export interface SessionTask {
  kind: 'battle' | 'simulate' | 'vsField';
  battle?: BattleJob;
  simulate?: SimulationInput;
  /** A card against the field (`sim --vs-field`): every row at once, the field's size as its progress. */
  vsField?: VsFieldInput;
  /** Work per slice between two progress reports (the engine's operation counts). */
  sliceOps: number;
  /** With a battle: another version of its fleet, played against the same opponent on the same dice (sim/compare.ts). */
  changed?: ChangedFleet;
  /** With a battle: stop once every headline figure is this sure (`BattleSetup.precision`), the trials being the cap. */
  precision?: number;
}

/** One battle of pricing by battle (core/balance/battles.ts). */
export interface PricingBattle {
  /** Side 0: the copies; side 1: the reference fleet. */
  fleets: [Fleet, Fleet];
  /** The game size's points (the table the fleets approach on). */
  size: number;
  rounds: number;
  /** The most trials it plays (all of them without `sure`). */
  trials: number;
  seed: number;
  /** The points both fleets are worth (the reference fleet's): shares are of this. */
  worth: number;
  /**
   * Stop once the figure is sure: chunks of `chunk` trials from `minTrials`, checked in order, until
   * the 95% half-width of d (the mean points balance, see PricingTotals) is at most `precision`.
   */
  sure?: { precision: number; minTrials: number; chunk: number };
}

/** What a pricing battle gives: sums over trials, which add up over chunks of trials. */
export interface PricingTotals {
  trials: number;
  /** Sum over trials of (points destroyed by side 0 - points destroyed by side 1) / worth, and of its square. */
  sumDiff: number;
  sumDiffSq: number;
  /** Sum over trials of the enemy's share destroyed, and of the own share lost. */
  sumDealt: number;
  sumLost: number;
  /** The run stopped at its work limit before all its trials. */
  cutShort: boolean;
  /** It stopped before its most trials because its figure was sure (`PricingBattle.sure`). */
  sure?: boolean;
}

/** A pricing battle played whole. */
export interface PriceTask {
  kind: 'price';
  battle: PricingBattle;
}

export type SimTask = ChunkTask | SessionTask | PriceTask;

/** What a task resolves with. */
export type SimOutput<T extends SimTask> = T extends ChunkTask
  ? ChunkOutcome
  : T extends PriceTask
    ? PricingTotals
    : BattleResult | SimulationResult | VsFieldResult;

/** What a session task reports while it runs. */
export type SimMessage = { progress: { trials: number; requested: number } } | { partial: BattleResult };

/**
 * Who waits for the task. `request`: someone asked and waits (a command, a view's battle, Price by
 * battle, a CLI run). `background`: nobody waits and it is often cancelled (the live odds lens, the
 * workspace's field prices): it runs at the lowest priority and a cancel keeps its thread.
 */
export type SimPriority = 'request' | 'background';

/**
 * Why a battle in chunks aborts the chunks it handed out but no longer needs (it stopped when sure,
 * or fell back to dice): nobody cancelled the battle. A runner drops such a chunk that has not
 * started, and lets one that has play to its end unheard rather than end its thread (which the next
 * battle would pay to start and warm up again).
 */
export class ChunksDropped extends Error {
  constructor() {
    super('The battle needs no more of its chunks.');
    this.name = 'ChunksDropped';
  }
}

/** A cancellation token: the shape of the LSP's (vscode-jsonrpc `CancellationToken`), so that a request's token is passed as it is. */
export interface SimToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** What `run` rejects with when its token cancelled it, with the trials played by then. */
export class SimCancelled extends Error {
  constructor(readonly trials = 0) {
    super('The simulation was cancelled.');
    this.name = 'SimCancelled';
  }
}

export interface SimRunner {
  /** Tasks this runner plays at a time (a battle in chunks keeps that many in flight). */
  readonly threads: number;
  /**
   * Runs `task`; `progress` hears a session task's progress and partial results; when `token`
   * cancels it, rejects with `SimCancelled`. Rejects with an Error when the task fails.
   */
  run<T extends SimTask>(task: T, priority: SimPriority, progress?: (m: SimMessage) => void, token?: SimToken): Promise<SimOutput<T>>;
}

/** A token that cancels when `signal` aborts (and carries it, for a runner that takes signals). */
export function tokenOf(signal: AbortSignal): SimToken & { signal: AbortSignal } {
  return {
    signal,
    get isCancellationRequested() {
      return signal.aborted;
    },
    onCancellationRequested(listener) {
      signal.addEventListener('abort', listener, { once: true });
      return { dispose: () => signal.removeEventListener('abort', listener) };
    },
  };
}

/**
 * An abort signal that follows `token` (aborted with SimCancelled), and how to stop following it:
 * the inverse of `tokenOf` (a token made of a signal gives that signal back).
 */
export function signalOf(token: SimToken | undefined): { signal?: AbortSignal; dispose: () => void } {
  if (!token) return { dispose: () => undefined };
  if ('signal' in token && token.signal instanceof AbortSignal) return { signal: token.signal, dispose: () => undefined };
  const abort = new AbortController();
  const cancel = () => abort.abort(new SimCancelled());
  const listening = token.onCancellationRequested(cancel);
  if (token.isCancellationRequested) cancel();
  return { signal: abort.signal, dispose: () => listening.dispose() };
}

/** A token that never cancels. */
export const NEVER: SimToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

export type { BattleTotals, ChunkOutcome };
