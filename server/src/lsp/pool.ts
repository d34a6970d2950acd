/**
 * The server's simulations (`fabledStar/simulate`, `fabledStar/battle`, the live odds lens), run by
 * the server's runner (../node/runners.ts `serverRunner`: worker threads, or the background process
 * for the lens's), never on this thread; they wait in a bounded queue. At most `threads` run at a
 * time and `MAX_WAITING` wait. A new request that asks for the same simulation as one waiting or
 * running (the same parameters) replaces it, and when the queue is full the oldest waiting request
 * is dropped; both are answered with ServerCancelled and a sentence. Cancelling a running
 * simulation ends its thread at once, whatever trial it is in; a `background` queue's (the lens's)
 * stops at its next part instead, its process kept.
 *
 * A request's setup (reading the fleets, checking the options) runs here when its turn comes, not
 * when it arrives, so that a burst of requests costs this thread nothing until then; the waiting
 * requests hold only their parameters, so memory stays bounded too.
 */
import { LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/node';
import { FabledService, SimCancelled, type SimMessage, type SimPriority, type SimTask } from '../core/service';
import type { ServerRunner } from '../node/runners';
import type { Stall } from '../node/sim-host';
import { nextTurn } from './diagnostics';

/** A battle or a duel run whole, reporting as it goes (core/sim/runner.ts). */
type SessionTask = Extract<SimTask, { sliceOps: number }>;

/** Requests that may wait for a thread; beyond it the oldest waiting one is dropped. */
export const MAX_WAITING = 8;

interface Job {
  key: string;
  setup: () => SessionTask;
  on: (m: SimMessage) => void;
  abort: AbortController;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  settled: boolean;
  /** Its cancellation listener, disposed when it settles. */
  listening?: { dispose(): void };
  /** Hears when the background process running it went quiet (`apart`). */
  onStall?: (s: Stall) => void;
}

export class SimulationQueue {
  private readonly waiting: Job[] = [];
  private readonly running = new Set<Job>();

  /**
   * `threads`: at most this many at a time (default: the runner's threads, read as each waiting
   * simulation starts, so that `fabledStar.simulation.threads` changed takes effect). `priority`:
   * the runner's (`background`: the live odds lens's, in the background process, one at a time).
   */
  constructor(
    private readonly runner: ServerRunner,
    private readonly fixedThreads?: number,
    readonly maxWaiting = MAX_WAITING,
    private readonly priority: SimPriority = 'request',
  ) {}

  /** At most this many run at a time. */
  get threads(): number {
    return this.fixedThreads ?? this.runner.threads;
  }

  /** Simulations waiting and running. */
  get size(): { waiting: number; running: number } {
    return { waiting: this.waiting.length, running: this.running.size };
  }

  /**
   * Runs the simulation `setup` makes, when a thread is free: `key` says which simulation it is
   * (a newer request with the same key replaces this one), `on` hears its progress and partial
   * results. Rejects with RequestCancelled when `token` cancels it, ServerCancelled when it was
   * replaced or dropped, and with what `setup` throws. `onStall` (`apart`): the background process
   * went quiet, and waits for a core or was restarted (../node/sim-host.ts).
   */
  run<T>(key: string, setup: () => SessionTask, token: CancellationToken, on: (m: SimMessage) => void, o: { onStall?: (s: Stall) => void } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      for (const j of [...this.waiting, ...this.running])
        if (j.key === key) this.drop(j, new ResponseError(LSPErrorCodes.ServerCancelled, 'A newer request for the same simulation replaced this one.'));
      if (this.waiting.length >= this.maxWaiting)
        this.drop(
          this.waiting[0]!,
          new ResponseError(LSPErrorCodes.ServerCancelled, `Too many simulations were waiting (at most ${this.maxWaiting}): the oldest was dropped.`),
        );
      const job: Job = { key, setup, on, abort: new AbortController(), resolve: resolve as (v: unknown) => void, reject, settled: false };
      if (o.onStall) job.onStall = o.onStall;
      this.waiting.push(job);
      // The error is made only for a job still unsettled: making one (its stack trace) took a
      // tenth of a millisecond, and the live lens cancels its finished run at every keystroke,
      // before that keystroke's diagnostics.
      const cancel = () => {
        if (!job.settled) this.drop(job, new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled'));
      };
      job.listening = token.onCancellationRequested(cancel);
      if (token.isCancellationRequested) cancel();
      this.pump();
    });
  }

  /** Drops every simulation (the server is shutting down; its runner is closed by its owner). */
  close(): void {
    for (const j of [...this.waiting, ...this.running]) this.drop(j, new ResponseError(LSPErrorCodes.ServerCancelled, 'The server is shutting down.'));
  }

  private drop(job: Job, error: ResponseError<void>): void {
    if (!this.settle(job)) return;
    job.abort.abort(error);
    const i = this.waiting.indexOf(job);
    if (i >= 0) this.waiting.splice(i, 1);
    job.reject(error);
  }

  /** Marks a job settled (false if it already was) and stops listening for its cancellation. */
  private settle(job: Job): boolean {
    if (job.settled) return false;
    job.settled = true;
    job.listening?.dispose();
    return true;
  }

  private pump(): void {
    while (this.running.size < this.threads && this.waiting.length) {
      const job = this.waiting.shift()!;
      this.running.add(job);
      void this.start(job).finally(() => {
        this.running.delete(job);
        this.pump();
      });
    }
  }

  private async start(job: Job): Promise<void> {
    try {
      // Other requests that arrived with this one go first.
      await nextTurn();
      if (job.settled) return;
      const task = job.setup();
      if (job.settled) return;
      const token = FabledService.tokenOf(job.abort.signal);
      const heard = (m: SimMessage) => !job.settled && job.on(m);
      const stalled = (st: Stall) => !job.settled && job.onStall?.(st);
      const result = await this.runner.run(task, this.priority, heard, token, stalled);
      if (this.settle(job)) job.resolve(result);
    } catch (e) {
      if (!this.settle(job)) return;
      if (e instanceof SimCancelled) job.reject(new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled'));
      else if (e instanceof ResponseError) job.reject(e);
      else job.reject(new ResponseError(LSPErrorCodes.RequestFailed, `The simulation failed: ${e instanceof Error ? e.message : String(e)}`));
    }
  }
}
