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

/** "line 2: Celestial Batleship read as Celestial Battleship" for the message; at most `n`. */
export function guessSummary(r: ImportRosterResult, n = 3): string {
  const g = r.guesses ?? [];
  const shown = g.slice(0, n).map((x) => `line ${x.line}: ${x.written.slice(0, 60)} read as ${x.unit}`);
  return shown.join('; ') + (g.length > n ? `; and ${g.length - n} more` : '');
}

/**
 * Names read as the closest card, said with what Ctrl+. on the entry's warning offers: keeping the
 * card, and another card only where the import had other candidates (it offers none otherwise).
 */
export function guessSentence(r: ImportRosterResult): string {
  const g = r.guesses ?? [];
  if (!g.length) return '';
  const others = g.some((x) => (x.others?.length ?? 0) > 0);
  return ` ${guessSummary(r)}, the closest ${g.length === 1 ? 'card' : 'cards'}: each entry says so in a note, and Ctrl+. on its warning keeps it${others ? ' or picks another close card' : ''}.`;
}

/** "Veil Patrol" -> "veil-patrol": the file name the new list is offered under (letters and digits, dashes). */
export function fleetFileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem || 'imported-fleet';
}

/**
 * An untitled document named after the fleet (`veil-patrol.fleet.yaml` in the first workspace
 * folder, so its tab says what it is and Save offers that file), not yet open nor on disk; else
 * undefined. VS Code would otherwise title it by its first line, the import's comment.
 */
async function newFleetUri(name: string): Promise<vscode.Uri | undefined> {
  const stem = fleetFileStem(name);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  for (let i = 1; i < 100; i++) {
    const base = `${stem}${i === 1 ? '' : `-${i}`}.fleet.yaml`;
    const onDisk = folder ? vscode.Uri.joinPath(folder, base) : undefined;
    const uri = vscode.Uri.from({ scheme: 'untitled', path: onDisk ? onDisk.path : base });
    if (open.has(uri.toString()) || (onDisk && open.has(onDisk.toString()))) continue;
    if (onDisk) {
      const taken = await vscode.workspace.fs.stat(onDisk).then(
        () => true,
        () => false,
      );
      if (taken) continue;
    }
    return uri;
  }
  return undefined;
}

/** The new fleet list: an untitled document named after the fleet, holding `text`. */
async function openNewFleet(name: string, text: string): Promise<vscode.TextDocument> {
  const uri = await newFleetUri(name);
  if (!uri) return vscode.workspace.openTextDocument({ language: 'fabled-fleet', content: text });
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'fabled-fleet') doc = await vscode.languages.setTextDocumentLanguage(doc, 'fabled-fleet');
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, new vscode.Position(0, 0), text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('could not write the new fleet list');
  return doc;
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
      // Chat, not a list (no unit read, no line close to a card): an empty fleet list would only have to be closed again.
      if (r.entries === 0 && r.problems.every((p) => !p.closest)) {
        void vscode.window.showInformationMessage(
          'No units in the copied text: no line names a card. Paste Roster as Fleet reads lists as players post them ("2x Lumen Cruiser", "Lumen Cruiser - 190 pts") and rosters exported by Fabled Star.',
        );
        return undefined;
      }
      const doc = await openNewFleet(r.name, r.fleet);
      await vscode.window.showTextDocument(doc, { preview: false });
      const units = `${r.entries} ${r.entries === 1 ? 'entry' : 'entries'}`;
      const guessed = guessSentence(r);
      if (r.problems.length) {
        void vscode.window.showWarningMessage(
          // What to fix first (a notification shows only its first line or so); where it went last.
          `No card for ${problemSummary(r)}. Read ${units} into a new fleet list; ${r.problems.length === 1 ? 'that line is' : 'those lines are'} kept as comments at its top.${guessed}`,
        );
      } else if (guessed) void vscode.window.showWarningMessage(`Read ${units} into a new fleet list.${guessed}`);
      else vscode.window.setStatusBarMessage(`$(check) Read ${units} of "${r.name}" into a new fleet list; save it to keep it`, 8000);
      return doc;
    } catch (e) {
      await reportFailure(ctx, 'Could not read the roster', e);
      return undefined;
    }
  };
}
