export interface Row {
  name: string;
  medianMs: number;
  goal: string;
  note?: string;
  /** What the figure counts, when not milliseconds. */
  unit?: string;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
