/**
 * What every check gets: the document, the workspace, and a place to put problems. Also the small
 * rule helpers several checks share (bands, universal rules, launch bays), each reading the rules pack.
 */
import type { FabledDocument, Problem, ProblemData, Span, UnitCard, Ability } from '../model/types';
import type { Workspace } from '../workspace';
import { CODES, type Code } from './codes';
import {
  CLASSES,
  LAUNCH_BAY,
  RANGE_BANDS,
  UNIVERSAL_RULES,
  KNOWN_ABILITIES,
  STAT_NAMES,
  type STAT_ORDER,
  type StatName,
  type UniversalRule,
  type KnownAbility,
  type UnitClass,
} from '../rules/data';
import { listOf, pluralOf, withArticle } from '../rules/words';

export class CheckContext {
  readonly problems: Problem[] = [];
  constructor(
    readonly doc: FabledDocument,
    readonly ws: Workspace | undefined,
  ) {}

  report(code: Code, message: string, span: Span, data?: ProblemData, related?: Problem['related']): void {
    const p: Problem = { code, severity: CODES[code].severity, message, span: { start: span.start, end: span.end } };
    if (data) p.data = data;
    if (related && related.length) p.related = related;
    this.problems.push(p);
  }
}

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

/** Inch figures inside free text: 9", 9”, 9 inches, 9-inch. */
const INCH_IN_TEXT = /(\d+(?:\.\d+)?)\s*(?:"|”|″|''|-?\s?inch(?:es)?\b)/g;

/**
 * Scans a free-text field's source for inch figures that are not bands. It scans the source slice
 * rather than the decoded value so that the ranges are exact whatever the quoting style.
 */
export function checkTextRanges(ctx: CheckContext, span: Span, what: string): void {
  const src = ctx.doc.text.slice(span.start, span.end);
  INCH_IN_TEXT.lastIndex = 0;
  for (let m = INCH_IN_TEXT.exec(src); m; m = INCH_IN_TEXT.exec(src)) {
    const n = Number(m[1]);
    if (isBand(n)) continue;
    const start = span.start + m.index;
    const near = nearestBands(n);
    ctx.report(
      'FS-RANGE-TEXT',
      `${inches(n)} in ${what} is not a range band; use ${near.map(inches).join(' or ')} (bands: ${bandList()})`,
      { start, end: start + m[0].length },
      {
        replacements: near.map(inches),
      },
    );
  }
}

function normName(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s+and\s+/g, ' & ')
    .replace(/\s+/g, ' ')
    .trim();
}

const UNIVERSAL_BY_NAME = new Map(UNIVERSAL_RULES.map((r) => [normName(r.name), r]));
const ABILITY_BY_NAME = new Map<string, KnownAbility>();
for (const a of KNOWN_ABILITIES) {
  ABILITY_BY_NAME.set(normName(a.name), a);
  const short = normName(a.name.replace(/\s*\(.*\)$/, ''));
  if (!ABILITY_BY_NAME.has(short)) ABILITY_BY_NAME.set(short, a);
}

export function universalRule(name: string): UniversalRule | undefined {
  return UNIVERSAL_BY_NAME.get(normName(name));
}

/** A known ability by name; "Boarding" and "Ram" match "Boarding (CR)" and "Ram (T)". */
export function knownAbility(name: string): KnownAbility | undefined {
  return ABILITY_BY_NAME.get(normName(name));
}

export function launchBayTier(name: string): number | undefined {
  const m = LAUNCH_BAY.tierPattern.exec(name.trim());
  return m ? Number(m[1]) : undefined;
}

export function hasStat(card: UnitCard, stat: (typeof STAT_ORDER)[number]): boolean {
  const v = card.stats?.entries[stat]?.value;
  return !!v && v.kind !== 'none';
}

/** Whether the card writes "-" for the stat (a malformed or missing stat is reported on its own). */
export function lacksStat(card: UnitCard, stat: StatName): boolean {
  return card.stats?.entries[stat]?.value?.kind === 'none';
}

/**
 * Why a universal rule is not this card's, as the end of a sentence ("a Fighter does not have it",
 * "this unit has no LD"), or undefined when it is.
 */
export function ruleMisfit(rule: UniversalRule, card: UnitCard, cls: UnitClass): string | undefined {
  const classFits =
    rule.classes === 'tonnage'
      ? // Fighters and Bombers never claim objectives (section 20), Tonnage or not.
        !CLASSES[cls].smallCraft
      : rule.classes === 'singleBase'
        ? CLASSES[cls].bases === 1
        : rule.classes.includes(cls);
  if (!classFits) return `${withArticle(cls)} does not have it`;
  const lacking = (rule.requiresStats?.stats ?? []).filter((s) => lacksStat(card, s));
  if (lacking.length) return `this unit has no ${lacking.map((s) => `${s} (${STAT_NAMES[s]})`).join(' and no ')}`;
  return undefined;
}

/** Whether a universal rule belongs to this card (its class, and the stats the rule needs). */
export function ruleFits(rule: UniversalRule, card: UnitCard, cls: UnitClass): boolean {
  return ruleMisfit(rule, card, cls) === undefined;
}

/** Who a universal rule belongs to, for messages and hovers: "Escorts and Frigates", "units with LD and Tonnage, never Fighters or Bombers". */
export function ruleOwners(rule: UniversalRule): string {
  const stats = rule.requiresStats ? listOf(rule.requiresStats.stats.map((s) => (s === 'T' ? 'Tonnage' : s))) : undefined;
  if (rule.classes === 'tonnage') return `${stats ? `units with ${stats}` : 'classes with Tonnage'}, never Fighters or Bombers`;
  const classes = rule.classes === 'singleBase' ? 'single-base classes' : listOf(rule.classes.map(pluralOf));
  return stats ? `${classes} with ${stats}` : classes;
}

export function abilityName(a: Ability): string {
  return a.name.value ?? '';
}

/** What a host card can carry: capacity and kinds, from Launch Bay Tier N and Launch Bays (Reserves). */
export interface BayCapacity {
  /** Fighter-only slots from Launch Bay Tier N. */
  tierFighters: number;
  /** Carrier reserve slots for Fighters or Bombers. */
  reserves: number;
}

export function bayCapacity(card: UnitCard): BayCapacity {
  let tierFighters = 0;
  let reserves = 0;
  for (const a of card.abilities?.items ?? []) {
    const name = abilityName(a);
    const tier = launchBayTier(name);
    if (tier !== undefined && tier >= 1) tierFighters += tier * LAUNCH_BAY.fightersPerTier;
    else if (normName(name) === normName(LAUNCH_BAY.reservesAbility)) reserves = LAUNCH_BAY.carrierCapacity;
  }
  if (card.class.value === 'Carrier') reserves = LAUNCH_BAY.carrierCapacity;
  return { tierFighters, reserves };
}
