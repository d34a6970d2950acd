/**
 * The language server's life cycle: initialize, the workspace folders and watched files, settings
 * changes, and the parts wired together (state, files, scheduler, diagnostics, the handler table).
 */
import { DidChangeWatchedFilesNotification, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import { dependents } from '../core/features/workspaceQueries';
import { serverCapabilities } from './capabilities';
import { Diagnostics } from './diagnostics';
import { FILE_GLOB, Files } from './files';
import { registerHandlers } from './handlers';
import { DiagnosticsScheduler, systemClock, type Clock } from './scheduler';
import { ServerState } from './state';
import { warmUp } from './warmup';
import { FieldPricing } from './fieldPricing';

export function startServer(connection: Connection, clock: Clock = systemClock): void {
  const state = new ServerState(connection);
  const diagnostics = new Diagnostics(state);
  const refreshViews = () => {
    if (state.client.inlayRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
    if (state.client.lensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  };
  const scheduler = new DiagnosticsScheduler(
    {
      pull: () => state.client.pull,
      delayMs: (uri) => state.settingsFor(uri).then((s) => s.diagnostics.delayMs),
      publish: (uri) => diagnostics.publish(uri),
      refreshDiagnostics: () => {
        if (state.client.pullRefresh) void connection.languages.diagnostics.refresh().catch(() => undefined);
      },
      refreshViews,
    },
    clock,
  );
  const files = new Files(state, scheduler, diagnostics);
  // The workspace's own reference field, priced by battle in the background (./fieldPricing).
  const pricing = new FieldPricing(
    state,
    () => diagnostics.estimateNotesOn,
    () => {
      diagnostics.estimateChanged();
      files.revalidateAll();
      refreshViews();
    },
  );
  state.onModelChange = (uri, before, after) => {
    const doc = before ?? after;
    const cards = !!doc && doc.kind !== 'fleet';
    if (cards) pricing.kick();
    const deps = new Set(dependents(state.ws, uri, before, after));
    // A new reference field for the points estimate moves every card's note, in every file.
    if (cards && diagnostics.fieldMoved()) for (const u of state.ws.uris()) if (u !== uri && state.ws.kindOf(u) !== 'fleet') deps.add(u);
    // Open documents first: in a big workspace the closed files of a faction can number thousands.
    const open = [...deps].filter((d) => state.documents.get(d));
    scheduler.changed(uri, open.length ? new Set([...open, ...deps]) : deps, cards);
  };
  const readEstimateSetting = () =>
    void state.settingsFor(undefined).then((s) => {
      if (diagnostics.setEstimateNotes(s.pointsEstimate.enabled)) files.revalidateAll();
    });

  connection.onInitialize((params): InitializeResult => {
    state.initialize(params);
    return { capabilities: serverCapabilities(state.client), serverInfo: { name: 'fabled-star-language-server', version: '0.1.0' } };
  });

  connection.onInitialized(() => {
    state.initialised = true;
    if (state.client.watchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: FILE_GLOB }] }).catch(() => undefined);
    }
    if (state.client.workspaceFolders) connection.workspace.onDidChangeWorkspaceFolders((e) => files.foldersChanged(e));
    void files.scan(state.folders);
    readEstimateSetting();
    // While no document is open, compile and warm the check pipeline on the bundled examples (./warmup).
    void warmUp(() => state.documents.keys().length === 0);
  });

  connection.onDidChangeConfiguration((change) => {
    state.configurationChanged(change.settings);
    refreshViews();
    files.revalidateAll();
    readEstimateSetting();
  });

  connection.onDidChangeWatchedFiles((params) => files.watched(params));
  files.listen();
  registerHandlers(connection, { state, diagnostics });
  state.documents.listen(connection);
  connection.listen();
}
