/**
 * The pieces of the reference model of one Fire action (RULES.md) that the exact and the sampled
 * paths share: which weapons fire and with what chances (a "plan"), the shield step and the damage
 * step. Every figure comes from the rules pack.
 *
 * Interpretations (also listed in `FIRE_ASSUMPTIONS`, which the results carry):
 * - A target number is the stat plus all its modifiers, and only then held at 3+ (so BS 3+ aimed at
 *   a target in cover is 3+, not 4+).
 * - Dogfighters and Precision Strike replace the weapon's printed attacks with one (or two) per
 *   remaining attacker base; Blast then multiplies whatever count the weapon has by the
 *   defender's bases left at the moment that weapon fires.
 * - Auto's extra hits are normal hits: they can be dodged, meet shields after the Critical Hits and
 *   take the normal-hit armour modifier.
 * - The defender's state is its current SH and its remaining hull points (the sum of the HP of its
 *   bases; bases left and the damaged base's HP follow from it, since damage beyond a base's HP is
 *   lost and only one base is ever damaged).
 * - Combined Shields: a base can only die from a hit that met no shields, and hits meet shields
 *   while SH > 0, so SH is already 0 whenever a base is destroyed during a Fire action; the pool
 *   cut of step 7 never changes SH within one Fire action, and shields removed = SH before - SH after.
 */
import { CLASSES, DICE, FIRE, DOGFIGHTERS, PRECISION_STRIKE, SMALL_CRAFT_MAX_RANGE, UNIVERSAL_RULES } from '../rules/data';
import type { UnitClass } from '../rules/data';
import type { UnitProfile, WeaponProfile } from './types';
import { clampTarget, hitChances, pSuccess } from './dice';

/** Everything one weapon system needs to resolve its part of a Fire action against one defender. */
export interface WeaponPlan {
  index: number;
  weapon: WeaponProfile;
  /** Whether its range reaches the target (weapons that do not reach do not fire). */
  inRange: boolean;
  aimed: boolean;
  /** Attacks before Blast. */
  baseAttacks: number;
  blast: boolean;
  /** Per-die chances. */
  pCrit: number;
  pNormal: number;
  /** BS target number after cover and aim, held at 3+. */
  hitTarget: number;
  /** Dodge target numbers without and with the Energy penalty (undefined: the defender has no D). */
  dodgeTarget?: number;
  dodgeTargetEnergy?: number;
  /** Armour target numbers for a Critical Hit and a normal hit (undefined: the defender has no AC). */
  armourTargetCrit?: number;
  armourTargetNormal?: number;
  /** Chance that a normal hit is dodged, without and with the Energy penalty (0 without D). */
  pDodge: number;
  pDodgeEnergy: number;
  /** Whether the Energy penalty applies (Energy weapon against a defender with D). */
  energy: boolean;
  auto: boolean;
  /** Extra normal hits per Critical Hit (Auto; 0 otherwise). */
  extraHitsPerCrit: number;
  /** SH one absorbed hit removes: Critical Hit and normal hit. */
  shieldsPerCrit: number;
  shieldsPerHit: number;
  /** Chance that a hit that met no shields gets past armour: Critical Hit and normal hit. */
  pUnsavedCrit: number;
  pUnsavedNormal: number;
  damage: number;
}

export interface FireContext {
  /** Defender HP per base. */
  hp: number;
  plans: WeaponPlan[];
  /**
   * How unsaved hits become hull damage (a rule variant's, e.g. sustained damage); undefined: the
   * standard rule (`applyHits`). Called once per weapon with that weapon's unsaved hits.
   */
  allocate?: (hull: number, hits: number, damage: number, hp: number) => number;
}

export interface FireSetup {
  attackerBases: number;
  cover: boolean;
  brace: boolean;
  /** Index of the aimed weapon, if any. */
  aim?: number;
  /** Distance in inches; undefined: every weapon fires. */
  range?: number;
}

function hasUniversalRule(cls: UnitClass, rule: string): boolean {
  const r = UNIVERSAL_RULES.find((u) => u.name === rule);
  return !!r && Array.isArray(r.classes) && (r.classes as readonly UnitClass[]).includes(cls);
}

/** Whether a weapon of this unit reaches `range`: small craft weapons never reach beyond 6". */
export function weaponReach(att: UnitProfile, w: WeaponProfile): number {
  return CLASSES[att.class]?.smallCraft ? Math.min(w.range, SMALL_CRAFT_MAX_RANGE) : w.range;
}

/** Attacks of one weapon before Blast (Dogfighters and Precision Strike count attacker bases). */
export function baseAttacksOf(att: UnitProfile, def: UnitProfile, w: WeaponProfile, attackerBases: number): number {
  if (hasUniversalRule(att.class, 'Dogfighters')) {
    const per = def.baseMm <= DOGFIGHTERS.targetBaseAtMostMm ? DOGFIGHTERS.boostedAttacksPerBase : DOGFIGHTERS.attacksPerBase;
    return per * attackerBases;
  }
  if (hasUniversalRule(att.class, 'Precision Strike')) {
    const per = def.baseMm >= PRECISION_STRIKE.targetBaseAtLeastMm ? PRECISION_STRIKE.boostedAttacksPerBase : PRECISION_STRIKE.attacksPerBase;
    return per * attackerBases;
  }
  return w.attacks;
}

export function planFire(att: UnitProfile, def: UnitProfile, setup: FireSetup): FireContext {
  const plans = att.weapons.map((w, index): WeaponPlan => {
    const aimed = setup.aim === index;
    const hitTarget = clampTarget(att.bs + (setup.cover ? FIRE.coverPenalty : 0) - (aimed ? FIRE.aimBonus : 0));
    const { crit, normal } = hitChances(hitTarget);
    const energy = w.type === 'Energy' && def.dodge !== undefined;
    const dodgeTarget = def.dodge === undefined ? undefined : clampTarget(def.dodge);
    const dodgeTargetEnergy = def.dodge === undefined ? undefined : clampTarget(def.dodge + (energy ? FIRE.energyDodgePenalty : 0));
    const piercing = w.type === 'Piercing';
    const brace = setup.brace ? FIRE.braceBonus : 0;
    const armourTargetCrit = def.armour === undefined ? undefined : clampTarget(def.armour + (piercing ? FIRE.piercingCritArmourPenalty : 0) - brace);
    const armourTargetNormal = def.armour === undefined ? undefined : clampTarget(def.armour + (piercing ? FIRE.piercingArmourPenalty : 0) - brace);
    const pDodge = dodgeTarget === undefined ? 0 : pSuccess(dodgeTarget);
    const pDodgeEnergy = dodgeTargetEnergy === undefined ? 0 : pSuccess(dodgeTargetEnergy);
    const pUnsavedCrit = armourTargetCrit === undefined ? 1 : 1 - pSuccess(armourTargetCrit);
    const pUnsavedNormal = armourTargetNormal === undefined ? 1 : 1 - pSuccess(armourTargetNormal);
    const ion = w.type === 'Ion';
    return {
      index,
      weapon: w,
      inRange: setup.range === undefined || weaponReach(att, w) >= setup.range,
      aimed,
      baseAttacks: baseAttacksOf(att, def, w, setup.attackerBases),
      blast: w.type === 'Blast',
      pCrit: crit,
      pNormal: normal,
      hitTarget,
      dodgeTarget,
      dodgeTargetEnergy,
      armourTargetCrit,
      armourTargetNormal,
      pDodge,
      pDodgeEnergy,
      energy,
      auto: w.type === 'Auto',
      extraHitsPerCrit: w.type === 'Auto' ? FIRE.autoExtraHitsPerCrit : 0,
      shieldsPerCrit: ion ? FIRE.ionShieldsPerCrit : FIRE.shieldsPerHit,
      shieldsPerHit: ion ? FIRE.ionShieldsPerHit : FIRE.shieldsPerHit,
      pUnsavedCrit,
      pUnsavedNormal,
      damage: w.damage,
    };
  });
  return { hp: def.hp, plans };
}

/** Bases left for a remaining hull of `hull` points at `hp` per base. */
export function basesLeft(hull: number, hp: number): number {
  return hull <= 0 ? 0 : Math.ceil(hull / hp);
}

/** Attacks a weapon makes against a defender with `bases` bases left. */
export function attacksAgainst(plan: WeaponPlan, bases: number): number {
  if (!plan.inRange || bases <= 0) return 0;
  return plan.blast ? plan.baseAttacks * bases : plan.baseAttacks;
}

/** The shield step for `crits` Critical Hits and `normals` normal hits that landed. */
export interface Absorbed {
  /** Hits that met no shields. */
  crits: number;
  normals: number;
  shieldsLeft: number;
}

/**
 * Step 5: hits meet shields one at a time, Critical Hits first; while SH > 0 a hit is absorbed and
 * removes its SH (never below 0). In closed form: ceil(SH / per-crit) crits can be absorbed, then
 * ceil(what is left / per-hit) normal hits.
 */
export function absorb(sh: number, crits: number, normals: number, perCrit: number, perHit: number): Absorbed {
  if (sh <= 0) return { crits, normals, shieldsLeft: 0 };
  const ac = Math.min(crits, Math.ceil(sh / perCrit));
  const s1 = Math.max(0, sh - ac * perCrit);
  const an = Math.min(normals, Math.ceil(s1 / perHit));
  return { crits: crits - ac, normals: normals - an, shieldsLeft: Math.max(0, s1 - an * perHit) };
}

/**
 * Step 7 for `hits` unsaved hits of `damage` each: each goes to the damaged base if there is one,
 * else a fresh one; damage beyond that base's HP is lost. The state is the remaining hull total,
 * so this is O(1): the damaged base takes ceil(its HP / damage) hits to die, a fresh one
 * ceil(hp / damage).
 */
export function applyHits(hull: number, hits: number, damage: number, hp: number): number {
  if (hits <= 0 || hull <= 0) return hull;
  const bases = Math.ceil(hull / hp);
  const current = hull - (bases - 1) * hp;
  const toKillCurrent = Math.ceil(current / damage);
  if (hits < toKillCurrent) return hull - hits * damage;
  let left = bases - 1;
  if (left === 0) return 0;
  let rest = hits - toKillCurrent;
  const perBase = Math.ceil(hp / damage);
  const killed = Math.floor(rest / perBase);
  if (killed >= left) return 0;
  left -= killed;
  rest -= killed * perBase;
  return left * hp - rest * damage;
}

/** The largest SH a unit can hold with `hull` points left (Combined Shields: per-base SH x bases left). */
export function maxShields(p: UnitProfile, hull: number): number {
  const sh = p.sh ?? 0;
  if (!p.combinedShields) return hull > 0 ? sh : 0;
  return sh * basesLeft(hull, p.hp);
}

export const FIRE_ASSUMPTIONS: readonly string[] = [
  `Target numbers add all modifiers (cover +${FIRE.coverPenalty}, aim -${FIRE.aimBonus}, Piercing +${FIRE.piercingArmourPenalty}/+${FIRE.piercingCritArmourPenalty}, ` +
    `brace -${FIRE.braceBonus}, Energy +${FIRE.energyDodgePenalty}) and only then are held at ${DICE.bestTarget}+.`,
  `Dogfighters and Precision Strike replace the printed attacks with ${DOGFIGHTERS.attacksPerBase} (or ${DOGFIGHTERS.boostedAttacksPerBase}) per remaining attacker base; ` +
    "Blast then multiplies by the defender's bases left when that weapon fires.",
  "Auto's extra hits are normal hits: they can be dodged, meet shields after Critical Hits, and use the normal-hit armour modifier.",
  "Weapons fire in card order; the defender's SH, bases left and damaged-base HP carry from one weapon to the next; a destroyed defender takes no further fire.",
  'Combined Shields: bases only die after SH reaches 0, so the pool cut never changes SH during one Fire action; shields removed = SH before - SH after.',
  `Fighter and Bomber weapons reach at most ${SMALL_CRAFT_MAX_RANGE}" whatever the card prints.`,
];
