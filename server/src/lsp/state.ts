/**
 * The server's state: the workspace index, the open documents and the workspace files' text, what
 * the client can do, and the settings. Brings the index up to date with an open document lazily,
 * once per version, when something needs it.
 */
import {
  MessageType,
  ShowMessageNotification,
  TextDocuments,
  type CancellationToken,
  type Connection,
  type InitializeParams,
  type WorkspaceFolder,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { createFabledService, FabledService, type FabledDocument } from '../core/service';
import { SETTINGS_SECTION, readSettings, resolveSettings, type Settings } from '../../../protocol';
import { clientFeatures, type ClientFeatures } from './capabilities';

/** Resources whose settings are kept: far more than the files open at once. */
export const SETTINGS_CACHE_MAX = 256;

/** A document's model before and after a change (undefined: not there). */
/** A document's kind (a card file, a Command Board, a fleet list, a collection). */
type DocKind = FabledDocument['kind'];

export interface ModelChange {
  uri: string;
  before: FabledDocument | undefined;
  after: FabledDocument | undefined;
  /**
   * A closed card file gone, told without its model (`before` undefined: a closed file would be
   * parsed again for it): its kind, and the (faction, name) keys its cards had in the index.
   */
  gone?: { kind: DocKind; keys: readonly (readonly [string, string])[] };
}

export class ServerState {
  /**
   * The core's service on the workspace: it owns the diagnostics' cache, the points estimate's fits
   * and prices, and resolves opponents and battles (an open document as the editor has it now). Its
   * workspace falls back on the bundled example cards for a faction it has no card of, and finds
   * the points estimate's field candidates as each closed file is read (not by parsing it again).
   */
  readonly service: FabledService = createFabledService({ examplesFallback: true, trackField: true, document: (uri) => this.ensure(uri) });
  /** The workspace's cards (the service's). */
  readonly ws = this.service.workspace;
  readonly documents = new TextDocuments(TextDocument);
  /** Workspace files that are not open: their text as TextDocuments (for offset <-> position). */
  readonly disk = new Map<string, TextDocument>();
  /** Files found in the workspace folders (open or not), so that closing one falls back to its file. */
  readonly onDisk = new Set<string>();
  folders: WorkspaceFolder[] = [];
  client: ClientFeatures = clientFeatures({});
  initialised = false;
  /**
   * Told when a document's model changes, with the model before and after (the wiring validates
   * the documents that depend on it).
   */
  onModelChange: (uri: string, before: FabledDocument | undefined, after: FabledDocument | undefined) => void = (uri, before, after) =>
    this.onModelsChange([{ uri, before, after }]);
  /** Told of many changes at once (a folder of files gone or come): their dependents are found once. */
  onModelsChange: (changes: readonly ModelChange[]) => void = () => undefined;

  private globalSettings: Settings = resolveSettings(undefined);
  /**
   * Settings per resource until the configuration changes, the resource closes or is deleted, or
   * `SETTINGS_CACHE_MAX` resources used them more recently (a long day opens thousands of files).
   */
  private readonly settingsCache = new Map<string, Promise<Settings>>();
  /**
   * Changes seen per open document, and the count the workspace holds. Counted, not read from the
   * version: a client that sends a change under a version it used before (or a lower one) still
   * changed the text, and the model must follow.
   */
  private readonly revision = new Map<string, number>();
  private readonly parsedRevision = new Map<string, number>();

  constructor(readonly connection: Connection) {
    // Registered before anyone else listens, so the count is up to date when they hear of a change.
    this.documents.onDidChangeContent((e) => this.revision.set(e.document.uri, (this.revision.get(e.document.uri) ?? 0) + 1));
  }

  /** Reads the client's capabilities, workspace folders and initial settings. */
  initialize(params: InitializeParams): void {
    this.client = clientFeatures(params.capabilities);
    this.folders =
      params.workspaceFolders ??
      (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : params.rootPath ? [{ uri: URI.file(params.rootPath).toString(), name: 'root' }] : []);
    const init = params.initializationOptions as { settings?: unknown } | undefined;
    if (init && typeof init === 'object' && SETTINGS_SECTION in (init as object))
      this.globalSettings = this.takeSettings((init as Record<string, unknown>)[SETTINGS_SECTION]);
    else if (init?.settings) this.globalSettings = this.takeSettings(init.settings);
  }

  /** Sentences already shown about settings that could not be taken as given (each once until the configuration changes). */
  private readonly settingWarnings = new Set<string>();

  /** Settings from what the client sent; a value of the wrong type or out of bounds is a warning naming it and the value used. */
  private takeSettings(raw: unknown): Settings {
    const { settings, problems } = readSettings(raw);
    for (const p of problems) {
      if (this.settingWarnings.has(p.message)) continue;
      this.settingWarnings.add(p.message);
      // A notification (window/showMessage), not the request showWarningMessage sends: nothing to answer.
      void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Fabled Star settings: ${p.message}` });
    }
    return settings;
  }

  /** Settings for a resource: read and defaulted in protocol/, cached until the configuration changes. */
  settingsFor(uri: string | undefined): Promise<Settings> {
    if (!this.client.configurationPull) return Promise.resolve(this.globalSettings);
    const key = uri ?? '';
    let p = this.settingsCache.get(key);
    if (p) {
      // Most recently used last: the first entry is the one to drop.
      this.settingsCache.delete(key);
      this.settingsCache.set(key, p);
      return p;
    }
    p = this.connection.workspace.getConfiguration(uri ? { scopeUri: uri, section: SETTINGS_SECTION } : { section: SETTINGS_SECTION }).then(
      (raw) => this.takeSettings(raw),
      () => this.globalSettings,
    );
    this.settingsCache.set(key, p);
    while (this.settingsCache.size > SETTINGS_CACHE_MAX) this.settingsCache.delete(this.settingsCache.keys().next().value!);
    return p;
  }

  /** Drops a resource's cached settings (it closed, or its file is gone). */
  forgetSettings(uri: string): void {
    if (uri) this.settingsCache.delete(uri);
  }

  /** How many resources' settings are cached (for tests and figures). */
  get settingsCached(): number {
    return this.settingsCache.size;
  }

  /** The configuration changed: forget cached settings; `pushed` is what the client sent, for clients that cannot be asked. */
  configurationChanged(pushed: unknown): void {
    this.settingsCache.clear();
    this.settingWarnings.clear();
    if (!this.client.configurationPull) {
      const s = (pushed as Record<string, unknown> | undefined)?.[SETTINGS_SECTION];
      this.globalSettings = this.takeSettings(s);
    }
  }

  /** A document's kind: from its file name, or (an untitled buffer) from the language the editor gave it. */
  kindOf(uri: string): DocKind | undefined {
    return FabledService.kindOfUri(uri) ?? FabledService.kindOfLanguage(this.documents.get(uri)?.languageId);
  }

  /** The open document, or else the workspace file's text. */
  textDoc(uri: string): TextDocument | undefined {
    return this.documents.get(uri) ?? this.disk.get(uri);
  }

  /** Brings the workspace up to date with an open document; returns its model. */
  ensure(uri: string): FabledDocument | undefined {
    const td = this.documents.get(uri);
    const revision = this.revision.get(uri) ?? 0;
    if (td && this.parsedRevision.get(uri) !== revision) {
      const before = this.ws.get(uri);
      this.parsedRevision.set(uri, revision);
      let after: FabledDocument | undefined;
      try {
        after = this.ws.set(uri, td.getText(), this.kindOf(uri));
      } catch (e) {
        // The core never throws by contract; if it does, keep serving the last good model.
        this.logError(`Reading ${uri} failed`, e);
        return before;
      }
      if (after !== before) this.onModelChange(uri, before, after);
      return after;
    }
    return this.ws.get(uri);
  }

  ensureAllOpen(): void {
    for (const td of this.documents.all()) if (this.kindOf(td.uri)) this.ensure(td.uri);
  }

  /** Whether the workspace has read this open document's text yet. */
  isParsed(uri: string): boolean {
    return this.parsedRevision.has(uri);
  }

  /** An open document was closed: the next time it opens it is read afresh. */
  closed(uri: string): void {
    this.parsedRevision.delete(uri);
    this.revision.delete(uri);
    this.forgetSettings(uri);
  }

  /** The open (or workspace) document and the parsed model, for a request. */
  request(uri: string, token?: CancellationToken): { td: TextDocument; doc: FabledDocument } | undefined {
    if (token?.isCancellationRequested) return undefined;
    const td = this.textDoc(uri);
    if (!td || !this.kindOf(uri)) return undefined;
    // Answers may depend on other open documents (cards a fleet names): bring them up to date too.
    this.ensureAllOpen();
    const doc = this.ensure(uri);
    return doc ? { td, doc } : undefined;
  }

  logError(what: string, e: unknown): void {
    this.connection.console.error(`${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}
