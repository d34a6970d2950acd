/**
 * The roster requests' answers (`fabledStar/roster`, `fabledStar/rosterEdit`): the core's roster
 * and edits, with offsets turned into LSP ranges. The core does the work; this file only converts.
 */
import type { Range, TextEdit } from 'vscode-languageserver-protocol';
import type { FleetDocument, Span } from '../core/model/types';
import type { Workspace } from '../core/workspace';
import { buildRoster, type RosterProblem } from '../core/roster/model';
import { renderRoster, rosterShort, ROSTER_FORMATS, type RosterFormat } from '../core/roster/render';
import { fleetTotals } from '../core/fleetPoints';
import { addChoices, addUnitEdit, disembarkEdit, embarkChooser, embarkEdit, removeEntryEdit, type OffsetEdit } from '../core/roster/edits';
import type { RosterData, RosterEditParams, RosterParams, RosterProblemData } from '../../../protocol';

/** Offsets of a file (by uri) to a range; undefined when that file's text is not at hand. */
export type ToRange = (uri: string, span: Span) => Range | undefined;

const NOWHERE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function rosterData(doc: FleetDocument, ws: Workspace, toRange: ToRange, params?: RosterParams): RosterData {
  const r = buildRoster(doc, ws);
  // Resolved once for every entry's Embark… choices (a fleet may have hundreds of entries).
  const totals = fleetTotals(doc, ws);
  const at = (uri: string, span: Span) => toRange(uri, span) ?? NOWHERE;
  const choose = embarkChooser(doc, ws, totals);
  const problem = (p: RosterProblem): RosterProblemData => ({ severity: p.severity, code: p.code, message: p.message, uri: p.uri, range: at(p.uri, p.span) });
  const format = params?.format && (ROSTER_FORMATS as readonly string[]).includes(params.format) ? (params.format as RosterFormat) : undefined;
  return {
    uri: doc.uri,
    name: r.name,
    faction: r.faction,
    limit: r.limit,
    gameSize: r.gameSize?.name,
    objectives: r.objectives,
    total: r.total,
    remaining: r.remaining,
    over: r.over,
    legal: r.legal,
    counts: r.counts,
    entries: r.entries.map((e) => ({
      index: e.index,
      unit: e.unit,
      class: e.card?.class,
      count: e.count,
      cardPoints: e.cardPoints,
      each: e.each,
      total: e.total,
      complete: e.complete,
      range: at(doc.uri, e.span),
      card: e.card ? { uri: e.card.uri, range: at(e.card.uri, e.card.span) } : undefined,
      embarked: e.embarked.map((x) => ({ name: x.name, class: x.card?.class, points: x.points, range: at(doc.uri, x.span) })),
      ...embarkFields(choose(e.index, params?.embarkFor === e.index ? Infinity : EMBARK_CHOICES_SHOWN)),
      problems: e.problems.map(problem),
    })),
    byClass: r.byClass,
    problems: r.problems.map(problem),
    addChoices: addChoices(doc, ws).map((c) => ({
      name: c.name,
      class: c.class,
      points: c.points,
      fits: r.remaining === undefined || (c.points ?? 0) <= r.remaining,
    })),
    copyText: rosterShort(r),
    ...(format ? { rendered: renderRoster(r, format) } : {}),
  };
}

/**
 * Embark choices sent with each entry of a roster: the first this many (with the total when there
 * are more); `embarkFor` asks for every choice of one entry. Without the cap, 500 carriers in a
 * faction of 2,000 cards answered 34 MB.
 */
export const EMBARK_CHOICES_SHOWN = 20;

function embarkFields(r: ReturnType<ReturnType<typeof embarkChooser>>): Pick<RosterData['entries'][number], 'embarkChoices' | 'embarkChoicesTotal'> {
  return {
    embarkChoices: r.choices.map((c) => ({ name: c.name, class: c.class, points: c.points, fits: c.fits })),
    ...(r.total > r.choices.length ? { embarkChoicesTotal: r.total } : {}),
  };
}

/** The edit a `fabledStar/rosterEdit` asks for, as offsets; undefined when it cannot be made. */
export function rosterEditOffsets(doc: FleetDocument, p: RosterEditParams): OffsetEdit | undefined {
  const int = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);
  switch (p.action) {
    case 'add': {
      if (typeof p.card !== 'string' || !p.card.trim()) return undefined;
      return addUnitEdit(doc, p.card, int(p.count) ?? 1);
    }
    case 'remove': {
      const i = int(p.entry);
      return i === undefined ? undefined : removeEntryEdit(doc, i);
    }
    case 'embark': {
      const i = int(p.entry);
      return i === undefined || typeof p.card !== 'string' || !p.card.trim() ? undefined : embarkEdit(doc, i, p.card);
    }
    case 'disembark': {
      const i = int(p.entry);
      const j = int(p.embarked);
      return i === undefined || j === undefined ? undefined : disembarkEdit(doc, i, j);
    }
    default:
      return undefined;
  }
}

export function toTextEdit(e: OffsetEdit, toRange: (span: Span) => Range): TextEdit {
  return { range: toRange({ start: e.start, end: e.end }), newText: e.newText };
}
