/**
 * The rule variants (BATTLE.md "Rule variants from other games"): the registry, which combinations
 * conflict (as data), parsing `NAME` or `NAME:param=value,...` choices from outside, and composing
 * the chosen variants' hooks into one set for the engine.
 */
import type { BattleActions, BattleHooks, BattleView } from '../battle/types';
import { BREAK_TESTS } from './break-tests';
import { MORALE } from './morale';
import { RETREAT } from './retreat';
import { SUSTAINED_DAMAGE } from './sustained-damage';
import type { VariantDefinition, VariantInfo } from './types';

import { readVariantChoice, VARIANT_CATALOG, variantConflict, type VariantChoice } from './catalog';

export type { VariantDefinition, VariantInfo, VariantParameter } from './types';
export { VARIANT_CATALOG, VARIANT_CONFLICTS, VARIANT_NAMES, readVariantSpec, readVariantChoice, variantConflict, variantSpec } from './catalog';
export type { VariantChoice } from './catalog';

/** Every variant with its hooks, in the catalogue's order (the order their hooks run). */
export const VARIANTS: readonly VariantDefinition[] = VARIANT_CATALOG.map((e) =>
  [SUSTAINED_DAMAGE, BREAK_TESTS, RETREAT, MORALE].find((d) => d.name === e.name)!,
);

/** At most this many variant choices are read (there are only four variants). */
const MAX_CHOICES = 20;

/**
 * The one reader of variant choices from outside (CLI flags, a request): each `{name, parameters}`,
 * or the text `name` / `name:param=value` with several parameters separated by commas. Unknown names, parameters and values, and conflicting
 * combinations, are errors (sentences). The same variant twice counts once (the last parameters win).
 */
export function parseVariants(raw: unknown): { choices?: VariantChoice[]; errors: string[] } {
  if (raw === undefined || raw === null) return { choices: [], errors: [] };
  const list = Array.isArray(raw) ? raw : [raw];
  const errors: string[] = [];
  const byName = new Map<string, VariantChoice>();
  if (list.length > MAX_CHOICES) return { errors: [`At most ${MAX_CHOICES} variants may be given, not ${list.length}.`] };
  for (const item of list) {
    const read = readVariantChoice(item);
    if (read.name === undefined) {
      errors.push(...read.errors);
      continue;
    }
    // Twice (say with two thresholds) would silently keep one: say so instead.
    if (byName.has(read.name)) {
      errors.push(`Variant ${read.name} is given twice; give it once (with all its parameters: ${read.name}:a=1,b=2).`);
      continue;
    }
    errors.push(...read.errors);
    byName.set(read.name, { name: read.name, parameters: read.parameters });
  }
  const names = [...byName.keys()];
  const c = variantConflict(names);
  if (c) errors.push(`Variants ${c.pair[0]} and ${c.pair[1]} cannot be combined: ${c.why}.`);
  if (errors.length) return { errors };
  // Registry order, so that the same set gives the same hooks whatever order it was typed in.
  const choices = VARIANTS.filter((v) => byName.has(v.name)).map((v) => byName.get(v.name)!);
  return { choices, errors };
}

/** The chosen variants as one set of hooks, the battle length they impose and what results carry. */
export function composeVariants(choices: readonly VariantChoice[]): { hooks: BattleHooks; rounds?: number; info: VariantInfo[] } {
  // Choices come checked (parseVariants); one the catalogue does not know is skipped, never thrown on.
  const known = choices.flatMap((c) => {
    const def = VARIANTS.find((v) => v.name === c?.name);
    return def ? [{ c, def }] : [];
  });
  const made = known.map(({ c, def }) => {
    const { hooks, assumptions } = def.create(c.parameters);
    return { def, hooks, info: { name: def.name, title: def.title, parameters: { ...c.parameters }, assumptions } };
  });
  const hooks: BattleHooks = {};
  if (made.length) hooks.name = made.map((m) => m.def.name).join('+');
  const all = made.map((m) => m.hooks);
  const alloc = all.find((h) => h.allocateDamage)?.allocateDamage;
  if (alloc) hooks.allocateDamage = alloc;
  const victory = all.find((h) => h.victory)?.victory;
  if (victory) hooks.victory = victory;
  const own = all.find((h) => h.variantVictory)?.variantVictory;
  if (own) hooks.variantVictory = own;
  const starts = all.flatMap((h) => (h.startOfRound ? [h.startOfRound] : []));
  if (starts.length) hooks.startOfRound = (v: BattleView, act: BattleActions) => starts.forEach((f) => f(v, act));
  const ends = all.flatMap((h) => (h.endOfRound ? [h.endOfRound] : []));
  if (ends.length)
    hooks.endOfRound = (v: BattleView, act: BattleActions) => {
      let stop = false;
      for (const f of ends) if (!stop && f(v, act)) stop = true;
      return stop;
    };
  const finals = all.flatMap((h) => (h.endOfBattle ? [h.endOfBattle] : []));
  if (finals.length) hooks.endOfBattle = (v: BattleView, act: BattleActions) => finals.forEach((f) => f(v, act));
  const fixed = made.map((m) => m.def.rounds).filter((r): r is number => r !== undefined);
  return { hooks, ...(fixed.length ? { rounds: Math.min(...fixed) } : {}), info: made.map((m) => m.info) };
}

/** The help lines of the variants (CLI help): name, summary and parameters with their defaults. */
export function variantHelp(indent = '  '): string {
  return VARIANTS.map((v) => {
    const params = Object.entries(v.parameters).map(([k, p]) => `${k}=N: ${p.what}, default ${p.default}`);
    return `${indent}${v.name.padEnd(18)} ${v.summary}${params.length ? ` (${params.join('; ')})` : ''}`;
  }).join('\n');
}
