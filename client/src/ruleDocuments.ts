/**
 * `fabledStar.showRule`: a rulebook section, as the server provides it (`fabledStar/ruleText`),
 * in a read-only `fabled-rule:` document shown as a Markdown preview. The client does not bundle the
 * rulebook; hovers and this command read the same text from the server.
 */
import * as vscode from 'vscode';
import { RuleTextRequest, type RuleTextEntry } from '../../protocol';
import { isFabledDocument, type Ctx } from './ctx';
import { rankRules, ruleLabel } from './ruleRank';

export const RULE_SCHEME = 'fabled-rule';

/** 12, "12", "§12" or "§12 Weapons" -> 12; anything else undefined. */
export function sectionNumberOf(arg: unknown): number | undefined {
  if (typeof arg === 'number') return Number.isInteger(arg) && arg > 0 ? arg : undefined;
  if (typeof arg !== 'string') return undefined;
  const m = /^\s*\u00a7?\s*(\d+)\b/.exec(arg);
  return m ? Number(m[1]) : undefined;
}

/** A file-name-safe title for the tab: "§12 Weapons & Weapon Types.md". */
function ruleUri(entry: RuleTextEntry): vscode.Uri {
  const safe = `${entry.number} ${entry.title}`
    .replace(/[\\/:*?"<>|#%]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return vscode.Uri.from({ scheme: RULE_SCHEME, path: `/§${safe}.md` });
}

export class RuleDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;

  constructor(private readonly ctx: Ctx) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RULE_SCHEME, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const n = sectionNumberOf(uri.path.replace(/^\//, ''));
    if (n === undefined) return `No rulebook section is named by ${uri.toString()}.`;
    try {
      const [entry] = await this.ctx.request(RuleTextRequest.type, { section: n }, token);
      return entry ? entry.markdown : `The rulebook has no section ${n}.`;
    } catch (e) {
      return `The rule text is not available: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** Shows section `arg` (a number, or N after a section sign); without one, asks, offering the sections the cursor's hover cites first. */
  async show(arg: unknown): Promise<void> {
    let n = sectionNumberOf(arg);
    const all = await this.ctx.request(RuleTextRequest.type, {});
    if (n === undefined) {
      const cited = await this.sectionsAtCursor();
      const item = (e: RuleTextEntry): vscode.QuickPickItem & { n: number } => ({
        label: ruleLabel(e, ''),
        description: e.category,
        detail: e.summary,
        n: e.number,
      });
      // The cursor's hover cites the defining section first: keep that order.
      const near = cited.map((c) => all.find((e) => e.number === c)).filter((e): e is RuleTextEntry => e !== undefined);
      const initial: (vscode.QuickPickItem & { n?: number })[] = near.length
        ? [
            { label: 'At the cursor', kind: vscode.QuickPickItemKind.Separator },
            ...near.map(item),
            { label: 'Rulebook', kind: vscode.QuickPickItemKind.Separator },
            ...all.map(item),
          ]
        : all.map(item);
      const picked = await new Promise<number | undefined>((resolve) => {
        const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { n?: number }>();
        qp.title = 'Fabled Star: Show Rule';
        qp.placeholder = 'Rulebook section (type a number or a word)';
        qp.matchOnDescription = true;
        qp.matchOnDetail = true;
        qp.items = initial;
        // VS Code lists items whose label matches first: a section that defines the word carries it in its label.
        qp.onDidChangeValue((v) => (qp.items = v.trim() ? rankRules(all, v).map((e) => ({ ...item(e), label: ruleLabel(e, v) })) : initial));
        qp.onDidAccept(() => {
          resolve(qp.selectedItems[0]?.n);
          qp.hide();
        });
        qp.onDidHide(() => {
          resolve(undefined);
          qp.dispose();
        });
        qp.show();
      });
      if (picked === undefined) return;
      n = picked;
    }
    const entry = all.find((e) => e.number === n);
    if (!entry) {
      void vscode.window.showWarningMessage(`The rulebook has no section ${n}.`);
      return;
    }
    const uri = ruleUri(entry);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      // Without the built-in Markdown extension (it can be disabled), the source is still readable.
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    }
  }

  /** Section numbers (12 for section 12) that the hover at the cursor cites, when the cursor is in a Fabled Star file. */
  private async sectionsAtCursor(): Promise<number[]> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !isFabledDocument(editor.document)) return [];
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, editor.selection.active);
    const text = (hovers ?? [])
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    return [...new Set([...text.matchAll(/\u00a7\s*(\d+)/g)].map((m) => Number(m[1])))];
  }

  dispose(): void {
    this.registration.dispose();
  }
}
