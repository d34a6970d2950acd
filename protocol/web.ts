/**
 * What the browser version's client and server say besides the rest of the protocol (./index.ts).
 * In a browser the server cannot read the disk: the client reads the workspace's card, faction and
 * fleet files through the editor's file system and sends their text, and their changes.
 */
import { NotificationType } from 'vscode-languageserver-protocol';

export interface WorkspaceFile {
  uri: string;
  text: string;
}

export interface WorkspaceFilesParams {
  /** Files found, created or changed, with their whole text. */
  changed?: WorkspaceFile[];
  /** Files (or folders) deleted: every file known under a folder goes with it. */
  deleted?: string[];
  /** True once the client has sent every file of its first walk of the workspace. */
  complete?: boolean;
}

/** client -> server (browser version only): workspace files, read by the client. */
export const WorkspaceFilesNotification = {
  method: 'fabledStar/workspaceFiles',
  type: new NotificationType<WorkspaceFilesParams>('fabledStar/workspaceFiles'),
} as const;

/** A file the browser version reads: a card, faction, fleet or collection file. */
export const WORKSPACE_FILE = /\.(unit|faction|fleet|collection)\.ya?ml$/i;

/** At most this many characters of one file are sent (a bigger file is skipped, as the desktop's byte cap does). */
export const MAX_WORKSPACE_FILE_CHARS = 6 * 1024 * 1024;
