/**
 * Facts derived from a document and the rules pack, shared by checks and features: whether a card
 * has a stat, which universal rules fit it, what its launch bays carry, a board's CP per round.
 */
import { CLASSES, DOCTRINES, LAUNCH_BAY, type STAT_ORDER, type UniversalRule, type UnitClass } from '../rules/data';
import { launchBayTier, normRuleName } from '../rules/lookup';
import type { Ability, FactionDocument, UnitCard } from './types';

export function hasStat(card: UnitCard, stat: (typeof STAT_ORDER)[number]): boolean {
  const v = card.stats?.entries[stat]?.value;
  return !!v && v.kind !== 'none';
}

/** Whether a universal rule belongs to this card's class. */
export function ruleFits(rule: UniversalRule, card: UnitCard, cls: UnitClass): boolean {
  // Fighters and Bombers never claim objectives (section 20), Tonnage or not.
  if (rule.classes === 'tonnage') return !CLASSES[cls].smallCraft && (hasStat(card, 'T') || !card.stats?.entries.T);
  if (rule.classes === 'singleBase') return CLASSES[cls].bases === 1;
  return rule.classes.includes(cls);
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
    else if (normRuleName(name) === normRuleName(LAUNCH_BAY.reservesAbility)) reserves = LAUNCH_BAY.carrierCapacity;
  }
  if (card.class.value === 'Carrier') reserves = LAUNCH_BAY.carrierCapacity;
  return { tierFighters, reserves };
}

/** A Command Board's CP per round: as given, else the sum of its sources, else its doctrine's. */
export function cpPerRound(doc: FactionDocument): number | undefined {
  if (doc.cp?.value !== undefined) return doc.cp.value;
  const sources = doc.cpSources?.items;
  if (sources && sources.length && sources.every((s) => s.cp.value !== undefined)) return sources.reduce((t, s) => t + s.cp.value!, 0);
  return doc.doctrine.value ? DOCTRINES[doc.doctrine.value] : undefined;
}
