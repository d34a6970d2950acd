/**
 * Every request the server answers, registered from one table: its name (for the log), how it is
 * registered on the connection, what it does, and what it answers when it fails. A handler reads
 * the state, calls a pure feature of the core, and converts the answer with ./convert.
 */
import {
  CodeActionKind,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  SymbolKind,
  type CancellationToken,
  type CodeActionParams,
  type CodeLensParams,
  type CompletionParams,
  type Connection,
  type DefinitionParams,
  type DocumentSymbolParams,
  type HoverParams,
  type InlayHintParams,
  type PrepareRenameParams,
  type ReferenceParams,
  type RenameParams,
  type SymbolInformation,
  type WorkspaceSymbolParams,
} from 'vscode-languageserver/node';
import { hover } from '../core/features/hover';
import { markdownToPlain } from '../core/features/plaintext';
import { complete } from '../core/features/completion';
import { codeActions, fixAll } from '../core/features/codeActions';
import { documentSymbols, workspaceSymbols } from '../core/features/symbols';
import { definition, prepareRename, references, rename } from '../core/features/navigation';
import { inlayHints } from '../core/features/inlayHints';
import { codeLenses } from '../core/features/codeLens';
import { fleetSummary } from '../core/features/fleetSummary';
import { cardsUsedBy, findCard, listCards } from '../core/features/workspaceQueries';
import { runSimulation } from '../core/features/simulate';
import { cardEstimate } from '../core/features/pointsEstimate';
import { glossary, sectionMarkdown, sections } from '../core/rules/text';
import {
  FleetSummaryRequest,
  ListCardsRequest,
  RuleTextRequest,
  SimulateRequest,
  type CardInfo,
  type CardSelector,
  type FleetSummary,
  type FleetSummaryParams,
  type ListCardsParams,
  type RuleTextEntry,
  type RuleTextParams,
  type SimulateParams,
} from '../../../protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FabledDocument } from '../core/model/types';
import * as convert from './convert';
import { nextTurn, type Diagnostics } from './diagnostics';
import type { ServerState } from './state';

export interface Context {
  state: ServerState;
  diagnostics: Diagnostics;
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

function selectCard({ state }: Context, sel: CardSelector | undefined) {
  if (sel && 'uri' in sel && sel.position) {
    const td = state.textDoc(sel.uri);
    state.ensure(sel.uri);
    return td ? findCard(state.ws, { uri: sel.uri, offset: td.offsetAt(sel.position) }) : undefined;
  }
  if (sel && 'name' in sel && typeof sel.name === 'string')
    return findCard(state.ws, { name: sel.name, ...(typeof sel.faction === 'string' ? { faction: sel.faction } : {}) });
  return undefined;
}

export const HANDLERS: HandlerEntry[] = [
  {
    name: 'hover',
    register: (c, b) =>
      c.onHover(
        b.guarded(
          inDocument(async ({ state }, r, params: HoverParams) => {
            const settings = await state.settingsFor(params.textDocument.uri);
            const h = hover(r.doc, state.ws, r.td.offsetAt(params.position), settings);
            if (!h) return null;
            const contents = state.client.markdownHover
              ? { kind: 'markdown' as const, value: h.markdown }
              : { kind: 'plaintext' as const, value: markdownToPlain(h.markdown) };
            return { contents, range: convert.range(r.td, h.span) };
          }),
          null,
        ),
      ),
  },

  {
    name: 'completion',
    register: (c, b) =>
      c.onCompletion(
        b.guarded(({ state }, params: CompletionParams, token) => {
          const uri = params.textDocument.uri;
          const td = state.textDoc(uri);
          const stale = td && td.getText().length > STALE_MODEL_OK_CHARS ? state.ws.get(uri) : undefined;
          const r = stale && td && !token.isCancellationRequested ? { td, doc: stale } : state.request(uri, token);
          if (!r) return null;
          return convert.completionList(
            complete(r.doc, state.ws, r.td.getText(), r.td.offsetAt(params.position)),
            r.td,
            state.client.snippets,
            state.client.markdownDocs,
          );
        }, null),
      ),
  },

  {
    name: 'codeAction',
    register: (c, b) =>
      c.onCodeAction(
        b.guarded(
          inDocument(({ state, diagnostics }, r, params: CodeActionParams) => {
            const p = diagnostics.problemsOf(params.textDocument.uri);
            const codes = new Set(params.context.diagnostics.map((d) => String(d.code ?? '')));
            const problems = (p?.problems ?? []).filter((x) => codes.size === 0 || codes.has(x.code));
            const actions = codeActions(r.doc, convert.span(r.td, params.range), problems, state.ws);
            // source.fixAll (on save, or "Fix All"): every problem of the file with one clear fix.
            const only = params.context.only;
            if (only?.some((o) => o === CodeActionKind.Source || o === CodeActionKind.SourceFixAll || o.startsWith(CodeActionKind.SourceFixAll + '.'))) {
              const all = fixAll(r.doc, p?.problems ?? [], state.ws);
              if (all) actions.push(all);
            }
            return convert.codeActionList(
              actions,
              params.context.only,
              (u) => state.textDoc(u),
              (problem) => diagnostics.toDiagnostic(problem, r.td),
            );
          }),
          null,
        ),
      ),
  },

  {
    name: 'documentSymbol',
    register: (c, b) =>
      c.onDocumentSymbol(
        b.guarded(
          inDocument(({ state }, r, _params: DocumentSymbolParams) => {
            return convert.documentSymbolList(documentSymbols(r.doc, state.ws), r.td, state.client.hierarchicalSymbols);
          }),
          null,
        ),
      ),
  },

  {
    name: 'workspaceSymbol',
    register: (c, b) =>
      c.onWorkspaceSymbol(
        b.guarded(({ state }, params: WorkspaceSymbolParams) => {
          const out: SymbolInformation[] = [];
          for (const s of workspaceSymbols(state.ws, params.query)) {
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
        b.guarded(
          inDocument(({ state }, r, params: DefinitionParams) => {
            return convert.locations(definition(r.doc, state.ws, r.td.offsetAt(params.position)), (u) => state.textDoc(u));
          }),
          null,
        ),
      ),
  },

  {
    name: 'references',
    register: (c, b) =>
      c.onReferences(
        b.guarded(
          inDocument(({ state }, r, params: ReferenceParams) => {
            return convert.locations(references(r.doc, state.ws, r.td.offsetAt(params.position), params.context.includeDeclaration), (u) => state.textDoc(u));
          }),
          null,
        ),
      ),
  },

  {
    name: 'prepareRename',
    register: (c, b) =>
      c.onPrepareRename(
        b.guarded(
          inDocument(({ state }, r, params: PrepareRenameParams) => {
            const p = prepareRename(r.doc, state.ws, r.td.offsetAt(params.position));
            return p ? { range: convert.range(r.td, p.span), placeholder: p.placeholder } : null;
          }),
          null,
        ),
      ),
  },

  {
    name: 'rename',
    register: (c, b) =>
      c.onRenameRequest(
        b.guarded(
          inDocument(({ state }, r, params: RenameParams) => {
            // Every file the rename touches must be current in the workspace first.
            for (const td of state.documents.all()) state.ensure(td.uri);
            const res = rename(r.doc, state.ws, r.td.offsetAt(params.position), params.newName, (u) => state.textDoc(u)?.getText());
            if (res.error) throw new ResponseError(ErrorCodes.InvalidRequest, res.error);
            return { changes: convert.changes(res.edits, (u) => state.textDoc(u)) };
          }),
          null,
        ),
      ),
  },

  {
    name: 'inlayHint',
    register: (c, b) =>
      c.languages.inlayHint.on(
        b.guarded(
          inDocument(async ({ state }, r, params: InlayHintParams) => {
            const settings = await state.settingsFor(params.textDocument.uri);
            return inlayHints(r.doc, state.ws, convert.span(r.td, params.range), settings).map((h) => convert.inlayHint(h, r.td));
          }),
          null,
        ),
      ),
  },

  {
    name: 'codeLens',
    register: (c, b) =>
      c.onCodeLens(
        b.guarded(
          inDocument(async ({ state }, r, params: CodeLensParams) => {
            const settings = await state.settingsFor(params.textDocument.uri);
            return codeLenses(r.doc, state.ws, settings).map((l) => convert.codeLens(l, r.td));
          }),
          null,
        ),
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

  {
    name: 'listCards',
    register: (c, b) =>
      c.onRequest(
        ListCardsRequest.type,
        b.guarded(({ state }, params: ListCardsParams | undefined) => {
          state.ensureAllOpen();
          const out: CardInfo[] = [];
          const refs = typeof params?.fleet === 'string' ? cardsUsedBy(state.ws, state.ensure(params.fleet)) : listCards(state.ws, params?.faction);
          for (const ref of refs) {
            const td = state.textDoc(ref.uri);
            if (!td) continue;
            out.push({
              name: ref.card.name.value!,
              faction: ref.faction,
              class: ref.card.class.value ?? ref.card.class.raw,
              points: ref.card.points.value,
              uri: ref.uri,
              range: convert.range(td, ref.card.span),
              selectionRange: convert.range(td, ref.card.name.span),
            });
          }
          return out;
        }, [] as CardInfo[]),
      ),
  },

  {
    name: 'fleetSummary',
    register: (c, b) =>
      c.onRequest(
        FleetSummaryRequest.type,
        b.guarded(({ state }, params: FleetSummaryParams | undefined): FleetSummary | null => {
          state.ensureAllOpen();
          const doc = params?.uri ? state.ensure(params.uri) : undefined;
          if (!doc || doc.kind !== 'fleet') return null;
          return fleetSummary(doc, state.ws);
        }, null),
      ),
  },

  {
    name: 'simulate',
    register: (c, b) =>
      c.onRequest(
        SimulateRequest.type,
        b.direct(async (ctx, params: SimulateParams | undefined, token) => {
          ctx.state.ensureAllOpen();
          const att = selectCard(ctx, params?.attacker);
          const def = selectCard(ctx, params?.defender);
          const describe = (s: CardSelector | undefined) => (s && 'name' in s ? `"${s.name}"` : 'at that position');
          if (!att) throw new ResponseError(LSPErrorCodes.RequestFailed, `No attacker card ${describe(params?.attacker)}`);
          if (!def) throw new ResponseError(LSPErrorCodes.RequestFailed, `No defender card ${describe(params?.defender)}`);
          await nextTurn();
          if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled');
          const res = runSimulation(att.card, def.card, params?.options ?? {});
          if ('error' in res) throw new ResponseError(LSPErrorCodes.RequestFailed, res.error);
          return { ...res.result, pointsEstimate: { attacker: cardEstimate(att.card, ctx.state.ws), defender: cardEstimate(def.card, ctx.state.ws) } };
        }),
      ),
  },

  {
    name: 'ruleText',
    register: (c, b) =>
      c.onRequest(
        RuleTextRequest.type,
        b.guarded((_ctx, params: RuleTextParams | undefined): RuleTextEntry[] => {
          const wanted =
            params?.section !== undefined
              ? String(params.section)
                  .replace(/^\s*§\s*/, '')
                  .trim()
              : undefined;
          const list = wanted !== undefined ? sections().filter((s) => String(s.number) === wanted) : sections();
          return list.map((s) => ({
            number: s.number,
            title: s.title,
            category: s.category,
            summary: s.summary,
            markdown: sectionMarkdown(s.number, { inPlay: true, example: true, designerNote: true, faq: true }) ?? '',
            terms: [...glossary()].filter(([, n]) => n === s.number).map(([t]) => t),
          }));
        }, [] as RuleTextEntry[]),
      ),
  },
];

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
