/**
 * Hostile simulations: simulations that pass every size guard but, without a work budget, ran for
 * minutes. Each hostile case of the corpus (SIM_CASES) must end by counted work, not time: the
 * same result every run, fewer trials than asked when a duel's budget ran out (a fleet battle's
 * budget is one trial's: each trial ends at it and every trial is played), and a result that says
 * so. (Before the budget, each of these ran for minutes and these tests timed out.)
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { profileFromCard, simulate } from '../../server/src/core/sim/index';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import { SIM_CASES } from './corpus';

function profiles(c: (typeof SIM_CASES)[number]) {
  const ws = new Workspace();
  ws.set('file:///hostile/sim.unit.yaml', c.cards);
  const card = (name: string) => {
    const ref = ws.findCards(name)[0];
    assert.ok(ref, `card ${name}`);
    const p = profileFromCard(ref.card);
    assert.ok(p.profile, p.error);
    return p.profile;
  };
  return [card(c.attacker), card(c.defender)] as const;
}

describe('hardening: simulations bounded by counted work', function () {
  this.timeout(120_000);
  for (const c of SIM_CASES)
    it(`${c.name}: ends, and says when it was cut short`, () => {
      const [a, d] = profiles(c);
      const r = simulate(a, d, c.options);
      const e = r.engagement;
      const asked = c.options.trials ?? 20000;
      assert.ok(e.trials >= 1 && e.trials <= asked);
      if (e.trials < asked) {
        assert.equal(e.cutShort, true);
        assert.equal(e.requestedTrials, asked);
        assert.ok(r.assumptions.some((x) => x.startsWith('Cut short') && x.includes(`${e.trials} of ${asked}`)));
        // The standard errors are those of the trials that ran.
        const p = e.attackerWins;
        assert.ok(Math.abs(e.standardError.attackerWins - Math.sqrt((p * (1 - p)) / e.trials)) < 1e-12);
      } else assert.equal(e.cutShort, undefined);
    });

  it('a million trials of a hundred rounds are cut short the same way every run', () => {
    const c = SIM_CASES[2]!;
    const [a, d] = profiles(c);
    const one = simulate(a, d, c.options).engagement;
    const two = simulate(a, d, c.options).engagement;
    assert.equal(one.cutShort, true);
    assert.ok(one.trials < 1_000_000);
    assert.deepEqual(one, two);
  });

  it('a fleet battle of the hostile cards ends each trial by its budget, and plays every trial', () => {
    const c = SIM_CASES[0]!;
    const [a, d] = profiles(c);
    const fleet = (p: typeof a) => ({
      name: p.name,
      faction: 'Hostile',
      units: [0, 1, 2].map((i) => ({ name: p.name, copy: i + 1, points: 480, profile: p })),
    });
    // A fleet battle's limit is one trial's (TRIAL_WORK_LIMIT): a run plays every trial asked, so
    // a few of these 100-round trials (tens of millions of steps each unbounded) end at their limit.
    const started = performance.now();
    const r = simulateBattle([fleet(a), fleet(d)], { trials: 3, rounds: 100 });
    assert.ok(performance.now() - started < 60_000, 'three trials end by counted work');
    assert.equal(r.trials, 3);
    assert.equal(r.cutTrials, 3);
    assert.ok(r.assumptions.some((x) => x.startsWith('Cut short: 3 of 3 trials reached the work limit of one battle')));
    assert.deepEqual(simulateBattle([fleet(a), fleet(d)], { trials: 3, rounds: 100 }), r, 'the same result every run');
  });
});
