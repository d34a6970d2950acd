/**
 * The background process the live odds lens's battles run in (issue 32): dist/sim-worker.js run as
 * a program (its `hostMain`), started detached, so in a session and (on Linux) a scheduling group
 * of its own at the lowest priority. A worker thread of the server, even at nice 19, spends the
 * server's group's share of a busy machine, and the edit's diagnostics waited for it; this process's
 * time is its own group's. It runs one task at a time, in parts of a millisecond or two, and
 * hears a stop between two parts (the next edit's); ending it (a hard cancel) stops a trial
 * wherever it is. It ends when idle for `idleMs`, and when the server does (its channel closes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { SessionTask, SimMessage, HostReply, HostRequest, StoppedRun } from './sim-worker';
import { HOST_ENV } from './sim-worker';
import { HEAP_MB } from './sim-pool';

interface HostRun {
  on: (m: SimMessage) => void;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export class SimHost {
  private child: ChildProcess | undefined;
  private readonly runs = new Map<number, HostRun>();
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly file: string,
    private readonly idleMs = 30_000,
  ) {}

  /** The process's id while it runs (tests look at its scheduling group). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Runs a task (after those sent before it), `on` hearing its progress and partial results.
   * `stop()` asks it to stop at its next part (it resolves with `StoppedRun`); `signal` ends the
   * process at once (it rejects with the signal's reason).
   */
  run<T>(task: SessionTask, on: (m: SimMessage) => void, signal?: AbortSignal): { result: Promise<T | StoppedRun>; stop: () => void } {
    const child = this.start();
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const result = new Promise<T | StoppedRun>((resolve, reject) => {
      this.runs.set(id, { on, resolve: resolve as (v: unknown) => void, reject });
      signal?.addEventListener('abort', () => this.runs.has(id) && this.end(new Map([[id, signal.reason as unknown]])), { once: true });
      child.channel?.ref();
      this.send(child, { id, task });
    });
    return {
      result,
      stop: () => {
        if (this.runs.has(id) && this.child) this.send(this.child, { stop: id });
      },
    };
  }

  /** Ends the process; the runs it had reject. */
  close(): Promise<void> {
    this.end(new Map());
    return Promise.resolve();
  }

  private send(child: ChildProcess, m: HostRequest): void {
    child.send(m, (e) => {
      if (e && this.child === child) this.end(new Map(), `The background simulation process could not be reached: ${e.message}`);
    });
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(this.file, [], {
      // A session of its own: its scheduling group is not the server's.
      detached: true,
      // Windows: no console window for it (spawn's option, which fork passes on; not in ForkOptions' type).
      ...({ windowsHide: true } as object),
      serialization: 'advanced',
      // Not the server's options (an inspector's port, a profile), only the threads' heap cap.
      execArgv: [`--max-old-space-size=${HEAP_MB}`],
      env: { ...process.env, [HOST_ENV]: '1' },
      // The server's stdout is the editor's channel: the process writes none; its errors go to the server's log.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.unref();
    // The server's end is the process's: at the lowest priority on a busy machine it could take a while to hear that its channel closed.
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    child.once('exit', () => process.off('exit', kill));
    child.on('message', (r: HostReply) => {
      const run = this.runs.get(r.id);
      if (!run) return;
      if ('m' in r) return run.on(r.m);
      this.runs.delete(r.id);
      if ('result' in r) run.resolve(r.result);
      else run.reject(new Error(r.error));
      this.idle(child);
    });
    child.on('exit', (code, sig) => {
      if (this.child === child) this.end(new Map(), `The background simulation process ended (${sig ?? `code ${code}`}).`);
    });
    child.on('error', (e) => {
      if (this.child === child) this.end(new Map(), `The background simulation process failed: ${e.message}`);
    });
    this.child = child;
    return child;
  }

  /** With no run left: the channel no longer keeps the server alive, and the process ends after `idleMs`. */
  private idle(child: ChildProcess): void {
    if (this.runs.size || this.child !== child) return;
    child.channel?.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.runs.size && this.child === child) this.end(new Map());
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** Ends the process: the runs in `reasons` reject with theirs, the others with `why`. */
  private end(reasons: Map<number, unknown>, why = 'The background simulation process was ended.'): void {
    const child = this.child;
    this.child = undefined;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const runs = [...this.runs];
    this.runs.clear();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const [id, run] of runs) run.reject(reasons.has(id) ? reasons.get(id) : new Error(why));
  }
}
