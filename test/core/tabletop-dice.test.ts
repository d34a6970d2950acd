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
