/**
 * The workspace's files in the browser version, in place of ../lsp/files.ts (the web build swaps
 * one for the other: esbuild.mjs `webSwaps`): a web worker reads no disk, so the client walks the
 * workspace through the editor's file system and sends each card, faction and fleet file's text,
 * and its changes (protocol/web.ts). The same exports as ../lsp/files.ts, which ../lsp/index.ts
 * wires; the open documents are followed as there.
 */
import { type DidChangeWatchedFilesParams, type WorkspaceFolder, type WorkspaceFoldersChangeEvent } from 'vscode-languageserver/browser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { FabledService, type FabledDocument } from '../core/service';
import { MAX_WORKSPACE_FILE_CHARS, WorkspaceFilesNotification, type WorkspaceFilesParams } from '../../../protocol/web';
import type { DiagnosticsScheduler } from '../lsp/scheduler';
import type { Diagnostics } from '../lsp/diagnostics';
import type { ModelChange, ServerState } from '../lsp/state';

export const FILE_GLOB = '**/*.{unit,faction,fleet,collection}.{yaml,yml}';
export const FOLDER_GLOB = '**/*';

export class Files {
  constructor(
    private readonly state: ServerState,
    private readonly scheduler: DiagnosticsScheduler,
    private readonly diagnostics: Diagnostics,
  ) {}

  /** Listens to the open documents' events and to the client's workspace files. */
  listen(): void {
    const { documents, connection } = this.state;
    documents.onDidOpen((e) => {
      if (this.state.kindOf(e.document.uri)) this.state.disk.delete(e.document.uri);
    });
    documents.onDidChangeContent((e) => {
      if (!this.state.kindOf(e.document.uri)) return;
      this.scheduler.schedule(e.document.uri, this.state.isParsed(e.document.uri) ? 'typing' : 'now');
    });
    documents.onDidClose((e) => this.closed(e.document.uri));
    connection.onNotification(WorkspaceFilesNotification.type, (p) => this.received(p));
  }

  /** The client's files: each read into the index, and their dependents checked again once. */
  received(p: WorkspaceFilesParams | undefined): void {
    const changes: ModelChange[] = [];
    for (const uri of Array.isArray(p?.deleted) ? p.deleted : []) if (typeof uri === 'string') this.forgetUnder(uri, changes);
    for (const f of Array.isArray(p?.changed) ? p.changed : []) {
      if (!f || typeof f.uri !== 'string' || typeof f.text !== 'string') continue;
      if (f.text.length > MAX_WORKSPACE_FILE_CHARS) {
        this.state.connection.console.warn(`Not reading ${f.uri}: larger than ${MAX_WORKSPACE_FILE_CHARS} characters.`);
        continue;
      }
      this.put(f.uri, f.text, changes);
    }
    this.state.onModelsChange(changes);
    for (const c of changes) if (c.after && !this.state.documents.get(c.uri)) this.scheduler.schedule(c.uri, 'dependent');
  }

  /** A file's text from the client (unless it is open: the editor's text wins). */
  private put(uri: string, text: string, changes: ModelChange[]): void {
    const { state } = this;
    const kind = FabledService.kindOfUri(uri);
    if (!kind) return;
    state.onDisk.add(uri);
    if (state.documents.get(uri)) return;
    const before = state.ws.get(uri);
    let after: FabledDocument | undefined;
    try {
      after = state.ws.set(uri, text, kind, 'unlikely');
    } catch (e) {
      state.logError(`Reading ${uri} failed`, e);
      return;
    }
    state.disk.set(uri, TextDocument.create(uri, FabledService.LANGUAGE_IDS[kind], 0, text));
    if (after !== before) changes.push({ uri, before, after });
  }

  /** A file, or every file under a folder, is gone. */
  private forgetUnder(uri: string, changes: ModelChange[]): void {
    const prefix = uri.endsWith('/') ? uri : `${uri}/`;
    const known = new Set([...this.state.onDisk, ...this.state.ws.uris(), ...this.state.disk.keys()]);
    for (const u of known) if (u === uri || u.startsWith(prefix)) this.forget(u, changes);
  }

  private forget(uri: string, changes: ModelChange[]): void {
    const { state } = this;
    state.onDisk.delete(uri);
    state.forgetSettings(uri);
    if (state.documents.get(uri)) return;
    state.disk.delete(uri);
    if (!state.ws.kindOf(uri)) return;
    const before = state.ws.get(uri);
    state.ws.delete(uri);
    this.diagnostics.clear(uri);
    changes.push({ uri, before, after: undefined });
  }

  /** A document closed: its file's text, as last sent, is the truth again; a buffer never saved is gone. */
  private closed(uri: string): void {
    const { state } = this;
    if (!FabledService.kindOfUri(uri) && !state.ws.get(uri)) return;
    this.scheduler.forget(uri);
    state.closed(uri);
    const kind = FabledService.kindOfUri(uri);
    const last = state.ws.get(uri);
    if (kind && last && state.onDisk.has(uri)) {
      // The client sends the file again when it was saved; until then the last text stands.
      state.disk.set(uri, TextDocument.create(uri, FabledService.LANGUAGE_IDS[kind], 0, last.text));
      this.scheduler.schedule(uri, 'now');
      return;
    }
    const changes: ModelChange[] = [];
    this.forget(uri, changes);
    state.onModelsChange(changes);
  }

  /** The folders are the client's to read (it sends their files): nothing to scan here. */
  async scan(_folders: WorkspaceFolder[]): Promise<void> {}

  /** File events come as the client's workspace files (`received`), with their text. */
  watched(_params: DidChangeWatchedFilesParams): void {}

  foldersChanged(e: WorkspaceFoldersChangeEvent): void {
    const { state } = this;
    state.folders = [...state.folders.filter((f) => !e.removed.some((r) => r.uri === f.uri)), ...e.added];
    const changes: ModelChange[] = [];
    for (const r of e.removed) this.forgetUnder(r.uri, changes);
    state.onModelsChange(changes);
  }

  revalidateAll(): void {
    if (!this.state.initialised) return;
    const uris = this.state.ws.uris();
    const open = uris.filter((u) => this.state.documents.get(u));
    this.scheduler.revalidateAll(open.length ? [...open, ...uris.filter((u) => !this.state.documents.get(u))] : uris);
  }
}
