/**
 * The server's state: the workspace index, the open documents and the workspace files' text, what
 * the client can do, and the settings. Brings the index up to date with an open document lazily,
 * once per version, when something needs it.
 */
import { TextDocuments, type CancellationToken, type Connection, type InitializeParams, type WorkspaceFolder } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { Workspace } from '../core/workspace';
import { kindOfUri } from '../core/model/parse';
import type { FabledDocument } from '../core/model/types';
import { SETTINGS_SECTION, resolveSettings, type Settings } from '../../../protocol';
import { clientFeatures, type ClientFeatures } from './capabilities';

export class ServerState {
  readonly ws = new Workspace();
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
  onModelChange: (uri: string, before: FabledDocument | undefined, after: FabledDocument | undefined) => void = () => undefined;

  private globalSettings: Settings = resolveSettings(undefined);
  /** Settings per resource until the configuration changes. */
  private readonly settingsCache = new Map<string, Promise<Settings>>();
  /** The version of each open document that the workspace holds. */
  private readonly parsedVersion = new Map<string, number>();

  constructor(readonly connection: Connection) {}

  /** Reads the client's capabilities, workspace folders and initial settings. */
  initialize(params: InitializeParams): void {
    this.client = clientFeatures(params.capabilities);
    this.folders =
      params.workspaceFolders ??
      (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : params.rootPath ? [{ uri: URI.file(params.rootPath).toString(), name: 'root' }] : []);
    const init = params.initializationOptions as { settings?: unknown } | undefined;
    if (init && typeof init === 'object' && SETTINGS_SECTION in (init as object))
      this.globalSettings = resolveSettings((init as Record<string, unknown>)[SETTINGS_SECTION]);
    else if (init?.settings) this.globalSettings = resolveSettings(init.settings);
  }

  /** Settings for a resource: read and defaulted in protocol/, cached until the configuration changes. */
  settingsFor(uri: string | undefined): Promise<Settings> {
    if (!this.client.configurationPull) return Promise.resolve(this.globalSettings);
    const key = uri ?? '';
    let p = this.settingsCache.get(key);
    if (!p) {
      p = this.connection.workspace
        .getConfiguration(uri ? { scopeUri: uri, section: SETTINGS_SECTION } : { section: SETTINGS_SECTION })
        .then(resolveSettings, () => this.globalSettings);
      this.settingsCache.set(key, p);
    }
    return p;
  }

  /** The configuration changed: forget cached settings; `pushed` is what the client sent, for clients that cannot be asked. */
  configurationChanged(pushed: unknown): void {
    this.settingsCache.clear();
    if (!this.client.configurationPull) {
      const s = (pushed as Record<string, unknown> | undefined)?.[SETTINGS_SECTION];
      this.globalSettings = resolveSettings(s);
    }
  }

  /** The open document, or else the workspace file's text. */
  textDoc(uri: string): TextDocument | undefined {
    return this.documents.get(uri) ?? this.disk.get(uri);
  }

  /** Brings the workspace up to date with an open document; returns its model. */
  ensure(uri: string): FabledDocument | undefined {
    const td = this.documents.get(uri);
    if (td && this.parsedVersion.get(uri) !== td.version) {
      const before = this.ws.get(uri);
      this.parsedVersion.set(uri, td.version);
      let after: FabledDocument | undefined;
      try {
        after = this.ws.set(uri, td.getText());
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
    for (const td of this.documents.all()) if (kindOfUri(td.uri)) this.ensure(td.uri);
  }

  /** Whether the workspace has read this open document's text yet. */
  isParsed(uri: string): boolean {
    return this.parsedVersion.has(uri);
  }

  /** An open document was closed: the next time it opens it is read afresh. */
  closed(uri: string): void {
    this.parsedVersion.delete(uri);
  }

  /** The open (or workspace) document and the parsed model, for a request. */
  request(uri: string, token?: CancellationToken): { td: TextDocument; doc: FabledDocument } | undefined {
    if (token?.isCancellationRequested) return undefined;
    const td = this.textDoc(uri);
    if (!td || !kindOfUri(uri)) return undefined;
    // Answers may depend on other open documents (cards a fleet names): bring them up to date too.
    this.ensureAllOpen();
    const doc = this.ensure(uri);
    return doc ? { td, doc } : undefined;
  }

  logError(what: string, e: unknown): void {
    this.connection.console.error(`${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}
