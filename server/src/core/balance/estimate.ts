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
 *
 * The parts: the field and its members (./field.ts), the first fit (./fit.ts), the battle features
 * (./features.ts), the battle model (./model.ts), the battle prices it is fitted to (./prices.ts),
 * the state a service owns (./state.ts); here, the field made and a card estimated against it.
 */
import { CLASSES, LAUNCH_BAY, POINTS_ESTIMATE } from '../rules/data';
import { bayCapacity } from '../model/derived';
import type { UnitCard } from '../model/types';
import { getMemo, memo, setMemo } from '../model/memo';
import {
  type CardLike,
  type FieldMember,
  type FieldSource,
  type ReferenceField,
  type PointsEstimate,
  cardName,
  profileOf,
  battleKey,
  memberKey,
  standardCards,
  capField,
  fitKeyOf,
} from './field';
import { type Estimates, OWNER } from './state';
import { pct, fitField } from './fit';
import { figures, battleFeatures } from './features';
import { bestEstimate, termsOf, PRICES_CR } from './model';
import { measuredInterval, looRows, fieldModel, shippedFit } from './prices';

/** Universal rules the engine applies (so listing them prices nothing more). */
const MODELLED_RULES = new Set(['dogfighters', 'precision strike', 'combined shields']);

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
