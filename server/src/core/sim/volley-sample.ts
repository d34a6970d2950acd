/**
 * The sampled Fire action. Up to `LITERAL_DICE` attacks a weapon is resolved literally, die by die
 * and hit by hit, exactly as RULES.md words it (this path doubles as an independent check of the
 * exact programme in the tests). Above that, each step draws how many dice succeed from a binomial
 * distribution, which is the same law in O(1) draws, so absurd attack counts stay fast.
 */
import { type Dice, isCritical, rollSucceeds } from './dice';
import { absorb, applyHits, attacksAgainst, basesLeft } from './fire';
import type { FireContext, WeaponPlan } from './fire';

// Hot-path aliases: read imported functions once (some loaders turn each use into a getter call).
const succeeds = rollSucceeds;
const critical = isCritical;
const absorbHits = absorb;
const damage = applyHits;
const attacksAt = attacksAgainst;
const basesOf = basesLeft;

/** Weapons with at most this many attacks are rolled die by die. */
export const LITERAL_DICE = 64;

export interface DefenderState {
  sh: number;
  hull: number;
}

/** Per-weapon running sums (one slot per weapon) for the breakdown of a sampled volley. */
export interface WeaponSums {
  hits: Float64Array;
  crits: Float64Array;
  shields: Float64Array;
  hull: Float64Array;
}

export function newWeaponSums(n: number): WeaponSums {
  return { hits: new Float64Array(n), crits: new Float64Array(n), shields: new Float64Array(n), hull: new Float64Array(n) };
}

/** One weapon, die by die: attack rolls, Auto, dodge, shields crits first, armour, damage per base. */
function fireLiteral(
  plan: WeaponPlan,
  a: number,
  s: DefenderState,
  hp: number,
  dice: Dice,
  sums: WeaponSums | undefined,
  allocate?: FireContext['allocate'],
): void {
  let crits = 0;
  let normals = 0;
  for (let i = 0; i < a; i++) {
    const r = dice.d10();
    if (!succeeds(r, plan.hitTarget)) continue;
    if (critical(r)) crits++;
    else normals++;
  }
  normals += crits * plan.extraHitsPerCrit;
  const dodgeTarget = plan.energy && crits > 0 ? plan.dodgeTargetEnergy : plan.dodgeTarget;
  let landed = 0;
  for (let i = 0; i < normals; i++) if (dodgeTarget === undefined || !succeeds(dice.d10(), dodgeTarget)) landed++;
  // Shields: one hit at a time, Critical Hits first.
  const shBefore = s.sh;
  const through: boolean[] = []; // true: a Critical Hit that met no shields
  for (let i = 0; i < crits + landed; i++) {
    const crit = i < crits;
    if (s.sh > 0) s.sh = Math.max(0, s.sh - (crit ? plan.shieldsPerCrit : plan.shieldsPerHit));
    else through.push(crit);
  }
  // Armour, then damage one hit at a time on the damaged base (or a fresh one).
  const hullBefore = s.hull;
  if (allocate) {
    // A variant's damage rule: every armour roll, then the unsaved hits in one go.
    let unsaved = 0;
    for (const crit of through) {
      const target = crit ? plan.armourTargetCrit : plan.armourTargetNormal;
      if (target === undefined || !succeeds(dice.d10(), target)) unsaved++;
    }
    s.hull = allocate(s.hull, unsaved, plan.damage, hp);
    if (sums) addSums(sums, plan.index, crits + landed, crits, shBefore - s.sh, hullBefore - s.hull);
    return;
  }
  let bases = basesOf(s.hull, hp);
  let current = s.hull - (bases - 1) * hp;
  for (const crit of through) {
    const target = crit ? plan.armourTargetCrit : plan.armourTargetNormal;
    if (target !== undefined && succeeds(dice.d10(), target)) continue;
    if (bases === 0) break;
    current -= plan.damage;
    if (current <= 0) {
      bases--;
      current = hp;
    }
  }
  s.hull = bases === 0 ? 0 : (bases - 1) * hp + current;
  if (sums) addSums(sums, plan.index, crits + landed, crits, shBefore - s.sh, hullBefore - s.hull);
}

/** Adds one weapon's firing to the per-weapon sums. */
function addSums(sums: WeaponSums, w: number, hits: number, crits: number, shields: number, hull: number): void {
  sums.hits[w]! += hits;
  sums.crits[w]! += crits;
  sums.shields[w]! += shields;
  sums.hull[w]! += hull;
}

/** One weapon by binomial draws: the same law as `fireLiteral` for any attack count. */
function fireCounted(plan: WeaponPlan, a: number, s: DefenderState, hp: number, dice: Dice, sums: WeaponSums | undefined, allocate = damage): void {
  const crits = dice.count(a, plan.pCrit);
  const rolled = dice.count(a - crits, plan.pNormal / (1 - plan.pCrit)) + crits * plan.extraHitsPerCrit;
  const pDodge = plan.energy && crits > 0 ? plan.pDodgeEnergy : plan.pDodge;
  const landed = rolled - dice.count(rolled, pDodge);
  const shBefore = s.sh;
  const r = absorbHits(s.sh, crits, landed, plan.shieldsPerCrit, plan.shieldsPerHit);
  s.sh = r.shieldsLeft;
  const unsaved = dice.count(r.crits, plan.pUnsavedCrit) + dice.count(r.normals, plan.pUnsavedNormal);
  const hullBefore = s.hull;
  s.hull = allocate(s.hull, unsaved, plan.damage, hp);
  if (sums) addSums(sums, plan.index, crits + landed, crits, shBefore - s.sh, hullBefore - s.hull);
}

/** One sampled Fire action; `s` is updated in place. */
export function sampleVolley(ctx: FireContext, s: DefenderState, dice: Dice, sums?: WeaponSums, literalDice = LITERAL_DICE): void {
  for (const plan of ctx.plans) {
    if (s.hull <= 0) return;
    const a = attacksAt(plan, basesOf(s.hull, ctx.hp));
    if (a === 0) continue;
    if (a <= literalDice) fireLiteral(plan, a, s, ctx.hp, dice, sums, ctx.allocate);
    else fireCounted(plan, a, s, ctx.hp, dice, sums, ctx.allocate);
  }
}

/** Rough cost of one sampled volley, in dice, for keeping a run within about a second. */
export function sampleCost(ctx: FireContext, maxBases: number, literalDice = LITERAL_DICE): number {
  let cost = 1;
  for (const plan of ctx.plans) {
    const a = attacksAgainst(plan, maxBases);
    cost += a <= literalDice ? 3 * a + 2 : 40;
  }
  return cost;
}
