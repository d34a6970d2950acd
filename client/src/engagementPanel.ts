/**
 * Hosts the engagement view: a webview panel per attacker/defender pair that asks the server for
 * `fabledStar/simulate` and posts the result to the view (client/webview, another module's code).
 * Every message from the view is checked with the shared parser before it is acted on; the view
 * can only ask for a rerun with options inside the parser's bounds.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { SimulateRequest, sameSelector, type CardName, type SimulateResult } from '../../protocol';
import type { EngagementOptions, SimulationResult } from '../../protocol/simulation';
import { renderWebviewHtml } from '../webview/html';
import { parseSimulationResult, parseViewMessage, type HostMessage } from '../webview/messages';
import { simulationOptions } from './config';
import type { Ctx } from './ctx';

export const VIEW_TYPE = 'fabledStar.engagement';

function title(attacker: string, defender: string): string {
  return `Engagement: ${attacker} vs ${defender}`;
}

class EngagementPanel implements vscode.Disposable {
  private result: SimulationResult | undefined;
  /** Both cards' points estimates from the last run (shown beside their points). */
  private estimates: SimulateResult['pointsEstimate'];
  /** Options the user chose in the view; they override the settings for this panel. */
  private viewOptions: EngagementOptions = {};
  private pending: vscode.CancellationTokenSource | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  constructor(
    private readonly ctx: Ctx,
    readonly panel: vscode.WebviewPanel,
    readonly attacker: CardName,
    readonly defender: CardName,
    restored: SimulationResult | undefined,
    private readonly onDispose: (p: EngagementPanel) => void,
  ) {
    this.result = restored;
    if (restored) this.viewOptions = { ...restored.options };
    panel.title = title(attacker.name, defender.name);
    panel.iconPath = vscode.Uri.joinPath(ctx.extension.extensionUri, 'icons', 'fabled-fleet.svg');
    panel.webview.options = webviewOptions(ctx.extension.extensionUri);
    panel.webview.html = html(panel.webview, ctx.extension.extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  private receive(raw: unknown): void {
    const message = parseViewMessage(raw);
    if (!message) {
      // The view is our own code, so a bad message is a bug or an injected script: never act on it.
      this.ctx.log.warn(`Ignored a malformed message from the engagement view: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    switch (message.type) {
      case 'ready':
        // The view (re)loaded: show what we have at once, and compute when there is nothing yet.
        if (this.result) this.post({ type: 'result', result: this.result, ...(this.estimates ? { estimates: this.estimates } : {}) });
        else void this.run();
        break;
      case 'rerun':
        this.viewOptions = { ...message.options };
        void this.run();
        break;
    }
  }

  /** Asks the server for the engagement, superseding (cancelling) a run still in flight. */
  async run(): Promise<void> {
    this.pending?.cancel();
    const cts = new vscode.CancellationTokenSource();
    this.pending = cts;
    this.post({ type: 'busy' });
    const options = { ...simulationOptions(), ...this.viewOptions };
    try {
      const result = await this.ctx.request(SimulateRequest.type, { attacker: this.attacker, defender: this.defender, options }, cts.token);
      if (cts.token.isCancellationRequested || this.disposed) return;
      const { pointsEstimate, ...simulation } = result;
      this.result = simulation;
      this.estimates = pointsEstimate;
      this.panel.title = title(result.attacker, result.defender);
      this.post({ type: 'result', result: simulation, ...(pointsEstimate ? { estimates: pointsEstimate } : {}) });
    } catch (e) {
      if (cts.token.isCancellationRequested || this.disposed) return;
      const message = e instanceof Error ? e.message : String(e);
      this.ctx.log.warn(`Simulation of ${this.attacker.name} vs ${this.defender.name} failed: ${message}`);
      this.post({ type: 'error', message });
    } finally {
      if (this.pending === cts) this.pending = undefined;
      cts.dispose();
    }
  }

  private post(message: HostMessage): void {
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

/** Scripts on, and only the bundled files in dist/ loadable (no access to the workspace or the rest of the extension). */
function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
}

function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const scriptUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const styleUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.css'));
  return renderWebviewHtml(webview.cspSource, nonce, scriptUri.toString(), styleUri.toString());
}

/**
 * The state the view keeps with `setState`, as it comes back after a reload: the last result,
 * either as the state itself or under `result`. Parsed like any message, since it round-trips
 * through the view.
 */
function restoredResult(state: unknown): SimulationResult | undefined {
  const direct = parseSimulationResult(state);
  if (direct) return direct;
  if (typeof state === 'object' && state !== null && 'result' in state) {
    return parseSimulationResult((state as { result: unknown }).result);
  }
  return undefined;
}

export class EngagementPanels implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private readonly panels = new Set<EngagementPanel>();

  constructor(private readonly ctx: Ctx) {}

  /** Opens (or brings to front and reruns) the panel for this pair. */
  open(attacker: CardName, defender: CardName): void {
    for (const p of this.panels) {
      if (sameSelector(p.attacker, attacker) && sameSelector(p.defender, defender)) {
        p.panel.reveal();
        void p.run();
        return;
      }
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      title(attacker.name, defender.name),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      webviewOptions(this.ctx.extension.extensionUri),
    );
    this.panels.add(new EngagementPanel(this.ctx, panel, attacker, defender, undefined, (p) => this.panels.delete(p)));
  }

  /** Restores a panel after a window reload from the result the view saved. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const result = restoredResult(state);
    if (!result) {
      // Nothing usable to restore (an older view version, or a panel closed before its first result).
      panel.dispose();
      return;
    }
    const p = new EngagementPanel(this.ctx, panel, { name: result.attacker }, { name: result.defender }, result, (x) => this.panels.delete(x));
    this.panels.add(p);
  }

  dispose(): void {
    for (const p of [...this.panels]) p.dispose();
  }
}
