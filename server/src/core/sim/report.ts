/**
 * The readable text report of a simulation (the CLI's default output): a volley table, a small
 * histogram of hull damage, and the engagement odds, policy and assumptions. Plain text; names
 * from cards are printed as they are (a terminal does not interpret HTML).
 */
import type { Point, ShotsToKill, SimulationResult } from './types';
import { renderEngagementVariants } from './variants/report';
import { textTable } from './text-table';
import { formatPercent, shotsToKillRows } from '../rules/words';

const pct = (p: number, digits = 1) => {
  const floor = 0.5 * 10 ** -(digits + 2);
  return p > 0 && p < floor ? `<${(100 * floor * 2).toFixed(digits)}%` : `${(100 * p).toFixed(digits)}%`;
};
const num = (x: number) => x.toFixed(2);

/** Rows of cells in columns two spaces apart, each column as wide as its widest cell (text-table.ts). */
export { textTable };

/**
 * A horizontal bar chart of a distribution, at most `maxRows` rows: wide distributions are grouped
 * into equal ranges of values.
 */
export function renderHistogram(points: Point[], width = 40, maxRows = 16): string[] {
  if (points.length === 0) return [];
  let rows: { label: string; p: number }[];
  if (points.length <= maxRows) rows = points.map((pt) => ({ label: String(pt.value), p: pt.p }));
  else {
    const lo = points[0]!.value;
    const hi = points[points.length - 1]!.value;
    const step = Math.ceil((hi - lo + 1) / maxRows);
    rows = [];
    for (let start = lo; start <= hi; start += step) {
      const end = Math.min(hi, start + step - 1);
      const p = points.filter((pt) => pt.value >= start && pt.value <= end).reduce((a, pt) => a + pt.p, 0);
      rows.push({ label: start === end ? String(start) : `${start}-${end}`, p });
    }
  }
  const top = Math.max(...rows.map((r) => r.p));
  const labelWidth = Math.max(...rows.map((r) => r.label.length));
  return rows.map((r) => {
    const bar = top > 0 ? '#'.repeat(Math.round((r.p / top) * width)) : '';
    const tiny = r.p > 0 && bar === '' ? '.' : bar;
    return `  ${r.label.padStart(labelWidth)} | ${tiny.padEnd(width)} ${pct(r.p).padStart(6)}`;
  });
}

/**
 * "Chance of at least N HP lost", one row per N (at most `maxRows`: evenly spaced, the last always
 * shown), beside the histogram: the same list as the JSON's `hullDamageAtLeast` and the view's table.
 */
export function renderAtLeast(points: readonly Point[], maxRows = 16): string[] {
  if (points.length === 0) return [];
  const step = Math.ceil(points.length / maxRows);
  const rows = points.filter((_, i) => i % step === 0 || i === points.length - 1);
  const w = String(rows[rows.length - 1]!.value).length;
  return ['', 'Chance of at least N HP lost in one Fire action', ...rows.map((r) => `  at least ${String(r.value).padStart(w)} HP  ${pct(r.p).padStart(6)}`)];
}

/**
 * Shots to kill in words: the mean, median and 90% figures, then rows "destroyed within N Fire
 * actions" (`shotsToKillRows`), each chance written as every view writes it (`formatPercent`):
 * the JSON's `shotsToKill.cdf`.
 */
export function renderShotsToKill(s: ShotsToKill | undefined, maxRows = 12): string[] {
  if (!s) return [];
  const out = ['Shots to kill: Fire actions one after another (no Aim, no Brace, the defender taking no action)'];
  if (s.mean === null) {
    out.push(s.note ? `  Not computed: ${s.note}` : '  It can never be destroyed this way: no weapon that reaches it can hurt it.');
    return out;
  }
  const times = (n: number | null) => (n === null ? `more than ${s.cdf.length}` : String(n));
  out.push(`  Mean ${num(s.mean)} Fire actions; half the time within ${times(s.p50)}, 90% of the time within ${times(s.p90)}`);
  const rows = shotsToKillRows(s, maxRows);
  const w = String(rows[rows.length - 1]?.actions ?? 1).length;
  for (const r of rows)
    out.push(`  destroyed within ${String(r.actions).padStart(w)} Fire action${r.actions === 1 ? ' ' : 's'}  ${formatPercent(r.p).padStart(7)}`);
  if (s.note) out.push(`  Note: ${s.note}`);
  return out;
}

export function renderReport(result: SimulationResult): string {
  // A card against itself: its two sides are named apart ("X" and "X (2)"), as in the battle.
  const r = result.attacker === result.defender && result.attacker !== '' ? { ...result, defender: `${result.defender} (2)` } : result;
  const v = r.volley;
  const e = r.engagement;
  const o = r.options;
  const out: string[] = [];
  out.push(`${r.attacker} fires at ${r.defender}`);
  out.push(
    `Options: range ${o.range !== undefined ? `${o.range}"` : 'any (every weapon fires)'}, cover ${o.cover ? 'yes' : 'no'}, aim ${o.aim ?? 'none'}, ` +
      `brace ${o.brace ? 'yes' : 'no'}, defender shields ${o.defenderShields}, bases ${o.attackerBases} vs ${o.defenderBases}`,
  );
  out.push('');
  out.push(`One Fire action (${v.method === 'exact' ? 'exact' : `sampled: ${v.trials} trials, seed ${v.seed}`})`);
  const rows = [['Weapon', 'Type', 'Attacks', 'Hits', 'Crits', 'SH removed', 'Hull damage']];
  for (const w of v.weapons) {
    if (!w.inRange) {
      rows.push([w.name, w.type, 'out of range', '', '', '', '']);
      continue;
    }
    rows.push([
      `${w.name}${w.aimed ? ' (aimed)' : ''}`,
      w.type,
      String(w.attacks),
      num(w.expectedHits),
      num(w.expectedCrits),
      num(w.expectedShieldsRemoved),
      num(w.expectedHullDamage),
    ]);
  }
  rows.push(['Total', '', '', '', '', num(v.expectedShieldsRemoved), num(v.expectedHullDamage)]);
  out.push(...textTable(rows, [false, false, true, true, true, true, true]).map((l) => `  ${l}`));
  const se = v.standardError;
  out.push(
    `  Kill probability ${pct(v.killProbability, 2)}${se ? ` (± ${pct(se.killProbability, 2)})` : ''}; ` +
      `expected bases destroyed ${num(v.expectedBasesDestroyed)}`,
  );
  if (v.note) out.push(`  Note: ${v.note}`);
  out.push('');
  out.push('Hull damage (HP lost) in one Fire action');
  out.push(...renderHistogram(v.hullDamage));
  out.push(...renderAtLeast(v.hullDamageAtLeast ?? []));
  out.push('');
  const shots = renderShotsToKill(r.shotsToKill);
  if (shots.length) out.push(...shots, '');
  out.push(`Engagement: up to ${e.rounds} rounds at ${e.range}" (${e.method}, ${e.trials} trials, seed ${e.seed})`);
  if (e.cutShort)
    out.push(
      `  Cut short: ${e.trials} of ${e.requestedTrials ?? e.trials} trials were played before the work limit; the figures are from those (see Assumptions).`,
    );
  const eng = textTable(
    [
      [`${r.attacker} wins`, pct(e.attackerWins), `± ${pct(e.standardError.attackerWins, 2)}`, e.exact ? `exact ${pct(e.exact.attackerWins, 2)}` : ''],
      [`${r.defender} wins`, pct(e.defenderWins), `± ${pct(e.standardError.defenderWins, 2)}`, e.exact ? `exact ${pct(e.exact.defenderWins, 2)}` : ''],
      [
        e.bothDestroyed ? 'Neither wins' : 'Neither destroyed',
        pct(e.neither),
        `± ${pct(e.standardError.neither, 2)}`,
        e.exact ? `exact ${pct(e.exact.neither, 2)}` : '',
      ],
      ...(e.bothDestroyed ? [['  of which both destroyed at once (a Ram)', pct(e.bothDestroyed), '', '']] : []),
    ],
    [false, true, true, false],
  );
  out.push(...eng.map((l) => `  ${l}`));
  out.push(`  Mean rounds played: ${num(e.meanRounds)}`);
  if (e.actions) {
    const a = e.actions;
    out.push(
      `  Second actions per engagement: ${r.attacker} aim ${num(a.attacker.aim)}, shields ${num(a.attacker.shields)}, brace ${num(a.attacker.brace)}; ` +
        `${r.defender} aim ${num(a.defender.aim)}, shields ${num(a.defender.shields)}, brace ${num(a.defender.brace)}`,
    );
  }
  out.push(`  Policy: ${e.policy}`);
  out.push(...renderEngagementVariants(e, [r.attacker, r.defender]));
  out.push('');
  out.push('Assumptions');
  for (const a of r.assumptions) out.push(`  - ${a}`);
  return out.join('\n') + '\n';
}
