/**
 * The simulation runners of Node hosts (core/sim/runner.ts `SimRunner`): `poolRunner` on worker
 * threads (the CLI's, with this thread playing chunks too; the server's requests'), `hostRunner` in
 * the background process (the live odds lens's), and `serverRunner`, the language server's: its
 * background duels and battles in that process, everything else on its threads, nothing on its own
 * thread (in this thread only when the worker bundle is missing: the sources run before a build).
 */
import { MessageChannel } from 'node:worker_threads';
import {
  battlesInChunks,
  FabledService,
  inProcessRunner,
  SimCancelled,
  type SimMessage,
  type SimOutput,
  type SimPriority,
  type SimRunner,
  type SimTask,
  type SimToken,
} from '../core/service';
import { SimHost, type Stall } from './sim-host';
import { cores, SimPool, workerFile } from './sim-pool';
import type { StoppedRun } from './sim-worker';

type ChunkTask = Extract<SimTask, { kind: 'chunk' }>;
type SessionTask = Extract<SimTask, { sliceOps: number }>;

/** A runner that can be closed (its threads or process ended). */
export interface ClosableRunner extends SimRunner {
  close(): Promise<void>;
}

const signalOf = FabledService.signalOf;

/** A rejection caused by a cancel, as SimCancelled. */
function cancelled(e: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted ? (signal.reason instanceof SimCancelled ? signal.reason : new SimCancelled()) : e;
}

/** What a soft-stopped run returned, as the rejection the port promises. */
function unlessHalted<T>(r: T | StoppedRun): T {
  if (r && typeof r === 'object' && 'halted' in r) throw new SimCancelled(r.halted.trials);
  return r;
}

/**
 * A runner on `pool`'s threads. A chunk goes through the pool's executor (with `here`, this thread
 * plays chunks too: the CLI's); a session task reports on a port of its own; a `background` session
 * is stopped by a flag it reads every millisecond or two, which keeps its thread (the live lens is
 * cancelled at every edit), a `request` by ending its thread, wherever its trial is.
 */
export function poolRunner(pool: SimPool, o: { here?: (task: ChunkTask) => SimOutput<ChunkTask>; lanes?: number } = {}): ClosableRunner {
  const chunks = pool.executor(o.here);
  const session = async (task: SessionTask, priority: SimPriority, progress?: (m: SimMessage) => void, signal?: AbortSignal) => {
    const stop = priority === 'background' ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
    const channel = new MessageChannel();
    channel.port1.on('message', (m: SimMessage) => progress?.(m));
    const onAbort = () => stop && Atomics.store(stop, 0, 1);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const run = pool.run<unknown>({ ...task, port: channel.port2, ...(stop ? { stop } : {}) }, stop ? undefined : signal, [channel.port2]);
      return unlessHalted(await run);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      channel.port1.close();
    }
  };
  return {
    threads: o.lanes ?? pool.threads,
    async run<T extends SimTask>(task: T, priority: SimPriority, progress?: (m: SimMessage) => void, token?: SimToken): Promise<SimOutput<T>> {
      const { signal, dispose } = signalOf(token);
      try {
        if (signal?.aborted) throw new SimCancelled();
        if (task.kind === 'chunk') return (await chunks(task, signal)) as SimOutput<T>;
        if (task.kind === 'price') return await pool.run<SimOutput<T>>(task, signal);
        return (await session(task, priority, progress, signal)) as SimOutput<T>;
      } catch (e) {
        throw cancelled(e, signal);
      } finally {
        dispose();
      }
    },
    close: () => pool.close(),
  };
}

/** A runner in the background process (session tasks; the others on `rest`): a cancel asks the run to stop at its next part. */
export function hostRunner(
  host: SimHost,
  rest: SimRunner,
): SimRunner & {
  run<T extends SimTask>(
    task: T,
    priority: SimPriority,
    progress?: (m: SimMessage) => void,
    token?: SimToken,
    onStall?: (s: Stall) => void,
  ): Promise<SimOutput<T>>;
} {
  return {
    threads: 1,
    async run<T extends SimTask>(task: T, priority: SimPriority, progress?: (m: SimMessage) => void, token?: SimToken, onStall?: (s: Stall) => void) {
      if (task.kind !== 'battle' && task.kind !== 'simulate') return rest.run(task, priority, progress, token);
      if (token?.isCancellationRequested) throw new SimCancelled();
      const run = host.run<SimOutput<T>>(task, (m) => progress?.(m), undefined, onStall);
      const listening = token?.onCancellationRequested(run.stop);
      try {
        return unlessHalted(await run.result);
      } finally {
        listening?.dispose();
      }
    },
  };
}

/** The language server's simulation threads: the machine's cores but one (at least one), so that its own thread keeps a core. */
export function serverThreads(): number {
  return Math.max(1, cores() - 1);
}

/** The thread count `fabledStar.simulation.threads` asks for: 0 (or nonsense), chosen from the machine (`serverThreads`); else that many. */
export function threadsSetting(setting: number): number {
  return Number.isInteger(setting) && setting > 0 ? setting : serverThreads();
}

/** The server's runner, with what the lens needs beyond the port (hearing that the background process went quiet). */
export interface ServerRunner extends ClosableRunner {
  run<T extends SimTask>(
    task: T,
    priority: SimPriority,
    progress?: (m: SimMessage) => void,
    token?: SimToken,
    onStall?: (s: Stall) => void,
  ): Promise<SimOutput<T>>;
  /** The background process's id while it runs. */
  readonly hostPid: number | undefined;
  /** The worker threads the simulations run on (`fabledStar.simulation.threads`). */
  readonly threads: number;
  /**
   * Runs the simulations started from now on `threads` threads (at least 1): the pool of another
   * count is retired, closed once the simulations it runs have ended (none is cut short).
   */
  setThreads(threads: number): void;
}

/** A pool's runner that counts the simulations it runs, so that a retired one closes when the last ends. */
interface CountedPool {
  runner: ClosableRunner;
  threads: number;
  running: number;
  retired: boolean;
}

/**
 * The language server's runner: `background` battles and duels (the live lens) in the background
 * process, the rest on `threads` worker threads below the server's priority, started on first use
 * and kept warm (a thread's first battle pays the engine's warm-up). Nothing on the server's thread,
 * but without the worker bundle.
 */
export function serverRunner(threads = serverThreads(), file = workerFile()): ServerRunner {
  if (!file) {
    const here = inProcessRunner();
    return { threads: 1, run: (t, p, g, k) => here.run(t, p, g, k), close: async () => undefined, hostPid: undefined, setThreads: () => undefined };
  }
  let count = Math.max(1, Math.floor(threads));
  let pool: CountedPool | undefined;
  let host: SimHost | undefined;
  /** Pools of an earlier count still running simulations. */
  const retired = new Set<CountedPool>();
  const retire = (p: CountedPool) => {
    p.retired = true;
    if (p.running === 0) void p.runner.close();
    else retired.add(p);
  };
  const current = (): CountedPool => {
    if (!pool) {
      const made = new SimPool(count, file, { background: true, eager: true });
      pool = { runner: poolRunner(made), threads: count, running: 0, retired: false };
    }
    return pool;
  };
  /** The current pool as a runner, each simulation counted while it runs on it. */
  const onThreads = (): SimRunner => {
    const p = current();
    return {
      threads: p.threads,
      run: async (task, priority, progress, token) => {
        p.running++;
        try {
          return await p.runner.run(task, priority, progress, token);
        } finally {
          p.running--;
          if (p.retired && p.running === 0) {
            retired.delete(p);
            void p.runner.close();
          }
        }
      },
    };
  };
  return {
    get threads() {
      return count;
    },
    setThreads(n) {
      const next = Math.max(1, Math.floor(n));
      if (next === count) return;
      count = next;
      if (pool) retire(pool);
      pool = undefined;
    },
    run(task, priority, progress, token, onStall) {
      // A player's battle on every thread (in chunks of trials), the rest on one.
      if (priority !== 'background' || (task.kind !== 'battle' && task.kind !== 'simulate'))
        return battlesInChunks(onThreads()).run(task, priority, progress, token);
      return hostRunner((host ??= new SimHost(file)), onThreads()).run(task, priority, progress, token, onStall);
    },
    get hostPid() {
      return host?.pid;
    },
    async close() {
      await pool?.runner.close();
      for (const p of retired) await p.runner.close();
      retired.clear();
      await host?.close();
      pool = undefined;
      host = undefined;
    },
  };
}
