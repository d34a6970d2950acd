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
  type RosterEditResult,
  type RosterParams,
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
      c.onCompletion(
        b.guarded(({ state }, params: CompletionParams, token) => {
          const uri = params.textDocument.uri;
          const td = state.textDoc(uri);
          const stale = td && td.getText().length > STALE_MODEL_OK_CHARS ? state.ws.get(uri) : undefined;
          const r = stale && td && !token.isCancellationRequested ? { td, doc: stale } : state.request(uri, token);
          if (!r) return null;
          return convert.completionList(
            state.service.complete(r.doc, r.td.getText(), r.td.offsetAt(params.position)),
            r.td,
            state.client.snippets,
            state.client.markdownDocs,
            state.client.completionResolve ? docs : undefined,
          );
        }, null),
      );
    },
  },

  {
    name: 'codeAction',
    register: (c, b) =>
      c.onCodeAction(
        aboutDocument(b, ({ state, diagnostics }, r, params: CodeActionParams) => {
          const p = diagnostics.problemsOf(params.textDocument.uri);
          const codes = new Set(params.context.diagnostics.map((d) => String(d.code ?? '')));
          const problems = (p?.problems ?? []).filter((x) => codes.size === 0 || codes.has(x.code));
          const actions = state.service.codeActions(r.doc, convert.span(r.td, params.range), problems);
          // source.fixAll (on save, or "Fix All"): every problem of the file with one clear fix.
          const only = params.context.only;
          if (only?.some((o) => o === CodeActionKind.Source || o === CodeActionKind.SourceFixAll || o.startsWith(CodeActionKind.SourceFixAll + '.'))) {
            const all = state.service.fixAll(r.doc, p?.problems ?? []);
            if (all) actions.push(all);
          }
          return convert.codeActionList(
            actions,
            params.context.only,
            (u) => state.textDoc(u),
            (problem) => diagnostics.toDiagnostic(problem, r.td),
          );
        }),
      ),
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
          return inDocument(async (ctx, r, params: CodeLensParams) => {
            const { state } = ctx;
            const settings = await state.settingsFor(params.textDocument.uri);
            const lenses = state.service.codeLenses(r.doc, settings);
            // Live odds against the opponent the settings name, in a background process.
            const live = r.doc.kind === 'fleet' && settings.codeLens.enabled ? liveOdds(ctx, c).lens(r.doc, settings) : undefined;
            return (live ? [...lenses, live] : lenses).map((l) => convert.codeLens(l, r.td));
          })(ctx, params, token);
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

  customRequest(
    ListCardsRequest,
    (ctx, params: ListCardsParams | undefined) => {
      ctx.state.ensureAllOpen();
      const { state } = ctx;
      const refs = typeof params?.fleet === 'string' ? state.service.cardsUsedBy(state.ensure(params.fleet)) : state.service.listCards(params?.faction);
      if (params?.examples === true && typeof params.fleet !== 'string') {
        const wanted = params.faction?.trim().toLowerCase();
        refs.push(...state.service.exampleCards().filter((r) => wanted === undefined || r.faction.trim().toLowerCase() === wanted));
      }
      const out: CardInfo[] = [];
      for (const ref of refs) {
        const info = cardInfo(ctx, ref);
        if (info) out.push(info);
      }
      return out;
    },
    [] as CardInfo[],
  ),

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

  customRequest(
    RosterRequest,
    async (ctx, params: RosterParams | undefined, token): Promise<RosterData | null> => {
      // A big fleet's roster takes tens of milliseconds on this thread: the Fleet view asks for it
      // right behind each edit, so let the messages already read go first. The connection handles
      // one queued message a turn, scheduled after this handler's first turn: hence two turns. A
      // hover already queued is answered before the roster, and a roster the client cancelled
      // meanwhile (superseded by the next edit) is not computed at all.
      await nextTurn();
      await nextTurn();
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The roster was cancelled');
      const { state } = ctx;
      const doc = requestedFleet(state, params?.uri);
      if (!doc || !params) return null;
      const toRange = (uri: string, s: Span) => {
        const td = state.textDoc(uri);
        return td ? convert.range(td, s) : undefined;
      };
      return rosterData(state.service, doc, toRange, params, state.documents.get(doc.uri)?.version);
    },
    null,
  ),

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
        b.direct(async (ctx, params: SimulateParams | undefined, token) => {
          let cards: { att: CardRef; def: CardRef } | undefined;
          const progress = c.window.attachWorkDoneProgress(params?.workDoneToken);
          progress.begin('Simulating the engagement', 0, undefined, true);
          const report = throttled();
          try {
            const result = await simulations(ctx).run<SimulationResult>(
              simulationKey('simulate', params),
              () => {
                // Read when its turn comes: the cards as they are then.
                ctx.state.ensureAllOpen();
                const att = selectCard(ctx, params?.attacker);
                const def = selectCard(ctx, params?.defender);
                const describe = (s: CardSelector | undefined) => (s && 'name' in s ? `"${s.name}"` : 'at that position');
                if (!att) throw new ResponseError(LSPErrorCodes.RequestFailed, `No attacker card ${describe(params?.attacker)}`);
                if (!def) throw new ResponseError(LSPErrorCodes.RequestFailed, `No defender card ${describe(params?.defender)}`);
                const sims = ctx.state.service;
                const prepared = sims.prepareSimulation(att.card, def.card, params?.options ?? {}, { variants: params?.variants, compare: params?.compare });
                if ('refused' in prepared) throw new ResponseError(LSPErrorCodes.RequestFailed, sims.simulationRefusal(prepared.refused));
                cards = { att, def };
                return { kind: 'simulate', simulate: prepared.simulation, sliceOps: WORKER_SLICE_OPS };
              },
              token,
              (m) => {
                if ('progress' in m && report())
                  progress.report(
                    Math.floor((100 * m.progress.trials) / Math.max(1, m.progress.requested)),
                    `${m.progress.trials} of ${m.progress.requested} trials`,
                  );
              },
            );
            const { att, def } = cards!;
            return { ...result, pointsEstimate: { attacker: ctx.state.service.cardEstimate(att.card), defender: ctx.state.service.cardEstimate(def.card) } };
          } finally {
            progress.done();
          }
        }),
      ),
  },

  {
    // A card against the field ("vs the field" lens): every row on a worker thread, as `sim --vs-field`.
    name: 'vsField',
    register: (c, b) =>
      c.onRequest(
        VsFieldRequest.type,
        b.direct(async (ctx, params: VsFieldParams | undefined, token) => {
          const progress = c.window.attachWorkDoneProgress(params?.workDoneToken);
          progress.begin('Firing at every card of the field', 0, undefined, true);
          try {
            return await simulations(ctx).run<VsFieldResult>(
              simulationKey('vsField', params),
              () => {
                ctx.state.ensureAllOpen();
                const side = params?.side === 'defender' ? 'defender' : 'attacker';
                const ref = selectCard(ctx, params?.card);
                if (!ref) throw new ResponseError(LSPErrorCodes.RequestFailed, 'No such card: it may have been renamed or its file closed.');
                const prepared = ctx.state.service.prepareVsField(ref, side, params?.range);
                if ('refused' in prepared) throw new ResponseError(LSPErrorCodes.RequestFailed, prepared.refused.join(' '));
                return { kind: 'vsField', vsField: prepared.input, sliceOps: WORKER_SLICE_OPS };
              },
              token,
              () => undefined,
            );
          } finally {
            progress.done();
          }
        }),
      ),
  },

  {
    name: 'battle',
    register: (c, b) =>
      c.onRequest(
        BattleRequest.type,
        b.direct(async (ctx, params: BattleParams | undefined, token) => {
          const { state } = ctx;
          const progress = c.window.attachWorkDoneProgress(params?.workDoneToken);
          const partial = params?.partialResultToken;
          const counted = typeof params?.progressToken === 'string' || typeof params?.progressToken === 'number' ? params.progressToken : undefined;
          progress.begin('Simulating the fleet battle', 0, undefined, true);
          const report = throttled();
          try {
            return await simulations(ctx).run<BattleResult>(
              simulationKey('battle', params),
              () => {
                // Read when its turn comes: the fleets as they are then.
                state.ensureAllOpen();
                const { battle, changed } = battleOf(ctx, params, params?.options ?? {});
                return { kind: 'battle', battle, ...(changed ? { changed } : {}), sliceOps: WORKER_SLICE_OPS };
              },
              token,
              (m) => {
                if ('progress' in m) {
                  if (report()) {
                    const { trials: done, requested: total } = m.progress;
                    progress.report(Math.floor((100 * done) / Math.max(1, total)), `${done} of ${total} battles`);
                    if (counted !== undefined) void c.sendProgress(BattleProgress, counted, { done, total });
                  }
                } else if (partial !== undefined) void c.sendProgress(BattlePartialResult, partial, m.partial);
              },
            );
          } finally {
            progress.done();
          }
        }),
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
        b.direct(async (ctx, params: PriceByBattleParams | undefined, token): Promise<PriceByBattleResult> => {
          ctx.state.ensureAllOpen();
          const ref = selectCard(ctx, params?.card);
          const sel = params?.card;
          if (!ref) throw new ResponseError(LSPErrorCodes.RequestFailed, `No card ${sel && 'name' in sel ? `"${sel.name}"` : 'at that position'}`);
          const progress = c.window.attachWorkDoneProgress(params?.workDoneToken);
          const partial = params?.partialResultToken;
          progress.begin(`Pricing ${ref.card.name.value ?? 'the card'} by battle`, 0, undefined, true);
          try {
            const r = await ctx.state.service.priceByBattle(ref.card, ctx.runner, token, (sofar) => {
              progress.report(sofar.price !== undefined ? `≈ ${Math.round(sofar.price)} pts so far` : `${sofar.battles} battles`);
              if (partial !== undefined) void c.sendProgress(PriceByBattlePartial, partial, sofar);
            });
            if (!r.result) throw new ResponseError(LSPErrorCodes.RequestFailed, r.error ?? 'The card cannot be priced.');
            // The card's lens now shows the measured price (measuredBattlePrice): lenses are asked for again.
            if (ctx.state.client.lensRefresh) void c.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
            const out: PriceByBattleResult = { ...r.result };
            const td = ctx.state.textDoc(ref.uri);
            const span = ref.card.points.span;
            if (td && span.end > span.start && !FabledService.isExampleUri(ref.uri)) {
              out.uri = ref.uri;
              out.version = td.version;
              out.pointsRange = convert.range(td, span);
            }
            return out;
          } catch (e) {
            if (ctx.state.service.pricingCancelled(e)) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled');
            throw e;
          } finally {
            progress.done();
          }
        }),
      ),
  },

  customRequest(
    RuleTextRequest,
    (_ctx, params: RuleTextParams | undefined): RuleTextEntry[] => {
      const wanted =
        params?.section !== undefined
          ? String(params.section)
              .replace(/^\s*\u00a7\s*/, '')
              .trim()
          : undefined;
      const { sections, sectionMarkdown, glossary } = FabledService;
      const list = wanted !== undefined ? sections().filter((s) => String(s.number) === wanted) : sections();
      return list.map((s) => ({
        number: s.number,
        title: s.title,
        category: s.category,
        summary: s.summary,
        markdown: sectionMarkdown(s.number, { inPlay: true, example: true, designerNote: true, faq: true }) ?? '',
        terms: [...glossary()].filter(([, n]) => n === s.number).map(([t]) => t),
      }));
    },
    [] as RuleTextEntry[],
  ),
];

/** Work per slice on a worker thread, between two progress reports (about 20-30 ms). */
export const WORKER_SLICE_OPS = 1_000_000;

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
  const at = (sel: { uri?: unknown } | undefined) => ({ uri: sel && typeof sel.uri === 'string' ? sel.uri : '' });
  const w = params?.compareWith;
  if (typeof w?.text === 'string' && w.text.length > LIMITS.fileChars)
    throw new ResponseError(LSPErrorCodes.RequestFailed, 'The version to compare with is too large.');
  // The other version by its text (parsed on its own, never indexed, with the workspace's cards) or by URI.
  const other = w && (typeof w.text === 'string' ? { uri: `${params?.fleet?.uri ?? 'untitled:fleet'}#compare`, text: w.text } : at(w));
  try {
    return ctx.state.service.prepareBattle({
      fleet: at(params?.fleet),
      vs: at(params?.vs),
      options,
      ...(other ? { compareWith: { spec: other, ...(w?.label !== undefined ? { label: w.label } : {}) } } : {}),
    });
  } catch (e) {
    if (ctx.state.service.isRefused(e)) throw new ResponseError(LSPErrorCodes.RequestFailed, e.message);
    throw e;
  }
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
