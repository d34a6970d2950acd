/**
 * The points estimate fitted to battle prices (BATTLE.md "The points estimate"): the bundled
 * field's battle prices (generated data, scripts/build-battle-prices.ts) and the field as the
 * pricing takes it.
 */
import { bundledCards } from './index';
import { standardCards } from './field';
import { pricedCardOf } from './battles';
import type { PricedCard, PricingField } from './battles';
import { getMemo, memo, setMemo } from '../model/memo';

/** The bundled battle field, kept with the bundled cards' list it is made from. */
const BATTLE_FIELD = memo<PricingField>('bundled battle field');

/** The bundled example cards at their class's standard points, as the battle pricing takes them. */
export function bundledBattleField(): PricingField {
  let field = getMemo(bundledCards(), BATTLE_FIELD);
  if (!field) {
    const ids = new Set(standardCards(bundledCards()).map((m) => m.id));
    const cards: PricedCard[] = [];
    for (const c of bundledCards()) {
      const id = `${c.faction.trim().toLowerCase()}\u0000${(c.card.name.value ?? '').trim().toLowerCase()}`;
      if (!ids.has(id)) continue;
      ids.delete(id);
      const p = pricedCardOf(c.card, c.faction);
      if (p) cards.push(p);
    }
    setMemo(bundledCards(), BATTLE_FIELD, (field = { cards }));
  }
  return field;
}
