/**
 * A battle's trials in chunks over threads give one run's numbers, whatever the number
 * of threads and in whatever order the chunks come back (core/sim/chunked.ts), including which
 * trials the work limit of one trial ends and where the exact kernels give way to dice; and the work
 * limit guards each trial, not the run: a run plays every trial asked, a runaway trial ends at its
 * limit and the run moves on. The executors here play the chunks in this thread, on one engine per "thread",
 * finishing in a shuffled order: what worker threads do, without their start-up cost.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BattleRun, CHUNK_TRIALS } from '../../server/src/core/sim/battle';
import type { BattleUnit, Fleet } from '../../server/src/core/sim/battle';
import { BattleSession, simulateBattle } from '../../server/src/core/sim/fleet-battle';
import {
  battleInChunks,
  localExecutor,
  runChunkTask,
  SessionCache,
  type BattleJob,
  type ChunkExecutor,
  type ChunkTask,
} from '../../server/src/core/sim/chunked';
import { jumpedRng, makeRng } from '../../server/src/core/sim/dice';
import type { UnitProfile, WeaponProfile } from '../../server/src/core/sim/types';
import type { WeaponType } from '../../server/src/core/rules/data';
import { fleetForBattle } from '../../server/src/core/features/battle';
import { cardErrors, checkDocument } from '../../server/src/core/check';
import type { FleetDocument } from '../../server/src/core/model/types';
import { EXAMPLES, exampleCardsWorkspace } from '../exampleFleets';
import { renderBattleReport } from '../../server/src/cli/battle';

function unit(p: Partial<UnitProfile> = {}): UnitProfile {
  return { name: 'U', class: 'Destroyer', bases: 1, baseMm: 60, bs: 5, hp: 10, combinedShields: false, weapons: [], move: [9, 6], ...p };
}
function gun(type: WeaponType, attacks = 1, damage = 1, range = 12): WeaponProfile {
  return { name: `${type} gun`, type, range, damage, attacks };
}
function member(profile: UnitProfile, points = 100): BattleUnit {
  return { name: profile.name, copy: 1, points, profile };
}
const fleet = (name: string, units: BattleUnit[]): Fleet => ({ name, faction: name, units });

/** `threads` engines, each chunk on the next one, every answer after a random delay (so out of order). */
function shuffledThreads(threads: number, seed: number): ChunkExecutor {
  const caches = Array.from({ length: threads }, () => new SessionCache());
  let k = 0;
  let r = seed;
  return (task) => {
    const cache = caches[k++ % threads]!;
    const out = runChunkTask(task, cache);
    r = (r * 1103515245 + 12345) % 2147483648;
    return new Promise((res) => setTimeout(() => res(out), r % 7));
  };
}

function exampleFleets(): [ReturnType<typeof fleetForBattle>, ReturnType<typeof fleetForBattle>] {
  const ws = exampleCardsWorkspace();
  const read = (file: string) => {
    const p = join(EXAMPLES, 'fleets', file);
    const doc = ws.set(`file://${p}`, readFileSync(p, 'utf8')) as FleetDocument;
    return fleetForBattle(doc, ws, checkDocument(doc, ws), cardErrors);
  };
  return [read('standard-1000.fleet.yaml'), read('standard-1000-myr-valari.fleet.yaml')];
}

describe('battle over threads: the same numbers whatever the number of threads', function () {
  this.timeout(300_000);
  const [a, b] = exampleFleets();
  const examples = (options: BattleJob['options'], workLimit?: number): BattleJob => ({
    fleets: [a.fleet!, b.fleet!],
    options,
    limits: [a.limit, b.limit],
    ...(workLimit !== undefined ? { workLimit } : {}),
  });
  const absurd = unit({ name: 'Absurd', hp: 1e9, weapons: Array.from({ length: 30 }, (_, i) => ({ ...gun('Auto', 500, 1, 12), name: `w${i}` })) });

  const cases: [string, BattleJob][] = [
    ['the example fleets, approaching', examples({ trials: 2 * CHUNK_TRIALS + 500, seed: 7 })],
    ['at a fixed range', examples({ trials: 1500, seed: 3, range: 12 })],
    ['a variant beside the standard rules', examples({ trials: 2100, seed: 5, variants: [{ name: 'retreat', parameters: {} }], compare: true })],
    [
      'a variant that routs units (routed by round, morale victories)',
      examples({
        trials: 2100,
        seed: 6,
        variants: [
          { name: 'break-tests', parameters: {} },
          { name: 'morale', parameters: {} },
        ],
      }),
    ],
    // About 1,400 a trial (1,724 at most; under morale's three rounds about 940): limits of one trial that some trials reach.
    ['trials ended by the work limit of one trial, in every chunk', examples({ trials: 5000, seed: 9 }, 1_501)],
    [
      'a variant some of whose trials reach the limit, paired with the standard one',
      examples({ trials: 5000, seed: 9, variants: [{ name: 'morale', parameters: {} }], compare: true }, 951),
    ],
    [
      'cards whose exact kernels cost too much (dice), every trial ended at its limit',
      {
        fleets: [fleet('A', [member(absurd)]), fleet('B', [member({ ...absurd, name: 'Other' })])],
        options: { trials: 2500, seed: 2, rounds: 20, range: 12 },
        workLimit: 30_000,
      },
    ],
    [
      // Six cards whose kernels add up slowly: one run falls back to dice in its fifth chunk of
      // trials, then plays dice from the start with the work it had done, every trial.
      'kernels that run out of work in a later chunk, then dice',
      (() => {
        const side = (s: string) =>
          fleet(
            s,
            Array.from({ length: 6 }, (_, t) =>
              member(
                unit({
                  name: `${s}${t}`,
                  hp: 120 + t,
                  sh: 3,
                  weapons: Array.from({ length: 4 }, (_, i) => ({
                    ...gun((['Energy', 'Auto', 'Ion', 'Piercing'] as const)[i]!, 11, 1 + (i % 3), 12),
                    name: `w${i}`,
                  })),
                }),
              ),
            ),
          );
        return { fleets: [side('A'), side('B')] as [Fleet, Fleet], options: { trials: 12000, seed: 1, rounds: 6, range: 12 } };
      })(),
    ],
  ];
  const fresh = (job: BattleJob) =>
    simulateBattle(job.fleets, job.options, { limits: job.limits, ...(job.workLimit !== undefined ? { workLimit: job.workLimit } : {}) });
  it('a thread that played another run of the battle lists the kernels of a chunk as a fresh engine does, in kernels again after dice', () => {
    const job = examples({ trials: 3000, seed: 7 });
    const task = (run: string, seed: number, index: number, dice = false): ChunkTask => ({
      ...{ kind: 'chunk', job, key: run, standard: false, index, state: [...jumpedRng(seed, index * CHUNK_TRIALS).getState()] },
      ...{ count: 200, dice, workLimit: 1e7 },
    });
    const kept = new SessionCache();
    runChunkTask(task('earlier', 8, 0), kept);
    runChunkTask(task('earlier', 8, 1), kept);
    const chunk = (cache: SessionCache, run: string) => runChunkTask(task(run, 7, 2), cache);
    const reused = chunk(kept, 'next');
    const alone = chunk(new SessionCache(), 'alone');
    assert.deepEqual(new Set(reused.used.map(([id]) => id)), new Set(alone.used.map(([id]) => id)), 'the same kernels listed');
    assert.ok(alone.used.length > 0);
    assert.deepEqual(reused.totals, alone.totals);
    // A run played in dice, then another in kernels on the same engine.
    runChunkTask(task('in dice', 8, 0, true), kept);
    const after = chunk(kept, 'kernels again');
    assert.equal(after.mode, 'kernel');
    assert.deepEqual(after.totals, alone.totals);
  });
  for (const [what, job] of cases)
    it(`${what}: battle after battle on the same threads (their kernels kept), each as a fresh run gives it`, async () => {
      // Threads that keep their engines from one battle to the next: another seed, then the first
      // again (after a run that fell back to dice, a run in kernels again).
      const threads = shuffledThreads(2, 17);
      const seed = job.options.seed!;
      for (const s of [seed + 1, seed]) {
        const again: BattleJob = { ...job, options: { ...job.options, seed: s } };
        assert.deepEqual(await battleInChunks(again, threads, 2), fresh(again), `seed ${s}`);
      }
    });
  for (const [what, job] of cases)
    it(what, async () => {
      const one = simulateBattle(job.fleets, job.options, { limits: job.limits, ...(job.workLimit !== undefined ? { workLimit: job.workLimit } : {}) });
      assert.deepEqual(
        one.variants,
        (job.options.variants ?? []).map((v) => v.name),
        'the variants asked for are played',
      );
      assert.deepEqual(await battleInChunks(job, localExecutor(), 1), one, 'one thread');
      for (const threads of [2, 3]) assert.deepEqual(await battleInChunks(job, shuffledThreads(threads, threads * 31), threads), one, `${threads} threads`);
      // Every trial asked is played, however many reach the limit of one trial.
      assert.equal(one.trials, job.options.trials, 'every trial asked is played');
      if (what.startsWith('kernels that run out')) {
        assert.equal(one.cutShort, undefined);
        assert.ok(one.assumptions.some((a) => a.startsWith('The exact Fire-action kernels would cost too much')));
      }
      if (what.includes('limit')) {
        assert.equal(one.cutShort, true);
        assert.ok(one.cutTrials! > 0 && one.cutTrials! <= one.trials, `${one.cutTrials} trials ended at the limit`);
        assert.equal(one.cutTrials! === one.trials, what.includes('every trial'), `${one.cutTrials} of ${one.trials} ended at the limit`);
        assert.ok(
          one.assumptions.some((a) =>
            a.startsWith(
              `Cut short: ${one.cutTrials!.toLocaleString('en-US')} of ${one.trials.toLocaleString('en-US')} trials reached the work limit of one battle`,
            ),
          ),
        );
      }
    });
});

describe('battle until sure: the stepped run stops where the chunks do', function () {
  this.timeout(300_000);
  const [a, b] = exampleFleets();
  const job = (options: BattleJob['options']): BattleJob => ({ fleets: [a.fleet!, b.fleet!], options, limits: [a.limit, b.limit] });
  /** The session a view or the lens steps, a slice of work at a time. */
  const stepped = (j: BattleJob, precision: number, slice?: number) => {
    const s = new BattleSession(j.fleets, j.options, { limits: j.limits, precision });
    while (!s.step(slice));
    return s.result();
  };
  const cases: [string, BattleJob, number][] = [
    ['the example fleets, approaching', job({ trials: 12_000, seed: 7 }), 0.02],
    ['the same, to a precision the cap cuts', job({ trials: 4_000, seed: 7 }), 0.005],
    ['a variant beside the standard rules', job({ trials: 9_000, seed: 5, variants: [{ name: 'retreat', parameters: {} }], compare: true }), 0.03],
    ['at a fixed range, sure at once', job({ trials: 9_000, seed: 3, range: 12 }), 0.012],
  ];
  for (const [what, j, precision] of cases)
    it(`${what} (±${100 * precision}%)`, async () => {
      const whole = stepped(j, precision);
      assert.deepEqual(stepped(j, precision, 50_000), whole, 'a slice at a time');
      const chunked = await battleInChunks(j, localExecutor(), 1, { precision });
      assert.deepEqual(chunked, whole, 'one thread in chunks');
      assert.deepEqual(await battleInChunks(j, shuffledThreads(2, 5), 2, { precision }), whole, 'two threads');
      assert.equal(whole.trials % CHUNK_TRIALS, 0, `${whole.trials}: a whole number of chunks`);
      assert.equal(whole.requestedTrials, j.options.trials);
      if (whole.stopped === 'precision') {
        assert.ok(whole.precision! <= precision && whole.trials >= 2000 && whole.trials < j.options.trials!, `${whole.trials} battles, ±${whole.precision}`);
        assert.equal(whole.cutShort, undefined, 'fewer battles than the cap because sure is not cut short');
      } else {
        assert.equal(whole.trials, j.options.trials);
        assert.ok(whole.precision! > precision);
      }
      if (j.options.compare) assert.equal(whole.compare!.standard.trials, whole.trials, 'the standard rules play as many battles');
    });
  it('stops sure in one case and at the cap in the other', () => {
    assert.equal(stepped(cases[0]![1], cases[0]![2]).stopped, 'precision');
    assert.equal(stepped(cases[1]![1], cases[1]![2]).stopped, 'cap');
  });
});

describe('battle: the work limit guards a trial, not a run', function () {
  this.timeout(120_000);
  const absurd = unit({ name: 'Absurd', hp: 1e9, weapons: Array.from({ length: 300 }, (_, i) => ({ ...gun('Auto', 500, 1, 12), name: `w${i}` })) });
  const absurdFleets = (): [Fleet, Fleet] => [fleet('A', [member(absurd)]), fleet('B', [member({ ...absurd, name: 'Other' })])];

  it('ends a trial that would run past it where it stands, and moves on to the next', () => {
    // One activation of these cards is about 40,000 ops; a 100-round trial about 7 million.
    const limit = 3e5;
    const started = performance.now();
    const run = new BattleRun(absurdFleets(), { range: 12, depth: 0, rounds: 100, trials: 10, seed: 1, workLimit: limit }, makeRng(1));
    run.step();
    const out = run.outcome();
    assert.ok(performance.now() - started < 20_000, 'ten trials of a tiny limit end quickly');
    assert.ok(run.done);
    // Each trial stops within one activation of its limit, not at the end of its 100 rounds.
    assert.ok(out.ops <= 10 * (limit + 1e5), `ran ${out.ops} ops for 10 trials of ${limit}`);
    assert.equal(out.totals.trials, 10, 'every trial is played');
    assert.equal(out.totals.cutTrials, 10, 'every trial was ended at its limit');
    assert.ok(out.cutShort);
    // Scored as they stood: nobody was destroyed (10^9 HP), so no annihilation, both alive every round.
    assert.deepEqual(out.totals.annihilation, [0, 0]);
    assert.ok(out.totals.alive.every((row) => row.every((x) => x === 10)));
    assert.ok(
      out.totals.tally.fired.every((x) => x > 0),
      'the units fired before the limit',
    );
  });

  it('ends such trials the same way over threads, and the run finishes', async () => {
    const job: BattleJob = { fleets: absurdFleets(), options: { range: 12, trials: 2 * CHUNK_TRIALS + 3, rounds: 100, seed: 4 }, workLimit: 2e4 };
    const started = performance.now();
    const one = simulateBattle(job.fleets, job.options, { workLimit: job.workLimit! });
    assert.equal(one.trials, 2 * CHUNK_TRIALS + 3);
    assert.equal(one.cutTrials, one.trials);
    assert.deepEqual(await battleInChunks(job, shuffledThreads(2, 5), 2), one, '2 threads');
    assert.ok(performance.now() - started < 60_000, 'the runs end');
  });

  it('a run of many trials of a mirror plays every one (a limit a run-wide budget would have stopped at ~160 trials)', async () => {
    const [a] = exampleFleets();
    // About 1,200 a trial: 200,000 as a whole run's limit would stop near 160 trials; as one trial's, never.
    const job: BattleJob = { fleets: [a.fleet!, a.fleet!], options: { trials: 3 * CHUNK_TRIALS, seed: 2 }, limits: [a.limit, a.limit], workLimit: 2e5 };
    const one = simulateBattle(job.fleets, job.options, { limits: job.limits, workLimit: job.workLimit! });
    assert.equal(one.trials, 3 * CHUNK_TRIALS);
    assert.equal(one.cutShort, undefined);
    assert.equal(one.cutTrials, undefined);
    assert.ok(!one.assumptions.some((x) => x.startsWith('Cut short')));
    assert.deepEqual(await battleInChunks(job, shuffledThreads(2, 3), 2), one, '2 threads');
  });

  it('says so at the top of the CLI report', () => {
    const r = simulateBattle(absurdFleets(), { range: 12, trials: 5, rounds: 100 }, { workLimit: 3e5 });
    const lines = renderBattleReport(r).split('\n');
    assert.equal(r.trials, 5);
    assert.match(lines[2]!, /^Cut short: 5 of 5 battles reached the work limit of one battle and were ended there, scored as they stood/);
    assert.ok(
      r.assumptions.some(
        (x) =>
          x.startsWith('Cut short: 5 of 5 trials reached the work limit of one battle (300,000 steps of work)') && x.includes('no trial was played to its end'),
      ),
    );
  });
});
