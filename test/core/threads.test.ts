/**
 * A battle's trials in chunks over threads give one run's numbers, whatever the number
 * of threads and in whatever order the chunks come back (core/sim/chunked.ts), including where the
 * work limit cuts the run and where the exact kernels give way to dice; and the work budget holds
 * inside a trial. The executors here play the chunks in this thread, on one engine per "thread",
 * finishing in a shuffled order: what worker threads do, without their start-up cost.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BattleRun, CHUNK_TRIALS } from '../../server/src/core/sim/battle';
import type { BattleUnit, Fleet } from '../../server/src/core/sim/battle';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import { battleInChunks, localExecutor, runChunkTask, SessionCache, type BattleJob, type ChunkExecutor } from '../../server/src/core/sim/chunked';
import { makeRng } from '../../server/src/core/sim/dice';
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
    ['cut short by the work limit in the middle of a chunk', examples({ trials: 5000, seed: 9 }, 4e6)],
    [
      'a variant whose run is cut short, paired with the standard one',
      examples({ trials: 5000, seed: 9, variants: [{ name: 'morale', parameters: {} }], compare: true }, 3e6),
    ],
    [
      'cards whose exact kernels cost too much (dice), cut short',
      {
        fleets: [fleet('A', [member(absurd)]), fleet('B', [member({ ...absurd, name: 'Other' })])],
        options: { trials: 3000, seed: 2, rounds: 20, range: 12 },
        workLimit: 4e7,
      },
    ],
    [
      // Six cards whose kernels add up slowly: one run falls back to dice in its fifth chunk of
      // trials, then plays dice from the start with the work it had done, and is cut short.
      'kernels that run out of work in a later chunk, then dice cut short',
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
      if (what.startsWith('kernels that run out')) {
        assert.equal(one.cutShort, true);
        assert.ok(one.assumptions.some((a) => a.startsWith('The exact Fire-action kernels would cost too much')));
      }
    });
});

describe('battle: the work budget holds inside a trial', () => {
  const absurd = unit({ name: 'Absurd', hp: 1e9, weapons: Array.from({ length: 300 }, (_, i) => ({ ...gun('Auto', 500, 1, 12), name: `w${i}` })) });
  it('stops a trial that would run past it, and counts nothing of it', () => {
    const limit = 3e6;
    const run = new BattleRun(
      [fleet('A', [member(absurd)]), fleet('B', [member({ ...absurd, name: 'Other' })])],
      { range: 12, depth: 0, rounds: 100, trials: 10, seed: 1, workLimit: limit },
      makeRng(1),
    );
    run.step();
    const out = run.outcome();
    // One activation of these cards is about 40,000 ops: the run stops within one of the limit,
    // not at the end of a 100-round trial (about 7 million).
    assert.ok(out.ops <= limit + 1e5, `ran ${out.ops} ops against a limit of ${limit}`);
    assert.equal(out.totals.trials, 0);
    assert.ok(out.cutShort);
    assert.ok(
      out.totals.alive.every((row) => row.every((x) => x === 0)),
      'the stopped trial left nothing in the totals',
    );
    assert.ok(out.totals.tally.fired.every((x) => x === 0));
  });

  it('says so at the top of the CLI report', () => {
    const r = simulateBattle(
      [fleet('A', [member(absurd)]), fleet('B', [member({ ...absurd, name: 'Other' })])],
      { range: 12, trials: 5, rounds: 100 },
      { workLimit: 3e7 },
    );
    const lines = renderBattleReport(r).split('\n');
    assert.match(lines[2]!, new RegExp(`^Cut short: ${r.trials} of 5 battles were played before the work limit`));
  });

  it('says so in the result when not one trial finished', () => {
    const r = simulateBattle(
      [fleet('A', [member(absurd)]), fleet('B', [member({ ...absurd, name: 'Other' })])],
      { range: 12, trials: 5, rounds: 100 },
      { workLimit: 3e6 },
    );
    assert.equal(r.trials, 0);
    assert.equal(r.cutShort, true);
    assert.equal(r.requestedTrials, 5);
    assert.ok(
      r.assumptions.some((x) => x.startsWith('Cut short: not one of the 5 trials finished')),
      r.assumptions.join('\n'),
    );
  });
});
