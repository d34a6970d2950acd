/**
 * The language server's life cycle: initialize, the workspace folders and watched files, settings
 * changes, and the parts wired together (state, files, scheduler, diagnostics, the handler table).
 */
import { DidChangeWatchedFilesNotification, WatchKind, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import { FabledService } from '../core/service';
import { serverCapabilities } from './capabilities';
import { Diagnostics } from './diagnostics';
import { FILE_GLOB, FOLDER_GLOB, Files } from './files';
import { registerHandlers } from './handlers';
import { DiagnosticsScheduler, systemClock, type Clock } from './scheduler';
import { ServerState } from './state';
import { warmUp, warmUpSteps } from './warmup';
import { FieldPricing } from './fieldPricing';
import { serverRunner, threadsSetting } from '../node/runners';

export function startServer(connection: Connection, clock: Clock = systemClock): void {
  const state = new ServerState(connection);
  // The scheduler debounces the refreshes asked for by notes that follow their checks.
  const diagnostics = new Diagnostics(state, () => scheduler.requestRefresh());
  const refreshViews = () => {
    if (state.client.inlayRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
    if (state.client.lensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  };
  const scheduler = new DiagnosticsScheduler(
    {
      pull: () => state.client.pull,
      delayMs: (uri) => state.settingsFor(uri).then((s) => s.diagnostics.delayMs),
      publish: (uri) => diagnostics.publish(uri),
      written: () => diagnostics.written(),
      refreshDiagnostics: () => {
        if (state.client.pullRefresh) void connection.languages.diagnostics.refresh().catch(() => undefined);
      },
      refreshViews,
    },
    clock,
  );
  const files = new Files(state, scheduler, diagnostics);
  // Where every simulation runs: worker threads and a background process, never this thread.
  const runner = serverRunner();
  // The workspace's own reference field, priced by battle in the background (./fieldPricing).
  const pricing = new FieldPricing(
    state,
    runner,
    () => diagnostics.estimateNotesOn,
    () => {
      // The diagnoser's cache knows the prices' version: the cards' notes are checked again.
      files.revalidateAll();
      refreshViews();
    },
  );
  state.onModelsChange = (changes) => {
    if (!changes.length) return;
    const changed = new Set(changes.map((c) => c.uri));
    // Every change's card names and factions, for one walk of the fleets (a folder gone is thousands).
    const names = new Set<string>();
    const factions = new Set<string>();
    let cards = false;
    let collection = false;
    for (const { before, after, gone } of changes) {
      const kind = gone?.kind ?? (before ?? after)?.kind;
      if (kind === 'collection') collection = true;
      else if (kind && kind !== 'fleet') cards = true;
      if (gone)
        for (const [f, n] of gone.keys) {
          factions.add(f);
          names.add(n);
        }
      FabledService.namesAndFactions(before, names, factions);
      FabledService.namesAndFactions(after, names, factions);
    }
    if (cards) pricing.kick();
    const deps = new Set(state.service.dependentsOf(names, factions, changed));
    // The collection says what every fleet fields beyond it (and which of two collections is read);
    // a card renamed may make a collection's name known or unknown.
    if (collection || cards) for (const d of state.ws.collections()) if (!changed.has(d.uri)) deps.add(d.uri);
    if (collection) for (const d of state.ws.fleets()) if (!changed.has(d.uri)) deps.add(d.uri);
    // Open documents first: in a big workspace the closed files of a faction can number thousands.
    const open = [...deps].filter((d) => state.documents.get(d));
    // A new reference field for the points estimate moves every card's note, in every file: looked
    // at after the changed files' own checks are out (fitting a new field is the estimate's work).
    const fieldMoved = () => (cards && diagnostics.fieldMoved() ? [...state.ws.uris()].filter((u) => !changed.has(u) && state.ws.kindOf(u) !== 'fleet') : []);
    scheduler.changed(changes[0]!.uri, open.length ? new Set([...open, ...deps]) : deps, cards || collection, cards ? fieldMoved : undefined);
  };
  const readServerSettings = () =>
    void state.settingsFor(undefined).then((s) => {
      if (diagnostics.setEstimateNotes(s.pointsEstimate.enabled)) files.revalidateAll();
      // fabledStar.simulation.threads: the simulations started from now on run on that many threads.
      runner.setThreads(threadsSetting(s.simulation.threads));
    });

  connection.onInitialize((params): InitializeResult => {
    state.initialize(params);
    return { capabilities: serverCapabilities(state.client), serverInfo: { name: 'fabled-star-language-server', version: '0.1.0' } };
  });

  connection.onInitialized(() => {
    state.initialised = true;
    if (state.client.watchRegistration) {
      // Card files, and any path created or deleted: a folder moved, copied or deleted is one event
      // for the folder, sent only when a glob matches the folder's own path (../files watched()).
      const watchers = [{ globPattern: FILE_GLOB }, { globPattern: FOLDER_GLOB, kind: WatchKind.Create | WatchKind.Delete }];
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers }).catch(() => undefined);
    }
    if (state.client.workspaceFolders) connection.workspace.onDidChangeWorkspaceFolders((e) => files.foldersChanged(e));
    void files.scan(state.folders);
    readServerSettings();
    // While no document is open, compile and warm the check pipeline on the bundled examples (./warmup).
    void warmUp(() => state.documents.keys().length === 0, warmUpSteps(state.service.estimates));
  });

  connection.onDidChangeConfiguration((change) => {
    state.configurationChanged(change.settings);
    refreshViews();
    files.revalidateAll();
    readServerSettings();
  });

  connection.onDidChangeWatchedFiles((params) => files.watched(params));
  files.listen();
  registerHandlers(connection, { state, diagnostics, runner });
  state.documents.listen(connection);
  connection.listen();
}
