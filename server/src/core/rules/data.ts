/**
 * The rules pack: every figure of the rulebook (and of RULES.md, where the rulebook is silent or
 * contradicts itself) lives here, once, with the section it comes from. Validators, hovers,
 * completion and the simulator read these tables; none of them writes a rule figure itself.
 */

export const CLASS_NAMES = ['Fighter', 'Bomber', 'Escort', 'Frigate', 'Destroyer', 'Cruiser', 'Battleship', 'Capital Ship', 'Carrier', 'Dreadnought'] as const;
export type UnitClass = (typeof CLASS_NAMES)[number];

export interface ClassRow {
  /** Exact number of bases (section 3). */
  bases: number;
  /** Maximum weapon systems (section 3). */
  weapons: number;
  /** Maximum orders (sections 3 and 16; Dreadnought 2, see `ordersNote`). */
  orders: number;
  /** Maximum abilities (section 3). */
  abilities: number;
  /** The class card's cost. */
  points: number;
  /** Default base size in mm when a card gives none. */
  baseMm: number;
  /** Whether `baseMm` is a house value rather than a rulebook figure. */
  baseIsHouseValue: boolean;
  /** Small craft: weapon range capped (sections 4 and 5) and never claim objectives (section 20). */
  smallCraft: boolean;
  /** Shields are a pool shared by all bases (Combined Shields; Escort and Frigate class cards). */
  combinedShields: boolean;
  /** The name of the class card in the rulebook. */
  card: string;
  ordersNote?: string;
}

export const CLASS_TABLE_SECTIONS = ['3', '4', '5', '16', 'class cards'];

export const CLASSES: Readonly<Record<UnitClass, ClassRow>> = {
  Fighter: {
    bases: 4,
    weapons: 1,
    orders: 0,
    abilities: 1,
    points: 60,
    baseMm: 25,
    baseIsHouseValue: true,
    smallCraft: true,
    combinedShields: false,
    card: 'Fighter Wing',
  },
  Bomber: {
    bases: 3,
    weapons: 1,
    orders: 0,
    abilities: 1,
    points: 75,
    baseMm: 25,
    baseIsHouseValue: true,
    smallCraft: true,
    combinedShields: false,
    card: 'Bomber Wing',
  },
  Escort: {
    bases: 2,
    weapons: 1,
    orders: 0,
    abilities: 1,
    points: 80,
    baseMm: 40,
    baseIsHouseValue: true,
    smallCraft: false,
    combinedShields: true,
    card: 'Escort Squadron',
  },
  Frigate: {
    bases: 2,
    weapons: 2,
    orders: 0,
    abilities: 1,
    points: 110,
    baseMm: 50,
    baseIsHouseValue: true,
    smallCraft: false,
    combinedShields: true,
    card: 'Frigate Squadron',
  },
  Destroyer: {
    bases: 1,
    weapons: 2,
    orders: 1,
    abilities: 1,
    points: 145,
    baseMm: 60,
    baseIsHouseValue: true,
    smallCraft: false,
    combinedShields: false,
    card: 'Destroyer',
  },
  Cruiser: {
    bases: 1,
    weapons: 2,
    orders: 1,
    abilities: 1,
    points: 190,
    baseMm: 75,
    baseIsHouseValue: false,
    smallCraft: false,
    combinedShields: false,
    card: 'Cruiser',
  },
  Battleship: {
    bases: 1,
    weapons: 3,
    orders: 1,
    abilities: 1,
    points: 280,
    baseMm: 90,
    baseIsHouseValue: false,
    smallCraft: false,
    combinedShields: false,
    card: 'Battleship',
  },
  'Capital Ship': {
    bases: 1,
    weapons: 3,
    orders: 2,
    abilities: 2,
    points: 340,
    baseMm: 100,
    baseIsHouseValue: false,
    smallCraft: false,
    combinedShields: false,
    card: 'Radiant Court',
  },
  Carrier: {
    bases: 1,
    weapons: 3,
    orders: 1,
    abilities: 1,
    points: 300,
    baseMm: 100,
    baseIsHouseValue: true,
    smallCraft: false,
    combinedShields: false,
    card: 'Carrier',
  },
  Dreadnought: {
    bases: 1,
    weapons: 4,
    orders: 2,
    abilities: 2,
    points: 480,
    baseMm: 120,
    baseIsHouseValue: true,
    smallCraft: false,
    combinedShields: false,
    card: 'Dreadnought',
    ordersNote: 'Section 3 gives a Dreadnought 3 Orders; section 16 and the Dreadnought card give 2. The tools use 2.',
  },
};

/** Section 1: the stat line, in card order. */
export const STAT_ORDER = ['M', 'BS', 'D', 'SH', 'AC', 'HP', 'LD', 'CR', 'T'] as const;
export type StatName = (typeof STAT_ORDER)[number];

export const STAT_NAMES: Readonly<Record<StatName, string>> = {
  M: 'Movement',
  BS: 'Ballistic Skill',
  D: 'Dodge',
  SH: 'Shields',
  AC: 'Armor Class',
  HP: 'Hull Points',
  LD: 'Leadership',
  CR: 'Crew',
  T: 'Tonnage',
};

/** How each stat is written and what it may hold (section 1, RULES.md "Stat limits"). */
export type StatForm = 'sticks' | 'target' | 'count' | 'targetDice';
export interface StatSpec {
  form: StatForm;
  /** Whether "-" / "—" (not possessed) is allowed. */
  dashAllowed: boolean;
  /** For 'target': best (lowest) and worst (highest) N+. For 'count': min and max. */
  min?: number;
  max?: number;
  /** For 'targetDice': target number range and dice range. */
  target?: { best: number; worst: number };
  dice?: { min: number; max: number };
  /** For 'sticks': the allowed stick lengths and how many may be combined. */
  sticks?: readonly number[];
  maxParts?: number;
  /** Whether the figure is per base on multi-base units. */
  perBase?: 'always' | 'combinedShields';
  section: string;
}

export const MOVEMENT_STICKS = [3, 6, 9, 12] as const;

export const STATS: Readonly<Record<StatName, StatSpec>> = {
  M: { form: 'sticks', dashAllowed: false, sticks: MOVEMENT_STICKS, maxParts: 2, section: '1' },
  BS: { form: 'target', dashAllowed: false, min: 3, max: 10, section: '1' },
  D: { form: 'target', dashAllowed: true, min: 3, max: 10, section: '1' },
  SH: { form: 'count', dashAllowed: true, min: 0, max: 20, perBase: 'combinedShields', section: '1' },
  AC: { form: 'target', dashAllowed: true, min: 3, max: 10, section: '1' },
  HP: { form: 'count', dashAllowed: false, min: 1, perBase: 'always', section: '1' },
  LD: { form: 'targetDice', dashAllowed: true, target: { best: 3, worst: 10 }, dice: { min: 1, max: 10 }, section: '1' },
  CR: { form: 'targetDice', dashAllowed: true, target: { best: 3, worst: 10 }, dice: { min: 1, max: 10 }, section: '1' },
  T: { form: 'count', dashAllowed: true, min: 1, section: '1' },
};

/** The glyphs that mean "not possessed" (section 1). */
export const DASHES: readonly string[] = ['-', '—', '–'];

/** Section 12: the only legal ranges, in inches. */
export const RANGE_BANDS = [3, 6, 9, 12, 15, 18, 21, 24, 27, 30] as const;
export const RANGE_SECTION = '12';

/** Sections 4 and 5: Fighter and Bomber weapons reach at most this far. */
export const SMALL_CRAFT_MAX_RANGE = 6;

export const WEAPON_TYPES = ['Energy', 'Auto', 'Piercing', 'Ion', 'Blast'] as const;
export type WeaponType = (typeof WEAPON_TYPES)[number];
/** A weapon type may be written as its initial: E, A, P, I, B (the five initials differ). */
export const WEAPON_TYPE_ABBREVIATIONS: Readonly<Record<string, WeaponType>> = Object.fromEntries(WEAPON_TYPES.map((t) => [t[0], t]));
export const WEAPON_TYPE_SECTION = '12';
/** Section 12: "Damage is rated 1 to 5." */
export const WEAPON_DAMAGE = { min: 1, max: 5 } as const;
export const WEAPON_MIN_ATTACKS = 1;

/** Section 2 and the reference model of RULES.md. */
export const DICE = {
  sides: 10,
  /** Natural rolls at or below this always fail. */
  autoFailAtOrBelow: 2,
  /** A natural roll of this is a Critical Hit (and always succeeds). */
  critical: 10,
  /** No modifier makes a target number better than this. */
  bestTarget: 3,
  section: '2',
} as const;

/** Modifiers of the Fire action (sections 9, 12, 19; RULES.md reference model). */
export const FIRE = {
  /** Cover: +1 to the attacker's BS target number (section 19). */
  coverPenalty: 1,
  /** Aim: -1 to the aimed weapon's BS target number (section 9). */
  aimBonus: 1,
  /** Auto: extra normal hits per Critical Hit (section 12). */
  autoExtraHitsPerCrit: 1,
  /** Energy: the defender's Dodge target number worsens by this once a weapon rolls a crit (section 12). */
  energyDodgePenalty: 1,
  /** Shields removed per hit that meets shields; Ion: 2, Ion Critical Hit: 3 (section 12). */
  shieldsPerHit: 1,
  ionShieldsPerHit: 2,
  ionShieldsPerCrit: 3,
  /** Piercing: AC target number worsens by 1, by 2 on a Critical Hit (section 12). */
  piercingArmourPenalty: 1,
  piercingCritArmourPenalty: 2,
  /** Brace: the defender's AC target number improves by 1 (section 9). */
  braceBonus: 1,
  sections: ['2', '9', '11', '12', '19'],
} as const;

/** Section 4: Dogfighters. Section 5: Precision Strike. */
export const DOGFIGHTERS = { attacksPerBase: 1, boostedAttacksPerBase: 2, targetBaseAtMostMm: 40, section: '4' } as const;
export const PRECISION_STRIKE = { attacksPerBase: 1, boostedAttacksPerBase: 2, targetBaseAtLeastMm: 50, section: '5' } as const;

/** Section 9: Action Points. Section 10: Shields Back Online. */
export const ACTION_POINTS_PER_ACTIVATION = 2;
export const SHIELD_RECHARGE = { dice: 4, target: 7, section: '10' } as const;

/** Section 13: Board (1 AP) needs CR on both units, the target's SH at 0 and the target within this range. */
export const BOARDING = { range: 3, section: '13' } as const;
/**
 * Section 13: Ram (1 AP) needs Tonnage and base contact (range 0); each die scores a hit on 5+, on 4+
 * when the target moved at least 3" this round; each hit left after Dodge deals this HP to both units.
 */
export const RAMMING = { range: 0, hitTarget: 5, hitTargetMoved: 4, movedAtLeast: 3, damage: 1, section: '13' } as const;

/** Section 16: Orders. */
export const DEFAULT_ORDER_RANGE = 12;
export const ORDERS_SECTION = '16';

export interface KnownOrder {
  name: string;
  /** The rulebook's LD Difficulty, where it prints one. */
  difficulty?: number;
  range?: number;
  summary: string;
  section: string;
  /** The only classes that may issue it, and the section that says so. */
  onlyClasses?: { classes: readonly UnitClass[]; section: string; why: string };
}

export const KNOWN_ORDERS: readonly KnownOrder[] = [
  {
    name: 'Attack Run',
    difficulty: 2,
    range: 12,
    summary: 'Target friendly unit gains +1 BS for one weapon system until the end of the round.',
    section: 'Destroyer card',
  },
  { name: 'Full Burn', summary: '+3" to the target\'s next Move.', section: '16' },
  { name: 'Lock Target', summary: '+1 BS against one enemy unit until end of round (never beyond 3+).', section: '16' },
  { name: 'Brace Positions', summary: 'Reroll failed AC rolls.', section: '16' },
  { name: 'Hold Formation', summary: 'Ignore cohesion penalties until end of round.', section: '16' },
  { name: 'Emergency Power', summary: 'Restore +1 SH, not exceeding starting SH.', section: '16' },
  {
    name: 'Priority Target',
    difficulty: 4,
    range: 12,
    summary: 'Choose one enemy unit within 12"; the next friendly unit to attack it gains +1 BS with one weapon system for that attack.',
    section: 'Battleship card',
  },
  {
    name: 'Strategic Fire',
    difficulty: 4,
    range: 12,
    summary: "Select 1 friendly unit within range; during that unit's next Fire action this round one weapon system may reroll failed BS rolls.",
    section: 'Radiant Court card',
  },
  {
    name: 'Recover Craft',
    difficulty: 3,
    summary: 'The Carrier may return 1 Fighter squadron to its launch bay; it counts as already activated this round.',
    section: 'Carrier card',
    // Section 6 and its FAQ: "Only Carriers may recover or restore Fighter units."
    onlyClasses: { classes: ['Carrier'], section: '6', why: 'only Carriers may recover or restore Fighters' },
  },
];

/**
 * Universal class rules: free, never take an ability slot, and belong only to some classes
 * (RULES.md "Universal class rules"; sections 4, 5, 8 and the class cards).
 */
export interface UniversalRule {
  name: string;
  /**
   * The classes the rule belongs to; 'tonnage' = any class but Fighters and Bombers (they never
   * claim objectives, section 20); 'singleBase' = classes with one base.
   */
  classes: readonly UnitClass[] | 'tonnage' | 'singleBase';
  /** Stats a card must have (not "-") for the rule to be its own, and the section that says so. */
  requiresStats?: { stats: readonly StatName[]; section: string };
  summary: string;
  section: string;
}

const SQUADRON_CLASSES: readonly UnitClass[] = ['Fighter', 'Bomber', 'Escort', 'Frigate'];

export const UNIVERSAL_RULES: readonly UniversalRule[] = [
  {
    name: 'Dogfighters',
    classes: ['Fighter'],
    summary: 'Each remaining Fighter base contributes 1 Attack, 2 against targets on 40mm bases or smaller; Fighter weapons reach at most 6".',
    section: '4',
  },
  {
    name: 'Precision Strike',
    classes: ['Bomber'],
    summary: 'Each surviving Bomber base contributes 1 Attack, 2 against targets on 50mm bases or larger; torpedoes reach at most 6".',
    section: '5',
  },
  {
    name: 'Squad Leader',
    classes: SQUADRON_CLASSES,
    summary: 'One base is the Squad Leader; movement is measured from it and it is the last base removed.',
    section: '8',
  },
  {
    name: 'Cohesion',
    classes: SQUADRON_CLASSES,
    summary: 'Every remaining base keeps an unbroken chain of base contact back to the Squad Leader.',
    section: '8',
  },
  {
    name: 'Squad Leader & Cohesion',
    classes: SQUADRON_CLASSES,
    summary: 'Multi-base units move from the Squad Leader and must stay in an unbroken chain.',
    section: '8',
  },
  {
    name: 'Combined Shields',
    classes: ['Escort', 'Frigate'],
    summary: 'Each base contributes its SH to one pool; the pool maximum falls as bases are destroyed.',
    section: '10',
  },
  {
    name: 'Objective Control',
    classes: 'tonnage',
    // Section 20: "To contest an objective a unit must have LD and Tonnage."
    requiresStats: { stats: ['LD', 'T'], section: '20' },
    summary: 'Units with LD and Tonnage within 3" of an objective add their Tonnage to contest it.',
    section: '20',
  },
  {
    name: 'Single Base',
    classes: 'singleBase',
    summary: 'SH and HP are tracked normally; Combined Shields and squadron casualty rules do not apply.',
    section: 'class cards',
  },
];

/** Abilities that need a stat the card must have (RULES.md "Known abilities"). */
export interface KnownAbility {
  name: string;
  requiresStat?: StatName;
  summary: string;
  section: string;
}

export const KNOWN_ABILITIES: readonly KnownAbility[] = [
  {
    name: 'Launch Bays (Reserves)',
    summary: 'Carrier: may transport up to 3 squadrons of Fighters, Bombers or both; they begin off the battlefield.',
    section: 'Carrier card',
  },
  { name: 'Hit & Run', summary: 'This unit may Move after performing a Fire action.', section: 'Destroyer card' },
  { name: 'Phase Matrix', summary: "At the start of this unit's Fire action, one weapon system may reroll failed BS rolls.", section: 'Battleship card' },
  { name: 'Void Harmonics', summary: 'Friendly units within 6" of this unit gain +1 LD die.', section: 'Radiant Court card' },
  { name: 'Forward Observers', summary: 'A friendly unit targeting an enemy within 6" of this unit gains +1 BS against it.', section: 'Frigate Squadron card' },
  {
    name: 'Evasive Screen',
    summary: 'If this unit moved in its previous activation, it may reroll one failed Dodge roll against a ranged attack.',
    section: 'Escort Squadron card',
  },
  {
    name: 'Boarding (CR)',
    requiresStat: 'CR',
    summary: 'Board a unit within 3" whose SH is 0; both roll CR and the defender takes the difference as HP damage.',
    section: '13',
  },
  { name: 'Ram (T)', requiresStat: 'T', summary: 'In base contact, roll dice equal to Tonnage; each 5+ hits both units, ignoring Shields.', section: '13' },
];

/** Section 6 and the Carrier card: Launch Bays. */
export const LAUNCH_BAY = {
  /**
   * "Launch Bay Tier N": N Fighter units, never Bombers. The pattern also reads a tier that is not
   * a whole number of at least 1 (-1, 1.5), so that it is reported as one, in any form.
   */
  tierPattern: /^Launch Bay Tier\s+([+\-\u2212\u2013]?\s*\d+(?:\.\d+)?)$/i,
  /** The lowest tier (section 6: "1 Fighter unit embarked per Tier"). */
  minTier: 1,
  fightersPerTier: 1,
  tierCarries: ['Fighter'] as readonly UnitClass[],
  /**
   * A Carrier's Launch Bays (Reserves): the Carrier card's ability. Printed on another class it is
   * a homebrew reading (RULES decision, docs/rules.md): it carries as the Carrier's does, and a
   * Bomber embarked there is warned, since the rulebook lets only Carriers transport Bombers.
   */
  reservesAbility: 'Launch Bays (Reserves)',
  carrierClass: 'Carrier' as UnitClass,
  carrierCapacity: 3,
  carrierCarries: ['Fighter', 'Bomber'] as readonly UnitClass[],
  section: '6',
} as const;

/**
 * Section 14: "both players select a unit with LD and roll it" for Initiative; section 6: embarked
 * units "do not count for Initiative".
 */
export const INITIATIVE = { stat: 'LD', section: '14', embarkedSection: '6' } as const;

/** Section 21: the Command Board. */
export const DOCTRINES = { Light: 2, Standard: 3, Elite: 4 } as const;
export type Doctrine = keyof typeof DOCTRINES;
export const COMMAND_BOARD = {
  maxCpPerRound: 4,
  commandAbilities: 6,
  factionAbilities: 1,
  minAbilityCost: 1,
  section: '21',
} as const;

/** Sections 17 and 20: game sizes, tables and recommended objectives. */
export interface GameSize {
  points: number;
  name: string;
  table: string;
  objectives: { min: number; max: number };
  terrain?: string;
  /** Inches between the two fleets' board edges in the fleet battle's approach model (BATTLE.md). */
  depth: number;
}
export const GAME_SIZES: readonly GameSize[] = [
  { points: 500, name: 'Skirmish', table: "3' × 3'", objectives: { min: 3, max: 3 }, depth: 36 },
  { points: 1000, name: 'Standard', table: "4' × 4'", objectives: { min: 5, max: 8 }, terrain: '4–6 pieces', depth: 48 },
  { points: 2000, name: 'Battle', table: '44" × 60"', objectives: { min: 8, max: 12 }, terrain: '6–8 pieces', depth: 44 },
];
export const GAME_SIZE_SECTIONS = ['17', '20'];

/** Section 20: who may claim objectives. */
export const OBJECTIVE_RANGE = 3;

/** The quick engagement (RULES.md "The engagement (duel) model"). */
export const ENGAGEMENT_DEFAULTS = { range: 12, rounds: 6, trials: 20000, seed: 1 } as const;

/**
 * The points estimate (BATTLE.md "The points estimate"): the reference field is the cards at their
 * class's standard points, the bundled examples when fewer than `minField` are given; a note when
 * printed points and estimate differ by more than `flagSpreads` times the field's spread and by more
 * than x/÷`flagRatio` (what the battle measurement calls mis-costed: BATTLE.md). `maxField`
 * is the project's cap on the field (an even pick across classes), so a workspace of thousands of
 * standard-cost cards stays cheap.
 */
export const POINTS_ESTIMATE = { minField: 10, maxField: 40, flagSpreads: 2, flagRatio: 1.5 } as const;
/** The fleet battle (BATTLE.md): the same defaults; without a fixed range the fleets approach. */
export const BATTLE_DEFAULTS = { rounds: 6, trials: 20000, seed: 1, sections: ['6', '7', '9', '13', '14', '15', '18'] } as const;
/**
 * How sure the editor's battles play until (a 95% half-width on every headline figure: each side's
 * annihilation and points victory, the draw), `trials` being the most played: the battle view to
 * ±1%, the live odds lens, played again at every edit, to ±2%; `minTrials`, the fewest any run
 * until sure plays (`battle --precision` too), so that a rare outcome has been seen before its
 * figure counts as sure. Not rules: the project's settings.
 */
export const BATTLE_PRECISION = { view: 0.01, lens: 0.02, minTrials: 2000 } as const;
/** The approach the points estimate weighs reach on: the Standard table's depth (section 17) and the battle's rounds. */
export const BATTLE_TABLE = { depth: GAME_SIZES.find((g) => g.name === 'Standard')!.depth, rounds: BATTLE_DEFAULTS.rounds } as const;
/**
 * Points from battles (BATTLE.md "Points from battles"): the most trials per battle, the seed every
 * battle shares (paired dice), the search for the break-even count (geometric steps, then halving the
 * bracket down to one copy or this ratio), units a side at most, reference fleets per game size.
 * `sure`: each battle of the search stops once its figure d (the mean points balance) is sure, as a
 * battle run until sure does: checked every `chunk` trials from `minTrials`, the 95% half-width at
 * most `precision` (a lopsided count, far from break-even, varies little and stops early).
 * Not rules: the project's settings, chosen so that 20 cards price in under 2 minutes on 2 cores.
 * `chargeCarried`: whether a host's price has its carried craft's printed points taken off (false:
 * the card's price is what it brings to the table with its bays filled, so launch capacity and what
 * it carries are part of its worth, as the class cards' costs assume).
 */
export const BATTLE_PRICE = {
  chargeCarried: false,
  trials: 400,
  seed: 1,
  rounds: BATTLE_DEFAULTS.rounds,
  step: 1.5,
  bracket: 1.25,
  maxSteps: 8,
  maxUnits: 120,
  referenceFleetsPerSize: 2,
  minSeLog: 0.01,
  sure: { precision: 0.03, minTrials: 200, chunk: 100 },
} as const;
/**
 * The points estimate's training set (scripts/build-synthetic-prices.ts): this many variants of the
 * bundled cards, made from this seed, priced by battle; then `reach.count` reach variants of the
 * small hulls (a weapon's range or the movement changed) from their own seed, and `cr.count` boarding
 * variants (CR set anew or taken away) from theirs. Not rules: the
 * project's settings.
 */
export const SYNTHETIC = { count: 160, seed: 31, reach: { count: 64, seed: 32 }, cr: { count: 48, seed: 33 } } as const;
