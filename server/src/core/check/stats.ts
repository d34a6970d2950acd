/** Section 1: all nine stats present, each in its form and within its limits. */
import { CLASSES, STATS, STAT_NAMES, STAT_ORDER, MOVEMENT_STICKS, type UnitClass } from '../rules/data';
import type { StatEntry, UnitCard } from '../model/types';
import type { CheckContext } from './context';
import { formDescription } from '../rules/lookup';
import { clip } from '../model/limits';
import { noun, withArticle } from '../rules/words';

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

function nearestStick(n: number): number {
  let best: number = MOVEMENT_STICKS[0];
  for (const s of MOVEMENT_STICKS) if (Math.abs(s - n) < Math.abs(best - n)) best = s;
  return best;
}

export function checkStats(ctx: CheckContext, card: UnitCard, cls: UnitClass | undefined): void {
  const block = card.stats;
  if (!block) return;
  const missing = STAT_ORDER.filter((s) => !block.entries[s]);
  if (missing.length) {
    const which = block.unsure?.length
      ? `${missing.length === 1 ? 'stat' : `${missing.length} stats`}: ${missing.length === 1 ? 'one' : `${missing.length}`} of ${block.unsure.join(', ')} (the values fit more than one reading)`
      : `${noun(missing.length, 'stat')} ${missing.join(', ')}`;
    ctx.report(
      'FS-STAT-MISSING',
      `Missing ${which}: every card has all nine (${STAT_ORDER.join(' ')}); write "-" for one the unit does not have`,
      block.keySpan,
      {
        missing,
      },
    );
  }
  for (const stat of STAT_ORDER) {
    const e = block.entries[stat];
    if (e) checkStat(ctx, e, cls);
  }
}

/** "BS (Ballistic Skill)": made once per stat, not for each of every card's nine stats. */
const LABELS = Object.fromEntries(STAT_ORDER.map((s) => [s, `${s} (${STAT_NAMES[s]})`])) as Record<(typeof STAT_ORDER)[number], string>;

function checkStat(ctx: CheckContext, e: StatEntry, cls: UnitClass | undefined): void {
  const spec = STATS[e.stat];
  const label = LABELS[e.stat];
  const v = e.value;
  if (!v) {
    ctx.report(
      'FS-STAT-FORMAT',
      e.raw === ''
        ? `${label} has no value; it is ${formDescription(e.stat)}`
        : `${label} "${clip(e.raw, 20)}" cannot be read; it is ${formDescription(e.stat)}`,
      e.span,
    );
    return;
  }
  if (v.kind === 'none') {
    if (!spec.dashAllowed) ctx.report('FS-STAT-DASH', `${label} cannot be "-": every unit has it; it is ${formDescription(e.stat)}`, e.span);
    return;
  }
  const out = (msg: string, fix?: string) => ctx.report('FS-STAT-RANGE', `${label} ${msg}`, e.span, fix !== undefined ? { replacements: [fix] } : undefined);
  switch (v.kind) {
    case 'sticks': {
      const sticks = spec.sticks!;
      if (v.parts.length > spec.maxParts!) out(`combines at most ${spec.maxParts} sticks`);
      const bad = v.parts.find((p) => !sticks.includes(p));
      if (bad !== undefined)
        out(
          `${clip(e.raw, 20)}: movement uses ${sticks.map((s) => `${s}"`).join(', ')} sticks (min ${sticks[0]}, max ${sticks[sticks.length - 1]}/${sticks[sticks.length - 1]})`,
          v.parts.map(nearestStick).join('/'),
        );
      return;
    }
    case 'target': {
      if (v.target < spec.min! || v.target > spec.max!)
        out(`${clip(e.raw, 20)} is outside ${spec.min}+ (best) to ${spec.max}+ (worst)`, `${clamp(v.target, spec.min!, spec.max!)}+`);
      return;
    }
    case 'count': {
      if (v.n < spec.min! || (spec.max !== undefined && v.n > spec.max)) {
        const lim = spec.max !== undefined ? `${spec.min} to ${spec.max}` : `at least ${spec.min}`;
        out(`${clip(e.raw, 20)} is outside its limits (${lim})`, String(clamp(v.n, spec.min!, spec.max ?? Infinity)));
        return;
      }
      if (e.stat === 'T' && cls && CLASSES[cls].smallCraft) {
        ctx.report(
          'FS-TONNAGE-SMALL-CRAFT',
          `${withArticle(cls, true)} has no use for Tonnage: Fighters and Bombers never claim objectives (section 20); write \u2014`,
          e.span,
          // The em dash, as the fixes for a missing SH or AC write it (a roster then shows one dash).
          { replacements: ['\u2014'] },
        );
      }
      return;
    }
    case 'targetDice': {
      const t = spec.target!;
      const d = spec.dice!;
      if (v.target < t.best || v.target > t.worst || v.dice < d.min || v.dice > d.max) {
        out(
          `${clip(e.raw, 20)} is outside its limits: target ${t.best}..${t.worst}, dice ${d.min}..${d.max} (best ${t.best}/${d.max}, worst ${t.worst}/${d.min})`,
          `${clamp(v.target, t.best, t.worst)}/${clamp(v.dice, d.min, d.max)}`,
        );
      }
      return;
    }
  }
}
