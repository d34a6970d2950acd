/**
 * The points estimate's public face: the bundled example cards as a field, the field of a
 * workspace (kept while the workspace's cards are unchanged), and the estimate of a card.
 */
import type { Workspace } from '../workspace';
import { exampleWorkspace } from '../examples/index';
import { referenceField, referenceFieldOf, estimateCard, standardCards } from './estimate';
import type { CardLike, FieldMember, PointsEstimate, ReferenceField } from './estimate';
import type { FabledDocument, UnitCard } from '../model/types';

export { referenceField, estimateCard, unpricedOf, standardCards, clearEstimateMemo } from './estimate';
export type { CardLike, FieldMember, PointsEstimate, ReferenceField, LooRow, FieldSource } from './estimate';
export { clearVolleyMemo, volleyStats, shareOf, computeShare, offenseKey, defenseKey } from './volleys';

let bundled: CardLike[] | undefined;

/** The bundled example cards (server/src/core/examples, shared with the engagement view's opponents). */
export function bundledCards(): readonly CardLike[] {
  if (!bundled)
    bundled = exampleWorkspace()
      .allCards()
      .map((r) => ({ card: r.card, faction: r.faction }));
  return bundled;
}

/** The reference field for a set of cards (the bundled examples when too few cost their class's points). */
export function fieldFor(cards: readonly CardLike[]): ReferenceField {
  return referenceField(cards, bundledCards);
}

const wsFields = new WeakMap<Workspace, { version: number; field: ReferenceField }>();
/** Each document's standard-cost cards, by document object (a document's object changes with its text). */
const docCandidates = new WeakMap<FabledDocument, FieldMember[]>();

/**
 * The reference field of a workspace, recomputed only when its cards change, and then only from the
 * documents that changed (a keystroke in one file of thousands re-reads that file alone).
 */
export function workspaceField(ws: Workspace): ReferenceField {
  const hit = wsFields.get(ws);
  // Fleets hold no cards: a fleet edit keeps the field (it is read after every edit).
  if (hit && hit.version === ws.cardsVersion) return hit.field;
  const candidates: FieldMember[] = [];
  const seen = new Set<string>();
  for (const doc of ws.documents()) {
    if (doc.kind === 'fleet') continue;
    let list = docCandidates.get(doc);
    if (!list) {
      const faction = doc.faction.value ?? '';
      list = standardCards(doc.units.map((card) => ({ card, faction })));
      docCandidates.set(doc, list);
    }
    for (const m of list) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      candidates.push(m);
    }
  }
  const field = referenceFieldOf(candidates, bundledCards, 'this workspace');
  wsFields.set(ws, { version: ws.cardsVersion, field });
  return field;
}

/** A card's estimate against its workspace's field. */
export function estimateInWorkspace(card: UnitCard, faction: string, ws: Workspace): PointsEstimate {
  return estimateCard(card, faction, workspaceField(ws));
}
