/**
 * Drives the bundled server (dist/server.js) over stdio with a real JSON-RPC client, the way an
 * editor does: initialize, open and edit documents, collect published diagnostics, answer the
 * server's own requests (configuration, registrations, refreshes). Tests poll for state through
 * `waitFor`, never sleep.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  createProtocolConnection,
  WorkDoneProgress,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type ClientCapabilities,
  type Diagnostic,
  type PublishDiagnosticsParams,
  type Position,
  type Range,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import type { RosterData } from '../../protocol';

/** The project root: the nearest folder above this file with the project's package.json (this file may run bundled, from elsewhere). */
function projectRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'fabled-star-tools') return dir;
    } catch {
      // No package.json here: keep going up.
    }
    if (dirname(dir) === dir) return resolve(__dirname, '../..');
  }
}

export const SERVER = join(projectRoot(), 'dist', 'server.js');

export interface StartOptions {
  /** Files to create in a fresh temporary workspace folder: relative path -> text. */
  files?: Record<string, string>;
  /** Whether the client supports pull diagnostics (default: false, i.e. push). */
  pull?: boolean;
  /** The `fabledStar` settings the client answers workspace/configuration with. */
  settings?: Record<string, unknown>;
  /** Whether to announce a workspace folder (default true). */
  folder?: boolean;
  /** Subfolders of the root to announce as the workspace folders instead of the root. */
  folders?: string[];
  /** Changes the client capabilities sent with initialize. */
  capabilities?: (caps: ClientCapabilities) => ClientCapabilities;
  /** Runs before initialize (to make files a plain write cannot: links, pipes). */
  before?: (root: string) => void;
  /**
   * How the client answers window/workDoneProgress/create: awaited before it answers (a client
   * that answers late), and what it throws is the answer's error. Its progress is heard from the
   * moment the request comes. Default: answered at once.
   */
  progressCreate?: (token: string | number) => Promise<void>;
}

export class Client {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  /** When each uri's diagnostics last arrived (performance.now()), for the benchmark. */
  readonly arrivals = new Map<string, { version: number | undefined; at: number }>();
  /** Every publication, in order: which uri, for which version, with what. */
  readonly published: { uri: string; version: number | undefined; diagnostics: PublishDiagnosticsParams['diagnostics'] }[] = [];
  readonly notifications: { method: string; params: unknown }[] = [];
  readonly versions = new Map<string, number>();
  readonly texts = new Map<string, string>();
  refreshes = 0;
  /** For each workspace/diagnostic/refresh, how many notifications had arrived before it (what it came after). */
  readonly refreshAfter: number[] = [];
  /** Tokens of the work-done progress the server created (window/workDoneProgress/create). */
  readonly progressTokens: (string | number)[] = [];
  inlayRefreshes = 0;
  registrations: unknown[] = [];
  settings: Record<string, unknown>;
  stderr = '';
  private waiters = new Set<() => void>();

  constructor(
    readonly conn: ProtocolConnection,
    readonly child: ChildProcess,
    readonly root: string,
    settings: Record<string, unknown>,
  ) {
    this.settings = settings;
  }

  uri(rel: string): string {
    return pathToFileURL(join(this.root, rel)).toString();
  }

  /** Writes a file into the workspace folder (not through the editor). */
  writeFile(rel: string, text: string): string {
    const p = join(this.root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return this.uri(rel);
  }

  notifyChanged(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Polls a condition, re-checking whenever the server sends something; fails after `ms`. */
  async waitFor<T>(what: string, f: () => T | undefined | false, ms = 10000): Promise<T> {
    const first = f();
    if (first) return first;
    return new Promise<T>((res, rej) => {
      const check = () => {
        let v: T | undefined | false;
        try {
          v = f();
        } catch (e) {
          cleanup();
          rej(e);
          return;
        }
        if (v) {
          cleanup();
          res(v);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        rej(new Error(`Timed out waiting for ${what}${this.stderr ? `\nserver stderr:\n${this.stderr}` : ''}`));
      }, ms);
      // Also poll, for state that changes without a message (files on disk).
      const poll = setInterval(check, 50);
      const cleanup = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  /** Polls an asynchronous condition (a request) until it holds; fails after `ms`. */
  async poll<T>(what: string, f: () => Promise<T | undefined | false>, ms = 10000): Promise<T> {
    const end = performance.now() + ms;
    for (;;) {
      const v = await f();
      if (v) return v;
      if (performance.now() > end) throw new Error(`Timed out waiting for ${what}${this.stderr ? `\nserver stderr:\n${this.stderr}` : ''}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async open(rel: string, text?: string, languageId?: string): Promise<string> {
    const uri = this.uri(rel);
    const t = text ?? this.texts.get(uri) ?? '';
    this.versions.set(uri, 1);
    this.texts.set(uri, t);
    const lang = languageId ?? (rel.includes('.fleet.') ? 'fabled-fleet' : rel.includes('.faction.') ? 'fabled-faction' : 'fabled-unit');
    await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: lang, version: 1, text: t } });
    return uri;
  }

  async close(uri: string): Promise<void> {
    await this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    this.versions.delete(uri);
  }

  /** Applies an incremental edit: replaces `find` (the n-th occurrence) with `replacement`. */
  async edit(uri: string, find: string, replacement: string, nth = 0): Promise<number> {
    const text = this.texts.get(uri)!;
    let at = -1;
    for (let i = 0; i <= nth; i++) at = text.indexOf(find, at + 1);
    if (at < 0) throw new Error(`"${find}" not in ${uri}`);
    const range: Range = { start: positionAt(text, at), end: positionAt(text, at + find.length) };
    return this.change(uri, [{ range, text: replacement }], text.slice(0, at) + replacement + text.slice(at + find.length));
  }

  async change(uri: string, changes: TextDocumentContentChangeEvent[], newText: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    this.texts.set(uri, newText);
    await this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  /** The position of the `nth` occurrence of `needle` in an open document, `delta` characters in. */
  pos(uri: string, needle: string, delta = 0, nth = 0): Position {
    const text = this.texts.get(uri)!;
    let at = -1;
    for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" not in ${uri}`);
    return positionAt(text, at + delta);
  }

  /** Waits for diagnostics of a uri (for the current version of an open document) that satisfy `f`. */
  diagnosticsWhere(uri: string, what: string, f: (d: Diagnostic[]) => boolean, ms?: number): Promise<Diagnostic[]> {
    return this.waitFor(
      what,
      () => {
        const p = this.diagnostics.get(uri);
        if (!p) return undefined;
        const v = this.versions.get(uri);
        if (v !== undefined && p.version !== undefined && p.version !== v) return undefined;
        return f(p.diagnostics) ? p.diagnostics : undefined;
      },
      ms,
    );
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.conn.sendRequest(method, params) as Promise<R>;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.conn.sendNotification('exit');
    } catch {
      // The server may be gone already.
    }
    this.conn.dispose();
    if (this.child.exitCode === null) {
      await Promise.race([new Promise((r) => this.child.once('exit', r)), new Promise((r) => setTimeout(r, 2000))]);
      if (this.child.exitCode === null) this.child.kill();
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function positionAt(text: string, offset: number): Position {
  let line = 0;
  let last = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i + 1;
  }
  return { line, character: offset - last };
}

export const CAPABILITIES = (pull: boolean): ClientCapabilities => ({
  window: { workDoneProgress: true },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: true },
    diagnostics: { refreshSupport: true },
    inlayHint: { refreshSupport: true },
    codeLens: { refreshSupport: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: true, versionSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, insertTextModeSupport: { valueSet: [1, 2] } }, insertTextMode: 2 },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'refactor.rewrite'] } } },
    ...(pull ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } : {}),
  },
});

export async function startServer(opts: StartOptions = {}): Promise<Client> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run "node esbuild.mjs" first`);
  const root = mkdtempSync(join(tmpdir(), 'fabled-lsp-'));
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  opts.before?.(root);
  // For profiling and A/B runs (bench/cold-ab.ts): FABLED_SERVER_NODE_ARGS (space-separated Node
  // options for the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p") and FABLED_SERVER_BUNDLE
  // (another build of dist/server.js). Tests set neither.
  const nodeArgs = (process.env.FABLED_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const bundle = process.env.FABLED_SERVER_BUNDLE || SERVER;
  const child = spawn(process.execPath, [...nodeArgs, bundle, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const client = new Client(conn, child, root, opts.settings ?? {});
  child.stderr!.on('data', (d: Buffer) => (client.stderr += d.toString()));
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    client.arrivals.set(p.uri, { version: p.version, at: performance.now() });
    client.published.push({ uri: p.uri, version: p.version, diagnostics: p.diagnostics });
    client.diagnostics.set(p.uri, p);
    client.notifyChanged();
  });
  for (const method of ['fabledStar/fleetSummaryChanged', 'window/logMessage', 'window/showMessage']) {
    conn.onNotification(method, (params: unknown) => {
      client.notifications.push({ method, params });
      client.notifyChanged();
    });
  }
  conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map((i) => (i.section === 'fabledStar' ? client.settings : null)),
  );
  conn.onRequest('client/registerCapability', (p: { registrations: unknown[] }) => {
    client.registrations.push(...p.registrations);
    client.notifyChanged();
    return null;
  });
  conn.onRequest('workspace/diagnostic/refresh', () => {
    client.refreshes++;
    client.refreshAfter.push(client.notifications.length);
    client.notifyChanged();
    return null;
  });
  conn.onRequest('workspace/inlayHint/refresh', () => {
    client.inlayRefreshes++;
    client.notifyChanged();
    return null;
  });
  conn.onRequest('workspace/codeLens/refresh', () => null);
  // Progress is heard per token: a catch-all '$/progress' handler would replace the connection's own
  // dispatch, and the tests' conn.onProgress(type, token) listeners would never hear a thing.
  conn.onRequest('window/workDoneProgress/create', async (p: { token: string | number }) => {
    client.progressTokens.push(p.token);
    conn.onProgress(WorkDoneProgress.type, p.token, (value) => {
      client.notifications.push({ method: '$/progress', params: { token: p.token, value } });
      client.notifyChanged();
    });
    await opts.progressCreate?.(p.token);
    return null;
  });
  conn.listen();
  const rootUri = pathToFileURL(root).toString();
  const folders = opts.folders ? opts.folders.map((f) => ({ uri: pathToFileURL(join(root, f)).toString(), name: f })) : [{ uri: rootUri, name: 'ws' }];
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: opts.folder === false ? null : rootUri,
    workspaceFolders: opts.folder === false ? null : folders,
    capabilities: (opts.capabilities ?? ((c) => c))(CAPABILITIES(!!opts.pull)),
    clientInfo: { name: 'fabled-star-protocol-test' },
  });
  await conn.sendNotification('initialized', {});
  return client;
}

/**
 * A server on `files` with the fleet list `path` open, once its roster satisfies `ready`: the
 * workspace is read in slices after the start, so a test about a fleet first waits for the cards
 * (and anything else) its answers depend on.
 */
export async function fleetServer(
  files: Record<string, string>,
  path: string,
  text: string,
  ready: (roster: RosterData, c: Client, uri: string) => boolean | Promise<boolean>,
): Promise<{ c: Client; uri: string }> {
  const c = await startServer({ files });
  const uri = await c.open(path, text);
  await c.poll('the workspace cards', async () => {
    const r = await c.request<RosterData | null>('fabledStar/roster', { uri });
    return !!r && (await ready(r, c, uri));
  });
  return { c, uri };
}
