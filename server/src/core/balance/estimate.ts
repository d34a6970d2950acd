/**
 * The points estimate (BATTLE.md "The points estimate"): what a card would cost if it were costed
 * like the cards around it.
 *
 * - Reference field: the cards that cost exactly their class's standard points (the workspace's,
 *   or the bundled examples when fewer than ten), at most `POINTS_ESTIMATE.maxField` of them.
 * - Firepower F: expected points removed per Fire action, averaged over the field as targets
 *   (share of the target's total HP removed, times its points); every weapon in range, no
 *   modifiers; exact.
 * - Durability H: Fire actions of the field, averaged over the field as attackers, needed to
 *   destroy the card: 1 / (mean share of its HP one Fire action removes); exact.
 * - Estimate: k * sqrt(F * H), k fitted on the field by least squares in log space.
 * - Honesty: the field's leave-one-out spread, and what the estimate does not price.
 *
 * A card is never matched against itself: a field card's own figures are taken over the rest of
 * the field, and its estimate is its leave-one-out prediction (k fitted without it). So a card's
 * estimate never depends on its own printed points, and editing a field card's stats moves its
 * estimate only through what it deals and takes.
 *
 * Pure and total: odd cards (no weapons, no HP, absurd numbers) get a result with a reason.
 */
import { BATTLE_TABLE, BOARDING, CLASSES, CLASS_NAMES, LAUNCH_BAY, POINTS_ESTIMATE } from '../rules/data';
import { boardingPmf } from '../sim/battle/engine';
import { bayCapacity } from '../model/derived';
import type { BayCapacity } from '../model/derived';
import battlePrices from './battle-prices.json';
import syntheticPrices from './synthetic-prices.json';
import bundledFit from './bundled-fit.json';
import { sha256Hex } from '../model/hash';
import { cardFingerprint } from './battles';
import type { PricedCard } from './battles';
import { pSuccess } from '../sim/dice';
import type { UnitClass } from '../rules/data';
import type { UnitCard } from '../model/types';
import { getMemo, memo, setMemo } from '../model/memo';
import { profileFromCard, sanitizeProfile } from '../sim/profile';
import type { UnitProfile } from '../sim/types';
import { defenseKey, offenseKey, Volleys } from './volleys';
import { Approaches, approachFleet, flatFires, inReachOf, moverOf, stoppingDistances, subsetIndex } from './approach';
import type { InReach, Mover } from './approach';
import type { Share } from './volleys';
import type { BattlePriceResult } from '../api';

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

/** Universal rules the engine applies (so listing them prices nothing more). */
const MODELLED_RULES = new Set(['dogfighters', 'precision strike', 'combined shields']);

function cardName(card: UnitCard): string {
  return card.name.value?.trim() || card.name.raw || '(unnamed card)';
}

/** What the estimate leaves out, for this card. */
export function unpricedOf(card: UnitCard): string[] {
  const out: string[] = [];
  const stats = card.stats?.entries ?? {};
  const has = (s: 'LD' | 'CR' | 'T') => {
    const v = stats[s]?.value;
    return !!v && v.kind !== 'none';
  };
  if (has('LD')) out.push('LD');
  if (has('CR') && !PRICES_CR) out.push('CR');
  if (has('T')) out.push('tonnage');
  if ((card.orders?.items.length ?? 0) > 0) out.push('orders');
  const abilities = (card.abilities?.items ?? []).filter((a) => {
    const name = (a.name.value ?? '').trim();
    // Launch bays are priced (launch capacity); Boarding is the CR the line above names.
    return (
      !MODELLED_RULES.has(name.toLowerCase()) &&
      !LAUNCH_BAY.tierPattern.test(name) &&
      name.toLowerCase() !== LAUNCH_BAY.reservesAbility.toLowerCase() &&
      name.toLowerCase() !== 'boarding (cr)'
    );
  });
  if (abilities.length > 0) out.push('abilities');
  return out;
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
function profileOf(card: UnitCard): Read {
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
function battleKey(p: UnitProfile, bays: BayCapacity): string {
  return `${(p.move ?? []).join('/')}|${p.weapons.map((w) => w.range).join(',')}|${p.cr ? `${p.cr.target}/${p.cr.dice}` : '-'}|${p.tonnage ?? '-'}|${bays.tierFighters}/${bays.reserves}`;
}

function memberKey(faction: string, name: string, off: string, def: string, points: number, battle: string): string {
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
function capField(members: FieldMember[], max: number): FieldMember[] {
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

/** A field's fit, kept by its members' keys. */
type FieldFit = Omit<ReferenceField, 'id' | 'source' | 'description' | 'available'>;

/**
 * What the points estimate keeps between calls, owned by one service (the language server's, one
 * CLI run's, a test's): the fits by field, the battle prices measured against a workspace field,
 * the battle prices Price by battle measured, and whether the shipped fit is read. Two instances
 * never see each other's figures; a price arriving clears this instance's fits only.
 */
export class Estimates {
  /** Fits by their field's members' keys (a few). */
  private readonly fits = new Map<string, FieldFit>();
  /**
   * Battle prices of a workspace field's members, measured against that field (by the language
   * server, in the background): field (its members' keys) -> member key -> price. Kept for a few fields.
   */
  private readonly prices = new Map<string, Map<string, number>>();
  private pricesVersion = 0;
  /** The model fitted to the bundled field's battle prices (the shape a workspace field takes). */
  bundledShape: BattleModel | undefined;
  private readShipped = true;
  private syntheticDigest: string | undefined;
  /**
   * The battle prices "Price by battle" measured, by card and field (features/priceByBattle.ts):
   * the lens and the hover show the last one while the card's stats and the field stay as they were.
   */
  readonly measured = new Map<string, BattlePriceResult>();
  /** The Fire actions worked out (the volley and weapon-outcome memos). */
  readonly volleys: Volleys;
  /** The approaches played. */
  readonly approaches: Approaches;

  /**
   * `bundled`: the bundled example cards (the field when the given cards are too few). `sharing`:
   * an instance whose volley and approach memos this one uses too (they are keyed by content, so
   * sharing them changes no figure: the warm-up's own workspace fills the server's).
   */
  constructor(
    readonly bundled: () => readonly CardLike[],
    sharing?: Estimates,
  ) {
    this.volleys = sharing?.volleys ?? new Volleys();
    this.approaches = sharing?.approaches ?? new Approaches();
  }

  /** Bumped when a field's battle prices arrive: a field (or a card's note) made before is stale. */
  get version(): number {
    return this.pricesVersion;
  }

  /** Whether the shipped fit is read (off: the script that makes it, and the test that checks it). */
  get shipped(): boolean {
    return this.readShipped;
  }

  useShippedFit(on: boolean): void {
    this.readShipped = on;
    this.fits.clear();
    this.bundledShape = undefined;
  }

  fit(key: string): FieldFit | undefined {
    return this.fits.get(key);
  }

  keepFit(key: string, fit: FieldFit): void {
    if (this.fits.size > 16) this.fits.clear();
    this.fits.set(key, fit);
  }

  /** The battle prices measured against the field of these members' keys, if any. */
  fieldPrices(key: string): ReadonlyMap<string, number> | undefined {
    return this.prices.get(key);
  }

  /** The battle prices of a field's members (by member key), measured against it: its estimate is fitted to them from now on. */
  setFieldPrices(field: ReferenceField, prices: ReadonlyMap<string, number>): void {
    const key = fitKeyOf(field.members);
    if (this.prices.size >= 8) this.prices.delete(this.prices.keys().next().value!);
    this.prices.set(key, new Map(prices));
    this.fits.delete(key);
    this.pricesVersion++;
  }

  /** The digest of the generated training set (what the shipped fit was made from). */
  syntheticKey(): string {
    return (this.syntheticDigest ??= sha256Hex(JSON.stringify(syntheticPrices)));
  }

  /** Forgets every fit, price and measured price (the benchmark's cold start; tests). */
  clear(): void {
    this.fits.clear();
    this.prices.clear();
    this.measured.clear();
    this.bundledShape = undefined;
    this.volleys.clear();
    this.approaches.clear();
  }
}

/** The estimate state a field was made by (hidden on the field: comparisons and JSON do not see it). */
const OWNER = memo<Estimates>('field owner');

/** The Estimates instance that made a field. */
export function ownerOf(field: ReferenceField): Estimates {
  const owner = getMemo(field, OWNER);
  if (!owner) throw new Error(`The reference field "${field.description}" was not made by an Estimates instance.`);
  return owner;
}

/** Forgets every fit, figure and volley of an instance (the benchmark's cold start; tests). */
export function clearEstimateMemo(st: Estimates): void {
  st.clear();
}

/**
 * The reference field and its fit. `cards` are the workspace's (or the CLI's given) cards;
 * `bundled` the bundled examples' cards, used when fewer than `POINTS_ESTIMATE.minField` of the
 * given ones cost their class's standard points.
 */
export function referenceField(cards: readonly CardLike[], st: Estimates, where = 'the cards given'): ReferenceField {
  return referenceFieldOf(standardCards(cards), st, where);
}

/** The same, from the standard-cost cards already picked out (one per faction and name). */
export function referenceFieldOf(given: FieldMember[], st: Estimates, givenWhere = 'the cards given'): ReferenceField {
  if (given.length < POINTS_ESTIMATE.minField) {
    const examples = standardCards(st.bundled());
    return fieldOf(st, capField(examples, POINTS_ESTIMATE.maxField), examples.length, 'examples', 'the bundled example cards');
  }
  ensureBundledModel(st);
  return fieldOf(st, capField(given, POINTS_ESTIMATE.maxField), given.length, 'workspace', givenWhere);
}

/** A workspace field takes the bundled fit's shape: the bundled field is fitted first. */
function ensureBundledModel(st: Estimates): void {
  if (!st.bundledShape) referenceFieldOf([], st);
}

/**
 * The same, from the members already capped: `members` is what `capField` picks out of `available`
 * standard-cost cards (one per faction and name). What a field kept up to date card by card gives.
 */
export function referenceFieldOfCapped(members: FieldMember[], available: number, st: Estimates, givenWhere = 'the cards given'): ReferenceField {
  if (available < POINTS_ESTIMATE.minField) return referenceFieldOf([], st, givenWhere);
  ensureBundledModel(st);
  return fieldOf(st, members, available, 'workspace', givenWhere);
}

function fieldOf(st: Estimates, members: FieldMember[], available: number, source: FieldSource, where: string): ReferenceField {
  const fitKey = fitKeyOf(members);
  let fit = st.fit(fitKey);
  if (!fit) {
    fit = fitField(st.volleys, members);
    st.keepFit(fitKey, fit);
  }
  const picked = members.length < available ? `${members.length} of the ${available} cards` : `${members.length} cards`;
  const description = `${picked} at their class's standard points from ${where}`;
  const field: ReferenceField = { id: `${source}\u0002${fitKey}`, source, description, available, ...fit };
  setMemo(field, OWNER, st);
  // The model is fitted once per field (with the fit it is memoized with); the bundled field's fit is shipped.
  if (!('battle' in fit)) {
    const shipped = shippedFit(st, field, fitKey);
    if (shipped) {
      fit.battle = shipped.battle;
      fit.loo = shipped.loo;
      if (field.source === 'examples') st.bundledShape = shipped.battle.model;
    } else {
      fit.battle = fieldModel(st, field);
      if (fit.battle) fit.loo = looRows(field, fit.battle);
    }
    field.loo = fit.loo;
  }
  field.battle = fit.battle;
  if (field.battle && Number.isFinite(field.battle.spreadLog)) {
    field.spreadLog = field.battle.spreadLog;
    field.spreadPct = pct(field.battle.spreadLog);
  }
  return field;
}

/**
 * The bundled field's fit as scripts/build-bundled-fit.ts made it (bundled-fit.json): the same
 * figures `fieldModel` and `looRows` give (a test), kept because fitting them (the model, and the
 * model again without each of the 20 cards) was a third of the estimate's first second in a
 * process. Used only for the field its key was made from: these members, priced as they are, and
 * the same training set.
 */
export interface ShippedFit {
  key: string;
  battle: FieldModel;
  loo: LooRow[];
}

/** What the bundled field's fit depends on beside the code: its members, their battle prices and the training set. */
export function fitInputsKey(field: ReferenceField, fitKey: string): string {
  const measured = field.members.map((m) => measuredPrice(m) ?? null);
  return sha256Hex(`${fitKey}\u0003${JSON.stringify(measured)}\u0003${ownerOf(field).syntheticKey()}`).slice(0, 32);
}

function shippedFit(st: Estimates, field: ReferenceField, fitKey: string): { battle: FieldModel; loo: LooRow[] } | undefined {
  const f = bundledFit as unknown as Partial<ShippedFit>;
  if (!st.shipped || !f.key || !f.battle || !f.loo || f.key !== fitInputsKey(field, fitKey)) return undefined;
  // JSON has no undefined: a member without a measured price or a leave-one-out model was written as null.
  const battle: FieldModel = {
    ...f.battle,
    loo: f.battle.loo.map((m) => m ?? undefined),
    measured: f.battle.measured.map((x) => x ?? undefined),
  };
  return { battle, loo: f.loo };
}

/** The bundled field's fit as the code makes it now (what bundled-fit.json holds). */
export function computeBundledFit(field: ReferenceField): ShippedFit | undefined {
  const battle = fieldModel(ownerOf(field), field);
  if (!battle) return undefined;
  return { key: fitInputsKey(field, field.members.map((m) => m.key).join('\u0001')), battle, loo: looRows(field, battle) };
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/**
 * How one Fire action's effect becomes "share of the target destroyed per Fire action":
 * - 'sequential' (used): shields carry over from one Fire action to the next, so destroying a
 *   unit takes SH / (shields removed per Fire action) + HP / (hull damage per Fire action with
 *   shields down) Fire actions; its share per Fire action is one over that.
 * - 'one-volley' (BATTLE.md's wording, kept for comparison): the expected share of HP one Fire
 *   action removes from a unit at full shields, as if shields came back before every Fire action.
 */
export type ShareModel = 'sequential' | 'one-volley';

function pick(s: Share, model: ShareModel): number {
  return model === 'sequential' ? s.sequential : s.share;
}

/** Shares between field members: m[i][j] for i firing at j. */
function shareMatrix(v: Volleys, members: FieldMember[], model: ShareModel): number[][] {
  return members.map((a) => members.map((d) => pick(v.shareOf(a.profile, d.profile, a.off, d.def), model)));
}

interface Fit {
  k: number;
  /** Exponent c of estimate = k * (F * H)^c. */
  exponent: number;
  fitted: number;
  spreadLog: number;
  loo: LooRow[];
  own: ReferenceField['own'];
}

/** Least squares in log space: log p = log k + c * log(F * H), c fixed (0.5) or fitted. */
function regress(xs: number[], ys: number[], fitExponent: boolean): { logK: number; c: number } | undefined {
  if (xs.length === 0) return undefined;
  if (!fitExponent || xs.length < 3) return { logK: mean(ys.map((y, i) => y - 0.5 * xs[i]!)), c: 0.5 };
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  if (!(sxx > 0)) return undefined;
  const c = sxy / sxx;
  return { logK: my - c * mx, c };
}

/**
 * The fit on a field and its leave-one-out error: each member in turn is left out of the field
 * altogether (as a target, as an attacker and from the fit), and predicted from the rest.
 */
export function fitMatrix(members: FieldMember[], m: number[][], fitExponent = false): Fit {
  const n = members.length;
  const p = members.map((x) => x.points);
  // Sums over the rest of the field: dealt (share x points) and taken (share).
  const dealt = members.map((_, i) => m[i]!.reduce((s, v, j) => (j === i ? s : s + v * p[j]!), 0));
  const taken = members.map((_, i) => m.reduce((s, row, j) => (j === i ? s : s + row[i]!), 0));
  const fOf = (others: number, d: number) => (others > 0 ? d / others : 0);
  const hOf = (others: number, t: number) => (t > 0 ? others / t : Infinity);
  const logFH = (f: number, h: number) => (f > 0 && h > 0 && Number.isFinite(f * h) ? Math.log(f * h) : undefined);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = logFH(fOf(n - 1, dealt[i]!), hOf(n - 1, taken[i]!));
    if (x !== undefined && p[i]! > 0) {
      xs.push(x);
      ys.push(Math.log(p[i]!));
    }
  }
  const all = regress(xs, ys, fitExponent);
  const own: ReferenceField['own'] = [];
  const loo: LooRow[] = [];
  const residuals: number[] = [];
  for (let i = 0; i < n; i++) {
    const lx: number[] = [];
    const ly: number[] = [];
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const x = logFH(fOf(n - 2, dealt[j]! - m[j]![i]! * p[i]!), hOf(n - 2, taken[j]! - m[i]![j]!));
      if (x !== undefined && p[j]! > 0) {
        lx.push(x);
        ly.push(Math.log(p[j]!));
      }
    }
    const r = regress(lx, ly, fitExponent);
    const f = fOf(n - 1, dealt[i]!);
    const h = hOf(n - 1, taken[i]!);
    own.push({ firepower: f, durability: h, k: r ? Math.exp(r.logK) : NaN, exponent: r?.c ?? NaN });
    const row: LooRow = { name: members[i]!.name, faction: members[i]!.faction, class: members[i]!.class, points: p[i]! };
    const x = logFH(f, h);
    const pred = r && x !== undefined ? Math.exp(r.logK + r.c * x) : NaN;
    if (Number.isFinite(pred) && pred > 0) {
      row.predicted = pred;
      row.errorPct = ((p[i]! - pred) / pred) * 100;
      residuals.push(Math.log(p[i]! / pred));
    }
    loo.push(row);
  }
  return {
    k: all ? Math.exp(all.logK) : NaN,
    exponent: all?.c ?? NaN,
    fitted: xs.length,
    spreadLog: residuals.length ? Math.sqrt(mean(residuals.map((r) => r * r))) : NaN,
    loo,
    own,
  };
}

const pct = (spreadLog: number) => (Math.exp(spreadLog) - 1) * 100;

/** The leave-one-out spread (percent) of a model on a field: for the README's comparison and the tests. */
export function looSpreadPct(members: FieldMember[], model: ShareModel, fitExponent: boolean, v = new Volleys()): number {
  return pct(fitMatrix(members, shareMatrix(v, members, model), fitExponent).spreadLog);
}

function fitField(v: Volleys, members: FieldMember[]): Omit<ReferenceField, 'id' | 'source' | 'description' | 'available'> {
  const fit = fitMatrix(members, shareMatrix(v, members, 'sequential'));
  return {
    members,
    fitted: fit.fitted,
    k: fit.k,
    spreadLog: fit.spreadLog,
    spreadPct: pct(fit.spreadLog),
    loo: fit.loo,
    own: fit.own,
    index: new Map(members.map((x, i) => [x.key, i])),
    memo: { dealt: new Map(), taken: new Map() },
  };
}

const MEMO_MAX = 100_000;

/** Firepower and durability of a profile against the whole field. */
function figures(
  profile: UnitProfile,
  field: ReferenceField,
  off = offenseKey(profile),
  def = defenseKey(profile),
): { firepower: number; durability: number; exact: boolean } {
  let dealt = field.memo.dealt.get(off);
  if (!dealt) {
    const volleys = ownerOf(field).volleys;
    dealt = { sum: 0, exact: true };
    for (const x of field.members) {
      const s = volleys.shareOf(profile, x.profile, off, x.def);
      dealt.sum += s.sequential * x.points;
      dealt.exact &&= s.exact;
    }
    if (field.memo.dealt.size > MEMO_MAX) field.memo.dealt.clear();
    field.memo.dealt.set(off, dealt);
  }
  let taken = field.memo.taken.get(def);
  if (!taken) {
    const volleys = ownerOf(field).volleys;
    taken = { sum: 0, exact: true };
    for (const x of field.members) {
      const s = volleys.shareOf(x.profile, profile, x.off, def);
      taken.sum += s.sequential;
      taken.exact &&= s.exact;
    }
    if (field.memo.taken.size > MEMO_MAX) field.memo.taken.clear();
    field.memo.taken.set(def, taken);
  }
  const n = field.members.length;
  return { firepower: n ? dealt.sum / n : 0, durability: taken.sum > 0 ? n / taken.sum : Infinity, exact: dealt.exact && taken.exact };
}

/** The last estimate of each card object, with the field (its figure memo) and faction it was made for. */
const ESTIMATE = memo<{ memo: object; faction: string; result: PointsEstimate }>('estimate');

/** The estimate for one card against a field. Never throws. */
export function estimateCard(card: UnitCard, faction: string, field: ReferenceField): PointsEstimate {
  const hit = getMemo(card, ESTIMATE);
  if (hit && hit.memo === field.memo && hit.faction === faction) return hit.result;
  const result = estimateUncached(card, faction, field);
  setMemo(card, ESTIMATE, { memo: field.memo, faction, result });
  return result;
}

function estimateUncached(card: UnitCard, faction: string, field: ReferenceField): PointsEstimate {
  const name = cardName(card);
  const cls = card.class.value && CLASSES[card.class.value] ? card.class.value : undefined;
  const points = typeof card.points.value === 'number' && Number.isFinite(card.points.value) ? card.points.value : undefined;
  const out: PointsEstimate = { name, faction, unpriced: unpricedOf(card), exact: true, inField: false, farOff: false };
  if (cls) out.class = cls;
  if (points !== undefined) out.points = points;
  try {
    if (!Number.isFinite(field.k) || field.members.length === 0) {
      out.reason = 'the reference field has no card that both deals and takes damage, so there is nothing to fit.';
      return out;
    }
    const p = profileOf(card);
    if (!p.profile) {
      // The simulator's sentence starts with the card's name; the result already carries it.
      const error = p.error ?? 'the card cannot be read';
      const why = error.startsWith(`${name}: `) ? error.slice(name.length + 2) : error;
      out.reason = /[.!?]$/.test(why) ? why : `${why}.`;
      return out;
    }
    const off = p.off!;
    const def = p.def!;
    const idx = points !== undefined ? field.index.get(memberKey(faction, name, off, def, points, battleKey(p.profile, bayCapacity(card)))) : undefined;
    let f: number;
    let h: number;
    let k = field.k;
    if (idx !== undefined) {
      out.inField = true;
      ({ firepower: f, durability: h, k } = field.own[idx]!);
    } else {
      const fig = figures(p.profile, field, off, def);
      f = fig.firepower;
      h = fig.durability;
      out.exact = fig.exact;
    }
    out.firepower = f;
    if (Number.isFinite(h)) out.durability = h;
    if (!(f > 0)) {
      out.reason =
        'it deals no damage to the reference field (no weapon, or none that can hurt it), and the estimate rests on what a card deals times what it takes.';
      return out;
    }
    if (!Number.isFinite(h)) {
      out.reason = 'the reference field cannot damage it at all, so its durability has no bound.';
      return out;
    }
    let est = k * Math.sqrt(f * h);
    const fm = field.battle;
    if (fm) {
      const measured = idx !== undefined ? fm.measured[idx] : undefined;
      const m = idx !== undefined ? fm.loo[idx] : fm.model;
      if (measured !== undefined) {
        est = measured;
        out.measured = true;
      } else if (m) {
        // Only the features the model weighs (a single weapon's volleys, say, cost as much as a card's).
        const x = battleFeatures(p.profile, bayCapacity(card), field, undefined, termsOf(m));
        if (x) est = bestEstimate(m, p.profile, x, field);
      }
      // On the field's yardstick: its cards are fair on average.
      est *= fm.fair;
    }
    if (!Number.isFinite(est) || !(est > 0)) {
      out.reason = 'its figures are beyond what can be estimated.';
      return out;
    }
    out.estimate = est;
    if (points !== undefined && points > 0) {
      out.ratio = points / est;
      const band = Math.max(POINTS_ESTIMATE.flagSpreads * field.spreadLog, Math.log(POINTS_ESTIMATE.flagRatio));
      // A measured battle price is flagged as battles flag it: only when its whole 95% interval, on the field's
      // yardstick, is beyond the band (battles cannot tell a card "on the line").
      const interval = out.measured && idx !== undefined ? measuredInterval(field.members[idx]!) : undefined;
      const scale = fm?.fair ?? 1;
      out.farOff =
        Number.isFinite(field.spreadLog) &&
        (interval
          ? Math.log(points / (interval.high * scale)) > band || Math.log(points / (interval.low * scale)) < -band
          : Math.abs(Math.log(points / est)) > band);
    }
    return out;
  } catch (e) {
    out.reason = `the estimate failed: ${(e as Error)?.message ?? String(e)}.`;
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// The estimate fitted to battle prices (BATTLE.md "The points estimate", the next model).
// ---------------------------------------------------------------------------------------------

/**
 * What battles show matters beyond one Fire action with every weapon in range (each a term of the
 * fit, its weight fitted to battle prices):
 * - firepower and durability, exact (logs);
 * - reach: each weapon's firepower counts for the share of the battle's rounds it can fire in on
 *   the approach table (the gap closes by the card's and the field's mean move each round, from
 *   the Standard table's depth), and the card is exposed for the share of the field's rounds in
 *   which the field's weapons reach it (logs);
 * - the approach (approach.ts, the shipped terms): the card and each field member closing on every
 *   game size's table as the engine's policy moves them, each Fire action counted in the rounds it
 *   is made, with the weapons in reach at that distance (logs);
 * - movement: the card's move per round (inches, both sticks);
 * - small craft (Fighters and Bombers) and Combined Shields squadrons: fitted factors;
 * - CR: the expected successes of its CR roll (boarding);
 * - launch capacity: the points of the field's craft its bays carry, a fitted share of them added.
 */
export interface BattleFeatures {
  /** log of firepower (every weapon in range) and of firepower weighed by reach. */
  logF: number;
  logFR: number;
  /** log of durability, and minus the log of the share of the field's rounds that reach it. */
  logH: number;
  /**
   * Firepower and durability on the approach (approach.ts): each Fire action, the card's at a field
   * member and the member's at the card, counted in the rounds it is fired in on the approach table
   * and with the weapons that reach at that distance (logs; per round of the battle).
   */
  logFA: number;
  logHA: number;
  /** The same with the card's fleet against the field as one fleet (approach.ts `approachFleet`). */
  logFF: number;
  logHF: number;
  cover: number;
  move: number;
  small: number;
  /** A squadron with Combined Shields (Escorts, Frigates). */
  squadron: number;
  cr: number;
  /**
   * Boarding on the approach: log((Fire + Board) / Fire) of what the card removes of the field in
   * the rounds it stands within boarding range of a member with CR (both need CR; each such round
   * it boards as its second action), and the same of what it takes from members boarding it.
   */
  boardFA: number;
  /** log(Fire / (Fire + Board)) of what it takes: at most 0. */
  boardHA: number;
  /** log of the bases (a squadron's firepower falls as its bases are lost), and of the class card's points. */
  logBases: number;
  logClass: number;
  /** Small craft's reach-weighed firepower and durability (their own weights). */
  smallF: number;
  smallH: number;
  /** Small craft's firepower on the approach (their own weight beside `logFA`'s). */
  smallFA: number;
  carried: number;
}

/** The fitted terms, in order; each weight at least `TERM_FLOOR` where one is given (so that a better stat never lowers the estimate). */
export const BATTLE_TERMS = [
  'logF',
  'logFR',
  'logH',
  'logFA',
  'logHA',
  'logFF',
  'logHF',
  'cover',
  'move',
  'small',
  'squadron',
  'cr',
  'boardFA',
  'boardHA',
  'logBases',
  'logClass',
  'smallF',
  'smallH',
  'smallFA',
] as const;
export type BattleTerm = (typeof BATTLE_TERMS)[number];
/**
 * Lower bounds: firepower's weight is split between plain and reach-weighed firepower, both at
 * least 0 (so more range, attacks or damage never lower it); durability, cover and CR at least 0.
 */
const TERM_FLOOR: Partial<Record<BattleTerm, number>> = {
  logF: 0,
  logFR: 0,
  logH: 0,
  logFA: 0,
  logHA: 0,
  logFF: 0,
  logHF: 0,
  cover: 0,
  cr: 0,
  boardFA: 0,
  boardHA: 0,
};

/** The terms read from the approach pairwise (`approachFigures`) and from the card's fleet against the field's (`fleetFigures`): they move with the card's stopping distance. */
const APPROACH_TERMS = ['logFA', 'logHA', 'smallFA', 'boardFA', 'boardHA'] as const satisfies readonly BattleTerm[];
const FLEET_TERMS = ['logFF', 'logHF'] as const satisfies readonly BattleTerm[];
const MOVING_TERMS: readonly BattleTerm[] = [...APPROACH_TERMS, ...FLEET_TERMS];

/** The least share of its rounds a unit's Fire actions count for on the approach (one that never reaches still threatens). */
const APPROACH_FLOOR = 0.05;

export interface BattleModel {
  /** estimate = exp(a + sum of weight * feature) + b * carried */
  a: number;
  weights: Record<BattleTerm, number>;
  b: number;
}

function moveOf(p: UnitProfile): number {
  return (p.move ?? []).reduce((t, x) => t + x, 0);
}

/** The share of the battle's rounds a weapon of range `range` fires in, closing at `closing` inches a round. */
function reachShare(range: number, closing: number): number {
  const { depth } = BATTLE_TABLE;
  const rounds = BATTLE_TABLE.rounds;
  const wait = closing > 0 ? Math.max(0, (depth - range) / closing) : range >= depth ? 0 : rounds;
  return Math.max(0.05, Math.min(1, (rounds - wait) / rounds));
}

/** The carried craft's points: the field's cheapest Fighter in each Fighter slot; Fighters and Bombers in turn in a Carrier's reserves. */
export function carriedPoints(bays: BayCapacity, members: readonly FieldMember[]): number {
  const cheapest = (cls: UnitClass) => members.filter((m) => m.class === cls).reduce((lo, m) => Math.min(lo, m.points), Infinity);
  const f = cheapest('Fighter');
  const b = cheapest('Bomber');
  let total = 0;
  if (Number.isFinite(f)) total += bays.tierFighters * f;
  const kinds = [f, b].filter((x) => Number.isFinite(x));
  for (let i = 0; i < bays.reserves && kinds.length; i++) total += kinds[i % kinds.length]!;
  return total;
}

/**
 * A card's Fire actions against the field on the approach, by the subsets of weapons in reach
 * (approach.ts `InReach`): its own subsets' points removed from each member, and each member's
 * subsets' share of the card, computed on first use and kept for the card's stopping distances.
 */
interface CardShares {
  mine: InReach;
  def: string;
  /** [card subset][member]: sequential share x the member's points. */
  dealt: number[][];
  /** [member][member subset]: sequential share of the card. */
  taken: number[][];
}

function cardShares(profile: UnitProfile, field: ReferenceField): CardShares {
  const mine = inReachOf(profile, offenseKey);
  return { mine, def: defenseKey(profile), dealt: mine.subsets.map(() => []), taken: field.members.map(() => []) };
}

function fieldApproach(field: ReferenceField): { mover: Mover; inReach: InReach }[] {
  return (field.memo.approach ??= field.members.map((m) => ({ mover: moverOf(m.profile), inReach: inReachOf(m.profile, offenseKey) })));
}

function dealtBy(c: CardShares, field: ReferenceField, k: number, j: number): number {
  let v = c.dealt[k]![j];
  if (v === undefined) {
    const m = field.members[j]!;
    const sub = c.mine.subsets[k]!;
    v = c.dealt[k]![j] = ownerOf(field).volleys.shareOf(sub.profile, m.profile, sub.key, m.def).sequential * m.points;
  }
  return v;
}

function takenFrom(c: CardShares, field: ReferenceField, profile: UnitProfile, j: number, k: number): number {
  let v = c.taken[j]![k];
  if (v === undefined) {
    const sub = fieldApproach(field)[j]!.inReach.subsets[k]!;
    v = c.taken[j]![k] = ownerOf(field).volleys.shareOf(sub.profile, profile, sub.key, c.def).sequential;
  }
  return v;
}

/** What the card's Fire actions at distances `at` remove of member `j` (its points). */
function dealtAt(c: CardShares, field: ReferenceField, j: number, at: Float64Array): number {
  let dealt = 0;
  for (let i = 0; i < at.length; i += 2) {
    const k = subsetIndex(c.mine, at[i]!);
    if (k >= 0) dealt += at[i + 1]! * dealtBy(c, field, k, j);
  }
  return dealt;
}

/** What member `j`'s Fire actions at distances `at` (its weapons `inReach`) take of the card. */
function takenAt(c: CardShares, field: ReferenceField, profile: UnitProfile, j: number, inReach: InReach, at: Float64Array): number {
  let taken = 0;
  for (let i = 0; i < at.length; i += 2) {
    const k = subsetIndex(inReach, at[i]!);
    if (k >= 0) taken += at[i + 1]! * takenFrom(c, field, profile, j, k);
  }
  return taken;
}

/**
 * Firepower and durability on the approach (logs): each pair of the card and a field member on the
 * approach table (approach.ts), the Fire actions each makes with the weapons in reach, per round of
 * the battle; the card closing to `me.stopAt` before it fires (the engine's policy: its
 * longest reach).
 */
function approachFigures(
  profile: UnitProfile,
  field: ReferenceField,
  all: { firepower: number; durability: number },
  me: Mover,
  c: CardShares,
): { logFA: number; logHA: number; boardFA: number; boardHA: number } {
  const members = fieldApproach(field);
  const approaches = ownerOf(field).approaches;
  const cr = profile.cr;
  const hp = profile.hp * profile.bases;
  let dealt = 0;
  let taken = 0;
  let boarded = 0;
  let boardedBy = 0;
  for (let j = 0; j < members.length; j++) {
    const them = members[j]!;
    const [mineAt, theirsAt] = approaches.firesOf(me, them.mover, BATTLE_TABLE.rounds);
    dealt += dealtAt(c, field, j, mineAt);
    taken += takenAt(c, field, profile, j, them.inReach, theirsAt);
    const m = field.members[j]!;
    if (cr && m.profile.cr) {
      // Boarding (both have CR): in each round the card fires within boarding range of the member,
      // it boards it as its second action (the policy's choice when that is worth more than aiming:
      // counted as always, the fit weighs it), and the member boards it back in the rounds it
      // fires that close.
      const mine = withinBoarding(mineAt);
      const theirs = withinBoarding(theirsAt);
      const boarding = (field.memo.boarding ??= new Map());
      if (mine > 0) boarded += mine * boardingShare(boarding, cr, m.profile.cr, m.profile.hp * m.profile.bases) * m.points;
      if (theirs > 0) boardedBy += theirs * boardingShare(boarding, m.profile.cr, cr, hp);
    }
  }
  const perRound = field.members.length * BATTLE_TABLE.rounds;
  const fa = Math.max(dealt / perRound, APPROACH_FLOOR * all.firepower);
  const ha = Math.min(taken > 0 ? perRound / taken : Infinity, all.durability / APPROACH_FLOOR);
  return {
    logFA: Math.log(fa),
    logHA: Math.log(ha),
    boardFA: Math.log((fa + boarded / perRound) / fa),
    boardHA: -Math.log((perRound / ha + boardedBy) / (perRound / ha)),
  };
}

/** The Fire actions of `at` (distance, count, ...) made within boarding range. */
function withinBoarding(at: Float64Array): number {
  let n = 0;
  for (let i = 0; i < at.length; i += 2) if (at[i]! <= BOARDING.range) n += at[i + 1]!;
  return n;
}

/** The expected share of a unit of `hp` HP (all its bases) one boarding by `a` removes, defended by `d` (engine.ts `boardingPmf`). */
function boardingShare(boardingDamage: Map<string, number>, a: { target: number; dice: number }, d: { target: number; dice: number }, hp: number): number {
  if (!(hp > 0)) return 0;
  // Few distinct CR pairs (each computed once); the damage depends on the hull only up to the attacker's dice.
  const cap = Math.min(hp, a.dice);
  const key = `${a.target}/${a.dice}/${d.target}/${d.dice}/${cap}`;
  let s = boardingDamage.get(key);
  if (s === undefined) {
    const pmf = boardingPmf(a, d);
    s = 0;
    for (let k = 1; k < pmf.length; k++) s += pmf[k]! * Math.min(k, cap);
    if (boardingDamage.size > 100_000) boardingDamage.clear();
    boardingDamage.set(key, s);
  }
  return s / hp;
}

const FLEET_MEMO_MAX = 20_000;

/** Firepower and durability of the card's fleet against the field as one fleet (logs), closing to `stopAt`. */
function fleetFigures(
  profile: UnitProfile,
  field: ReferenceField,
  all: { firepower: number; durability: number },
  me: Mover,
  c: CardShares,
  /** Whether its firepower is wanted (else logFF is 0: only its durability is computed). */
  firepower = true,
): { logFF: number; logHF: number } {
  const members = fieldApproach(field);
  const played = (field.memo.fleet ??= new Map());
  let fleet = played.get(me.key);
  if (!fleet) {
    const maps = approachFleet(
      me,
      members.map((m) => m.mover),
      BATTLE_TABLE.rounds,
    );
    fleet = { mine: maps.mine.map(flatFires), theirs: maps.theirs.map(flatFires) };
    if (played.size >= FLEET_MEMO_MAX) played.clear();
    played.set(me.key, fleet);
  }
  let dealt = 0;
  let taken = 0;
  for (let j = 0; j < members.length; j++) {
    if (firepower) dealt += dealtAt(c, field, j, fleet.mine[j]);
    taken += takenAt(c, field, profile, j, members[j]!.inReach, fleet.theirs[j]);
  }
  const rounds = BATTLE_TABLE.rounds;
  const perRound = field.members.length * rounds;
  const fa = Math.max(dealt / rounds, APPROACH_FLOOR * all.firepower);
  const ha = Math.min(taken > 0 ? perRound / taken : Infinity, all.durability / APPROACH_FLOOR);
  return { logFF: firepower ? Math.log(fa) : 0, logHF: Math.log(ha) };
}

/**
 * The model's estimate of a card: the best over the distances it could close to before it fires
 * (approach.ts `stoppingDistances`; the engine's policy is the longest reach, and the features the
 * model is fitted on are the policy's), so that a longer gun never lowers the estimate.
 */
export function bestEstimate(m: BattleModel, profile: UnitProfile, x: BattleFeatures, field: ReferenceField): number {
  let best = modelEstimate(m, x);
  if (!MOVING_TERMS.some((t) => m.weights[t])) return best;
  const all = { firepower: Math.exp(x.logF), durability: Math.exp(x.logH) };
  const c = cardShares(profile, field);
  const fleet = FLEET_TERMS.some((t) => m.weights[t]);
  const policy = moverOf(profile).stopAt;
  for (const d of stoppingDistances(profile)) {
    // The policy's own distance is the one `x` was computed at.
    if (d >= policy) continue;
    const me = moverOf(profile, d);
    const a = approachFigures(profile, field, all, me, c);
    const at = { ...x, ...a, smallFA: x.small ? a.logFA : 0, ...(fleet ? fleetFigures(profile, field, all, me, c, !!m.weights.logFF) : {}) };
    best = Math.max(best, modelEstimate(m, at));
  }
  return best;
}

/** A card's features against a field (undefined: it deals or takes no damage); on the approach it closes to `stopAt` (default: its longest reach). */
export function battleFeatures(
  profile: UnitProfile,
  bays: BayCapacity,
  field: ReferenceField,
  stopAt?: number,
  only?: ReadonlySet<BattleTerm>,
): BattleFeatures | undefined {
  const all = figures(profile, field);
  if (!(all.firepower > 0) || !Number.isFinite(all.durability)) return undefined;
  const n = field.members.length;
  const fieldMove = n ? field.members.reduce((t, m) => t + moveOf(m.profile), 0) / n : 0;
  const mine = moveOf(profile);
  // Reach of its weapons: each weapon's firepower alone, weighed by the share of rounds it fires.
  let sum = 0;
  let weighted = 0;
  // (Each weapon alone is a card of its own to the volleys: skipped where no term reads it.)
  const wanted = (...ts: BattleTerm[]) => !only || ts.some((t) => only.has(t));
  if (wanted('logFR', 'smallF'))
    for (const w of profile.weapons) {
      const one = { ...profile, weapons: [w] };
      const f = figures(one, field).firepower;
      sum += f;
      weighted += f * reachShare(w.range, mine + fieldMove);
    }
  const reach = sum > 0 ? weighted / sum : 1;
  // The field's reach at it: the mean over the field of its longest weapon's share of rounds.
  let taken = 0;
  for (const m of field.members) {
    const longest = m.profile.weapons.reduce((r, w) => Math.max(r, w.range), 0);
    taken += reachShare(longest, mine + moveOf(m.profile));
  }
  const exposed = n ? taken / n : 1;
  const shares = cardShares(profile, field);
  const me = moverOf(profile, stopAt);
  const { logFA, logHA, boardFA, boardHA } = wanted(...APPROACH_TERMS)
    ? approachFigures(profile, field, all, me, shares)
    : { logFA: 0, logHA: 0, boardFA: 0, boardHA: 0 };
  const { logFF, logHF } = wanted(...FLEET_TERMS) ? fleetFigures(profile, field, all, me, shares, wanted('logFF')) : { logFF: 0, logHF: 0 };
  const cr = profile.cr ? profile.cr.dice * pSuccess(profile.cr.target) : 0;
  return {
    logF: Math.log(all.firepower),
    logFR: Math.log(all.firepower * reach),
    logH: Math.log(all.durability),
    logFA,
    logHA,
    logFF,
    logHF,
    cover: -Math.log(exposed),
    move: mine / 10,
    small: CLASSES[profile.class]?.smallCraft ? 1 : 0,
    squadron: profile.combinedShields && profile.bases > 1 ? 1 : 0,
    cr,
    boardFA,
    boardHA,
    logBases: Math.log(profile.bases),
    logClass: Math.log(CLASSES[profile.class]?.points ?? 1),
    smallF: CLASSES[profile.class]?.smallCraft ? Math.log(all.firepower * reach) : 0,
    smallH: CLASSES[profile.class]?.smallCraft ? Math.log(all.durability) : 0,
    smallFA: CLASSES[profile.class]?.smallCraft ? logFA : 0,
    carried: carriedPoints(bays, field.members),
  };
}

/** A model's terms, kept on the model. */
const TERMS_OF = memo<ReadonlySet<BattleTerm>>('model terms');

/** The terms a model weighs (a non-zero weight): the features an estimate with it needs. */
export function termsOf(m: BattleModel): ReadonlySet<BattleTerm> {
  let t = getMemo(m, TERMS_OF);
  if (!t) setMemo(m, TERMS_OF, (t = new Set(BATTLE_TERMS.filter((k) => m.weights[k] !== 0))));
  return t;
}

function core(m: BattleModel, x: BattleFeatures): number {
  let s = m.a;
  for (const t of BATTLE_TERMS) s += m.weights[t] * x[t];
  return s;
}

export function modelEstimate(m: BattleModel, x: BattleFeatures): number {
  return Math.exp(core(m, x)) + m.b * x.carried;
}

/** Solves A x = v (A symmetric, a tiny ridge on every row but the first for stability); undefined when singular. Changes A and v. */
function solve(A: number[][], v: number[], ridge = 1e-6): number[] | undefined {
  const k = v.length;
  for (let a = 1; a < k; a++) A[a]![a]! += ridge;
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < k; col++) {
    let piv = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(A[r]![col]!) > Math.abs(A[piv]![col]!)) piv = r;
    if (Math.abs(A[piv]![col]!) < 1e-12) return undefined;
    [A[col], A[piv]] = [A[piv]!, A[col]!];
    [v[col], v[piv]] = [v[piv]!, v[col]!];
    for (let r = 0; r < k; r++) {
      if (r === col) continue;
      const f = A[r]![col]! / A[col]![col]!;
      for (let c = col; c < k; c++) A[r]![c]! -= f * A[col]![c]!;
      v[r]! -= f * v[col]!;
    }
  }
  return v.map((x, i) => x / A[i]![i]!);
}

/**
 * Fits the model to battle prices: for each share b of the carried craft's points (a grid, then
 * refined), the weights by least squares in log space on price - b * carried, a term whose weight
 * falls below its floor held at the floor (an active set); the b with the least squared log error.
 * Which terms are fitted: `terms` (the others stay 0).
 */
export function fitBattleModel(
  xs: readonly BattleFeatures[],
  prices: readonly number[],
  terms: readonly BattleTerm[] = BATTLE_MODEL_TERMS,
  fitCarried = true,
): BattleModel | undefined {
  if (xs.length < 3) return undefined;
  // The features of the fitted terms as plain rows (the fit runs some fifty least-squares solves).
  const X = xs.map((x) => terms.map((t) => x[t]));
  const floors = terms.map((t) => TERM_FLOOR[t]);
  let best: { m: BattleModel; sse: number } | undefined;
  const tryB = (b: number) => {
    const fit = fitAt(X, xs, prices, floors, b);
    if (!fit) return;
    let sse = 0;
    X.forEach((row, i) => {
      let z = fit.a;
      for (let j = 0; j < row.length; j++) z += fit.w[j]! * row[j]!;
      const e = Math.exp(z) + b * xs[i]!.carried;
      sse += e > 0 ? Math.log(prices[i]! / e) ** 2 : 100;
    });
    if (!best || sse < best.sse) {
      const weights = Object.fromEntries(BATTLE_TERMS.map((t) => [t, 0])) as Record<BattleTerm, number>;
      terms.forEach((t, j) => (weights[t] = fit.w[j]!));
      best = { m: { a: fit.a, weights, b }, sse };
    }
  };
  if (!fitCarried || !xs.some((x) => x.carried > 0)) tryB(0);
  else {
    for (let i = 0; i <= 25; i++) tryB(-1 + i * 0.1);
    const b0 = best?.m.b ?? 0;
    for (let i = -4; i <= 4; i++) if (i) tryB(b0 + i * 0.025);
  }
  return best?.m;
}

/** Least squares of ys - (held terms at their floors) on [1, the free terms], from the normal equations built in place. */
function olsOf(
  rows: readonly (readonly number[])[],
  ys: readonly number[],
  free: readonly number[],
  held: ReadonlySet<number>,
  floors: readonly (number | undefined)[],
): number[] | undefined {
  const k = free.length + 1;
  const A = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const v = new Array<number>(k).fill(0);
  const r = new Array<number>(k);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    r[0] = 1;
    for (let j = 0; j < free.length; j++) r[j + 1] = row[free[j]!]!;
    let y = ys[i]!;
    for (const j of held) y -= floors[j]! * row[j]!;
    for (let a = 0; a < k; a++) {
      v[a]! += r[a]! * y;
      for (let c = 0; c < k; c++) A[a]![c]! += r[a]! * r[c]!;
    }
  }
  return solve(A, v);
}

function fitAt(
  X: readonly (readonly number[])[],
  xs: readonly BattleFeatures[],
  prices: readonly number[],
  floors: readonly (number | undefined)[],
  b: number,
): { a: number; w: number[] } | undefined {
  const rows: (readonly number[])[] = [];
  const ys: number[] = [];
  X.forEach((row, i) => {
    const rest = prices[i]! - b * xs[i]!.carried;
    if (!(rest > 0)) return;
    rows.push(row);
    ys.push(Math.log(rest));
  });
  const k = floors.length;
  // Terms held at their floor, added one at a time while the free fit puts them below it.
  const held = new Set<number>();
  for (let round = 0; round <= k; round++) {
    const free = [...Array(k).keys()].filter((j) => !held.has(j));
    if (rows.length < free.length + 2) return undefined;
    const beta = olsOf(rows, ys, free, held, floors);
    if (!beta) return undefined;
    const w = floors.map((f, j) => (held.has(j) ? f! : 0));
    free.forEach((j, i) => (w[j] = beta[i + 1]!));
    // The term furthest below its floor is held there, and the rest fitted again.
    let worst = -1;
    for (const j of free) {
      const f = floors[j];
      if (f !== undefined && w[j]! < f - 1e-12 && (worst < 0 || w[j]! - f < w[worst]! - floors[worst]!)) worst = j;
    }
    if (worst < 0) return { a: beta[0]!, w };
    held.add(worst);
  }
  return undefined;
}

/**
 * The terms the shipped model fits (with b, the share of the carried craft's points), chosen by
 * cross-validation on the synthetic variants alone (bench/battle-prices.ts prints the comparison;
 * greedy forward selection picks durability and firepower on the approach, then small craft's own
 * firepower weight, then boarding taken on the approach, after which durability against the field
 * as one fleet no longer helps): `smallFA` is taken where the greedy pick's `smallF` would be, as
 * it weighs the same firepower as `logFA` (so that a longer gun never lowers a craft's estimate).
 * Boarding dealt (`boardFA`) is kept although the variants' cross-validated error is 0.2 points
 * higher with it (±8.4% against ±8.2%, within what a fold moves it): without it a card's own
 * boarding strength moves its estimate only through what it takes, a boarding specialist (CR 3+/10
 * dice) was 14% below its battle price against 8% with it, and on the second homebrew set (never
 * fitted on) the near-fair rank correlation is 0.93 with it, 0.88 without. Plain and reach-weighed
 * firepower, plain durability, the fleet's firepower and durability, exposure, movement beyond
 * what the approach counts, squadrons, CR's successes alone, bases and the class's points each
 * made the variants' cross-validated error worse or no better, so they are left at 0.
 */
export const BATTLE_MODEL_TERMS: readonly BattleTerm[] = ['logFA', 'logHA', 'smallFA', 'boardHA', 'boardFA'];
/** CR is priced while the model weighs boarding on the approach (boardFA, boardHA) or CR's successes. */
const PRICES_CR = BATTLE_MODEL_TERMS.some((t) => t === 'cr' || t === 'boardFA' || t === 'boardHA');

/** The estimate's model on a field: what it was fitted to, the model, each member's leave-one-out model, and its leave-one-out error. */
export interface FieldModel {
  /** 'battle prices': the bundled field's (generated); 'printed points': a workspace field, the bundled fit's shape with its scale fitted to the field's points. */
  fittedTo: 'battle prices' | 'printed points';
  model: BattleModel;
  loo: (BattleModel | undefined)[];
  /** Per member: its measured battle price (the generated data, for the card as it was priced), if any. */
  measured: (number | undefined)[];
  /** Root mean square of log(price / leave-one-out estimate), price being what it was fitted to. */
  spreadLog: number;
  /** Variants of the bundled cards fitted on beside the field's cards (the generated training set; 0 for a workspace field). */
  variants: number;
  /**
   * The yardstick "fair": the geometric mean over the field's members of printed points / what the
   * model was fitted to (their battle prices; 1 when fitted to printed points). Every estimate is
   * the model's times it, so that the field's own cards are fair on average: fleets of copies of one
   * card trade better per point than the mixed fleets they are priced against (docs/points.md), and
   * a battle price alone would read the field's cards as cheap.
   */
  fair: number;
}

const BATTLE_PRICES = new Map<string, { price: number; low: number | null; high: number | null; fingerprint: string }>(
  (battlePrices.cards as { name: string; faction: string; price: number | null; low: number | null; high: number | null; fingerprint: string }[])
    .filter((c) => c.price !== null)
    .map((c) => [
      `${c.faction.trim().toLowerCase()}\u0000${c.name.trim().toLowerCase()}`,
      { price: c.price!, low: c.low, high: c.high, fingerprint: c.fingerprint },
    ]),
);

/** A member's measured battle price's 95% interval (the generated data), when it was priced as it is now. */
function measuredInterval(m: FieldMember): { low: number; high: number } | undefined {
  const hit = BATTLE_PRICES.get(m.id);
  return hit && hit.low !== null && hit.high !== null && hit.fingerprint === cardFingerprint(pricedMember(m)) ? { low: hit.low, high: hit.high } : undefined;
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

function fitKeyOf(members: readonly FieldMember[]): string {
  return members.map((m) => m.key).join('\u0001');
}

/** Whether the field's estimate would be fitted to battle prices once its members are priced (a workspace field not priced yet). */
export function fieldNeedsPrices(field: ReferenceField): boolean {
  return (
    field.source === 'workspace' &&
    field.battle?.fittedTo !== 'battle prices' &&
    field.members.length > 0 &&
    !ownerOf(field).fieldPrices(fitKeyOf(field.members))
  );
}

/** The battle prices of a field's members (by member key), measured against it, told to the instance that made the field. */
export function setFieldPrices(field: ReferenceField, prices: ReadonlyMap<string, number>): void {
  ownerOf(field).setFieldPrices(field, prices);
}

/** A member's measured battle price (the generated data), when it was priced as it is now. */
export function measuredPrice(m: FieldMember): number | undefined {
  const hit = BATTLE_PRICES.get(m.id);
  return hit && hit.fingerprint === cardFingerprint(pricedMember(m)) ? hit.price : undefined;
}

/** Refits only the scale `a` of a model to prices (the shape kept). */
function refitScale(m: BattleModel, xs: readonly BattleFeatures[], prices: readonly number[]): BattleModel | undefined {
  const ds: number[] = [];
  xs.forEach((x, i) => {
    const rest = prices[i]! - m.b * x.carried;
    const core = modelEstimate({ ...m, a: 0, b: 0 }, x);
    if (rest > 0 && core > 0) ds.push(Math.log(rest / core));
  });
  return ds.length ? { ...m, a: mean(ds) } : undefined;
}

/** The field's leave-one-out rows under its model: each member predicted by the model fitted without it. */
function looRows(field: ReferenceField, fm: FieldModel): LooRow[] {
  return field.members.map((m, i) => {
    const row: LooRow = { name: m.name, faction: m.faction, class: m.class, points: m.points };
    const x = battleFeatures(m.profile, m.bays, field);
    const model = fm.loo[i];
    const pred = x && model ? bestEstimate(model, m.profile, x, field) : NaN;
    const target = fm.fittedTo === 'battle prices' ? fm.measured[i] : m.points;
    if (fm.fittedTo === 'battle prices' && target !== undefined) row.price = target;
    if (Number.isFinite(pred) && pred > 0 && target !== undefined) {
      row.predicted = pred;
      row.errorPct = ((target - pred) / pred) * 100;
    }
    return row;
  });
}

/** A training row: a card's features, its battle price and the bundled card it is (a variant of). */
export interface TrainingRow {
  x: BattleFeatures;
  price: number;
  /** The bundled card's name: a card and its variants are left out together. */
  group: string;
  synthetic: boolean;
  /** Hull points (HP x bases): points per hull point, the benchmark's yardstick, rests on them. */
  hull: number;
  /** The card's profile (the estimate's best stopping distance reads it). */
  profile: UnitProfile;
}

interface SyntheticRow {
  card: PricedCard;
  parent: string;
  price: number | null;
  fingerprint: string;
  /** Its features against the bundled field, as the generator computed them (a test checks they are what `battleFeatures` gives now). */
  features?: BattleFeatures;
}

/** The generated variants of the bundled cards with their battle prices (scripts/build-synthetic-prices.ts), those priced as the settings are now. */
export function syntheticTraining(): { card: PricedCard; parent: string; price: number; features?: BattleFeatures }[] {
  const out: { card: PricedCard; parent: string; price: number; features?: BattleFeatures }[] = [];
  for (const r of syntheticPrices.cards as unknown as (PricedCard & SyntheticRow)[]) {
    if (r.price === null) continue;
    const card: PricedCard = {
      name: r.name,
      faction: r.faction,
      class: r.class,
      points: r.points,
      profile: r.profile,
      ...(r.bays ? { bays: r.bays } : {}),
    };
    if (cardFingerprint(card) === r.fingerprint) out.push({ card, parent: r.parent, price: r.price, ...(r.features ? { features: r.features } : {}) });
  }
  return out;
}

/** The generated variants' training rows, kept with the field's figure memo they were made against. */
const SYNTHETIC = memo<TrainingRow[]>('synthetic rows');

/** A variant's features against the field (what the generator stores). */
export function syntheticFeatures(card: PricedCard, field: ReferenceField): BattleFeatures | undefined {
  return battleFeatures(card.profile, card.bays ?? { tierFighters: 0, reserves: 0 }, field);
}

/**
 * The estimate's training set on the bundled field: the bundled cards' battle prices and their
 * variants' (`measured`: the bundled members' prices, in member order). Features against `field`.
 */
export function trainingRows(field: ReferenceField, measured: readonly (number | undefined)[]): TrainingRow[] {
  const rows: TrainingRow[] = [];
  field.members.forEach((m, i) => {
    const x = battleFeatures(m.profile, m.bays, field);
    const y = measured[i];
    if (x && y !== undefined && y > 0) rows.push({ x, price: y, group: m.name, synthetic: false, hull: m.profile.hp * m.profile.bases, profile: m.profile });
  });
  let synthetic = getMemo(field.memo, SYNTHETIC);
  if (!synthetic) {
    const syn: TrainingRow[] = [];
    for (const s of syntheticTraining()) {
      // The generated features (computing them is some 160 cards' volleys at the field: a third of a second cold).
      const x = s.features && BATTLE_TERMS.every((t) => typeof s.features![t] === 'number') ? s.features : syntheticFeatures(s.card, field);
      if (x && s.price > 0)
        syn.push({ x, price: s.price, group: s.parent, synthetic: true, hull: s.card.profile.hp * s.card.profile.bases, profile: s.card.profile });
    }
    setMemo(field.memo, SYNTHETIC, (synthetic = syn));
  }
  return [...rows, ...synthetic];
}

function fieldModel(st: Estimates, field: ReferenceField): FieldModel | undefined {
  // Fitted to battle prices where they were measured against this field: the bundled cards, wherever they are read from
  // (each as it was priced, and all of them), with their generated variants; any other field keeps the bundled fit's
  // shape, its scale fitted to the battle prices measured against it (priced in the background) or else to its points.
  const all = field.members.map((m) => measuredPrice(m));
  const known = st.fieldPrices(fitKeyOf(field.members));
  const bundledAll = all.length === BATTLE_PRICES.size && all.every((x) => x !== undefined);
  // Or priced in the background against this very field (the language server's FieldPricing).
  const ownPrices = !bundledAll && known ? field.members.map((m) => known.get(m.key)) : undefined;
  const fromBattles = bundledAll || (!!ownPrices && ownPrices.filter((x) => x !== undefined).length >= 3);
  const measured = bundledAll ? all : fromBattles ? ownPrices! : field.members.map(() => undefined);
  const loo: (BattleModel | undefined)[] = field.members.map(() => undefined);
  const residuals: number[] = [];
  let model: BattleModel | undefined;
  let variants = 0;
  if (bundledAll) {
    // The bundled field and the variants: each bundled card is left out with its variants.
    const rows = trainingRows(field, measured);
    variants = rows.filter((r) => r.synthetic).length;
    const fit = (rs: TrainingRow[]) =>
      fitBattleModel(
        rs.map((r) => r.x),
        rs.map((r) => r.price),
      );
    model = fit(rows);
    if (!model) return undefined;
    if (field.source === 'examples') st.bundledShape = model;
    field.members.forEach((m, i) => {
      const own = rows.find((r) => !r.synthetic && r.group === m.name);
      if (!own) return;
      const lm = fit(rows.filter((r) => r.group !== m.name));
      loo[i] = lm;
      const e = lm ? bestEstimate(lm, m.profile, own.x, field) : NaN;
      if (e > 0) residuals.push(Math.log(own.price / e));
    });
  } else {
    const shape = st.bundledShape;
    if (!shape) return undefined;
    const rows: { i: number; x: BattleFeatures; y: number }[] = [];
    field.members.forEach((m, i) => {
      const x = battleFeatures(m.profile, m.bays, field);
      const y = fromBattles ? measured[i] : m.points;
      if (x && y !== undefined && y > 0) rows.push({ i, x, y });
    });
    const fit = (rs: typeof rows) =>
      refitScale(
        shape,
        rs.map((r) => r.x),
        rs.map((r) => r.y),
      );
    model = fit(rows);
    if (!model) return undefined;
    for (const r of rows) {
      const m = fit(rows.filter((o) => o !== r));
      loo[r.i] = m;
      const e = m ? bestEstimate(m, field.members[r.i]!.profile, r.x, field) : NaN;
      if (e > 0) residuals.push(Math.log(r.y / e));
    }
  }
  return {
    fittedTo: fromBattles ? 'battle prices' : 'printed points',
    model,
    loo,
    measured,
    spreadLog: residuals.length ? Math.sqrt(mean(residuals.map((v) => v * v))) : NaN,
    variants,
    fair: fairScale(field.members, measured, fromBattles),
  };
}

/** The geometric mean of printed points / battle price over the members with a price (1 when the fit is to printed points). */
function fairScale(members: readonly FieldMember[], measured: readonly (number | undefined)[], fromBattles: boolean): number {
  if (!fromBattles) return 1;
  const logs: number[] = [];
  members.forEach((m, i) => {
    const price = measured[i];
    if (price !== undefined && price > 0 && m.points > 0) logs.push(Math.log(m.points / price));
  });
  return logs.length ? Math.exp(mean(logs)) : 1;
}
