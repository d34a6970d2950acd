/**
 * Worker threads for `balance --battles` (BATTLE.md "Points from battles"): a `PlayBattles` that
 * sends each pricing battle, as the plain data it is, to the simulations' pool (tinypool,
 * ../node/sim-pool.ts), whose thread plays it whole (a `price` task of ../node/sim-worker.ts). A
 * battle plays the same from its setup on any thread, so the prices do not depend on the number of
 * threads. When the worker bundle is not there (the CLI run from its sources before a build), or
 * for one thread, battles are played in process.
 */
import { playInProcess, type PlayBattles, type PricingTotals } from '../core/service';
import { cores, SimPool, workerFile } from '../node/sim-pool';

export interface PricePool {
  play: PlayBattles;
  threads: number;
  close(): Promise<void>;
}

/** A pool of `threads` workers (default: the machine's cores); in process when there is no worker bundle or one thread. */
export function pricePool(threads = cores(), file = workerFile()): PricePool {
  if (!file || threads <= 1) return { play: playInProcess(), threads: 1, close: async () => {} };
  const pool = new SimPool(threads, file, { eager: true });
  return {
    threads,
    play: (battles) => Promise.all(battles.map((battle) => pool.run<PricingTotals>({ kind: 'price', battle }))),
    close: () => pool.close(),
  };
}
