/**
 * Print Unit Cards: the card sheet of the open unit cards file, or of the open fleet as fielded
 * (`fabledStar/cardSheet`, the sheet `fabled-star cards` writes), shown in a view beside the editor.
 * VS Code cannot print from a view, so its Print button opens the sheet in the default browser
 * (a file beside the system's temporary files), which prints it at card size; Save HTML writes it
 * where the user says (in a remote window, the way to take it to a local browser).
 */
import * as vscode from 'vscode';
import { CardSheetRequest, type CardSheetData } from '../../protocol';
import { reportFailure } from './commands';
import { cardsPaper } from './config';
import type { Ctx } from './ctx';
import { nonce } from './ids';
import { printFile } from './platform';

export const CARDS_VIEW_TYPE = 'fabledStar.cards';

const LANGUAGES = new Set(['fabled-unit', 'fabled-faction', 'fabled-fleet']);

/** The sheet inside the view: its own page, with a toolbar and the one script the toolbar needs. */
export function sheetInView(sheet: CardSheetData, nonce: string): string {
  const csp = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'">`;
  const words = `${sheet.cards} ${sheet.cards === 1 ? 'card' : 'cards'}${sheet.unknown.length ? ` (${sheet.unknown.length} unknown left out)` : ''}`;
  const toolbar =
    '<div class="fs-toolbar"><button id="fs-print" type="button">Print…</button><button id="fs-save" type="button">Save HTML…</button>' +
    `<span>${words} · Print opens the sheet in your browser; print at 100% scale, no margins.</span></div>` +
    '<style>.fs-toolbar { position: sticky; top: 0; z-index: 1; display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: #f3f4f7; border-bottom: 1px solid #c9ccd6; font: 13px system-ui, sans-serif; color: #1b1d24; } .fs-toolbar button { font: inherit; padding: 3px 12px; white-space: nowrap; } @media print { .fs-toolbar { display: none; } }</style>' +
    `<script nonce="${nonce}">const vscode = acquireVsCodeApi(); for (const [id, what] of [['fs-print', 'print'], ['fs-save', 'save']]) document.getElementById(id).addEventListener('click', () => vscode.postMessage({ what }));</script>`;
  return sheet.html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, csp).replace('<body>', `<body>${toolbar}`);
}

/** The file a command names, else the active editor's Fabled Star file, else the Fleet view's fleet. */
function sheetUri(arg: unknown, fleetOfView: () => string | undefined): string | undefined {
  if (arg instanceof vscode.Uri) return arg.toString();
  if (arg && typeof arg === 'object' && 'roster' in arg && typeof (arg as { roster: { uri?: unknown } }).roster.uri === 'string')
    return (arg as { roster: { uri: string } }).roster.uri;
  const active = vscode.window.activeTextEditor?.document;
  if (active && LANGUAGES.has(active.languageId)) return active.uri.toString();
  return fleetOfView();
}

export function printCards(ctx: Ctx, fleetOfView: () => string | undefined): (arg?: unknown) => Promise<void> {
  return async (arg?: unknown) => {
    try {
      const uri = sheetUri(arg, fleetOfView);
      if (!uri) return void vscode.window.showInformationMessage('Open a unit cards file (*.unit.yaml) or a fleet list (*.fleet.yaml) first.');
      const paper = cardsPaper(vscode.Uri.parse(uri));
      const sheet = await ctx.request(CardSheetRequest.type, { uri, paper });
      if (!sheet) return void vscode.window.showInformationMessage('This is not a Fabled Star file the language server knows.');
      if (sheet.cards === 0) return void vscode.window.showInformationMessage('No unit cards in this file.');
      const panel = vscode.window.createWebviewPanel(CARDS_VIEW_TYPE, `Cards: ${sheet.title}`, vscode.ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [],
      });
      panel.webview.html = sheetInView(sheet, nonce());
      const base = (vscode.Uri.parse(uri).path.split('/').pop() ?? 'cards').replace(/\.(unit|faction|fleet)\.ya?ml$/i, '');
      panel.webview.onDidReceiveMessage(async (m: { what?: unknown }) => {
        try {
          const bytes = new TextEncoder().encode(sheet.html);
          if (m?.what === 'print') {
            const file = printFile(`fabled-star-${base.replace(/[^\w.-]+/g, '_')}.cards.html`);
            if (!file) return void vscode.window.showInformationMessage('Save the sheet and open it in a browser to print it.');
            await vscode.workspace.fs.writeFile(file, bytes);
            if (!(await vscode.env.openExternal(file))) void vscode.window.showWarningMessage(`Open ${file.fsPath} in a browser to print it.`);
          } else if (m?.what === 'save') {
            const target = await vscode.window.showSaveDialog({
              title: 'Save Unit Cards',
              defaultUri: vscode.Uri.joinPath(vscode.Uri.parse(uri), '..', `${base}.cards.html`),
              filters: { HTML: ['html'] },
            });
            if (target) await vscode.workspace.fs.writeFile(target, bytes);
          }
        } catch (e) {
          await reportFailure(ctx, 'Could not open the card sheet', e);
        }
      });
      if (sheet.unknown.length) void vscode.window.showWarningMessage(`No card named ${sheet.unknown.map((n) => `"${n}"`).join(', ')}: left out of the sheet.`);
    } catch (e) {
      await reportFailure(ctx, 'Could not make the card sheet', e);
    }
  };
}
