/**
 * Hosts the fleet battle view ("Battle: A vs B"): a webview panel per pair of fleet files that asks
 * the server for `fabledStar/battle` with a work-done token (progress) and a partial-result token
 * (the view fills in at once and sharpens), and cancels the request when the user presses Cancel,
 * reruns, or closes the panel. Every message from the view is checked with the shared parser.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { WorkDoneProgress, type WorkDoneProgressBegin, type WorkDoneProgressReport, type WorkDoneProgressEnd } from 'vscode-languageclient';
import { BattlePartialResult, BattleRequest } from '../../protocol';
import { renderBattleHtml } from '../webview/battle/html';
import { parseBattleResult, parseBattleViewMessage, type BattleHostMessage, type BattleOptions, type BattleResult } from '../webview/battle/messages';
import type { Ctx } from './ctx';

export const BATTLE_VIEW_TYPE = 'fabledStar.battle';

function title(a: string, b: string): string {
  return `Battle: ${a} vs ${b}`;
}

let tokens = 0;
const token = (what: string) => `fabledStar-battle-${what}-${process.pid}-${++tokens}`;

class BattlePanel implements vscode.Disposable {
  private result: BattleResult | undefined;
  private options: BattleOptions = {};
  private pending: vscode.CancellationTokenSource | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  constructor(
    private readonly ctx: Ctx,
    readonly panel: vscode.WebviewPanel,
    readonly fleet: string,
    readonly vs: string,
    restored: BattleResult | undefined,
    private readonly onDispose: (p: BattlePanel) => void,
  ) {
    this.result = restored;
    if (restored) this.options = { rounds: restored.rounds, trials: restored.trials, seed: restored.seed };
    panel.title = restored ? title(restored.sides[0].fleet, restored.sides[1].fleet) : 'Battle';
    panel.iconPath = vscode.Uri.joinPath(ctx.extension.extensionUri, 'icons', 'fabled-fleet.svg');
    panel.webview.options = webviewOptions(ctx.extension.extensionUri);
    panel.webview.html = html(panel.webview, ctx.extension.extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  private receive(raw: unknown): void {
    const message = parseBattleViewMessage(raw);
    if (!message) {
      this.ctx.log.warn(`Ignored a malformed message from the battle view: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    switch (message.type) {
      case 'ready':
        if (this.result) this.post({ type: 'result', result: this.result, partial: false });
        else void this.run();
        break;
      case 'rerun':
        this.options = { ...message.options };
        void this.run();
        break;
      case 'cancel':
        if (this.pending) {
          this.pending.cancel();
          this.post({ type: 'cancelled' });
        }
        break;
    }
  }

  /** Asks the server for the battle, superseding (cancelling) a run still in flight. */
  async run(): Promise<void> {
    this.pending?.cancel();
    const cts = new vscode.CancellationTokenSource();
    this.pending = cts;
    this.post({ type: 'busy' });
    const work = token('work');
    const partial = token('partial');
    const subs = [
      this.ctx.onProgress(WorkDoneProgress.type, work, (v: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd) => {
        if (v.kind === 'report' && typeof v.percentage === 'number' && !cts.token.isCancellationRequested) {
          const total = this.options.trials ?? 20000;
          this.post({ type: 'progress', done: Math.round((v.percentage / 100) * total), total });
        }
      }),
      this.ctx.onProgress(BattlePartialResult, partial, (r) => {
        if (cts.token.isCancellationRequested || this.disposed) return;
        const checked = parseBattleResult(r);
        if (checked) {
          this.result = checked;
          this.post({ type: 'result', result: checked, partial: true });
        }
      }),
    ];
    try {
      const result = await this.ctx.request(
        BattleRequest.type,
        { fleet: { uri: this.fleet }, vs: { uri: this.vs }, options: this.options, workDoneToken: work, partialResultToken: partial },
        cts.token,
      );
      if (cts.token.isCancellationRequested || this.disposed) return;
      this.result = result;
      this.panel.title = title(result.sides[0].fleet, result.sides[1].fleet);
      this.post({ type: 'result', result, partial: false });
    } catch (e) {
      if (cts.token.isCancellationRequested || this.disposed) return;
      const message = e instanceof Error ? e.message : String(e);
      this.ctx.log.warn(`Battle of ${this.fleet} vs ${this.vs} failed: ${message}`);
      this.post({ type: 'error', message });
    } finally {
      for (const s of subs) s?.dispose();
      if (this.pending === cts) this.pending = undefined;
      cts.dispose();
    }
  }

  private post(message: BattleHostMessage): void {
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.pending?.cancel();
    for (const d of this.disposables) d.dispose();
    this.onDispose(this);
    this.panel.dispose();
  }
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
}

function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const scriptUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'battle.js'));
  const styleUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'battle.css'));
  return renderBattleHtml(webview.cspSource, nonce, scriptUri.toString(), styleUri.toString());
}

/** The state the view saves, with the two fleets' URIs the host adds, as it comes back after a reload. */
interface SavedState {
  result?: unknown;
  fleet?: unknown;
  vs?: unknown;
}

export class BattlePanels implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private readonly panels = new Set<BattlePanel>();

  constructor(private readonly ctx: Ctx) {}

  /** Opens (or brings to front and reruns) the panel for this pair of fleet files. */
  open(fleet: vscode.Uri, vs: vscode.Uri): void {
    const a = fleet.toString();
    const b = vs.toString();
    for (const p of this.panels) {
      if (p.fleet === a && p.vs === b) {
        p.panel.reveal();
        void p.run();
        return;
      }
    }
    const panel = vscode.window.createWebviewPanel(
      BATTLE_VIEW_TYPE,
      'Battle',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      webviewOptions(this.ctx.extension.extensionUri),
    );
    this.panels.add(new BattlePanel(this.ctx, panel, a, b, undefined, (p) => this.panels.delete(p)));
    // The view keeps its result; the host keeps which files it is about, for a reload.
    void this.ctx.extension.workspaceState.update(`${BATTLE_VIEW_TYPE}:last`, { fleet: a, vs: b });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const s = (state && typeof state === 'object' ? state : {}) as SavedState;
    const last = this.ctx.extension.workspaceState.get<SavedState>(`${BATTLE_VIEW_TYPE}:last`);
    const result = parseBattleResult(s.result);
    const fleet = typeof last?.fleet === 'string' ? last.fleet : undefined;
    const vs = typeof last?.vs === 'string' ? last.vs : undefined;
    if (!result || !fleet || !vs) {
      panel.dispose();
      return;
    }
    this.panels.add(new BattlePanel(this.ctx, panel, fleet, vs, result, (x) => this.panels.delete(x)));
  }

  dispose(): void {
    for (const p of [...this.panels]) p.dispose();
  }
}
