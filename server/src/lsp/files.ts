/**
 * The files the server knows: open documents coming and going, the card, faction and fleet files
 * of the workspace folders (listed at start and when folders change, capped by
 * `fabledStar.workspace.maxFiles`), and the client's file-watcher events. Each change goes into the
 * workspace index and to the scheduler.
 */
import { FileChangeType, type DidChangeWatchedFilesParams, type WorkspaceFolder, type WorkspaceFoldersChangeEvent } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import fg from 'fast-glob';
import { readFile, stat } from 'node:fs/promises';
import { kindOfUri, LANGUAGE_IDS } from '../core/model/parse';
import type { FabledDocument } from '../core/model/types';
import type { ServerState } from './state';
import type { DiagnosticsScheduler } from './scheduler';
import type { Diagnostics } from './diagnostics';

export const FILE_GLOB = '**/*.{unit,faction,fleet}.{yaml,yml}';
const IGNORE = ['**/node_modules/**', '**/.git/**'];
/** Files larger than this are not read from the workspace (a card file is kilobytes; this is a stray dump). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

export class Files {
  /** While the workspace folders are read, dependents are not tracked file by file: one re-validation follows. */
  private scanning = 0;

  constructor(
    private readonly state: ServerState,
    private readonly scheduler: DiagnosticsScheduler,
    private readonly diagnostics: Diagnostics,
  ) {}

  /** Listens to the open documents' events. */
  listen(): void {
    const { documents } = this.state;
    documents.onDidOpen((e) => {
      if (kindOfUri(e.document.uri)) this.state.disk.delete(e.document.uri);
    });
    // Fired for didOpen too: a document not yet parsed is validated at once.
    documents.onDidChangeContent((e) => {
      if (!kindOfUri(e.document.uri)) return;
      this.scheduler.schedule(e.document.uri, this.state.isParsed(e.document.uri) ? 'typing' : 'now');
    });
    documents.onDidClose((e) => this.closed(e.document.uri));
  }

  private closed(uri: string): void {
    const { state } = this;
    if (!kindOfUri(uri)) return;
    this.scheduler.forget(uri);
    state.closed(uri);
    if (state.onDisk.has(uri)) {
      // The buffer may have held unsaved text: the file on disk is the truth again. Until it is
      // read, the last text stays in service, so that the file never looks absent.
      const last = state.ws.get(uri);
      const kind = kindOfUri(uri);
      if (last && kind) state.disk.set(uri, TextDocument.create(uri, LANGUAGE_IDS[kind], 0, last.text));
      void this.load(uri).then(() => this.scheduler.schedule(uri, 'now'));
    } else {
      const before = state.ws.get(uri);
      state.ws.delete(uri);
      this.diagnostics.clear(uri);
      state.onModelChange(uri, before, undefined);
    }
  }

  /** Reads a workspace file into the index (unless it is open: the editor's text wins). */
  async load(uri: string): Promise<void> {
    const { state } = this;
    if (state.documents.get(uri)) return;
    try {
      const path = URI.parse(uri).fsPath;
      const st = await stat(path);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) return;
      const text = await readFile(path, 'utf8');
      if (state.documents.get(uri)) return; // opened meanwhile: the editor's text wins
      const before = state.ws.get(uri);
      const kind = kindOfUri(uri);
      if (!kind) return;
      let after: FabledDocument | undefined;
      try {
        after = state.ws.set(uri, text);
      } catch (e) {
        state.logError(`Reading ${uri} failed`, e);
        return;
      }
      state.disk.set(uri, TextDocument.create(uri, LANGUAGE_IDS[kind], 0, text));
      state.onDisk.add(uri);
      if (after !== before && this.scanning === 0) state.onModelChange(uri, before, after);
    } catch {
      // Unreadable (deleted meanwhile, permissions): treat as absent.
      this.forget(uri);
    }
  }

  /** A workspace file is gone (deleted, or its folder was removed). */
  forget(uri: string): void {
    const { state } = this;
    state.onDisk.delete(uri);
    if (state.documents.get(uri)) return;
    const before = state.ws.get(uri);
    state.disk.delete(uri);
    if (before) {
      state.ws.delete(uri);
      this.diagnostics.clear(uri);
      state.onModelChange(uri, before, undefined);
    }
  }

  foldersChanged(e: WorkspaceFoldersChangeEvent): void {
    const { state } = this;
    state.folders = [...state.folders.filter((f) => !e.removed.some((r) => r.uri === f.uri)), ...e.added];
    for (const r of e.removed) for (const uri of [...state.onDisk]) if (uri.startsWith(r.uri.endsWith('/') ? r.uri : r.uri + '/')) this.forget(uri);
    void this.scan(e.added);
  }

  watched(params: DidChangeWatchedFilesParams): void {
    for (const ch of params.changes) {
      const uri = ch.uri;
      if (!kindOfUri(uri) || this.state.documents.get(uri)) continue;
      if (ch.type === FileChangeType.Deleted) this.forget(uri);
      else void this.load(uri).then(() => this.scheduler.schedule(uri, 'dependent'));
    }
  }

  /** Reads the folders' files, then re-validates everything (whatever refers across files may resolve differently now). */
  async scan(list: WorkspaceFolder[]): Promise<void> {
    this.scanning++;
    try {
      await this.scanFolders(list);
    } finally {
      this.scanning--;
    }
    this.revalidateAll();
  }

  revalidateAll(): void {
    if (!this.state.initialised) return;
    this.scheduler.revalidateAll(this.state.ws.uris());
  }

  private async scanFolders(list: WorkspaceFolder[]): Promise<void> {
    const { connection } = this.state;
    const max = (await this.state.settingsFor(undefined)).workspace.maxFiles;
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
        await this.load(URI.file(f).toString());
        loaded++;
      }
    }
  }
}
