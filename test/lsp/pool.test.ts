/**
 * The server's simulation queue (server/src/lsp/pool.ts) on real worker threads (dist/sim-worker.js,
 * from `npm run build`): bounded, a duplicate replaces the older request, the oldest waiting one is
 * dropped when it is full, and a cancel reaches a trial that is running; a run stopped by its flag
 * (the live odds lens's soft cancel) stops within its slice, not at its end.
 */
import { strict as assert } from 'node:assert';
import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver/node';
import { SimulationQueue } from '../../server/src/lsp/pool';
import { statSync } from 'node:fs';
import { SimPool, workerFile } from '../../server/src/node/sim-pool';
import { serverRunner, serverThreads, threadsSetting, type ServerRunner } from '../../server/src/node/runners';
import { readSettings } from '../../protocol';
import type { SessionTask, StoppedRun } from '../../server/src/node/sim-worker';
import type { BattleResult } from '../../server/src/core/sim/types';
import type { UnitProfile } from '../../server/src/core/sim/types';
import { ChunksDropped, SimCancelled, type ChunkTask } from '../../server/src/core/sim/runner';
import { jumpedRng } from '../../server/src/core/sim/dice';

const unit = (p: Partial<UnitProfile> = {}): UnitProfile => ({
  name: 'U',
  class: 'Destroyer',
  bases: 1,
  baseMm: 60,
  bs: 5,
  hp: 10,
  combinedShields: false,
  weapons: [{ name: 'Gun', type: 'Energy', range: 12, damage: 2, attacks: 3 }],
  move: [9, 6],
  ...p,
});
const side = (name: string, p: UnitProfile, n = 1) => ({
  name,
  faction: name,
  units: Array.from({ length: n }, (_, i) => ({ name: p.name, copy: i + 1, points: 100, profile: p })),
});

/** A small battle (a few milliseconds of work). */
const small =
  (seed: number): (() => SessionTask) =>
  () => ({
    kind: 'battle',
    battle: { fleets: [side('A', unit({ name: 'A' })), side('B', unit({ name: 'B' }))], options: { trials: 200, seed, range: 12 } },
    sliceOps: 1e6,
  });
/** One trial of absurd cards with no work limit to speak of: seconds of work (about 5 on an idle core) in a single trial. */
const endless: () => SessionTask = () => {
  const absurd = unit({
    name: 'Absurd',
    hp: 1e9,
    weapons: Array.from({ length: 300 }, (_, i) => ({ name: `w${i}`, type: 'Auto', range: 12, damage: 1, attacks: 500 })),
  });
  return {
    kind: 'battle',
    battle: { fleets: [side('A', absurd, 200), side('B', { ...absurd, name: 'Other' }, 200)], options: { trials: 1, rounds: 100, range: 12 }, workLimit: 1e13 },
    sliceOps: 1e6,
  };
};
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: number }) => e.code,
  );

describe('simulation queue on worker threads', function () {
  this.timeout(120_000);
  /** The server's runner on `threads` threads, closed after the tests. */
  const runners: ServerRunner[] = [];
  const queue = (threads: number, waiting: number) => {
    const runner = serverRunner(threads);
    runners.push(runner);
    return new SimulationQueue(runner, threads, waiting);
  };
  after(() => Promise.all(runners.map((r) => r.close())));
  before(function () {
    if (!workerFile()) throw new Error('dist/sim-worker.js is missing: run npm run build first');
  });

  it('starts each thread from a file of a few lines, not the worker bundle (Node reads an imported CommonJS file through for its exports)', () => {
    const file = workerFile()!;
    assert.match(file, /sim-thread\.js$/);
    assert.ok(statSync(file).size < 1000, `${file}: ${statSync(file).size} bytes`);
  });

  it('runs on the threads fabledStar.simulation.threads asks for: a change applies to the simulations started after it, one running finishes', async () => {
    // The setting: 0 (the default) is chosen from the machine, a positive whole number fixes the count.
    assert.equal(readSettings({}).settings.simulation.threads, 0);
    assert.equal(readSettings({ simulation: { threads: 3 } }).settings.simulation.threads, 3);
    const bad = readSettings({ simulation: { threads: -2 } });
    assert.equal(bad.settings.simulation.threads, 0);
    assert.equal(bad.problems.length, 1);
    assert.equal(threadsSetting(0), serverThreads());
    assert.equal(threadsSetting(3), 3);

    const runner = serverRunner(1);
    runners.push(runner);
    const q = new SimulationQueue(runner, undefined, 8);
    assert.equal(q.threads, 1);
    const none = () => undefined;
    /** A battle that reports as it goes: `trials` of the small one, a slice at a time. */
    const long = (trials: number, seed: number) => (): SessionTask =>
      ({ ...small(seed)(), battle: { ...(small(seed)() as { battle: object }).battle, options: { trials, seed, range: 12 } }, sliceOps: 1e5 }) as SessionTask;
    // Started on the pool of one thread, and still running when the count changes.
    const first = q.run<BattleResult>('first', long(20_000, 1), new CancellationTokenSource().token, none);
    runner.setThreads(2);
    assert.equal(runner.threads, 2);
    assert.equal(q.threads, 2, 'the queue runs as many at once as the runner has threads');
    // Two long battles on the new pool: each reports while the other runs, so each has a thread of its own.
    const heard = [0, 0];
    const ended = [false, false];
    const both = new Promise<void>((resolve) => {
      const on = (i: number) => () => {
        heard[i]!++;
        if (heard[0]! > 0 && heard[1]! > 0) resolve();
      };
      for (const i of [0, 1])
        void q
          .run(`long${i}`, long(2_000_000, 2 + i), new CancellationTokenSource().token, on(i))
          .catch(() => undefined)
          .finally(() => (ended[i] = true));
    });
    await both;
    assert.deepEqual(ended, [false, false], 'both were running at once');
    const r = await first;
    assert.equal(r.trials, 20_000, 'the battle started on the old threads finished');
    await q.close();
  });

  it('answers a request from a worker thread, with progress', async () => {
    const q = queue(1, 8);
    const seen: string[] = [];
    const r = await q.run<BattleResult>('a', small(1), new CancellationTokenSource().token, (m) => seen.push(Object.keys(m)[0]!));
    assert.equal(r.trials, 200);
    await q.close();
  });

  it("stops listening for a run's cancellation once it is answered: cancelling a finished run makes nothing (the live lens cancels at every keystroke)", async () => {
    const q = queue(1, 8);
    let listening = 0;
    let disposed = 0;
    const source = new CancellationTokenSource();
    const token: CancellationToken = {
      get isCancellationRequested() {
        return source.token.isCancellationRequested;
      },
      onCancellationRequested: (f: (e: unknown) => unknown) => {
        listening++;
        const d = source.token.onCancellationRequested(f);
        return { dispose: () => (disposed++, d.dispose()) };
      },
    };
    const r = await q.run<BattleResult>('a', small(1), token, () => undefined);
    assert.equal(r.trials, 200);
    assert.deepEqual({ listening, disposed }, { listening: 1, disposed: 1 });
    source.cancel();
    await q.close();
  });

  it('replaces a request by a newer one for the same simulation', async () => {
    const q = queue(1, 8);
    const none = () => undefined;
    const blocker = q.run('block', endless, new CancellationTokenSource().token, none);
    const older = q.run('same', small(1), new CancellationTokenSource().token, none);
    const newer = q.run<BattleResult>('same', small(1), new CancellationTokenSource().token, none);
    assert.equal(await code(older), -32802, 'the older duplicate is answered ServerCancelled');
    await q.close();
    assert.equal(await code(blocker), -32802);
    assert.equal(await code(newer), -32802, 'closing the queue ends the rest');
  });

  it('holds at most its cap waiting: the oldest waiting request is dropped', async () => {
    const q = queue(1, 2);
    const none = () => undefined;
    const running = q.run('run', endless, new CancellationTokenSource().token, none);
    const waiting = [1, 2, 3, 4].map((s) => q.run(`w${s}`, small(s), new CancellationTokenSource().token, none));
    assert.deepEqual(q.size, { waiting: 2, running: 1 });
    assert.equal(await code(waiting[0]!), -32802);
    assert.equal(await code(waiting[1]!), -32802);
    await q.close();
    await Promise.all([running, ...waiting].map(code));
  });

  it('stops a running trial when cancelled, at once', async () => {
    const q = queue(1, 2);
    const source = new CancellationTokenSource();
    const p = q.run('endless', endless, source.token, () => undefined);
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = Date.now();
    source.cancel();
    assert.equal(await code(p), -32800);
    assert.ok(Date.now() - t0 < 1000, `answered ${Date.now() - t0} ms after the cancel`);
    // The thread was ended: the next request runs on a fresh one.
    const r = await q.run<BattleResult>('after', small(2), new CancellationTokenSource().token, () => undefined);
    assert.equal(r.trials, 200);
    await q.close();
  });

  it('plays a chunk the battle no longer needs to its end (its warm thread kept), and ends one whose battle was cancelled', async () => {
    const pool = new SimPool(1, workerFile()!);
    try {
      const play = pool.executor();
      const task = (seed: number): ChunkTask => ({
        ...{ kind: 'chunk', job: small(seed)().battle!, key: `k${seed}`, standard: false, index: 0, state: [...jumpedRng(seed, 0).getState()] },
        ...{ count: 200, dice: false, workLimit: 1e7 },
      });
      // A battle that stopped when sure drops the chunks it handed out: this one is running already (the thread took it).
      const dropped = new AbortController();
      const unheard = play(task(1), dropped.signal);
      dropped.abort(new ChunksDropped());
      assert.equal((await unheard).totals.trials, 200, 'played to its end, not ended with its thread');
      const cancelled = new AbortController();
      const ended = play(task(2), cancelled.signal);
      cancelled.abort(new SimCancelled());
      await assert.rejects(ended, SimCancelled);
    } finally {
      await pool.close();
    }
  });

  it('stops a run by its flag in the middle of a slice, returning no figures', async () => {
    const file = workerFile()!;
    const pool = new SimPool(1, file);
    try {
      const stop = new Int32Array(new SharedArrayBuffer(4));
      // One slice as long as the whole battle (seconds of trials): stopping only between slices would play it to the end.
      const task = { ...small(3)(), sliceOps: 1e15, stop };
      task.battle!.options.trials = 200_000;
      const run = pool.run<BattleResult | StoppedRun>(task);
      setTimeout(() => Atomics.store(stop, 0, 1), 300);
      const r = await run;
      assert.ok('halted' in r, `the run went on to the end (${'trials' in r ? r.trials : '?'} trials) after its flag was set`);
      assert.ok(r.halted.trials < 200_000, `stopped after ${r.halted.trials} trials`);
      // The thread is kept and plays the next run whole.
      const next = await pool.run<BattleResult>(small(4)());
      assert.equal(next.trials, 200);
    } finally {
      await pool.close();
    }
  });
});
