/**
 * The background process the live odds lens's battles run in: dist/sim-worker.js run as
 * a program (its `hostMain`), started detached, so in a session and (on Linux) a scheduling group
 * of its own at the lowest priority. A worker thread of the server, even at nice 19, spends the
 * server's group's share of a busy machine, and the edit's diagnostics waited for it; this process's
 * time is its own group's. It runs one task at a time, in parts of a millisecond or two, and
 * hears a stop between two parts (the next edit's); ending it (a hard cancel) stops a trial
 * wherever it is. It ends when idle for `idleMs`, and when the server does (its channel closes).
 *
 * It posts its progress at every slice of a run (tens of milliseconds of work on a free core). When
 * nothing comes for `stallMs` while it has a run, the server looks at it (Linux: /proc): runnable,
 * it waits for a core other work holds (at the lowest priority that is what it does on a busy
 * machine, and another process would wait alike), and the runs are told so; stopped (SIGSTOP, a
 * debugger), gone, or asleep for two bounds in a row, it is ended and another one started, which
 * plays the runs again from their start (the same seed: the same figures), and the runs are told
 * that. After `MAX_RESTARTS` restarts in a row with nothing heard, its runs fail with a sentence.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { SessionTask, SimMessage, HostReply, HostRequest, StoppedRun } from './sim-worker';
import { HOST_ENV } from './sim-worker';
import { HEAP_MB } from './sim-pool';

/** How long the background process may go without a word while it has a run (ms). */
export const STALL_MS = 5000;
/** Restarts in a row, nothing heard in between, before its runs fail. */
export const MAX_RESTARTS = 3;

/** What a run is told when its process has gone quiet: it waits for a core, or it was restarted. */
export type Stall = 'waiting' | 'restarted';

/** What /proc says of a process: its state letter, and its CPU time so far (clock ticks, all threads). */
export interface ProcessLook {
  state: string;
  cpu: number;
}

/** The process's state and CPU time (Linux), or undefined where there is no /proc or it is gone. */
export function lookAt(pid: number | undefined): ProcessLook | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid ...": the name may hold spaces and parentheses; the fields follow the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = Number(f[11]) + Number(f[12]);
    return f[0] && Number.isFinite(cpu) ? { state: f[0], cpu } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What to do about a process that said nothing for a whole bound, from how it looks now and how it
 * looked at the last bound: `wait` (runnable, or it got CPU time: it waits for a core, or a part of
 * its run is slow there), `patience` (asleep or in a disk wait for the first bound: give it one
 * more), `restart` (stopped, a zombie, asleep for two bounds without CPU time, or nothing to look at).
 */
export function stallVerdict(now: ProcessLook | undefined, before: ProcessLook | undefined): 'wait' | 'restart' | 'patience' {
  if (!now) return 'restart';
  if (now.state === 'R' || (before && now.cpu > before.cpu && !'TtZX'.includes(now.state))) return 'wait';
  if ((now.state === 'S' || now.state === 'D') && !(before && (before.state === 'S' || before.state === 'D'))) return 'patience';
  return 'restart';
}

interface HostRun {
  task: SessionTask;
  on: (m: SimMessage) => void;
  onStall?: (s: Stall) => void;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** Asked to stop: not played again by a new process (it resolves as stopped). */
  stopping?: boolean;
}

export class SimHost {
  private child: ChildProcess | undefined;
  private readonly runs = new Map<number, HostRun>();
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the process last said something while it had runs (or when it was given its first). */
  private heard = 0;
  /** How it looked at the last bound that passed in silence. */
  private looked: ProcessLook | undefined;
  /** Restarts since it last said something. */
  private restarts = 0;
  private watchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly file: string,
    private readonly idleMs = 30_000,
    private readonly stallMs = STALL_MS,
  ) {}

  /** The process's id while it runs (tests look at its scheduling group). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Runs a task (after those sent before it), `on` hearing its progress and partial results.
   * `stop()` asks it to stop at its next part (it resolves with `StoppedRun`); `signal` ends the
   * process at once (it rejects with the signal's reason). `onStall` hears when the process has
   * gone quiet (see the top of this file).
   */
  run<T>(
    task: SessionTask,
    on: (m: SimMessage) => void,
    signal?: AbortSignal,
    onStall?: (s: Stall) => void,
  ): { result: Promise<T | StoppedRun>; stop: () => void } {
    const child = this.start();
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.runs.size) this.heardNow();
    const result = new Promise<T | StoppedRun>((resolve, reject) => {
      this.runs.set(id, { task, on, ...(onStall ? { onStall } : {}), resolve: resolve as (v: unknown) => void, reject });
      signal?.addEventListener('abort', () => this.runs.has(id) && this.end(new Map([[id, signal.reason as unknown]])), { once: true });
      child.channel?.ref();
      this.send(child, { id, task });
      this.watch();
    });
    return {
      result,
      stop: () => {
        const run = this.runs.get(id);
        if (!run || !this.child) return;
        run.stopping = true;
        this.send(this.child, { stop: id });
      },
    };
  }

  private heardNow(): void {
    this.heard = performance.now();
    this.looked = undefined;
  }

  /** While there are runs: a look every quarter of the bound at whether the process said something within it. */
  private watch(): void {
    if (this.watchTimer || !this.runs.size) return;
    this.watchTimer = setTimeout(
      () => {
        this.watchTimer = undefined;
        this.check();
        this.watch();
      },
      Math.max(1, this.stallMs / 4),
    );
    this.watchTimer.unref();
  }

  private check(): void {
    const child = this.child;
    if (!child || !this.runs.size || performance.now() - this.heard < this.stallMs) return;
    const look = lookAt(child.pid);
    const verdict = stallVerdict(look, this.looked);
    // Another bound from now, whatever is done.
    this.heard = performance.now();
    this.looked = look;
    if (verdict === 'patience') return;
    if (verdict === 'wait') {
      for (const run of this.runs.values()) run.onStall?.('waiting');
      return;
    }
    this.restart(child);
  }

  /** Ends a process that stopped answering, and plays its runs again in a new one (those asked to stop end as stopped). */
  private restart(old: ChildProcess): void {
    if (++this.restarts > MAX_RESTARTS) {
      this.restarts = 0;
      this.end(new Map(), `The background simulation process stopped answering (restarted ${MAX_RESTARTS} times).`);
      return;
    }
    this.child = undefined;
    if (old.exitCode === null && old.signalCode === null) old.kill('SIGKILL');
    for (const [id, run] of [...this.runs])
      if (run.stopping) {
        this.runs.delete(id);
        run.resolve({ halted: { trials: 0 } } satisfies StoppedRun);
      }
    if (!this.runs.size) return;
    const child = this.start();
    this.heardNow();
    child.channel?.ref();
    for (const [id, run] of this.runs) {
      this.send(child, { id, task: run.task });
      run.onStall?.('restarted');
    }
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
      // A process ended for a new one may still have had messages on their way.
      if (this.child !== child) return;
      this.heardNow();
      this.restarts = 0;
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
    clearTimeout(this.watchTimer);
    this.watchTimer = undefined;
    const runs = [...this.runs];
    this.runs.clear();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const [id, run] of runs) run.reject(reasons.has(id) ? reasons.get(id) : new Error(why));
  }
}
