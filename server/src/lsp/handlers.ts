/**
 * Every request the server answers, registered from one table: its name (for the log), how it is
 * registered on the connection, what it does, and what it answers when it fails. A handler reads
 * the state, calls a pure feature of the core, and converts the answer with ./convert.
 */
import { sha256 } from '@noble/hashes/sha2';
import {
  CodeActionKind,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  SymbolKind,
  type CancellationToken,
  type CodeActionParams,
  type CodeLensParams,
  type CompletionItem,
  type CompletionParams,
  type Connection,
  type DefinitionParams,
  type DocumentSymbolParams,
  type FoldingRangeParams,
  type SelectionRangeParams,
  type HoverParams,
  type InlayHintParams,
  type PrepareRenameParams,
  type ProgressToken,
  type ReferenceParams,
  type RenameParams,
  type RequestHandler,
  type RequestType,
  type SymbolInformation,
  type WorkspaceSymbolParams,
} from 'vscode-languageserver/node';
import {
  FabledService,
  type Span,
  type BattleResult,
  type SimulationResult,
  type FabledDocument,
  type FleetDocument,
  type VsFieldResult,
  LIMITS,
  type ImportResult,
} from '../core/service';
import { importHere, importRosterData, rosterData, rosterEdit, STALE, toTextEdit, type ImportRunner } from './roster';
import { SimPool, workerFile } from '../node/sim-pool';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { MAX_WAITING, SimulationQueue } from './pool';
import type { ServerRunner } from '../node/runners';
import { LiveOdds } from './liveOdds';
import {
  BattlePartialResult,
  BattleProgress,
  BattleRequest,
  BattleInputsRequest,
  type BattleInputs,
  type BattleInputsParams,
  type BattleFleetSelector,
  type BattleParams,
  type BattleCompareWith,
  PriceByBattlePartial,
  PriceByBattleRequest,
  type PriceByBattleParams,
  type PriceByBattleResult,
  CardAtRequest,
  ExampleFleetsRequest,
  FleetSummaryRequest,
  ListCardsRequest,
  RosterEditRequest,
  RosterRequest,
  ImportRosterRequest,
  CardSheetRequest,
  RuleTextRequest,
  SimulateRequest,
  type CardAtParams,
  type CardInfo,
  type CardSelector,
  type FleetSummary,
  type ListCardsParams,
  type RosterData,
  type RosterEditParams,
  type RosterParams,
  type RosterEditResult,
  type ImportRosterParams,
  type ImportRosterResult,
  type CardSheetData,
  type CardSheetParams,
  type RuleTextEntry,
  type RuleTextParams,
  type SimulateParams,
  VsFieldRequest,
  type VsFieldParams,
} from '../../../protocol';
import * as convert from './convert';
import { nextTurn, type Diagnostics } from './diagnostics';
import type { ServerState } from './state';

export interface Context {
  state: ServerState;
  diagnostics: Diagnostics;
  /** Where every simulation runs (../node/runners.ts): worker threads, the background process; never this thread. */
  runner: ServerRunner;
  /** The simulations waiting for and running on worker threads (made on first use). */
  simulations?: SimulationQueue;
  /** The thread pasted rosters are read on (Paste Roster as Fleet; made on first use, ended when idle). */
  importThread?: SimPool;
  /** The live odds lens's, in a background process of their own (made on first use). */
  lensSimulations?: SimulationQueue;
  /** The live odds lens's runs (made on first use). */
  liveOdds?: LiveOdds;
}

type Handle<P, R> = (ctx: Context, params: P, token: CancellationToken) => R | Promise<R>;

/** Turns a handler of the table into what the connection takes, binding the context. */
export interface Bind {
  /**
   * A request whose failure (a bug, never bad input) is logged and answered with `fallback`, so
   * that one bug does not end the session. ResponseErrors (deliberate answers) go through.
   */
  guarded<P, R>(handle: Handle<P, R>, fallback: R): (params: P, token: CancellationToken) => Promise<R>;
  /** A request whose errors are the answer (the client shows them). */
  direct<P, R>(handle: Handle<P, R>): (params: P, token: CancellationToken) => Promise<R>;
}

export interface HandlerEntry {
  /** For the log. */
  name: string;
  register(connection: Connection, bind: Bind): void;
}

/**
 * Completion reads the text around the cursor and uses the model only to look up the card, the
 * fleet's faction and such: in a large file it may use the previous version's model rather than
 * re-parse the whole file between two keystrokes.
 */
const STALE_MODEL_OK_CHARS = 100_000;

/** A request about one document: null when the document is not one of ours (or the request was cancelled). */
function inDocument<P extends { textDocument: { uri: string } }, R>(
  handle: (ctx: Context, r: { td: TextDocument; doc: FabledDocument }, params: P, token: CancellationToken) => R | Promise<R>,
): Handle<P, R | null> {
  return (ctx, params, token) => {
    const r = ctx.state.request(params.textDocument.uri, token);
    return r ? handle(ctx, r, params, token) : null;
  };
}

/** An LSP request about one document, answered with null when the document is not one of ours, the request was cancelled, or it failed. */
function aboutDocument<P extends { textDocument: { uri: string } }, R>(
  b: Bind,
  handle: (ctx: Context, r: { td: TextDocument; doc: FabledDocument }, params: P, token: CancellationToken) => R | Promise<R>,
): (params: P, token: CancellationToken) => Promise<R | null> {
  return b.guarded(inDocument(handle), null);
}

/** A custom request as protocol/ declares it: its method (`fabledStar/listCards`) and its type. */
interface CustomRequest<P, R, E> {
  method: string;
  type: RequestType<P, R, E>;
}

/** The log's name of a custom request: its method without the `fabledStar/` prefix (`listCards`). */
export function requestName(method: string): string {
  return method.replace(/^fabledStar\//, '');
}

/** A row for a custom request (protocol/) whose failure is logged and answered with `fallback`. */
function customRequest<P, R, E>(request: CustomRequest<P, R, E>, handle: Handle<P | undefined, R>, fallback: R): HandlerEntry {
  // The library types the answer through a conditional on R, which a generic R cannot meet: the cast says what holds.
  return { name: requestName(request.method), register: (c, b) => c.onRequest(request.type, b.guarded(handle, fallback) as RequestHandler<P, R, E>) };
}

/** The fleet list a custom request names, with every open file read first (so its cards are known); undefined when it is none. */
function requestedFleet(state: ServerState, uri: string | undefined): FleetDocument | undefined {
  state.ensureAllOpen();
  const doc = uri ? state.ensure(uri) : undefined;
  return doc?.kind === 'fleet' ? doc : undefined;
}

/**
 * A row for a custom request about the fleet list `params.uri`: answered with null when the uri is
 * not a fleet the server knows (or the request failed); `handle` gets the fleet, read with its cards.
 */
function fleetRequest<P extends { uri: string }, R, E>(
  request: CustomRequest<P, R | null, E>,
  handle: (ctx: Context, doc: FleetDocument, params: P) => R | null,
): HandlerEntry {
  return customRequest(
    request,
    (ctx, params) => {
      const doc = requestedFleet(ctx.state, params?.uri);
      return doc && params ? handle(ctx, doc, params) : null;
    },
    null,
  );
}

/** Lets the messages already read go first (the connection handles one queued message a turn, scheduled after this one: hence two turns); false when the request was cancelled meanwhile. */
async function giveWay(token: CancellationToken): Promise<boolean> {
  await nextTurn();
  await nextTurn();
  return !token.isCancellationRequested;
}

/**
 * A fleet's roster for the Fleet view, which asks for it right behind each edit. A big fleet's
 * roster is milliseconds of this thread's time in three parts (the fleet's checks, the roster, the
 * view's rows), so it is made a part at a time, the messages read meanwhile (a hover) answered
 * between the parts; a request the client cancelled meanwhile (superseded by the next edit) stops.
 * The doc and version are those of the request's turn, so the answer is one version's throughout.
 */
async function rosterInSteps(ctx: Context, params: RosterParams | undefined, token: CancellationToken): Promise<RosterData | null> {
  const stop = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled');
  if (!(await giveWay(token))) throw stop();
  const { state } = ctx;
  const doc = requestedFleet(state, params?.uri);
  if (!doc || !params) return null;
  const version = state.documents.get(doc.uri)?.version;
  state.service.diagnoseChecks(doc);
  if (!(await giveWay(token))) throw stop();
  const prepared = state.service.roster(doc);
  if (!(await giveWay(token))) throw stop();
  const toRange = (uri: string, s: Span) => {
    const td = state.textDoc(uri);
    return td ? convert.range(td, s) : undefined;
  };
  return rosterData(state.service, doc, toRange, params, version, prepared);
}

/** A card of the workspace or of the bundled examples, with where it is. */
type CardRef = NonNullable<ReturnType<FabledService['findCard']>>;

function selectCard({ state }: Context, sel: CardSelector | undefined): CardRef | undefined {
  const { service } = state;
  if (sel && 'uri' in sel && sel.position) {
    const td = state.textDoc(sel.uri);
    state.ensure(sel.uri);
    return td ? service.findCard({ uri: sel.uri, offset: td.offsetAt(sel.position) }) : undefined;
  }
  if (sel && 'name' in sel && typeof sel.name === 'string') {
    const faction = typeof sel.faction === 'string' ? sel.faction : undefined;
    // An example card when asked for one; else the workspace's, and an example only when it has none.
    if (sel.example === true)
      return service.findExampleCard(sel.name, faction) ?? service.findCard({ name: sel.name, ...(faction !== undefined ? { faction } : {}) });
    return service.findCard({ name: sel.name, ...(faction !== undefined ? { faction } : {}) }) ?? service.findExampleCard(sel.name, faction);
  }
  return undefined;
}

/** TextDocuments of the bundled example files, made once, for turning their offsets into positions. */
const exampleDocs = new Map<string, TextDocument>();

function exampleDoc(uri: string): TextDocument | undefined {
  let td = exampleDocs.get(uri);
  const text = td ? undefined : FabledService.exampleText(uri);
  if (!td && text !== undefined) exampleDocs.set(uri, (td = TextDocument.create(uri, 'fabled-unit', 0, text)));
  return td;
}

/** A card as the client sees it; undefined when its document is not at hand. */
function cardInfo({ state }: Context, ref: CardRef): CardInfo | undefined {
  const example = FabledService.isExampleUri(ref.uri);
  const td = example ? exampleDoc(ref.uri) : state.textDoc(ref.uri);
  if (!td || !ref.name) return undefined;
  return {
    name: ref.name,
    faction: ref.faction,
    class: ref.cls ?? ref.classRaw,
    points: ref.points,
    uri: ref.uri,
    range: convert.range(td, ref.span),
    selectionRange: convert.range(td, ref.nameSpan),
    ...(example ? { example: true } : {}),
  };
}

export const HANDLERS: HandlerEntry[] = [
  {
    name: 'hover',
    register: (c, b) =>
      c.onHover(
        aboutDocument(b, async ({ state }, r, params: HoverParams) => {
          const settings = await state.settingsFor(params.textDocument.uri);
          const h = state.service.hover(r.doc, r.td.offsetAt(params.position), settings);
          if (!h) return null;
          const contents = state.client.markdownHover
            ? { kind: 'markdown' as const, value: h.markdown }
            : { kind: 'plaintext' as const, value: FabledService.markdownToPlain(h.markdown) };
          return { contents, range: convert.range(r.td, h.span) };
        }),
      ),
  },

  {
    name: 'completion',
    register: (c, b) => {
      // Each item's documentation waits on the server until the client resolves the item (when it says it does).
      const docs = new convert.CompletionDocs();
      c.onCompletionResolve(b.direct(({ state }, item: CompletionItem) => docs.resolve(item, state.client.markdownDocs)));
      c.onCompletion(b.guarded((ctx, params: CompletionParams, token) => completion(ctx, params, token, docs), null));
    },
  },

  {
    name: 'codeAction',
    register: (c, b) => c.onCodeAction(aboutDocument(b, codeActionsAt)),
  },

  {
    name: 'documentSymbol',
    register: (c, b) =>
      c.onDocumentSymbol(
        aboutDocument(b, ({ state }, r, _params: DocumentSymbolParams) => {
          return convert.documentSymbolList(state.service.documentSymbols(r.doc), r.td, state.client.hierarchicalSymbols);
        }),
      ),
  },

  {
    name: 'foldingRange',
    register: (c, b) =>
      c.onFoldingRanges(
        aboutDocument(b, ({ state }, r, _params: FoldingRangeParams) => convert.foldingRangeList(state.service.foldingRanges(r.td.getText()), r.td)),
      ),
  },

  {
    name: 'selectionRange',
    register: (c, b) =>
      c.onSelectionRanges(
        aboutDocument(b, ({ state }, r, params: SelectionRangeParams) =>
          params.positions.map((p) => convert.selectionRange(state.service.selectionSpans(r.td.getText(), r.td.offsetAt(p)), r.td, p)),
        ),
      ),
  },

  {
    name: 'workspaceSymbol',
    register: (c, b) =>
      c.onWorkspaceSymbol(
        b.guarded(({ state }, params: WorkspaceSymbolParams) => {
          const out: SymbolInformation[] = [];
          for (const s of state.service.workspaceSymbols(params.query)) {
            const td = state.textDoc(s.uri);
            if (td) out.push({ name: s.name, kind: SymbolKind.Class, containerName: s.container, location: { uri: s.uri, range: convert.range(td, s.span) } });
          }
          return out;
        }, null),
      ),
  },

  {
    name: 'definition',
    register: (c, b) =>
      c.onDefinition(
        aboutDocument(b, ({ state }, r, params: DefinitionParams) => {
          return convert.locations(state.service.definition(r.doc, r.td.offsetAt(params.position)), (u) => state.textDoc(u));
        }),
      ),
  },

  {
    name: 'references',
    register: (c, b) =>
      c.onReferences(
        aboutDocument(b, ({ state }, r, params: ReferenceParams) => {
          return convert.locations(state.service.references(r.doc, r.td.offsetAt(params.position), params.context.includeDeclaration), (u) => state.textDoc(u));
        }),
      ),
  },

  {
    name: 'prepareRename',
    register: (c, b) =>
      c.onPrepareRename(
        aboutDocument(b, ({ state }, r, params: PrepareRenameParams) => {
          const p = state.service.prepareRename(r.doc, r.td.offsetAt(params.position));
          return p ? { range: convert.range(r.td, p.span), placeholder: p.placeholder } : null;
        }),
      ),
  },

  {
    name: 'rename',
    register: (c, b) =>
      c.onRenameRequest(
        aboutDocument(b, ({ state }, r, params: RenameParams) => {
          // Every file the rename touches must be current in the workspace first.
          for (const td of state.documents.all()) state.ensure(td.uri);
          const res = state.service.rename(r.doc, r.td.offsetAt(params.position), params.newName, (u) => state.textDoc(u)?.getText());
          if (res.error) throw new ResponseError(ErrorCodes.InvalidRequest, res.error);
          return { changes: convert.changes(res.edits, (u) => state.textDoc(u)) };
        }),
      ),
  },

  {
    name: 'inlayHint',
    register: (c, b) =>
      c.languages.inlayHint.on(
        aboutDocument(b, async ({ state }, r, params: InlayHintParams) => {
          const settings = await state.settingsFor(params.textDocument.uri);
          return state.service.inlayHints(r.doc, convert.span(r.td, params.range), settings).map((h) => convert.inlayHint(h, r.td));
        }),
      ),
  },

  {
    name: 'codeLens',
    register: (c, b) =>
      c.onCodeLens(
        b.guarded(async (ctx, params: CodeLensParams, token) => {
          // An editor asks for the lenses with every keystroke, right behind the change: the
          // change's diagnostics (waiting a turn of the event loop, scheduler.ts) go first, then
          // the lenses, read from the document as it is then.
          await nextTurn();
          return inDocument((ctx, r, params: CodeLensParams) => codeLensesOf(c, ctx, r, params))(ctx, params, token);
        }, null),
      ),
  },

  {
    name: 'diagnostic',
    register: (c, b) => c.languages.diagnostics.on(b.direct(({ diagnostics }, params, token) => diagnostics.pull(params, token))),
  },

  {
    name: 'workspaceDiagnostic',
    register: (c, b) => c.languages.diagnostics.onWorkspace(b.direct(({ diagnostics }, params, token) => diagnostics.pullWorkspace(params, token))),
  },

  // Custom requests (protocol/)

  customRequest(ListCardsRequest, listCardInfos, [] as CardInfo[]),

  customRequest(
    CardAtRequest,
    (ctx, params: CardAtParams | undefined): CardInfo | null => {
      if (!params || typeof params.uri !== 'string' || !params.position) return null;
      ctx.state.ensureAllOpen();
      const ref = selectCard(ctx, { uri: params.uri, position: params.position });
      return (ref && cardInfo(ctx, ref)) ?? null;
    },
    null,
  ),

  fleetRequest(FleetSummaryRequest, ({ state }, doc): FleetSummary => state.service.fleetSummary(doc)),

  customRequest(ExampleFleetsRequest, ({ state }): FleetSummary[] => state.service.exampleFleetSummaries(), [] as FleetSummary[]),

  customRequest(RosterRequest, rosterInSteps, null),

  customRequest(
    CardSheetRequest,
    ({ state }, params: CardSheetParams | undefined): CardSheetData | null => {
      if (!params || typeof params.uri !== 'string') return null;
      state.ensureAllOpen();
      const doc = state.ensure(params.uri);
      if (!doc) return null;
      const paper = params.paper === 'letter' ? 'letter' : 'a4';
      return state.service.cardSheet(doc.kind === 'fleet' ? { cardsOf: () => false, fleet: doc, paper } : { cardsOf: (uri) => uri === doc.uri, paper });
    },
    null,
  ),

  customRequest(
    ImportRosterRequest,
    async (ctx, params: ImportRosterParams | undefined, token): Promise<ImportRosterResult | null> => {
      if (!params || typeof params.text !== 'string') return null;
      ctx.state.ensureAllOpen();
      return importRosterData(params, ctx.state.service, importRunner(ctx, token));
    },
    null,
  ),

  fleetRequest(RosterEditRequest, ({ state }, doc, params: RosterEditParams): RosterEditResult | null => {
    const td = state.textDoc(params.uri);
    if (!td) return null;
    // An edit named on text the client no longer has (the tree's entry index, the editor's text)
    // would land on another entry or in the wrong place: refused, so that the client redraws.
    const open = state.documents.get(params.uri);
    if (typeof params.version === 'number' && open && open.version !== params.version) return STALE;
    const r = rosterEdit(doc, params);
    if (!('edit' in r)) return r;
    return { edit: toTextEdit(r.edit, (s) => convert.range(td, s)), ...(open ? { version: open.version } : {}) };
  }),

  {
    name: 'simulate',
    register: (c, b) =>
      c.onRequest(
        SimulateRequest.type,
        b.direct((ctx, params: SimulateParams | undefined, token) => simulate(c, ctx, params, token)),
      ),
  },

  {
    // A card against the field ("vs the field" lens): every row on a worker thread, as `sim --vs-field`.
    name: 'vsField',
    register: (c, b) =>
      c.onRequest(
        VsFieldRequest.type,
        b.direct((ctx, params: VsFieldParams | undefined, token) => vsFieldRun(c, ctx, params, token)),
      ),
  },

  {
    name: 'battle',
    register: (c, b) =>
      c.onRequest(
        BattleRequest.type,
        b.direct((ctx, params: BattleParams | undefined, token) => battle(c, ctx, params, token)),
      ),
  },

  customRequest(
    BattleInputsRequest,
    (ctx, params: BattleInputsParams | undefined): BattleInputs => {
      ctx.state.ensureAllOpen();
      try {
        const { battle } = battleOf(ctx, { fleet: params?.fleet, vs: params?.vs }, {});
        // The units and every number they fight with, digested: the same key, the same battle.
        return { key: base64(sha256(JSON.stringify(battle.fleets))) };
      } catch (e) {
        if (e instanceof ResponseError) return { cannotFight: e.message };
        throw e;
      }
    },
    { cannotFight: 'The fleets could not be read (see the log).' },
  ),

  {
    name: 'priceByBattle',
    register: (c, b) =>
      c.onRequest(
        PriceByBattleRequest.type,
        b.direct((ctx, params: PriceByBattleParams | undefined, token) => priceByBattle(c, ctx, params, token)),
      ),
  },

  customRequest(RuleTextRequest, (_ctx, params: RuleTextParams | undefined) => ruleText(params), [] as RuleTextEntry[]),
];

/** Work per slice on a worker thread, between two progress reports (about 20-30 ms). */
export const WORKER_SLICE_OPS = 1_000_000;

// ---------------------------------------------------------------------------------------------
// The handlers the table names: each reads the request, asks the service and converts its answer.

/** Completion at a position; in a large file from the previous version's model (see STALE_MODEL_OK_CHARS). */
function completion(ctx: Context, params: CompletionParams, token: CancellationToken, docs: convert.CompletionDocs) {
  const { state } = ctx;
  const uri = params.textDocument.uri;
  const td = state.textDoc(uri);
  const stale = td && td.getText().length > STALE_MODEL_OK_CHARS ? state.ws.get(uri) : undefined;
  const r = stale && td && !token.isCancellationRequested ? { td, doc: stale } : state.request(uri, token);
  if (!r) return null;
  const list = state.service.complete(r.doc, r.td.getText(), r.td.offsetAt(params.position));
  return convert.completionList(list, r.td, state.client.snippets, state.client.markdownDocs, state.client.completionResolve ? docs : undefined);
}

/** A document's code lenses, and on a fleet the live odds against the opponent the settings name (in a background process). */
async function codeLensesOf(c: Connection, ctx: Context, r: { td: TextDocument; doc: FabledDocument }, params: CodeLensParams) {
  const settings = await ctx.state.settingsFor(params.textDocument.uri);
  const lenses = ctx.state.service.codeLenses(r.doc, settings);
  const live = r.doc.kind === 'fleet' && settings.codeLens.enabled ? liveOdds(ctx, c).lens(r.doc, settings) : undefined;
  return (live ? [...lenses, live] : lenses).map((l) => convert.codeLens(l, r.td));
}

/** Whether a code action request asks for source.fixAll (on save, or "Fix All"). */
function wantsFixAll(only: readonly string[] | undefined): boolean {
  return !!only?.some((o) => o === CodeActionKind.Source || o === CodeActionKind.SourceFixAll || o.startsWith(CodeActionKind.SourceFixAll + '.'));
}

/** The code actions for the problems in a range (those the client names), and Fix All when asked. */
function codeActionsAt({ state, diagnostics }: Context, r: { td: TextDocument; doc: FabledDocument }, params: CodeActionParams) {
  const p = diagnostics.problemsOf(params.textDocument.uri);
  const codes = new Set(params.context.diagnostics.map((d) => String(d.code ?? '')));
  const problems = (p?.problems ?? []).filter((x) => codes.size === 0 || codes.has(x.code));
  const actions = state.service.codeActions(r.doc, convert.span(r.td, params.range), problems);
  const all = wantsFixAll(params.context.only) ? state.service.fixAll(r.doc, p?.problems ?? []) : undefined;
  if (all) actions.push(all);
  const toDiagnostic = (problem: Parameters<Diagnostics['toDiagnostic']>[0]) => diagnostics.toDiagnostic(problem, r.td);
  return convert.codeActionList(actions, params.context.only, (u) => state.textDoc(u), toDiagnostic);
}

/** The cards a fleet uses, or a faction's (with the bundled examples' when asked), as the client sees them. */
function listCardInfos(ctx: Context, params: ListCardsParams | undefined): CardInfo[] {
  const { state } = ctx;
  state.ensureAllOpen();
  const refs = typeof params?.fleet === 'string' ? state.service.cardsUsedBy(state.ensure(params.fleet)) : state.service.listCards(params?.faction);
  if (params?.examples === true && typeof params.fleet !== 'string') {
    const wanted = params.faction?.trim().toLowerCase();
    refs.push(...state.service.exampleCards().filter((r) => wanted === undefined || r.faction.trim().toLowerCase() === wanted));
  }
  return refs.flatMap((ref) => cardInfo(ctx, ref) ?? []);
}

/** The rulebook's sections (or the one asked for) with their text and glossary terms. */
function ruleText(params: RuleTextParams | undefined): RuleTextEntry[] {
  const wanted =
    params?.section !== undefined
      ? String(params.section)
          .replace(/^\s*\u00a7\s*/, '')
          .trim()
      : undefined;
  const { sections, sectionMarkdown, glossary } = FabledService;
  const list = wanted !== undefined ? sections().filter((s) => String(s.number) === wanted) : sections();
  const parts = { inPlay: true, example: true, designerNote: true, faq: true };
  return list.map((s) => ({
    number: s.number,
    title: s.title,
    category: s.category,
    summary: s.summary,
    markdown: sectionMarkdown(s.number, parts) ?? '',
    terms: [...glossary()].filter(([, n]) => n === s.number).map(([t]) => t),
  }));
}

type Progress = ReturnType<Connection['window']['attachWorkDoneProgress']>;

/** Runs `work` under a work-done progress titled `title` on the client's token, ended however the work ends. */
async function withProgress<R>(c: Connection, token: ProgressToken | undefined, title: string, work: (p: Progress) => Promise<R>): Promise<R> {
  const progress = c.window.attachWorkDoneProgress(token);
  progress.begin(title, 0, undefined, true);
  try {
    return await work(progress);
  } finally {
    progress.done();
  }
}

/** A request failed with the sentence the user reads. */
function failed(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/** The duel a simulate request names, checked and ready for a worker; or a failure that says why not. */
function duelOf(ctx: Context, params: SimulateParams | undefined) {
  ctx.state.ensureAllOpen();
  const att = selectCard(ctx, params?.attacker);
  const def = selectCard(ctx, params?.defender);
  const describe = (s: CardSelector | undefined) => (s && 'name' in s ? `"${s.name}"` : 'at that position');
  if (!att) throw failed(`No attacker card ${describe(params?.attacker)}`);
  if (!def) throw failed(`No defender card ${describe(params?.defender)}`);
  const prepared = FabledService.prepareSimulation(att.card, def.card, params?.options ?? {}, { variants: params?.variants, compare: params?.compare });
  if ('refused' in prepared) throw failed(FabledService.simulationRefusal(prepared.refused));
  return { att, def, task: { kind: 'simulate', simulate: prepared.simulation, sliceOps: WORKER_SLICE_OPS } as const };
}

/** One engagement simulated on a worker thread, with both cards' points estimates. */
async function simulate(c: Connection, ctx: Context, params: SimulateParams | undefined, token: CancellationToken) {
  return withProgress(c, params?.workDoneToken, 'Simulating the engagement', async (progress) => {
    let duel: ReturnType<typeof duelOf> | undefined;
    const report = throttled();
    // The duel is read when its turn comes: the cards as they are then.
    const result = await simulations(ctx).run<SimulationResult>(
      simulationKey('simulate', params),
      () => (duel = duelOf(ctx, params)).task,
      token,
      (m) => {
        if ('progress' in m && report()) {
          const { trials, requested } = m.progress;
          progress.report(Math.floor((100 * trials) / Math.max(1, requested)), `${trials} of ${requested} trials`);
        }
      },
    );
    const estimate = (card: CardRef['card']) => ctx.state.service.cardEstimate(card);
    return { ...result, pointsEstimate: { attacker: estimate(duel!.att.card), defender: estimate(duel!.def.card) } };
  });
}

/** A card against every card of the field on a worker thread ("vs the field", as `sim --vs-field`). */
async function vsFieldRun(c: Connection, ctx: Context, params: VsFieldParams | undefined, token: CancellationToken) {
  const task = () => {
    ctx.state.ensureAllOpen();
    const ref = selectCard(ctx, params?.card);
    if (!ref) throw failed('No such card: it may have been renamed or its file closed.');
    const prepared = ctx.state.service.prepareVsField(ref, params?.side === 'defender' ? 'defender' : 'attacker', params?.range);
    if ('refused' in prepared) throw failed(prepared.refused.join(' '));
    return { kind: 'vsField', vsField: prepared.input, sliceOps: WORKER_SLICE_OPS } as const;
  };
  return withProgress(c, params?.workDoneToken, 'Firing at every card of the field', () =>
    simulations(ctx).run<VsFieldResult>(simulationKey('vsField', params), task, token, () => undefined),
  );
}

/** A fleet battle on a worker thread: work-done progress, counted progress and partial results as the client asked. */
async function battle(c: Connection, ctx: Context, params: BattleParams | undefined, token: CancellationToken) {
  const partial = params?.partialResultToken;
  const counted = typeof params?.progressToken === 'string' || typeof params?.progressToken === 'number' ? params.progressToken : undefined;
  // Read when its turn comes: the fleets as they are then.
  const precision = precisionOf(params);
  const task = () => {
    ctx.state.ensureAllOpen();
    const { battle, changed } = battleOf(ctx, params, params?.options ?? {});
    return { kind: 'battle', battle, ...(changed ? { changed } : {}), ...(precision !== undefined ? { precision } : {}), sliceOps: WORKER_SLICE_OPS } as const;
  };
  return withProgress(c, params?.workDoneToken, 'Simulating the fleet battle', (progress) => {
    const report = throttled();
    return simulations(ctx).run<BattleResult>(simulationKey('battle', params), task, token, (m) => {
      if (!('progress' in m)) return partial !== undefined ? void c.sendProgress(BattlePartialResult, partial, m.partial) : undefined;
      if (!report()) return;
      const { trials: done, requested: total } = m.progress;
      progress.report(Math.floor((100 * done) / Math.max(1, total)), `${done} of ${precision !== undefined ? 'at most ' : ''}${total} battles`);
      if (counted !== undefined) void c.sendProgress(BattleProgress, counted, { done, total });
    });
  });
}

/** The precision a battle request asks for (undefined: none), or the sentence of what is wrong with it, as `battle --precision` says it. */
function precisionOf(params: BattleParams | undefined): number | undefined {
  const { precision, error } = FabledService.battlePrecision(params?.precision, 'precision');
  if (error) throw failed(error);
  return precision;
}

/** A card priced by battle on the server's runner; the answer says where its points are, to set them. */
async function priceByBattle(c: Connection, ctx: Context, params: PriceByBattleParams | undefined, token: CancellationToken): Promise<PriceByBattleResult> {
  ctx.state.ensureAllOpen();
  const ref = selectCard(ctx, params?.card);
  const sel = params?.card;
  if (!ref) throw failed(`No card ${sel && 'name' in sel ? `"${sel.name}"` : 'at that position'}`);
  const partial = params?.partialResultToken;
  return withProgress(c, params?.workDoneToken, `Pricing ${ref.card.name.value ?? 'the card'} by battle`, async (progress) => {
    const r = await ctx.state.service
      .priceByBattle(ref.card, ctx.runner, token, (sofar) => {
        progress.report(sofar.price !== undefined ? `≈ ${Math.round(sofar.price)} pts so far` : `${sofar.battles} battles`);
        if (partial !== undefined) void c.sendProgress(PriceByBattlePartial, partial, sofar);
      })
      .catch((e: unknown) => {
        throw ctx.state.service.pricingCancelled(e) ? new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled') : e;
      });
    if (!r.result) throw failed(r.error ?? 'The card cannot be priced.');
    // The card's lens now shows the measured price (measuredBattlePrice): lenses are asked for again.
    if (ctx.state.client.lensRefresh) void c.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    return { ...r.result, ...pointsAt(ctx, ref) };
  });
}

/** Where a card's points are, for the client to set them to a price (nothing for a bundled example's). */
function pointsAt(ctx: Context, ref: CardRef): Pick<PriceByBattleResult, 'uri' | 'version' | 'pointsRange'> {
  const td = ctx.state.textDoc(ref.uri);
  const span = ref.card.points.span;
  if (!td || span.end <= span.start || FabledService.isExampleUri(ref.uri)) return {};
  return { uri: ref.uri, version: td.version, pointsRange: convert.range(td, span) };
}

/**
 * The battle of two fleet lists (a workspace file, an open document or a bundled example), checked
 * and ready to play, with a what-if's other version of the fleet (BattleParams.compareWith); a fleet
 * that is unknown or cannot fight fails with the sentence that says why (the service's).
 */
function battleOf(
  ctx: Context,
  params: { fleet?: BattleFleetSelector | undefined; vs?: BattleFleetSelector | undefined; compareWith?: BattleCompareWith | undefined } | undefined,
  options: unknown,
): ReturnType<FabledService['prepareBattle']> {
  const w = params?.compareWith;
  const other = compareSpec(params?.fleet?.uri, w);
  try {
    return ctx.state.service.prepareBattle({
      fleet: uriSpec(params?.fleet),
      vs: uriSpec(params?.vs),
      options,
      ...(other ? { compareWith: { spec: other, ...(w?.label !== undefined ? { label: w.label } : {}) } } : {}),
    });
  } catch (e) {
    if (FabledService.isRefused(e)) throw failed(e.message);
    throw e;
  }
}

/** A fleet named by URI (an empty one when the selector has none: the service says there is no such list). */
function uriSpec(sel: { uri?: unknown } | undefined): { uri: string } {
  return { uri: sel && typeof sel.uri === 'string' ? sel.uri : '' };
}

/** The what-if's other version: by its text (parsed on its own, never indexed, with the workspace's cards) or by URI. */
function compareSpec(fleetUri: string | undefined, w: BattleCompareWith | undefined) {
  if (typeof w?.text === 'string' && w.text.length > LIMITS.fileChars) throw failed('The version to compare with is too large.');
  return w && (typeof w.text === 'string' ? { uri: `${fleetUri ?? 'untitled:fleet'}#compare`, text: w.text } : uriSpec(w));
}

/** The live odds lens's runs (./liveOdds.ts), made on first use. */
function liveOdds(ctx: Context, c: Connection): LiveOdds {
  return (ctx.liveOdds ??= new LiveOdds(
    ctx.state,
    // Not the editor's requests' threads: a process of their own, at the lowest priority.
    () => (ctx.lensSimulations ??= new SimulationQueue(ctx.runner, 1, MAX_WAITING, 'background')),
    () => {
      if (ctx.state.client.lensRefresh) void c.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    },
    ctx.state.service.checks,
  ));
}

/** Bytes as base64 (btoa: in Node and in a browser, as the library hashing them is). */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * Where a pasted roster is read: a worker thread of its own (the simulations' bundle, one thread,
 * ended after a few idle seconds), so that a long paste never holds up this thread; cancelling the
 * request ends the reading. Without the worker bundle (the sources run without a build), here.
 */
function importRunner(ctx: Context, token: CancellationToken): ImportRunner {
  const file = workerFile();
  if (!file) return importHere;
  return (task) => {
    const abort = new AbortController();
    const listening = token.onCancellationRequested(() => abort.abort(new ResponseError(LSPErrorCodes.RequestCancelled, 'The import was cancelled')));
    return (ctx.importThread ??= new SimPool(1, file, { idleMs: 5_000 })).run<ImportResult>(task, abort.signal).finally(() => listening.dispose());
  };
}

/** The simulations' queue (./pool.ts), made on first use. */
function simulations(ctx: Context): SimulationQueue {
  return (ctx.simulations ??= new SimulationQueue(ctx.runner));
}

/** Which simulation a request asks for: its method and parameters without its progress tokens (two such requests are duplicates). */
export function simulationKey(method: string, params: unknown): string {
  const { workDoneToken: _w, partialResultToken: _p, ...rest } = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  return `${method} ${JSON.stringify(rest)}`;
}

/** True at most every 100 ms: progress reports are for a person, not one per slice. */
function throttled(ms = 100): () => boolean {
  let last = -Infinity;
  return () => {
    const now = performance.now();
    if (now - last < ms) return false;
    last = now;
    return true;
  };
}

export function registerHandlers(connection: Connection, ctx: Context): void {
  for (const h of HANDLERS) {
    h.register(connection, {
      guarded: (handle, fallback) => async (params, token) => {
        try {
          return await handle(ctx, params, token);
        } catch (e) {
          if (e instanceof ResponseError) throw e;
          ctx.state.logError(`${h.name} failed`, e);
          return fallback;
        }
      },
      direct: (handle) => async (params, token) => handle(ctx, params, token),
    });
  }
}
