/**
 * The Fabled Star language server for a browser (dist/web/server.js): a web worker spoken to over
 * postMessage, as VS Code for the web (vscode.dev, github.dev) starts it for the browser client
 * (client/src/web/extension.ts), or any page with `new Worker(...)`. The same LSP layer and core as
 * the desktop's server; the parts of it that need Node (reading the disk, worker threads, the live
 * odds' background process) are swapped at build time for their browser counterparts in this
 * folder (esbuild.mjs `webSwaps`), and no bundle under dist/web imports a Node module (a test
 * reads them).
 */
import './immediate';
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures, type Message } from 'vscode-languageserver/browser';
import { startServer } from '../lsp/index';
import { normaliseUris } from '../lsp/uri';
import { useSimWorker } from './runners';

// The worker's global scope: it posts and hears messages as a Worker does (the DOM library has no worker scope type).
const scope = self as unknown as Worker;
const reader = new BrowserMessageReader(scope);
const writer = new BrowserMessageWriter(scope);
// Every uri in one spelling, as the desktop's connection has them (../lsp/uri.ts).
const connection = createConnection(ProposedFeatures.all, reader, writer, {
  messageStrategy: {
    handleMessage(message: Message, next: (m: Message) => void) {
      const m = message as Message & { method?: string; params?: { initializationOptions?: { simWorker?: unknown } } };
      // Where the simulation worker is, as the client says (a worker started from a blob: URL cannot find it beside itself).
      if (m.method === 'initialize') useSimWorker(m.params?.initializationOptions?.simWorker);
      if ('params' in m) m.params = normaliseUris(m.params);
      next(message);
    },
  },
});
const describe = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));
// A bug in one request must not end the session: log it and keep serving.
scope.addEventListener('error', (e) => connection.console.error(`Unexpected error: ${describe(e.error ?? e.message)}`));
scope.addEventListener('unhandledrejection', (e) => connection.console.error(`Unexpected rejection: ${describe((e as PromiseRejectionEvent).reason)}`));
startServer(connection);
