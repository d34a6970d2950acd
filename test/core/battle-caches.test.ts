/**
 * The engine's speed: the battle engine keeps its exact kernels, protection values and
 * Aims in arrays indexed by the two cards and the target's state (engine.ts PairCache) when the
 * key fits, and in Maps when it does not. Where a key is kept must never change a number, nor the
 * kernels a chunk lists (what threads add up): each battle here is played twice, once with the
 * arrays (the default) and once with Maps only (DENSE_CACHES.maxStates = 0), and must be the same.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BattleRun } from '../../server/src/core/sim/battle';
import type { Fleet } from '../../server/src/core/sim/battle';
import { DENSE_CACHES } from '../../server/src/core/sim/battle/engine';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import type { BattleRequestOptions } from '../../server/src/core/sim/types';
import { jumpedRng, makeRng } from '../../server/src/core/sim/dice';
import { fleetForBattle } from '../../server/src/core/features/battle';
import { cardErrors, checkDocument } from '../../server/src/core/check';
import type { FleetDocument } from '../../server/src/core/model/types';
import { EXAMPLES, exampleCardsWorkspace } from '../exampleFleets';

function exampleFleet(file: string): { fleet: Fleet; limit: number | undefined } {
  const ws = exampleCardsWorkspace();
  const p = join(EXAMPLES, 'fleets', file);
  const doc = ws.set(`file://${p}`, readFileSync(p, 'utf8')) as FleetDocument;
  const f = fleetForBattle(doc, ws, checkDocument(doc, ws), cardErrors);
  assert.ok(f.fleet, `${file} can fight`);
  return { fleet: f.fleet, limit: f.limit };
}

/** `play` with the arrays and with Maps only. */
function bothWays<T>(play: () => T): { arrays: T; maps: T } {
  const saved = DENSE_CACHES.maxStates;
  try {
    const arrays = play();
    DENSE_CACHES.maxStates = 0;
    const maps = play();
    return { arrays, maps };
  } finally {
    DENSE_CACHES.maxStates = saved;
  }
}

describe('battle engine: its caches in arrays or in Maps, the same numbers', function () {
  this.timeout(300_000);
  const fleets: Record<string, { fleet: Fleet; limit: number | undefined }> = {};
  const get = (file: string) => (fleets[file] ??= exampleFleet(file));

  const cases: [string, string, string, BattleRequestOptions, number?][] = [
    ['the 1,000-point fleets, approaching', 'standard-1000.fleet.yaml', 'standard-1000-myr-valari.fleet.yaml', { trials: 1500, seed: 7 }],
    ['the 2,000-point fleets at a fixed range', 'battle-2000.fleet.yaml', 'battle-2000-consumed.fleet.yaml', { trials: 800, seed: 3, range: 14 }],
    [
      'a variant that routs units, beside the standard rules',
      'battle-2000.fleet.yaml',
      'standard-1000-myr-valari.fleet.yaml',
      { trials: 800, seed: 5, variants: [{ name: 'morale', parameters: {} }], compare: true },
    ],
    [
      'trials ended by the work limit of one trial (about 400 a trial under this retreat)',
      'standard-1000.fleet.yaml',
      'battle-2000-consumed.fleet.yaml',
      { trials: 2000, seed: 11, variants: [{ name: 'retreat', parameters: { threshold: 0.7 } }] },
      403,
    ],
  ];
  for (const [title, a, b, options, workLimit] of cases)
    it(title, () => {
      const [x, y] = [get(a), get(b)];
      const { arrays, maps } = bothWays(() =>
        simulateBattle([x.fleet, y.fleet], options, { limits: [x.limit, y.limit], ...(workLimit !== undefined ? { workLimit } : {}) }),
      );
      assert.ok(arrays.trials > 0);
      if (workLimit !== undefined) {
        assert.equal(arrays.cutShort, true, 'the case is cut short');
        assert.ok(arrays.cutTrials! > 0 && arrays.cutTrials! < arrays.trials, `${arrays.cutTrials} trials ended at the limit`);
      }
      assert.deepEqual(maps, arrays);
    });

  it('chunks list the same kernels, in the same order, with the same work', () => {
    const [x, y] = [get('standard-1000.fleet.yaml'), get('standard-1000-myr-valari.fleet.yaml')];
    const { arrays, maps } = bothWays(() => {
      const run = new BattleRun([x.fleet, y.fleet], { depth: 48, rounds: 6, trials: 3000, seed: 1 }, makeRng(1));
      // Chunks out of order on one engine, as a thread plays them.
      return [2, 0, 1].map((c) => {
        const r = run.runChunk(jumpedRng(1, c * 1000), 1000);
        return { used: r.used, ops: r.ops, outcomes: r.totals.outcomes, points: r.totals.pointsDestroyed };
      });
    });
    assert.ok(arrays[0]!.used.length > 0, 'the first chunk computes kernels');
    assert.deepEqual(maps, arrays);
  });
});
