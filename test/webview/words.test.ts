/**
 * The engagement view's sentences for players (client/webview/engagement/words.ts), checked on results of the
 * real simulator and on hand-made edge cases: who leads, "usually by round N", and nothing happening.
 */
import assert from 'node:assert/strict';
import type { SimulationResult } from '../../server/src/core/sim/types';
import { inFormWords, plainAssumptions, roughPercent, usualRound, verdict, volleySentence } from '../../client/webview/engagement/words';
import { destroyerVsFrigates, simulated } from './fixtures';

/** A result whose duel has the given outcome chances and survival curve. */
function duel(attackerWins: number, defenderWins: number, survival: [attacker: number, defender: number][]): SimulationResult {
  const r = destroyerVsFrigates();
  r.engagement.attackerWins = attackerWins;
  r.engagement.defenderWins = defenderWins;
  r.engagement.neither = Math.max(0, 1 - attackerWins - defenderWins);
  r.engagement.rounds = survival.length;
  r.engagement.survival = survival.map(([attacker, defender], i) => ({ round: i + 1, attacker, defender }));
  return r;
}

describe('engagement view words', () => {
  it('rounds chances as a player reads them, never to a false 0% or 100%', () => {
    assert.deepEqual([0, 0.004, 0.2349, 0.5, 0.994, 0.996, 1].map(roughPercent), ['0%', 'under 1%', '23%', '50%', '99%', 'over 99%', '100%']);
  });

  it('names the likelier winner, how often, and the round by which most of its wins happen', () => {
    const r = duel(0.89, 0.05, [
      [1, 0.8],
      [0.99, 0.55],
      [0.97, 0.4],
      [0.96, 0.2],
      [0.95, 0.12],
      [0.95, 0.11],
    ]);
    // Half of the attacker's wins are in by round 2: the defender is dead by then 1 - 0.55 = 45% >= 89% / 2.
    assert.equal(usualRound(r, 'attacker'), 2);
    assert.equal(
      verdict(r),
      'Lumen Destroyer wins 89% of 6-round duels at 12", usually by round 2. Maw Frigate Pack wins 5%; 6% end with both still in the fight.',
    );
    const d = duel(0.1, 0.7, [
      [0.2, 0.95],
      [0.1, 0.9],
    ]);
    assert.match(verdict(d), /^Maw Frigate Pack wins 70% of 2-round duels at 12", usually in the first round\. Lumen Destroyer wins 10%; 20% end/);
  });

  it('leads with the duels that decide nothing when they are the most likely outcome', () => {
    const r = duel(0.03, 0.02, [
      [1, 1],
      [1, 0.99],
      [0.99, 0.99],
      [0.99, 0.98],
      [0.98, 0.97],
      [0.98, 0.97],
    ]);
    assert.equal(
      verdict(r),
      '95% of 6-round duels at 12" end with both units still in the fight. Lumen Destroyer wins 3% (usually by round 4), Maw Frigate Pack 2%.',
    );
  });

  it('says so when nobody is destroyed, and when no weapon reaches', () => {
    const none = duel(0, 0, [
      [1, 1],
      [1, 1],
    ]);
    assert.equal(verdict(none), 'Neither unit destroys the other in 2 rounds at 12": every duel ends with both still in the fight.');
    const far = simulated({ range: 30, trials: 200, seed: 1 });
    assert.equal(verdict(far), 'At 30" neither unit can fire (Lumen Destroyer reaches 18", Consumed Maw Frigate 12"): nothing happens in the duel.');
    assert.equal(volleySentence(far), 'At 30" none of Lumen Destroyer\'s weapons reach Consumed Maw Frigate: its Fire action does nothing.');
  });

  it('says how often each fled, the win on morale, and both destroyed by one Ram, never "still in the fight" for those', () => {
    const fled = duel(0, 0, [
      [1, 1],
      [1, 0.4],
    ]);
    fled.engagement.routed = { attacker: 0, defender: 0.6 };
    fled.engagement.variantVictory = { attacker: 0.6, defender: 0.4 };
    assert.equal(
      verdict(fled),
      'Neither unit destroys the other and survives in 2 rounds at 12". On morale, Lumen Destroyer wins 60% and Maw Frigate Pack 40%. Lumen Destroyer flees in 0%, Maw Frigate Pack in 60% (fled intact: not destroyed).',
    );
    const rammed = duel(0.1, 0, [
      [0.2, 0.1],
      [0.2, 0.1],
    ]);
    rammed.engagement.bothDestroyed = 0.8;
    assert.equal(
      verdict(rammed),
      '90% of 2-round duels at 12" end with neither unit destroying the other. Lumen Destroyer wins 10% (usually in the first round). In 80% one Ram destroys both at once: nobody wins.',
    );
  });

  it('describes one Fire action in a sentence', () => {
    const near = simulated({ range: 9, trials: 200, seed: 1 });
    assert.match(
      volleySentence(near),
      /^One Fire action from Lumen Destroyer deals \d+\.\d HP to Consumed Maw Frigate on average after stripping \d+\.\d shields, and (never destroys it|destroys it .*)\.$/,
    );
    const stripOnly = destroyerVsFrigates();
    stripOnly.volley.expectedHullDamage = 0;
    assert.equal(
      volleySentence(stripOnly),
      "One Fire action from Lumen Destroyer strips 1.8 of Maw Frigate Pack's shields on average but does not reach its hull.",
    );
  });

  it('words the assumptions after the form, with no CLI flags', () => {
    const any = simulated({ trials: 200, seed: 1 });
    const lines = plainAssumptions(any);
    assert.equal(lines[0], 'Range "any": every weapon fires in the single Fire action; the duel is fought at 12".');
    for (const line of [
      ...lines,
      ...plainAssumptions(simulated({ range: 6, cover: true, brace: true, aim: 'Lumen Lance', defenderShields: 2, trials: 200, seed: 1 })),
    ]) {
      assert.doesNotMatch(line, /--[a-z]|defenderShields|attackerBases/);
    }
    const opts = plainAssumptions(simulated({ range: 6, cover: true, brace: true, aim: 'Lumen Lance', defenderShields: 2, trials: 200, seed: 1 }));
    assert.ok(opts.includes('Consumed Maw Frigate is in cover, in the Fire action and in the duel.'));
    assert.ok(opts.some((l) => l.startsWith('In the single Fire action Lumen Lance is aimed and Consumed Maw Frigate has braced;')));
    assert.ok(opts.includes('Consumed Maw Frigate starts with 2 shields up; Lumen Destroyer starts with full shields.'));
  });

  it('names the CLI flags in the simulator\u2019s own assumptions as the form does', () => {
    assert.equal(
      inFormWords('the defender with --defender-shields (default full); --aim and --brace apply to the single volley, --unknown-flag stays'),
      'the defender with "Defender shields" (default full); "Aim" and "Defender braced" apply to the single volley, --unknown-flag stays',
    );
    for (const line of simulated({ trials: 200, seed: 1 }).assumptions.map(inFormWords)) assert.doesNotMatch(line, /--[a-z]/);
  });
});
