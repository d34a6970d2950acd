/**
 * The worker threads simulations run on (tinypool: a small, well-kept pool with no dependencies of
 * its own), for the CLI's `battle --threads N` and for the language server, whose own thread must
 * stay free to answer the editor. Each thread loads dist/sim-thread.js, which requires
 * dist/sim-worker.js (./sim-worker.ts; esbuild.mjs says why the two); a task
 * cancelled while it runs ends its thread, which stops the trial wherever it is, and the pool starts
 * another when one is next needed. Each thread's heap is capped (`HEAP_MB`): a simulation that
 * would need more fails with an error instead of taking the machine's memory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { availableParallelism } from 'node:os';
import type { Transferable } from 'node:worker_threads';
import { Tinypool } from 'tinypool';
import { ChunksDropped, type SimOutput, type SimTask as CoreTask } from '../core/service';
import { BACKGROUND_ENV, CHUNK_LOG_ENV, loggedChunk, type SimTask } from './sim-worker';

export { CHUNK_LOG_ENV, loggedChunk };

/** A chunk of a battle's trials, what it gives, and a way to have chunks played (core/sim/chunked.ts). */
type ChunkTask = Extract<CoreTask, { kind: 'chunk' }>;
type ChunkOutcome = SimOutput<ChunkTask>;
type ChunkExecutor = (task: ChunkTask, signal?: AbortSignal) => Promise<ChunkOutcome>;

/** The old-generation heap of one simulation thread, in MB. */
export const HEAP_MB = 512;

/**
 * The young generation of a thread that plays a battle's chunks (`battle --threads`), in MB. A
 * trial allocates short-lived objects and each chunk keeps thousands of new kernels: with V8's
 * default (semi-spaces of 16 MB at most) the first chunks of a battle spent about a sixth of their
 * time in scavenges, half that with this. The server's threads keep V8's default (memory first).
 */
export const CHUNK_YOUNG_MB = 96;

/** The machine's cores (what `--threads` defaults to). */
export function cores(): number {
  return Math.max(1, availableParallelism());
}

/**
 * The worker bundle: beside this bundle (dist/, as shipped), or in the repository's dist/ when this
 * runs from the sources (the tests, after a build). Undefined when neither exists.
 */
export function workerFile(): string | undefined {
  const candidates = [path.join(__dirname, 'sim-thread.js'), path.join(__dirname, '..', '..', '..', 'dist', 'sim-thread.js')];
  return candidates.find((f) => fs.existsSync(f));
}

/**
 * A signal for a chunk on a thread that follows `signal` only when the battle was cancelled: a
 * chunk the battle no longer needs (`ChunksDropped`: it stopped when sure, or fell back to dice)
 * plays to its end unheard, and its thread, warm, stays for the next chunk or battle.
 */
function cancelOnly(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  const hard = new AbortController();
  const follow = () => {
    if (!(signal.reason instanceof ChunksDropped)) hard.abort(signal.reason);
  };
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  return hard.signal;
}

export class SimPool {
  private readonly pool: Tinypool;

  /** The tasks each thread holds at a time (see `executor`). */
  readonly tasksPerThread: number;

  /**
   * `threads` at most at a time; `eager` starts them all at once (a CLI run), else as they are
   * needed (a server). `tasksPerThread`: tasks a thread holds at a time, those past the first
   * waiting in it (default 1). `youngMb`: the young generation of each thread (V8's default when not given).
   * `background`: the threads run at a lower priority than the thread that made the pool (a
   * server's, which must answer the editor first; see sim-worker.ts `BACKGROUND_NICE`).
   */
  constructor(
    readonly threads: number,
    file: string,
    o: { eager?: boolean; idleMs?: number; youngMb?: number; background?: boolean; tasksPerThread?: number } = {},
  ) {
    this.tasksPerThread = Math.max(1, o.tasksPerThread ?? 1);
    this.pool = new Tinypool({
      concurrentTasksPerWorker: this.tasksPerThread,
      filename: file,
      minThreads: o.eager ? threads : 0,
      maxThreads: threads,
      idleTimeout: o.idleMs ?? 30_000,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, ...(o.youngMb ? { maxYoungGenerationSizeMb: o.youngMb } : {}) },
      ...(o.background ? { env: { ...process.env, [BACKGROUND_ENV]: '1' } } : {}),
    });
  }

  /** Runs a task on a thread (queued until one is free); rejects when `signal` aborts it. */
  run<T>(task: SimTask, signal?: AbortSignal, transferList?: Transferable[]): Promise<T> {
    return this.pool.run(task, { ...(signal ? { signal } : {}), ...(transferList ? { transferList: transferList as never } : {}) }) as Promise<T>;
  }

  /**
   * Chunks of a battle's trials on this pool's threads (core/sim/chunked.ts), each thread taking
   * the next chunk as soon as it is done with one. The chunks wait here rather than in the pool, so
   * that only those running hold a listener on the battle's signal.
   *
   * With `here` (a CLI run: `battle --threads N` is this thread and N - 1 workers), this thread
   * plays chunks too, the first one at once: a worker is still starting when the battle is ready,
   * and each thread pays a cold first chunk (V8's tier-up, the exact kernels), so one worker fewer
   * is one such cost fewer. While this thread plays a chunk it cannot hand out the next, so each
   * worker then holds two (the next one waits in its thread, not here) and this thread plays its
   * chunks a turn of the event loop apart, hearing in between what the workers have finished.
   */
  executor(here?: (task: ChunkTask) => ChunkOutcome): ChunkExecutor {
    type Job = { task: ChunkTask; signal?: AbortSignal; resolve: (r: ChunkOutcome) => void; reject: (e: unknown) => void };
    const queue: Job[] = [];
    let busy = 0;
    let hereBusy = false;
    const depth = this.tasksPerThread;
    const next = (): Job | undefined => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        if (!job.signal?.aborted) return job;
        job.reject(job.signal.reason);
      }
      return undefined;
    };
    const pump = () => {
      if (here && !hereBusy) {
        const job = next();
        if (job) {
          hereBusy = true;
          setImmediate(() => {
            try {
              if (job.signal?.aborted) job.reject(job.signal.reason);
              else job.resolve(here(job.task));
            } catch (e) {
              job.reject(e);
            } finally {
              hereBusy = false;
              pump();
            }
          });
        }
      }
      while (queue.length && busy < this.threads * depth) {
        const job = next();
        if (!job) break;
        busy++;
        // A thread holding two chunks cannot be cancelled (tinypool ends a thread to cancel its
        // task, which would end the other chunk too): each is then played to its end once handed
        // out, a chunk past a cut or a fallback dropped unheard (the pool is closed with the battle).
        void this.run<ChunkOutcome>(job.task, depth > 1 ? undefined : cancelOnly(job.signal))
          .then(job.resolve, job.reject)
          .finally(() => {
            busy--;
            pump();
          });
      }
    };
    return (task, signal) =>
      new Promise<ChunkOutcome>((resolve, reject) => {
        queue.push({ task, ...(signal ? { signal } : {}), resolve, reject });
        pump();
      });
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
