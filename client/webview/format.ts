/**
 * How the views write numbers. Pure functions, so the webview tests and the host can
 * check them without a browser. Probabilities never round to a misleading 0% or 100%: a chance
 * that is not exactly 0 or 1 shows as "<0.01%" or ">99.99%" at the edges.
 */
import type { Point } from '../../protocol/simulation';

// One rule for chances everywhere (the CLI, the summaries and the views): the core's, through the protocol.
export { formatPercent, formatPercentError, shotsToKillRows } from '../../protocol/simulation';

export function formatNumber(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return '—';
  return x.toFixed(digits);
}

export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return Math.round(n).toLocaleString('en-US');
}

export interface Bar {
  label: string;
  p: number;
}

/**
 * The bars of a distribution chart: one per value while there are few, else equal-width bins so
 * that a huge unit (HP in the thousands) still draws a readable chart. Values are assumed sorted
 * (the result type promises it); unsorted input is sorted first rather than trusted.
 */
export function distributionBars(points: readonly Point[], maxBars = 40): { bars: Bar[]; binned: boolean } {
  const sorted = [...points].sort((a, b) => a.value - b.value);
  if (sorted.length === 0) return { bars: [], binned: false };
  const lo0 = sorted[0]!.value;
  const hi0 = sorted[sorted.length - 1]!.value;
  const whole = sorted.every((pt) => Number.isInteger(pt.value));
  // The engine lists only values that can happen; a histogram shows the impossible ones between
  // them as empty bars, so that 0, 2, 4 HP lost do not look evenly spaced with 1 and 3 missing.
  if (whole && hi0 - lo0 + 1 <= maxBars) {
    const byValue = new Map<number, number>();
    for (const pt of sorted) byValue.set(pt.value, (byValue.get(pt.value) ?? 0) + pt.p);
    const bars: Bar[] = [];
    for (let x = lo0; x <= hi0; x++) bars.push({ label: formatValue(x), p: byValue.get(x) ?? 0 });
    return { bars, binned: false };
  }
  if (!whole && sorted.length <= maxBars) {
    return { bars: sorted.map((pt) => ({ label: formatValue(pt.value), p: pt.p })), binned: false };
  }
  const lo = sorted[0]!.value;
  const hi = sorted[sorted.length - 1]!.value;
  const width = Math.max(1, Math.ceil((hi - lo + 1) / maxBars));
  const bars: Bar[] = [];
  for (let start = lo; start <= hi; start += width) {
    const end = start + width - 1;
    bars.push({ label: width === 1 ? formatValue(start) : `${formatValue(start)}–${formatValue(end)}`, p: 0 });
  }
  for (const pt of sorted) {
    const i = Math.min(bars.length - 1, Math.floor((pt.value - lo) / width));
    bars[i]!.p += pt.p;
  }
  return { bars, binned: true };
}

function formatValue(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}
