/**
 * The browser version's simulations queue, in place of ../lsp/pool.ts (the web build swaps one for
 * the other: esbuild.mjs `webSwaps`), with its exports and behaviour: a bounded queue, a newer
 * request for the same simulation replaces the older, cancelling ends the run at once. Each run
 * goes to a web worker (dist/web/sim-worker.js, fetched beside this bundle) holding no shared
 * memory (a page without cross-origin isolation has no SharedArrayBuffer): a cancelled run ends
 * its worker. Where no worker can be started, the run takes slices of this thread between turns.
 */
import { LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/browser';
import type { SessionTask, SimMessage } from '../node/sim-worker';
import { nextTurn } from '../lsp/diagnostics';
import { runSession } from './session';

export const MAX_WAITING = 8;

/** Workers for the simulations: the browser's cores but one (at least one, at most four). */
export function serverThreads(): number {
  const n = typeof navigator !== 'undefined' && typeof navigator.hardwareConcurrency === 'number' ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, n - 1));
}

/** Where the simulation worker is: beside this bundle (a worker's `location` is its script's URL). */
export function simWorkerUrl(): string | undefined {
  try {
    return new URL('sim-worker.js', (self as unknown as { location: { href: string } }).location.href).href;
  } catch {
    return undefined;
  }
}

interface Job {
  key: string;
  setup: () => SessionTask;
  on: (m: SimMessage) => void;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  settled: boolean;
  /** Ends the run (its worker) while it runs. */
  halt?: () => void;
  listening?: { dispose(): void };
}

type Reply = { m: SimMessage } | { result: unknown } | { error: string };

export class SimulationQueue {
  private readonly waiting: Job[] = [];
  private readonly running = new Set<Job>();
  /** Workers free for the next run. */
  private readonly idle: Worker[] = [];
  /** Set once a worker could not be started: runs take this thread's slices from then on. */
  private noWorkers = false;

  constructor(
    readonly threads = serverThreads(),
    readonly maxWaiting = MAX_WAITING,
    private readonly file: string | undefined = simWorkerUrl(),
    _o: { apart?: boolean } = {},
  ) {}

  get size(): { waiting: number; running: number } {
    return { waiting: this.waiting.length, running: this.running.size };
  }

  run<T>(key: string, setup: () => SessionTask, token: CancellationToken, on: (m: SimMessage) => void, _o: { softCancel?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      for (const j of [...this.waiting, ...this.running])
        if (j.key === key) this.drop(j, new ResponseError(LSPErrorCodes.ServerCancelled, 'A newer request for the same simulation replaced this one.'));
      if (this.waiting.length >= this.maxWaiting)
        this.drop(
          this.waiting[0]!,
          new ResponseError(LSPErrorCodes.ServerCancelled, `Too many simulations were waiting (at most ${this.maxWaiting}): the oldest was dropped.`),
        );
      const job: Job = { key, setup, on, resolve: resolve as (v: unknown) => void, reject, settled: false };
      this.waiting.push(job);
      const cancel = () => {
        if (!job.settled) this.drop(job, new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled'));
      };
      job.listening = token.onCancellationRequested(cancel);
      if (token.isCancellationRequested) cancel();
      this.pump();
    });
  }

  async close(): Promise<void> {
    for (const j of [...this.waiting, ...this.running]) this.drop(j, new ResponseError(LSPErrorCodes.ServerCancelled, 'The server is shutting down.'));
    for (const w of this.idle.splice(0)) w.terminate();
  }

  private drop(job: Job, error: ResponseError<void>): void {
    if (!this.settle(job)) return;
    job.halt?.();
    const i = this.waiting.indexOf(job);
    if (i >= 0) this.waiting.splice(i, 1);
    job.reject(error);
  }

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
      await nextTurn();
      if (job.settled) return;
      const task = job.setup();
      if (job.settled) return;
      const worker = this.worker();
      const result = worker ? await this.onWorker(job, task, worker) : await this.here(job, task);
      if (this.settle(job)) job.resolve(result);
    } catch (e) {
      if (!this.settle(job)) return;
      if (e instanceof ResponseError) job.reject(e);
      else job.reject(new ResponseError(LSPErrorCodes.RequestFailed, `The simulation failed: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  /** An idle worker, or a new one; undefined when none can be started here. */
  private worker(): Worker | undefined {
    const free = this.idle.pop();
    if (free) return free;
    if (this.noWorkers || !this.file || typeof Worker !== 'function') return undefined;
    try {
      return new Worker(this.file);
    } catch {
      this.noWorkers = true;
      return undefined;
    }
  }

  private onWorker(job: Job, task: SessionTask, worker: Worker): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (keep: boolean) => {
        done = true;
        worker.onmessage = null;
        worker.onerror = null;
        if (keep) this.idle.push(worker);
        else worker.terminate();
      };
      job.halt = () => {
        if (done) return;
        finish(false);
        resolve(undefined);
      };
      worker.onmessage = (e: MessageEvent<Reply>) => {
        const r = e.data;
        if ('m' in r) {
          if (!job.settled) job.on(r.m);
        } else if ('result' in r) {
          finish(true);
          resolve(r.result);
        } else {
          finish(true);
          reject(new Error(r.error));
        }
      };
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault?.();
        finish(false);
        // A worker that cannot load (a file missing, a page refusing workers): run here from now on.
        this.noWorkers = true;
        this.here(job, task).then(resolve, reject);
      };
      worker.postMessage({ task });
    });
  }

  /** Without a worker: a slice at a time between turns of this thread's event loop. */
  private async here(job: Job, task: SessionTask): Promise<unknown> {
    return runSession(
      task,
      (m) => job.on(m),
      async () => {
        await nextTurn();
        return !job.settled;
      },
    );
  }
}
