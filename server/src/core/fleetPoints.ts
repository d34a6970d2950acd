/**
 * A fleet's entries resolved against the workspace, and its points: shared by the checks, hovers,
 * hints, lenses and the fleet summary.
 */
import type { FleetDocument, FleetEntry } from './model/types';
import type { CardRef, Workspace } from './workspace';

export interface EntryPoints {
  entry: FleetEntry;
  /** The card the entry names: of the fleet's faction, else of another one (`foreign`; the fleet's checks say it does not belong). */
  card?: CardRef;
  foreign?: boolean;
  /** Points of one copy, embarked units included. */
  each: number;
  /** each x count. */
  total: number;
  embarked: { name: string; card?: CardRef; foreign?: boolean; points: number }[];
}

export interface FleetTotals {
  total: number;
  limit: number | undefined;
  entries: EntryPoints[];
}

/** Resolves a fleet's entries and adds up its points; shared by the checks, hovers, hints and lenses. */
export function fleetTotals(doc: FleetDocument, ws: Workspace | undefined): FleetTotals {
  const faction = doc.faction.value;
  const entries: EntryPoints[] = [];
  let total = 0;
  // A card of another faction counts its points (a fleet is not cheaper for breaking the rules; its
  // FS-UNIT-FACTION error says the card does not belong).
  const resolve = (name: string | undefined): { card?: CardRef; foreign?: boolean } => {
    const own = ws?.card(name, faction, 'own');
    if (own || faction === undefined) return own ? { card: own } : {};
    const other = ws?.card(name, faction, 'ownFirst');
    return other ? { card: other, foreign: true } : {};
  };
  for (const entry of doc.units?.items ?? []) {
    const { card, foreign } = resolve(entry.unit.value);
    const embarked = (entry.embark?.items ?? []).map((f) => {
      const r = resolve(f.value);
      return { name: f.value ?? '', ...r, points: pointsOf(r.card) };
    });
    const each = pointsOf(card) + embarked.reduce((t, e) => t + e.points, 0);
    const count = entry.count.value !== undefined && entry.count.value > 0 ? entry.count.value : 0;
    entries.push({ entry, card, ...(foreign ? { foreign } : {}), each, total: each * count, embarked });
    total += each * count;
  }
  return { total, limit: doc.points.value, entries };
}

function pointsOf(c: CardRef | undefined): number {
  const p = c?.points;
  return p !== undefined && p > 0 ? p : 0;
}
