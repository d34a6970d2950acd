/**
 * The browser version's workspace for the server: a web worker reads no disk, so the client walks
 * each workspace folder through `vscode.workspace.fs` and sends the text of every card, faction,
 * fleet and collection file (protocol/web.ts), then each change a file system watcher reports.
 * A walk rather than `workspace.findFiles`, which never settles in a folder whose file system has
 * no search provider (a virtual folder may have none). Folders named node_modules or starting with
 * a dot are not walked, as the desktop's server does not read them.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient/browser';
import { MAX_WORKSPACE_FILE_CHARS, WORKSPACE_FILE, WorkspaceFilesNotification, type WorkspaceFile } from '../../../protocol/web';
import { settingValue } from '../../../protocol/settings';

/** Files sent in one notification. */
const BATCH = 64;
/** The folder glob a watcher reports deletions on (a folder deleted is one event for the folder). */
const ANY = '**/*';
const FILES = '**/*.{unit,faction,fleet,collection}.{yaml,yml}';

const skipped = (name: string) => name === 'node_modules' || name.startsWith('.');

/** The files under `folders` whose names pass `wanted` (at most `max`), breadth first; `found` hears each. */
export async function listFiles(
  folders: readonly vscode.Uri[],
  wanted: (name: string) => boolean,
  max: number,
  found?: (uri: vscode.Uri) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<vscode.Uri[]> {
  const out: vscode.Uri[] = [];
  const queue = [...folders];
  while (queue.length && !stopped()) {
    const dir = queue.shift()!;
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(dir);
    } catch {
      continue;
    }
    for (const [name, type] of entries) {
      const uri = vscode.Uri.joinPath(dir, name);
      if (type & vscode.FileType.Directory) {
        if (!skipped(name) && !(type & vscode.FileType.SymbolicLink)) queue.push(uri);
      } else if (type & vscode.FileType.File && wanted(name)) {
        if (out.length >= max) return out;
        out.push(uri);
        await found?.(uri);
      }
    }
  }
  return out;
}

export function syncWorkspaceFiles(client: BaseLanguageClient, log: vscode.LogOutputChannel): vscode.Disposable {
  const disposables: vscode.Disposable[] = [];
  let disposed = false;
  const decoder = new TextDecoder();
  const send = (changed: WorkspaceFile[], deleted: string[] = [], complete?: boolean) => {
    if (disposed || (!changed.length && !deleted.length && !complete)) return;
    void client.sendNotification(WorkspaceFilesNotification.type, { changed, deleted, ...(complete ? { complete } : {}) }).catch(() => undefined);
  };

  const read = async (uri: vscode.Uri): Promise<WorkspaceFile | undefined> => {
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.byteLength > MAX_WORKSPACE_FILE_CHARS * 3) {
        log.warn(`Not reading ${uri.toString(true)}: too large.`);
        return undefined;
      }
      return { uri: uri.toString(), text: decoder.decode(bytes) };
    } catch (e) {
      log.warn(`Could not read ${uri.toString(true)}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  };

  const maxFiles = (): number => {
    // Read as the server reads it: bounds and type from the manifest, a wrong value's default used.
    const n = settingValue('fabledStar.workspace.maxFiles', vscode.workspace.getConfiguration().get('fabledStar.workspace.maxFiles'), []);
    return typeof n === 'number' ? n : 25_000;
  };

  /** Walks folders breadth first, sending what it reads in batches; at most `maxFiles` files in all. */
  const walk = async (folders: readonly vscode.Uri[]): Promise<void> => {
    const max = maxFiles();
    let batch: WorkspaceFile[] = [];
    const listed = await listFiles(
      folders,
      (name) => WORKSPACE_FILE.test(name),
      max,
      async (uri) => {
        const f = await read(uri);
        if (f) batch.push(f);
        if (batch.length >= BATCH) {
          send(batch);
          batch = [];
        }
      },
      () => disposed,
    );
    send(batch, [], true);
    if (listed.length >= max) log.warn(`${max} card, faction and fleet files read from the workspace; any more are not (fabledStar.workspace.maxFiles).`);
    log.info(`Sent ${listed.length} workspace file(s) to the language server.`);
  };

  const watch = (folder: vscode.WorkspaceFolder) => {
    const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, FILES));
    const changed = async (uri: vscode.Uri) => {
      const f = await read(uri);
      if (f) send([f]);
    };
    const any = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, ANY), true, true, false);
    disposables.push(
      files,
      any,
      files.onDidCreate(changed),
      files.onDidChange(changed),
      // A file or a whole folder: the server forgets every file it knows under it.
      any.onDidDelete((uri) => send([], [uri.toString()])),
    );
  };

  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const f of folders) watch(f);
  disposables.push(
    vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      send(
        [],
        e.removed.map((f) => f.uri.toString()),
      );
      for (const f of e.added) watch(f);
      void walk(e.added.map((f) => f.uri));
    }),
  );
  void walk(folders.map((f) => f.uri));
  return {
    dispose: () => {
      disposed = true;
      for (const d of disposables) d.dispose();
    },
  };
}
