/**
 * The rosters' requests of a service instance, bound to its workspace: a fleet list's roster (from
 * the instance's checks), what it can add and what its owner has spare, the printable card sheet,
 * a roster's text read back into a fleet list, and a roster checked against the workspace's cards.
 */
import type { FabledDocument, FleetDocument, Problem } from '../model/types';
import type { Workspace } from '../workspace';
import type { ServiceParts } from './parts';
import { checkDocument } from '../check/index';
import { fleetTotals, type FleetTotals } from '../fleetPoints';
import { buildRoster, type Roster } from '../roster/model';
import { addChoices, embarkChooser } from '../roster/edits';
import { cardSheetHtml, fleetSheetCards, sheetCard, type Paper, type SheetCard } from '../roster/cards';
import { rosterShort } from '../roster/render';
import { spareCopies } from '../collection';
import { importCards, importRoster, type ImportCards, type ImportOptions, type ImportResult } from '../roster/import/index';
import { verifyRoster } from '../roster/verify';

type Checks = (doc: FabledDocument, ws: Workspace) => Problem[];

const runChecks: Checks = (doc, ws) => checkDocument(doc, ws);

export interface PreparedRoster {
  roster: Roster;
  totals: FleetTotals;
  /** Every entry's Embark… choices, from the same totals. */
  embarkChoices: ReturnType<typeof embarkChooser>;
}

export function roster(doc: FleetDocument, ws: Workspace, checks: Checks = runChecks): PreparedRoster {
  const totals = fleetTotals(doc, ws);
  return { roster: buildRoster(doc, ws, { totals, checks }), totals, embarkChoices: embarkChooser(doc, ws, totals) };
}

/** A sheet of unit cards to print (roster/cards.ts): the cards of some files, and a fleet's as fielded. */
export interface CardSheetRequest {
  /** Whether every card of this file gets a card. */
  cardsOf: (uri: string) => boolean;
  /** A fleet list of `ws`: its units as fielded, and its one line with a QR code on each page. */
  fleet?: FleetDocument | undefined;
  paper: Paper;
}

export interface CardSheet {
  html: string;
  /** The fleet's name, or "Unit cards". */
  title: string;
  /** Cards on the sheet. */
  cards: number;
  /** Names in the fleet that resolve to no card (left out). */
  unknown: string[];
}

export function cardSheet(ws: Workspace, req: CardSheetRequest, checks: Checks = runChecks): CardSheet {
  const cards: SheetCard[] = ws
    .allCards()
    .filter((r) => req.cardsOf(r.uri))
    .map(sheetCard);
  let title = 'Unit cards';
  let share: string | undefined;
  const unknown: string[] = [];
  if (req.fleet) {
    const prepared = roster(req.fleet, ws, checks);
    cards.push(...fleetSheetCards(prepared.totals));
    for (const ep of prepared.totals.entries) {
      if (!ep.card) unknown.push(ep.entry.unit.value ?? '');
      for (const x of ep.embarked) if (!x.card) unknown.push(x.name);
    }
    title = prepared.roster.name || 'Fleet';
    share = rosterShort(prepared.roster);
  }
  return { html: cardSheetHtml(cards, { paper: req.paper, title, ...(share ? { share } : {}) }), title, cards: cards.length, unknown };
}

export interface RosterRequests {
  /** A fleet list's roster, from the instance's checks, with its totals and every entry's Embark… choices. */
  roster(doc: FleetDocument): PreparedRoster;
  /** The cards a fleet list can add (its faction's), with their points. */
  addChoices(doc: FleetDocument): ReturnType<typeof addChoices>;
  /** How many copies of a card the collection has beyond what the fleet fields; undefined without a collection. */
  spareCopies(doc: FleetDocument): ReturnType<typeof spareCopies>;
  /** A sheet of unit cards to print. */
  cardSheet(req: CardSheetRequest): CardSheet;
  /** The workspace's cards as a roster's import reads them (plain data, for a worker thread). */
  importCards(): ImportCards;
  /** A roster's text read into a fleet list against the workspace's cards. */
  importRoster(text: string, options?: ImportOptions): ImportResult;
  /** Whether a roster's text still matches the workspace's cards (its digest), and why not. */
  verifyRoster(text: string): ReturnType<typeof verifyRoster>;
}

export function rosterRequests({ ws, checks }: ServiceParts): RosterRequests {
  return {
    roster: (doc) => roster(doc, ws, checks),
    addChoices: (doc) => addChoices(doc, ws),
    spareCopies: (doc) => spareCopies(doc, ws),
    cardSheet: (req) => cardSheet(ws, req, checks),
    importCards: () => importCards(ws),
    importRoster: (text, options) => importRoster(text, ws, options),
    verifyRoster: (text) => verifyRoster(text, ws),
  };
}
