/**
 * fast-check settings for a property test: a fixed seed, so that CI never fails on a random draw;
 * with FABLED_PROPERTY_RUNS=N in the environment, N runs from a fresh random seed instead (to look
 * for counterexamples while developing; fast-check prints the seed and path of any failure).
 */
export function propertySettings(numRuns: number, seed: number): { numRuns: number; seed?: number } {
  const more = Number(process.env.FABLED_PROPERTY_RUNS);
  return Number.isInteger(more) && more > 0 ? { numRuns: more } : { numRuns, seed };
}
