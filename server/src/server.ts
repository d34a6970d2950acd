/**
 * The Fabled Star language server as a program (the bin, or `node dist/server.js --stdio`; also
 * --node-ipc or --socket=N, which vscode-languageserver reads from the command line). Wiring only:
 * the LSP layer is ./lsp, the language service is ./core.
 */
import { createServerConnection } from './lsp/connection';
import { startServer } from './lsp/index';
import { settleMemory } from './lsp/memory';
import { tuneTiering } from './lsp/tiering';

// Before any work: how soon V8 optimises (see ./lsp/tiering).
tuneTiering();

const connection = createServerConnection();
const describe = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));
// A bug in one request must not end the session the user lives in: log it and keep serving.
process.on('uncaughtException', (e) => connection.console.error(`Unexpected error: ${describe(e)}`));
process.on('unhandledRejection', (e) => connection.console.error(`Unexpected rejection: ${describe(e)}`));
startServer(connection);
// After a burst of work (reading a big workspace) the heap is given back once the server is idle.
settleMemory();
