/**
 * The server's simulations (`fabledStar/simulate`, `fabledStar/battle`), off its own thread so that
 * it always answers the editor: each runs on a worker thread (../node/sim-pool.ts), and they wait
 * in a bounded queue. At most `threads` run at a time (one per thread: the machine's cores but one,
 * at least one, so that this thread keeps a core) and `MAX_WAITING` wait. A new request that asks
 * for the same simulation as one waiting or running (the same parameters) replaces it, and when the
 * queue is full the oldest waiting request is dropped; both are answered with ServerCancelled and a
 * sentence. Cancelling a running simulation ends its thread at once, whatever trial it is in.
 *
 * A request's setup (reading the fleets, checking the options) runs here when its turn comes, not
 * when it arrives, so that a burst of requests costs this thread nothing until then; the waiting
 * requests hold only their parameters, so memory stays bounded too. Without the worker bundle (the
 * sources run without a build) the simulation runs here, a slice between turns of the event loop.
 * A queue made `apart` (the live odds lens's) runs its simulations in a background process instead
 * (../node/sim-host.ts), one at a time.
 */
import { MessageChannel } from 'node:worker_threads';
import { LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/node';
import { cores, SimPool, workerFile } from '../node/sim-pool';
import { SimHost, type Stall } from '../node/sim-host';
import { partialDue, sessionRunner, type SessionTask, type SimMessage } from '../node/sim-worker';
import { nextTurn } from './diagnostics';

/** Requests that may wait for a thread; beyond it the oldest waiting one is dropped. */
export const MAX_WAITING = 8;

/** Worker threads for the server's simulations: the machine's cores but one (at least one). */
export function serverThreads(): number {
  return Math.max(1, cores() - 1);
}

interface Job {
  key: string;
  setup: () => SessionTask;
  on: (m: SimMessage) => void;
  abort: AbortController;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  settled: boolean;
  /** Stopped within a millisecond or two of work rather than by ending its thread or process (`run`'s `softCancel`). */
  soft?: boolean;
  /** While a soft job runs: stops it (sets its flag, or tells the background process). */
  halt?: () => void;
  /** Its cancellation listener, disposed when it settles. */
  listening?: { dispose(): void };
  /** Hears when the background process running it went quiet (`apart`). */
  onStall?: (s: Stall) => void;
}

export class SimulationQueue {
  private readonly waiting: Job[] = [];
  private readonly running = new Set<Job>();
  private pool: SimPool | undefined;
  private host: SimHost | undefined;

  /**
   * `apart`: the simulations run in a background process of their own at the lowest priority
   * (../node/sim-host.ts), one at a time, not on the server's worker threads: the live odds
   * lens's, which run at most edits and must never slow the editor.
   */
  constructor(
    readonly threads = serverThreads(),
    readonly maxWaiting = MAX_WAITING,
    private readonly file: string | undefined = workerFile(),
    private readonly o: { apart?: boolean } = {},
  ) {}

  /** The background process's id while it runs (`apart`). */
  get hostPid(): number | undefined {
    return this.host?.pid;
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
  run<T>(
    key: string,
    setup: () => SessionTask,
    token: CancellationToken,
    on: (m: SimMessage) => void,
    o: { softCancel?: boolean; onStall?: (s: Stall) => void } = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      for (const j of [...this.waiting, ...this.running])
        if (j.key === key) this.drop(j, new ResponseError(LSPErrorCodes.ServerCancelled, 'A newer request for the same simulation replaced this one.'));
      if (this.waiting.length >= this.maxWaiting)
        this.drop(
          this.waiting[0]!,
          new ResponseError(LSPErrorCodes.ServerCancelled, `Too many simulations were waiting (at most ${this.maxWaiting}): the oldest was dropped.`),
        );
      const job: Job = { key, setup, on, abort: new AbortController(), resolve: resolve as (v: unknown) => void, reject, settled: false };
      // Cancelled at its next part, its thread or process kept (sim-worker.ts `SessionTask.stop`).
      if (o.softCancel) job.soft = true;
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

  /** Ends the threads (the server is shutting down). */
  async close(): Promise<void> {
    for (const j of [...this.waiting, ...this.running]) this.drop(j, new ResponseError(LSPErrorCodes.ServerCancelled, 'The server is shutting down.'));
    await this.pool?.close();
    this.pool = undefined;
    await this.host?.close();
    this.host = undefined;
  }

  private drop(job: Job, error: ResponseError<void>): void {
    if (!this.settle(job)) return;
    // A soft job that is running stops at its next part; its thread or process stays for the next one.
    if (job.soft && job.halt && this.running.has(job)) job.halt();
    else job.abort.abort(error);
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
      const result = !this.file
        ? await this.here(job, task)
        : this.o.apart
          ? await this.apart(job, task, this.file)
          : await this.onThread(job, task, this.file);
      if (this.settle(job)) job.resolve(result);
    } catch (e) {
      if (!this.settle(job)) return;
      if (e instanceof ResponseError) job.reject(e);
      else job.reject(new ResponseError(LSPErrorCodes.RequestFailed, `The simulation failed: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  private async onThread(job: Job, task: SessionTask, file: string): Promise<unknown> {
    // Below this thread's priority: on a busy machine the editor's requests come first.
    this.pool ??= new SimPool(this.threads, file, { background: true });
    const stop = job.soft ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
    if (stop) job.halt = () => Atomics.store(stop, 0, 1);
    const channel = new MessageChannel();
    channel.port1.on('message', (m: SimMessage) => {
      if (!job.settled) job.on(m);
    });
    try {
      return await this.pool.run({ ...task, port: channel.port2, ...(stop ? { stop } : {}) }, job.abort.signal, [channel.port2]);
    } finally {
      channel.port1.close();
    }
  }

  /** In the background process (`apart`). */
  private async apart(job: Job, task: SessionTask, file: string): Promise<unknown> {
    this.host ??= new SimHost(file);
    const run = this.host.run(
      task,
      (m) => {
        if (!job.settled) job.on(m);
      },
      job.abort.signal,
      (s) => {
        if (!job.settled) job.onStall?.(s);
      },
    );
    if (job.soft) job.halt = run.stop;
    return run.result;
  }

  /** Without worker threads: a slice at a time between turns of the event loop. */
  private async here(job: Job, task: SessionTask): Promise<unknown> {
    const run = sessionRunner(task);
    let slices = 0;
    let sent = 0;
    for (;;) {
      await nextTurn();
      if (job.settled) return undefined;
      if (run.step()) return run.result();
      job.on({ progress: run.progress });
      slices++;
      if (run.partial && run.progress.trials > 0 && partialDue(slices, sent)) {
        sent = slices;
        job.on({ partial: run.partial() });
      }
    }
  }
}
