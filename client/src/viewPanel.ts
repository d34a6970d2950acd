/**
 * What every view panel shares (the engagement view, the fleet battle view): a webview panel with
 * the extension's icon, scripts on and only the bundled files in dist/ loadable, the view's page in
 * the shared frame with a fresh nonce, every message from the view checked with the view's own
 * parser before it is acted on (the view is our code, so a bad message is a bug or an injected
 * script), one request at a time (a new run cancels the one in flight), messages posted only while
 * the panel lives, and the set of open panels that reopens one rather than opening it twice.
 */
import * as vscode from 'vscode';
import type { Ctx } from './ctx';
import { nonce as makeNonce } from './ids';
import { fitText } from '../webview/schema';

/** A view: what its panels are registered as, its bundle in dist/, its page, and its messages' parser. */
export interface ViewKind<ViewMessage extends { type: string }> {
  /** The webview panel type (registered with a serializer for reloads). */
  viewType: string;
  /** What the log calls the view: "the battle view". */
  name: string;
  /** The bundle's file name in dist/ (`battle` for dist/battle.js and dist/battle.css). */
  bundle: string;
  /** What a panel's title calls its run: `Battle` in "Battle: A vs B". */
  title: string;
  /** The page: the frame around the view's skeleton (client/webview/frame.ts). */
  render(cspSource: string, nonce: string, scriptUri: string, styleUri: string): string;
  /** Checks a message from the view; undefined when it is malformed. */
  parse(raw: unknown): ViewMessage | undefined;
}

/** A panel's title: the view's word and the two sides, "Battle: A vs B". */
export function pairTitle<M extends { type: string }>(kind: ViewKind<M>, a: string, b: string): string {
  return `${kind.title}: ${a} vs ${b}`;
}

/** The messages every view understands from its host. */
export type CommonHostMessage = { type: 'busy' } | { type: 'error'; message: string };

/** Scripts on, and only the bundled files in dist/ loadable (no access to the workspace or the rest of the extension). */
export function viewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
}

/** The view's page for this webview: its bundle's script and style by webview URI, a fresh nonce. */
export function viewHtml<M extends { type: string }>(kind: ViewKind<M>, webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = makeNonce();
  const asset = (ext: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', `${kind.bundle}.${ext}`)).toString();
  return kind.render(webview.cspSource, nonce, asset('js'), asset('css'));
}

/**
 * A panel of a view that says `{type:'ready'}` when it (re)loads and `{type:'rerun', options}` when
 * the user asks for another run: the panel shows what it has, or runs; a rerun replaces the options.
 */
export abstract class ViewPanel<HostMessage extends { type: string }, ViewMessage extends { type: string }, Options extends object>
  implements vscode.Disposable
{
  /** The options the user chose in the view; once set, they are the whole of the options. */
  protected options: Options | undefined;
  private pending: vscode.CancellationTokenSource | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  protected disposed = false;

  constructor(
    protected readonly ctx: Ctx,
    readonly panel: vscode.WebviewPanel,
    private readonly kind: ViewKind<ViewMessage>,
    title: string,
    private readonly onDispose: () => void,
  ) {
    panel.title = title;
    panel.iconPath = vscode.Uri.joinPath(ctx.extension.extensionUri, 'icons', 'fabled-fleet.svg');
    panel.webview.options = viewOptions(ctx.extension.extensionUri);
    panel.webview.html = viewHtml(kind, panel.webview, ctx.extension.extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const message = kind.parse(raw);
        if (!message) this.ctx.log.warn(`Ignored a malformed message from the ${kind.name}: ${JSON.stringify(raw)?.slice(0, 200)}`);
        else if (message.type === 'ready') {
          // The view (re)loaded: show what we have at once, and compute when there is nothing yet.
          if (!this.replay()) void this.run();
        } else if (message.type === 'rerun' && 'options' in message) {
          this.options = { ...(message.options as Options) };
          this.rerun(message);
          void this.run();
        } else this.receive(message);
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Disposes of these with the panel. */
  protected track(...d: vscode.Disposable[]): void {
    this.disposables.push(...d);
  }

  /** Posts what the panel has to a view that (re)loaded; false when there is no result to show yet. */
  protected abstract replay(): boolean;

  /** What a checked `rerun` carries besides its options (the engagement view: the rule variants). */
  protected rerun(_message: ViewMessage): void {}

  /** A checked message from the view other than `ready` and `rerun`. */
  protected receive(_message: ViewMessage): void {}

  /** Computes the view's figures again (the panels call it when the user opens the same pair again). */
  abstract run(): Promise<void>;

  /**
   * Runs `request` as the one request in flight, cancelling the one before, after telling the view
   * it is busy. `done` gets the answer unless the run was superseded, cancelled or the panel
   * closed; a failure is logged as `what` failed and shown in the view.
   */
  protected async request<T>(what: string, request: (token: vscode.CancellationToken) => Promise<T>, done: (result: T) => void): Promise<void> {
    this.pending?.cancel();
    const cts = new vscode.CancellationTokenSource();
    this.pending = cts;
    this.post({ type: 'busy' });
    try {
      const result = await request(cts.token);
      if (cts.token.isCancellationRequested || this.disposed) return;
      done(result);
    } catch (e) {
      if (cts.token.isCancellationRequested || this.disposed) return;
      const message = e instanceof Error ? e.message : String(e);
      this.ctx.log.warn(`${what} failed: ${message}`);
      this.post({ type: 'error', message });
    } finally {
      if (this.pending === cts) this.pending = undefined;
      cts.dispose();
    }
  }

  /** Cancels the request in flight; false when there is none. */
  protected cancel(): boolean {
    if (!this.pending) return false;
    this.pending.cancel();
    return true;
  }

  protected post(message: HostMessage | CommonHostMessage): void {
    // Strings cut to what the view's parser takes, so that an overlong name does not drop the message.
    if (!this.disposed) void this.panel.webview.postMessage(fitText(message));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.pending?.cancel();
    for (const d of this.disposables) d.dispose();
    this.onDispose();
    this.panel.dispose();
  }
}

/** The open panels of one view: a pair opened again is brought to the front and run again. */
export abstract class ViewPanels<P extends ViewPanel<{ type: string }, { type: string }, object>> implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private readonly panels = new Set<P>();

  constructor(
    protected readonly ctx: Ctx,
    private readonly viewType: string,
  ) {}

  /** Brings the open panel `same` picks to the front and runs it again; false when there is none. */
  protected reopen(same: (p: P) => boolean): boolean {
    for (const p of this.panels) {
      if (!same(p)) continue;
      p.panel.reveal();
      void p.run();
      return true;
    }
    return false;
  }

  /** A new panel of this view beside the editor. */
  protected createPanel(title: string): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      this.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      viewOptions(this.ctx.extension.extensionUri),
    );
  }

  /** Keeps the panel `make` builds until it is disposed (`forget` is its onDispose). */
  protected add(make: (forget: () => void) => P): void {
    const panel: P = make(() => this.panels.delete(panel));
    this.panels.add(panel);
  }

  abstract deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void>;

  dispose(): void {
    for (const p of [...this.panels]) p.dispose();
  }
}
