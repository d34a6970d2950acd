/**
 * The approach the points estimate weighs each Fire action by (server/src/core/balance/approach.ts):
 * two units closing on the table as the engine's policy moves them, where each fires.
 */
import { strict as assert } from 'node:assert';
import { approachDuel, approachFires, approachFleet, moverOf, stoppingDistances } from '../../server/src/core/balance/approach';
import type { Mover } from '../../server/src/core/balance/approach';
import { GAME_SIZES } from '../../server/src/core/rules/data';
import type { UnitProfile } from '../../server/src/core/sim/types';

const mover = (move: number[], reach: number, cr = false): Mover => ({
  move,
  reaches: [reach],
  maxReach: reach,
  cr,
  stopAt: reach,
  key: `${move.join('/')};${reach};${reach};${cr}`,
});

function profile(move: number[], ranges: number[], cr = false): UnitProfile {
  return {
    name: 'P',
    class: 'Cruiser',
    bases: 1,
    baseMm: 75,
    bs: 5,
    hp: 6,
    move,
    ...(cr ? { cr: { target: 6, dice: 3 } } : {}),
    weapons: ranges.map((range, i) => ({ name: `W${i}`, type: 'Energy', range, damage: 1, attacks: 2 })),
  } as UnitProfile;
}

describe('the approach (points estimate)', () => {
  it('moves as the engine does: enter with the first stick, close with the second, stop at the longest reach, fire with an AP left', () => {
    // 36": A (9/3, 18") enters to 9 and closes 3 more (12); B (6/3, 9") enters to 6, 3 more (9): 15" apart, nobody fired.
    // Round 2: A fires at 15"; B closes 6 to 9" and fires with its last AP. Round 3: both fire at 9".
    const [a, b] = approachDuel(mover([9, 3], 18), mover([6, 3], 9), 36, 3, true);
    assert.deepEqual(a, [undefined, 15, 9]);
    assert.deepEqual(b, [undefined, 9, 9]);
  });

  it('the longer gun fires first and more often; the faster unit no later', () => {
    for (const g of GAME_SIZES) {
      const [long, short] = approachDuel(mover([6, 3], 24), mover([6, 3], 9), g.depth, 6, false);
      const count = (f: (number | undefined)[]) => f.filter((d) => d !== undefined).length;
      assert.ok(count(long) > count(short), `${g.name}: ${long} vs ${short}`);
      assert.ok(long.findIndex((d) => d !== undefined) <= short.findIndex((d) => d !== undefined));
      const [fast] = approachDuel(mover([9, 6], 9), mover([6, 3], 24), g.depth, 6, true);
      const [slow] = approachDuel(mover([6, 3], 9), mover([6, 3], 24), g.depth, 6, true);
      assert.ok(count(fast) >= count(slow), `${g.name}: fast ${fast} slow ${slow}`);
    }
  });

  it('a unit with CR closes on an enemy with CR to boarding range with its second action, and fires with the other', () => {
    const [a] = approachDuel(mover([9, 3], 18, true), mover([6, 3], 18, true), 48, 6, true);
    assert.ok(
      a.some((d) => d !== undefined && d <= 3),
      `${a}`,
    );
    const [plain] = approachDuel(mover([9, 3], 18), mover([6, 3], 18, true), 48, 6, true);
    assert.ok(
      plain.every((d) => d === undefined || d >= 18 - 1e-9),
      `${plain}`,
    );
  });

  it('weighs every game size and both initiative orders alike: one battle\u2019s Fire actions in all', () => {
    const [a, b] = approachFires(mover([6, 3], 18), mover([6, 3], 12), 6);
    const total = (m: Map<number, number>) => [...m.values()].reduce((t, x) => t + x, 0);
    assert.ok(total(a) > total(b) && total(a) <= 6 + 1e-9);
    for (const d of a.keys()) assert.ok(d <= 18);
  });

  it('stopping distances are the range bands up to the longest reach and each reach; a unit that stops short of its longest reach first fires from closer', () => {
    const p = profile([6, 3], [24, 10]);
    const ds = stoppingDistances(p);
    assert.deepEqual(ds, [24, 21, 18, 15, 12, 10, 9, 6, 3]);
    assert.equal(moverOf(p).stopAt, 24, 'the engine\u2019s policy: the longest reach');
    assert.equal(moverOf(p, 9).stopAt, 9);
    assert.equal(moverOf(p, 40).stopAt, 24, 'never beyond the longest reach');
    const [far] = approachDuel(moverOf(p), mover([6, 3], 6), 48, 6, true);
    const [near] = approachDuel(moverOf(p, 9), mover([6, 3], 6), 48, 6, true);
    const first = (f: (number | undefined)[]) => f.find((d) => d !== undefined)!;
    assert.ok(first(far) > 9 && first(near) <= 9, `${far} / ${near}`);
  });

  it('a field of one unit: the fleet approach is the duel', () => {
    for (const [card, other] of [
      [mover([9, 3], 18), mover([6, 3], 9)],
      [mover([6, 6], 9, true), mover([6, 3], 24, true)],
      [mover([12, 6], 6), mover([3, 3], 30)],
    ] as const) {
      const [a, b] = approachFires(card, other, 6);
      const fleet = approachFleet(card, [other], 6);
      assert.deepEqual([...fleet.mine[0]!].sort(), [...a].sort());
      assert.deepEqual([...fleet.theirs[0]!].sort(), [...b].sort());
    }
  });

  it('on one line: the card closes on the front-most unit, and a slow long gun behind it fires from beyond the card\u2019s reach', () => {
    const card = mover([6, 3], 12);
    const fleet = approachFleet(card, [mover([12, 12], 3), mover([3, 3], 30)], 6);
    assert.ok([...fleet.mine[0]!.keys()].length > 0 && [...fleet.mine[0]!.keys()].every((d) => d <= 12));
    assert.ok(
      [...fleet.theirs[1]!.keys()].some((d) => d > 12),
      `${[...fleet.theirs[1]!.keys()]}`,
    );
    // Each of the card's Fire actions is shared among the units in reach: at most one per round in all.
    const total = fleet.mine.reduce((t, m) => t + [...m.values()].reduce((a, b) => a + b, 0), 0);
    assert.ok(total <= 6 + 1e-9 && total > 0);
  });
});
