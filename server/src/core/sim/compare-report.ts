/**
 * The what-if's part of the readable battle report (`battle --compare-with`): the change in player
 * words, and a table of each figure before and after with its paired standard error. Plain text;
 * the caller escapes names from files for its terminal (`clean`).
 */
import type { BattleResult, PairedDelta } from './types';
import { textTable } from './text-table';

const pct = (p: number) => `${(100 * p).toFixed(1)}%`;
const signed = (d: PairedDelta) => {
  // The same battles on the same dice: nothing to read "+0.0% ± 0.0" into (the battle view's words).
  if (d.delta === 0 && d.se === 0) return 'no change';
  const shown = (100 * Math.abs(d.delta)).toFixed(1);
  return `${d.delta >= 0 || Number(shown) === 0 ? '+' : '\u2212'}${shown}% \u00b1 ${(100 * d.se).toFixed(1)}`;
};

/** The comparison's section (empty without `compareFleets`), starting with a blank line. */
export function renderFleetComparison(r: BattleResult, clean: (s: string) => string = (s) => s): string {
  const c = r.compareFleets;
  if (!c) return '';
  const was = r.sides[0];
  const now = c.result.sides[0];
  const named = now.fleet === was.fleet ? '' : ` "${clean(now.fleet || '(unnamed fleet)')}"`;
  const out = ['', `Compared with the changed list${named} (${now.points} pts; the fleet has ${was.points}), on the same dice`];
  for (const line of c.summary) out.push(`  ${clean(line)}`);
  const rows = [['', 'wins', 'with the change', 'difference', 'destroys the other fleet', 'with the change', 'difference']];
  r.sides.forEach((s, i) => {
    const after = c.result.sides[i]!;
    const d = c.difference.sides[i]!;
    rows.push([
      clean(s.fleet || '(unnamed fleet)'),
      pct(s.pointsVictory.p),
      pct(after.pointsVictory.p),
      signed(d.pointsVictory),
      pct(s.annihilation.p),
      pct(after.annihilation.p),
      signed(d.annihilation),
    ]);
  });
  rows.push(['Draw on points', pct(r.draw.p), pct(c.result.draw.p), signed(c.difference.draw), '', '', '']);
  out.push(...textTable(rows, [false, true, true, true, true, true, true]).map((l) => `  ${l}`));
  out.push('  (differences: the change minus the fleet, \u00b1 their paired standard error)');
  return out.join('\n') + '\n';
}
