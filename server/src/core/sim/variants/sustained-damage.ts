/**
 * `sustained-damage` (target-lock-damage.txt): damage to a multi-base unit goes into one shared pool
 * instead of base by base with the excess lost; a base is removed each time the pool reaches a
 * base's HP; a hit can remove at most one base (Target Limit: as many bases as unsaved hits); a
 * weapon whose damage exceeds the HP per base removes a base per hit at once (Grievous Damage).
 *
 * The state is still the unit's remaining hull total: the pool is what the damaged base has lost
 * (bases left x HP - hull), so no new state is needed and the exact kernels apply unchanged.
 */
import type { VariantDefinition } from './types';
import { catalogEntry } from './catalog';

/** Hull left after `hits` unsaved hits of `damage` each under sustained damage (`hp` per base). */
export function sustainedHits(hull: number, hits: number, damage: number, hp: number): number {
  if (hits <= 0 || hull <= 0 || damage <= 0 || hp <= 0) return hull;
  const bases = Math.ceil(hull / hp);
  // Grievous: each hit removes a whole base at once; the pool stays as it is.
  if (damage > hp) return Math.max(0, hull - Math.min(hits, bases) * hp);
  const pool = bases * hp - hull + hits * damage;
  // With damage <= HP and the pool below one base's HP, floor(pool / hp) <= hits: the Target Limit holds.
  const removed = Math.min(bases, hits, Math.floor(pool / hp));
  if (removed >= bases) return 0;
  return (bases - removed) * hp - (pool - removed * hp);
}

export const SUSTAINED_DAMAGE: VariantDefinition = {
  ...catalogEntry('sustained-damage'),
  create: () => ({
    hooks: { allocateDamage: sustainedHits },
    assumptions: [
      "Sustained damage: one unsaved hit is one Target Lock and the weapon's damage its Force; damage to a unit goes into one shared pool (kept as the unit's hull left) and a base is removed each time the pool reaches a base's HP, so no damage is lost between bases.",
      "Sustained damage: Target Limit — a Fire action's normal damage removes at most as many bases as it scored unsaved hits; with damage up to a base's HP the pool never reaches that limit, so it binds only through Grievous damage.",
      "Sustained damage: Grievous — a weapon whose damage exceeds the target's HP per base removes one whole base per unsaved hit at once (Critical Damage), leaving the pool as it was.",
      'Sustained damage: each weapon of a Fire action adds its unsaved hits to the pool in card order; Board and Ram damage go into the same pool. A unit of one base is unchanged.',
    ],
  }),
};
