/**
 * Worker threads for `balance --battles` (BATTLE.md "Points from battles"): a `PlayBattles` that
 * hands each pricing battle, as the plain data it is, to a simulation runner (core/sim/runner.ts):
 * the threads' (../node/runners.ts `poolRunner`), whose thread plays it whole. A battle plays the
 * same from its setup on any thread, so the prices do not depend on the number of threads. When
 * the worker bundle is not there (the CLI run from its sources before a build), or for one thread,
 * battles are played in process.
 */
import { createFabledService, inProcessRunner, type FabledService } from '../core/service';
import { poolRunner } from '../node/runners';
import { cores, SimPool, workerFile } from '../node/sim-pool';

/** Pricing battles played on a runner (core/balance/battles.ts `PlayBattles`). */
type PlayBattles = ReturnType<FabledService['playBattles']>;

export interface PricePool {
  play: PlayBattles;
  threads: number;
  close(): Promise<void>;
}

/** A pool of `threads` workers (default: the machine's cores); in process when there is no worker bundle or one thread. */
export function pricePool(threads = cores(), file = workerFile()): PricePool {
  if (!file || threads <= 1) return { play: createFabledService({ runner: inProcessRunner() }).playBattles('request'), threads: 1, close: async () => {} };
  const runner = poolRunner(new SimPool(threads, file, { eager: true }));
  return { threads, play: createFabledService({ runner }).playBattles('request'), close: () => runner.close() };
}
