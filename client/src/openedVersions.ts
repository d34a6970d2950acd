/**
 * The text each fleet list had when it was opened in this window, so that "Compare with Saved
 * Version" can still offer the list as it was before edits that were saved since. Kept while the
 * file stays open; opened again, it starts afresh.
 */
import * as vscode from 'vscode';

const opened = new Map<string, string>();

/** The text `uri` had when it was opened (undefined: not open, or not a fleet list). */
export function openedText(uri: vscode.Uri): string | undefined {
  return opened.get(uri.toString());
}

function remember(doc: vscode.TextDocument): void {
  if (doc.languageId !== 'fabled-fleet' || doc.uri.scheme !== 'file') return;
  const key = doc.uri.toString();
  if (!opened.has(key)) opened.set(key, doc.getText());
}

/** Starts keeping the opened texts: the lists open already, and each one opened from now on. */
export function trackOpenedVersions(): vscode.Disposable {
  for (const doc of vscode.workspace.textDocuments) remember(doc);
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenTextDocument(remember),
    // Closed (VS Code also closes and opens a file again when its language changes): opened again, it starts afresh.
    vscode.workspace.onDidCloseTextDocument((doc) => opened.delete(doc.uri.toString())),
  );
}
