/**
 * The roster requests' answers (`fabledStar/roster`, `fabledStar/rosterEdit`): the core's roster
 * and edits, with offsets turned into LSP ranges, and an edit whose target is not the one the tree
 * named refused as stale. The core does the work; this file converts and checks the target.
 */
import type { Range, TextEdit } from 'vscode-languageserver-protocol';
import { FabledService, type FleetDocument, type ImportResult, type Roster, type Span } from '../core/service';
import type { ImportRosterParams, ImportRosterResult, RosterData, RosterEditParams, RosterParams, RosterProblemData } from '../../../protocol';
import { MAX_READ_BYTES } from '../node/read';
import type { ImportTask } from '../node/sim-worker';

/** An edit of a fleet list's text, as offsets. */
type OffsetEdit = NonNullable<ReturnType<(typeof FabledService)['removeEntryEdit']>>;
type RosterProblem = Roster['problems'][number];
type PreparedRoster = ReturnType<FabledService['roster']>;

const { addUnitEdit, disembarkEdit, embarkEdit, removeEntryEdit, renderRoster, rosterLink, rosterShort, toBuyLine, ROSTER_FORMATS } = FabledService;

/** Offsets of a file (by uri) to a range; undefined when that file's text is not at hand. */
export type ToRange = (uri: string, span: Span) => Range | undefined;

const NOWHERE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** A fleet's roster as the client takes it, from the service's (cached) checks. */
export function rosterData(
  service: FabledService,
  doc: FleetDocument,
  toRange: ToRange,
  params?: RosterParams,
  version?: number,
  prepared: PreparedRoster = service.roster(doc),
): RosterData {
  // The totals are resolved once, for the roster and every entry's Embark… choices (a fleet may have hundreds of entries).
  const { roster: r, embarkChoices: choose } = prepared;
  const at = (uri: string, span: Span) => toRange(uri, span) ?? NOWHERE;
  const spare = service.spareCopies(doc);
  const buy = toBuyLine(r);
  const problem = (p: RosterProblem): RosterProblemData => ({ severity: p.severity, code: p.code, message: p.message, uri: p.uri, range: at(p.uri, p.span) });
  const format = params?.format && (ROSTER_FORMATS as readonly string[]).includes(params.format) ? params.format : undefined;
  return {
    uri: doc.uri,
    ...(version !== undefined ? { version } : {}),
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
    addChoices: service.addChoices(doc).map((c) => ({
      name: c.name,
      class: c.class,
      points: c.points,
      fits: r.remaining === undefined || (c.points ?? 0) <= r.remaining,
      ...(spare ? { spare: spare(c.name) } : {}),
    })),
    copyText: rosterShort(r),
    copyLink: rosterLink(rosterShort(r)),
    ...(buy !== undefined ? { toBuy: buy } : {}),
    ...(format ? { rendered: renderRoster(r, format) } : {}),
  };
}

/**
 * Embark choices sent with each entry of a roster: the first this many (with the total when there
 * are more); `embarkFor` asks for every choice of one entry. Without the cap, 500 carriers in a
 * faction of 2,000 cards answered 34 MB.
 */
export const EMBARK_CHOICES_SHOWN = 20;

function embarkFields(r: ReturnType<PreparedRoster['embarkChoices']>): Pick<RosterData['entries'][number], 'embarkChoices' | 'embarkChoicesTotal'> {
  return {
    embarkChoices: r.choices.map((c) => ({ name: c.name, class: c.class, points: c.points, fits: c.fits })),
    ...(r.total > r.choices.length ? { embarkChoicesTotal: r.total } : {}),
  };
}

/** Why a roster edit is not made: the tree it names changed, or the text cannot take it safely. */
export type RosterRefusal = { refused: 'stale' | 'cannot'; message: string };

export const STALE: RosterRefusal = {
  refused: 'stale',
  message:
    'The fleet list changed since the Fleet view was drawn, so the entry it named may be another now. Nothing was changed; the view is redrawn: try again.',
};

const CANNOT: RosterRefusal = {
  refused: 'cannot',
  message: 'The fleet list could not be changed that way: it is written in a form the roster cannot edit safely. Edit the YAML directly.',
};

/**
 * The edit a `fabledStar/rosterEdit` asks for, as offsets; or why not: `stale` when the entry at the
 * index is not the one the tree named (`unit`, `name`), `cannot` when the edit cannot be made safely.
 */
export function rosterEdit(doc: FleetDocument, p: RosterEditParams): { edit: OffsetEdit } | RosterRefusal {
  const int = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);
  const made = (e: OffsetEdit | undefined) => (e ? { edit: e } : CANNOT);
  const named = (i: number, unit: unknown) => typeof unit !== 'string' || (doc.units?.items[i]?.unit.value ?? '').trim() === unit.trim();
  switch (p.action) {
    case 'add': {
      if (typeof p.card !== 'string' || !p.card.trim()) return CANNOT;
      return made(addUnitEdit(doc, p.card, int(p.count) ?? 1));
    }
    case 'remove': {
      const i = int(p.entry);
      if (i === undefined) return CANNOT;
      if (!named(i, p.unit)) return STALE;
      return made(removeEntryEdit(doc, i, p.copies === 'one' ? 'one' : 'all'));
    }
    case 'embark': {
      const i = int(p.entry);
      if (i === undefined || typeof p.card !== 'string' || !p.card.trim()) return CANNOT;
      if (!named(i, p.unit)) return STALE;
      return made(embarkEdit(doc, i, p.card));
    }
    case 'disembark': {
      const i = int(p.entry);
      const j = int(p.embarked);
      if (i === undefined || j === undefined) return CANNOT;
      const x = doc.units?.items[i]?.embark?.items[j];
      if (!named(i, p.unit) || (typeof p.name === 'string' && (x?.value ?? '').trim() !== p.name.trim())) return STALE;
      return made(disembarkEdit(doc, i, j));
    }
    default:
      return CANNOT;
  }
}

export function toTextEdit(e: OffsetEdit, toRange: (span: Span) => Range): TextEdit {
  return { range: toRange({ start: e.start, end: e.end }), newText: e.newText };
}

/**
 * Where an import runs: `run` hands the task to a worker thread (../node/sim-worker.ts `ImportTask`),
 * else (the sources run without a build) it runs here, a turn of the event loop later.
 */
export type ImportRunner = (task: ImportTask) => Promise<ImportResult>;

export const importHere: ImportRunner = (task) =>
  new Promise((resolve) => setImmediate(() => resolve(FabledService.importRosterFrom(task.text, task.cards, task.options))));

/**
 * "Paste Roster as Fleet": the pasted text read against the workspace's cards (a paste past the file
 * cap is cut to it). The reading runs where `run` puts it, a worker thread in the server: a paste
 * of 200,000 lines takes seconds, during which this thread still answers hovers and edits. Only the
 * cards' summaries are gathered here.
 */
export async function importRosterData(params: ImportRosterParams, service: FabledService, run: ImportRunner = importHere): Promise<ImportRosterResult> {
  const opt = <T>(v: unknown, ok: (x: unknown) => x is T): T | undefined => (ok(v) ? v : undefined);
  const str = (x: unknown): x is string => typeof x === 'string' && x.trim() !== '';
  const pts = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x > 0;
  const faction = opt(params.faction, str);
  const name = opt(params.name, str);
  const points = opt(params.points, pts);
  const options: Parameters<FabledService['importRoster']>[1] = {
    ...(faction !== undefined ? { faction } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(points !== undefined ? { points } : {}),
  };
  const r = await run({ kind: 'import', text: params.text.slice(0, MAX_READ_BYTES), cards: service.importCards(), options });
  return {
    fleet: r.fleet,
    format: r.format,
    name: r.name,
    ...(r.faction !== undefined ? { faction: r.faction } : {}),
    ...(r.points !== undefined ? { points: r.points } : {}),
    entries: r.entries.length,
    problems: r.problems.map((p) => ({
      line: p.line,
      text: p.text,
      why: p.why,
      ...(p.closest !== undefined ? { closest: p.closest } : {}),
      ...(p.candidates ? { candidates: p.candidates } : {}),
    })),
    guesses: r.guesses.map((g) => ({ line: g.line, text: g.text, written: g.written, unit: g.unit, others: g.others })),
  };
}
