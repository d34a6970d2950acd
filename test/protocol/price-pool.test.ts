/**
 * `balance --battles` on worker threads (server/src/cli/price-pool.ts, on the simulations'
 * pool and its bundled dist/sim-worker.js): the same prices as in process (each battle stopped at the same trial), whatever the number of threads, and the
 * threads end with the pool.
 */
import { strict as assert } from 'node:assert';
import { pricePool } from '../../server/src/cli/price-pool';
import { workerFile } from '../../server/src/node/sim-pool';
import { bundledBattleField } from '../../server/src/core/balance/fitted';
import { playInProcess, priceCard } from '../../server/src/core/balance/battles';

describe('balance --battles on worker threads', function () {
  this.timeout(120_000);

  it('prices a card exactly as in process, on two threads', async () => {
    assert.ok(workerFile(), 'dist/sim-worker.js is built (npm run build)');
    const field = bundledBattleField();
    const pool = pricePool(2);
    try {
      assert.equal(pool.threads, 2);
      const card = field.cards.find((c) => c.class === 'Frigate')!;
      // Enough trials that battles stop when sure (BATTLE_PRICE.sure): at the same trial on a thread as here.
      const o = { trials: 400, sizes: [500, 1000] };
      const [there, here] = [await priceCard(card, field, pool.play, o), await priceCard(card, field, playInProcess(), o)];
      assert.ok(there.price! > 0);
      assert.deepEqual(there, here);
      const battles = there.against.reduce((n, a) => n + a.tried.length, 0);
      assert.ok(there.trials < 400 * battles, `${there.trials} trials in ${battles} battles: some stopped when sure`);
    } finally {
      await pool.close();
    }
  });

  it('plays in process when given one thread', () => {
    assert.equal(pricePool(1).threads, 1);
  });
});
