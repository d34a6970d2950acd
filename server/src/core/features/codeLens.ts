/**
 * Code lenses: a fleet's points against its limit and "Battle vs ..." above the fleet, "Simulate vs ..."
 * and "vs the field" above each card (the editor's simulate command with the card as attacker; the language server names
 * the command), and the points estimate "≈ N pts" with "Price by battle" above each card's points.
 */
import type { FabledDocument, Span } from '../model/types';
import type { Workspace } from '../workspace';
import type { BattleCommandArgs, PriceCommandArgs, Settings, SimulateCommandArgs } from '../api';
import { fleetSummary, pointsLabel } from './fleetSummary';
import { cardsOf, iconSafe, RESULT_CAP } from './shared';
import { referenceCard } from './odds';
import { battlePriceWords, pointsEstimateLenses } from './pointsEstimate';
import { measuredBattlePrice } from './priceByBattle';
import { profileFromCard } from '../sim/profile';
import { count, pointsLeft } from '../rules/words';

export interface Lens {
  span: Span;
  title: string;
  /** The whole text where the title is short (an editor shows it on pointing at the lens). */
  tooltip?: string;
  /** What the lens runs: a simulation with these cards. Absent: an informational lens (no command). */
  simulate?: SimulateCommandArgs;
  /** Or the fleet battle of this fleet against one the editor asks for. */
  battle?: BattleCommandArgs;
  /** Or the card's battle price (BATTLE.md "Points from battles"). */
  price?: PriceCommandArgs;
  /** Or the card against every card of the field (`sim --vs-field`): the card as "Price by battle" names it. */
  vsField?: PriceCommandArgs;
}

export function codeLenses(doc: FabledDocument, ws: Workspace, settings: Settings): Lens[] {
  if (!settings.codeLens.enabled) return [];
  try {
    if (doc.kind === 'fleet') {
      const s = fleetSummary(doc, ws);
      const at = doc.name.keySpan ?? doc.points.keySpan ?? { start: 0, end: 0 };
      const state = s.limit === undefined || s.remaining === undefined ? '' : ` — ${pointsLeft(s.remaining, true)}`;
      const unknown = s.unknownUnits.length ? ` (${count(s.unknownUnits.length, 'unknown card')} not counted)` : '';
      const lenses: Lens[] = [{ span: at, title: `${pointsLabel(s)}${state}${unknown}` }];
      if (doc.name.keySpan && (doc.units?.items.length ?? 0) > 0)
        lenses.push({ span: doc.name.keySpan, title: 'Battle vs …', battle: { fleet: { uri: doc.uri, name: s.name } } });
      return lenses;
    }
    const target = settings.referenceTarget ? settings.referenceTarget : undefined;
    const out: Lens[] = [];
    for (const card of cardsOf(doc)) {
      const name = card.name.value;
      if (!name) continue;
      const faction = card.faction.value;
      const ref = target ? referenceCard(ws, target, faction) : undefined;
      const args: SimulateCommandArgs = { attacker: { name, uri: doc.uri, ...(faction !== undefined ? { faction } : {}) } };
      if (ref) args.defender = { name: ref.name, faction: ref.faction };
      out.push({
        span: card.name.keySpan ?? card.name.span,
        title: ref ? `Simulate vs ${iconSafe(ref.name)}` : 'Simulate vs …',
        simulate: args,
      });
      // Not on a card the simulator cannot read (its hover says why): clicked, it could only fail.
      if (profileFromCard(card).profile) out.push({ span: card.name.keySpan ?? card.name.span, title: 'vs the field', vsField: { card: args.attacker } });
      if (out.length >= RESULT_CAP) break;
    }
    if (settings.pointsEstimate.enabled) {
      for (const l of pointsEstimateLenses(doc, ws)) if (out.length < 2 * RESULT_CAP) out.push(l);
      // "Price by battle" beside each card's estimate: the figure the estimate predicts, measured. Not on a
      // card the simulator cannot read (its hover says why): clicked, it could only fail.
      for (const card of cardsOf(doc)) {
        const name = card.name.value;
        if (!name || out.length >= 3 * RESULT_CAP || !profileFromCard(card).profile) continue;
        const faction = card.faction.value;
        // Once measured (and while the card's stats and the field stay), the lens shows the price; clicked, it measures again.
        const measured = measuredBattlePrice(card, ws);
        out.push({
          span: card.points.keySpan ?? card.points.span,
          title: measured ? battlePriceWords(measured) : 'Price by battle',
          price: { card: { name, uri: doc.uri, ...(faction !== undefined ? { faction } : {}) } },
        });
      }
    }
    return out;
  } catch {
    return [];
  }
}
