/**
 * The collection (FORMATS.md "Collection"): the models a player owns, and what a fleet fields
 * beyond them. A workspace reads at most one collection, the first by path; each fleet is counted
 * on its own, embarked units included (an entry with `count: N` and `embark` carries its embarked
 * units N times). Names match as fleet lists match them, whatever their case.
 */
import type { CollectionDocument, FleetDocument, Span } from './model/types';
import type { Workspace } from './workspace';

/** A card name as the counts key it: trimmed, case folded. */
export function ownedKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The collection in use: the first by path, or none. */
export function activeCollection(ws: Workspace | undefined): CollectionDocument | undefined {
  return ws?.collections()[0];
}

/** Models owned per card (by `ownedKey`), with the name as the collection writes it. */
export function ownedCounts(doc: CollectionDocument): Map<string, { name: string; count: number }> {
  const out = new Map<string, { name: string; count: number }>();
  for (const e of doc.owned?.items ?? []) {
    const name = e.unit.value;
    if (!name) continue;
    const n = e.count.value !== undefined && e.count.value > 0 ? e.count.value : 0;
    const key = ownedKey(name);
    const had = out.get(key);
    out.set(key, { name: had?.name ?? name.trim(), count: (had?.count ?? 0) + n });
  }
  return out;
}

/** A card the fleet fields more of than owned: its name, both counts and where the fleet names it. */
export interface Shortfall {
  name: string;
  fielded: number;
  owned: number;
  /** The entry names (or embarked names) that field it. */
  sites: Span[];
}

/** What `fleet` fields beyond `collection`, in the order the fleet first names each card. */
export function shortfalls(fleet: FleetDocument, collection: CollectionDocument, ws?: Workspace): Shortfall[] {
  const owned = ownedCounts(collection);
  const fielded = new Map<string, { name: string; count: number; sites: Span[] }>();
  const faction = fleet.faction.value;
  const add = (raw: string | undefined, n: number, at: Span) => {
    if (!raw) return;
    // The card's own spelling when it resolves, so that the message names the card as its file does.
    const name = ws?.card(raw, faction, 'own')?.name ?? raw.trim();
    const key = ownedKey(name);
    const f = fielded.get(key) ?? { name, count: 0, sites: [] };
    f.count += n;
    f.sites.push(at);
    fielded.set(key, f);
  };
  for (const entry of fleet.units?.items ?? []) {
    const n = entry.count.value !== undefined && entry.count.value > 0 ? entry.count.value : 0;
    if (n === 0) continue;
    add(entry.unit.value, n, entry.unit.span);
    for (const e of entry.embark?.items ?? []) add(e.value, n, e.span);
  }
  const out: Shortfall[] = [];
  for (const [key, f] of fielded) {
    const have = owned.get(key)?.count ?? 0;
    if (f.count > have) out.push({ name: f.name, fielded: f.count, owned: have, sites: f.sites });
  }
  return out;
}

/** "To field this list: 1 x Lumen Cruiser, 2 x Veilwing Fighter Wing", or undefined when nothing is short. */
export function toBuyText(short: readonly Shortfall[]): string | undefined {
  if (!short.length) return undefined;
  return `To field this list: ${short.map((s) => `${s.fielded - s.owned} x ${s.name}`).join(', ')}`;
}

/** What a fleet needs beyond the workspace's collection: undefined without a collection (nothing is said about ownership). */
export function fleetToBuy(fleet: FleetDocument, ws: Workspace | undefined): { short: Shortfall[]; text: string | undefined } | undefined {
  const c = activeCollection(ws);
  if (!c) return undefined;
  const short = shortfalls(fleet, c, ws);
  return { short, text: toBuyText(short) };
}

/**
 * With a collection: for a card name, the copies owned that `fleet` does not field yet (never below
 * 0), for "Add Unit…" to mark the cards one more of which would not be owned. Undefined without one.
 */
export function spareCopies(fleet: FleetDocument, ws: Workspace | undefined): ((name: string) => number) | undefined {
  const c = activeCollection(ws);
  if (!c) return undefined;
  const owned = ownedCounts(c);
  const fielded = new Map<string, number>();
  for (const entry of fleet.units?.items ?? []) {
    const n = entry.count.value !== undefined && entry.count.value > 0 ? entry.count.value : 0;
    for (const raw of [entry.unit.value, ...(entry.embark?.items ?? []).map((e) => e.value)]) {
      if (!raw) continue;
      const key = ownedKey(ws?.card(raw, fleet.faction.value, 'own')?.name ?? raw);
      fielded.set(key, (fielded.get(key) ?? 0) + n);
    }
  }
  return (name) => Math.max(0, (owned.get(ownedKey(name))?.count ?? 0) - (fielded.get(ownedKey(name)) ?? 0));
}
