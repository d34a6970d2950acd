/**
 * The editor's requests of a service instance, bound to its workspace: hover, completion, code
 * actions, symbols, navigation, inlay hints, code lenses, the fleet summary, and the workspace's
 * and the bundled examples' cards. Each is short: it finds what the request is about and calls
 * the pure feature.
 */
import type { Settings } from '../api';
import type { FabledDocument, FleetDocument, Problem, Span } from '../model/types';
import type { CardRef } from '../workspace';
import type { ServiceParts } from './parts';
import { hover, type HoverResult } from '../features/hover';
import { complete, type CompletionList } from '../features/completion';
import { codeActions, fixAll, type CodeActionData } from '../features/codeActions';
import { documentSymbols, workspaceSymbols, type DocSymbol } from '../features/symbols';
import { foldingRanges, selectionSpans, type Fold } from '../features/structure';
import { definition, prepareRename, references, rename } from '../features/navigation';
import { inlayHints, type Hint } from '../features/inlayHints';
import { codeLenses, type Lens } from '../features/codeLens';
import { fleetSummary } from '../features/fleetSummary';
import { cardsUsedBy, dependentsOf, findCard, listCards } from '../features/workspaceQueries';
import { exampleCards, exampleFleets, exampleWorkspace, findExampleCard } from '../examples/index';

export interface EditorRequests {
  /** The hover at an offset of a document (markdown, and the span it is about). */
  hover(doc: FabledDocument, offset: number, settings: Settings): HoverResult | undefined;
  /** The completions at an offset of a document's text (the model may be the previous version's, or none). */
  complete(doc: FabledDocument | undefined, text: string, offset: number): CompletionList;
  /** The code actions over a span of a document, for the problems there. */
  codeActions(doc: FabledDocument, range: Span, problems: Problem[]): CodeActionData[];
  /** The one action that fixes every problem of a document with one clear fix; undefined when none has. */
  fixAll(doc: FabledDocument, problems: Problem[]): CodeActionData | undefined;
  /** A document's outline. */
  documentSymbols(doc: FabledDocument): DocSymbol[];
  /** The workspace's cards, factions and fleets whose names match a query. */
  workspaceSymbols(query: string): ReturnType<typeof workspaceSymbols>;
  /** A document's folds, from its text. */
  foldingRanges(text: string): Fold[];
  /** The spans around an offset, innermost first. */
  selectionSpans(text: string, offset: number): Span[];
  /** Where the name at an offset is defined. */
  definition(doc: FabledDocument, offset: number): ReturnType<typeof definition>;
  /** Where the name at an offset is used (and defined, when asked). */
  references(doc: FabledDocument, offset: number, includeDeclaration: boolean): ReturnType<typeof references>;
  /** The name at an offset that can be renamed, and its span. */
  prepareRename(doc: FabledDocument, offset: number): ReturnType<typeof prepareRename>;
  /** The edits renaming the name at an offset everywhere (`textOf`: a file's text as the editor has it), or why not. */
  rename(doc: FabledDocument, offset: number, newName: string, textOf: (uri: string) => string | undefined): ReturnType<typeof rename>;
  /** The inlay hints over a span of a document. */
  inlayHints(doc: FabledDocument, range: Span, settings: Settings): Hint[];
  /** A document's code lenses. */
  codeLenses(doc: FabledDocument, settings: Settings): Lens[];
  /** A fleet list in brief: its name, faction, points and units. */
  fleetSummary(doc: FleetDocument): ReturnType<typeof fleetSummary>;
  /** The bundled example fleets in brief, each with the example cards. */
  exampleFleetSummaries(): ReturnType<typeof fleetSummary>[];
  /** The workspace's cards (of one faction, when given). */
  listCards(faction?: string): CardRef[];
  /** The cards a fleet list fields. */
  cardsUsedBy(fleet: FabledDocument | undefined): CardRef[];
  /** The bundled example cards the workspace has no card of (by name and faction). */
  exampleCards(): CardRef[];
  /** A card of the workspace by name (and faction), or the one at an offset of a file. */
  findCard(sel: { name: string; faction?: string } | { uri: string; offset: number }): CardRef | undefined;
  /** A bundled example card by name (and faction). */
  findExampleCard(name: string, faction?: string): CardRef | undefined;
  /** The documents to check again when cards of these names or factions change (the changed files left out). */
  dependentsOf(names: ReadonlySet<string>, factions: ReadonlySet<string>, changed: ReadonlySet<string>): string[];
}

export function editorRequests({ ws }: ServiceParts): EditorRequests {
  return {
    hover: (doc, offset, settings) => hover(doc, ws, offset, settings),
    complete: (doc, text, offset) => complete(doc, ws, text, offset),
    codeActions: (doc, range, problems) => codeActions(doc, range, problems, ws),
    fixAll: (doc, problems) => fixAll(doc, problems, ws),
    documentSymbols: (doc) => documentSymbols(doc, ws),
    workspaceSymbols: (query) => workspaceSymbols(ws, query),
    foldingRanges: (text) => foldingRanges(text),
    selectionSpans: (text, offset) => selectionSpans(text, offset),
    definition: (doc, offset) => definition(doc, ws, offset),
    references: (doc, offset, includeDeclaration) => references(doc, ws, offset, includeDeclaration),
    prepareRename: (doc, offset) => prepareRename(doc, ws, offset),
    rename: (doc, offset, newName, textOf) => rename(doc, ws, offset, newName, textOf),
    inlayHints: (doc, range, settings) => inlayHints(doc, ws, range, settings),
    codeLenses: (doc, settings) => codeLenses(doc, ws, settings),
    fleetSummary: (doc) => fleetSummary(doc, ws),
    exampleFleetSummaries: () => exampleFleets().map((d) => fleetSummary(d, exampleWorkspace())),
    listCards: (faction) => listCards(ws, faction),
    cardsUsedBy: (fleet) => cardsUsedBy(ws, fleet),
    exampleCards: () => exampleCards(ws),
    findCard: (sel) => findCard(ws, sel),
    findExampleCard: (name, faction) => findExampleCard(name, faction),
    dependentsOf: (names, factions, changed) => dependentsOf(ws, names, factions, changed),
  };
}
