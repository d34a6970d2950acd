/**
 * `retreat` (twilight-imperium-space-combat-retreat.txt, rules 78.4 and 78.7): at the start of a
 * round a side may announce a retreat; at the end of that round, if both sides still have units,
 * the announcing side's units leave the battle (alive) and the battle ends: the side left on the
 * table holds the field. The policy announces when the side's remaining points fall below a share
 * (`threshold`) of the enemy's.
 */
import { basesLeft } from '../fire';
import type { BattleView } from '../battle/types';
import type { VariantDefinition } from './types';
import { catalogEntry } from './catalog';
import { CLASSES, type UnitClass } from '../../rules/data';

/**
 * What a unit is worth to the retreat policy: its points in the battle, or, where the run carries
 * none (the duel of `sim` plays two one-unit fleets without points, so that its standard figures
 * never depend on them), its card's points, else its class's points in the rulebook.
 */
function worth(points: number, profile: { class: UnitClass; points?: number }): number {
  return points > 0 ? points : (profile.points ?? CLASSES[profile.class]?.points ?? 0);
}

/** Points a side still has on the table or waiting: each alive unit's bases left x its worth per base. */
export function remainingPoints(v: BattleView): [number, number] {
  const out: [number, number] = [0, 0];
  for (let i = 0; i < v.units.length; i++) {
    if (!v.alive[i]) continue;
    const u = v.units[i]!;
    const p = u.profile;
    out[v.side[i] as 0 | 1] += (basesLeft(v.hull[i]!, p.hp) * worth(u.points, p)) / Math.max(1, p.bases);
  }
  return out;
}

function sideHasUnits(v: BattleView, s: number): boolean {
  for (let i = 0; i < v.units.length; i++) if (v.alive[i] && v.side[i] === s) return true;
  return false;
}

export const RETREAT: VariantDefinition = {
  ...catalogEntry('retreat'),
  create: (params) => {
    const threshold = params.threshold ?? catalogEntry('retreat').parameters.threshold!.default;
    let announced: [boolean, boolean] = [false, false];
    return {
      hooks: {
        startOfRound: (v) => {
          const [a, b] = remainingPoints(v);
          // The defender (the second fleet) announces first (78.4); with a threshold of at most 1 only one side can be behind.
          announced = [false, false];
          if (b < threshold * a) announced[1] = true;
          else if (a < threshold * b) announced[0] = true;
        },
        endOfRound: (v, act) => {
          if (!sideHasUnits(v, 0) || !sideHasUnits(v, 1)) return false;
          for (const s of [0, 1] as const)
            if (announced[s] && sideHasUnits(v, s)) {
              act.withdraw(s);
              return true;
            }
          return false;
        },
      },
      assumptions: [
        `Retreat: at the start of each round (from the first), a side whose remaining points (alive units, bases left x points per base) are below ${threshold * 100}% of the enemy's announces a retreat; the defender (the second fleet) is asked first.`,
        'Retreat: the retreat happens at the end of that round if both sides still have units: every unit of the retreating side leaves the battle alive (embarked units with their hosts) and the battle ends; the other side holds the field. There is no system to retreat to on this table, so a retreat is never refused.',
        'Retreat: retreating units are not destroyed (their survival counts them alive); points victory is still by points destroyed.',
        "Retreat: in a duel (`sim`) each unit is weighed by its card's points (its class's in the rulebook where the card has none).",
      ],
    };
  },
};
