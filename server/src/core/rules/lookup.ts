/**
 * Lookups into the rules pack that checks, hovers, completion and the schema generator share:
 * range bands, universal rules and known abilities by name, launch bay tiers, and what each stat's
 * form allows, in words.
 */
import { LAUNCH_BAY, RANGE_BANDS, STATS, UNIVERSAL_RULES, KNOWN_ABILITIES, type UniversalRule, type KnownAbility, type StatName } from './data';

export function inches(n: number): string {
  return `${n}"`;
}

export function isBand(n: number): boolean {
  return (RANGE_BANDS as readonly number[]).includes(n);
}

/** The nearest band(s) to a figure: one when it is closer to one, two when it sits between. */
export function nearestBands(n: number, max = Infinity): number[] {
  const bands = (RANGE_BANDS as readonly number[]).filter((b) => b <= max);
  if (bands.length === 0) return [];
  let best = Infinity;
  for (const b of bands) best = Math.min(best, Math.abs(b - n));
  return bands.filter((b) => Math.abs(b - n) === best);
}

export function bandList(): string {
  return RANGE_BANDS.map(inches).join(' ');
}

/** A rule or ability name as compared: case, spacing and "and" / "&" do not matter. */
export function normRuleName(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s+and\s+/g, ' & ')
    .replace(/\s+/g, ' ')
    .trim();
}

const UNIVERSAL_BY_NAME = new Map(UNIVERSAL_RULES.map((r) => [normRuleName(r.name), r]));
const ABILITY_BY_NAME = new Map<string, KnownAbility>();
for (const a of KNOWN_ABILITIES) {
  ABILITY_BY_NAME.set(normRuleName(a.name), a);
  const short = normRuleName(a.name.replace(/\s*\(.*\)$/, ''));
  if (!ABILITY_BY_NAME.has(short)) ABILITY_BY_NAME.set(short, a);
}

/**
 * A universal rule by name, also as the class cards print it with a note in brackets
 * ("Precision Strike (Universal Bomber Rule)", "Dogfighters (Universal Fighter Class Rule — ...)").
 */
export function universalRule(name: string): UniversalRule | undefined {
  const n = normRuleName(name);
  return UNIVERSAL_BY_NAME.get(n) ?? (n.endsWith(')') ? UNIVERSAL_BY_NAME.get(n.replace(/\s*\([^()]*\)$/, '')) : undefined);
}

/** A known ability by name; "Boarding" and "Ram" match "Boarding (CR)" and "Ram (T)". */
export function knownAbility(name: string): KnownAbility | undefined {
  return ABILITY_BY_NAME.get(normRuleName(name));
}

/** The tier a "Launch Bay Tier N" name gives, as written (it may be no valid tier: see `validTier`). */
export function launchBayTier(name: string): number | undefined {
  const m = LAUNCH_BAY.tierPattern.exec(name.trim());
  return m ? Number(m[1]!.replace(/[\u2212\u2013]/, '-').replace(/\s+/g, '')) : undefined;
}

/** Whether a tier is one a ship may have: a whole number of at least 1 (section 6). */
export function validTier(tier: number): boolean {
  return Number.isInteger(tier) && tier >= LAUNCH_BAY.minTier;
}

/** What a stat's value may be, in words (diagnostics, hovers, schema descriptions). */
export function formDescription(stat: StatName): string {
  const spec = STATS[stat];
  const dash = spec.dashAllowed ? ', or "-" if the unit does not have it' : '';
  switch (spec.form) {
    case 'sticks':
      return `one or two stick lengths (${spec.sticks!.join(', ')}) such as 9 or 9/6, at most ${spec.sticks![spec.sticks!.length - 1]}/${spec.sticks![spec.sticks!.length - 1]}${dash}`;
    case 'target':
      return `a target number from ${spec.min}+ (best) to ${spec.max}+ (worst)${dash}`;
    case 'count':
      return spec.max !== undefined ? `a whole number from ${spec.min} to ${spec.max}${dash}` : `a whole number of at least ${spec.min}${dash}`;
    case 'targetDice':
      return `Target/Dice, target ${spec.target!.best}..${spec.target!.worst} and dice ${spec.dice!.min}..${spec.dice!.max} (best ${spec.target!.best}/${spec.dice!.max}, worst ${spec.target!.worst}/${spec.dice!.min})${dash}`;
  }
}
