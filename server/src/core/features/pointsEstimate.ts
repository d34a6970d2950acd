/**
 * The points estimate where a designer looks (BATTLE.md "The points estimate"): the hover of a
 * card's `points`, a "≈ N pts" code lens, and an information note when printed points and
 * estimate differ by more than twice the field's spread. Costs are the designer's call: the note
 * is never a warning or an error, and a card with errors gets none (fix the card first).
 */
import type { FabledDocument, Problem, Span, UnitCard } from '../model/types';
import type { Workspace } from '../workspace';
import { CODES } from '../model/codes';
import { POINTS_ESTIMATE } from '../rules/data';
import { estimateInWorkspace, workspaceField } from '../balance/index';
import { measuredPrice } from '../balance/prices';
import type { PointsEstimate, ReferenceField } from '../balance/index';
import { cardsOf, md, RESULT_CAP } from './shared';
import type { BattlePriceResult, CardEstimate } from '../api';
import { measuredBattlePrice } from './priceByBattle';

const round = (v: number) => Math.round(v).toLocaleString('en-US');

/** "far too cheap" / "far too dear" / undefined. */
export function verdict(e: PointsEstimate): string | undefined {
  if (!e.farOff || e.ratio === undefined) return undefined;
  return e.ratio > 1 ? 'far too dear' : 'far too cheap';
}

/** A measured battle price in words, as the lens and the hover show it: "Battle price 146 pts (likely 138–155)", the 95% interval. */
export function battlePriceWords(r: BattlePriceResult): string {
  const range = r.low !== undefined && r.high !== undefined ? ` (likely ${Math.round(r.low)}\u2013${Math.round(r.high)})` : '';
  return `Battle price ${Math.round(r.price!)} pts${range}`;
}

/**
 * A battle price's verdict (`balance --battles`, the hover): far too dear or cheap when the printed
 * points are beyond ×/÷`flagRatio` of the price over its whole 95% interval, "on the line" when
 * only part of the interval is (the battles cannot tell), else undefined.
 */
export function battleVerdict(points: number | undefined | null, low: number | undefined | null, high: number | undefined | null): string | undefined {
  if (points == null || !(points > 0) || low == null || high == null) return undefined;
  const f = POINTS_ESTIMATE.flagRatio;
  if (points / high > f) return 'far too dear';
  if (points / low < 1 / f) return 'far too cheap';
  if (points / low > f || points / high < 1 / f) return 'on the line';
  return undefined;
}

/**
 * What the field's cards of the card's class are estimated at, on the same yardstick, beside their
 * printed points: the rulebook's own standard-cost cards are not all worth their printed points
 * (the bundled ones from 0.75 to 1.34 × them), so a designer reads "≈ 159 pts" on a 145-point
 * Destroyer against what the standard Destroyers read. Undefined where the field has no measured
 * price of that class (other than the card's own).
 */
function classPeers(card: UnitCard, field: ReferenceField): string | undefined {
  const cls = card.class.value;
  if (!cls) return undefined;
  const name = card.name.value?.trim();
  const fair = field.battle?.fair ?? 1;
  const peers = field.members
    .map((m) => ({ m, price: m.class === cls && m.name !== name ? measuredPrice(m) : undefined }))
    .filter((x): x is { m: (typeof field.members)[number]; price: number } => x.price !== undefined)
    .slice(0, 3);
  if (!peers.length) return undefined;
  const list = peers.map((x) => `${md(x.m.name)} (${x.m.points} pts) at ≈ ${round(x.price * fair)} pts`);
  const last = list.pop()!;
  return `For comparison, on the same yardstick: ${list.length ? `${list.join(', ')} and ${last}` : last}.`;
}

/**
 * What "fair" is measured against, in one sentence: the field's cards, on average. Fitted to
 * battle prices, the estimate is the card's battle price times the field's fair scale (fleets of
 * copies of one card trade better per point than the mixed fleets they are priced against, so a
 * battle price alone reads the field's own cards as cheap); fitted to printed points, it is scaled
 * to them already.
 */
export function fairWords(field: ReferenceField): string {
  const fm = field.battle;
  if (fm?.fittedTo === 'battle prices')
    return (
      `“Fair” is measured against ${md(field.description)}, on average: ` +
      `the estimate is the card’s battle price × ${fm.fair.toFixed(2)}, the scale at which their battle prices average their printed points.`
    );
  return `“Fair” is measured against ${md(field.description)}, on average: the estimate’s weights are fitted to battle prices, its scale to those cards’ printed points.`;
}

/** The estimate's formula in words: the hover's Advanced part and `balance` say the same. */
export function estimateWords(field: ReferenceField): string {
  if (!field.battle) return `Estimate = ${Number.isFinite(field.k) ? field.k.toFixed(2) : '?'} x sqrt(firepower x durability)`;
  const weighed =
    'Estimate: firepower weighed by its reach on the approach table (ranges and moves), durability, small craft, launch capacity and boarding (CR)';
  const weights = 'the weights fitted to the battle prices of the bundled field and variants of its cards';
  if (field.battle.fittedTo === 'printed points') return `${weighed} (${weights}), scaled to this field's points`;
  return field.battle.measured.every((x, i) => x === undefined || x === measuredPrice(field.members[i]!))
    ? `${weighed}, fitted to the battle prices of the bundled field and ${field.battle.variants} variants of its cards, times ${field.battle.fair.toFixed(2)} (the field's printed points over its battle prices, on average)`
    : `${weighed} (${weights}), scaled to this field's battle prices (priced in the background), times ${field.battle.fair.toFixed(2)} (its printed points over its battle prices, on average)`;
}

/** What the note's figure is: a measured battle price, a predicted one, or (a workspace field not priced) a cost like its cards'. */
function noteSource(e: PointsEstimate, field: ReferenceField): string {
  if (e.measured) return 'its battle price against the reference field is';
  return field.battle?.fittedTo === 'battle prices' ? 'its estimated battle price against the reference field is' : 'cards costed like it would put it at';
}

function spreadWords(field: ReferenceField): string {
  return Number.isFinite(field.spreadPct) ? `±${field.spreadPct.toFixed(0)}%` : 'unknown';
}

/** The estimate part of the hover of `points` (Markdown; card text escaped). */
export function pointsEstimateMarkdown(card: UnitCard, ws: Workspace): string {
  const { main, advanced } = pointsEstimateParts(card, ws);
  return `${main}\n\n${advanced}`;
}

/**
 * The same in two parts: what a designer reads first (the estimate, the measured battle price,
 * what is not priced) and the "Advanced:" paragraph (the field, the formula, its error), so that
 * the hover can put the estimate at the top and the details at the end.
 */
export function pointsEstimateParts(card: UnitCard, ws: Workspace): { main: string; advanced: string } {
  const field = workspaceField(ws);
  const e = estimateInWorkspace(card, card.faction.value ?? '', ws);
  const lines: string[] = [];
  if (e.estimate === undefined) {
    lines.push(`**Points estimate:** none — ${md(e.reason ?? 'the card cannot be estimated.')}`);
  } else {
    const v = verdict(e);
    const ratio = e.ratio !== undefined ? `; printed points are ${e.ratio.toFixed(2)} × the estimate` : '';
    lines.push(`**Points estimate: ≈ ${round(e.estimate)} pts**${ratio}${v ? ` — **${v}**` : ''}.`);
    lines.push(
      `What it deals: ${e.firepower!.toFixed(1)} pts of the reference cards removed per Fire action. ` +
        `What it takes: ${e.durability!.toFixed(1)} Fire actions of theirs to destroy it.`,
    );
  }
  // Which cards "fair" is measured against, where a designer reads it: from ten cards at their class's standard
  // points the workspace's replace the bundled examples, and every estimate moves.
  if (e.estimate !== undefined) lines.push(fairWords(field) + (e.measured ? '' : ' **Price by battle** (the lens above) measures the card’s battle price.'));
  const measured = measuredBattlePrice(card, ws);
  if (measured) {
    // Its verdict on the same yardstick as the estimate's.
    const scale = field.battle?.fair ?? 1;
    const v = battleVerdict(
      measured.points,
      measured.low !== undefined ? measured.low * scale : undefined,
      measured.high !== undefined ? measured.high * scale : undefined,
    );
    lines.push(
      `**${battlePriceWords(measured)}**, measured by Price by battle` +
        (measured.ratio !== undefined ? `; printed points are ${measured.ratio.toFixed(2)} × it` : '') +
        (scale !== 1 ? `; fair on the field’s yardstick at ≈ ${round(measured.price! * scale)} pts` : '') +
        `${v ? ` — **${v}**` : ''}.`,
    );
  }
  const peers = classPeers(card, field);
  if (peers) lines.push(peers);
  lines.push(`Not priced: ${e.unpriced.join(', ')}.`);
  const self = e.measured
    ? ' (this card is one of them: its estimate is its battle price, measured by fleets of its copies against fleets of the field, on the yardstick above)'
    : e.inField
      ? ' (this card is one of them, so it is estimated from the others)'
      : '';
  const advanced =
    `Advanced: costed like ${field.description}${self}. ${md(estimateWords(field))}; ` +
    `its leave-one-out error is ${spreadWords(field)} (on the field's own cards: a card unlike them can be further off, which Price by battle measures); a note appears beyond ${POINTS_ESTIMATE.flagSpreads} × that and beyond ×/÷${POINTS_ESTIMATE.flagRatio}.` +
    (e.exact ? '' : ' Some of its Fire actions were too large to compute exactly and were sampled.');
  return { main: lines.join('\n\n'), advanced };
}

export interface EstimateLens {
  span: Span;
  title: string;
}

/** "≈ N pts" above each card's points. */
export function pointsEstimateLenses(doc: FabledDocument, ws: Workspace): EstimateLens[] {
  const out: EstimateLens[] = [];
  try {
    for (const card of cardsOf(doc)) {
      if (out.length >= RESULT_CAP) break;
      const e = estimateInWorkspace(card, card.faction.value ?? '', ws);
      if (e.estimate === undefined) continue;
      const v = verdict(e);
      out.push({ span: card.points.keySpan ?? card.points.span, title: `≈ ${round(e.estimate)} pts${v ? ` · ${v}` : ''}` });
    }
  } catch {
    return out;
  }
  return out;
}

function hasErrorIn(problems: readonly Problem[], span: Span): boolean {
  return problems.some((p) => p.severity === 'error' && p.span.start >= span.start && p.span.start < span.end);
}

/**
 * FS-POINTS-ESTIMATE notes for a document's cards; `problems` are the document's other problems (a
 * card with an error gets no note).
 */
export function pointsEstimateProblems(doc: FabledDocument, ws: Workspace, problems: readonly Problem[] = []): Problem[] {
  const out: Problem[] = [];
  try {
    if (doc.unread) return out;
    const cards = cardsOf(doc);
    if (cards.length === 0) return out;
    const field = workspaceField(ws);
    for (const card of cards) {
      if (out.length >= RESULT_CAP) break;
      if (card.points.value === undefined || hasErrorIn(problems, card.span)) continue;
      const e = estimateInWorkspace(card, card.faction.value ?? '', ws);
      if (!e.farOff || e.estimate === undefined || e.ratio === undefined) continue;
      const span = card.points.span.end > card.points.span.start ? card.points.span : (card.points.keySpan ?? card.points.span);
      out.push({
        code: 'FS-POINTS-ESTIMATE',
        severity: CODES['FS-POINTS-ESTIMATE'].severity,
        message:
          `${e.points} pts is ${verdict(e)}: ${noteSource(e, field)} about ${round(e.estimate)} pts ` +
          // The words for a designer; how far off a note needs is the hover's Advanced line.
          `(printed ${e.ratio.toFixed(2)} × the estimate). ` +
          `Not priced: ${e.unpriced.join(', ')}. The cost is the designer's call.`,
        span: { start: span.start, end: span.end },
        // The quick fix "Set points to the estimate (about N)" (only where points are written).
        ...(card.points.span.end > card.points.span.start ? { data: { replacements: [String(Math.round(e.estimate))] } } : {}),
      });
    }
  } catch {
    return out;
  }
  return out;
}

/** A card's estimate for the engagement view (never throws). */
export function cardEstimate(card: UnitCard, ws: Workspace): CardEstimate {
  try {
    const field = workspaceField(ws);
    const e = estimateInWorkspace(card, card.faction.value ?? '', ws);
    const out: CardEstimate = {};
    if (e.points !== undefined) out.points = e.points;
    if (e.estimate !== undefined) out.estimate = Math.round(e.estimate);
    if (e.ratio !== undefined) out.ratio = Math.round(e.ratio * 100) / 100;
    const v = verdict(e);
    if (v) out.verdict = v as CardEstimate['verdict'];
    if (e.reason) out.reason = e.reason;
    if (Number.isFinite(field.spreadPct)) out.spreadPct = Math.round(field.spreadPct);
    return out;
  } catch {
    return { reason: 'the estimate failed.' };
  }
}
