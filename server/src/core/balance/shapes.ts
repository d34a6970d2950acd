/**
 * The shapes the points estimate's parts share: the battle features a card has against a field,
 * the terms the battle model weighs, the model, and a field's model. Types and the terms' list only,
 * so that every part can name them without importing another part.
 */

// ---------------------------------------------------------------------------------------------
// The estimate fitted to battle prices (BATTLE.md "The points estimate", the next model).
// ---------------------------------------------------------------------------------------------

/**
 * What battles show matters beyond one Fire action with every weapon in range (each a term of the
 * fit, its weight fitted to battle prices):
 * - firepower and durability, exact (logs);
 * - reach: each weapon's firepower counts for the share of the battle's rounds it can fire in on
 *   the approach table (the gap closes by the card's and the field's mean move each round, from
 *   the Standard table's depth), and the card is exposed for the share of the field's rounds in
 *   which the field's weapons reach it (logs);
 * - the approach (approach.ts, the shipped terms): the card and each field member closing on every
 *   game size's table as the engine's policy moves them, each Fire action counted in the rounds it
 *   is made, with the weapons in reach at that distance (logs);
 * - movement: the card's move per round (inches, both sticks);
 * - small craft (Fighters and Bombers) and Combined Shields squadrons: fitted factors;
 * - CR: the expected successes of its CR roll (boarding);
 * - launch capacity: the points of the field's craft its bays carry, a fitted share of them added.
 */
export interface BattleFeatures {
  /** log of firepower (every weapon in range) and of firepower weighed by reach. */
  logF: number;
  logFR: number;
  /** log of durability, and minus the log of the share of the field's rounds that reach it. */
  logH: number;
  /**
   * Firepower and durability on the approach (approach.ts): each Fire action, the card's at a field
   * member and the member's at the card, counted in the rounds it is fired in on the approach table
   * and with the weapons that reach at that distance (logs; per round of the battle).
   */
  logFA: number;
  logHA: number;
  /** The same with the card's fleet against the field as one fleet (approach.ts `approachFleet`). */
  logFF: number;
  logHF: number;
  cover: number;
  move: number;
  small: number;
  /** A squadron with Combined Shields (Escorts, Frigates). */
  squadron: number;
  cr: number;
  /**
   * Boarding on the approach: log((Fire + Board) / Fire) of what the card removes of the field in
   * the rounds it stands within boarding range of a member with CR (both need CR; each such round
   * it boards as its second action), and the same of what it takes from members boarding it.
   */
  boardFA: number;
  /** log(Fire / (Fire + Board)) of what it takes: at most 0. */
  boardHA: number;
  /** log of the bases (a squadron's firepower falls as its bases are lost), and of the class card's points. */
  logBases: number;
  logClass: number;
  /** Small craft's reach-weighed firepower and durability (their own weights). */
  smallF: number;
  smallH: number;
  /** Small craft's firepower on the approach (their own weight beside `logFA`'s). */
  smallFA: number;
  carried: number;
}

/** The fitted terms, in order; each weight at least `TERM_FLOOR` where one is given (so that a better stat never lowers the estimate). */
export const BATTLE_TERMS = [
  'logF',
  'logFR',
  'logH',
  'logFA',
  'logHA',
  'logFF',
  'logHF',
  'cover',
  'move',
  'small',
  'squadron',
  'cr',
  'boardFA',
  'boardHA',
  'logBases',
  'logClass',
  'smallF',
  'smallH',
  'smallFA',
] as const;

export type BattleTerm = (typeof BATTLE_TERMS)[number];

export interface BattleModel {
  /** estimate = exp(a + sum of weight * feature) + b * carried */
  a: number;
  weights: Record<BattleTerm, number>;
  b: number;
}

/** The estimate's model on a field: what it was fitted to, the model, each member's leave-one-out model, and its leave-one-out error. */
export interface FieldModel {
  /** 'battle prices': the bundled field's (generated); 'printed points': a workspace field, the bundled fit's shape with its scale fitted to the field's points. */
  fittedTo: 'battle prices' | 'printed points';
  model: BattleModel;
  loo: (BattleModel | undefined)[];
  /** Per member: its measured battle price (the generated data, for the card as it was priced), if any. */
  measured: (number | undefined)[];
  /** Root mean square of log(price / leave-one-out estimate), price being what it was fitted to. */
  spreadLog: number;
  /** Variants of the bundled cards fitted on beside the field's cards (the generated training set; 0 for a workspace field). */
  variants: number;
  /**
   * The yardstick "fair": the geometric mean over the field's members of printed points / what the
   * model was fitted to (their battle prices; 1 when fitted to printed points). Every estimate is
   * the model's times it, so that the field's own cards are fair on average: fleets of copies of one
   * card trade better per point than the mixed fleets they are priced against (docs/points.md), and
   * a battle price alone would read the field's cards as cheap.
   */
  fair: number;
}
