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
import { realpath } from 'node:fs/promises';
import { MAX_READ_BYTES, isInside, readCapped, readCappedSync, type ReadResult } from '../node/read';
import { kindOfUri, LANGUAGE_IDS } from '../core/model/parse';
import type { FabledDocument } from '../core/model/types';
import type { ServerState } from './state';
import type { DiagnosticsScheduler } from './scheduler';
import type { Diagnostics } from './diagnostics';
import { publishOpenFleets } from './early';

export const FILE_GLOB = '**/*.{unit,faction,fleet}.{yaml,yml}';
const IGNORE = ['**/node_modules/**', '**/.git/**'];

export class Files {
  /** While the workspace folders are read, dependents are not tracked file by file: one re-validation follows. */
  private scanning = 0;
  /**
   * Per running scan, the files loaded or forgotten since it read them (a watcher event, a closed
   * buffer): the scan's older text is not indexed over theirs.
   */
  private readonly touched = new Set<Set<string>>();
  /** The workspace folders' real paths (links resolved), for the folders they were computed from. */
  private roots: { key: string; paths: Promise<string[]> } | undefined;

  constructor(
    private readonly state: ServerState,
    private readonly scheduler: DiagnosticsScheduler,
    private readonly diagnostics: Diagnostics,
  ) {}

  /** Listens to the open documents' events. */
  listen(): void {
    const { documents } = this.state;
    documents.onDidOpen((e) => {
      if (this.state.kindOf(e.document.uri)) this.state.disk.delete(e.document.uri);
    });
    // Fired for didOpen too: a document not yet parsed is validated at once.
    documents.onDidChangeContent((e) => {
      if (!this.state.kindOf(e.document.uri)) return;
      this.scheduler.schedule(e.document.uri, this.state.isParsed(e.document.uri) ? 'typing' : 'now');
    });
    documents.onDidClose((e) => this.closed(e.document.uri));
    // A save writes the file: it is on disk from now on, whether or not a watcher says so.
    documents.onDidSave((e) => {
      if (kindOfUri(e.document.uri)) this.state.onDisk.add(e.document.uri);
    });
  }

  /**
   * A document closed: the file on disk is the truth again. It is read whatever the server knew
   * about it: a file created or saved while open (whose watcher events the client may not send, or
   * sent while it was open) is still there; one that was never saved, or was deleted, is gone.
   * Until the read settles, the last text stays in service, so that the file never looks absent.
   */
  private closed(uri: string): void {
    const { state } = this;
    if (!kindOfUri(uri) && !state.ws.get(uri)) return;
    this.scheduler.forget(uri);
    state.closed(uri);
    const last = state.ws.get(uri);
    const kind = kindOfUri(uri);
    if (last && kind) state.disk.set(uri, TextDocument.create(uri, LANGUAGE_IDS[kind], 0, last.text));
    void this.load(uri).then(() => {
      if (state.ws.get(uri) && !state.documents.get(uri)) this.scheduler.schedule(uri, 'now');
    });
  }

  /** The folders' paths on disk, as given and with every link resolved. */
  private folderPaths(): { given: string[]; real: Promise<string[]> } {
    const given: string[] = [];
    for (const f of this.state.folders) {
      try {
        const u = URI.parse(f.uri);
        if (u.scheme === 'file') given.push(u.fsPath);
      } catch {
        // Not a URI: no folder.
      }
    }
    const key = given.join('\n');
    if (this.roots?.key !== key) {
      const real = Promise.all(given.map((p) => realpath(p).catch(() => p)));
      this.roots = { key, paths: real };
    }
    return { given, real: this.roots.paths };
  }

  /** Whether a file URI lies in one of the current workspace folders. */
  private inFolders(uri: string): boolean {
    let p: string;
    try {
      const u = URI.parse(uri);
      if (u.scheme !== 'file') return false;
      p = u.fsPath;
    } catch {
      return false;
    }
    return this.folderPaths().given.some((root) => isInside(p, root));
  }

  /**
   * Reads a workspace file into the index (unless it is open: the editor's text wins). Every file
   * the server reads comes through here (the first scan, watched-file events, a closed buffer's
   * file), under the scan's rules: inside a workspace folder, links resolved and staying inside
   * one, not a link itself, a regular file, at most MAX_READ_BYTES read whatever `stat` says
   * (../node/read). A file whose folder is removed while it is read is dropped.
   */
  async load(uri: string): Promise<void> {
    for (const t of this.touched) t.add(uri);
    this.apply(uri, await this.read(uri));
  }

  /** The reading half of `load`: the file's text, or what to do instead. */
  private async read(uri: string): Promise<ReadOutcome> {
    if (this.state.documents.get(uri)) return 'skip';
    if (!this.inFolders(uri)) return 'forget';
    const path = URI.parse(uri).fsPath;
    return this.outcome(path, await readCapped(path, { maxBytes: MAX_READ_BYTES, within: await this.folderPaths().real }));
  }

  private outcome(path: string, read: ReadResult): ReadOutcome {
    if (!read.ok) {
      if (read.reason !== 'error')
        this.state.connection.console.warn(`Not reading ${path}: ${read.reason === 'too-large' ? `larger than ${MAX_READ_BYTES} bytes` : read.message}.`);
      // Unreadable (deleted meanwhile, permissions, not a card file at all): treat as absent.
      return 'forget';
    }
    return { text: read.text };
  }

  /** The indexing half of `load`, run right after the read (the checks are made again: time has passed). */
  private apply(uri: string, read: ReadOutcome, inFolder = false): void {
    const { state } = this;
    if (read === 'skip') return;
    if (read === 'forget') return this.forget(uri);
    const text = read.text;
    if (state.documents.get(uri)) return; // opened meanwhile: the editor's text wins
    if (!inFolder && !this.inFolders(uri)) return this.forget(uri); // its folder was removed meanwhile
    const before = state.ws.get(uri);
    const kind = kindOfUri(uri);
    if (!kind) return;
    let after: FabledDocument | undefined;
    try {
      after = state.ws.set(uri, text, kind, 'unlikely');
    } catch (e) {
      state.logError(`Reading ${uri} failed`, e);
      return;
    }
    state.disk.set(uri, TextDocument.create(uri, LANGUAGE_IDS[kind], 0, text));
    state.onDisk.add(uri);
    if (after !== before && this.scanning === 0) state.onModelChange(uri, before, after);
  }

  /** A workspace file is gone (deleted, or its folder was removed). */
  forget(uri: string): void {
    for (const t of this.touched) t.add(uri);
    const { state } = this;
    state.onDisk.delete(uri);
    state.forgetSettings(uri);
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
      if (!kindOfUri(uri)) continue;
      if (this.state.documents.get(uri)) {
        // The editor's text wins while open; remember whether a file is there for when it closes.
        if (ch.type === FileChangeType.Deleted) this.state.onDisk.delete(uri);
        else this.state.onDisk.add(uri);
        continue;
      }
      if (ch.type === FileChangeType.Deleted) this.forget(uri);
      else void this.load(uri).then(() => this.scheduler.schedule(uri, 'dependent'));
    }
  }

  /**
   * Reads the folders' files, then re-validates everything (whatever refers across files may
   * resolve differently now). Shows work-done progress when the client can (one begin, reports at
   * most every PROGRESS_MS, one end), and reads in slices of SCAN_SLICE files that yield to the
   * event loop, so that requests and open documents are served while a big workspace is read.
   */
  async scan(list: WorkspaceFolder[]): Promise<void> {
    this.scanning++;
    const progress = this.startProgress();
    try {
      await this.scanFolders(list, progress);
    } finally {
      this.scanning--;
      progress.done();
    }
    this.revalidateAll();
  }

  revalidateAll(): void {
    if (!this.state.initialised) return;
    // Open documents first: they are what the user looks at.
    const uris = this.state.ws.uris();
    const open = uris.filter((u) => this.state.documents.get(u));
    this.scheduler.revalidateAll(open.length ? [...open, ...uris.filter((u) => !this.state.documents.get(u))] : uris);
  }

  private startProgress(): ScanProgress {
    const { connection } = this.state;
    let last = 0;
    let ended = false;
    const reporter = this.state.client.workDoneProgress
      ? connection.window.createWorkDoneProgress().then(
          (r) => {
            if (!ended) r.begin('Fabled Star: indexing the workspace', 0, 'listing files', false);
            return r;
          },
          () => undefined,
        )
      : undefined;
    return {
      report: (step, done, total) => {
        const now = performance.now();
        const last_ = step === 'indexed' && done >= total;
        if (!reporter || ended || (now - last < PROGRESS_MS && !last_)) return;
        last = now;
        // Reading is the first tenth of the work, parsing the rest.
        const share = total ? done / total : 1;
        const pct = Math.floor((step === 'read' ? share * 0.1 : 0.1 + share * 0.9) * 100);
        void reporter.then((r) => !ended && r?.report(pct, `${done} of ${total} files ${step}`));
      },
      done: () => {
        if (ended) return;
        ended = true;
        void reporter?.then((r) => r?.done());
      },
    };
  }

  /**
   * Reads the listed files (up to `max`) in slices that yield to the event loop; the texts are
   * indexed afterwards, in slices of SCAN_SLICE (parsing is most of the work).
   */
  private async readFolders(listed: { folder: WorkspaceFolder; files: string[] }[], max: number, total: number, progress: ScanProgress): Promise<ScanSlice[]> {
    const out: ScanSlice[] = [];
    let read = 0;
    for (const { folder, files } of listed) {
      for (let at = 0; at < files.length && read < max; at += READ_SLICE) {
        const within = await this.folderPaths().real;
        // The folder may be removed while it is read: stop, and read none of the rest. Checked once
        // per slice: the slice is read in this turn of the event loop.
        if (!this.state.folders.some((x) => x.uri === folder.uri)) break;
        const paths = files.slice(at, Math.min(at + READ_SLICE, at + max - read));
        const uris = paths.map((f) => URI.file(f).toString());
        // Read synchronously (small files read faster without a trip through the thread pool for
        // each call; ../node/read opens without blocking, so a FIFO cannot hang it), under the same
        // rules as `load`, resolving each directory once per slice.
        const realDirs = new Map<string, string>();
        const texts = paths.map((p, i) =>
          this.state.documents.get(uris[i]!) ? 'skip' : this.outcome(p, readCappedSync(p, { maxBytes: MAX_READ_BYTES, within, realDirs })),
        );
        for (let i = 0; i < uris.length; i += SCAN_SLICE) out.push({ folder, uris: uris.slice(i, i + SCAN_SLICE), texts: texts.slice(i, i + SCAN_SLICE) });
        read += uris.length;
        progress.report('read', read, total);
        await new Promise<void>((r) => setImmediate(r));
      }
    }
    return out;
  }

  private async scanFolders(list: WorkspaceFolder[], progress: ScanProgress): Promise<void> {
    const { connection } = this.state;
    const max = (await this.state.settingsFor(undefined)).workspace.maxFiles;
    let loaded = 0;
    const listed: { folder: WorkspaceFolder; files: string[] }[] = [];
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
      listed.push({ folder, files });
      loaded += files.length;
    }
    const total = Math.min(max, loaded);
    const touched = new Set<string>();
    this.touched.add(touched);
    try {
      const slices = await this.readFolders(listed, max, total, progress);
      // The first scan of a workspace (nothing but open documents indexed yet): the open fleets'
      // diagnostics from the files that can define their cards, before the rest are parsed.
      if (this.state.ws.uris().every((u) => this.state.documents.get(u))) {
        const read: { uri: string; text: string }[] = [];
        for (const { uris, texts } of slices) uris.forEach((uri, i) => typeof texts[i] === 'object' && read.push({ uri, text: texts[i].text }));
        publishOpenFleets(this.state, read);
      }
      let indexed = 0;
      for (const { folder, uris, texts } of slices) {
        await new Promise<void>((r) => setImmediate(r));
        indexed += uris.length;
        // The folder may have been removed since it was read: none of its files are indexed.
        if (!this.state.folders.some((x) => x.uri === folder.uri)) continue;
        // Indexed in order (the order decides which of two same-named cards comes first).
        for (let i = 0; i < uris.length; i++) if (!touched.has(uris[i]!)) this.apply(uris[i]!, texts[i]!, true);
        progress.report('indexed', indexed, total);
      }
    } finally {
      this.touched.delete(touched);
    }
    if (loaded > max)
      connection.console.warn(`Read the first ${max} Fabled Star files of the workspace (fabledStar.workspace.maxFiles); the rest are not indexed.`);
  }
}

type ReadOutcome = { text: string } | 'skip' | 'forget';

/** Files of one folder read by a scan, to be indexed together. */
interface ScanSlice {
  folder: WorkspaceFolder;
  uris: string[];
  texts: ReadOutcome[];
}

interface ScanProgress {
  report(step: 'read' | 'indexed', done: number, total: number): void;
  done(): void;
}

/** Files parsed and indexed at once during a scan, between two turns of the event loop. */
export const SCAN_SLICE = 32;
/** Files read at once during a scan (reading a small file costs far less than parsing it). */
const READ_SLICE = 256;
/** At most one progress report this often (ms). */
const PROGRESS_MS = 100;
