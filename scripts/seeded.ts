/**
 * mulberry32: a small seeded generator for what must come out the same on every run and never move
 * when product code does (the synthetic variants, the benchmark's homebrew cards, the hostile
 * corpus): the dice engine's streams (pure-rand) are the product's and may change with it.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
