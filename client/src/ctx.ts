/**
 * The context every command and view works through: the language client (which may be stopped,
 * starting, or given up on after repeated crashes), the log, and the extension's resources.
 * Commands never hold the client themselves, so a restart is invisible to them.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  type LanguageClientOptions,
} from 'vscode-languageclient/node';
import type { ProgressType, RequestParam, RequestType } from 'vscode-languageclient';
import { FleetSummaryChangedNotification, SETTINGS_SECTION } from '../../protocol';
import { CrashBudget } from './crashBudget';
import { linkHere } from './codePages';
import { afterStart, documentSelector, initializationOptions, serverOptions } from './platform';

export const CLIENT_ID = 'fabledStar';
export const CLIENT_NAME = 'Fabled Star';
export const LANGUAGE_IDS = ['fabled-unit', 'fabled-faction', 'fabled-fleet', 'fabled-collection'] as const;
export type LanguageId = (typeof LANGUAGE_IDS)[number];

export function isFabledDocument(doc: vscode.TextDocument | undefined): boolean {
  return !!doc && (LANGUAGE_IDS as readonly string[]).includes(doc.languageId);
}

/** How long a request made while the server starts waits for it before it says the server is not running. */
export const STARTING_WAIT_MS = 20_000;

export class ServerNotRunningError extends Error {
  constructor() {
    super('The Fabled Star language server is not running.');
  }
}

export class Ctx implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly crashes = new CrashBudget();
  /**
   * Whether the current client's server answered `initialize`. A server that dies before that did
   * not crash, it failed to start: restarting it would fail the same way, so start() reports it.
   */
  private initialized = false;
  /** A start() is under way (the first, a restart the user asked for, or one after a crash). */
  private starting = false;
  private readonly stateEmitter = new vscode.EventEmitter<State>();
  /** Fires when the server starts, stops or restarts, so views can refresh. */
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly fleetEmitter = new vscode.EventEmitter<string>();
  /** Fires with a fleet's uri when the server says its points summary may have changed. */
  readonly onFleetSummaryChanged = this.fleetEmitter.event;
  /** Listeners on the current client, dropped with it. */
  private clientDisposables: vscode.Disposable[] = [];

  constructor(
    readonly extension: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {}

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  private readonly readyEmitter = new vscode.EventEmitter<void>();

  /**
   * Settles once the server runs with every feature registered (at once when it does): true then;
   * false when a start under way fails, or after `timeoutMs` without one. A command that opens a file and asks for completion right
   * after the extension activated would otherwise find no completion provider yet.
   */
  whenReady(timeoutMs = 20_000): Promise<boolean> {
    if (this.initialized && this.running) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        sub.dispose();
        clearTimeout(timer);
        resolve(ready);
      };
      const sub = this.readyEmitter.event(() => done(this.initialized && this.running));
      const timer = setTimeout(() => done(this.initialized && this.running), timeoutMs);
    });
  }

  /** Starts the server; resolves when it answered `initialize`, rejects when it could not start. */
  async start(): Promise<void> {
    if (this.client) return;
    this.starting = true;
    try {
      await this.startClient();
    } finally {
      this.starting = false;
      // Settles whoever waits (whenReady): with the server running, or not after all.
      this.readyEmitter.fire();
    }
  }

  private async startClient(): Promise<void> {
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(LANGUAGE_IDS),
      synchronize: {
        // The server pulls settings (workspace/configuration) but only hears that they changed
        // through didChangeConfiguration, which the client sends for a section it is told about.
        // (File changes need nothing here: the server registers its own file watcher.)
        configurationSection: SETTINGS_SECTION,
      },
      // Pulled diagnostics follow edits and saves; the server debounces and cancels stale pulls.
      diagnosticPullOptions: { onChange: true, onSave: true },
      outputChannel: this.log,
      errorHandler: this.errorHandler(() => client),
      // Our error handler tells the user once per crash; the client's own popups would repeat it.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: initializationOptions(this.extension.extensionUri),
      // A problem's code opens its page from the package, inside the editor (codePages.ts).
      middleware: {
        handleDiagnostics: (uri, diagnostics, next) =>
          next(
            uri,
            diagnostics.map((d) => linkHere(this.extension.extension.id, d)),
          ),
        provideDiagnostics: async (document, previousResultId, token, next) => {
          const report = await next(document, previousResultId, token);
          if (report && 'items' in report) report.items = report.items.map((d) => linkHere(this.extension.extension.id, d));
          return report;
        },
      },
    };
    const client: LanguageClient = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(this.extension.extensionUri), clientOptions);
    this.client = client;
    this.initialized = false;
    this.clientDisposables.push(
      client.onDidChangeState((e) => this.stateEmitter.fire(e.newState)),
      client.onNotification(FleetSummaryChangedNotification.type, (p) => {
        if (typeof p?.uri === 'string') this.fleetEmitter.fire(p.uri);
      }),
    );
    try {
      await client.start();
      this.initialized = true;
      const started = afterStart(client, this.log);
      if (started) this.clientDisposables.push(started);
    } catch (e) {
      // Leave no half-started client behind, so that a later start() or restart() begins afresh.
      await this.stop();
      throw e;
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    for (const d of this.clientDisposables) d.dispose();
    this.clientDisposables = [];
    if (client) {
      // After a failed start or a crash we gave up on there is no server to stop, only the client to drop.
      const wasRunning = client.needsStop();
      await client.dispose(2000).catch((e: unknown) => {
        if (wasRunning) this.log.warn(`Stopping the server failed: ${String(e)}`);
      });
    }
    this.stateEmitter.fire(State.Stopped);
  }

  /** A restart the user asked for: forget earlier crashes and start afresh. */
  async restart(): Promise<void> {
    this.crashes.reset();
    // A request made meanwhile waits for the new server (start() clears this).
    this.starting = true;
    await this.stop();
    await this.start();
  }

  /**
   * Sends a request to the server. A request made while the server is starting (just after the
   * extension activated, or while it restarts after a crash) waits for it, up to `STARTING_WAIT_MS`.
   * Throws {@link ServerNotRunningError} when it is not running and not starting, so callers can
   * say so instead of waiting forever.
   */
  async request<P, R, E>(type: RequestType<P, R, E>, params: RequestParam<P>, token?: vscode.CancellationToken): Promise<R> {
    if (!this.running && this.starting) await this.whenReady(STARTING_WAIT_MS);
    const client = this.client;
    if (!client || client.state !== State.Running) throw new ServerNotRunningError();
    return client.sendRequest(type, params, token);
  }

  /** Listens to `$/progress` on a token (work done, partial results) of the running server; undefined when it is not running. */
  onProgress<P>(type: ProgressType<P>, token: string, handler: (value: P) => void): vscode.Disposable | undefined {
    const client = this.client;
    if (!client || client.state !== State.Running) return undefined;
    return client.onProgress(type, token, handler);
  }

  /** Converts between VS Code and protocol positions (the client owns the converters). */
  get converters(): LanguageClient['code2ProtocolConverter'] | undefined {
    return this.client?.code2ProtocolConverter;
  }

  /**
   * What the language client does when its connection fails. We restart the server ourselves
   * (see `crashed`), with a new client, rather than through the client's own restart: a server that
   * dies while it starts leaves that client in a state it does not restart from, silently.
   */
  private errorHandler(client: () => LanguageClient): ErrorHandler {
    return {
      // Carry on, always: a dead server is heard as its connection closing, and the close decides.
      // Stopping on write errors instead stops it for good, without a word: messages written to a
      // process that has just died fail before its close is heard, and vscode-jsonrpc's IPC writer
      // counts each failed write twice, so the usual "more than 3 errors" rule fired at the second.
      error: (): ErrorHandlerResult => ({ action: ErrorAction.Continue, handled: true }),
      closed: (): CloseHandlerResult => {
        // Before `initialize` was answered the first time, the server did not crash, it failed to
        // start: start() reports it (a restart after a crash counts it, see `crashed`).
        //
        // The restart waits for a turn of the event loop: the client finishes with its closed
        // connection first (it is stopped then), and `crashed` replaces it.
        if (this.initialized && this.client === client()) setTimeout(() => void this.crashed(), 0);
        return { action: CloseAction.DoNotRestart, handled: true, message: 'The connection to the Fabled Star language server closed.' };
      },
    };
  }

  /** The running server died: start a new one, within the crash budget, and say so once. */
  private async crashed(): Promise<void> {
    const verdict = this.crashes.record();
    if (!verdict.restart) {
      await this.stop();
      const message = `The Fabled Star language server crashed ${verdict.crashes} times within 3 minutes and will not be restarted. Validation, hovers and simulations are off until you restart it.`;
      this.log.error(message);
      void vscode.window.showErrorMessage(message, 'Restart', 'Report Issue', 'Show Log').then((pick) => {
        if (pick === 'Restart') void vscode.commands.executeCommand('fabledStar.restartServer');
        else if (pick === 'Report Issue') void reportIssue(this.extension);
        else if (pick === 'Show Log') this.log.show(true);
      });
      return;
    }
    // A request made meanwhile waits for the new server (start() clears this).
    this.starting = true;
    await this.stop();
    try {
      await this.start();
    } catch (e) {
      // It died again while starting: that is another crash.
      this.log.warn(`The restarted server did not start: ${e instanceof Error ? e.message : String(e)}`);
      return this.crashed();
    }
    const message = `The Fabled Star language server stopped unexpectedly and was restarted (crash ${verdict.crashes} of ${verdict.limit} allowed within 3 minutes).`;
    this.log.error(message);
    void vscode.window.showWarningMessage(message, 'Show Log').then((pick) => {
      if (pick) this.log.show(true);
    });
  }

  dispose(): void {
    for (const d of this.clientDisposables) d.dispose();
    this.stateEmitter.dispose();
    this.fleetEmitter.dispose();
    this.readyEmitter.dispose();
  }
}

/** Opens VS Code's issue reporter for this extension, which attaches versions and the extension's id. */
export async function reportIssue(extension: vscode.ExtensionContext): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openIssueReporter', {
    extensionId: extension.extension.id,
  });
}
