/**
 * Facts derived from a document and the rules pack, shared by checks and features: whether a card
 * has a stat, which universal rules fit it, what its launch bays carry, a board's CP per round.
 */
import { CLASSES, DOCTRINES, LAUNCH_BAY, STAT_NAMES, type STAT_ORDER, type StatName, type UniversalRule, type UnitClass } from '../rules/data';
import { listOf, pluralOf, withArticle } from '../rules/words';
import { launchBayTier, normRuleName, validTier } from '../rules/lookup';
import type { Ability, FactionDocument, UnitCard } from './types';
import { getMemo, memo, setMemo } from './memo';

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
 * "this unit has no LD (Leadership)"), or undefined when it is.
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

/** Whether a universal rule belongs to this card: its class, and the stats the rule needs. */
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

/** A card's bays, kept with the card: a roster asks for every carrier entry's at each edit. */
const BAYS = memo<Readonly<BayCapacity>>('bay capacity');

export function bayCapacity(card: UnitCard): Readonly<BayCapacity> {
  let bays = getMemo(card, BAYS);
  if (!bays) setMemo(card, BAYS, (bays = Object.freeze(readBays(card))));
  return bays;
}

function readBays(card: UnitCard): BayCapacity {
  let tierFighters = 0;
  let reserves = 0;
  for (const a of card.abilities?.items ?? []) {
    const name = abilityName(a);
    const tier = launchBayTier(name);
    if (tier !== undefined && validTier(tier)) tierFighters += tier * LAUNCH_BAY.fightersPerTier;
    else if (normRuleName(name) === normRuleName(LAUNCH_BAY.reservesAbility)) reserves = LAUNCH_BAY.carrierCapacity;
  }
  if (card.class.value === LAUNCH_BAY.carrierClass) reserves = LAUNCH_BAY.carrierCapacity;
  return { tierFighters, reserves };
}

/**
 * A Command Board's CP per round: its doctrine's (section 21: "CP generation follows the faction's
 * Command Doctrine"; a `cp` or sources that differ are reported), else as given, else the sum of its sources.
 */
export function cpPerRound(doc: FactionDocument): number | undefined {
  if (doc.doctrine.value) return DOCTRINES[doc.doctrine.value];
  if (doc.cp?.value !== undefined) return doc.cp.value;
  const sources = doc.cpSources?.items;
  if (sources && sources.length && sources.every((s) => s.cp.value !== undefined)) return sources.reduce((t, s) => t + s.cp.value!, 0);
  return undefined;
}
