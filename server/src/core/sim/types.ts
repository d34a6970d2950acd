/**
 * Plain-data types of the engagement engine: what goes in (profiles and options) and the result
 * object that the CLI prints as JSON, the server answers to `fabledStar/simulate`, and the webview
 * draws. The JSON shape is the contract of FORMATS.md ("Simulation output"), extended with detail.
 */
import type { UnitClass, WeaponType } from '../rules/data';
import type { VariantChoice } from './variants/catalog';

/** A weapon as the engine sees it. */
export interface WeaponProfile {
  name: string;
  type: WeaponType;
  /** Range in inches. */
  range: number;
  damage: number;
  attacks: number;
}

/** A unit as the engine sees it: numbers only, `undefined` where the card has "-". */
export interface UnitProfile {
  name: string;
  class: UnitClass;
  /** Bases the unit has at full strength. */
  bases: number;
  /** Base size in mm (the card's, or the class default). */
  baseMm: number;
  /** BS target number (N of "N+"). */
  bs: number;
  dodge?: number;
  /** Shields: per base for Combined Shields units (pool = SH x bases), else the unit's. */
  sh?: number;
  armour?: number;
  /** HP per base. */
  hp: number;
  ld?: { target: number; dice: number };
  combinedShields: boolean;
  weapons: WeaponProfile[];
  /** Movement sticks, [A] or [A, B] (section 7); used by the fleet battle's approach. */
  move?: number[];
  /** Crew (Target/Dice): Board needs it on both units (section 13). */
  cr?: { target: number; dice: number };
  /** Tonnage: Ram rolls this many dice (section 13). */
  tonnage?: number;
  /**
   * The card's points, where known. The duel plays without points (its figures never depend on
   * them); the retreat variant's policy weighs the two units by them.
   */
  points?: number;
}

export interface VolleyOptions {
  /** Distance in inches; only weapons whose range reaches it fire. Default: every weapon fires. */
  range?: number;
  /** The defender is in cover. */
  cover?: boolean;
  /** Name (or 0-based index as a string) of the weapon the attacker aims. */
  aim?: string;
  /** The defender braced. */
  brace?: boolean;
  /** The defender's current shields (default: full). */
  defenderShields?: number;
  /** Bases left (default: full strength). */
  attackerBases?: number;
  defenderBases?: number;
}

export interface EngagementOptions extends VolleyOptions {
  rounds?: number;
  trials?: number;
  seed?: number;
}

export interface Point {
  value: number;
  p: number;
}

export interface WeaponBreakdown {
  name: string;
  type: WeaponType;
  inRange: boolean;
  attacks: number;
  aimed: boolean;
  /** Expected hits that land (after dodge, before shields). */
  expectedHits: number;
  expectedCrits: number;
  expectedShieldsRemoved: number;
  expectedHullDamage: number;
}

export interface VolleyResult {
  method: 'exact' | 'sampled';
  expectedShieldsRemoved: number;
  expectedHullDamage: number;
  expectedBasesDestroyed: number;
  killProbability: number;
  /** Distribution of hull damage (HP lost), sorted by value, probabilities summing to 1. */
  hullDamage: Point[];
  /** The chance of at least `value` HP lost, for each value from 1 up (cumulative.ts; the engine always gives it). */
  hullDamageAtLeast?: Point[];
  shieldsRemoved: Point[];
  basesDestroyed: Point[];
  weapons: WeaponBreakdown[];
  /** For sampled results. */
  trials?: number;
  seed?: number;
  standardError?: { expectedHullDamage: number; killProbability: number; expectedShieldsRemoved: number };
  /** Why the result was sampled, when it was. */
  note?: string;
}

/**
 * The exact distribution of the number of consecutive Fire actions until the defender is destroyed
 * (FORMATS.md `shotsToKill`; sim/shots-to-kill.ts).
 */
export interface ShotsToKill {
  /** Mean Fire actions to destroy it, over the computed distribution (null: it can never be destroyed). */
  mean: number | null;
  /** The fewest Fire actions that destroy it with at least 50% (90%); null when never or not within the computed actions. */
  p50: number | null;
  p90: number | null;
  /** cdf[n - 1]: the chance it is destroyed within n Fire actions. */
  cdf: number[];
  /** False when the 1,000-action cap (or the work limit, see `note`) stopped it with more probability left. */
  converged: boolean;
  /** Why the figures are partial, when they are. */
  note?: string;
}

export interface EngagementResult {
  method: 'sampled' | 'exact';
  rounds: number;
  trials: number;
  seed: number;
  range: number;
  attackerWins: number;
  defenderWins: number;
  neither: number;
  standardError: { attackerWins: number; defenderWins: number; neither: number };
  /** Mean rounds played. */
  meanRounds: number;
  /** survival[r] = [P(attacker alive after round r+1), P(defender alive after round r+1)]. */
  survival: { round: number; attacker: number; defender: number }[];
  /** The policy that picked each activation's second action, in words. */
  policy: string;
  /** P(rounds played = value): the round a unit was destroyed in, or the limit when neither was. */
  roundsTaken?: Point[];
  /** Mean number of times per engagement each side chose each second action (sampled runs). */
  actions?: { attacker: ActionCounts; defender: ActionCounts };
  /** Mean Board and Ram actions per engagement, when any happened. */
  closeCombat?: { attacker: { boarded: number; rammed: number }; defender: { boarded: number; rammed: number } };
  /** The work limit stopped sampling before `requestedTrials`; `trials` ran and the standard errors are theirs. */
  cutShort?: boolean;
  requestedTrials?: number;
  /**
   * The same engagement computed exactly, by a Markov chain over both units' states, when the
   * state space is small enough; the sampled figures above should agree within a few standard errors.
   */
  exact?: {
    attackerWins: number;
    defenderWins: number;
    neither: number;
    meanRounds: number;
    survival: { round: number; attacker: number; defender: number }[];
  };
  /** The names of the rule variants played (only when some are), as BATTLE.md says the result carries them. */
  variants?: string[];
  /** The same variants in full: name, title, parameters and the assumptions of their mapping. */
  variantRules?: VariantInfo[];
  /** With variants that rout or retreat: the chance each unit was routed, or retreated. */
  routed?: { attacker: number; defender: number };
  /** With a variant that decides the winner itself (morale): the chance each wins by it. */
  variantVictory?: { attacker: number; defender: number };
  /** When it happens: the chance that one Ram destroys both units at once (counted in `neither`: nobody wins). */
  bothDestroyed?: number;
  retreated?: { attacker: number; defender: number };
  /** With `--compare`: the standard rules' engagement from the same seed, and variant minus standard. */
  compare?: { standard: EngagementResult; difference: EngagementDifference; summary: string[] };
}

/** Variant minus standard for the duel. */
export interface EngagementDifference {
  attackerWins: number;
  defenderWins: number;
  neither: number;
  meanRounds: number;
  /** Chance alive at the end. */
  survival: { attacker: number; defender: number };
}

export interface ActionCounts {
  aim: number;
  shields: number;
  brace: number;
}

export interface SimulationResult {
  attacker: string;
  defender: string;
  options: EngagementOptions;
  volley: VolleyResult;
  /** Fire action after Fire action of the volley above (no Aim, no Brace, shields never back) until the defender is destroyed (always set by the engine; a view restored from an older result may lack it). */
  shotsToKill?: ShotsToKill;
  engagement: EngagementResult;
  /** The model's assumptions in words, shown beside the numbers. */
  assumptions: string[];
  /** Each unit's longest weapon reach in inches (0 without weapons): at a longer range it cannot fire. */
  reach?: { attacker: number; defender: number };
}

/** A chance with its standard error. */
export interface Chance {
  p: number;
  se: number;
}

/** One unit of a fleet in the battle's result. */
export interface BattleUnitResult {
  name: string;
  /** Which copy of the card in the fleet (1, 2, ...). */
  copy: number;
  points: number;
  /** alive[r]: the chance it is alive after round r + 1. */
  alive: number[];
  /** Mean Fire, Board and Ram actions per battle. */
  fired: number;
  boarded: number;
  rammed: number;
  /**
   * With a rule variant that routs units: routed[r], the chance it has fled by the end of round
   * r + 1 (off the table intact: not alive, not destroyed).
   */
  routed?: number[];
}

export interface BattleSideResult {
  fleet: string;
  faction: string;
  points: number;
  /** The chance this side destroys the whole other fleet. */
  annihilation: Chance;
  /** The chance it has destroyed more points than the other when the battle ends. */
  pointsVictory: Chance;
  pointsDestroyed: { mean: number; p10: number; p50: number; p90: number };
  units: BattleUnitResult[];
  /** With the retreat variant: the chance this side retreated. */
  retreated?: Chance;
  /** With a variant that decides the winner itself (morale): the chance this side wins by it. */
  variantVictory?: Chance;
}

/** The fleet battle's result (FORMATS.md "Fleet battle"): side 0 is the fleet, side 1 the opponent. */
export interface BattleResult {
  method: 'sampled';
  trials: number;
  seed: number;
  rounds: number;
  mode: 'approach' | 'fixed';
  /** The names of the rule variants played (BATTLE.md "Rule variants"; FORMATS.md `"variants": []`). */
  variants: string[];
  /** With variants, the same in full: name, title, parameters and the assumptions of their mapping. */
  variantRules?: VariantInfo[];
  sides: [BattleSideResult, BattleSideResult];
  /** The chance that the last units of both fleets are destroyed by the same action (a Ram): nobody's annihilation. */
  bothDestroyed: Chance;
  draw: Chance;
  meanRounds: number;
  policy: string;
  assumptions: string[];
  /** With `--compare`: the standard rules' result from the same seed, and variant minus standard. */
  compare?: { standard: BattleResult; difference: BattleDifference; summary: string[] };
  /** With `--compare-with A2`: the changed fleet against the same opponent on the same dice (sim/compare.ts). */
  compareFleets?: FleetComparison;
  /**
   * Set when the work limit cut the run: some trials reached the work limit of one battle and were
   * ended there, scored as they stood (`cutTrials` of `trials`), or fewer trials than asked
   * (`requestedTrials`) ran to match a run beside this one; the assumptions say which.
   */
  cutShort?: true;
  requestedTrials?: number;
  /** The trials ended at the work limit of one battle (scored as they stood). */
  cutTrials?: number;
  /** With a precision asked for (`battle --precision`): why the run stopped, its figures sure to `precision` or at the trials' cap. */
  stopped?: 'precision' | 'cap';
  /** With a precision asked for: the 95% half-width of the widest headline figure reached. */
  precision?: number;
}

/** Variant minus standard, per side and per unit (chances as differences of probabilities). */
export interface BattleDifference {
  sides: {
    annihilation: number;
    pointsVictory: number;
    pointsDestroyedMean: number;
    /** Per unit: chance alive at the end. */
    units: { name: string; copy: number; survival: number }[];
  }[];
  draw: number;
  meanRounds: number;
}

/** A difference of two runs on the same dice: A2's figure minus the fleet's, and its paired standard error. */
export interface PairedDelta {
  delta: number;
  se: number;
}

/** What `battle --compare-with` adds (FORMATS.md): the changed fleet's result, the paired differences, the sentences. */
export interface FleetComparison {
  /** The changed fleet's name (as its list gives it). */
  fleet: string;
  /** The changed fleet against the same opponent, on the same dice, in the shape of a battle's result. */
  result: BattleResult;
  difference: { sides: { annihilation: PairedDelta; pointsVictory: PairedDelta }[]; draw: PairedDelta };
  summary: string[];
}

export interface BattleOptions {
  /** A fixed range in inches; without it the fleets approach on the table of their game size. */
  range?: number;
  rounds?: number;
  trials?: number;
  seed?: number;
  /** Rule variants, each `{name, parameters}` (a request may also write one as the text `name:param=value,...`; validateBattleOptions reads both). */
  variants?: VariantChoice[];
  /** With variants: run the standard rules too and carry them beside the variant result. */
  compare?: boolean;
}

/** A rule variant as a result carries it: its name, the parameters used and its assumptions. */
export interface VariantInfo {
  name: string;
  title: string;
  parameters: Record<string, number>;
  assumptions: string[];
}

/**
 * Battle options as a request carries them (`fabledStar/battle`): a variant as `{name, parameters}`
 * or, as older clients and the views' pickers write it, the text `name:param=value,...`. The
 * server's validator reads them once into BattleOptions.
 */
export type BattleRequestOptions = Omit<BattleOptions, 'variants'> & { variants?: (VariantChoice | string)[] };
