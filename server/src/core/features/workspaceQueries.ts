/**
 * Workspace-wide questions the server asks: which documents a change affects (so that editing or
 * deleting a card re-validates the fleets that use it), the card list, and cards named by a
 * request (by name, or by a place inside a card).
 */
import type { FabledDocument } from '../model/types';
import { cardRef, type CardRef, type Workspace } from '../workspace';
import { cardsOf, within } from './shared';
import { fleetTotals } from '../fleetPoints';

const norm = (s: string) => s.trim().toLowerCase();

/** Adds the card names and the faction (normalised) of a card or faction file to the sets. */
export function namesAndFactions(doc: FabledDocument | undefined, names: Set<string>, factions: Set<string>): void {
  if (!doc || doc.kind === 'fleet' || doc.kind === 'collection') return;
  if (doc.faction.value) factions.add(norm(doc.faction.value));
  for (const c of cardsOf(doc)) if (c.name.value) names.add(norm(c.name.value));
}

/**
 * The other documents whose diagnostics may change when a card or faction file goes from `before`
 * to `after` (either may be undefined: created, deleted): fleets naming any card of either version
 * or of either faction (or of a faction without cards), card files holding a card of the same name in the same faction
 * (duplicate names: a card's checks read nothing else of the workspace), and, for a faction file, the other
 * faction files of its faction (one Command Board per faction). Found through the index
 * and the list of fleets, so that the cost follows what the change touches, not the workspace's
 * size. A fleet change affects no other document.
 */
export function dependents(ws: Workspace, uri: string, before: FabledDocument | undefined, after: FabledDocument | undefined): string[] {
  if (before?.kind !== 'unit' && before?.kind !== 'faction' && after?.kind !== 'unit' && after?.kind !== 'faction') return [];
  const names = new Set<string>();
  const factions = new Set<string>();
  namesAndFactions(before, names, factions);
  namesAndFactions(after, names, factions);
  return dependentsOf(ws, names, factions, new Set([uri]), before?.kind === 'faction' || after?.kind === 'faction');
}

/**
 * `dependents` of changes to card and faction files whose card names and factions (normalised)
 * are given, other than the changed files themselves: for many files at once (a folder gone), one
 * walk of the fleets. `boards`: a Command Board is among the changes (by default assumed, for a folder).
 */
export function dependentsOf(ws: Workspace, names: ReadonlySet<string>, factions: ReadonlySet<string>, changed: ReadonlySet<string>, boards = true): string[] {
  if (names.size === 0 && factions.size === 0) return [];
  const out = new Set<string>();
  for (const d of ws.fleets()) {
    if (changed.has(d.uri)) continue;
    const f = d.faction.value !== undefined ? norm(d.faction.value) : undefined;
    const uses = (d.units?.items ?? []).some(
      (e) => (e.unit.value && names.has(norm(e.unit.value))) || (e.embark?.items ?? []).some((x) => x.value && names.has(norm(x.value))),
    );
    // A fleet whose faction has no cards names the factions that have some: any card change may alter that.
    if (uses || (f !== undefined && (factions.has(f) || ws.cardsOf(f).length === 0))) out.add(d.uri);
  }
  // A faction has one Command Board: the other boards of either version's faction say whether there are two.
  if (boards)
    for (const d of ws.factionDocuments()) if (!changed.has(d.uri) && d.faction.value !== undefined && factions.has(norm(d.faction.value))) out.add(d.uri);
  // The index holds the other documents' cards as they are now; this document's are excluded.
  for (const f of factions) for (const n of names) for (const r of ws.findCards(n, f)) if (!changed.has(r.uri)) out.add(r.uri);
  return [...out];
}

/** Every card, sorted by faction then name; only one faction's when asked. */
export function listCards(ws: Workspace, faction?: string): CardRef[] {
  const all = faction !== undefined ? ws.cardsOf(faction) : ws.allCards();
  return [...all].filter((r) => r.name).sort((a, b) => a.faction.localeCompare(b.faction) || a.name.localeCompare(b.name));
}

/** The cards a fleet uses (entries and embarked units), as the fleet resolves them, each once. */
export function cardsUsedBy(ws: Workspace, fleet: FabledDocument | undefined): CardRef[] {
  if (fleet?.kind !== 'fleet') return [];
  const out = new Set<CardRef>();
  for (const e of fleetTotals(fleet, ws).entries) {
    if (e.card) out.add(e.card);
    for (const x of e.embarked) if (x.card) out.add(x.card);
  }
  return [...out];
}

/** A card by name (faction first), or the card around an offset in a document. */
export function findCard(ws: Workspace, sel: { name: string; faction?: string } | { uri: string; offset: number }): CardRef | undefined {
  if ('name' in sel) return ws.resolve(sel, 'ownFirst').ref;
  const doc = ws.get(sel.uri);
  if (!doc) return undefined;
  if (doc.kind === 'collection') {
    const e = (doc.owned?.items ?? []).find((x) => within(x.span, sel.offset));
    return e?.unit.value ? findCard(ws, { name: e.unit.value }) : undefined;
  }
  if (doc.kind === 'fleet') {
    const e = (doc.units?.items ?? []).find((x) => within(x.span, sel.offset));
    const x = e?.embark?.items.find((i) => within(i.span, sel.offset));
    const name = x?.value ?? e?.unit.value;
    return name ? findCard(ws, { name, ...(doc.faction.value !== undefined ? { faction: doc.faction.value } : {}) }) : undefined;
  }
  const card = cardsOf(doc).find((c) => within(c.span, sel.offset));
  if (!card) return undefined;
  return cardRef(doc.uri, card, doc.faction.value ?? '');
}
