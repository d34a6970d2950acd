/**
 * The connection to the client, and what every incoming message goes through before a handler
 * sees it:
 *
 * - the life cycle the LSP specification asks for: a request before `initialize` is answered with
 *   ServerNotInitialized (-32002), a request after `shutdown` with InvalidRequest (-32600), and
 *   notifications at those times are dropped (except `exit`);
 * - every `uri` in the parameters in one spelling (see ./uri), so that the same file opened by
 *   Neovim (`(copy)`) and listed from disk (`%28copy%29`) is one document;
 * - over stdio, a frame that cannot be read (a bad or missing Content-Length, a body that is not
 *   JSON, a message that never ends) is logged and ends the process with a failure. The stream is
 *   out of step from then on: the server would stay alive and deaf, while a client restarts a
 *   server that exits.
 */
import {
  createConnection,
  ErrorCodes,
  LSPErrorCodes,
  ProposedFeatures,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type Connection,
  type Message,
  type MessageStrategy,
} from 'vscode-languageserver/node';
import { normaliseUris } from './uri';

/** The method a refused request is turned into: its handler answers with the error it carries. */
const REFUSED = 'fabledStar/$refused';

/** How long a frame may stay incomplete with nothing more arriving before the stream is given up. */
export const STUCK_FRAME_MS = 10_000;

interface Lifecycle {
  initialized: boolean;
  shutdown: boolean;
}

function isRequest(m: Message): m is Message & { id: number | string | null; method: string; params?: unknown } {
  const r = m as { id?: unknown; method?: unknown };
  return typeof r.method === 'string' && r.id !== undefined;
}

function isNotification(m: Message): m is Message & { method: string; params?: unknown } {
  const r = m as { id?: unknown; method?: unknown };
  return typeof r.method === 'string' && r.id === undefined;
}

function strategy(life: Lifecycle, onMessage: () => void): MessageStrategy {
  return {
    handleMessage(message: Message, next: (m: Message) => ReturnType<MessageStrategy['handleMessage']>): ReturnType<MessageStrategy['handleMessage']> {
      onMessage();
      const m = message as Message & { method?: string; params?: unknown };
      if (isRequest(m)) {
        const refuse = (code: number, why: string) => {
          m.method = REFUSED;
          m.params = { code, message: why };
        };
        if (m.method === REFUSED) refuse(ErrorCodes.MethodNotFound, `Unhandled method ${REFUSED}`);
        else if (life.shutdown) refuse(ErrorCodes.InvalidRequest, `The server is shut down; it answers no ${m.method} request.`);
        else if (!life.initialized && m.method !== 'initialize')
          refuse(ErrorCodes.ServerNotInitialized, `The server is not initialized yet; send initialize first.`);
        else {
          if (m.method === 'initialize') life.initialized = true;
          if (m.method === 'shutdown') life.shutdown = true;
          m.params = normaliseUris(m.params);
        }
      } else if (isNotification(m)) {
        if (m.method !== 'exit' && (!life.initialized || life.shutdown)) return;
        m.params = normaliseUris(m.params);
      }
      return next(message);
    },
  };
}

/** Sends the console's output to the client's log: over stdio, stdout is the protocol. */
function patchConsole(connection: Connection): void {
  const log =
    (f: (s: string) => void) =>
    (...args: unknown[]) =>
      f(args.map(String).join(' '));
  console.log = log((s) => connection.console.log(s));
  console.info = log((s) => connection.console.info(s));
  console.warn = log((s) => connection.console.warn(s));
  console.error = log((s) => connection.console.error(s));
}

/**
 * The connection for the transport named on the command line (`--stdio`, `--node-ipc`,
 * `--socket=N`, `--pipe=NAME`), with the checks above.
 */
export function createServerConnection(argv: readonly string[] = process.argv): Connection {
  const life: Lifecycle = { initialized: false, shutdown: false };
  let connection: Connection;
  if (argv.includes('--stdio')) {
    const reader = new StreamMessageReader(process.stdin);
    const writer = new StreamMessageWriter(process.stdout);
    let stuckMs = 0;
    const options = { messageStrategy: strategy(life, () => (stuckMs = 0)) };
    connection = createConnection(ProposedFeatures.all, reader, writer, options);
    let ending = false;
    const giveUp = (why: string) => {
      if (ending) return;
      ending = true;
      const line = `Fabled Star language server: cannot read the client's messages (${why}). The stream is out of step; exiting so that the client can restart the server.`;
      process.stderr.write(`${line}\n`);
      try {
        connection.console.error(line);
      } catch {
        // The writer may be gone too.
      }
      // Let the log message out first.
      setTimeout(() => process.exit(1), 100);
    };
    reader.onError((e) => giveUp(e instanceof Error ? e.message.split('\n')[0]! : String(e)));
    reader.partialMessageTimeout = STUCK_FRAME_MS / 2;
    reader.onPartialMessage((info) => {
      stuckMs += info.waitingTime;
      if (stuckMs >= STUCK_FRAME_MS) giveUp(`a message announced by its Content-Length has not arrived in ${Math.round(stuckMs / 1000)} s`);
    });
    reader.onClose(() => process.exit(life.shutdown ? 0 : 1));
    patchConsole(connection);
  } else {
    connection = createConnection(ProposedFeatures.all, { messageStrategy: strategy(life, () => undefined) });
  }
  connection.onRequest(REFUSED, (p: { code?: number; message?: string } | undefined) => {
    throw new ResponseError(p?.code ?? LSPErrorCodes.RequestFailed, p?.message ?? 'Refused');
  });
  return connection;
}
