/**
 * The start of each chunk of a battle's trials is the seed's generator state jumped a chunk's
 * worth of times, made with one bit matrix (`jumpState`) instead of a thousand single jumps: it
 * must be exactly the state pure-rand's own jumps reach, for any state and count.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { jumpMatrix, jumpState, jumpedRng } from '../../server/src/core/sim/dice';
import { CHUNK_TRIALS } from '../../server/src/core/sim/battle';

describe('jumping the generator many times at once', () => {
  it('reaches the state of n single jumps, from any state (property)', () => {
    const word = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    fc.assert(
      fc.property(fc.tuple(word, word, word, word), fc.integer({ min: 0, max: 300 }), (state, n) => {
        const g = xoroshiro128plusFromState(state);
        for (let i = 0; i < n; i++) g.jump();
        assert.deepEqual(jumpState(state, jumpMatrix(n)), g.getState());
      }),
      { numRuns: 60 },
    );
  });

  it("gives each chunk's start from a seed, a chunk of trials apart, as the trials' own jumps do", () => {
    for (const seed of [1, 42, 2 ** 31 - 1]) {
      const g = jumpedRng(seed, 0);
      let s = g.getState();
      const chunk = jumpMatrix(CHUNK_TRIALS);
      for (let k = 1; k <= 4; k++) {
        for (let i = 0; i < CHUNK_TRIALS; i++) g.jump();
        s = jumpState(s, chunk);
        assert.deepEqual(s, g.getState(), `seed ${seed}, chunk ${k}`);
        assert.deepEqual(s, jumpedRng(seed, k * CHUNK_TRIALS).getState());
      }
    }
  });
});
