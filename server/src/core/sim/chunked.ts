/**
 * A fleet battle spread over threads in whole chunks of trials. Chunk k plays trials
 * k*CHUNK_TRIALS and on, trial i rolling from the seed's generator jumped i times (the streams of
 * one run, battle/run.ts `lanes`), and the chunks' totals are merged in chunk order. Each chunk's kernel
 * work is counted as if it had an engine of its own (battle/engine.ts `Engine.newChunk`) and sampling work
 * never depends on what an engine met before, so the chunks give what one run gives: the numbers
 * of `simulateBattle` for the same seed, whatever the number of threads, including where the work
 * limit cuts the run (the chunk that crosses it is played again with the exact work left) and
 * whether the exact kernels give way to dice (then every chunk is played again with dice).
 *
 * Pure: the chunks are handed to an executor (`ChunkExecutor`): the same function in this thread
 * (`localExecutor`), or worker threads (server/src/node/sim-pool.ts).
 */
import { CHUNK_TRIALS, KERNEL_WORK_LIMIT, SAMPLING_WORK_LIMIT, emptyTotals } from './battle';
import type { BattleOutcome, BattleTotals, ChunkOutcome } from './battle';
import { jumpedRng, rngFromState } from './dice';
import { BattleSession } from './fleet-battle';
import type { BattleResult } from './types';
import type { BattleJob, ChunkTask } from './runner';

export type { BattleJob, ChunkTask };

export type ChunkExecutor = (task: ChunkTask, signal?: AbortSignal) => Promise<ChunkOutcome>;

/** The sessions a thread keeps, by battle (a few: a thread plays chunks of one or two battles at a time). */
export class SessionCache {
  private readonly sessions = new Map<string, BattleSession>();
  constructor(private readonly size = 4) {}

  /** A session of its own for the battle of a task (or its standard-rules twin). */
  static fresh(task: ChunkTask): BattleSession {
    const j = task.job;
    const options = task.standard ? { ...j.options, variants: [], compare: false } : { ...j.options, compare: false };
    return new BattleSession(j.fleets, options, {
      ...(j.limits ? { limits: j.limits } : {}),
      ...(j.workLimit !== undefined ? { workLimit: j.workLimit } : {}),
    });
  }

  get(task: ChunkTask): BattleSession {
    const key = `${task.key}\u0000${task.standard ? 's' : 'v'}`;
    let s = this.sessions.get(key);
    if (s) this.sessions.delete(key);
    else s = SessionCache.fresh(task);
    this.sessions.set(key, s);
    while (this.sessions.size > this.size) this.sessions.delete(this.sessions.keys().next().value!);
    return s;
  }

  /** Forgets a battle (it has ended). */
  drop(key: string): void {
    for (const k of [...this.sessions.keys()]) if (k.startsWith(`${key}\u0000`)) this.sessions.delete(k);
  }
}

/** Plays one chunk (what a worker thread does with a ChunkTask). */
export function runChunkTask(task: ChunkTask, cache: SessionCache): ChunkOutcome {
  const s = task.exact ? SessionCache.fresh(task) : cache.get(task);
  return s.run.runChunk(rngFromState(task.state), task.count, {
    dice: task.dice,
    workLimit: task.workLimit,
    ...(task.exact ? { prepaid: task.exact.prepaid, kernelWork: task.exact.kernelWork } : {}),
  });
}

/** An executor that plays the chunks in this thread, one after another. */
export function localExecutor(cache = new SessionCache()): ChunkExecutor {
  return (task) => Promise.resolve(runChunkTask(task, cache));
}

/** Adds `b` into `a` (same fleets and rounds): counts are whole numbers, so the sum is exact in any order. */
export function addTotals(a: BattleTotals, b: BattleTotals): void {
  a.trials += b.trials;
  for (const s of [0, 1] as const) {
    a.annihilation[s] += b.annihilation[s];
    a.pointsVictory[s] += b.pointsVictory[s];
    a.withdrew[s] += b.withdrew[s];
    for (const x of b.pointsDestroyed[s]) a.pointsDestroyed[s].push(x);
  }
  for (const x of b.outcomes) a.outcomes.push(x);
  a.draws += b.draws;
  a.roundsSum += b.roundsSum;
  a.bothDestroyed += b.bothDestroyed;
  a.variantVictory[0] += b.variantVictory[0];
  a.variantVictory[1] += b.variantVictory[1];
  const add = (x: Float64Array, y: Float64Array) => {
    for (let i = 0; i < x.length; i++) x[i]! += y[i]!;
  };
  add(a.ended, b.ended);
  add(a.routed, b.routed);
  a.alive.forEach((x, i) => add(x, b.alive[i]!));
  a.routedBy.forEach((x, i) => add(x, b.routedBy[i]!));
  for (const k of ['fired', 'boarded', 'rammed', 'aim', 'shields', 'brace'] as const) add(a.tally[k], b.tally[k]);
}

interface Played {
  totals: BattleTotals;
  mode: 'kernel' | 'dice';
  cut: boolean;
  ops: number;
  /** The exact kernels ran out of work: the run is to be played again with dice, its work so far counted. */
  fallback?: boolean;
}

let battles = 0;

/**
 * The fleet battle of `job`, its chunks of trials played by `exec` with up to `parallel` of them at
 * a time: the same result as `simulateBattle(job.fleets, job.options, ...)`. `onProgress` hears the
 * trials merged so far; `signal` stops it (the promise then rejects with the signal's reason).
 */
export async function battleInChunks(
  job: BattleJob,
  exec: ChunkExecutor,
  parallel: number,
  hooks: {
    onProgress?: (trials: number, requested: number) => void;
    signal?: AbortSignal;
    /** Hears the outcome the result is made of (the trials' codes a comparison pairs, sim/compare.ts). */
    onOutcome?: (outcome: BattleOutcome) => void;
    /** Played in dice and/or for at most this many trials, to match a run beside it (as `BattleRun.restart`). */
    pair?: { dice?: boolean; trials?: number };
  } = {},
): Promise<BattleResult> {
  const session = new BattleSession(job.fleets, job.options, {
    ...(job.limits ? { limits: job.limits } : {}),
    ...(job.workLimit !== undefined ? { workLimit: job.workLimit } : {}),
  });
  const key = `${++battles}-${Math.random().toString(36).slice(2)}`;
  const lanes = Math.max(1, Math.floor(parallel));
  const requested = session.run.setup.trials;
  const standardSession = session.comparison;
  const totalRequested = requested * (standardSession ? 2 : 1);
  let progressBase = 0;

  /**
   * One run of the battle (or of its standard-rules twin) for `trials` trials, as BattleRun.step
   * plays it; `opsBefore` is the work done before (the kernel-mode trials of a run that fell back).
   */
  const play = async (standard: boolean, trials: number, dice: boolean, opsBefore = 0): Promise<Played> => {
    const s = standard ? standardSession! : session;
    const setup = s.run.setup;
    const limit = setup.workLimit ?? SAMPLING_WORK_LIMIT;
    const chunks = Math.ceil(trials / CHUNK_TRIALS);
    // Start states, one chunk's jumps at a time as they are needed (CHUNK_TRIALS jumps each).
    const states: number[][] = [];
    const gen = jumpedRng(setup.seed, 0);
    const stateOf = (k: number) => {
      while (states.length <= k) {
        states.push([...gen.getState()]);
        for (let i = 0; i < CHUNK_TRIALS; i++) gen.jump();
      }
      return states[k]!;
    };
    const task = (k: number, workLimit: number, exact?: ChunkTask['exact']): ChunkTask => ({
      kind: 'chunk',
      job,
      key,
      standard,
      index: k,
      state: stateOf(k),
      count: Math.min(CHUNK_TRIALS, trials - k * CHUNK_TRIALS),
      dice,
      workLimit,
      ...(exact ? { exact } : {}),
    });
    const stop = new AbortController();
    const onAbort = () => stop.abort(hooks.signal?.reason);
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    const pending = new Map<number, Promise<ChunkOutcome>>();
    let next = 0;
    const fill = (upTo: number) => {
      while (next < chunks && next < upTo) {
        const p = exec(task(next, limit), stop.signal);
        // Chunks past a cut or a fallback are dropped: their failures are nobody's.
        p.catch(() => undefined);
        pending.set(next++, p);
      }
    };
    const totals = emptyTotals(job.fleets[0].units.length + job.fleets[1].units.length, setup.rounds);
    let offset = opsBefore;
    let cut = false;
    // The kernels one run would have computed by the chunk merged last, and their work.
    const paid = new Set<string>();
    let kernelWork = 0;
    const pay = (used: [string, number][]) => {
      for (const [id, cost] of used)
        if (!paid.has(id)) {
          paid.add(id);
          kernelWork += cost;
        }
    };
    let mode: 'kernel' | 'dice' = dice ? 'dice' : 'kernel';
    try {
      for (let k = 0; k < chunks; k++) {
        // Keep every lane busy, well ahead of the chunk merged next: a thread that is still starting
        // must not hold the others up (chunks past a cut or a fallback are dropped unplayed).
        fill(k + 4 + 4 * lanes);
        let r = await pending.get(k)!;
        pending.delete(k);
        let more = 0;
        for (const [id, cost] of r.used) if (!paid.has(id)) more += cost;
        if (r.fallback || r.cut || offset + r.ops > limit || kernelWork + more > KERNEL_WORK_LIMIT) {
          // Near a limit: played again on a fresh engine from the work this run has left, and the
          // kernels it had paid for, as one run plays it.
          r = await exec(task(k, limit - offset, { prepaid: [...paid], kernelWork }), hooks.signal);
          if (r.fallback) {
            stop.abort();
            return { totals, mode, cut: false, ops: offset + r.ops, fallback: true };
          }
          if (r.cut) {
            stop.abort();
            if (r.mode === 'dice') mode = 'dice';
            addTotals(totals, r.totals);
            offset += r.ops;
            cut = true;
            hooks.onProgress?.(progressBase + totals.trials, totalRequested);
            break;
          }
        }
        pay(r.used);
        if (r.mode === 'dice') mode = 'dice';
        addTotals(totals, r.totals);
        offset += r.ops;
        hooks.onProgress?.(progressBase + totals.trials, totalRequested);
      }
    } finally {
      stop.abort();
      hooks.signal?.removeEventListener('abort', onAbort);
    }
    if (hooks.signal?.aborted) throw hooks.signal.reason;
    return { totals, mode, cut, ops: offset };
  };

  /** A whole run: in dice mode again when a chunk's exact kernels ran out of work (as BattleRun.step restarts). */
  const run = async (standard: boolean, trials: number, dice: boolean): Promise<Played> => {
    const first = await play(standard, trials, dice);
    if (!first.fallback) return first;
    return play(standard, trials, true, first.ops);
  };

  const outcome = (p: Played, matched: { dice: boolean; trials: boolean }): BattleOutcome => ({
    totals: p.totals,
    mode: p.mode,
    cutShort: p.cut || p.totals.trials < requested,
    matched,
    requested,
    ops: p.ops,
  });

  const forced = { dice: hooks.pair?.dice === true, trials: Math.min(requested, hooks.pair?.trials ?? requested) };
  let v = await run(false, forced.trials, forced.dice);
  const vm = { dice: forced.dice, trials: forced.trials < requested };
  if (!standardSession) {
    hooks.onOutcome?.(outcome(v, vm));
    return session.resultOf(outcome(v, vm));
  }
  progressBase = v.totals.trials;
  let s = await run(true, forced.trials, forced.dice);
  const sm = { dice: forced.dice, trials: forced.trials < requested };
  // Paired as variants/compare.ts `pairRuns` pairs two runs: the same mode, the same trials.
  let vLimit = forced.trials;
  let sLimit = forced.trials;
  for (;;) {
    const dice = v.mode !== s.mode;
    const trials = Math.min(v.totals.trials, s.totals.trials);
    let again = false;
    for (const which of ['v', 's'] as const) {
      const p = which === 'v' ? v : s;
      const m = which === 'v' ? vm : sm;
      if (!((dice && p.mode === 'kernel') || p.totals.trials > trials)) continue;
      if (dice && p.mode === 'kernel') m.dice = true;
      let limitNow = which === 'v' ? vLimit : sLimit;
      if (trials < limitNow) {
        limitNow = trials;
        m.trials = true;
      }
      if (which === 'v') vLimit = limitNow;
      else sLimit = limitNow;
      const replayed = await run(which === 's', limitNow, m.dice || p.mode === 'dice');
      if (which === 'v') v = replayed;
      else s = replayed;
      again = true;
    }
    if (!again) break;
  }
  hooks.onOutcome?.(outcome(v, vm));
  return session.resultOf(outcome(v, vm), outcome(s, sm));
}
