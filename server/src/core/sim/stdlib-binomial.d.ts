/**
 * Types for the one stdlib file we import. We take the factory module directly rather than the
 * package's index, because the index seeds a global Mersenne Twister from the environment when it
 * loads, and the simulator's randomness must only come from the generator it is handed.
 */
declare module '@stdlib/random-base-binomial/lib/factory.js' {
  interface BinomialOptions {
    /** A function returning uniform numbers in [0, 1). */
    prng: () => number;
  }
  function factory(options: BinomialOptions): (n: number, p: number) => number;
  export default factory;
}
