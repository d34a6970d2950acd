/**
 * What a runner does with a task (./runner.ts), the same wherever it runs: a worker thread, the
 * background process, a web worker or this thread. `playTask` plays a chunk or a pricing battle
 * whole; `sessionParts` steps a battle or a duel in parts, reporting as it goes; `inProcessRunner`
 * is the runner of a host without threads (the tests, the CLI at one thread): every task on this
 * thread, yielding between parts so that its host stays responsive.
 */
import { BattleRun } from './battle';
import { battleInChunks, chunksOn, runChunkTask, SessionCache, type ChunkExecutor } from './chunked';
import { compareInChunks, FleetComparisonSession } from './compare';
import { makeRng } from './dice';
import { BattleSession, gameSizeFor } from './fleet-battle';
import { SimulationRun } from './index';
import type { BattleResult, SimulationResult } from './types';
import { vsField, type VsFieldResult } from './vs-field';
import {
  SimCancelled,
  signalOf,
  type ChunkOutcome,
  type PricingBattle,
  type PricingTotals,
  type SessionTask,
  type SimMessage,
  type SimOutput,
  type SimPriority,
  type SimRunner,
  type SimTask,
  type SimToken,
} from './runner';

/** A pricing battle's run. */
export function pricingRun(b: PricingBattle): BattleRun {
  const depth = gameSizeFor([b.size]).depth;
  return new BattleRun(b.fleets, { depth, rounds: b.rounds, trials: b.trials, seed: b.seed }, makeRng(b.seed));
}

/** A pricing battle's totals once its run has ended. */
export function pricingTotals(run: BattleRun, b: PricingBattle): PricingTotals {
  const out = run.outcome();
  const [dealt, lost] = out.totals.pointsDestroyed;
  const t: PricingTotals = { trials: dealt.length, sumDiff: 0, sumDiffSq: 0, sumDealt: 0, sumLost: 0, cutShort: out.cutShort };
  const w = b.worth > 0 ? b.worth : 1;
  for (let i = 0; i < dealt.length; i++) {
    const a = dealt[i]! / w;
    const l = lost[i]! / w;
    t.sumDiff += a - l;
    t.sumDiffSq += (a - l) * (a - l);
    t.sumDealt += a;
    t.sumLost += l;
  }
  return t;
}

/** A pricing battle's figure d (the mean points balance) and its standard error, from its totals (0 and 0 without trials). */
export function pricingFigure(t: PricingTotals): { d: number; se: number } {
  const d = t.trials ? t.sumDiff / t.trials : 0;
  const variance = t.trials > 1 ? Math.max(0, (t.sumDiffSq - t.trials * d * d) / (t.trials - 1)) : 0;
  return { d, se: t.trials ? Math.sqrt(variance / t.trials) : 0 };
}

/** The 95% half-width of a pricing battle's figure d; Infinity under two trials (no spread to read). */
export function pricingHalfWidth(t: PricingTotals): number {
  return t.trials < 2 ? Infinity : 1.96 * pricingFigure(t).se;
}

/**
 * One pricing battle, played to the end (or its work limit), or with `sure` until its figure is
 * that sure: the check is made where a chunk ends, in order, so the same setup stops at the same
 * trial wherever it runs. Pure: the same setup gives the same totals.
 */
export function playPricing(b: PricingBattle): PricingTotals {
  const run = pricingRun(b);
  const sure = b.sure;
  if (!sure) {
    run.step();
    return pricingTotals(run, b);
  }
  const chunk = Math.max(1, Math.floor(sure.chunk));
  for (let n = Math.min(b.trials, Math.max(chunk, sure.minTrials)); !run.playTo(n); n = Math.min(b.trials, n + chunk)) {
    const t = pricingTotals(run, b);
    if (pricingHalfWidth(t) <= sure.precision) {
      run.settle();
      return { ...t, sure: true };
    }
  }
  return pricingTotals(run, b);
}

/** A chunk or a pricing battle, played whole (`cache`: the engines this runner keeps between a battle's chunks). */
export function playTask(task: Exclude<SimTask, SessionTask>, cache: SessionCache): ChunkOutcome | PricingTotals {
  return task.kind === 'price' ? playPricing(task.battle) : runChunkTask(task, cache);
}

/** A session task's run, a slice at a time. */
export interface SessionRunner {
  /** Runs one slice (or `ops` of work); true when the run has ended. */
  step(ops?: number): boolean;
  readonly progress: { trials: number; requested: number };
  /** The figures so far, for a partial result (battles only). */
  partial?(): BattleResult;
  result(): BattleResult | SimulationResult | VsFieldResult;
}

export function sessionRunner(task: SessionTask): SessionRunner {
  const slice = Math.max(1, task.sliceOps);
  if (task.kind === 'vsField' && task.vsField) {
    const input = task.vsField;
    let result: VsFieldResult | undefined;
    return {
      step: () => (result ??= vsField(input)) !== undefined,
      get progress() {
        return { trials: result ? input.field.length : 0, requested: input.field.length };
      },
      result: () => (result ??= vsField(input)),
    };
  }
  if (task.kind === 'simulate' && task.simulate) {
    const i = task.simulate;
    const run = new SimulationRun(i.attacker, i.defender, i.options, { variants: i.variants, compare: i.compare });
    return {
      step: (ops = slice) => run.step(ops),
      get progress() {
        return run.progress;
      },
      result: () => run.result(),
    };
  }
  const job = task.battle!;
  // A what-if: the fleet and another version of it, on the same dice.
  const session = task.changed
    ? new FleetComparisonSession(job, task.changed, task.precision)
    : new BattleSession(job.fleets, job.options, {
        ...(job.limits ? { limits: job.limits } : {}),
        ...(job.workLimit !== undefined ? { workLimit: job.workLimit } : {}),
        ...(task.precision !== undefined ? { precision: task.precision } : {}),
      });
  return {
    step: (ops = slice) => session.step(ops),
    get progress() {
      return session.progress;
    },
    partial: () => session.result(),
    result: () => session.result(),
  };
}

/** Whether to send a partial result after slice `slices` (the last one sent after slice `sent`): soon at first (a view fills in), then less often (each costs a summary). */
export function partialDue(slices: number, sent: number): boolean {
  return slices === 1 || slices >= sent * 2 + 4;
}

/**
 * A session task's run in parts of `part` operations, yielding the trials so far before each part
 * (where its driver may stop it), posting its progress once a slice and its partial results when
 * due. Every driver steps the same parts: a thread's (its stop flag read at each yield), the
 * background process's (which lets its messages in at each) and `inProcessRunner`'s.
 */
export function* sessionParts(
  task: SessionTask,
  part: number,
  post?: (m: SimMessage) => void,
): Generator<number, BattleResult | SimulationResult | VsFieldResult> {
  const run = sessionRunner(task);
  const slice = Math.max(1, task.sliceOps);
  let slices = 0;
  let sent = 0;
  for (;;) {
    let ended = false;
    for (let ops = 0; ops < slice && !ended; ops += part) {
      yield run.progress.trials;
      ended = run.step(part);
    }
    if (ended) return run.result();
    post?.({ progress: run.progress });
    slices++;
    if (post && run.partial && run.progress.trials > 0 && partialDue(slices, sent)) {
      sent = slices;
      post({ partial: run.partial() });
    }
  }
}

/**
 * A battle's session task played in chunks of trials over `parallel` threads (sim/chunked.ts, the
 * what-if sim/compare.ts): the figures `sessionParts` gives on one thread, for the same seed, with
 * its progress and its partial results (as often as `partialDue` says, counting merged chunks).
 * `signal` stops it: the promise then rejects with the signal's reason.
 */
export function battleTaskInChunks(
  task: SessionTask,
  exec: ChunkExecutor,
  parallel: number,
  post: (m: SimMessage) => void = () => undefined,
  signal?: AbortSignal,
): Promise<BattleResult> {
  const job = task.battle;
  if (task.kind !== 'battle' || !job) throw new Error('battleTaskInChunks plays a battle');
  let merged = 0;
  let sent = 0;
  const hooks = {
    ...(signal ? { signal } : {}),
    ...(task.precision !== undefined ? { precision: task.precision } : {}),
    onProgress: (trials: number, requested: number) => post({ progress: { trials, requested } }),
    onPartial: (result: () => BattleResult) => {
      merged++;
      if (!partialDue(merged, sent)) return;
      sent = merged;
      post({ partial: result() });
    },
  };
  return task.changed ? compareInChunks(job, task.changed, exec, parallel, hooks) : battleInChunks(job, exec, parallel, hooks);
}

/**
 * `runner` with each battle someone waits for (a `request`) spread over its threads in chunks of
 * trials when it has more than one (`battleTaskInChunks`): a player's battle then finishes in about
 * the time over the number of threads instead of on one thread, with the same figures. Everything
 * else (the lens's `background` battles, duels, chunks, pricing) goes to `runner` as it is.
 */
export function battlesInChunks(runner: SimRunner): SimRunner {
  return {
    get threads() {
      return runner.threads;
    },
    async run<T extends SimTask>(task: T, priority: SimPriority, progress?: (m: SimMessage) => void, token?: SimToken): Promise<SimOutput<T>> {
      if (task.kind !== 'battle' || priority !== 'request' || runner.threads < 2) return runner.run(task, priority, progress, token);
      const { signal, dispose } = signalOf(token);
      try {
        if (signal?.aborted) throw new SimCancelled();
        return (await battleTaskInChunks(task, chunksOn(runner), runner.threads, progress, signal)) as SimOutput<T>;
      } catch (e) {
        throw signal?.aborted ? new SimCancelled() : e;
      } finally {
        dispose();
      }
    },
  };
}

/** A turn of the host's event loop (a timer: what every JavaScript host has). */
const nextTurn = (): Promise<void> => new Promise((go) => setTimeout(go, 0));

/**
 * The runner of a host without threads: each task on this thread, a session task a slice at a
 * time and a chunk or a pricing battle whole, a turn of the event loop before each, so that the
 * host answers between them; a cancelled task rejects with `SimCancelled` at its next turn.
 */
/**
 * The in-process runner, with its two steps a host that drives a task itself uses (a worker
 * thread, the background process, a web worker): `play`, a chunk or a pricing battle whole on this
 * runner's engines; `parts`, a session task's run in parts (`sessionParts`).
 */
export interface InProcessRunner extends SimRunner {
  play<T extends Exclude<SimTask, SessionTask>>(task: T): SimOutput<T>;
  parts: typeof sessionParts;
}

export function inProcessRunner(o: { turn?: () => Promise<void> } = {}): InProcessRunner {
  const turn = o.turn ?? nextTurn;
  const cache = new SessionCache();
  const here = async (task: SimTask, progress?: (m: SimMessage) => void, token?: SimToken): Promise<unknown> => {
    await turn();
    if (token?.isCancellationRequested) throw new SimCancelled();
    if (task.kind === 'chunk' || task.kind === 'price') return playTask(task, cache);
    const parts = sessionParts(task, Math.max(1, task.sliceOps), progress);
    for (let r = parts.next(); ; r = parts.next()) {
      if (r.done) return r.value;
      await turn();
      if (token?.isCancellationRequested) throw new SimCancelled(r.value);
    }
  };
  return {
    threads: 1,
    run: <T extends SimTask>(task: T, _priority: unknown, progress?: (m: SimMessage) => void, token?: SimToken) =>
      here(task, progress, token) as Promise<SimOutput<T>>,
    play: <T extends Exclude<SimTask, SessionTask>>(task: T) => playTask(task, cache) as SimOutput<T>,
    parts: sessionParts,
  };
}
