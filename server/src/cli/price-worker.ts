/**
 * What a `balance --battles` worker thread runs (bundled as dist/price-worker.js, see
 * ./price-pool.ts): each message is one pricing battle, answered with its totals.
 */
import { parentPort } from 'node:worker_threads';
import { playBattle, type PricingBattle } from '../core/balance/battles';

parentPort?.on('message', (battle: PricingBattle) => {
  try {
    parentPort!.postMessage({ totals: playBattle(battle) });
  } catch (e) {
    parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});
