/**
 * What a simulation worker thread runs (bundled as dist/sim-worker.js; tinypool loads it in each
 * thread of the pool, see ./sim-pool.ts): a chunk of a battle's trials for `battle --threads`
 * (core/sim/chunked.ts), or a whole battle or engagement for the language server, stepped a slice
 * at a time so that it can post its progress and partial results to the server's thread on `port`.
 * Cancelling a task ends its thread (tinypool), which stops a trial wherever it is.
 */
import { threadId, type MessagePort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { readFileSync, readlinkSync, writeFileSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
// The workers' entry of the core (not the facade, ../core/service.ts, which would load every feature in each thread).
import { importRoster, inProcessRunner } from '../core/worker';
import type { BattleResult, SimOutput, SimMessage, SimulationResult, SimTask as CoreTask, VsFieldResult } from '../core/service';

/** A roster's import (core/roster/import.ts): the cards as their summaries, the options, and what it gives. */
type ImportCards = Parameters<typeof importRoster>[1];
type ImportOptions = Parameters<typeof importRoster>[2];
type ImportResult = ReturnType<typeof importRoster>;

/**
 * A session task as a thread receives it: the core's (core/sim/runner.ts) with where it reports
 * (`port`) and a flag to stop it (`stop`).
 */
export interface SessionTask extends Extract<CoreTask, { sliceOps: number }> {
  port?: MessagePort;
  /**
   * A flag shared with the server's thread (a SharedArrayBuffer): once element 0 is set, the run
   * stops within `STOP_CHECK_OPS` of work (a millisecond or two, not the slice's tens) and returns
   * only that it stopped (`StoppedRun`). Cancelling this way keeps the thread (ending it means
   * starting another, a second of CPU on a machine of two cores), which the live odds lens,
   * cancelled at every edit, needs; and it gives the core back while the edit's diagnostics run.
   */
  stop?: Int32Array;
}

/**
 * A roster or a posted list read into a fleet list (Paste Roster as Fleet, core/roster/import.ts):
 * a paste of 200,000 lines takes seconds, which the server's thread never spends (it would answer
 * no hover meanwhile). The cards go as their summaries (`importCards`), plain data.
 */
export interface ImportTask {
  kind: 'import';
  text: string;
  cards: ImportCards;
  options: ImportOptions;
}

type ChunkTask = Extract<CoreTask, { kind: 'chunk' }>;
export type PriceTask = Extract<CoreTask, { kind: 'price' }>;
type ChunkOutcome = SimOutput<ChunkTask>;
export type SimTask = ChunkTask | SessionTask | PriceTask | ImportTask;
export type { SimMessage };

/**
 * With a stop flag: the work between two looks at it. A slice (`sliceOps`) is tens of milliseconds
 * of a 1,000-point battle (75 ms on an idle core), and the run went on that long after the edit
 * that cancelled it, beside that edit's diagnostics on a machine of two cores; this is about 1.5 ms.
 * Progress and partial results still go once a slice.
 */
export const STOP_CHECK_OPS = 20_000;

/** What a run stopped by its flag returns: no figures (nobody waits for them), only how far it got. */
export interface StoppedRun {
  halted: { trials: number };
}

/** This thread's runner: the engines it keeps between a battle's chunks, and the steps of a task. */
const here = inProcessRunner();

/** Set in a background pool's threads' environment (sim-pool.ts `SimPool`'s `background`). */
export const BACKGROUND_ENV = 'FABLED_SIM_BACKGROUND';

/**
 * How much lower a background thread's priority is (a nice value; Linux only, where a thread has its
 * own): the lowest. Nice only weighs threads of the same session (Linux groups a session's threads
 * and shares the machine between the groups), that is the server's own thread and the editor's: at
 * 10 a running battle still weighed a tenth of the server's thread, and the live odds lens's
 * battles, running at most edits on a loaded machine of two cores, slowed its diagnostics by about
 * 15% (`npm run bench -- liveOdds`); at 19, a seventieth. A thread with nothing else to run beside
 * it is as fast at either.
 */
export const BACKGROUND_NICE = 19;

/**
 * A background pool's thread (the language server's: sim-pool.ts `background`) lowers its own
 * scheduling priority, so that on a machine whose cores are all busy the server's own thread,
 * which answers the editor (diagnostics, hovers), runs first. Only on Linux, where /proc names this
 * thread and setpriority takes its id; elsewhere setpriority would lower the whole process.
 */
function lowerOwnPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, Math.max(getPriority(tid), BACKGROUND_NICE));
  } catch {
    // No /proc, or not allowed: the thread keeps its priority.
  }
}
if (process.env[BACKGROUND_ENV]) lowerOwnPriority();

function runSession(task: SessionTask): BattleResult | SimulationResult | VsFieldResult | StoppedRun {
  const port = task.port;
  const stop = task.stop;
  const slice = Math.max(1, task.sliceOps);
  // With a stop flag, a slice is run in parts, the flag read before each.
  const parts = here.parts(task, stop ? Math.min(slice, STOP_CHECK_OPS) : slice, port ? (m) => port.postMessage(m) : undefined);
  for (let r = parts.next(); ; r = parts.next()) {
    if (r.done) return r.value;
    if (stop !== undefined && Atomics.load(stop, 0) !== 0) return { halted: { trials: r.value } };
  }
}

/**
 * Set in the environment of the background process that runs this bundle as a program
 * (./sim-host.ts): the live odds lens's battles, in a process of their own so that their CPU time
 * is not the server's to account for (see `lowerOwnGroup`).
 */
export const HOST_ENV = 'FABLED_SIM_HOST';

/** What the server sends the background process: a run, or that a run is to stop. */
export type HostRequest = { id: number; task: SessionTask } | { stop: number };
/** What the background process sends back: a run's progress or partial result, its result, or why it failed. */
export type HostReply =
  { id: number; m: SimMessage } | { id: number; result: BattleResult | SimulationResult | VsFieldResult | StoppedRun } | { id: number; error: string };

/**
 * The nice of the background process's scheduling group (Linux's autogroup: see `lowerOwnGroup`).
 * It weighs the group against the other groups of a busy machine (other sessions, the editor's):
 * at 5 a third of a group at 0. Lower weighs next to nothing: at 19 (a seventieth), on a machine
 * of two cores with eight other busy groups, the lens's 4,000 battles took a minute, at 10 (a
 * ninth) 12 s. How far the group's nice is from 0 made no measurable difference to the editor's
 * diagnostics (a busy loop in a group of its own at 0, 10 or 19); being in a group apart does.
 */
export const HOST_GROUP_NICE = 5;

/**
 * The nice the background process gives its scheduling group, from the server's group (its
 * `/proc/<pid>/autogroup`, "/autogroup-N nice K"): `HOST_GROUP_NICE`, or the server's own if that
 * is already lower (a session started at a lower priority, as a CI runner's may be), so that the
 * battles never weigh more than the editor they run for.
 */
export function hostGroupNice(serverGroup: string): number {
  const m = / nice (-?\d+)\s*$/.exec(serverGroup);
  return Math.min(19, Math.max(HOST_GROUP_NICE, m ? Number(m[1]) : 0));
}

/**
 * The background process lowers the priority of its whole scheduling group. Linux shares the
 * machine between groups first (a session's processes: the editor, the server and every thread
 * of theirs), and only then between the threads of a group by their nice values: a battle on one
 * of the server's threads, even at nice 19, spent the group's share, so that on a loaded machine
 * the server's own thread waited behind other sessions' work (an edit's diagnostics took 1.2 to 2
 * times as long while the battles ran; a nice-19 busy loop in the same session took them to 1.5
 * to 2 times, one in a session of its own, at nice 0, 10 or 19, changed nothing measurable). This
 * process is in a session of its own (started detached), hence an autogroup of its own, whose nice
 * it sets; and its own nice (all there is on other systems) is the lowest.
 */
function lowerOwnGroup(): void {
  if (process.platform === 'linux')
    try {
      writeFileSync('/proc/self/autogroup', String(hostGroupNice(readFileSync(`/proc/${process.ppid}/autogroup`, 'utf8'))));
    } catch {
      // No autogroups (or not allowed): the process's nice below still applies.
    }
  try {
    setPriority(Math.max(getPriority(), BACKGROUND_NICE));
  } catch {
    // Not allowed: it keeps its priority.
  }
  // SCHED_IDLE for every thread of the process (util-linux's chrt; Node has no call for it): a
  // task of any other policy that wakes up takes the core from it at once, where a nice task only
  // waits behind it for less, up to the end of its slice.
  if (process.platform === 'linux') spawnSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5000 });
}

/** The background process: runs one task at a time, in parts, letting the server's messages in between (a stop). */
function hostMain(send: (r: HostReply) => void): void {
  lowerOwnGroup();
  const pending = new Set<number>();
  const stopped = new Set<number>();
  let chain = Promise.resolve();
  process.on('message', (m: HostRequest) => {
    if ('stop' in m) {
      if (pending.has(m.stop)) stopped.add(m.stop);
      return;
    }
    pending.add(m.id);
    chain = chain.then(async () => {
      try {
        const parts = here.parts(m.task, Math.min(Math.max(1, m.task.sliceOps), STOP_CHECK_OPS), (msg) => send({ id: m.id, m: msg }));
        for (let r = parts.next(); ; r = parts.next()) {
          if (r.done) return send({ id: m.id, result: r.value });
          // A stop sent while the last part ran arrives here.
          await new Promise((go) => setImmediate(go));
          if (stopped.has(m.id)) return send({ id: m.id, result: { halted: { trials: r.value } } });
        }
      } catch (e) {
        send({ id: m.id, error: e instanceof Error ? e.message : String(e) });
      } finally {
        pending.delete(m.id);
        stopped.delete(m.id);
      }
    });
  });
  // The server is gone (ended, or killed): so is this.
  process.on('disconnect', () => process.exit(0));
}
if (process.env[HOST_ENV] && process.send) {
  const send = process.send.bind(process);
  hostMain((r) => send(r));
}

/**
 * Set (to anything) in the environment of `fabled-star battle --threads N`: each thread writes one
 * line to stderr per chunk it plays (when it started and ended on the wall clock, in ms since the
 * epoch, and the kernels it listed), to see where a run's time goes. Off by default.
 */
export const CHUNK_LOG_ENV = 'FABLED_STAR_CHUNK_LOG';
// Written to the descriptor at once: a worker's process.stderr goes through the main thread, which
// delivers it (and, tinypool waiting for it, the chunk's answer) only between its own chunks.
const chunkLog = process.env[CHUNK_LOG_ENV] ? (line: string) => writeSync(2, `${line}\n`) : undefined;

/** Plays a chunk on `runner`'s engines (this thread's by default), with a line on stderr when CHUNK_LOG_ENV is set. */
export function loggedChunk(task: ChunkTask, runner = here): ChunkOutcome {
  if (!chunkLog) return runner.play(task);
  const t0 = performance.timeOrigin + performance.now();
  const r = runner.play(task);
  const t1 = performance.timeOrigin + performance.now();
  chunkLog(`chunk ${task.index} thread ${threadId} start ${t0.toFixed(1)} end ${t1.toFixed(1)} ms ${(t1 - t0).toFixed(1)} used ${r.used.length}`);
  return r;
}

/**
 * A chunk played in a macrotask of its own, not in the microtask tinypool's thread calls the task
 * from. A thread that holds two chunks (`battle --threads`: sim-pool.ts `tasksPerThread`) may
 * receive both in one go; started from microtasks, the first chunk's answer was posted only once
 * the second had been played too, so the thread that merges the chunks heard of it a chunk late
 * and handed out the next one late, and this thread sat idle waiting for it (a sixth of its time at
 * 200,000 trials on two threads). Node runs the microtasks between two macrotasks, so each answer
 * goes as soon as its chunk is done.
 */
function playChunkSoon(task: ChunkTask): Promise<ChunkOutcome> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(loggedChunk(task));
      } catch (e) {
        reject(e);
      }
    }),
  );
}

export default function simTask(task: SimTask): SimOutput<CoreTask> | StoppedRun | ImportResult | Promise<ChunkOutcome> {
  if (task.kind === 'price') return here.play(task);
  if (task.kind === 'import') return importRoster(task.text, task.cards, task.options);
  if (task.kind === 'chunk') return playChunkSoon(task);
  try {
    return runSession(task);
  } finally {
    task.port?.close();
  }
}
