/**
 * `morale` (forbidden-stars-combat.txt): the battle lasts three rounds; at the end the side with
 * the higher morale wins (each unrouted unit's Tonnage plus the successes of one LD roll per unit;
 * the defender, the second fleet, wins ties), and the loser's surviving units are routed.
 */
import { rollSucceeds } from '../dice';
import type { BattleActions, BattleView } from '../battle/types';
import type { VariantDefinition } from './types';
import { catalogEntry } from './catalog';

/** The morale of each side: each alive unit's Tonnage plus the successes of one LD roll. */
export function moraleScores(v: BattleView, act: BattleActions): [number, number] {
  const m: [number, number] = [0, 0];
  for (let i = 0; i < v.units.length; i++) {
    if (!v.alive[i]) continue;
    const p = v.units[i]!.profile;
    let x = p.tonnage ?? 0;
    if (p.ld) for (let k = 0; k < p.ld.dice; k++) if (rollSucceeds(act.roll(), p.ld.target)) x++;
    m[v.side[i] as 0 | 1] += x;
  }
  return m;
}

const ROUNDS = catalogEntry('morale').rounds!;

export const MORALE: VariantDefinition = {
  ...catalogEntry('morale'),
  create: () => {
    let winner: 0 | 1 = 1;
    return {
      hooks: {
        endOfBattle: (v, act) => {
          const has = [false, false];
          for (let i = 0; i < v.units.length; i++) if (v.alive[i]) has[v.side[i]!] = true;
          if (has[0] !== has[1]) winner = has[0] ? 0 : 1;
          else if (!has[0]) winner = 1;
          else {
            const [a, b] = moraleScores(v, act);
            winner = a > b ? 0 : 1;
          }
          const loser = 1 - winner;
          for (let i = 0; i < v.units.length; i++) if (v.side[i] === loser && v.alive[i]) act.rout(i);
        },
        // Counted apart (variantVictory): points victory stays by points destroyed (BATTLE.md).
        variantVictory: () => winner,
      },
      assumptions: [
        `Morale: the battle lasts ${ROUNDS} rounds, whatever number of rounds is asked for (it ends sooner only when a side has no unit left).`,
        "Morale: at the end each side's morale is the sum, over its units still in the battle, of the unit's Tonnage plus the successes of one roll of its LD (a unit without Tonnage or LD adds nothing for it); the higher morale wins and the defender (the second fleet) wins ties; a side with no unit left loses (both gone: the defender wins).",
        "Morale: the loser's surviving units are routed: they leave the table intact (not alive, not destroyed), their whole card counts as lost for points victory, and a fleet routed this way has not been annihilated.",
        'Morale: the morale win is its own figure (variantVictory, every battle has one winner by it); points victory is still by points destroyed, routed cards included, and may go the other way.',
      ],
    };
  },
};
