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
  state.onModelChange = (uri, before, after) => {
    const doc = before ?? after;
    // Open documents first: in a big workspace the closed files of a faction can number thousands.
    const deps = dependents(state.ws, uri, before, after);
    const open = deps.filter((d) => state.documents.get(d));
    const ordered = open.length ? [...open, ...deps.filter((d) => !state.documents.get(d))] : deps;
    scheduler.changed(uri, ordered, !!doc && doc.kind !== 'fleet');
  };

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
  });

  connection.onDidChangeConfiguration((change) => {
    state.configurationChanged(change.settings);
    refreshViews();
    files.revalidateAll();
  });

  connection.onDidChangeWatchedFiles((params) => files.watched(params));
  files.listen();
  registerHandlers(connection, { state, diagnostics });
  state.documents.listen(connection);
  connection.listen();
}
