/**
 * "Price by battle" on a card (BATTLE.md "Points from battles"): the card's battle price against
 * its workspace's reference field, reported as it converges, with the instant estimate beside it.
 * Pure: the caller gives the runner (the language server's plays in slices between turns of its
 * event loop and stops when the request is cancelled; a worker pool plugs in as a `PlayBattles`).
 */
import type { UnitCard } from '../model/types';
import type { Workspace } from '../workspace';
import { estimateInWorkspace, estimatesOf, pricedMember, workspaceField } from '../balance/index';
import { cardFingerprint, priceCard, pricedCardOf } from '../balance/battles';
import type { BattlePrice, PlayBattles, PricingField } from '../balance/battles';
import type { ReferenceField } from '../balance/field';
import type { BattlePriceResult } from '../api';
import { profileFromCard } from '../sim/profile';

/** The field as the battle pricing takes it. */
export function pricingFieldOf(field: ReferenceField): PricingField {
  return { cards: field.members.map(pricedMember) };
}

const r1 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? undefined : Math.round(v * 10) / 10);

/**
 * A battle price's figures as a player reads them, in the editor (the request's figures to 0.1,
 * which the lens, hover and notification round to whole points; the ratio to two decimals) and in
 * `balance --battles`'s table alike: rounding the JSON's 0.945 again gave 0.94 where the editor said
 * 0.95.
 */
export function shownBattlePrice(p: Pick<BattlePrice, 'price' | 'low' | 'high' | 'ratio'>): { price?: number; low?: number; high?: number; ratio?: number } {
  const whole = (v: number | undefined) => (r1(v) === undefined ? undefined : Math.round(r1(v)!));
  return {
    price: whole(p.price),
    low: whole(p.low),
    high: whole(p.high),
    ratio: p.ratio === undefined || !Number.isFinite(p.ratio) ? undefined : Math.round(p.ratio * 100) / 100,
  };
}

function resultOf(card: UnitCard, p: BattlePrice, estimate: number | undefined, field: ReferenceField, done: boolean, battles: number): BattlePriceResult {
  const out: BattlePriceResult = {
    name: p.name,
    points: p.points,
    trials: p.trials,
    battles,
    fleets: p.fleets,
    tried: p.tried,
    done,
    field: field.description,
  };
  if (card.points.value === undefined) delete out.points;
  const price = r1(p.price);
  if (price !== undefined) {
    out.price = price;
    out.low = r1(p.low)!;
    out.high = r1(p.high)!;
    const ratio = shownBattlePrice(p).ratio;
    if (ratio !== undefined) out.ratio = ratio;
  }
  if (estimate !== undefined) out.estimate = Math.round(estimate);
  if (p.reason && done) out.reason = p.reason;
  return out;
}

/**
 * Prices a card by battle; `sofar` gets the price after each round of battles. Undefined when the
 * card cannot be simulated (with the reason in `error`).
 */
export async function priceByBattle(
  card: UnitCard,
  ws: Workspace,
  play: PlayBattles,
  sofar?: (r: BattlePriceResult) => void,
): Promise<{ result?: BattlePriceResult; error?: string }> {
  const faction = card.faction.value ?? '';
  const priced = pricedCardOf(card, faction);
  if (!priced) {
    // The part of the card that stops it, as the hover's estimate says it (a weapon's unknown type, a missing HP).
    const why = profileFromCard(card).error;
    return { error: why ?? `${card.name.value ?? 'This card'} cannot be simulated: it needs a class, BS, HP and readable weapons.` };
  }
  const field = workspaceField(ws);
  const estimate = estimateInWorkspace(card, faction, ws).estimate;
  // From the printed points, as `balance --battles` and the generated prices search: the same card, the same price.
  const p = await priceCard(priced, pricingFieldOf(field), play, {
    progress: (played, now) => sofar?.(resultOf(card, now, estimate, field, false, played)),
  });
  const battles = p.against.reduce((t, a) => t + a.tried.length, 0);
  const result = resultOf(card, p, estimate, field, true, battles);
  if (result.price !== undefined && !p.cutShort) remember(estimatesOf(ws).measured, measuredKey(priced, field), result);
  return { result };
}

/**
 * The battle prices "Price by battle" measured are kept by the workspace's estimate state
 * (`Estimates.measured`), by card and field: the lens and the hover show the last one while the
 * card's stats and the field stay as they were. Not by printed points (the price is what the card
 * is worth, whatever it costs: "Set points to N" keeps it). At most `MEASURED_MAX`.
 */
const MEASURED_MAX = 500;

function measuredKey(priced: NonNullable<ReturnType<typeof pricedCardOf>>, field: ReferenceField): string {
  // The profile carries the points too: both left out.
  return `${field.id}\u0000${cardFingerprint({ ...priced, points: 0, profile: { ...priced.profile, points: undefined } })}`;
}

function remember(measured: Map<string, BattlePriceResult>, key: string, r: BattlePriceResult): void {
  measured.delete(key);
  if (measured.size >= MEASURED_MAX) measured.delete(measured.keys().next().value!);
  measured.set(key, r);
}

/** The card's battle price as Price by battle last measured it against its workspace's field, if it did (the ratio from its points now). */
export function measuredBattlePrice(card: UnitCard, ws: Workspace): BattlePriceResult | undefined {
  const measured = estimatesOf(ws).measured;
  if (measured.size === 0) return undefined;
  const priced = pricedCardOf(card, card.faction.value ?? '');
  if (!priced) return undefined;
  const r = measured.get(measuredKey(priced, workspaceField(ws)));
  if (!r || r.price === undefined) return undefined;
  const points = card.points.value;
  const out: BattlePriceResult = { ...r };
  if (typeof points === 'number' && points > 0) {
    // The measured ratio where the points are those it was measured at (from the unrounded price); else from the price shown.
    if (points !== r.points) out.ratio = Math.round((points / r.price) * 100) / 100;
    out.points = points;
  } else {
    delete out.points;
    delete out.ratio;
  }
  return out;
}
