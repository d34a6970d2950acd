/**
 * The rule variants' part of the readable reports (`sim` and `battle` text output): which variants
 * were played and what they assumed, who fled or retreated, and, with `--compare`, the variant
 * beside the standard rules in player words and a small table of the differences. Plain text; the
 * caller escapes names from files for its terminal (`clean`).
 */
import type { BattleResult, EngagementResult } from '../types';
import type { VariantInfo } from './types';
import { VARIANTS } from './index';
import { textTable } from '../text-table';

const pct = (p: number) => `${(100 * p).toFixed(1)}%`;
const signed = (d: number, unit = '%', scale = 100, digits = 1) => {
  const shown = (Math.abs(d) * scale).toFixed(digits);
  // A change that rounds to nothing is "+0.0", never "−0.0".
  return `${d >= 0 || Number(shown) === 0 ? '+' : '−'}${shown}${unit}`;
};

const table = textTable;

function variantLines(variants: readonly VariantInfo[]): string[] {
  const out = ['Rule variants (from other games)'];
  for (const v of variants) {
    const def = VARIANTS.find((d) => d.name === v.name);
    const params = Object.entries(v.parameters).map(([k, x]) => `${k} ${x}`);
    out.push(`  ${v.title}${params.length ? ` (${params.join(', ')})` : ''}: ${def?.summary ?? ''} From ${def?.game ?? 'another game'}.`);
    for (const a of v.assumptions) out.push(`    - ${a}`);
  }
  return out;
}

/** The variants' section of the battle report (empty without variants). */
export function renderBattleVariants(r: BattleResult, clean: (s: string) => string = (s) => s): string[] {
  if (!r.variants.length) return [];
  const out = ['', ...variantLines(r.variantRules ?? [])];
  const name = (i: number) => clean(r.sides[i]!.fleet || `Fleet ${i + 1}`);
  const fledAtEnd = (u: { routed?: number[] }) => u.routed?.[u.routed.length - 1] ?? 0;
  const fled = r.sides.flatMap((s, i) =>
    s.units
      .filter((u) => fledAtEnd(u) > 0)
      .map((u) => `${name(i)}'s ${clean(u.name)}${s.units.filter((x) => x.name === u.name).length > 1 ? ` #${u.copy}` : ''} ${pct(fledAtEnd(u))}`),
  );
  if (fled.length) out.push(`  Fled the battle intact (routed: not destroyed, lost for points): ${fled.join('; ')}`);
  const byMorale = r.sides.flatMap((s, i) => (s.variantVictory ? [`${name(i)} ${pct(s.variantVictory.p)}`] : []));
  if (byMorale.length) out.push(`  Wins on morale: ${byMorale.join('; ')} (points victory above is still by points destroyed)`);
  const retreats = r.sides.flatMap((s, i) => (s.retreated ? [`${name(i)} ${pct(s.retreated.p)}`] : []));
  if (retreats.length) out.push(`  Retreated: ${retreats.join('; ')}`);
  const c = r.compare;
  if (!c) return out;
  out.push('', 'Beside the standard rules (same seed)');
  for (const line of c.summary) out.push(`  ${clean(line)}`);
  const rows = [['', 'wins', 'standard', 'change', 'destroys the other fleet', 'standard', 'change', 'points destroyed', 'change']];
  r.sides.forEach((s, i) => {
    const o = c.standard.sides[i]!;
    const d = c.difference.sides[i]!;
    rows.push([
      name(i),
      pct(s.pointsVictory.p),
      pct(o.pointsVictory.p),
      signed(d.pointsVictory),
      pct(s.annihilation.p),
      pct(o.annihilation.p),
      signed(d.annihilation),
      s.pointsDestroyed.mean.toFixed(1),
      signed(d.pointsDestroyedMean, '', 1),
    ]);
  });
  rows.push(['Draw', pct(r.draw.p), pct(c.standard.draw.p), signed(c.difference.draw), '', '', '', '', '']);
  out.push(...table(rows, [false, true, true, true, true, true, true, true, true]).map((l) => `  ${l}`));
  return out;
}

/** The variants' section of the `sim` report (empty without variants); names are already escaped. */
export function renderEngagementVariants(e: EngagementResult, names: [string, string]): string[] {
  if (!e.variants?.length) return [];
  const out = ['', ...variantLines(e.variantRules ?? [])];
  if (e.routed) out.push(`  Fled (routed): ${names[0]} ${pct(e.routed.attacker)}; ${names[1]} ${pct(e.routed.defender)}`);
  if (e.variantVictory)
    out.push(
      `  Wins on morale: ${names[0]} ${pct(e.variantVictory.attacker)}; ${names[1]} ${pct(e.variantVictory.defender)} (the wins above are destructions)`,
    );
  if (e.retreated) out.push(`  Retreated: ${names[0]} ${pct(e.retreated.attacker)}; ${names[1]} ${pct(e.retreated.defender)}`);
  const c = e.compare;
  if (!c) return out;
  out.push('', 'Beside the standard rules (same seed)');
  for (const line of c.summary) out.push(`  ${line}`);
  const s = c.standard;
  const d = c.difference;
  out.push(
    ...table(
      [
        ['', 'with variants', 'standard', 'change'],
        [`${names[0]} wins`, pct(e.attackerWins), pct(s.attackerWins), signed(d.attackerWins)],
        [`${names[1]} wins`, pct(e.defenderWins), pct(s.defenderWins), signed(d.defenderWins)],
        ['Neither', pct(e.neither), pct(s.neither), signed(d.neither)],
        ['Mean rounds', e.meanRounds.toFixed(2), s.meanRounds.toFixed(2), signed(d.meanRounds, '', 1, 2)],
      ],
      [false, true, true, true],
    ).map((l) => `  ${l}`),
  );
  return out;
}
