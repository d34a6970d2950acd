/**
 * The Fabled Star language server: LSP wiring only. Connection, document sync, workspace folders and
 * files, configuration, diagnostics scheduling, and the conversion between the core's offsets and
 * LSP positions. Every feature is a pure function in ./core/features.
 *
 * Run as `fabled-star-language-server --stdio` (also --node-ipc or --socket=N, which
 * vscode-languageserver reads from the command line).
 */
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticReportKind,
  FileChangeType,
  InsertTextFormat,
  LSPErrorCodes,
  ProposedFeatures,
  ResponseError,
  ErrorCodes,
  SymbolKind,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type CancellationToken,
  type ClientCapabilities,
  type CodeAction,
  type CompletionItem,
  type Connection,
  type Diagnostic,
  type DocumentSymbol,
  type InitializeParams,
  type InitializeResult,
  type Position,
  type Range,
  type SymbolInformation,
  type TextEdit,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
  type WorkspaceFolder,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import fg from 'fast-glob';
import { readFile, stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Workspace } from './core/workspace';
import { kindOfUri, LANGUAGE_IDS } from './core/model/parse';
import type { FabledDocument, Problem, Span } from './core/model/types';
import { checkDocument } from './core/check/index';
import { hover as hoverAt } from './core/features/hover';
import { complete, type CompletionKind } from './core/features/completion';
import { codeActions } from './core/features/codeActions';
import { documentSymbols, workspaceSymbols, type DocSymbol, type SymbolKindName } from './core/features/symbols';
import { definition, prepareRename, references, rename } from './core/features/navigation';
import { inlayHints } from './core/features/inlayHints';
import { codeLenses } from './core/features/codeLens';
import { fleetSummary } from './core/features/fleetSummary';
import { rosterData, rosterEditOffsets, toTextEdit } from './roster';
import { dependents, findCard, listCards } from './core/features/workspaceQueries';
import { runSimulation } from './core/features/simulate';
import { sectionMarkdown, sections } from './core/rules/text';
import {
  FleetSummaryChangedNotification,
  FleetSummaryRequest,
  RosterRequest,
  RosterEditRequest,
  type RosterData,
  ListCardsRequest,
  RuleTextRequest,
  SETTINGS_SECTION,
  SimulateRequest,
  resolveSettings,
  type CardInfo,
  type CardSelector,
  type FleetSummary,
  type RuleTextEntry,
  type Settings,
} from './protocol';

const FILE_GLOB = '**/*.{unit,faction,fleet}.{yaml,yml}';
const IGNORE = ['**/node_modules/**', '**/.git/**'];
/** Files larger than this are not read from the workspace (a card file is kilobytes; this is a stray dump). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

export function startServer(connection: Connection): void {
  const ws = new Workspace();
  const documents = new TextDocuments(TextDocument);
  /** Workspace files that are not open: their text as TextDocuments (for offset <-> position). */
  const disk = new Map<string, TextDocument>();
  /** Files found in the workspace folders (open or not), so that closing one falls back to its file. */
  const onDisk = new Set<string>();
  let folders: WorkspaceFolder[] = [];

  // ----------------------------------------------------------------------------------------
  // Capabilities

  let caps: ClientCapabilities = {};
  let pull = false;
  let pullRefresh = false;
  let relatedInfo = false;
  let configurationPull = false;
  let watchRegistration = false;
  let inlayRefresh = false;
  let lensRefresh = false;
  let snippets = false;
  let hierarchicalSymbols = false;
  let markdownHover = true;
  let globalSettings: Settings = resolveSettings(undefined);
  let initialised = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    caps = params.capabilities;
    pull = !!caps.textDocument?.diagnostic;
    pullRefresh = !!caps.workspace?.diagnostics?.refreshSupport;
    relatedInfo = !!caps.textDocument?.publishDiagnostics?.relatedInformation || pull;
    configurationPull = !!caps.workspace?.configuration;
    watchRegistration = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    inlayRefresh = !!caps.workspace?.inlayHint?.refreshSupport;
    lensRefresh = !!caps.workspace?.codeLens?.refreshSupport;
    snippets = !!caps.textDocument?.completion?.completionItem?.snippetSupport;
    hierarchicalSymbols = !!caps.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport;
    const hf = caps.textDocument?.hover?.contentFormat;
    markdownHover = !hf || hf.includes('markdown');
    folders =
      params.workspaceFolders ??
      (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : params.rootPath ? [{ uri: URI.file(params.rootPath).toString(), name: 'root' }] : []);
    const init = params.initializationOptions as { settings?: unknown } | undefined;
    if (init && typeof init === 'object' && SETTINGS_SECTION in (init as object))
      globalSettings = resolveSettings((init as Record<string, unknown>)[SETTINGS_SECTION]);
    else if (init?.settings) globalSettings = resolveSettings(init.settings);

    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: false },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [' ', ':', '-', '"'], resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite], resolveProvider: false },
        documentSymbolProvider: { label: 'Fabled Star' },
        workspaceSymbolProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        inlayHintProvider: { resolveProvider: false },
        codeLensProvider: { resolveProvider: false },
        ...(pull ? { diagnosticProvider: { identifier: 'fabled-star', interFileDependencies: true, workspaceDiagnostics: true } } : {}),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'fabled-star-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    initialised = true;
    if (watchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: FILE_GLOB }] }).catch(() => undefined);
    }
    if (caps.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        folders = [...folders.filter((f) => !e.removed.some((r) => r.uri === f.uri)), ...e.added];
        for (const r of e.removed) for (const uri of [...onDisk]) if (uri.startsWith(r.uri.endsWith('/') ? r.uri : r.uri + '/')) forgetFile(uri);
        void scan(e.added);
      });
    }
    void scan(folders);
  });

  // ----------------------------------------------------------------------------------------
  // Settings: read and defaulted in protocol.ts; cached per resource until the configuration changes.

  const settingsCache = new Map<string, Promise<Settings>>();

  function settingsFor(uri: string | undefined): Promise<Settings> {
    if (!configurationPull) return Promise.resolve(globalSettings);
    const key = uri ?? '';
    let p = settingsCache.get(key);
    if (!p) {
      p = connection.workspace
        .getConfiguration(uri ? { scopeUri: uri, section: SETTINGS_SECTION } : { section: SETTINGS_SECTION })
        .then(resolveSettings, () => globalSettings);
      settingsCache.set(key, p);
    }
    return p;
  }

  connection.onDidChangeConfiguration((change) => {
    settingsCache.clear();
    if (!configurationPull) {
      const s = (change.settings as Record<string, unknown> | undefined)?.[SETTINGS_SECTION];
      globalSettings = resolveSettings(s);
    }
    if (inlayRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
    if (lensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    revalidateAll();
  });

  // ----------------------------------------------------------------------------------------
  // Documents: the workspace index is updated lazily, once per version, when something needs it.

  /** The version of each open document that the workspace holds. */
  const parsedVersion = new Map<string, number>();

  function textDoc(uri: string): TextDocument | undefined {
    return documents.get(uri) ?? disk.get(uri);
  }

  /** Brings the workspace up to date with an open document; returns what changed (for dependents). */
  function ensure(uri: string): FabledDocument | undefined {
    const td = documents.get(uri);
    if (td && parsedVersion.get(uri) !== td.version) {
      const before = ws.get(uri);
      parsedVersion.set(uri, td.version);
      let after: FabledDocument | undefined;
      try {
        after = ws.set(uri, td.getText());
      } catch (e) {
        // The core never throws by contract; if it does, keep serving the last good model.
        logError(`Reading ${uri} failed`, e);
        return before;
      }
      if (after !== before) scheduleDependents(uri, before, after);
      return after;
    }
    return ws.get(uri);
  }

  function logError(what: string, e: unknown): void {
    connection.console.error(`${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }

  documents.onDidOpen((e) => {
    if (kindOfUri(e.document.uri)) disk.delete(e.document.uri);
  });

  // Fired for didOpen too: a document not yet parsed is validated at once.
  documents.onDidChangeContent((e) => {
    if (!kindOfUri(e.document.uri)) return;
    schedule(e.document.uri, parsedVersion.has(e.document.uri) ? 'typing' : 'now');
  });

  documents.onDidClose((e) => {
    const uri = e.document.uri;
    if (!kindOfUri(uri)) return;
    cancel(uri);
    parsedVersion.delete(uri);
    lastChange.delete(uri);
    if (onDisk.has(uri)) {
      // The buffer may have held unsaved text: the file on disk is the truth again. Until it is
      // read, the last text stays in service, so that the file never looks absent.
      const last = ws.get(uri);
      const kind = kindOfUri(uri);
      if (last && kind) disk.set(uri, TextDocument.create(uri, LANGUAGE_IDS[kind], 0, last.text));
      void loadFile(uri).then(() => schedule(uri, 'now'));
    } else {
      const before = ws.get(uri);
      ws.delete(uri);
      if (!pull) void connection.sendDiagnostics({ uri, diagnostics: [] });
      scheduleDependents(uri, before, undefined);
    }
  });

  // ----------------------------------------------------------------------------------------
  // Workspace files

  /** While the workspace folders are read, dependents are not tracked file by file: one re-validation follows. */
  let scanning = 0;

  async function loadFile(uri: string): Promise<void> {
    if (documents.get(uri)) return;
    let path: string;
    try {
      path = URI.parse(uri).fsPath;
      const st = await stat(path);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return;
      const text = await readFile(path, 'utf8');
      if (documents.get(uri)) return; // opened meanwhile: the editor's text wins
      const before = ws.get(uri);
      const kind = kindOfUri(uri);
      if (!kind) return;
      let after: FabledDocument | undefined;
      try {
        after = ws.set(uri, text);
      } catch (e) {
        logError(`Reading ${uri} failed`, e);
        return;
      }
      disk.set(uri, TextDocument.create(uri, LANGUAGE_IDS[kind], 0, text));
      onDisk.add(uri);
      if (after !== before && scanning === 0) scheduleDependents(uri, before, after);
    } catch {
      // Unreadable (deleted meanwhile, permissions): treat as absent.
      forgetFile(uri);
    }
  }

  function forgetFile(uri: string): void {
    onDisk.delete(uri);
    if (documents.get(uri)) return;
    const before = ws.get(uri);
    disk.delete(uri);
    if (before) {
      ws.delete(uri);
      if (!pull) void connection.sendDiagnostics({ uri, diagnostics: [] });
      scheduleDependents(uri, before, undefined);
    }
  }

  async function scan(list: WorkspaceFolder[]): Promise<void> {
    scanning++;
    try {
      await scanFolders(list);
    } finally {
      scanning--;
    }
    // Everything that refers across files may resolve differently now.
    revalidateAll();
  }

  async function scanFolders(list: WorkspaceFolder[]): Promise<void> {
    const max = (await settingsFor(undefined)).workspace.maxFiles;
    let loaded = 0;
    for (const folder of list) {
      let root: string;
      try {
        const u = URI.parse(folder.uri);
        if (u.scheme !== 'file') continue;
        root = u.fsPath;
      } catch {
        continue;
      }
      // Streamed, so that a folder far bigger than the cap (a home directory) stops being listed at the cap.
      const files: string[] = [];
      try {
        const stream = fg.stream([FILE_GLOB], { cwd: root, ignore: IGNORE, absolute: true, dot: false, followSymbolicLinks: false, suppressErrors: true });
        for await (const f of stream) {
          files.push(String(f));
          if (loaded + files.length > max) break;
        }
      } catch (e) {
        connection.console.warn(`Could not list ${root}: ${String(e)}`);
      }
      files.sort();
      for (const f of files) {
        if (loaded >= max) {
          connection.console.warn(`Read the first ${max} Fabled Star files of the workspace (fabledStar.workspace.maxFiles); the rest are not indexed.`);
          break;
        }
        await loadFile(URI.file(f).toString());
        loaded++;
      }
    }
  }

  connection.onDidChangeWatchedFiles((params) => {
    for (const ch of params.changes) {
      const uri = ch.uri;
      if (!kindOfUri(uri) || documents.get(uri)) continue;
      if (ch.type === FileChangeType.Deleted) forgetFile(uri);
      else void loadFile(uri).then(() => schedule(uri, 'dependent'));
    }
  });

  // ----------------------------------------------------------------------------------------
  // Diagnostics

  /** Problems per document, valid while the workspace version is unchanged. */
  const problemCache = new Map<string, { wsVersion: number; problems: Problem[] }>();

  function problemsOf(uri: string): { doc: FabledDocument; problems: Problem[] } | undefined {
    const doc = ensure(uri);
    if (!doc) return undefined;
    const c = problemCache.get(uri);
    if (c && c.wsVersion === ws.version) return { doc, problems: c.problems };
    let problems: Problem[];
    try {
      problems = checkDocument(doc, ws);
    } catch (e) {
      connection.console.error(`Validation of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      problems = doc.problems;
    }
    problemCache.set(uri, { wsVersion: ws.version, problems });
    if (problemCache.size > 5000) problemCache.delete(problemCache.keys().next().value!);
    return { doc, problems };
  }

  function toDiagnostic(p: Problem, td: TextDocument): Diagnostic {
    const d: Diagnostic = {
      range: range(td, p.span),
      severity: p.severity === 'error' ? DiagnosticSeverity.Error : p.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information,
      code: p.code,
      source: 'fabled-star',
      message: p.message,
    };
    if (p.data) d.data = p.data;
    if (relatedInfo && p.related?.length) {
      const rel = [];
      for (const r of p.related) {
        const other = textDoc(r.uri);
        if (other) rel.push({ location: { uri: r.uri, range: range(other, r.span) }, message: r.message });
      }
      if (rel.length) d.relatedInformation = rel;
    }
    return d;
  }

  function diagnosticsOf(uri: string): { diagnostics: Diagnostic[]; version: number | undefined } | undefined {
    const td = textDoc(uri);
    if (!td) return undefined;
    const r = problemsOf(uri);
    if (!r) return undefined;
    return { diagnostics: r.problems.map((p) => toDiagnostic(p, td)), version: documents.get(uri)?.version };
  }

  // Push mode: a leading-edge debounce per document. The first change after a pause is validated at
  // once (on the next turn of the event loop, so that changes already queued are applied first);
  // changes that follow within `delayMs` wait until typing pauses. A pending validation is dropped
  // when a newer change supersedes it, and nothing is published for a version that is no longer
  // the document's. Hand-written because the timing depends on LSP versions and on which documents
  // depend on which; a generic debounce (lodash) cannot cancel per document or check versions.
  const timers = new Map<string, { cancel: () => void }>();
  const lastChange = new Map<string, number>();
  /** Bumped to abandon a batch of dependent validations when newer work arrives. */
  let generation = 0;

  function cancel(uri: string): void {
    timers.get(uri)?.cancel();
    timers.delete(uri);
  }

  function schedule(uri: string, why: 'now' | 'typing' | 'dependent'): void {
    if (pull) {
      // The client pulls; fleets that depend on a changed card learn it through a refresh.
      if (why === 'dependent') requestRefresh();
      return;
    }
    void settingsFor(uri).then((s) => {
      const delay = s.diagnostics.delayMs;
      const now = performance.now();
      const prev = lastChange.get(uri);
      if (why === 'typing') lastChange.set(uri, now);
      const pending = timers.has(uri);
      cancel(uri);
      const immediate = why === 'now' || (why === 'typing' && !pending && (prev === undefined || now - prev >= delay));
      if (immediate) {
        const h = setImmediate(() => {
          timers.delete(uri);
          publish(uri);
        });
        timers.set(uri, { cancel: () => clearImmediate(h) });
      } else {
        const h = setTimeout(() => {
          timers.delete(uri);
          publish(uri);
        }, delay);
        timers.set(uri, { cancel: () => clearTimeout(h) });
      }
    });
  }

  function publish(uri: string): void {
    try {
      publishUnguarded(uri);
    } catch (e) {
      logError(`Diagnostics for ${uri} failed`, e);
    }
  }

  function publishUnguarded(uri: string): void {
    const version = documents.get(uri)?.version;
    const r = diagnosticsOf(uri);
    if (!r) return;
    // Never publish for a version that is no longer the document's.
    if (documents.get(uri)?.version !== version) return;
    void connection.sendDiagnostics({ uri, version: r.version, diagnostics: r.diagnostics });
    if (ws.get(uri)?.kind === 'fleet') void connection.sendNotification(FleetSummaryChangedNotification.type, { uri });
  }

  const pendingDependents = new Set<string>();
  let dependentsTimer: NodeJS.Timeout | undefined;

  /**
   * Inlay hints and code lenses of other documents depend on cards too (a fleet's points, the
   * odds against the reference target): after a card changes, ask the client to fetch them again.
   */
  let viewsTimer: NodeJS.Timeout | undefined;
  function refreshViews(): void {
    if (!inlayRefresh && !lensRefresh) return;
    if (viewsTimer) clearTimeout(viewsTimer);
    viewsTimer = setTimeout(() => {
      if (inlayRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
      if (lensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    }, 200);
  }

  function scheduleDependents(uri: string, before: FabledDocument | undefined, after: FabledDocument | undefined): void {
    if ((before ?? after) && (before ?? after)!.kind !== 'fleet') refreshViews();
    for (const d of dependents(ws, uri, before, after)) pendingDependents.add(d);
    if (pendingDependents.size === 0) return;
    if (pull) {
      pendingDependents.clear();
      requestRefresh();
      return;
    }
    generation++;
    if (dependentsTimer) clearTimeout(dependentsTimer);
    void settingsFor(uri).then((s) => {
      if (dependentsTimer) clearTimeout(dependentsTimer);
      dependentsTimer = setTimeout(() => void runDependents(), s.diagnostics.delayMs);
    });
  }

  /** Validates the affected documents one per event-loop turn, abandoning the batch if newer work arrives. */
  async function runDependents(): Promise<void> {
    const gen = generation;
    const list = [...pendingDependents];
    pendingDependents.clear();
    for (const uri of list) {
      if (gen !== generation) {
        for (const u of list) pendingDependents.add(u);
        return;
      }
      if (!timers.has(uri)) publish(uri);
      await new Promise((r) => setImmediate(r));
    }
  }

  function revalidateAll(): void {
    if (!initialised) return;
    if (pull) {
      requestRefresh();
      return;
    }
    for (const uri of ws.uris()) pendingDependents.add(uri);
    generation++;
    if (dependentsTimer) clearTimeout(dependentsTimer);
    dependentsTimer = setTimeout(() => void runDependents(), 0);
  }

  let refreshTimer: NodeJS.Timeout | undefined;
  function requestRefresh(): void {
    if (!pullRefresh) return;
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void connection.languages.diagnostics.refresh().catch(() => undefined), 50);
  }

  function cancelled(): ResponseError<{ retriggerRequest: boolean }> {
    return new ResponseError(LSPErrorCodes.ServerCancelled, 'Superseded by a newer change', { retriggerRequest: true });
  }

  connection.languages.diagnostics.on(async (params, token) => {
    const uri = params.textDocument.uri;
    // Let queued changes (and cancellations) arrive before the work starts.
    await new Promise((r) => setImmediate(r));
    if (token.isCancellationRequested) throw cancelled();
    const td = textDoc(uri);
    if (!td || !kindOfUri(uri)) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    ensureAllOpen();
    ensure(uri);
    const resultId = `${ws.version}`;
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    const r = diagnosticsOf(uri);
    if (token.isCancellationRequested) throw cancelled();
    if (ws.get(uri)?.kind === 'fleet') void connection.sendNotification(FleetSummaryChangedNotification.type, { uri });
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: r?.diagnostics ?? [] };
  });

  connection.languages.diagnostics.onWorkspace(async (params, token): Promise<WorkspaceDiagnosticReport> => {
    await new Promise((r) => setImmediate(r));
    const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const resultId = `${ws.version}`;
    for (const uri of ws.uris()) {
      if (token.isCancellationRequested) throw cancelled();
      if (documents.get(uri)) continue; // open documents are pulled one by one
      if (previous.get(uri) === resultId) {
        items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, version: null, resultId });
        continue;
      }
      const r = diagnosticsOf(uri);
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId, items: r?.diagnostics ?? [] });
    }
    return { items };
  });

  // ----------------------------------------------------------------------------------------
  // Conversions

  function range(td: TextDocument, span: Span): Range {
    return { start: td.positionAt(span.start), end: td.positionAt(span.end) };
  }

  function span(td: TextDocument, r: Range): Span {
    return { start: td.offsetAt(r.start), end: td.offsetAt(r.end) };
  }

  /** The open (or workspace) document and the parsed model, for a request. */
  function request(uri: string, token?: CancellationToken): { td: TextDocument; doc: FabledDocument } | undefined {
    if (token?.isCancellationRequested) return undefined;
    const td = textDoc(uri);
    if (!td || !kindOfUri(uri)) return undefined;
    // Answers may depend on other open documents (cards a fleet names): bring them up to date too.
    ensureAllOpen();
    const doc = ensure(uri);
    return doc ? { td, doc } : undefined;
  }

  function guard<P, R>(name: string, f: (p: P, token: CancellationToken) => R | Promise<R>, fallback: R): (p: P, token: CancellationToken) => Promise<R> {
    return async (p, token) => {
      try {
        return await f(p, token);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        connection.console.error(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return fallback;
      }
    };
  }

  // ----------------------------------------------------------------------------------------
  // Features

  connection.onHover(
    guard(
      'hover',
      async (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        const settings = await settingsFor(params.textDocument.uri);
        const h = hoverAt(r.doc, ws, r.td.offsetAt(params.position), settings);
        if (!h) return null;
        return { contents: { kind: markdownHover ? 'markdown' : 'plaintext', value: h.markdown }, range: range(r.td, h.span) };
      },
      null,
    ),
  );

  const COMPLETION_KINDS: Record<CompletionKind, CompletionItemKind> = {
    key: CompletionItemKind.Property,
    value: CompletionItemKind.Value,
    enum: CompletionItemKind.EnumMember,
    card: CompletionItemKind.Class,
    snippet: CompletionItemKind.Snippet,
    order: CompletionItemKind.Event,
    ability: CompletionItemKind.Function,
    faction: CompletionItemKind.Module,
  };

  /** Snippet text as plain text, for clients without snippet support. */
  function plain(snippet: string): string {
    return snippet
      .replace(/\$\{\d+\|([^,|]*)[^}]*\|\}/g, '$1')
      .replace(/\$\{\d+:([^}]*)\}/g, '$1')
      .replace(/\$\{\d+\}|\$\d+/g, '');
  }

  /**
   * Completion reads the text around the cursor and uses the model only to look up the card, the
   * fleet's faction and such: in a large file it may use the previous version's model rather than
   * re-parse the whole file between two keystrokes.
   */
  const STALE_MODEL_OK_CHARS = 100_000;

  connection.onCompletion(
    guard(
      'completion',
      (params, token) => {
        const uri = params.textDocument.uri;
        const td = textDoc(uri);
        const stale = td && td.getText().length > STALE_MODEL_OK_CHARS ? ws.get(uri) : undefined;
        const r = stale && td && !token.isCancellationRequested ? { td, doc: stale } : request(uri, token);
        if (!r) return null;
        const list = complete(r.doc, ws, r.td.getText(), r.td.offsetAt(params.position));
        // Most items share one replace range: convert each distinct span once.
        const ranges = new Map<string, Range>();
        const rangeOf = (s: Span): Range => {
          const k = `${s.start}:${s.end}`;
          let v = ranges.get(k);
          if (!v) ranges.set(k, (v = range(r.td, s)));
          return v;
        };
        const items: CompletionItem[] = list.items.map((c) => {
          const snippet = !!c.snippet && snippets;
          const item: CompletionItem = {
            label: c.label,
            kind: COMPLETION_KINDS[c.kind],
            textEdit: { range: rangeOf(c.span), newText: c.snippet && !snippets ? plain(c.insertText) : c.insertText },
            insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
          };
          if (c.detail) item.detail = c.detail;
          if (c.documentation) item.documentation = { kind: 'markdown', value: c.documentation };
          if (c.sortText) item.sortText = c.sortText;
          if (c.filterText) item.filterText = c.filterText;
          return item;
        });
        return { isIncomplete: list.isIncomplete, items };
      },
      null,
    ),
  );

  connection.onCodeAction(
    guard(
      'codeAction',
      (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        const p = problemsOf(params.textDocument.uri);
        const codes = new Set(params.context.diagnostics.map((d) => String(d.code ?? '')));
        const problems = (p?.problems ?? []).filter((x) => codes.size === 0 || codes.has(x.code));
        const only = params.context.only;
        const actions = codeActions(r.doc, span(r.td, params.range), problems);
        const out: CodeAction[] = [];
        for (const a of actions) {
          const kind = a.kind === 'quickfix' ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite;
          if (only && !only.some((o) => kind === o || kind.startsWith(o + '.'))) continue;
          const changes: Record<string, { range: Range; newText: string }[]> = {};
          for (const e of a.edits) {
            const td = textDoc(e.uri);
            if (!td) continue;
            (changes[e.uri] ??= []).push({ range: range(td, e.span), newText: e.newText });
          }
          const action: CodeAction = { title: a.title, kind, edit: { changes } };
          if (a.problem) action.diagnostics = [toDiagnostic(a.problem, r.td)];
          if (a.isPreferred) action.isPreferred = true;
          out.push(action);
        }
        return out;
      },
      null,
    ),
  );

  const SYMBOL_KINDS: Record<SymbolKindName, SymbolKind> = {
    card: SymbolKind.Class,
    weapon: SymbolKind.Method,
    order: SymbolKind.Event,
    ability: SymbolKind.Property,
    stats: SymbolKind.Struct,
    fleet: SymbolKind.Module,
    entry: SymbolKind.Object,
    embarked: SymbolKind.Field,
    faction: SymbolKind.Namespace,
    commandAbility: SymbolKind.Function,
    factionAbility: SymbolKind.Interface,
  };

  connection.onDocumentSymbol(
    guard(
      'documentSymbol',
      (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        const syms = documentSymbols(r.doc, ws);
        if (hierarchicalSymbols) {
          const conv = (s: DocSymbol): DocumentSymbol => ({
            name: s.name,
            kind: SYMBOL_KINDS[s.kind],
            range: range(r.td, s.span),
            selectionRange: range(r.td, s.selectionSpan),
            ...(s.detail ? { detail: s.detail } : {}),
            children: s.children.map(conv),
          });
          return syms.map(conv);
        }
        const flat: SymbolInformation[] = [];
        const walk = (s: DocSymbol, container?: string) => {
          flat.push({
            name: s.name,
            kind: SYMBOL_KINDS[s.kind],
            location: { uri: params.textDocument.uri, range: range(r.td, s.span) },
            ...(container ? { containerName: container } : {}),
          });
          for (const c of s.children) walk(c, s.name);
        };
        syms.forEach((s) => walk(s));
        return flat;
      },
      null,
    ),
  );

  connection.onWorkspaceSymbol(
    guard(
      'workspaceSymbol',
      (params) => {
        const out: SymbolInformation[] = [];
        for (const s of workspaceSymbols(ws, params.query)) {
          const td = textDoc(s.uri);
          if (td) out.push({ name: s.name, kind: SymbolKind.Class, containerName: s.container, location: { uri: s.uri, range: range(td, s.span) } });
        }
        return out;
      },
      null,
    ),
  );

  function locations(list: { uri: string; span: Span }[]) {
    const out = [];
    for (const l of list) {
      const td = textDoc(l.uri);
      if (td) out.push({ uri: l.uri, range: range(td, l.span) });
    }
    return out;
  }

  connection.onDefinition(
    guard(
      'definition',
      (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        return locations(definition(r.doc, ws, r.td.offsetAt(params.position)));
      },
      null,
    ),
  );

  connection.onReferences(
    guard(
      'references',
      (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        return locations(references(r.doc, ws, r.td.offsetAt(params.position), params.context.includeDeclaration));
      },
      null,
    ),
  );

  connection.onPrepareRename(
    guard(
      'prepareRename',
      (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        const p = prepareRename(r.doc, ws, r.td.offsetAt(params.position));
        return p ? { range: range(r.td, p.span), placeholder: p.placeholder } : null;
      },
      null,
    ),
  );

  connection.onRenameRequest(
    guard(
      'rename',
      (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        // Every file the rename touches must be current in the workspace first.
        for (const td of documents.all()) ensure(td.uri);
        const res = rename(r.doc, ws, r.td.offsetAt(params.position), params.newName, (u) => textDoc(u)?.getText());
        if (res.error) throw new ResponseError(ErrorCodes.InvalidRequest, res.error);
        const changes: Record<string, { range: Range; newText: string }[]> = {};
        for (const e of res.edits) {
          const td = textDoc(e.uri);
          if (td) (changes[e.uri] ??= []).push({ range: range(td, e.span), newText: e.newText });
        }
        return { changes };
      },
      null,
    ),
  );

  connection.languages.inlayHint.on(
    guard(
      'inlayHint',
      async (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        const settings = await settingsFor(params.textDocument.uri);
        return inlayHints(r.doc, ws, span(r.td, params.range), settings).map((h) => ({
          position: r.td.positionAt(h.offset),
          label: h.label,
          paddingLeft: true,
          ...(h.tooltip ? { tooltip: { kind: 'markdown' as const, value: h.tooltip } } : {}),
        }));
      },
      null,
    ),
  );

  connection.onCodeLens(
    guard(
      'codeLens',
      async (params, token) => {
        const r = request(params.textDocument.uri, token);
        if (!r) return null;
        const settings = await settingsFor(params.textDocument.uri);
        return codeLenses(r.doc, ws, settings).map((l) => ({
          range: range(r.td, l.span),
          command: { title: l.title, command: l.command ?? '', ...(l.args ? { arguments: l.args } : {}) },
        }));
      },
      null,
    ),
  );

  // ----------------------------------------------------------------------------------------
  // Custom requests (protocol.ts)

  function ensureAllOpen(): void {
    for (const td of documents.all()) if (kindOfUri(td.uri)) ensure(td.uri);
  }

  connection.onRequest(
    ListCardsRequest.type,
    guard(
      'listCards',
      (params) => {
        ensureAllOpen();
        const out: CardInfo[] = [];
        for (const ref of listCards(ws, params?.faction)) {
          const td = textDoc(ref.uri);
          if (!td) continue;
          out.push({
            name: ref.card.name.value!,
            faction: ref.faction,
            class: ref.card.class.value ?? ref.card.class.raw,
            points: ref.card.points.value,
            uri: ref.uri,
            range: range(td, ref.card.span),
            selectionRange: range(td, ref.card.name.span),
          });
        }
        return out;
      },
      [],
    ),
  );

  connection.onRequest(
    FleetSummaryRequest.type,
    guard(
      'fleetSummary',
      (params): FleetSummary | null => {
        ensureAllOpen();
        const doc = params?.uri ? ensure(params.uri) : undefined;
        if (!doc || doc.kind !== 'fleet') return null;
        const s = fleetSummary(doc, ws);
        return {
          uri: doc.uri,
          name: s.name,
          faction: s.faction,
          total: s.total,
          limit: s.limit,
          over: s.over,
          remaining: s.remaining,
          unknownUnits: s.unknownUnits,
          entries: s.entries,
        };
      },
      null,
    ),
  );

  connection.onRequest(
    RosterRequest.type,
    guard(
      'roster',
      (params): RosterData | null => {
        ensureAllOpen();
        const doc = params?.uri ? ensure(params.uri) : undefined;
        if (!doc || doc.kind !== 'fleet') return null;
        return rosterData(
          doc,
          ws,
          (uri, s) => {
            const td = textDoc(uri);
            return td ? range(td, s) : undefined;
          },
          params,
        );
      },
      null,
    ),
  );

  connection.onRequest(
    RosterEditRequest.type,
    guard(
      'rosterEdit',
      (params): TextEdit | null => {
        ensureAllOpen();
        const doc = params?.uri ? ensure(params.uri) : undefined;
        const td = params?.uri ? textDoc(params.uri) : undefined;
        if (!doc || doc.kind !== 'fleet' || !td) return null;
        // An edit computed on text the client no longer has would land in the wrong place.
        if (typeof params.version === 'number' && documents.get(params.uri) && td.version !== params.version) return null;
        const e = rosterEditOffsets(doc, params);
        return e ? toTextEdit(e, (s) => range(td, s)) : null;
      },
      null,
    ),
  );

  function selectCard(sel: CardSelector) {
    if (sel && 'uri' in sel && sel.position) {
      const td = textDoc(sel.uri);
      ensure(sel.uri);
      return td ? findCard(ws, { uri: sel.uri, offset: td.offsetAt(sel.position as Position) }) : undefined;
    }
    if (sel && 'name' in sel && typeof sel.name === 'string')
      return findCard(ws, { name: sel.name, ...(typeof sel.faction === 'string' ? { faction: sel.faction } : {}) });
    return undefined;
  }

  connection.onRequest(SimulateRequest.type, async (params, token) => {
    ensureAllOpen();
    const att = selectCard(params?.attacker);
    const def = selectCard(params?.defender);
    const describe = (s: CardSelector | undefined) => (s && 'name' in s ? `"${s.name}"` : 'at that position');
    if (!att) throw new ResponseError(LSPErrorCodes.RequestFailed, `No attacker card ${describe(params?.attacker)}`);
    if (!def) throw new ResponseError(LSPErrorCodes.RequestFailed, `No defender card ${describe(params?.defender)}`);
    await new Promise((r) => setImmediate(r));
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled');
    const res = runSimulation(att.card, def.card, params.options ?? {});
    if ('error' in res) throw new ResponseError(LSPErrorCodes.RequestFailed, res.error);
    return res.result;
  });

  connection.onRequest(
    RuleTextRequest.type,
    guard(
      'ruleText',
      (params): RuleTextEntry[] => {
        const list =
          params?.section !== undefined
            ? sections().filter(
                (s) =>
                  String(s.number) ===
                  String(params.section)
                    .replace(/^\s*§\s*/, '')
                    .trim(),
              )
            : sections();
        return list.map((s) => ({
          number: s.number,
          title: s.title,
          category: s.category,
          summary: s.summary,
          markdown: sectionMarkdown(s.number, { inPlay: true, example: true, designerNote: true, faq: true }) ?? '',
        }));
      },
      [],
    ),
  );

  documents.listen(connection);
  connection.listen();
}

// Started as a program (the bin, or `node dist/server.js --stdio`).
const connection = createConnection(ProposedFeatures.all);
// A bug in one request must not end the session the user lives in: log it and keep serving.
process.on('uncaughtException', (e) => connection.console.error(`Unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
process.on('unhandledRejection', (e) => connection.console.error(`Unexpected rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
startServer(connection);
