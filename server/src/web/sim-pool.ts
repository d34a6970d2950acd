/**
 * In place of ../node/sim-pool.ts in the browser version (esbuild.mjs `webSwaps`): no worker
 * threads, so `workerFile()` is undefined and the LSP layer reads a pasted roster on its own thread
 * (../lsp/roster.ts `importHere`), as it does when the sources run without a build. The simulations
 * have their own web workers (./pool.ts).
 */
export function workerFile(): string | undefined {
  return undefined;
}

export function cores(): number {
  return 1;
}

export class SimPool {
  constructor(_threads: number, _file: string, _o: object = {}) {
    throw new Error('No worker threads in the browser.');
  }
  run<T>(_task: unknown, _signal?: AbortSignal): Promise<T> {
    return Promise.reject(new Error('No worker threads in the browser.'));
  }
}
