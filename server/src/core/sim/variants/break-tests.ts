/**
 * `break-tests` (rank-and-flank-melee.txt): after each round each side's combat score is the HP it
 * caused that round; the side with the lower score tests every unit with its LD: a unit holds when
 * its LD roll's successes reach the score difference (a unit without LD holds); a unit that fails
 * flees (routed: never acts again, not destroyed, its points count as lost).
 */
import { rollSucceeds } from '../dice';
import type { BattleView } from '../battle/types';
import type { VariantDefinition } from './types';
import { catalogEntry } from './catalog';

/** HP each side caused since `before` (the hull of every unit at the start of the round). */
export function combatScores(v: BattleView, before: Float64Array): [number, number] {
  const score: [number, number] = [0, 0];
  for (let i = 0; i < v.units.length; i++) {
    const lost = Math.max(0, before[i]! - v.hull[i]!);
    score[(1 - v.side[i]!) as 0 | 1] += lost;
  }
  return score;
}

export const BREAK_TESTS: VariantDefinition = {
  ...catalogEntry('break-tests'),
  create: () => {
    let before = new Float64Array(0);
    return {
      hooks: {
        startOfRound: (v) => {
          if (before.length !== v.hull.length) before = new Float64Array(v.hull.length);
          before.set(v.hull);
        },
        endOfRound: (v, act) => {
          const [a, b] = combatScores(v, before);
          if (a === b) return false;
          const loser = a < b ? 0 : 1;
          const diff = Math.abs(a - b);
          for (let i = 0; i < v.units.length; i++) {
            // Units on the table test; embarked units go with their host.
            if (v.side[i] !== loser || !v.alive[i] || (v.host[i]! >= 0 && !v.onTable[i])) continue;
            const ld = v.units[i]!.profile.ld;
            if (!ld) continue;
            let successes = 0;
            for (let k = 0; k < ld.dice; k++) if (rollSucceeds(act.roll(), ld.target)) successes++;
            if (successes < diff) act.rout(i);
          }
          return false;
        },
      },
      assumptions: [
        "Break tests: a side's combat score for a round is the HP it caused that round (hull points its enemies lost, by Fire, Board and Ram; shields do not count; there are no flank or rear bonuses on this table).",
        'Break tests: after each round the side with the lower score tests each of its units on the table with its LD (equal scores: nobody tests); a unit holds when its successes reach the score difference; a unit without LD never breaks.',
        'Break tests: a unit that fails is routed: it flees the battle intact (with what it carries) and never acts again; it is not alive (the survival figures show it apart, as routed), it counts as lost for Action Tokens and its whole card counts as points destroyed by the enemy for points victory, but a fleet driven off this way has not been annihilated ("destroys the other fleet" counts destructions only).',
        'Break tests: when the last units of a side flee at the end of a round, the battle ends with that round (it lasted that many rounds).',
      ],
    };
  },
};
