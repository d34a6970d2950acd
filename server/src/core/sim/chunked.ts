/**
 * A fleet battle spread over threads in whole chunks of trials. Chunk k plays trials
 * k*CHUNK_TRIALS and on, trial i rolling from the seed's generator jumped i times (the streams of
 * one run, battle/run.ts `lanes`), and the chunks' totals are merged in chunk order. Each chunk's kernel
 * work is counted as if it had an engine of its own (battle/engine.ts `Engine.newChunk`) and sampling work
 * never depends on what an engine met before, so the chunks give what one run gives: the numbers
 * of `simulateBattle` for the same seed, whatever the number of threads, including which trials
 * reach the work limit of one trial (a trial's work depends on its own dice only) and whether the
 * exact kernels give way to dice (then every chunk is played again with dice).
 *
 * Pure: the chunks are handed to an executor (`ChunkExecutor`): the same function in this thread
 * (`localExecutor`), or worker threads (server/src/node/sim-pool.ts).
 */
import { CHUNK_TRIALS, KERNEL_WORK_LIMIT, TRIAL_WORK_LIMIT, emptyTotals, reachedPrecision, sureTo } from './battle';
import type { BattleOutcome, BattleTotals, ChunkOutcome } from './battle';
import { jumpMatrix, jumpState, jumpedRng, rngFromState, type BitMatrix } from './dice';
import { BattleSession } from './fleet-battle';
import type { BattleResult } from './types';
import { ChunksDropped, tokenOf, type BattleJob, type ChunkTask, type SimRunner } from './runner';

export type { BattleJob, ChunkTask };

export type ChunkExecutor = (task: ChunkTask, signal?: AbortSignal) => Promise<ChunkOutcome>;

/** The chunks played on a simulation runner. */
export function chunksOn(runner: SimRunner): ChunkExecutor {
  return (task, signal) => runner.run(task, 'request', undefined, signal && tokenOf(signal));
}

/** The session of a battle job (with other options). */
export function sessionOf(j: BattleJob, options = j.options): BattleSession {
  return new BattleSession(j.fleets, options, { ...(j.limits ? { limits: j.limits } : {}), ...(j.workLimit !== undefined ? { workLimit: j.workLimit } : {}) });
}

/**
 * The sessions a thread keeps, by battle: a few (a thread plays chunks of one or two battles at a
 * time). A battle is named by its fleets and options but not its dice (the seed, the trials): the
 * next battle of the same fleets, another seed or another view of it, then finds the exact kernels
 * it needs already computed, which are most of a thread's first chunk. Each run (`ChunkTask.key`)
 * starts from an engine that has forgotten what the run before it used (`BattleRun.forgetRun`), so
 * that its chunks list their kernels as a fresh engine's would.
 */
export class SessionCache {
  private readonly sessions = new Map<string, { session: BattleSession; run: string }>();
  constructor(private readonly size = 4) {}

  /** A session of its own for the battle of a task (or its standard-rules twin). */
  static fresh(task: ChunkTask): BattleSession {
    const j = task.job;
    return sessionOf(j, task.standard ? { ...j.options, variants: [], compare: false } : { ...j.options, compare: false });
  }

  /** What names a task's battle here: everything its session is made of but the dice, and which run (the battle or its standard-rules twin). */
  static battleOf(task: ChunkTask): string {
    const j = task.job;
    const { seed: _seed, trials: _trials, ...options } = j.options;
    return JSON.stringify([task.standard, j.fleets, options, j.limits ?? null, j.workLimit ?? null]);
  }

  /** The battle each recent run plays (`battleOf`), so that the fleets are written out once a run, not once a chunk. */
  private readonly battleOfRun = new Map<string, string>();

  get(task: ChunkTask): BattleSession {
    const run = `${task.key}\u0000${task.standard ? 's' : 'v'}`;
    let key = this.battleOfRun.get(run);
    if (key === undefined) {
      if (this.battleOfRun.size >= 4 * this.size) this.battleOfRun.clear();
      this.battleOfRun.set(run, (key = SessionCache.battleOf(task)));
    }
    let kept = this.sessions.get(key);
    if (kept) this.sessions.delete(key);
    else kept = { session: SessionCache.fresh(task), run: task.key };
    if (kept.run !== task.key) {
      kept.session.run.forgetRun();
      kept.run = task.key;
    }
    this.sessions.set(key, kept);
    while (this.sessions.size > this.size) this.sessions.delete(this.sessions.keys().next().value!);
    return kept.session;
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
  a.cutTrials += b.cutTrials;
  const add = (x: Float64Array, y: Float64Array) => {
    for (let i = 0; i < x.length; i++) x[i]! += y[i]!;
  };
  add(a.ended, b.ended);
  add(a.routed, b.routed);
  a.alive.forEach((x, i) => add(x, b.alive[i]!));
  a.routedBy.forEach((x, i) => add(x, b.routedBy[i]!));
  for (const k of ['fired', 'boarded', 'rammed', 'aim', 'shields', 'brace'] as const) add(a.tally[k], b.tally[k]);
}

/** The precision's minimum and half-width are the stepped run's (battle/run.ts), which stops at the same trials. */
export { PRECISION_MIN_TRIALS, headlineHalfWidth } from './battle';

export interface ChunkHooks {
  onProgress?: (trials: number, requested: number) => void;
  signal?: AbortSignal;
  /** Hears the outcome the result is made of (the trials' codes a comparison pairs, sim/compare.ts). */
  onOutcome?: (outcome: BattleOutcome) => void;
  /**
   * Played in dice and/or for at most this many trials, to match a run beside it (as
   * `BattleRun.restart`); `sure`: those trials are all the run asks for (the run beside it stopped
   * by its precision), not a cut.
   */
  pair?: { dice?: boolean; trials?: number; sure?: boolean };
  /**
   * Stop once the 95% half-width of every headline figure is at most this (`headlineHalfWidth`),
   * after `PRECISION_MIN_TRIALS` at least: checked as each chunk is merged, in chunk order, so the
   * same seed stops at the same chunk whatever the threads. The result then says `stopped` and
   * `precision`.
   */
  precision?: number;
  /**
   * Hears, after each chunk of the battle's own run is merged, how to make the figures of the trials
   * merged so far (a view fills in as it sharpens): called when a partial result is wanted, it costs
   * a summary. Not during a standard-rules twin's run.
   */
  onPartial?: (result: () => BattleResult) => void;
}

interface Played {
  totals: BattleTotals;
  mode: 'kernel' | 'dice';
  ops: number;
  /** The exact kernels ran out of work: the run is to be played again with dice, its work so far counted. */
  fallback?: boolean;
  /** Stopped by its precision. */
  sure?: boolean;
}

/** One battle's runs in chunks: what every run of it shares. */
interface Runs {
  job: BattleJob;
  exec: ChunkExecutor;
  lanes: number;
  /** Names the battle, so that a runner keeps one engine for its chunks. */
  key: string;
  /** The runs played so far (each of its own key: a thread's engine lists a run's kernels afresh, see `playRun`). */
  played: number;
  sessions: [BattleSession, BattleSession | undefined];
  hooks: ChunkHooks;
  /** Hears the trials merged so far in the run being played. */
  merged: (trials: number) => void;
  /** Hears the battle's own run (not its standard-rules twin's) as each chunk is merged. */
  partial: (p: Played) => void;
}

/** The start states of a run's chunks from `seed`, as they are needed: each CHUNK_TRIALS jumps on from the one before (`jumpState`). */
function chunkStates(seed: number): (k: number) => number[] {
  const states: number[][] = [[...jumpedRng(seed, 0).getState()]];
  let chunk: BitMatrix | undefined;
  return (k) => {
    while (states.length <= k) states.push(jumpState(states[states.length - 1]!, (chunk ??= jumpMatrix(CHUNK_TRIALS))));
    return states[k]!;
  };
}

/** The kernels one run would have computed by the chunk merged last, and their work. */
class KernelLedger {
  readonly paid = new Set<string>();
  work = 0;
  /** The work of the kernels in `used` not paid for yet. */
  extra(used: [string, number][]): number {
    let more = 0;
    for (const [id, cost] of used) if (!this.paid.has(id)) more += cost;
    return more;
  }
  pay(used: [string, number][]): void {
    this.work += this.extra(used);
    for (const [id] of used) this.paid.add(id);
  }
}

/**
 * One run of the battle (or of its standard-rules twin) for `trials` trials, as BattleRun.step
 * plays it; `opsBefore` is the work done before (the kernel-mode trials of a run that fell back).
 */
async function playRun(c: Runs, standard: boolean, trials: number, dice: boolean, opsBefore: number, precision?: number): Promise<Played> {
  const setup = c.sessions[standard ? 1 : 0]!.run.setup;
  // The work limit of one trial: a chunk ends such a trial and plays the rest of its trials.
  const limit = setup.workLimit ?? TRIAL_WORK_LIMIT;
  const chunks = Math.ceil(trials / CHUNK_TRIALS);
  const stateOf = chunkStates(setup.seed);
  // Every run its own key, a run played again included: an engine lists each kernel once a run
  // (battle/engine.ts `newChunk`), so a run's chunks must not count on what an engine listed for
  // the run before it.
  const key = `${c.key}.${c.played++}`;
  const task = (k: number, workLimit: number, exact?: ChunkTask['exact']): ChunkTask => ({
    ...{ kind: 'chunk', job: c.job, key, standard, index: k, state: stateOf(k) },
    ...{ count: Math.min(CHUNK_TRIALS, trials - k * CHUNK_TRIALS), dice, workLimit, ...(exact ? { exact } : {}) },
  });
  const stop = new AbortController();
  const onAbort = () => stop.abort(c.hooks.signal?.reason);
  c.hooks.signal?.addEventListener('abort', onAbort, { once: true });
  const pending = new Map<number, Promise<ChunkOutcome>>();
  const p: Played = {
    totals: emptyTotals(c.job.fleets[0].units.length + c.job.fleets[1].units.length, setup.rounds),
    mode: dice ? 'dice' : 'kernel',
    ops: opsBefore,
  };
  const ledger = new KernelLedger();
  try {
    for (let k = 0; k < chunks && !p.sure; k++) {
      // Keep every lane busy, well ahead of the chunk merged next: a thread that is still starting
      // must not hold the others up (chunks past a fallback or a stop are dropped unplayed).
      for (let next = pending.size + k; next < chunks && next < k + 4 + 4 * c.lanes; next++) {
        const q = c.exec(task(next, limit), stop.signal);
        q.catch(() => undefined);
        pending.set(next, q);
      }
      let r = await pending.get(k)!;
      pending.delete(k);
      if (r.fallback || ledger.work + ledger.extra(r.used) > KERNEL_WORK_LIMIT) {
        // Near the kernels' limit: played again on a fresh engine from the kernel work this run
        // has done, and the kernels it had paid for, as one run plays it.
        r = await c.exec(task(k, limit, { prepaid: [...ledger.paid], kernelWork: ledger.work }), c.hooks.signal);
        if (r.fallback) return { ...p, ops: p.ops + r.ops, fallback: true };
      }
      ledger.pay(r.used);
      if (r.mode === 'dice') p.mode = 'dice';
      addTotals(p.totals, r.totals);
      p.ops += r.ops;
      c.merged(p.totals.trials);
      if (!standard) c.partial(p);
      if (sureTo(p.totals, precision)) p.sure = true;
    }
  } finally {
    // The chunks handed out past a stop or a fallback: dropped, their threads kept (unless the battle was cancelled).
    if (!stop.signal.aborted) stop.abort(new ChunksDropped());
    c.hooks.signal?.removeEventListener('abort', onAbort);
  }
  if (c.hooks.signal?.aborted) throw c.hooks.signal.reason;
  return p;
}

/** A whole run: in dice mode again when a chunk's exact kernels ran out of work (as BattleRun.step restarts). */
async function wholeRun(c: Runs, standard: boolean, trials: number, dice: boolean, precision?: number): Promise<Played> {
  const first = await playRun(c, standard, trials, dice, 0, precision);
  return first.fallback ? playRun(c, standard, trials, true, first.ops, precision) : first;
}

type Matched = { dice: boolean; trials: boolean };

/** The battle's run and its standard-rules twin's, paired as variants/compare.ts `pairRuns` pairs two runs: the same mode, the same trials. */
async function pairWithStandard(c: Runs, runs: { v: Played; s: Played }, matched: { v: Matched; s: Matched }, limit: number): Promise<void> {
  const limits = { v: limit, s: limit };
  for (let again = true; again;) {
    again = false;
    const dice = runs.v.mode !== runs.s.mode;
    const trials = Math.min(runs.v.totals.trials, runs.s.totals.trials);
    for (const which of ['v', 's'] as const) {
      const p = runs[which];
      const m = matched[which];
      if (!((dice && p.mode === 'kernel') || p.totals.trials > trials)) continue;
      if (dice && p.mode === 'kernel') m.dice = true;
      if (trials < limits[which]) {
        limits[which] = trials;
        m.trials = true;
      }
      // Played again for a count of trials: a run that was sure (or paired with one) still is.
      runs[which] = { ...(await wholeRun(c, which === 's', limits[which], m.dice || p.mode === 'dice')), ...(p.sure ? { sure: true } : {}) };
      again = true;
    }
  }
}

/**
 * A key for one run's sessions in the threads that play its chunks: two random draws (about 2^104
 * keys), so that no count of runs has to live in this module.
 */
function runKey(): string {
  return Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
}

/**
 * The fleet battle of `job`, its chunks of trials played by `exec` with up to `parallel` of them at
 * a time: the same result as `simulateBattle(job.fleets, job.options, ...)`. `onProgress` hears the
 * trials merged so far; `signal` stops it (the promise then rejects with the signal's reason).
 */
export async function battleInChunks(job: BattleJob, exec: ChunkExecutor, parallel: number, hooks: ChunkHooks = {}): Promise<BattleResult> {
  const session = sessionOf(job);
  const standard = session.comparison;
  const requested = session.run.setup.trials;
  let base = 0;
  const c: Runs = {
    ...{ job, exec, lanes: Math.max(1, Math.floor(parallel)), key: runKey(), played: 0 },
    ...{ sessions: [session, standard], hooks, merged: (n) => hooks.onProgress?.(base + n, requested * (standard ? 2 : 1)) },
    partial: (p) =>
      hooks.onPartial?.(() =>
        session.resultOf({ totals: p.totals, mode: p.mode, cutShort: p.totals.cutTrials > 0, matched: { dice: false, trials: false }, requested, ops: p.ops }),
      ),
  };
  const forced = { dice: hooks.pair?.dice === true, trials: Math.min(requested, hooks.pair?.trials ?? requested) };
  const v = await wholeRun(c, false, forced.trials, forced.dice, hooks.precision);
  if (hooks.pair?.sure) v.sure = true;
  const outcome = (p: Played, matched: Matched): BattleOutcome => ({
    ...{ totals: p.totals, mode: p.mode, cutShort: p.totals.cutTrials > 0 || (!p.sure && p.totals.trials < requested) },
    ...{ matched, requested, ops: p.ops },
  });
  const short = forced.trials < requested && hooks.pair?.sure !== true;
  const matched = { v: { dice: forced.dice, trials: short }, s: { dice: forced.dice, trials: short } };
  const runs = { v, s: v };
  if (standard) {
    base = v.totals.trials;
    // A run stopped by its precision is paired with as many trials of the standard rules, all asked.
    const trials = v.sure ? v.totals.trials : forced.trials;
    runs.s = { ...(await wholeRun(c, true, trials, forced.dice)), sure: v.sure === true };
    await pairWithStandard(c, runs, matched, forced.trials);
  }
  hooks.onOutcome?.(outcome(runs.v, matched.v));
  const result = standard ? session.resultOf(outcome(runs.v, matched.v), outcome(runs.s, matched.s)) : session.resultOf(outcome(runs.v, matched.v));
  if (hooks.precision === undefined) return result;
  return { ...result, requestedTrials: requested, stopped: runs.v.sure ? 'precision' : 'cap', precision: reachedPrecision(runs.v.totals) };
}
