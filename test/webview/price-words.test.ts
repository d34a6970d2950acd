/**
 * The words of "Price by battle" (client/src/priceByBattle.ts): the notification's title already
 * names the card ("Price by battle: NAME"), so its progress lines do not name it again; the final
 * message, which stands alone, names it once.
 */
import { strict as assert } from 'node:assert';
import { battlePriceProgress, battlePriceWords } from '../../client/src/priceWords';
import type { BattlePriceResult } from '../../protocol';

const base: BattlePriceResult = { name: 'Longshot Picket', points: 60, trials: 400, battles: 6, fleets: 0, tried: 6, done: false, field: 'the field' };
const count = (s: string, part: string) => s.split(part).length - 1;

describe('Price by battle, in words', () => {
  it('does not repeat the card\u2019s name under the title that names it', () => {
    const early = battlePriceProgress(base);
    assert.equal(count(early, 'Longshot Picket'), 0, early);
    assert.match(early, /^6 battles played, no price yet/);
    const sofar = battlePriceProgress({ ...base, price: 128, low: 118, high: 140, ratio: 0.47, fleets: 5, estimate: 110 });
    assert.equal(count(sofar, 'Longshot Picket'), 0, sofar);
    const refining = battlePriceProgress({ ...base, price: 128, low: 118, high: 140, ratio: 0.47, fleets: 6, estimate: 110 });
    assert.match(refining, /^Battle price \u2248 128 pts \(likely 118\u2013140\), still refining\. Printed/, 'all six fleets priced is not done yet');
    assert.match(
      sofar,
      /^Battle price \u2248 128 pts \(likely 118\u2013140\), from 5 of 6 opposing fleets so far\. Printed 60 pts is 0\.47 \u00d7 it\. The instant estimate says \u2248 110\.$/,
    );
  });

  it('names the card once in the message that stands alone', () => {
    const done = battlePriceWords({ ...base, price: 132, low: 119, high: 146, ratio: 0.45, fleets: 6, done: true, estimate: 110 });
    assert.equal(count(done, 'Longshot Picket'), 1, done);
    assert.match(done, /^Longshot Picket: battle price \u2248 132 pts \(likely 119\u2013146\)\. Printed/);
  });
});
