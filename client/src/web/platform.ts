/**
 * The browser version's stand-ins for ../platform.ts (the web build puts this module in its
 * place: esbuild.mjs `webSwaps`), with the same exports. The server is a web worker
 * (dist/web/server.js); it cannot read the workspace, so the client sends it the files
 * (./workspaceFiles.ts); there is no git to ask for HEAD, and no temporary folder to print from.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, DocumentSelector } from 'vscode-languageclient/browser';
import { listFiles, syncWorkspaceFiles } from './workspaceFiles';

/** The server: dist/web/server.js in a web worker. */
export function serverOptions(extensionUri: vscode.Uri): Worker {
  return new Worker(vscode.Uri.joinPath(extensionUri, 'dist', 'web', 'server.js').toString(true));
}

/**
 * What the server is told when it starts: where its simulation worker is. A web extension host
 * starts workers from blob: URLs, so the server cannot find the file beside its own script.
 */
export function initializationOptions(extensionUri: vscode.Uri): { simWorker: string } {
  return { simWorker: vscode.Uri.joinPath(extensionUri, 'dist', 'web', 'sim-worker.js').toString(true) };
}

/** Our languages in any file system (vscode.dev and github.dev open folders of their own schemes). */
export function documentSelector(languages: readonly string[]): DocumentSelector {
  return languages.map((language) => ({ language }));
}

/**
 * The workspace's fleet lists (at most `max`): the folders walked, as `workspace.findFiles` never
 * settles in a folder whose file system has no search provider.
 */
export function findFleetFiles(max: number): Thenable<vscode.Uri[]> {
  return listFiles(
    (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri),
    (name) => /\.fleet\.ya?ml$/i.test(name),
    max,
  );
}

/** Once the client runs: the workspace's card, faction and fleet files go to the server, and their changes. */
export function afterStart(client: BaseLanguageClient, log: vscode.LogOutputChannel): vscode.Disposable | undefined {
  return syncWorkspaceFiles(client, log);
}

/** No git in the browser: Compare with Saved Version compares with the saved file and the text the editor opened. */
export function gitHeadText(_file: vscode.Uri): Promise<string | undefined> {
  return Promise.resolve(undefined);
}

/** No temporary folder in the browser: the card sheet is saved, then printed from a browser. */
export function printFile(_name: string): vscode.Uri | undefined {
  return undefined;
}
