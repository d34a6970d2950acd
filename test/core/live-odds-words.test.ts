/** The live odds lens's words (core/features/liveOdds.ts): a figure to the precision its error allows, and the draws when they matter. */
import { strict as assert } from 'node:assert';
import { LIVE_ODDS_DRAWS_SHOWN, liveOddsTitle, oddsFigure, winsFigure } from '../../server/src/core/features/liveOdds';

describe('live odds lens: its words', () => {
  it('gives whole percents while the error is a point or more, one decimal under that, and no error where there is none', () => {
    assert.equal(oddsFigure(0.54, 0.02), '54% \u00b1 2%');
    assert.equal(oddsFigure(0.044, 0.0032), '4.4% \u00b1 0.3%');
    assert.equal(oddsFigure(0.24, 0.0068), '24.0% \u00b1 0.7%');
    assert.equal(oddsFigure(0, 0), '0%');
    assert.equal(oddsFigure(1, 0), '100%');
  });

  it('says the draws beside the wins when they are common enough to change how the wins read', () => {
    assert.equal(winsFigure({ p: 0.34, se: 0.0075 }, 0.31), 'wins 34.0% \u00b1 0.8%, draws 31%');
    assert.equal(winsFigure({ p: 0.6, se: 0.02 }, LIVE_ODDS_DRAWS_SHOWN / 2), 'wins 60% \u00b1 2%');
    assert.equal(
      liveOddsTitle('Lantern <b>Watch</b> $(gear)', { kind: 'final', p: 0.34, se: 0.0075, draw: 0.31, trials: 4000, requested: 4000 }),
      'wins 34.0% \u00b1 0.8%, draws 31% vs Lantern <b>Watch</b> \\$(gear) (4,000 battles)',
    );
  });
});
