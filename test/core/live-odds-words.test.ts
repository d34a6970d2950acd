/** The live odds lens's words (core/features/liveOdds.ts): a figure to the precision its error allows, and the draws when they matter. */
import { strict as assert } from 'node:assert';
import {
  LIVE_ODDS_DRAWS_SHOWN,
  LIVE_ODDS_TITLE_MAX,
  liveOddsDetail,
  liveOddsTitle,
  oddsFigure,
  winsFigure,
  type LiveOddsState,
} from '../../server/src/core/features/liveOdds';

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
      liveOddsDetail('Lantern <b>Watch</b> $(gear)', { kind: 'final', p: 0.34, se: 0.0075, draw: 0.31, trials: 4000, requested: 4000 }),
      'wins 34.0% \u00b1 0.8%, draws 31% vs Lantern <b>Watch</b> \\$(gear) (4,000 battles)',
    );
    // A run until sure says how sure, in the words of `battle`'s report and the battle view.
    const sure: LiveOddsState = { kind: 'final', p: 0.34, se: 0.0088, draw: 0.31, trials: 3000, requested: 4000, stopped: 'precision', precision: 0.0187 };
    assert.equal(liveOddsDetail('Lantern Watch', sure), 'wins 34.0% \u00b1 0.9%, draws 31% vs Lantern Watch (3,000 battles, sure to \u00b11.9%)');
    assert.equal(
      liveOddsDetail('Lantern Watch', { ...sure, trials: 4000, stopped: 'cap', precision: 0.0231 }),
      'wins 34.0% \u00b1 0.9%, draws 31% vs Lantern Watch (4,000 battles, stopped at the cap: \u00b12.3%)',
    );
    assert.equal(
      liveOddsDetail('Lantern Watch', { kind: 'partial', p: 0.5, se: 0.02, draw: 0.01, trials: 1000, requested: 4000 }),
      'wins 50% \u00b1 2% vs Lantern Watch (1,000 of at most 4,000 battles)',
    );
  });

  it('keeps the title short enough for a half-width editor, with the whole text in the tooltip', () => {
    const final: LiveOddsState = { kind: 'final', p: 0.54, se: 0.008, draw: 0.31, trials: 4000, requested: 4000 };
    const states: [string, LiveOddsState][] = [
      ['Lantern Watch', final],
      ['The Very Long Opponent Fleet Name Of The Outer Rim', final],
      ['Lantern Watch', { kind: 'waiting' }],
      ['Lantern Watch', { kind: 'partial', p: 0.5, se: 0.02, draw: 0.1, trials: 1000, requested: 4000, note: 'waiting for a free core' }],
      [
        'Lanturn Wach',
        { kind: 'failed', why: 'no fleet named "Lanturn Wach"; did you mean "Lantern Watch"? (a fleet file, or a fleet\'s name such as "A", "B")' },
      ],
      ['Lantern Watch', { kind: 'failed', why: 'this fleet cannot fight yet: line 4: YAML error: bad indentation of a mapping entry at line 4, column 9' }],
    ];
    for (const [vs, s] of states) {
      const title = liveOddsTitle(vs, s);
      const detail = liveOddsDetail(vs, s);
      assert.ok(title.length <= LIVE_ODDS_TITLE_MAX, `${JSON.stringify(title)} is ${title.length} characters`);
      assert.ok(detail.length > title.length, detail);
      if (s.kind === 'failed') assert.ok(detail.includes(s.why), detail);
      else assert.ok(detail.includes(`vs ${vs}`), detail);
    }
    // The figure first; the opponent's name where it fits.
    assert.equal(liveOddsTitle('Lantern Watch', final), 'wins 54.0% \u00b1 0.8%, draws 31%');
    assert.equal(liveOddsTitle('Lantern Watch', { ...final, draw: 0.01, se: 0.02 }), 'wins 54% \u00b1 2% vs Lantern Watch');
    // The misspelt opponent's title says the name to type; the YAML error's, that the fleet cannot fight (the line in the tooltip).
    assert.equal(liveOddsTitle(...states[4]!), 'Live odds: did you mean "Lantern Watch"?');
    assert.equal(liveOddsTitle(...states[5]!), 'Live odds: this fleet cannot fight yet');
  });
});
