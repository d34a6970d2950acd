/**
 * What a simulation worker thread runs (bundled as dist/sim-worker.js; tinypool loads it in each
 * thread of the pool, see ./sim-pool.ts): a chunk of a battle's trials for `battle --threads`
 * (core/sim/chunked.ts), or a whole battle or engagement for the language server, stepped a slice
 * at a time so that it can post its progress and partial results to the server's thread on `port`.
 * Cancelling a task ends its thread (tinypool), which stops a trial wherever it is.
 */
import type { MessagePort } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { runChunkTask, SessionCache, type BattleJob, type ChunkTask } from '../core/sim/chunked';
import { BattleSession } from '../core/sim/fleet-battle';
import { FleetComparisonSession, type ChangedFleet } from '../core/sim/compare';
import { simulationRun, type SimulationInput } from '../core/features/simulate';
import type { ChunkOutcome } from '../core/sim/battle';
import type { BattleResult, SimulationResult } from '../core/sim/types';
import { playBattle, type PricingBattle, type PricingTotals } from '../core/balance/battles';

/** A battle or an engagement run whole in one thread, reporting on `port`. */
export interface SessionTask {
  kind: 'battle' | 'simulate';
  battle?: BattleJob;
  simulate?: SimulationInput;
  /** Work per slice between two progress reports (the engine's operation counts). */
  sliceOps: number;
  /** With a battle: another version of its fleet, played against the same opponent on the same dice (sim/compare.ts). */
  changed?: ChangedFleet;
  port?: MessagePort;
  /**
   * A flag shared with the server's thread (a SharedArrayBuffer): once element 0 is set, the run
   * stops after its current slice and returns what it has. Cancelling this way keeps the thread
   * (ending it means starting another, a second of CPU on a machine of two cores), which the live
   * odds lens, cancelled at every edit, needs.
   */
  stop?: Int32Array;
}

/** One battle of `balance --battles` (core/balance/battles.ts), played whole. */
export interface PriceTask {
  kind: 'price';
  battle: PricingBattle;
}

export type SimTask = ChunkTask | SessionTask | PriceTask;

/** What a session task posts on its port while it runs. */
export type SimMessage = { progress: { trials: number; requested: number } } | { partial: BattleResult };

const sessions = new SessionCache();

/** Set in a background pool's threads' environment (sim-pool.ts `SimPool`'s `background`). */
export const BACKGROUND_ENV = 'FABLED_SIM_BACKGROUND';

/** How much lower a background thread's priority is (a nice value; Linux only, where a thread has its own). */
export const BACKGROUND_NICE = 10;

/**
 * A background pool's thread (the language server's: sim-pool.ts `background`) lowers its own
 * scheduling priority, so that on a machine whose cores are all busy the server's own thread,
 * which answers the editor (diagnostics, hovers), runs first. Only on Linux, where /proc names this
 * thread and setpriority takes its id; elsewhere setpriority would lower the whole process.
 */
function lowerOwnPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, Math.max(getPriority(tid), BACKGROUND_NICE));
  } catch {
    // No /proc, or not allowed: the thread keeps its priority.
  }
}
if (process.env[BACKGROUND_ENV]) lowerOwnPriority();

/** A session task's run, a slice at a time: what the worker loops over (and a server without worker threads, between turns). */
export interface SessionRunner {
  /** Runs one slice; true when the run has ended. */
  step(): boolean;
  readonly progress: { trials: number; requested: number };
  /** The figures so far, for a partial result (battles only). */
  partial?(): BattleResult;
  result(): BattleResult | SimulationResult;
}

export function sessionRunner(task: SessionTask): SessionRunner {
  const slice = Math.max(1, task.sliceOps);
  if (task.kind === 'simulate' && task.simulate) {
    const run = simulationRun(task.simulate);
    return {
      step: () => run.step(slice),
      get progress() {
        return run.progress;
      },
      result: () => run.result(),
    };
  }
  const job = task.battle!;
  // A what-if (issue 32): the fleet and another version of it, on the same dice.
  const session = task.changed
    ? new FleetComparisonSession(job, task.changed)
    : new BattleSession(job.fleets, job.options, {
        ...(job.limits ? { limits: job.limits } : {}),
        ...(job.workLimit !== undefined ? { workLimit: job.workLimit } : {}),
      });
  return {
    step: () => session.step(slice),
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

function runSession(task: SessionTask): BattleResult | SimulationResult {
  const port = task.port;
  const run = sessionRunner(task);
  let slices = 0;
  let sent = 0;
  while (!run.step()) {
    if (task.stop && Atomics.load(task.stop, 0) !== 0) break;
    port?.postMessage({ progress: run.progress } satisfies SimMessage);
    slices++;
    if (port && run.partial && run.progress.trials > 0 && partialDue(slices, sent)) {
      sent = slices;
      port.postMessage({ partial: run.partial() } satisfies SimMessage);
    }
  }
  return run.result();
}

export default function simTask(task: SimTask): ChunkOutcome | BattleResult | SimulationResult | PricingTotals {
  if (task.kind === 'price') return playBattle(task.battle);
  try {
    return task.kind === 'chunk' ? runChunkTask(task, sessions) : runSession(task);
  } finally {
    if (task.kind !== 'chunk') task.port?.close();
  }
}
