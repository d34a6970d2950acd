/**
 * The files the server knows: open documents coming and going, the card, faction and fleet files
 * of the workspace folders (listed at start and when folders change, capped by
 * `fabledStar.workspace.maxFiles`), and the client's file-watcher events, for files and for whole
 * folders (VS Code reports a folder created, copied, moved or deleted as one event for the folder).
 * Each change goes into the workspace index and to the scheduler.
 */
import { FileChangeType, type DidChangeWatchedFilesParams, type WorkspaceFolder, type WorkspaceFoldersChangeEvent } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import fg from 'fast-glob';
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_READ_BYTES, isInside, readCapped, readCappedSync, type ReadResult } from '../node/read';
import { FabledService, type FabledDocument } from '../core/service';
import type { ModelChange, ServerState } from './state';
import type { DiagnosticsScheduler } from './scheduler';
import type { Diagnostics } from './diagnostics';
import { openFleetFilter, openFleetKey, publishOpenFleets } from './early';

export const FILE_GLOB = '**/*.{unit,faction,fleet,collection}.{yaml,yml}';
/**
 * Every path, for its creation and deletion only: a folder moved, copied or deleted comes as one
 * event for the folder, and a client only sends it when a registered glob matches the folder.
 */
export const FOLDER_GLOB = '**/*';
const IGNORE = ['**/node_modules/**', '**/.git/**'];
/** Folders the scan does not list (IGNORE, and hidden ones: fast-glob's `dot: false`). */
const ignoredSegment = (s: string) => s === 'node_modules' || s.startsWith('.');

export class Files {
  /** While the workspace folders are read, dependents are not tracked file by file: one re-validation follows. */
  private scanning = 0;
  /**
   * The reads under way (scans, and single files' loads), each with what happened since it read
   * (see Reading): its older text is not indexed over a newer one, nor after its file or folder went.
   */
  private readonly readings = new Set<Reading>();
  /** Loads of single files under way (a scan may not publish early meanwhile: one may define a name). */
  private loading = 0;
  /** The workspace folders' real paths (links resolved), for the folders they were computed from. */
  private roots: { key: string; paths: Promise<string[]> } | undefined;
  /**
   * Card files of watcher events waiting to be read or forgotten (see `drain`), in the order their
   * last event came: a later event for a file replaces its place and its kind.
   */
  private readonly queued = new Map<string, 'read' | 'forget'>();
  /** Whether `drain` is reading the queue. */
  private draining = false;

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
      if (FabledService.kindOfUri(e.document.uri)) this.state.onDisk.add(e.document.uri);
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
    if (!FabledService.kindOfUri(uri) && !state.ws.get(uri)) return;
    this.scheduler.forget(uri);
    state.closed(uri);
    const last = state.ws.get(uri);
    const kind = FabledService.kindOfUri(uri);
    if (last && kind) state.disk.set(uri, TextDocument.create(uri, FabledService.LANGUAGE_IDS[kind], 0, last.text));
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
  async load(uri: string, changes?: ModelChange[]): Promise<void> {
    this.touch(uri);
    const me: Reading = { touched: new Set(), gone: new Set() };
    this.readings.add(me);
    this.loading++;
    try {
      const read = await this.read(uri);
      // A newer load of the file, or its deletion (or its folder's), came meanwhile: theirs counts.
      if (!stale(me, uri)) this.apply(uri, read, false, changes);
    } finally {
      this.loading--;
      this.readings.delete(me);
    }
  }

  /** The file changed or went: a text of it read before is older than what the server knows now. */
  private touch(uri: string): void {
    for (const r of this.readings) r.touched.add(uri);
  }

  /**
   * A watcher event said the file was created or changed (`read`), or deleted (`forget`): done with
   * the others that came (`drain`). A read under way (a scan, a closed buffer's load) has an older
   * text now.
   */
  private enqueue(uri: string, kind: 'read' | 'forget'): void {
    this.touch(uri);
    this.queued.delete(uri);
    this.queued.set(uri, kind);
    this.startDrain();
  }

  private startDrain(): void {
    if (this.draining || !this.queued.size) return;
    this.draining = true;
    this.loading++;
    void this.drain()
      .catch((e: unknown) => this.state.logError('Reading the changed files failed', e))
      .finally(() => {
        this.loading--;
        this.draining = false;
        // What a failure left is read by another drain.
        this.startDrain();
      });
  }

  /**
   * Reads (or forgets) the queued files, one slice per turn of the event loop: as many as fit in
   * EVENT_SLICE_MS, each read and indexed in that turn (no event comes between a file's read and
   * its indexing), so that hovers are answered between two slices; events that come meanwhile
   * join the queue. Then the dependents of them all are found once, and the files and their
   * dependents are checked in one pass: thousands of events (a checkout, an unzip into a known
   * folder) cost what a folder of that many files costs, not a walk of the fleets and a settings
   * request for each. Each file costs the same whatever else is queued or being read.
   */
  private async drain(): Promise<void> {
    const changes: ModelChange[] = [];
    const read: string[] = [];
    while (this.queued.size) {
      // The files forgotten last time cleared their diagnostics: written first (at the client's pace).
      await this.diagnostics.written();
      await new Promise<void>((r) => setImmediate(r));
      const folders = this.folderPaths();
      const within = await folders.real;
      const realDirs = new Map<string, string>();
      const end = performance.now() + EVENT_SLICE_MS;
      for (const [uri, kind] of this.queued) {
        this.queued.delete(uri);
        if (kind === 'forget') this.forget(uri, changes);
        else {
          // Read and indexed in this turn: the folders checked by the read still hold.
          this.apply(uri, this.readNow(uri, folders.given, within, realDirs), true, changes);
          read.push(uri);
        }
        if (performance.now() >= end) break;
      }
    }
    this.state.onModelsChange(changes);
    // The files read are checked too (a fleet file's dependents do not include itself).
    const there = read.filter((u) => this.state.ws.kindOf(u) && !this.state.documents.get(u));
    if (there.length <= SMALL_SCAN) for (const uri of there) this.scheduler.schedule(uri, 'dependent');
    else this.scheduler.revalidateAll(there);
  }

  /** `read`, synchronously (as the scan reads: small files, opened without blocking), in the folders given. */
  private readNow(uri: string, given: readonly string[], within: readonly string[], realDirs: Map<string, string>): ReadOutcome {
    if (this.state.documents.get(uri)) return 'skip';
    let p: string;
    try {
      const u = URI.parse(uri);
      if (u.scheme !== 'file') return 'forget';
      p = u.fsPath;
    } catch {
      return 'forget';
    }
    if (!given.some((root) => isInside(p, root))) return 'forget';
    return this.outcome(p, readCappedSync(p, { maxBytes: MAX_READ_BYTES, within, realDirs }));
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
  private apply(uri: string, read: ReadOutcome, inFolder = false, changes?: ModelChange[]): void {
    const { state } = this;
    if (read === 'skip') return;
    if (read === 'forget') return this.forget(uri, changes);
    const text = read.text;
    if (state.documents.get(uri)) return; // opened meanwhile: the editor's text wins
    if (!inFolder && !this.inFolders(uri)) return this.forget(uri, changes); // its folder was removed meanwhile
    const before = state.ws.get(uri);
    const kind = FabledService.kindOfUri(uri);
    if (!kind) return;
    let after: FabledDocument | undefined;
    try {
      after = state.ws.set(uri, text, kind, 'unlikely');
    } catch (e) {
      state.logError(`Reading ${uri} failed`, e);
      return;
    }
    state.disk.set(uri, TextDocument.create(uri, FabledService.LANGUAGE_IDS[kind], 0, text));
    state.onDisk.add(uri);
    if (after === before) return;
    // Kept for the caller, which tells them all at once; during a scan, the re-validation after it tells.
    if (changes) changes.push({ uri, before, after });
    else if (this.scanning === 0) state.onModelChange(uri, before, after);
  }

  /** A workspace file is gone (deleted, or its folder was removed). `changes`: kept there instead of told. */
  forget(uri: string, changes?: ModelChange[]): void {
    this.touch(uri);
    const { state } = this;
    state.onDisk.delete(uri);
    state.forgetSettings(uri);
    if (state.documents.get(uri)) return;
    state.disk.delete(uri);
    const kind = state.ws.kindOf(uri);
    if (!kind) return;
    // Many files at once (a folder gone): a closed card file is told by the keys its cards had in the
    // index, not parsed again for its model (20,000 of them would be).
    const gone = changes && kind === 'unit' ? { kind, keys: state.ws.cardKeys(uri) } : undefined;
    const before = gone ? undefined : state.ws.get(uri);
    state.ws.delete(uri);
    this.diagnostics.clear(uri);
    if (changes) changes.push({ uri, before, after: undefined, ...(gone ? { gone } : {}) });
    else state.onModelChange(uri, before, undefined);
  }

  foldersChanged(e: WorkspaceFoldersChangeEvent): void {
    const { state } = this;
    state.folders = [...state.folders.filter((f) => !e.removed.some((r) => r.uri === f.uri)), ...e.added];
    this.forgetUnder(e.removed.map((r) => r.uri));
    void this.scan(e.added);
  }

  /**
   * Every file under the given folders (URIs) is gone: each card, faction and fleet file known
   * there is forgotten at once, and reads under way drop what they read there.
   */
  forgetUnder(folders: readonly string[]): void {
    const prefixes = new Set(folders.map((f) => (f.endsWith('/') ? f : f + '/')));
    if (!prefixes.size) return;
    for (const r of this.readings) for (const p of prefixes) r.gone.add(p);
    const { state } = this;
    const known = new Set([...state.onDisk, ...state.ws.uris(), ...state.disk.keys()]);
    // Told at once: each file's dependents, and a points-estimate field that moved, are found once.
    const changes: ModelChange[] = [];
    for (const uri of known) {
      // Each ancestor of the file, from the nearest: a lookup per level, not a loop over the folders.
      for (let at = uri.lastIndexOf('/', uri.length - 2); at > 0; at = uri.lastIndexOf('/', at - 1)) {
        if (!prefixes.has(uri.slice(0, at + 1))) continue;
        this.forget(uri, changes);
        break;
      }
    }
    state.onModelsChange(changes);
  }

  /**
   * The client's file events. A card file: read again, or forgotten. Any other path (the folder
   * glob): created, it is read if it is a folder (a folder moved or copied in comes as one event);
   * deleted, every file known under it is forgotten (a folder deleted or moved out). A rename is a
   * deletion of the old path and a creation of the new one, in that order.
   */
  watched(params: DidChangeWatchedFilesParams): void {
    // A card file matches both globs: it may come twice (sets, and the queue keeps a file once).
    const gone = new Set<string>();
    const created = new Set<string>();
    for (const ch of params.changes) {
      const uri = ch.uri;
      if (ch.type === FileChangeType.Deleted) {
        // Anything deleted may have been a folder of cards (even one named like a card file).
        gone.add(uri);
      }
      if (!FabledService.kindOfUri(uri)) {
        if (ch.type === FileChangeType.Created) created.add(uri);
        continue;
      }
      if (this.state.documents.get(uri)) {
        // The editor's text wins while open; remember whether a file is there for when it closes.
        if (ch.type === FileChangeType.Deleted) this.state.onDisk.delete(uri);
        else this.state.onDisk.add(uri);
        continue;
      }
      // Read or forgotten with the others (`drain`); the last event for a file wins (created then
      // deleted: forgotten; deleted then created: read).
      this.enqueue(uri, ch.type === FileChangeType.Deleted ? 'forget' : 'read');
    }
    // Deletions under folders first, then creations (a folder renamed: its old path, then its new one).
    this.forgetUnder([...gone]);
    for (const uri of created) void this.folderCreated(uri);
  }

  /** A path that is not a card file was created: if it is a folder in the workspace, its files are read. */
  private async folderCreated(uri: string): Promise<void> {
    let dir: string;
    try {
      const u = URI.parse(uri);
      if (u.scheme !== 'file') return;
      dir = u.fsPath;
    } catch {
      return;
    }
    const folder = this.folderOf(dir);
    if (!folder) return;
    // What the scan does not list (node_modules, hidden folders) is not read when it comes either.
    if (path.relative(folder.root, dir).split(path.sep).some(ignoredSegment)) return;
    const isDir = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) return;
    const target = { folder: folder.folder, dir };
    await this.scanTargets([target], false);
    // A folder being copied in may still be filling when it is listed, and a client may report only
    // the folder: listed once more a moment later, and what was not there then is read.
    setTimeout(() => void this.settle(target), FOLDER_SETTLE_MS);
  }

  /** Reads the card files under a folder that the server does not know yet (see `folderCreated`). */
  private async settle(target: Target): Promise<void> {
    if (!this.hasFolder(target.folder)) return;
    const max = Math.max(0, (await this.state.settingsFor(undefined)).workspace.maxFiles - this.state.onDisk.size);
    const listed = await this.list([target], max);
    const known = (f: string) => {
      const uri = URI.file(f).toString();
      return this.state.onDisk.has(uri) || !!this.state.documents.get(uri);
    };
    const files = listed[0]!.files.filter((f) => !known(f)).slice(0, max);
    if (files.length) await this.loadEach([{ folder: target.folder, files }]);
  }

  /** The workspace folder a path is in (the innermost), with its path. */
  private folderOf(p: string): { folder: WorkspaceFolder; root: string } | undefined {
    let best: { folder: WorkspaceFolder; root: string } | undefined;
    for (const folder of this.state.folders) {
      let root: string;
      try {
        const u = URI.parse(folder.uri);
        if (u.scheme !== 'file') continue;
        root = u.fsPath;
      } catch {
        continue;
      }
      if (isInside(p, root) && (!best || root.length > best.root.length)) best = { folder, root };
    }
    return best;
  }

  /**
   * Reads the folders' files, then re-validates everything (whatever refers across files may
   * resolve differently now). Shows work-done progress when the client can (one begin, reports at
   * most every PROGRESS_MS, one end), and reads in slices of SCAN_SLICE files that yield to the
   * event loop, so that requests and open documents are served while a big workspace is read.
   */
  async scan(list: WorkspaceFolder[]): Promise<void> {
    const targets: Target[] = [];
    for (const folder of list) {
      try {
        const u = URI.parse(folder.uri);
        if (u.scheme === 'file') targets.push({ folder, dir: u.fsPath });
      } catch {
        // Not a URI: nothing to read.
      }
    }
    await this.scanTargets(targets, true);
  }

  /**
   * Reads folders. `whole`: workspace folders (the first scan, folders added), shown as progress and
   * followed by a re-validation of everything. Otherwise folders inside one (created, moved or copied
   * in): up to SMALL_SCAN files are read as watcher events are, each one's dependents re-checked;
   * more, as a whole scan.
   */
  private async scanTargets(targets: Target[], whole: boolean): Promise<void> {
    let progress: ScanProgress | undefined;
    const begin = () => {
      this.scanning++;
      progress = this.startProgress();
    };
    if (whole) begin();
    try {
      const maxFiles = (await this.state.settingsFor(undefined)).workspace.maxFiles;
      const max = whole ? maxFiles : Math.max(0, maxFiles - this.state.onDisk.size);
      const listed = await this.list(targets, max);
      const loaded = listed.reduce((n, l) => n + l.files.length, 0);
      if (!whole && loaded <= SMALL_SCAN) {
        // Listed up to one past the cap, to know it was reached.
        let left = max;
        for (const l of listed) left -= (l.files = l.files.slice(0, Math.max(0, left))).length;
        if (loaded > max) this.capped(maxFiles);
        return await this.loadEach(listed);
      }
      if (!progress) begin();
      await this.indexListed(listed, max, Math.min(max, loaded), progress!);
      if (loaded > max) this.capped(maxFiles);
    } finally {
      if (progress) {
        this.scanning--;
        progress.done();
      }
    }
    if (progress) this.revalidateAll();
  }

  private capped(maxFiles: number): void {
    this.state.connection.console.warn(
      `Read the first ${maxFiles} Fabled Star files of the workspace (fabledStar.workspace.maxFiles); the rest are not indexed.`,
    );
  }

  /** A few files (a small folder moved in): each read as a watcher event's, in listed order. */
  private async loadEach(listed: Listed[]): Promise<void> {
    const uris = listed.flatMap((l) => l.files.map((f) => URI.file(f).toString())).filter((u) => !this.state.documents.get(u));
    this.state.ws.reserveOrder(uris);
    const changes: ModelChange[] = [];
    try {
      await Promise.all(uris.map((uri) => this.load(uri, changes).then(() => this.scheduler.schedule(uri, 'dependent'))));
    } finally {
      this.state.ws.settleOrder();
    }
    this.state.onModelsChange(changes);
  }

  /** The card files under each folder (sorted), up to `max` in all. */
  private async list(targets: Target[], max: number): Promise<Listed[]> {
    let loaded = 0;
    const listed: Listed[] = [];
    for (const { folder, dir } of targets) {
      // Streamed, so that a folder far bigger than the cap (a home directory) stops being listed at the cap.
      const files: string[] = [];
      try {
        const stream = fg.stream([FILE_GLOB], { cwd: dir, ignore: IGNORE, absolute: true, dot: false, followSymbolicLinks: false, suppressErrors: true });
        for await (const f of stream) {
          files.push(String(f));
          if (loaded + files.length > max) break;
        }
      } catch (e) {
        this.state.connection.console.warn(`Could not list ${dir}: ${String(e)}`);
      }
      files.sort();
      listed.push({ folder, files });
      loaded += files.length;
    }
    return listed;
  }

  /**
   * Reads the listed files, then indexes them: first those that may define a card an open fleet
   * names (../early), wherever they are, then the rest, in slices that yield to the event loop. The
   * files keep the places in document order they would have had indexed in listed order.
   */
  private async indexListed(listed: Listed[], max: number, total: number, progress: ScanProgress): Promise<void> {
    const { ws } = this.state;
    const scan: Reading = { touched: new Set(), gone: new Set() };
    this.readings.add(scan);
    try {
      const slices = await this.readFolders(listed, max, total, progress);
      ws.reserveOrder(slices.flatMap((sl) => sl.uris));
      let indexed = 0;
      const index = (sl: ScanSlice, i: number) => {
        const uri = sl.uris[i]!;
        const read = sl.texts[i]!;
        sl.texts[i] = 'skip';
        indexed++;
        if (!stale(scan, uri)) this.apply(uri, read, true);
      };
      // The open fleets' files first; again whenever another fleet opens while the rest are indexed.
      let fleets: string | undefined;
      const forward = async () => {
        const now = openFleetKey(this.state);
        if (now === fleets) return;
        fleets = now;
        const may = openFleetFilter(this.state);
        if (!may) return;
        const first: [ScanSlice, number][] = [];
        for (const sl of slices) sl.texts.forEach((t, i) => typeof t === 'object' && may(t.text) && first.push([sl, i]));
        for (let k = 0; k < first.length; k += SCAN_SLICE) {
          await new Promise<void>((r) => setImmediate(r));
          for (const [sl, i] of first.slice(k, k + SCAN_SLICE)) if (this.hasFolder(sl.folder) && sl.texts[i] !== 'skip') index(sl, i);
          progress.report('indexed', indexed, total);
        }
        this.openFleetsReady();
      };
      await forward();
      for (const sl of slices) {
        await new Promise<void>((r) => setImmediate(r));
        // The folder may have been removed since it was read: none of its files are indexed.
        if (!this.hasFolder(sl.folder)) continue;
        for (let i = 0; i < sl.uris.length; i++) if (sl.texts[i] !== 'skip') index(sl, i);
        progress.report('indexed', indexed, total);
        await forward();
      }
    } finally {
      this.readings.delete(scan);
      ws.settleOrder();
    }
  }

  private hasFolder(folder: WorkspaceFolder): boolean {
    return this.state.folders.some((x) => x.uri === folder.uri);
  }

  /**
   * Every file that may define an open fleet's cards is indexed: the fleets are published if that is
   * what the whole workspace will say and nothing else is being read (push), a pulling client is
   * asked to pull again, and hints and lenses are asked for again.
   */
  private openFleetsReady(): void {
    if (this.scanning === 1 && this.loading === 0) publishOpenFleets(this.state, this.diagnostics);
    if (this.state.client.pull) this.scheduler.requestRefresh();
    this.scheduler.refreshViews();
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
    // Each token the client created gets one begin and one end, whenever its answer comes: a client
    // that answers after the scan has ended gets both at once (an end alone would be for a token
    // never begun). A client that answers with an error created none: nothing is sent on it.
    const reporter = this.state.client.workDoneProgress
      ? connection.window.createWorkDoneProgress().then(
          (r) => {
            r.begin('Fabled Star: indexing the workspace', 0, 'listing files', false);
            if (!ended) return r;
            r.done();
            return undefined;
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
  private async readFolders(listed: Listed[], max: number, total: number, progress: ScanProgress): Promise<ScanSlice[]> {
    const out: ScanSlice[] = [];
    let read = 0;
    for (const { folder, files } of listed) {
      for (let at = 0; at < files.length && read < max; at += READ_SLICE) {
        const within = await this.folderPaths().real;
        // The folder may be removed while it is read: stop, and read none of the rest. Checked once
        // per slice: the slice is read in this turn of the event loop.
        if (!this.hasFolder(folder)) break;
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
}

type ReadOutcome = { text: string } | 'skip' | 'forget';

/**
 * A read under way (a scan, or one file's load), and what happened since it read: the files loaded
 * or forgotten (a watcher event, a closed buffer) and the folders deleted (URI prefixes ending in
 * '/'). Its older text is not indexed over theirs.
 */
interface Reading {
  touched: Set<string>;
  gone: Set<string>;
}

function stale(r: Reading, uri: string): boolean {
  if (r.touched.has(uri)) return true;
  if (!r.gone.size) return false;
  // Each ancestor of the file (a lookup per level: thousands of paths may have gone at once).
  for (let at = uri.lastIndexOf('/', uri.length - 2); at > 0; at = uri.lastIndexOf('/', at - 1)) if (r.gone.has(uri.slice(0, at + 1))) return true;
  return false;
}

/** A workspace folder, or a folder inside one, to read. */
interface Target {
  folder: WorkspaceFolder;
  dir: string;
}

/** The card files listed under a target. */
interface Listed {
  folder: WorkspaceFolder;
  files: string[];
}

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
/** Watcher events' files are read and indexed for at most about this long (ms) between two turns of the event loop. */
const EVENT_SLICE_MS = 10;
/** A folder moved in with at most this many card files is read file by file (each one's dependents re-checked), not scanned. */
export const SMALL_SCAN = 256;
/** A folder created is listed again this long after (ms), for the files copied into it meanwhile. */
const FOLDER_SETTLE_MS = 1000;
/** At most one progress report this often (ms). */
const PROGRESS_MS = 100;
