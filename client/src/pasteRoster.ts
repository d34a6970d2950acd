/**
 * "Paste Roster as Fleet": a roster or a list as players post it (the clipboard's text, or the
 * text given to the command, or, when the clipboard is empty, the active editor's selection or
 * text) read by the server against the workspace's cards (`fabledStar/importRoster`, the core's
 * import.ts) and opened as a new untitled fleet list. Lines that name no card are said in a
 * message with the closest card, and kept as comments at the top of the fleet.
 */
import * as vscode from 'vscode';
import { ImportRosterRequest, type ImportRosterResult } from '../../protocol';
import { reportFailure } from './commands';
import type { Ctx } from './ctx';

/** The text to read: the command's argument, else the clipboard, else the active editor's selection (or whole text). */
async function rosterText(arg: unknown): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  const clip = await vscode.env.clipboard.readText();
  if (clip.trim()) return clip;
  const ed = vscode.window.activeTextEditor;
  if (ed && !/^fabled-/.test(ed.document.languageId)) {
    const sel = ed.document.getText(ed.selection);
    return sel.trim() ? sel : ed.document.getText();
  }
  return undefined;
}

/** "line 5: Lumin Destroyer (closest card: Lumen Destroyer)" for the message; at most `n`. */
export function problemSummary(r: ImportRosterResult, n = 3): string {
  const shown = r.problems.slice(0, n).map((p) => `line ${p.line}: ${p.text.slice(0, 60)}${p.closest ? ` (closest card: ${p.closest})` : ''}`);
  const more = r.problems.length > n ? `; and ${r.problems.length - n} more` : '';
  return shown.join('; ') + more;
}

export function pasteRosterAsFleet(ctx: Ctx): (arg?: unknown) => Promise<vscode.TextDocument | undefined> {
  return async (arg) => {
    try {
      const text = await rosterText(arg);
      if (text === undefined || !text.trim()) {
        void vscode.window.showInformationMessage('Copy a roster or a list (as players post it) to the clipboard first, then run Paste Roster as Fleet again.');
        return undefined;
      }
      const r = await ctx.request(ImportRosterRequest.type, { text });
      if (!r) throw new Error('the language server could not read the text');
      const doc = await vscode.workspace.openTextDocument({ language: 'fabled-fleet', content: r.fleet });
      await vscode.window.showTextDocument(doc, { preview: false });
      const units = `${r.entries} ${r.entries === 1 ? 'entry' : 'entries'}`;
      if (r.problems.length) {
        void vscode.window.showWarningMessage(
          `Read ${units} into a new fleet list; ${r.problems.length} ${r.problems.length === 1 ? 'line names' : 'lines name'} no card (kept as comments at the top): ${problemSummary(r)}.`,
        );
      } else vscode.window.setStatusBarMessage(`$(check) Read ${units} of "${r.name}" into a new fleet list; save it as a .fleet.yaml file`, 8000);
      return doc;
    } catch (e) {
      await reportFailure(ctx, 'Could not read the roster', e);
      return undefined;
    }
  };
}
