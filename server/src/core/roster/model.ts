/**
 * A fleet's roster as plain data: what list builders show and print. Built from a fleet document
 * and the workspace (its cards and, when present, the faction's Command Board); every renderer
 * (markdown, HTML, text, JSON, the short "copy as text" line), the CLI and the server's tree view
 * read this one object. Pure; never throws on a document the model produced.
 */
import type { FabledDocument, FleetDocument, Problem, Severity, Span, UnitCard } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { checkDocument as runChecks } from '../check/index';
import { cpPerRound } from '../model/derived';
import { fleetTotals, type FleetTotals } from '../fleetPoints';
import { fleetToBuy } from '../collection';
import { GAME_SIZES, STAT_ORDER, type StatName } from '../rules/data';
import { fleetDigest, rulesVersion, type RulesVersion } from './digest';

export interface RosterWeapon {
  name: string;
  type: string;
  /** Range in inches, when readable. */
  range: number | undefined;
  damage: number | undefined;
  attacks: number | undefined;
}

export interface RosterOrder {
  name: string;
  difficulty: number | undefined;
  range: number | undefined;
  effect: string;
}

export interface RosterAbility {
  name: string;
  text: string;
}

/** A unit card as the roster prints it: every value as the card wrote it. */
export interface RosterCard {
  name: string;
  faction: string;
  /** The class as written ('' when missing). */
  class: string;
  points: number | undefined;
  bases: number | undefined;
  /** Stat values in rulebook order, as written ('' where the card gives none). */
  stats: Record<StatName, string>;
  /** "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3" ("?" where the card gives none). */
  statLine: string;
  weapons: RosterWeapon[];
  orders: RosterOrder[];
  abilities: RosterAbility[];
  /** Where the card is defined. */
  uri: string;
  span: Span;
}

export interface RosterProblem {
  severity: Severity;
  code: string;
  message: string;
  /** The file the problem is in: the fleet's, or a card's (problems of the cards the fleet uses). */
  uri: string;
  span: Span;
  /** 1-based line and column in that file. */
  line: number;
  column: number;
  /** Whether it is a problem of a card the entry uses rather than of the fleet list itself. */
  inCard: boolean;
}

export interface RosterEmbarked {
  name: string;
  /** The card, when the name resolves in the fleet's faction. */
  card: RosterCard | undefined;
  /** Points of one embarked unit (0 when the card is unknown). */
  points: number;
  span: Span;
}

export interface RosterEntry {
  /** Position in the fleet's `units` list (0-based). */
  index: number;
  unit: string;
  card: RosterCard | undefined;
  count: number;
  /** Points of the card alone, when known. */
  cardPoints: number | undefined;
  /** Points of one copy, embarked units included (unknown cards count 0). */
  each: number;
  /** each × count. */
  total: number;
  embarked: RosterEmbarked[];
  /** Whether every card of the entry (and its embarked units) resolved. */
  complete: boolean;
  problems: RosterProblem[];
  span: Span;
}

export interface ClassTotal {
  /** The class ("Unknown card" for names that resolve to no card, "No class" for a card without one). */
  class: string;
  /** Units on the table: copies × count, embarked units included. */
  units: number;
  points: number;
}

export interface RosterBoard {
  faction: string;
  doctrine: string;
  cp: number | undefined;
  cpSources: { name: string; cp: number | undefined }[];
  factionAbility: RosterAbility | undefined;
  commandAbilities: { name: string; cost: number | undefined; timing: string; effect: string }[];
  uri: string;
}

export interface ProblemCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export interface Roster {
  uri: string;
  name: string;
  faction: string;
  /** The points limit, when a positive whole number. */
  limit: number | undefined;
  /** The named game size of the limit (Skirmish, Standard, Battle), when it is one. */
  gameSize: { name: string; points: number; table: string; objectives: { min: number; max: number } } | undefined;
  objectives: number | undefined;
  total: number;
  /** limit − total (negative when over). */
  remaining: number | undefined;
  over: boolean;
  entries: RosterEntry[];
  byClass: ClassTotal[];
  board: RosterBoard | undefined;
  /** Problems not tied to one entry (name, faction, points, objectives, the file itself). */
  problems: RosterProblem[];
  /** Counts over every problem, the fleet's and the cards'. */
  counts: ProblemCounts;
  /** The same counts split: problems of the fleet list itself (what `check FLEET` reports) and of the cards it uses. */
  fleetCounts: ProblemCounts;
  cardCounts: ProblemCounts;
  /** Whether the fleet can be played as written: no error in the list or in a card it uses. */
  legal: boolean;
  /** The rulebook version the checks apply, and the digest of the fleet and the cards it uses (digest.ts). */
  rules: RulesVersion;
  digest: string;
  /**
   * With a collection in the workspace (FORMATS.md "Collection"): the models to buy to field this
   * list, each card with how many more than owned (empty: every model is owned). Absent without a
   * collection: nothing is said about owning.
   */
  toBuy?: { name: string; count: number }[];
}

const UNKNOWN_CARD = 'Unknown card';
const NO_CLASS = 'No class';

function lineCol(text: string, off: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  const end = Math.min(Math.max(0, off), text.length);
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: end - last };
}

function toProblem(p: Problem, uri: string, text: string, inCard: boolean): RosterProblem {
  return { severity: p.severity, code: p.code, message: p.message, uri, span: p.span, ...lineCol(text, p.span.start), inCard };
}

function str(f: { value?: string | undefined; raw: string } | undefined): string {
  return (f?.value ?? f?.raw ?? '').trim();
}

export function rosterCard(ref: CardRef): RosterCard {
  const c: UnitCard = ref.card;
  const stats = {} as Record<StatName, string>;
  for (const s of STAT_ORDER) stats[s] = c.stats?.entries[s]?.raw.trim() ?? '';
  return {
    name: str(c.name),
    faction: ref.faction,
    class: str(c.class),
    points: c.points.value,
    bases: c.bases?.value,
    stats,
    statLine: STAT_ORDER.map((s) => stats[s] || '?').join(' '),
    weapons: (c.weapons?.items ?? []).map((w) => ({
      name: str(w.name),
      type: str(w.type),
      range: w.range.value,
      damage: w.damage.value,
      attacks: w.attacks.value,
    })),
    orders: (c.orders?.items ?? []).map((o) => ({
      name: str(o.name),
      difficulty: o.difficulty?.value,
      range: o.range?.value,
      effect: str(o.effect),
    })),
    abilities: (c.abilities?.items ?? []).map((a) => ({ name: str(a.name), text: str(a.text) })),
    uri: ref.uri,
    span: c.span,
  };
}

function boardOf(ws: Workspace, faction: string | undefined): RosterBoard | undefined {
  if (faction === undefined) return undefined;
  const key = faction.trim().toLowerCase();
  const doc = ws.factionDocuments().find((d) => !d.unread && (d.faction.value ?? '').trim().toLowerCase() === key);
  if (!doc) return undefined;
  return {
    faction: str(doc.faction),
    doctrine: str(doc.doctrine),
    cp: cpPerRound(doc),
    cpSources: (doc.cpSources?.items ?? []).map((s) => ({ name: str(s.name), cp: s.cp.value })),
    factionAbility: doc.factionAbility ? { name: str(doc.factionAbility.name), text: str(doc.factionAbility.text) } : undefined,
    commandAbilities: (doc.commandAbilities?.items ?? []).map((a) => ({
      name: str(a.name),
      cost: a.cost.value,
      timing: str(a.timing),
      effect: str(a.effect),
    })),
    uri: doc.uri,
  };
}

function contains(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end && inner.start < outer.end;
}

/**
 * What a caller already has for a roster: the fleet's totals, and each document's checks (the
 * language server's cached diagnostics, so that a roster request does not run the checks again).
 */
export interface RosterInputs {
  totals?: FleetTotals;
  checks?: (doc: FabledDocument, ws: Workspace) => Problem[];
}

/**
 * The problems of a card's own text (an illegal stat, too many weapons), which make the roster
 * illegal too: each card file is checked once, and each card has one list, so a card used by
 * several entries shows its problems on each but counts them once.
 */
function cardProblems(ws: Workspace, checkDocument: (doc: FabledDocument, ws: Workspace) => Problem[]): (ref: CardRef | undefined) => RosterProblem[] {
  const cardFileProblems = new Map<string, Problem[]>();
  const cardProblemLists = new Map<UnitCard, RosterProblem[]>();
  return (ref) => {
    if (!ref) return [];
    const d = ws.get(ref.uri);
    if (!d) return [];
    let list = cardProblemLists.get(ref.card);
    if (list) return list;
    let ps = cardFileProblems.get(ref.uri);
    if (!ps) cardFileProblems.set(ref.uri, (ps = checkDocument(d, ws)));
    list = ps.filter((p) => contains(ref.card.span, p.span)).map((p) => toProblem(p, ref.uri, d.text, true));
    cardProblemLists.set(ref.card, list);
    return list;
  };
}

/** The problems by severity: in all, in the fleet list, in the cards. */
function countProblems(all: Iterable<RosterProblem>): { counts: ProblemCounts; fleetCounts: ProblemCounts; cardCounts: ProblemCounts } {
  const counts: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };
  const fleetCounts: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };
  const cardCounts: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };
  for (const p of all) {
    const key = p.severity === 'error' ? 'errors' : p.severity === 'warning' ? 'warnings' : 'infos';
    counts[key]++;
    (p.inCard ? cardCounts : fleetCounts)[key]++;
  }
  return { counts, fleetCounts, cardCounts };
}

/** The roster of a fleet. `ws` should hold the fleet's cards (and its Command Board, if any). */
export function buildRoster(doc: FleetDocument, ws: Workspace, given: RosterInputs = {}): Roster {
  const totals = given.totals ?? fleetTotals(doc, ws);
  const checkDocument = given.checks ?? runChecks;
  // The collection's problems are the exporter's shelf, not the list or the cards: the sheet says them
  // once, as what to buy (`toBuy`), so that anyone with the card files gets the same sheet (verify.ts).
  const fleetProblems = checkDocument(doc, ws)
    .filter((p) => !p.code.startsWith('FS-COLLECTION-'))
    .map((p) => toProblem(p, doc.uri, doc.text, false));
  const cards = new Map<UnitCard, RosterCard>();
  const cardOf = (ref: CardRef | undefined) => {
    if (!ref) return undefined;
    let rc = cards.get(ref.card);
    if (!rc) cards.set(ref.card, (rc = rosterCard(ref)));
    return rc;
  };
  const problemsOfCard = cardProblems(ws, checkDocument);

  const claimed = new Set<RosterProblem>();
  const byClass = new Map<string, ClassTotal>();
  const addClass = (cls: string, units: number, points: number) => {
    const t = byClass.get(cls) ?? { class: cls, units: 0, points: 0 };
    t.units += units;
    t.points += points;
    byClass.set(cls, t);
  };

  const entries: RosterEntry[] = totals.entries.map((ep, index) => {
    const count = ep.entry.count.value !== undefined && ep.entry.count.value > 0 ? ep.entry.count.value : 0;
    const own = fleetProblems.filter((p) => !claimed.has(p) && contains(ep.entry.span, p.span));
    for (const p of own) claimed.add(p);
    const seen = new Set<UnitCard>();
    const cardProblems: RosterProblem[] = [];
    for (const ref of [ep.card, ...ep.embarked.map((x) => x.card)]) {
      if (!ref || seen.has(ref.card)) continue;
      seen.add(ref.card);
      cardProblems.push(...problemsOfCard(ref));
    }
    const card = cardOf(ep.card);
    const cardPoints = ep.card?.card.points.value;
    addClass(card ? card.class || NO_CLASS : UNKNOWN_CARD, count, count * (cardPoints !== undefined && cardPoints > 0 ? cardPoints : 0));
    const embarked = ep.embarked.map((x, i) => {
      const rc = cardOf(x.card);
      addClass(rc ? rc.class || NO_CLASS : UNKNOWN_CARD, count, count * x.points);
      return { name: x.name.trim(), card: rc, points: x.points, span: ep.entry.embark?.items[i]?.span ?? ep.entry.span };
    });
    return {
      index,
      unit: (ep.entry.unit.value ?? '').trim(),
      card,
      count,
      cardPoints,
      each: ep.each,
      total: ep.total,
      embarked,
      complete: !!ep.card && ep.embarked.every((x) => !!x.card),
      problems: [...own, ...cardProblems],
      span: ep.entry.span,
    };
  });

  const problems = fleetProblems.filter((p) => !claimed.has(p));
  const { counts, fleetCounts, cardCounts } = countProblems(new Set([...problems, ...entries.flatMap((e) => e.problems)]));
  const limit = totals.limit !== undefined && totals.limit > 0 ? totals.limit : undefined;
  const size = GAME_SIZES.find((g) => g.points === limit);
  const order = [...new Set([...byClass.keys()])];
  const name = (doc.name.value ?? '').trim();
  // The faction as its cards spell it ("Red Corsairs" for a fleet that wrote "red corsairs").
  const faction = (doc.faction.value !== undefined ? (ws.cardsOf(doc.faction.value)[0]?.faction ?? doc.faction.value) : '').trim();
  const digest = fleetDigest({
    name,
    faction,
    limit,
    entries: totals.entries.map((ep, i) => ({
      unit: ep.entry.unit.value ?? '',
      card: ep.card,
      count: entries[i]!.count,
      embarked: ep.embarked.map((x) => ({ name: x.name, card: x.card })),
    })),
  });
  return {
    uri: doc.uri,
    name,
    faction,
    limit,
    gameSize: size ? { name: size.name, points: size.points, table: size.table, objectives: { ...size.objectives } } : undefined,
    objectives: doc.objectives?.value,
    total: totals.total,
    remaining: limit !== undefined ? limit - totals.total : undefined,
    over: limit !== undefined && totals.total > limit,
    entries,
    byClass: order.map((k) => byClass.get(k)!).sort((a, b) => classRank(a.class) - classRank(b.class)),
    board: boardOf(ws, doc.faction.value),
    problems,
    counts,
    fleetCounts,
    cardCounts,
    legal: counts.errors === 0,
    rules: rulesVersion(),
    digest,
    ...toBuyOf(doc, ws),
  };
}

function toBuyOf(doc: FleetDocument, ws: Workspace): Pick<Roster, 'toBuy'> {
  const b = fleetToBuy(doc, ws);
  return b ? { toBuy: b.short.map((s) => ({ name: s.name, count: s.fielded - s.owned })) } : {};
}

/** "To field this list: 1 x Lumen Cruiser", or that every model is owned; undefined without a collection. */
export function toBuyLine(r: Pick<Roster, 'toBuy'>): string | undefined {
  if (!r.toBuy) return undefined;
  return r.toBuy.length
    ? `To field this list: ${r.toBuy.map((b) => `${b.count} x ${b.name}`).join(', ')}`
    : 'Your collection holds every model this list fields.';
}

const CLASS_ORDER = ['Capital Ship', 'Dreadnought', 'Battleship', 'Carrier', 'Cruiser', 'Destroyer', 'Frigate', 'Escort', 'Bomber', 'Fighter'];

/** Big ships first, as list builders sort; unknown classes last. */
function classRank(cls: string): number {
  const i = CLASS_ORDER.findIndex((c) => c.toLowerCase() === cls.toLowerCase());
  return i >= 0 ? i : cls === UNKNOWN_CARD ? 99 : 50;
}
