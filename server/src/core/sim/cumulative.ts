/**
 * Cumulative odds: the chance of at least N, from a distribution (what calculator users ask for:
 * "what are my odds of dealing at least 3 damage?"). The CLI's `sim` report and JSON and the
 * engagement view all read the one list this makes, so they show the same numbers.
 */
import type { Point } from './types';

/** Past this many HP, the list holds only the values the distribution has (it steps only there). */
export const AT_LEAST_EVERY_N = 200;

/**
 * P(value >= n) for each whole n from 1 to the largest value with a chance (P(>= 0) is always 1);
 * when that is more than `AT_LEAST_EVERY_N` (a card with thousands of HP), for each value >= 1 the
 * distribution holds instead, which says the same (the chance only changes there) in as many rows
 * as the distribution has. Summed from the top, so a long tail of tiny chances is not lost to
 * rounding; never above 1.
 */
export function atLeast(points: readonly Point[]): Point[] {
  const sorted = points.filter((p) => p.p > 0 && Number.isFinite(p.value)).sort((a, b) => a.value - b.value);
  const top = sorted.length ? Math.ceil(sorted[sorted.length - 1]!.value) : 0;
  const out: Point[] = [];
  let sum = 0;
  let i = sorted.length - 1;
  if (top > AT_LEAST_EVERY_N) {
    for (; i >= 0 && sorted[i]!.value >= 1; i--) {
      sum += sorted[i]!.p;
      if (i === 0 || sorted[i - 1]!.value !== sorted[i]!.value) out.push({ value: sorted[i]!.value, p: Math.min(1, sum) });
    }
    return out.reverse();
  }
  for (let n = top; n >= 1; n--) {
    while (i >= 0 && sorted[i]!.value >= n) sum += sorted[i--]!.p;
    out.push({ value: n, p: Math.min(1, sum) });
  }
  return out.reverse();
}
