/**
 * A fleet's entries resolved against the workspace, and its points: shared by the checks, hovers,
 * hints, lenses and the fleet summary.
 */
import type { FleetDocument, FleetEntry } from './model/types';
import type { CardRef, Workspace } from './workspace';

export interface EntryPoints {
  entry: FleetEntry;
  card?: CardRef;
  /** Points of one copy, embarked units included. */
  each: number;
  /** each x count. */
  total: number;
  embarked: { name: string; card?: CardRef; points: number }[];
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
  for (const entry of doc.units?.items ?? []) {
    const card = ws?.card(entry.unit.value, faction, 'own');
    const embarked = (entry.embark?.items ?? []).map((f) => {
      const c = ws?.card(f.value, faction, 'own');
      return { name: f.value ?? '', card: c, points: pointsOf(c) };
    });
    const each = pointsOf(card) + embarked.reduce((t, e) => t + e.points, 0);
    const count = entry.count.value !== undefined && entry.count.value > 0 ? entry.count.value : 0;
    entries.push({ entry, card, each, total: each * count, embarked });
    total += each * count;
  }
  return { total, limit: doc.points.value, entries };
}

function pointsOf(c: CardRef | undefined): number {
  const p = c?.points;
  return p !== undefined && p > 0 ? p : 0;
}
