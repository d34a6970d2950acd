/**
 * The battle result's parser in the view (client/webview/battle/messages.ts), checked in Node on
 * results the simulator produced: each one survives the trip through JSON and the parser unchanged,
 * so the view's schema knows every field the engine sends (a new field the schema does not know
 * would be dropped, and this fails), and it still refuses what the engine never sends.
 */
import assert from 'node:assert/strict';
import { parseBattleHostMessage, parseBattleResult } from '../../client/webview/battle/messages';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import type { Fleet } from '../../server/src/core/sim/battle';
import type { BattleResult, UnitProfile } from '../../server/src/core/sim/types';

function unit(name: string, p: Partial<UnitProfile>): UnitProfile {
  return {
    name,
    class: 'Destroyer',
    bases: 1,
    baseMm: 60,
    bs: 5,
    hp: 6,
    sh: 2,
    armour: 6,
    combinedShields: false,
    move: [9, 6],
    weapons: [{ name: 'Gun', type: 'Energy', range: 12, damage: 2, attacks: 3 }],
    ...p,
  };
}

/** Two small fleets that fire, board (CR), carry a fighter (embarked) and field a squadron. */
function fleets(): [Fleet, Fleet] {
  return [
    {
      name: 'Lantern Watch',
      faction: 'Myr-Valari',
      units: [
        { name: 'Lumen Cruiser', copy: 1, points: 190, profile: unit('Lumen Cruiser', { hp: 8, ld: { target: 5, dice: 3 }, cr: { target: 6, dice: 2 } }) },
        { name: 'Lumen Destroyer', copy: 1, points: 145, profile: unit('Lumen Destroyer', {}) },
        { name: 'Lumen Destroyer', copy: 2, points: 145, profile: unit('Lumen Destroyer', { tonnage: 2 }) },
      ],
    },
    {
      name: 'The Hunger Within',
      faction: 'Consumed',
      units: [
        { name: 'Maw Cruiser', copy: 1, points: 190, profile: unit('Maw Cruiser', { hp: 9, cr: { target: 5, dice: 4 } }) },
        { name: 'Maw Escort', copy: 1, points: 80, profile: unit('Maw Escort', { class: 'Escort', bases: 3, hp: 2, sh: 1, combinedShields: true }) },
        {
          name: 'Maw Fighter',
          copy: 1,
          points: 30,
          host: 0,
          profile: unit('Maw Fighter', {
            class: 'Fighter',
            bases: 2,
            hp: 1,
            sh: 0,
            weapons: [{ name: 'Claws', type: 'Auto', range: 6, damage: 1, attacks: 1 }],
          }),
        },
      ],
    },
  ];
}

const roundTrip = (r: BattleResult) => parseBattleResult(JSON.parse(JSON.stringify(r)));

describe('battle view messages: the result parser', () => {
  const results: [string, () => BattleResult][] = [
    ['an approach battle', () => simulateBattle(fleets(), { trials: 300, seed: 4 })],
    ['a battle at a fixed range', () => simulateBattle(fleets(), { trials: 300, seed: 5, range: 12, rounds: 3 })],
    ['a variant with a parameter', () => simulateBattle(fleets(), { trials: 300, seed: 6, variants: ['retreat:threshold=0.3'] })],
    ['variants compared with the standard rules', () => simulateBattle(fleets(), { trials: 300, seed: 7, variants: ['morale', 'break-tests'], compare: true })],
    ['a run whose trials reach the work limit of one trial', () => simulateBattle(fleets(), { trials: 2000, seed: 8 }, { workLimit: 607 })],
  ];
  for (const [what, make] of results) {
    it(`takes ${what} through JSON and back unchanged`, () => {
      const result = make();
      assert.deepEqual(roundTrip(result), result);
      assert.deepEqual(parseBattleHostMessage({ type: 'result', result, partial: false }), { type: 'result', result, partial: false });
    });
  }

  it('covers the optional parts: variant rules, the comparison, a cut-short run', () => {
    const compared = results[3]![1]();
    assert.ok(compared.compare && compared.variantRules?.length === 2, 'a compared result carries both');
    const cut = results[4]![1]();
    assert.equal(cut.cutShort, true);
    assert.ok(cut.requestedTrials === 2000 && cut.trials === 2000, `ran ${cut.trials} of ${cut.requestedTrials}`);
    assert.ok(cut.cutTrials! > 0 && cut.cutTrials! < 2000, `${cut.cutTrials} trials ended at the limit`);
  });

  it('refuses a result the engine never sends', () => {
    const good = results[0]![1]();
    const bad: [string, unknown][] = [
      ['a chance above 1', { ...good, draw: { ...good.draw, p: 1.5 } }],
      ['a side missing', { ...good, sides: [good.sides[0]] }],
      ['an unknown mode', { ...good, mode: 'teleport' }],
      ['NaN rounds', { ...good, meanRounds: Number.NaN }],
    ];
    for (const [what, r] of bad) assert.equal(parseBattleResult(r), undefined, what);
  });
});
