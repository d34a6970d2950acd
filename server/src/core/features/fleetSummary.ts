/** A fleet's points as plain data: for the `fabledStar/fleetSummary` request, hovers, hints and lenses. */
import type { FleetDocument } from '../model/types';
import type { Workspace } from '../workspace';
import { fleetTotals } from '../fleetPoints';
import { GAME_SIZES } from '../rules/data';
import type { FleetSummary } from '../api';

export function fleetSummary(doc: FleetDocument, ws: Workspace): FleetSummary {
  const t = fleetTotals(doc, ws);
  const limit = t.limit !== undefined && t.limit > 0 ? t.limit : undefined;
  const unknownUnits: string[] = [];
  const entries = t.entries.map((e) => {
    const name = e.entry.unit.value ?? '';
    const missing = !e.card || e.embarked.some((x) => !x.card);
    if (!e.card && name) unknownUnits.push(name);
    for (const x of e.embarked) if (!x.card && x.name) unknownUnits.push(x.name);
    return {
      unit: name,
      count: e.entry.count.value ?? 1,
      points: missing ? undefined : e.each,
      embarked: e.embarked.map((x) => x.name),
    };
  });
  return {
    uri: doc.uri,
    name: doc.name.value ?? '',
    faction: doc.faction.value ?? '',
    total: t.total,
    limit,
    over: limit !== undefined && t.total > limit,
    remaining: limit !== undefined ? limit - t.total : undefined,
    unknownUnits,
    entries,
    gameSize: GAME_SIZES.find((g) => g.points === limit),
  };
}

/** "970 / 1000 pts" (or "970 pts" without a limit). */
export function pointsLabel(s: FleetSummary): string {
  return s.limit !== undefined ? `${s.total} / ${s.limit} pts` : `${s.total} pts`;
}
