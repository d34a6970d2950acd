/**
 * Points from battles (BATTLE.md "Points from battles"): what a card is worth in the fleet battle.
 *
 * A card's battle price: fleets of copies of it (each copy with what it carries, see `packageOf`)
 * fight reference fleets built from the field, at the game sizes, every battle from the same seed
 * (trial i of every battle rolls from the same jump-ahead stream: paired dice). Against a
 * reference fleet of P points, n copies are worth P points between them; `d(n)` is the mean, over
 * trials, of (enemy points destroyed - own points lost) / P. `d` grows with n; the break-even
 * count n* where d = 0 is found by bracketing and interpolated in log n, and the package's price
 * against that fleet is P / n*. Prices from every reference fleet and size are combined in log
 * space, weighted by their precision; the 95% interval is from the trials (the standard error of
 * d at each count, carried through the interpolation), or the fleets' disagreement when larger. A
 * host's price is its package's, its bays filled (`BATTLE_PRICE.chargeCarried` false: what it
 * carries is part of what the card brings; true: the carried craft's printed points taken off).
 *
 * The battles themselves are played by a `PlayBattles` function (plain-data setups in, totals
 * out), so that the same pricing runs in-process (`playInProcess`: the CLI today, tests, the
 * generator script) or on any simulation runner (`playOn`: the CLI's and the editor's worker
 * threads, the browser's web workers; their totals add up by `addTotals`).
 */
import { CLASSES, CLASS_NAMES, GAME_SIZES, LAUNCH_BAY, BATTLE_PRICE } from '../rules/data';
import type { UnitClass } from '../rules/data';
import type { UnitProfile } from '../sim/types';
import { SimCancelled, type PricingBattle, type PricingTotals, type SimPriority, type SimRunner, type SimToken } from '../sim/runner';
import { playPricing, pricingFigure } from '../sim/run-here';
import type { BattleUnit, Fleet } from '../sim/battle';
import { profileFromCard, sanitizeProfile } from '../sim/profile';
import { bayCapacity } from '../model/derived';
import type { UnitCard } from '../model/types';

/** One battle to play, as plain data (it crosses to a worker thread as it is). */
export type { PricingBattle, PricingTotals };

/** Plays battles and returns their totals in the same order. */
export type PlayBattles = (battles: readonly PricingBattle[]) => Promise<PricingTotals[]>;

/** Totals of two chunks of one battle's trials (what a worker pool adds up). */
export function addTotals(a: PricingTotals, b: PricingTotals): PricingTotals {
  return {
    trials: a.trials + b.trials,
    sumDiff: a.sumDiff + b.sumDiff,
    sumDiffSq: a.sumDiffSq + b.sumDiffSq,
    sumDealt: a.sumDealt + b.sumDealt,
    sumLost: a.sumLost + b.sumLost,
    cutShort: a.cutShort || b.cutShort,
  };
}

/** One battle, played here to the end (or its work limit). Pure: the same setup gives the same totals. */
export const playBattle = playPricing;

/**
 * Battles played on a simulation runner (core/sim/runner.ts), all handed out at once (the runner
 * plays as many at a time as it has threads); a cancel by `token` rejects with PricingCancelled.
 */
export function playOn(runner: SimRunner, priority: SimPriority, token?: SimToken): PlayBattles {
  return async (battles) => {
    if (token?.isCancellationRequested) throw new PricingCancelled();
    try {
      return await Promise.all(battles.map((battle) => runner.run({ kind: 'price', battle }, priority, undefined, token)));
    } catch (e) {
      throw e instanceof SimCancelled || token?.isCancellationRequested ? new PricingCancelled() : e;
    }
  };
}

/**
 * The in-process runner: every battle on this thread, one after another, yielding to the event
 * loop between battles (so an editor stays responsive) and stopping when `cancelled()` says so.
 */
export function playInProcess(opts: { cancelled?: () => boolean } = {}): PlayBattles {
  return async (battles) => {
    const out: PricingTotals[] = [];
    for (const b of battles) {
      if (opts.cancelled?.()) throw new PricingCancelled();
      out.push(playBattle(b));
      await new Promise<void>((r) => setImmediate(r));
    }
    return out;
  };
}

export class PricingCancelled extends Error {
  constructor() {
    super('the pricing was cancelled');
  }
}

/** A card as the pricing sees it. */
export interface PricedCard {
  name: string;
  faction: string;
  class: UnitClass;
  points: number;
  profile: UnitProfile;
  /** Fighter-only slots (Launch Bay Tier N) and Fighter-or-Bomber slots (a Carrier's reserves). */
  bays?: { tierFighters: number; reserves: number };
}

/** The field's cards the pricing builds reference fleets and carried craft from. */
export interface PricingField {
  cards: readonly PricedCard[];
}

/** One reference fleet: its units and the points they cost. */
export interface ReferenceFleet {
  name: string;
  size: number;
  points: number;
  units: BattleUnit[];
}

function unit(c: PricedCard, points: number, copy: number, host?: number): BattleUnit {
  return { name: c.name, copy, points, profile: c.profile, ...(host !== undefined ? { host } : {}) };
}

/** Faction, then name: ties are broken the same way whatever order the field's cards come in. */
function byName(a: PricedCard, b: PricedCard): number {
  const x = `${a.faction}\u0000${a.name}`;
  const y = `${b.faction}\u0000${b.name}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The field's factions, most cards first (then by name), at most `max`. */
function factionsOf(field: PricingField, max: number): string[] {
  const count = new Map<string, number>();
  for (const c of field.cards) count.set(c.faction, (count.get(c.faction) ?? 0) + 1);
  return [...count.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([f]) => f);
}

/**
 * The reference fleets at one game size: one per faction of the field (the two with most cards;
 * with one faction, two fleets of it), each filled by passes over the faction's cards in class
 * order, taking each card that still fits, until none does: the first fleet's passes start with
 * the smallest class, the second's at the middle class (so a Skirmish fleet is never one
 * Dreadnought).
 */
export function referenceFleets(field: PricingField, size: number): ReferenceFleet[] {
  const factions = factionsOf(field, BATTLE_PRICE.referenceFleetsPerSize);
  const plans =
    factions.length === 1 && BATTLE_PRICE.referenceFleetsPerSize > 1 ? [0, 1].map((k) => [factions[0]!, k] as const) : factions.map((f, k) => [f, k] as const);
  const out: ReferenceFleet[] = [];
  for (const [faction, k] of plans) {
    const cards = field.cards
      .filter((c) => c.faction === faction && c.points > 0)
      .sort((a, b) => CLASS_NAMES.indexOf(a.class) - CLASS_NAMES.indexOf(b.class) || a.points - b.points || byName(a, b));
    if (!cards.length) continue;
    // The first fleet's passes run small to big; the second's start at the middle class and wrap.
    const from = k % 2 === 0 ? 0 : Math.floor(cards.length / 2);
    const order = [...cards.slice(from), ...cards.slice(0, from)];
    const units: BattleUnit[] = [];
    const copies = new Map<string, number>();
    let points = 0;
    for (let pass = 0; pass < 40; pass++) {
      let added = false;
      for (const c of order) {
        if (points + c.points > size || units.length >= BATTLE_PRICE.maxUnits) continue;
        const n = (copies.get(c.name) ?? 0) + 1;
        copies.set(c.name, n);
        units.push(unit(c, c.points, n));
        points += c.points;
        added = true;
      }
      if (!added) break;
    }
    if (units.length) out.push({ name: `${faction || 'Field'} ${size}`, size, points, units });
  }
  return out;
}

/** A card and the craft it carries into battle (its bays filled from the field's small craft), with their printed points. */
export interface Package {
  card: PricedCard;
  carried: PricedCard[];
  /** Printed points of what it carries. */
  carriedPoints: number;
}

/**
 * What a copy of the card fights with: the card, and in its bays the field's craft (the field's
 * Fighters, cheapest first, in Fighter-only slots; Fighters and Bombers taken in turn in a
 * Carrier's reserves). A bay left empty is what a field without small craft allows.
 */
export function packageOf(card: PricedCard, field: PricingField): Package {
  const carried: PricedCard[] = [];
  const bays = card.bays ?? { tierFighters: 0, reserves: 0 };
  const byPoints = (cls: UnitClass) =>
    field.cards.filter((c) => c.class === cls && !c.bays?.reserves && !c.bays?.tierFighters).sort((a, b) => a.points - b.points || byName(a, b));
  const fighters = byPoints('Fighter');
  const bombers = byPoints('Bomber');
  for (let i = 0; i < bays.tierFighters && fighters.length; i++) carried.push(fighters[i % fighters.length]!);
  const reserveKinds = [fighters, bombers].filter((l, i) => l.length && LAUNCH_BAY.carrierCarries.includes(i === 0 ? 'Fighter' : 'Bomber'));
  for (let i = 0; i < bays.reserves && reserveKinds.length; i++) {
    const kind = reserveKinds[i % reserveKinds.length]!;
    carried.push(kind[Math.floor(i / reserveKinds.length) % kind.length]!);
  }
  return { card, carried, carriedPoints: carried.reduce((t, c) => t + c.points, 0) };
}

/** n packages, worth `worth` points between them (each unit's share in proportion to its printed points). */
function copiesFleet(pkg: Package, n: number, worth: number): Fleet {
  const printed = pkg.card.points + pkg.carriedPoints;
  const scale = printed > 0 ? worth / n / printed : 0;
  const units: BattleUnit[] = [];
  const copies = new Map<string, number>();
  const add = (c: PricedCard, host?: number) => {
    const k = (copies.get(c.name) ?? 0) + 1;
    copies.set(c.name, k);
    units.push(unit(c, printed > 0 ? c.points * scale : worth / n / (1 + pkg.carried.length), k, host));
    return units.length - 1;
  };
  for (let i = 0; i < n; i++) {
    const host = add(pkg.card);
    for (const c of pkg.carried) add(c, host);
  }
  return { name: `${pkg.card.name} x${n}`, faction: pkg.card.faction, units };
}

export interface PriceAgainst {
  fleet: string;
  size: number;
  /** The package's break-even price against this fleet and its standard error in log space; undefined when not bracketed. */
  price?: number;
  seLog?: number;
  /** Copies tried and d at each (mean, standard error). */
  tried: { n: number; d: number; se: number }[];
  /** Why there is no price from this fleet. */
  note?: string;
}

export interface BattlePrice {
  name: string;
  faction: string;
  class: UnitClass;
  points: number;
  /** Break-even price of the card (with what it carries, see `BATTLE_PRICE.chargeCarried`) and its 95% interval. */
  price?: number;
  low?: number;
  high?: number;
  /** Printed points / price. */
  ratio?: number;
  trials: number;
  /** Reference fleets that gave a price, of those tried. */
  fleets: number;
  tried: number;
  carried: string[];
  against: PriceAgainst[];
  /** Why there is no price. */
  reason?: string;
  cutShort: boolean;
}

export interface PricingOptions {
  /** Trials per battle, the most (`sure`). */
  trials?: number;
  /** When a battle stops before its trials (`BATTLE_PRICE.sure`); null: every battle plays them all. */
  sure?: PricingBattle['sure'] | null;
  seed?: number;
  rounds?: number;
  /** Game sizes (points). */
  sizes?: readonly number[];
  /** Starting guess of the card's price (default: its printed points, else its class's). */
  guess?: number;
  /** Called after each round of battles with the battles played so far and the price so far (the editor shows it converge). */
  progress?: (played: number, sofar: BattlePrice) => void;
}

interface Probe {
  pf: ReferenceFleet;
  tried: Map<number, { d: number; se: number; trials: number; cut: boolean }>;
  lo?: number;
  hi?: number;
  done: boolean;
  note?: string;
  next?: number;
}

/**
 * The battle price of one card against a field. Each step plays one battle per reference fleet
 * still searching (in one call of `play`, so a pool runs them side by side): counts from the
 * guess, stepping by `BATTLE_PRICE.step` until d changes sign, then halving the bracket while it
 * spans more than one copy and `BATTLE_PRICE.bracket`.
 */
export async function priceCard(card: PricedCard, field: PricingField, play: PlayBattles, o: PricingOptions = {}): Promise<BattlePrice> {
  const trials = o.trials ?? BATTLE_PRICE.trials;
  const seed = o.seed ?? BATTLE_PRICE.seed;
  const rounds = o.rounds ?? BATTLE_PRICE.rounds;
  const sure = o.sure === null ? undefined : (o.sure ?? BATTLE_PRICE.sure);
  const sizes = o.sizes ?? GAME_SIZES.map((g) => g.points);
  const pkg = packageOf(card, field);
  const printed = card.points + pkg.carriedPoints;
  const guess = o.guess !== undefined && o.guess > 0 ? o.guess + pkg.carriedPoints : printed > 0 ? printed : CLASSES[card.class].points + pkg.carriedPoints;
  const out: BattlePrice = {
    name: card.name,
    faction: card.faction,
    class: card.class,
    points: card.points,
    trials: 0,
    fleets: 0,
    tried: 0,
    carried: pkg.carried.map((c) => c.name),
    against: [],
    cutShort: false,
  };
  const maxN = Math.max(1, Math.floor(BATTLE_PRICE.maxUnits / (1 + pkg.carried.length)));
  const probes: Probe[] = [];
  for (const size of sizes)
    for (const pf of referenceFleets(field, size)) {
      const n0 = Math.min(maxN, Math.max(1, Math.round(pf.points / guess)));
      probes.push({ pf, tried: new Map(), done: false, next: n0 });
    }
  out.tried = probes.length;
  if (!probes.length) {
    out.reason = 'the field has no card to build a reference fleet from.';
    return out;
  }
  let played = 0;
  for (let step = 0; step < BATTLE_PRICE.maxSteps; step++) {
    const live = probes.filter((p) => !p.done && p.next !== undefined);
    if (!live.length) break;
    const battles = live.map((p): PricingBattle => ({
      fleets: [copiesFleet(pkg, p.next!, p.pf.points), { name: p.pf.name, faction: '', units: p.pf.units }],
      size: p.pf.size,
      rounds,
      trials,
      seed,
      worth: p.pf.points,
      ...(sure ? { sure } : {}),
    }));
    const totals = await play(battles);
    played += battles.length;
    live.forEach((p, i) => {
      const t = totals[i]!;
      const n = p.next!;
      const { d: mean, se } = pricingFigure(t);
      p.tried.set(n, { d: mean, se, trials: t.trials, cut: t.cutShort });
      out.trials += t.trials;
      out.cutShort ||= t.cutShort;
      if (mean < 0) p.lo = Math.max(p.lo ?? 0, n);
      else p.hi = Math.min(p.hi ?? Infinity, n);
      p.next = nextCount(p, maxN);
      if (p.next === undefined) p.done = true;
    });
    if (o.progress) o.progress(played, combine({ ...out, against: [] }, probes, pkg, card));
  }
  return combine(out, probes, pkg, card);
}

/** The price from the fleets bracketed so far (the final one once every search has ended). */
function combine(base: BattlePrice, probes: Probe[], pkg: Package, card: PricedCard): BattlePrice {
  const out: BattlePrice = { ...base, against: [] };
  delete out.price;
  delete out.low;
  delete out.high;
  delete out.ratio;
  delete out.reason;
  const logs: { x: number; w: number }[] = [];
  for (const p of probes) {
    const r = breakEven(p);
    out.against.push(r);
    if (r.price !== undefined && r.seLog !== undefined) logs.push({ x: Math.log(r.price), w: 1 / Math.max(r.seLog, BATTLE_PRICE.minSeLog) ** 2 });
  }
  out.fleets = logs.length;
  if (!logs.length) {
    out.reason = 'no reference fleet could be brought to break even by any number of copies (it wins with one copy, or loses with as many as a table holds).';
    return out;
  }
  const wsum = logs.reduce((t, l) => t + l.w, 0);
  const x = logs.reduce((t, l) => t + l.w * l.x, 0) / wsum;
  // Between-fleet spread counts too: the interval is the larger of the trials' and the fleets' disagreement.
  const seTrials = Math.sqrt(1 / wsum);
  const spread = logs.length > 1 ? Math.sqrt(logs.reduce((t, l) => t + l.w * (l.x - x) ** 2, 0) / wsum / (logs.length - 1)) : 0;
  const se = Math.max(seTrials, spread);
  const pkgPrice = Math.exp(x);
  const take = BATTLE_PRICE.chargeCarried ? pkg.carriedPoints : 0;
  const price = pkgPrice - take;
  if (!(price > 0)) {
    out.reason = `with what it carries it is worth about ${Math.round(pkgPrice)} pts, no more than its carried craft's ${take} pts alone.`;
    return out;
  }
  out.price = price;
  out.low = Math.max(0, pkgPrice * Math.exp(-1.96 * se) - take);
  out.high = pkgPrice * Math.exp(1.96 * se) - take;
  if (card.points > 0) out.ratio = card.points / price;
  return out;
}

function nextCount(p: Probe, maxN: number): number | undefined {
  const { lo, hi } = p;
  if (lo !== undefined && hi !== undefined) {
    if (hi - lo <= 1 || hi / lo <= BATTLE_PRICE.bracket) return undefined;
    const mid = Math.round(Math.sqrt(lo * hi));
    return mid > lo && mid < hi ? mid : undefined;
  }
  if (hi !== undefined) {
    // Winning: fewer copies.
    if (hi <= 1) {
      p.note = 'one copy already destroys more than it loses';
      return undefined;
    }
    return Math.max(1, Math.min(hi - 1, Math.floor(hi / BATTLE_PRICE.step)));
  }
  if (lo !== undefined) {
    if (lo >= maxN) {
      p.note = `${maxN} copies still lose more than they destroy`;
      return undefined;
    }
    return Math.min(maxN, Math.max(lo + 1, Math.ceil(lo * BATTLE_PRICE.step)));
  }
  return undefined;
}

function breakEven(p: Probe): PriceAgainst {
  const tried = [...p.tried.entries()].sort((a, b) => a[0] - b[0]).map(([n, v]) => ({ n, d: v.d, se: v.se }));
  const r: PriceAgainst = { fleet: p.pf.name, size: p.pf.size, tried };
  if (p.lo === undefined || p.hi === undefined) {
    r.note = p.note ?? 'not bracketed';
    return r;
  }
  const a = p.tried.get(p.lo)!;
  const b = p.tried.get(p.hi)!;
  const xa = Math.log(p.lo);
  const xb = Math.log(p.hi);
  const t = b.d - a.d > 0 ? -a.d / (b.d - a.d) : 0.5;
  const x = xa + t * (xb - xa);
  const slope = (b.d - a.d) / (xb - xa);
  const seD = Math.sqrt((1 - t) ** 2 * a.se ** 2 + t ** 2 * b.se ** 2);
  r.price = p.pf.points / Math.exp(x);
  r.seLog = slope > 0 ? seD / slope : Infinity;
  return r;
}

/** A card as the pricing takes it (undefined: the engine cannot read it, or it has no class or points). */
export function pricedCardOf(card: UnitCard, faction: string): PricedCard | undefined {
  const r = profileFromCard(card);
  const cls = card.class.value;
  if (!r.profile || !cls || !CLASSES[cls]) return undefined;
  const points =
    typeof card.points.value === 'number' && Number.isFinite(card.points.value) && card.points.value >= 0 ? card.points.value : CLASSES[cls].points;
  const bays = bayCapacity(card);
  return {
    name: card.name.value?.trim() || '(unnamed card)',
    faction,
    class: cls,
    points,
    profile: sanitizeProfile(r.profile),
    ...(bays.tierFighters || bays.reserves ? { bays } : {}),
  };
}

/** FNV-1a, two 32-bit lanes, as hex: a short fingerprint of a long string. */
function fingerprintOf(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (a >>> 7), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * What the battle prices of a field rest on: its cards (every number the engine reads, points,
 * bays) and the pricing's settings. Generated prices carry it; a test compares it with the field's
 * now (cheap), so that prices left behind by a card or setting change fail the tests.
 */
export function pricingFingerprint(field: PricingField): string {
  const cards = field.cards.map((c) => [c.name, c.faction, c.class, c.points, c.bays ?? null, c.profile]);
  return fingerprintOf(JSON.stringify({ cards, settings: BATTLE_PRICE, sizes: GAME_SIZES.map((g) => [g.points, g.depth]) }));
}

/** What one card's battle price rests on (its numbers and the pricing's settings), for the generated data. */
export function cardFingerprint(card: PricedCard): string {
  return fingerprintOf(JSON.stringify({ card: [card.name, card.faction, card.class, card.points, card.bays ?? null, card.profile], settings: BATTLE_PRICE }));
}

/** The battle prices of several cards against one field, one card after another (each card's battles go to `play` together). */
export async function priceCards(
  cards: readonly PricedCard[],
  field: PricingField,
  play: PlayBattles,
  o: PricingOptions & { each?: (r: BattlePrice, i: number) => void } = {},
): Promise<BattlePrice[]> {
  const out: BattlePrice[] = [];
  for (const [i, c] of cards.entries()) {
    const r = await priceCard(c, field, play, o);
    out.push(r);
    o.each?.(r, i);
  }
  return out;
}
