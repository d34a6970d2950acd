/**
 * The worker threads simulations run on (tinypool: a small, well-kept pool with no dependencies of
 * its own), for the CLI's `battle --threads N` and for the language server, whose own thread must
 * stay free to answer the editor. Each thread loads dist/sim-worker.js (./sim-worker.ts); a task
 * cancelled while it runs ends its thread, which stops the trial wherever it is, and the pool starts
 * another when one is next needed. Each thread's heap is capped (`HEAP_MB`): a simulation that
 * would need more fails with an error instead of taking the machine's memory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { availableParallelism } from 'node:os';
import type { Transferable } from 'node:worker_threads';
import { Tinypool } from 'tinypool';
import type { ChunkExecutor } from '../core/sim/chunked';
import type { ChunkOutcome } from '../core/sim/battle';
import type { SimTask } from './sim-worker';

/** The old-generation heap of one simulation thread, in MB. */
export const HEAP_MB = 512;

/** The machine's cores (what `--threads` defaults to). */
export function cores(): number {
  return Math.max(1, availableParallelism());
}

/**
 * The worker bundle: beside this bundle (dist/, as shipped), or in the repository's dist/ when this
 * runs from the sources (the tests, after a build). Undefined when neither exists.
 */
export function workerFile(): string | undefined {
  const candidates = [path.join(__dirname, 'sim-worker.js'), path.join(__dirname, '..', '..', '..', 'dist', 'sim-worker.js')];
  return candidates.find((f) => fs.existsSync(f));
}

export class SimPool {
  private readonly pool: Tinypool;

  /** `threads` at most at a time; `eager` starts them all at once (a CLI run), else as they are needed (a server). */
  constructor(
    readonly threads: number,
    file: string,
    o: { eager?: boolean; idleMs?: number } = {},
  ) {
    this.pool = new Tinypool({
      filename: file,
      minThreads: o.eager ? threads : 0,
      maxThreads: threads,
      idleTimeout: o.idleMs ?? 30_000,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
  }

  /** Runs a task on a thread (queued until one is free); rejects when `signal` aborts it. */
  run<T>(task: SimTask, signal?: AbortSignal, transferList?: Transferable[]): Promise<T> {
    return this.pool.run(task, { ...(signal ? { signal } : {}), ...(transferList ? { transferList: transferList as never } : {}) }) as Promise<T>;
  }

  /** Chunks of a battle's trials on this pool's threads (core/sim/chunked.ts). */
  executor(): ChunkExecutor {
    return (task, signal) => this.run<ChunkOutcome>(task, signal);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
