/**
 * The live odds lens's background process (server/src/node/sim-host.ts) when it stops answering:
 * stopped (SIGSTOP, as a debugger or a frozen session leaves it), it is ended past the bound and
 * another plays its runs again, to the same figures; a run asked to stop meanwhile ends as stopped
 * without a new process; and how a quiet process is read (runnable: it waits for a core; stopped:
 * restart; asleep: one more bound, then restart).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { SimHost, lookAt, stallVerdict, type Stall } from '../../server/src/node/sim-host';
import { workerFile } from '../../server/src/node/sim-pool';
import { sessionRunner } from '../../server/src/core/sim/run-here';
import type { SessionTask, StoppedRun } from '../../server/src/node/sim-worker';
import type { BattleResult, UnitProfile } from '../../server/src/core/sim/types';

const unit = (name: string): UnitProfile => ({
  name,
  class: 'Destroyer',
  bases: 1,
  baseMm: 60,
  bs: 5,
  hp: 10,
  combinedShields: false,
  weapons: [{ name: 'Gun', type: 'Energy', range: 12, damage: 2, attacks: 3 }],
  move: [9, 6],
});
const side = (name: string) => ({ name, faction: name, units: [{ name, copy: 1, points: 100, profile: unit(name) }] });
/** A small battle: a few milliseconds of work. */
const task = (): SessionTask => ({ kind: 'battle', battle: { fleets: [side('A'), side('B')], options: { trials: 300, seed: 7, range: 12 } }, sliceOps: 1e5 });

/** The same battle played here, a slice at a time. */
function here(t: SessionTask): BattleResult {
  const run = sessionRunner(t);
  while (!run.step());
  return run.result() as BattleResult;
}

const stateOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] ?? '?';
  } catch {
    return 'gone';
  }
};

describe('the background simulation process when it stops answering', function () {
  this.timeout(120_000);
  const BOUND = 800;
  let host: SimHost | undefined;
  const stopped: number[] = [];
  before(function () {
    if (!workerFile()) throw new Error('dist/sim-worker.js is missing: run npm run build first');
  });
  afterEach(async () => {
    for (const pid of stopped.splice(0))
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Ended already.
      }
    await host?.close();
    host = undefined;
  });

  it('stopped (SIGSTOP): ended past the bound, its run played again in a new process, to the same figures', async () => {
    host = new SimHost(workerFile()!, 30_000, BOUND);
    const heard: Stall[] = [];
    const run = host.run<BattleResult>(
      task(),
      () => undefined,
      undefined,
      (s) => heard.push(s),
    );
    const first = host.pid!;
    process.kill(first, 'SIGSTOP');
    stopped.push(first);
    const result = await run.result;
    assert.deepEqual(heard.slice(0, 1), ['restarted']);
    assert.notEqual(host.pid, first, 'another process');
    assert.ok(['gone', 'Z'].includes(stateOf(first)), `the stopped process was ended (${stateOf(first)})`);
    const want = here(task());
    assert.equal((result as BattleResult).trials, want.trials);
    assert.equal((result as BattleResult).sides[0].pointsVictory.p, want.sides[0].pointsVictory.p);
  });

  it('a run asked to stop while its process is stopped ends as stopped, with no new process', async () => {
    host = new SimHost(workerFile()!, 30_000, BOUND);
    const run = host.run<BattleResult>(task(), () => undefined);
    const first = host.pid!;
    process.kill(first, 'SIGSTOP');
    stopped.push(first);
    run.stop();
    const result = (await run.result) as StoppedRun;
    assert.ok('halted' in result, JSON.stringify(result).slice(0, 200));
    assert.equal(host.pid, undefined, 'no process started for a run nobody waits for');
  });

  it('reads a quiet process: runnable waits for a core, stopped is restarted, asleep gets one more bound', () => {
    const at = (state: string, cpu = 100) => ({ state, cpu });
    assert.equal(stallVerdict(at('R'), undefined), 'wait');
    assert.equal(stallVerdict(at('R'), at('R')), 'wait');
    // Slow, but it got CPU time since the last bound.
    assert.equal(stallVerdict(at('S', 120), at('R', 100)), 'wait');
    assert.equal(stallVerdict(at('T'), undefined), 'restart');
    assert.equal(stallVerdict(at('T', 120), at('R', 100)), 'restart');
    assert.equal(stallVerdict(at('t'), undefined), 'restart');
    assert.equal(stallVerdict(at('Z'), undefined), 'restart');
    assert.equal(stallVerdict(at('S'), undefined), 'patience');
    assert.equal(stallVerdict(at('D'), undefined), 'patience');
    assert.equal(stallVerdict(at('S'), at('S')), 'restart');
    assert.equal(stallVerdict(undefined, undefined), 'restart');
  });

  it('looks at a process in /proc (Linux): its state and CPU time', () => {
    const me = lookAt(process.pid);
    if (process.platform !== 'linux') return assert.equal(me, undefined);
    assert.equal(me?.state, 'R');
    assert.ok(me.cpu > 0);
    assert.equal(lookAt(2 ** 22 + 12345), undefined);
  });
});
