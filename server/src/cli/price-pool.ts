/**
 * Worker threads for `balance --battles` (BATTLE.md "Points from battles"): a `PlayBattles` that
 * sends each battle, as the plain data it is, to the next free thread, which plays it whole
 * (./price-worker.ts, bundled as dist/price-worker.js). A battle plays the same from its setup on
 * any thread, so the prices do not depend on the number of threads. When the worker bundle is not
 * there (the CLI run from its sources), battles are played in process.
 *
 * When the simulation pool of issue 27 (server/src/node/sim-pool.ts) lands, this can become a task
 * kind of that pool; the pricing only needs a `PlayBattles`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { playInProcess, type PlayBattles, type PricingBattle, type PricingTotals } from '../core/balance/battles';

/** The worker bundle beside this bundle (dist/), or in the repository's dist/ when run from the sources. */
export function priceWorkerFile(): string | undefined {
  const candidates = [path.join(__dirname, 'price-worker.js'), path.join(__dirname, '..', '..', '..', 'dist', 'price-worker.js')];
  return candidates.find((f) => fs.existsSync(f));
}

export interface PricePool {
  play: PlayBattles;
  threads: number;
  close(): Promise<void>;
}

interface Job {
  battle: PricingBattle;
  resolve: (t: PricingTotals) => void;
  reject: (e: unknown) => void;
}

/** A pool of `threads` workers (default: the machine's cores); in process when there is no worker bundle or one thread. */
export function pricePool(threads = Math.max(1, availableParallelism()), file = priceWorkerFile()): PricePool {
  if (!file || threads <= 1) return { play: playInProcess(), threads: 1, close: async () => {} };
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const workers: Worker[] = [];
  const pump = () => {
    while (queue.length && idle.length) {
      const w = idle.pop()!;
      const job = queue.shift()!;
      busy.set(w, job);
      w.postMessage(job.battle);
    }
  };
  for (let i = 0; i < threads; i++) {
    const w = new Worker(file);
    w.on('message', (m: { totals?: PricingTotals; error?: string }) => {
      const job = busy.get(w);
      busy.delete(w);
      idle.push(w);
      if (job) {
        if (m.totals) job.resolve(m.totals);
        else job.reject(new Error(m.error ?? 'a pricing battle failed'));
      }
      pump();
    });
    w.on('error', (e) => {
      // A thread that fails is a bug, not bad input: fail what is waiting rather than wait forever.
      const job = busy.get(w);
      busy.delete(w);
      job?.reject(e);
      for (const j of queue.splice(0)) j.reject(e);
    });
    workers.push(w);
    idle.push(w);
  }
  return {
    threads,
    play: (battles) =>
      Promise.all(
        battles.map(
          (battle) =>
            new Promise<PricingTotals>((resolve, reject) => {
              queue.push({ battle, resolve, reject });
              pump();
            }),
        ),
      ),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
