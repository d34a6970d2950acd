/**
 * The few parts of the `vscode` module the panel host (client/src/viewPanel.ts) uses, recorded so
 * that a test can drive a panel without an extension host: webview panels that keep what they are
 * given and what they post, URIs, cancellation. `useFakeVscode()` makes `require('vscode')` load it.
 */
import Module from 'node:module';

export class Uri {
  constructor(readonly path: string) {}
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri([base.path, ...parts].join('/'));
  }
  toString(): string {
    return `fake:${this.path}`;
  }
}

export class CancellationTokenSource {
  readonly token = { isCancellationRequested: false };
  cancel(): void {
    this.token.isCancellationRequested = true;
  }
  dispose(): void {}
}

export const ViewColumn = { Beside: -2 };

type Listener = (x: unknown) => void;

export class FakePanel {
  title = '';
  iconPath: unknown;
  revealed = 0;
  disposed = false;
  readonly posted: unknown[] = [];
  private messageListener: Listener | undefined;
  private disposeListener: (() => void) | undefined;
  readonly webview = {
    options: {} as unknown,
    html: '',
    cspSource: 'fake-csp',
    asWebviewUri: (u: Uri) => u,
    postMessage: async (m: unknown) => {
      this.posted.push(m);
      return true;
    },
    onDidReceiveMessage: (cb: Listener) => {
      this.messageListener = cb;
      return { dispose: () => (this.messageListener = undefined) };
    },
  };
  constructor(
    readonly viewType = '',
    title = '',
  ) {
    this.title = title;
  }
  onDidDispose(cb: () => void) {
    this.disposeListener = cb;
    return { dispose: () => (this.disposeListener = undefined) };
  }
  reveal(): void {
    this.revealed++;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeListener?.();
  }
  /** A message from the view, as VS Code would deliver it. */
  fromView(m: unknown): void {
    this.messageListener?.(m);
  }
}

export const created: FakePanel[] = [];

export const window = {
  createWebviewPanel(viewType: string, title: string) {
    const p = new FakePanel(viewType, title);
    created.push(p);
    return p;
  },
};

let installed = false;

/** From now on `require('vscode')` gives this module. */
export function useFakeVscode(): void {
  if (installed) return;
  installed = true;
  const m = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = m._resolveFilename;
  m._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? __filename : resolve.call(this, request, ...rest);
  };
}
