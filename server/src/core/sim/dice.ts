/**
 * The d10 as the simulator sees it: exact per-die probabilities derived from the rules pack's dice
 * figures, exact binomial distributions, and a seeded roller for the sampling paths.
 *
 * Pure: randomness only ever comes from the pure-rand generator handed in.
 */
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import binomialFactory from '@stdlib/random-base-binomial/lib/factory.js';
import { DICE } from '../rules/data';

export type { RandomGenerator, JumpableRandomGenerator };

// Read once: module imports are live bindings (getters under some loaders), and these sit in the
// innermost loop of every sampled die.
const SIDES = DICE.sides;
const AUTO_FAIL = DICE.autoFailAtOrBelow;
const CRITICAL = DICE.critical;
const BEST = DICE.bestTarget;
const float64 = uniformFloat64;
const intBetween = uniformInt;

/** No modifier makes a target number better than the rules' best (3+). */
export function clampTarget(target: number): number {
  return Math.max(target, BEST);
}

/**
 * Whether one natural roll succeeds against a target number (dodge, armour, leadership, shield
 * recharge): low naturals always fail, a natural 10 always succeeds, anything else must reach the
 * target, which is never better than 3+. A target above 10 therefore leaves only the 10.
 */
export function rollSucceeds(roll: number, target: number): boolean {
  if (roll <= AUTO_FAIL) return false;
  if (roll >= CRITICAL) return true;
  return roll >= clampTarget(target);
}

/** P(one d10 succeeds against `target`), by counting faces so that it follows the figures above. */
export function pSuccess(target: number): number {
  let n = 0;
  for (let r = 1; r <= SIDES; r++) if (rollSucceeds(r, target)) n++;
  return n / SIDES;
}

/** Whether a natural roll is a Critical Hit. */
export function isCritical(roll: number): boolean {
  return roll >= CRITICAL;
}

/** Per-die chances of an attack roll: a natural 10 is a Critical Hit, other successes are normal hits. */
export function hitChances(target: number): { crit: number; normal: number } {
  let crit = 0;
  let normal = 0;
  for (let r = 1; r <= SIDES; r++) {
    if (!rollSucceeds(r, target)) continue;
    if (r >= CRITICAL) crit++;
    else normal++;
  }
  return { crit: crit / SIDES, normal: normal / SIDES };
}

/**
 * The binomial distribution Bin(n, p) as a vector of n + 1 probabilities. Written by hand because
 * we need the whole vector in one pass (a per-point pmf library call would be O(n) each): start at
 * the mode with weight 1, walk outwards with the ratio pmf(k+1)/pmf(k), then normalise. This never
 * underflows at the mode, and the tails that do underflow are below 1e-300.
 */
export function binomialPmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  if (n === 0 || p <= 0) {
    out[0] = 1;
    return out;
  }
  if (p >= 1) {
    out[n] = 1;
    return out;
  }
  const q = 1 - p;
  const mode = Math.min(n, Math.floor((n + 1) * p));
  out[mode] = 1;
  const up = p / q;
  for (let k = mode; k < n; k++) out[k + 1] = (out[k]! * (n - k) * up) / (k + 1);
  const down = q / p;
  for (let k = mode; k > 0; k--) out[k - 1] = (out[k]! * k * down) / (n - k + 1);
  let sum = 0;
  for (let k = 0; k <= n; k++) sum += out[k]!;
  for (let k = 0; k <= n; k++) out[k]! /= sum;
  return out;
}

/** Discrete convolution of two probability vectors (the distribution of a sum of independent counts). */
export function convolve(a: Float64Array, b: Float64Array): Float64Array {
  if (a.length === 1) return a[0] === 1 ? b : b.map((x) => x * a[0]!);
  if (b.length === 1) return b[0] === 1 ? a : a.map((x) => x * b[0]!);
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i]!;
    if (ai === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j]! += ai * b[j]!;
  }
  return out;
}

/** Creates the project's generator: xoroshiro128+ from pure-rand, seeded with a 32-bit integer. */
export function makeRng(seed: number): RandomGenerator {
  return xoroshiro128plus(seed >>> 0);
}

/** The generator again from its state (`getState()`), as a worker thread receives it. */
export function rngFromState(state: readonly number[]): RandomGenerator {
  return xoroshiro128plusFromState(state);
}

/** The project's generator seeded with `seed` and jumped `jumps` times (2^64 draws each): trial `jumps`'s stream. */
export function jumpedRng(seed: number, jumps: number): JumpableRandomGenerator {
  const g = xoroshiro128plus(seed >>> 0);
  for (let i = 0; i < jumps; i++) g.jump();
  return g;
}

/** A 128x128 matrix over GF(2) on the generator's four 32-bit words of state: column j, four words a column. */
export type BitMatrix = Int32Array;

/** `m` applied to the state `v` (4 words): the XOR of the columns of v's set bits. */
function applyBits(m: BitMatrix, v: ArrayLike<number>): number[] {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let w = 0; w < 4; w++) {
    const word = v[w]! | 0;
    for (let bit = 0; bit < 32; bit++) {
      if ((word & (1 << bit)) === 0) continue;
      const at = (w * 32 + bit) * 4;
      a ^= m[at]!;
      b ^= m[at + 1]!;
      c ^= m[at + 2]!;
      d ^= m[at + 3]!;
    }
  }
  return [a, b, c, d];
}

/** The product a·b (b first, then a). */
function multiplyBits(a: BitMatrix, b: BitMatrix): BitMatrix {
  const out = new Int32Array(128 * 4);
  for (let j = 0; j < 128; j++) out.set(applyBits(a, b.subarray(j * 4, j * 4 + 4)), j * 4);
  return out;
}

/**
 * `n` jumps of the generator as one bit matrix, for `jumpState`. A chunk of a battle's trials starts
 * at the seed's state jumped k * CHUNK_TRIALS times (chunked.ts), which took 1,000 jumps of 128
 * generator steps each per chunk, on the thread that hands the chunks out. A jump is linear over
 * GF(2) on the generator's 128 bits of state (every step of xoroshiro128+ is shifts and XORs, and a
 * jump XORs states together), so n jumps are one 128x128 bit matrix, made by squaring the matrix
 * of one jump, which is read off pure-rand's own jump applied to each of the 128 one-bit states
 * (about 2 ms, once a run of more than one chunk). pure-rand offers the single jump only; a test
 * holds this to n single jumps.
 */
export function jumpMatrix(n: number): BitMatrix {
  const one = new Int32Array(128 * 4);
  for (let j = 0; j < 128; j++) {
    const unit = [0, 0, 0, 0];
    unit[j >> 5] = 1 << (j & 31);
    const g = xoroshiro128plusFromState(unit);
    g.jump();
    one.set(g.getState(), j * 4);
  }
  // J^n by squaring: base is J^(2^i) at bit i of n.
  let power: BitMatrix | undefined;
  let base: BitMatrix = one;
  for (let k = n; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) power = power ? multiplyBits(base, power) : base;
    if (k > 1) base = multiplyBits(base, base);
  }
  return power ?? identityBits();
}

/** The generator's state (`getState()`) jumped as many times as `jumps` holds (`jumpMatrix`): 128 word tests and XORs. */
export function jumpState(state: readonly number[], jumps: BitMatrix): number[] {
  return applyBits(jumps, state);
}

function identityBits(): BitMatrix {
  const id = new Int32Array(128 * 4);
  for (let j = 0; j < 128; j++) id[j * 4 + (j >> 5)] = 1 << (j & 31);
  return id;
}

/**
 * A seeded roller over a pure-rand generator (advanced in place; callers that need the original
 * state clone it first). Binomial draws for large counts come from stdlib's binomial sampler, fed
 * by the same generator, so that a sampled volley of a million attacks costs a handful of draws.
 */
export class Dice {
  private readonly binomial: (n: number, p: number) => number;
  /** Numbers drawn so far (uniforms, d10s and the binomial sampler's uniforms): the benchmark's floor counts these. */
  draws = 0;
  /**
   * The d10s a player would roll at the table beyond the numbers drawn: an exact Fire action is one
   * draw standing for every attack, dodge and armour die of the volley (their expected count), and
   * Initiative one draw for both sides' LD dice. Counted for the benchmark's tabletop floor.
   */
  tabletop = 0;

  /** The generator the rolls come from; a run may hand each trial a stream of its own. */
  constructor(public rng: RandomGenerator) {
    this.binomial = binomialFactory({
      prng: () => {
        this.draws++;
        return float64(this.rng);
      },
    });
  }

  /** A uniform number in [0, 1). */
  uniform(): number {
    this.draws++;
    return float64(this.rng);
  }

  /** One natural d10 roll. */
  d10(): number {
    this.draws++;
    return intBetween(this.rng, 1, SIDES);
  }

  /** How many of `n` independent trials of chance `p` succeed. */
  count(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0;
    if (p >= 1) return n;
    return this.binomial(n, p);
  }
}
