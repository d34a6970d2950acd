/**
 * What the desktop's extension does with Node, in one place: how the language server is started
 * (a Node process), which documents it serves, the file at git's HEAD, a temporary file to print
 * from, and a tag for progress tokens. The browser version (VS Code for the web) builds the same
 * client with client/src/web/platform.ts in this module's place (esbuild.mjs `webSwaps`): the same
 * exports, without Node.
 */
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TransportKind, type BaseLanguageClient, type DocumentSelector, type ServerOptions } from 'vscode-languageclient/node';

/** The server: dist/server.js in a Node process, over IPC. */
/** What the server is told when it starts, beside the settings: nothing on the desktop (it finds its own files). */
export function initializationOptions(_extensionUri: vscode.Uri): Record<string, never> {
  return {};
}

export function serverOptions(extensionUri: vscode.Uri): ServerOptions {
  const serverModule = vscode.Uri.joinPath(extensionUri, 'dist', 'server.js').fsPath;
  return {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', '--inspect=6019'] },
    },
  };
}

/** The documents the server serves: files on disk and untitled buffers of our languages. */
export function documentSelector(languages: readonly string[]): DocumentSelector {
  return languages.flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]);
}

/** The workspace's fleet lists (at most `max`), for the battle commands' picks. */
export function findFleetFiles(max: number): Thenable<vscode.Uri[]> {
  return vscode.workspace.findFiles('**/*.fleet.{yaml,yml}', '**/node_modules/**', max);
}

/** Once the client runs: nothing more on the desktop (the server reads the workspace itself). */
export function afterStart(_client: BaseLanguageClient, _log: vscode.LogOutputChannel): vscode.Disposable | undefined {
  return undefined;
}

/** The file's text at git's HEAD, or undefined (not in a repository, not committed, no git). */
export function gitHeadText(file: vscode.Uri): Promise<string | undefined> {
  if (file.scheme !== 'file') return Promise.resolve(undefined);
  const dir = path.dirname(file.fsPath);
  return new Promise((resolve) =>
    execFile('git', ['-C', dir, 'show', `HEAD:./${path.basename(file.fsPath)}`], { maxBuffer: 1 << 24, timeout: 10_000 }, (e, out) =>
      resolve(e ? undefined : out),
    ),
  );
}

/** A temporary file to open in the system's browser for printing (undefined where there is none). */
export function printFile(name: string): vscode.Uri | undefined {
  return vscode.Uri.file(path.join(tmpdir(), name));
}
