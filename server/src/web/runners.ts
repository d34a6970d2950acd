/**
 * The browser version's simulation runner, in place of ../node/runners.ts (the web build swaps one
 * for the other: esbuild.mjs `webSwaps`), with the exports the LSP layer uses. Every task (a
 * battle, a duel, a chunk, a pricing battle) goes to a web worker (dist/web/sim-worker.js, fetched
 * beside this bundle), which plays it with the core's own runner (core/sim/run-here.ts), so a battle
 * gives the desktop's and the CLI's figures for the same seed. A page without cross-origin isolation
 * has no SharedArrayBuffer, so a cancelled task ends its worker. Where no worker can be started, the
 * task runs on this thread a slice at a time between turns (the core's in-process runner).
 */
import { inProcessRunner, SimCancelled, type SimMessage, type SimOutput, type SimPriority, type SimRunner, type SimTask, type SimToken } from '../core/service';
import type { Stall } from '../node/sim-host';

/** Workers for the simulations: the browser's cores but one (at least one, at most four). */
export function serverThreads(): number {
  const n = typeof navigator !== 'undefined' && typeof navigator.hardwareConcurrency === 'number' ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, n - 1));
}

/** Where the client said the simulation worker is (`initializationOptions.simWorker`), once it has. */
let toldUrl: string | undefined;

/** The simulation worker's address, as the client gives it when the server starts (./server.ts). */
export function useSimWorker(url: unknown): void {
  if (typeof url === 'string' && url) toldUrl = url;
}

/**
 * Where the simulation worker is: where the client said, else beside this bundle (a worker's
 * `location` is its script's URL, unless it was started from a blob: URL, as a web extension host does).
 */
export function simWorkerUrl(): string | undefined {
  if (toldUrl) return toldUrl;
  try {
    return new URL('sim-worker.js', (self as unknown as { location: { href: string } }).location.href).href;
  } catch {
    return undefined;
  }
}

/**
 * A worker running the script at `url`. A worker's script must come from its creator's origin; a
 * server started from a blob: URL (a web extension host's) or served from elsewhere starts one from
 * a blob that loads the script with importScripts, which may cross origins.
 */
function startWorker(url: string): Worker {
  const here = (self as unknown as { location?: { origin?: string } }).location?.origin;
  let sameOrigin = false;
  try {
    sameOrigin = here !== undefined && here !== 'null' && new URL(url).origin === here;
  } catch {
    sameOrigin = false;
  }
  if (sameOrigin) return new Worker(url);
  const loader = URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(url)});`], { type: 'text/javascript' }));
  return new Worker(loader);
}

/** The server's runner, as ../node/runners.ts declares it (no background process here: `hostPid` is never set). */
export interface ServerRunner extends SimRunner {
  run<T extends SimTask>(
    task: T,
    priority: SimPriority,
    progress?: (m: SimMessage) => void,
    token?: SimToken,
    onStall?: (s: Stall) => void,
  ): Promise<SimOutput<T>>;
  readonly hostPid: number | undefined;
  /** The simulations at most at a time, each on a worker of its own (`fabledStar.simulation.threads`). */
  readonly threads: number;
  /** Runs the simulations started from now on at most `threads` workers at a time. */
  setThreads(threads: number): void;
  close(): Promise<void>;
}

/** The workers `fabledStar.simulation.threads` asks for: 0 (or nonsense), chosen from the browser (`serverThreads`); else that many. */
export function threadsSetting(setting: number): number {
  return Number.isInteger(setting) && setting > 0 ? setting : serverThreads();
}

type Reply = { m: SimMessage } | { result: unknown } | { error: string };

export function serverRunner(threads = serverThreads(), file?: string): ServerRunner {
  let count = Math.max(1, Math.floor(threads));
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  let noWorkers = typeof Worker !== 'function';
  const here = inProcessRunner();
  const worker = (): Worker | undefined => {
    const free = idle.pop();
    if (free) return free;
    const url = file ?? simWorkerUrl();
    if (noWorkers || !url) return undefined;
    try {
      return startWorker(url);
    } catch {
      noWorkers = true;
      return undefined;
    }
  };
  const onWorker = (w: Worker, task: SimTask, progress?: (m: SimMessage) => void, token?: SimToken): Promise<unknown> =>
    new Promise((resolve, reject) => {
      busy.add(w);
      const listening: { dispose?: () => void } = {};
      const finish = (keep: boolean) => {
        listening.dispose?.();
        busy.delete(w);
        w.onmessage = null;
        w.onerror = null;
        if (keep) idle.push(w);
        else w.terminate();
      };
      w.onmessage = (e: MessageEvent<Reply>) => {
        const r = e.data;
        if ('m' in r) progress?.(r.m);
        else if ('result' in r) {
          finish(true);
          resolve(r.result);
        } else {
          finish(true);
          reject(new Error(r.error));
        }
      };
      w.onerror = (e: ErrorEvent) => {
        e.preventDefault?.();
        finish(false);
        // A worker that cannot load (a file missing, a page refusing workers): run here from now on.
        noWorkers = true;
        here.run(task, 'request', progress, token).then(resolve, reject);
      };
      const cancel = () => {
        finish(false);
        reject(new SimCancelled());
      };
      const heard = token?.onCancellationRequested(cancel);
      listening.dispose = () => heard?.dispose();
      if (token?.isCancellationRequested) return cancel();
      w.postMessage({ task });
    });
  return {
    get threads() {
      return count;
    },
    setThreads(n) {
      count = Math.max(1, Math.floor(n));
    },
    hostPid: undefined,
    run<T extends SimTask>(task: T, priority: SimPriority, progress?: (m: SimMessage) => void, token?: SimToken): Promise<SimOutput<T>> {
      const w = worker();
      return (w ? onWorker(w, task, progress, token) : here.run(task, priority, progress, token)) as Promise<SimOutput<T>>;
    },
    async close() {
      for (const w of [...idle.splice(0), ...busy]) w.terminate();
      busy.clear();
    },
  };
}
