/**
 * The points estimate's reference field, its members and the shapes it answers in: which cards
 * cost exactly their class's standard points and can be read by the engine (one per faction and
 * name), each as a member with its volley keys, and the even pick across classes that caps a
 * large field. The rest of the estimate (./estimate.ts) builds on these.
 */
import { CLASSES, CLASS_NAMES } from '../rules/data';
import { bayCapacity } from '../model/derived';
import type { BayCapacity } from '../model/derived';
import type { PricedCard } from './battles';
import type { UnitClass } from '../rules/data';
import type { UnitCard } from '../model/types';
import { getMemo, memo, setMemo } from '../model/memo';
import { profileFromCard, sanitizeProfile } from '../sim/profile';
import type { UnitProfile } from '../sim/types';
import { defenseKey, offenseKey } from './volleys';
import type { InReach, Mover } from './approach';
import { type FieldModel } from './shapes';

/** A card with the faction of its file (a workspace `CardRef` is one). */
export interface CardLike {
  card: UnitCard;
  faction: string;
}

export interface FieldMember {
  name: string;
  faction: string;
  class: UnitClass;
  points: number;
  profile: UnitProfile;
  off: string;
  def: string;
  /** Identity of the card in the field (faction, name, stats that matter, points). */
  key: string;
  /** Faction and name, for "one card per faction and name". */
  id: string;
  /** Faction then name, as one string: the order of the field's even pick. */
  sortKey: string;
  /** Launch capacity (Launch Bay Tier N, a Carrier's reserves). */
  bays: BayCapacity;
}

export interface LooRow {
  name: string;
  faction: string;
  class: UnitClass;
  points: number;
  /** The card's estimate with it left out of the field (undefined: it deals or takes no damage). */
  predicted?: number;
  /** (points - predicted) / predicted, in percent. */
  errorPct?: number;
  /** Its battle price, where the estimate is fitted to battle prices (the bundled field's generated data). */
  price?: number;
}

export type FieldSource = 'workspace' | 'examples';

export interface ReferenceField {
  /** Identifies the field: the same members (names, figures that matter, points) give the same id. */
  id: string;
  /** Where the field came from: the workspace's (or the CLI's given) cards, or the bundled examples. */
  source: FieldSource;
  /** In words, for hovers and the CLI. */
  description: string;
  members: FieldMember[];
  /** Standard-cost cards that were available (before the cap). */
  available: number;
  /** Members the fit rests on (those that deal and take damage). */
  fitted: number;
  /** Fitted scale: estimate = k * sqrt(F * H). */
  k: number;
  /** Leave-one-out root mean square of log(points / estimate). */
  spreadLog: number;
  /** The same as a percentage: exp(spreadLog) - 1. */
  spreadPct: number;
  loo: LooRow[];
  /** Per member: firepower and durability over the rest of the field, and k fitted without it. */
  own: { firepower: number; durability: number; k: number; exponent: number }[];
  /** Member key -> index. */
  index: Map<string, number>;
  /**
   * The estimate fitted to battle prices (undefined: no member deals and takes damage): the model,
   * each member's leave-one-out model, and what it was fitted to.
   */
  battle?: FieldModel;
  /** A card's figures against this field, by its attacker and defender keys (shared by every card alike). */
  memo: {
    dealt: Map<string, { sum: number; exact: boolean }>;
    taken: Map<string, { sum: number; exact: boolean }>;
    /** Each member's movement and Fire actions by distance on the approach (approach.ts), made once. */
    approach?: { mover: Mover; inReach: InReach }[];
    /** The fleet approaches played against this field, by the card's mover. */
    /** The card's fleet's approach against the field by its mover's key, as flat arrays (approach.ts `flatFires`). */
    fleet?: Map<string, { mine: Float64Array[]; theirs: Float64Array[] }>;
    /** Expected boarding damage (HP) by CR pair and hull cap (the field's cards' boardings). */
    boarding?: Map<string, number>;
  };
}

export interface PointsEstimate {
  name: string;
  faction: string;
  class?: UnitClass;
  points?: number;
  /** Estimated points (undefined with `reason`). */
  estimate?: number;
  /** Printed points / estimate. */
  ratio?: number;
  /** Expected points of the field removed per Fire action. */
  firepower?: number;
  /** Fire actions of the field needed to destroy it. */
  durability?: number;
  /** What the estimate does not price on this card. */
  unpriced: string[];
  /** Why there is no estimate. */
  reason?: string;
  /** False when an absurd card's volleys had to be sampled. */
  exact: boolean;
  /**
   * The card is in the reference field: its estimate is its measured battle price when the field's
   * prices are known for it (`measured`), else its leave-one-out prediction.
   */
  inField: boolean;
  /** The estimate is the card's battle price, measured (scripts/build-battle-prices.ts), not predicted. */
  measured?: boolean;
  /** Printed points and estimate differ by more than twice the field's spread. */
  farOff: boolean;
}

export function cardName(card: UnitCard): string {
  return card.name.value?.trim() || card.name.raw || '(unnamed card)';
}

interface Read {
  profile?: UnitProfile;
  error?: string;
  off?: string;
  def?: string;
}

/** Profiles and volley keys by card object: the model reuses a card's object while its text is unchanged. */
const PROFILE = memo<Read>('estimate profile');

/** A card's profile as the estimate uses it (with its volley keys), or why it cannot be used. */
export function profileOf(card: UnitCard): Read {
  let p = getMemo(card, PROFILE);
  if (!p) {
    const r = profileFromCard(card);
    if (r.profile) {
      const profile = sanitizeProfile(r.profile);
      p = { profile, off: offenseKey(profile), def: defenseKey(profile) };
    } else p = { error: r.error };
    setMemo(card, PROFILE, p);
  }
  return p;
}

/**
 * What the battle model reads beyond the volley keys: movement, each weapon's range, CR, tonnage
 * and launch bays (a card that differs in one of them is not the field's card).
 */
export function battleKey(p: UnitProfile, bays: BayCapacity): string {
  return `${(p.move ?? []).join('/')}|${p.weapons.map((w) => w.range).join(',')}|${p.cr ? `${p.cr.target}/${p.cr.dice}` : '-'}|${p.tonnage ?? '-'}|${bays.tierFighters}/${bays.reserves}`;
}

export function memberKey(faction: string, name: string, off: string, def: string, points: number, battle: string): string {
  return `${faction.trim().toLowerCase()}\u0000${name.trim().toLowerCase()}\u0000${off}\u0000${def}\u0000${points}\u0000${battle}`;
}

/** Standard-cost cards that the engine can read, one per faction and name. */
export function standardCards(cards: readonly CardLike[]): FieldMember[] {
  return standardCardsAt(cards).map((s) => s.member);
}

/** `standardCards`, each with its place in `cards`. */
export function standardCardsAt(cards: readonly CardLike[]): { member: FieldMember; at: number }[] {
  const out: { member: FieldMember; at: number }[] = [];
  const seen = new Set<string>();
  cards.forEach(({ card, faction }, at) => {
    const cls = card.class.value;
    if (!cls || !CLASSES[cls] || card.points.value !== CLASSES[cls].points) return;
    const m = memberOf(card, faction);
    if (!m || seen.has(m.id)) return;
    seen.add(m.id);
    out.push({ member: m, at });
  });
  return out;
}

/** A standard-cost card's field member (undefined: it cannot be one); the same object while the card is. */
export function fieldMemberOf(card: UnitCard, faction: string): FieldMember | undefined {
  return memberOf(card, faction);
}

/** Field members by card object (and the faction they were made for), so a keystroke rebuilds nothing. */
const MEMBER = memo<{ faction: string; member: FieldMember | undefined }>('field member');

function memberOf(card: UnitCard, faction: string): FieldMember | undefined {
  const hit = getMemo(card, MEMBER);
  if (hit && hit.faction === faction) return hit.member;
  let member: FieldMember | undefined;
  const cls = card.class.value;
  const points = card.points.value;
  const name = card.name.value?.trim();
  const p = profileOf(card);
  if (cls && CLASSES[cls] && points !== undefined && name && p.profile) {
    member = {
      id: `${faction.trim().toLowerCase()}\u0000${name.toLowerCase()}`,
      sortKey: `${faction}\u0000${name}`,
      name,
      faction,
      class: cls,
      points,
      profile: p.profile,
      off: p.off!,
      def: p.def!,
      key: memberKey(faction, name, p.off!, p.def!, points, battleKey(p.profile, bayCapacity(card))),
      bays: bayCapacity(card),
    };
  }
  setMemo(card, MEMBER, { faction, member });
  return member;
}

/** The order of the field's even pick within a class: faction, then name. */
export function fieldOrder(a: { sortKey: string }, b: { sortKey: string }): number {
  return a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0;
}

/**
 * At most `max` members: when there are more, an even pick across classes (round by round in class
 * order, each class's members in `fieldOrder`), from `byClass` (per class, its first `max` members
 * in that order, or more).
 */
export function evenPick<T>(byClass: readonly (readonly T[])[], max: number): T[] {
  const out: T[] = [];
  for (let round = 0; out.length < max; round++) {
    let any = false;
    for (const list of byClass) {
      if (round < list.length && out.length < max) {
        out.push(list[round]!);
        any = true;
      }
    }
    if (!any) break;
  }
  return out;
}

/** At most `max` members, an even pick across classes (in class order, then faction and name). */
export function capField(members: FieldMember[], max: number): FieldMember[] {
  if (members.length <= max) return members;
  const order = fieldOrder;
  // Per class, the first `max` in that order (no class can give more), kept sorted while scanning:
  // most cards are turned away by one comparison with the last kept.
  const kept = new Map<UnitClass, FieldMember[]>(CLASS_NAMES.map((c) => [c, []]));
  for (const m of members) {
    const list = kept.get(m.class)!;
    if (list.length >= max && order(m, list[list.length - 1]!) >= 0) continue;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(list[mid]!, m) <= 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, m);
    if (list.length > max) list.pop();
  }
  return evenPick(
    CLASS_NAMES.map((c) => kept.get(c)!),
    max,
  );
}

/** A field member as the battle pricing takes it. */
export function pricedMember(m: FieldMember): PricedCard {
  return {
    name: m.name,
    faction: m.faction,
    class: m.class,
    points: m.points,
    profile: m.profile,
    ...(m.bays.tierFighters || m.bays.reserves ? { bays: m.bays } : {}),
  };
}

export function fitKeyOf(members: readonly FieldMember[]): string {
  return members.map((m) => m.key).join('\u0001');
}
