/**
 * The exact volley's count of the d10s a player rolls at the table (`WeaponTally.expectedDice`,
 * the benchmark's tabletop floor) against the literal sampled volley, which rolls exactly those
 * dice one by one (every attack die, a dodge roll per normal hit, an armour roll per hit that met
 * no shields): over many volleys the mean number of dice it draws is the expected count.
 */
import { strict as assert } from 'node:assert';
import { planFire } from '../../server/src/core/sim/fire';
import { exactVolley } from '../../server/src/core/sim/volley-exact';
import { sampleVolley } from '../../server/src/core/sim/volley-sample';
import { Dice, makeRng } from '../../server/src/core/sim/dice';
import type { UnitProfile, WeaponProfile } from '../../server/src/core/sim/types';
import type { WeaponType } from '../../server/src/core/rules/data';
import { BattleRun } from '../../server/src/core/sim/battle';
import type { Fleet } from '../../server/src/core/sim/battle';

function unit(p: Partial<UnitProfile> = {}): UnitProfile {
  return { name: 'U', class: 'Destroyer', bases: 1, baseMm: 60, bs: 5, hp: 10, combinedShields: false, weapons: [], ...p };
}
function gun(type: WeaponType, attacks: number, damage = 1): WeaponProfile {
  return { name: `${type} gun`, type, range: 12, damage, attacks };
}

describe('sim: the d10s a volley rolls at the table', () => {
  // Defenders with HP enough to survive every volley (a destroyed unit stops rolling armour).
  const cases: { name: string; att: UnitProfile; def: UnitProfile; sh?: number }[] = [
    { name: 'attack dice only (no D, no AC)', att: unit({ weapons: [gun('Piercing', 4)] }), def: unit({ hp: 100 }) },
    { name: 'dodge and armour, shields down', att: unit({ weapons: [gun('Ion', 5), gun('Blast', 3)] }), def: unit({ hp: 100, dodge: 7, armour: 6 }) },
    { name: 'Auto extra hits are dodged too', att: unit({ weapons: [gun('Auto', 6)] }), def: unit({ hp: 100, dodge: 8, armour: 5 }) },
    { name: 'Energy against D', att: unit({ weapons: [gun('Energy', 6, 2)] }), def: unit({ hp: 100, dodge: 6, armour: 6 }) },
    {
      name: 'shields up absorb hits before armour',
      att: unit({ weapons: [gun('Energy', 5, 2), gun('Ion', 4)] }),
      def: unit({ hp: 100, sh: 4, armour: 5, dodge: 9 }),
      sh: 4,
    },
    {
      name: 'a squadron attacker, bases several',
      att: unit({ class: 'Frigate', bases: 3, weapons: [gun('Blast', 2), gun('Auto', 3)] }),
      def: unit({ class: 'Frigate', bases: 2, hp: 60, sh: 2, armour: 6, combinedShields: true }),
      sh: 2,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const ctx = planFire(c.att, c.def, { attackerBases: c.att.bases, cover: false, brace: false });
      const hull = c.def.bases * c.def.hp;
      const sh = c.sh ?? 0;
      const stride = (c.def.sh ?? 0) * c.def.bases + 1;
      const ex = exactVolley(ctx, new Map([[hull * stride + sh, 1]]), stride, { ops: 0, limit: Infinity })!;
      const expected = ex.tallies.reduce((a, t) => a + t.expectedDice!, 0);
      const dice = new Dice(makeRng(11));
      const trials = 40_000;
      let sum = 0;
      let sum2 = 0;
      for (let i = 0; i < trials; i++) {
        const before = dice.draws;
        const s = { sh, hull };
        sampleVolley(ctx, s, dice);
        const n = dice.draws - before;
        assert.ok(s.hull > 0, 'the defender survives (so every armour roll is made)');
        sum += n;
        sum2 += n * n;
      }
      const mean = sum / trials;
      const se = Math.sqrt(Math.max(0, sum2 / trials - mean * mean) / trials);
      assert.ok(expected > 0);
      assert.ok(Math.abs(mean - expected) <= 5 * se + 1e-9, `expected ${expected} d10s, the dice rolled ${mean} (standard error ${se})`);
    });
});

describe("battle: the d10s a trial rolls at the table (the benchmark's second floor)", () => {
  it('counts each exact Fire action by its expected dice and Initiative by both LD rolls', () => {
    // BS 3+ is the best target already, so Aim changes nothing; no SH, no AC: no second action
    // rolls. HP enough that both fire once in the round.
    const a = unit({ name: 'A', bs: 3, hp: 500, ld: { target: 5, dice: 2 }, weapons: [gun('Ion', 4), gun('Auto', 3)] });
    const b = unit({ name: 'B', bs: 3, hp: 500, dodge: 7, ld: { target: 6, dice: 3 }, weapons: [gun('Blast', 5)] });
    const side = (p: UnitProfile): Fleet => ({ name: p.name, faction: p.name, units: [{ name: p.name, copy: 1, points: 100, profile: p }] });
    const trials = 300;
    const run = new BattleRun([side(a), side(b)], { range: 12, depth: 48, rounds: 1, trials, seed: 3 }, makeRng(3));
    run.step();
    assert.equal(run.mode, 'kernel');
    assert.equal(run.trials, trials);
    const rolled = (att: UnitProfile, def: UnitProfile) => {
      const ctx = planFire(att, def, { attackerBases: 1, cover: false, brace: false, range: 12 });
      const ex = exactVolley(ctx, new Map([[def.hp, 1]]), 1, { ops: 0, limit: Infinity })!;
      return ex.tallies.reduce((n, t) => n + t.expectedDice!, 0);
    };
    const perTrial = 2 + 3 + rolled(a, b) + rolled(b, a);
    assert.ok(Math.abs(run.tabletopDice / trials - perTrial) < 1e-9, `${run.tabletopDice / trials} d10s a trial, expected ${perTrial}`);
    // The numbers drawn: one for Initiative and one for each Fire action.
    assert.equal(run.diceDrawn, 3 * trials);
  });
});
