/**
 * The core's properties (./properties.ts) with a fixed seed and a bounded count, so that CI runs
 * are repeatable; `npm run fuzz` runs the same properties longer with fresh seeds.
 */
import { CORE_PROPERTIES } from './properties';

/** Runs per unit of weight: with the weights, about 700 runs in all. */
export const CI_RUNS = 60;
export const CI_SEED = 20240611;

describe('core properties (fixed seed)', function () {
  this.timeout(120_000);
  for (const p of CORE_PROPERTIES) {
    it(p.name, () => p.run({ seed: CI_SEED, numRuns: CI_RUNS * p.weight }));
  }
});
