/**
 * Serves the examples workspace in code-server with this checkout's extension loaded in
 * development mode, for poking at the extension by hand (or from a Playwright REPL):
 *
 *   node esbuild.mjs && node --import=tsx scripts/e2e-serve.ts [FOLDER]
 *
 * It prints the URL and keeps running until Ctrl+C. Needs scripts/setup-code-server.sh first.
 */
import { resolve } from 'node:path';
import { makeSandbox, removeSandbox, requireCodeServer, startCodeServer } from '../test/e2e/codeServer';
import { devUrl, E2E_SETTINGS } from '../test/e2e/fixture';

async function main(): Promise<void> {
  requireCodeServer();
  const source = resolve(process.argv[2] ?? 'examples');
  const sandbox = makeSandbox(source, E2E_SETTINGS);
  const server = await startCodeServer(sandbox, ['enable-smoke-test-driver']);
  console.log(`code-server: ${devUrl(server, resolve('.'))}`);
  console.log(`workspace copy: ${sandbox.folder}`);
  const stop = async (): Promise<void> => {
    await server.stop();
    removeSandbox(sandbox);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main();
