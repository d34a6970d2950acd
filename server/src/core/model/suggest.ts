/**
 * "Did you mean": the candidates closest to a word that names nothing, with bounded work.
 *
 * Edit distance costs the product of the two lengths, and a fleet check asks for it once per unknown
 * entry against every card: 500 unknown 900-character names against 2,000 cards of 900-character
 * names is 8 × 10¹¹ steps. Three bounds keep it small whatever the files hold:
 *
 * - only the first `SUGGEST_LIMITS.chars` characters of each name are compared (a typo is a few
 *   characters; two names that share 48 characters are close anyway);
 * - cheap lower bounds of the distance (the difference in length, then in letter counts) drop a
 *   candidate before any distance is computed, and the distance itself is computed only inside the
 *   band that can still be close enough, stopping as soon as it cannot;
 * - a `SuggestBudget` shared by one document's check caps the total work: when it runs out, the
 *   rest of the problems are still reported, only without suggestions.
 */

export const SUGGEST_LIMITS = {
  /** Characters of a name compared (after lower-casing). */
  chars: 48,
  /**
   * Work for one document's suggestions, in units of one distance cell or one compared character:
   * about 30 ms on a busy machine. An ordinary fleet with a few typos uses a few thousand.
   */
  budget: 4_000_000,
} as const;

/** The work left for one document's suggestions. */
export class SuggestBudget {
  left: number;
  /** Answers already given, by word (a misspelt name is often repeated). */
  readonly memo = new Map<string, string[]>();
  constructor(units: number = SUGGEST_LIMITS.budget) {
    this.left = units;
  }
  get exhausted(): boolean {
    return this.left <= 0;
  }
}

/** A candidate prepared once for many comparisons. */
export interface Prepared {
  name: string;
  /** Lower-cased, cut to `SUGGEST_LIMITS.chars`. */
  key: string;
  /** Letter counts of `key`, in 32 buckets (a lower bound of the distance needs no more). */
  counts: Uint8Array;
}

const BUCKETS = 32;

function keyOf(s: string): string {
  // Cut first: lower-casing a 100,000-character name to compare 48 of them is most of the work.
  return s
    .slice(0, SUGGEST_LIMITS.chars * 2)
    .toLowerCase()
    .slice(0, SUGGEST_LIMITS.chars);
}

function countsOf(key: string): Uint8Array {
  const c = new Uint8Array(BUCKETS);
  for (let i = 0; i < key.length; i++) c[key.charCodeAt(i) & (BUCKETS - 1)]!++;
  return c;
}

export function prepare(candidates: readonly string[]): Prepared[] {
  return [...new Set(candidates)].map((name) => {
    const key = keyOf(name);
    return { name, key, counts: countsOf(key) };
  });
}

/**
 * Levenshtein distance between `a` and `b` when it is at most `max`, else `max + 1`; only the band
 * of width 2·max+1 around the diagonal is computed, and the loop stops when a whole row is over.
 * Charges the cells computed to `budget`.
 */
export function boundedDistance(a: string, b: string, max: number, budget?: SuggestBudget): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  if (n === 0) return m <= max ? m : max + 1;
  const big = max + 1;
  let prev = new Array<number>(m + 1);
  let cur = new Array<number>(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : big;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    cur[lo - 1] = lo - 1 === 0 && i <= max ? i : big;
    let rowMin = cur[lo - 1]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = (j <= i - 1 + max ? prev[j]! : big) + 1;
      const ins = cur[j - 1]! + 1;
      const v = Math.min(sub, del, ins, big);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < m) cur[hi + 1] = big;
    if (budget) budget.left -= hi - lo + 1;
    if (rowMin > max) return big;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[m]!, big);
}

/** A lower bound of the edit distance from letter counts: each edit changes at most one count up and one down. */
function countBound(a: Uint8Array, b: Uint8Array): number {
  let up = 0;
  let down = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const d = a[i]! - b[i]!;
    if (d > 0) up += d;
    else down -= d;
  }
  return Math.max(up, down);
}

/**
 * Up to `n` candidates close enough to `word` to be a plausible typo, closest first: a candidate
 * containing the word (or contained in it) gets a bonus of `bonus`, and is kept when its distance
 * less the bonus is at most `allowed(candidate)`.
 */
export function nearest(
  word: string,
  candidates: readonly string[] | readonly Prepared[],
  opts: { n: number; bonus: number; allowed: (key: string) => number; budget?: SuggestBudget },
): string[] {
  const budget = opts.budget;
  if (budget?.exhausted) return [];
  const q = keyOf(word.trim());
  if (!q) return [];
  const pool: readonly Prepared[] = candidates.length && typeof candidates[0] === 'string' ? prepare(candidates as string[]) : (candidates as Prepared[]);
  const qCounts = countsOf(q);
  // Ties keep the candidates' order (the sort is stable).
  const found: { name: string; score: number; key: string }[] = [];
  for (const c of pool) {
    if (budget) {
      budget.left -= BUCKETS;
      if (budget.exhausted) break;
    }
    const contains = opts.bonus > 0 && (c.key.includes(q) || q.includes(c.key));
    const bonus = contains ? opts.bonus : 0;
    const max = opts.allowed(c.key) + bonus;
    if (Math.abs(c.key.length - q.length) > max || countBound(qCounts, c.counts) > max) continue;
    const d = boundedDistance(q, c.key, max, budget);
    if (d <= max) found.push({ name: c.name, score: d - bonus, key: c.key });
  }
  return found
    .sort((a, b) => a.score - b.score)
    .slice(0, opts.n)
    .map((x) => x.name);
}
