/**
 * A battle's or an engagement's run a slice at a time, as ../node/sim-worker.ts `sessionRunner`
 * makes it for a worker thread: the same core sessions on the same seeds, so a battle in the
 * browser gives the desktop's and the CLI's figures. Kept apart from that module because it
 * imports Node (threads, /proc, process priorities) at its top; the two are one function to merge.
 */
import { BattleSession } from '../core/sim/fleet-battle';
import { FleetComparisonSession } from '../core/sim/compare';
import { simulationRun } from '../core/features/simulate';
import type { BattleResult, SimulationResult } from '../core/sim/types';
import type { SessionTask, SimMessage } from '../node/sim-worker';

export interface SessionRunner {
  step(ops?: number): boolean;
  readonly progress: { trials: number; requested: number };
  partial?(): BattleResult;
  result(): BattleResult | SimulationResult;
}

export function sessionRunner(task: SessionTask): SessionRunner {
  const slice = Math.max(1, task.sliceOps);
  if (task.kind === 'simulate' && task.simulate) {
    const run = simulationRun(task.simulate);
    return {
      step: (ops = slice) => run.step(ops),
      get progress() {
        return run.progress;
      },
      result: () => run.result(),
    };
  }
  const job = task.battle!;
  const session = task.changed
    ? new FleetComparisonSession(job, task.changed)
    : new BattleSession(job.fleets, job.options, {
        ...(job.limits ? { limits: job.limits } : {}),
        ...(job.workLimit !== undefined ? { workLimit: job.workLimit } : {}),
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

/** Whether to send a partial result after slice `slices` (the last one after slice `sent`): as the desktop's. */
export function partialDue(slices: number, sent: number): boolean {
  return slices === 1 || slices >= sent * 2 + 4;
}

/**
 * Runs a task whole, posting its progress once a slice and its partial results when due; `turn`
 * (when given) is awaited between slices, so that a run on the server's own thread lets requests in.
 */
export async function runSession(
  task: SessionTask,
  post: (m: SimMessage) => void,
  turn?: () => Promise<boolean>,
): Promise<BattleResult | SimulationResult | undefined> {
  const run = sessionRunner(task);
  let slices = 0;
  let sent = 0;
  for (;;) {
    if (turn && !(await turn())) return undefined;
    if (run.step()) return run.result();
    post({ progress: run.progress });
    slices++;
    if (run.partial && run.progress.trials > 0 && partialDue(slices, sent)) {
      sent = slices;
      post({ partial: run.partial() });
    }
  }
}
