/**
 * The file format's fields, declared once: for each kind of mapping (a unit file, a card, a weapon,
 * ...), its keys in the order the format shows them, what each holds in a sentence for users, the
 * shape of its value and the rulebook sections that explain it. The parser reads the keys (unknown
 * keys, closest-key suggestions), completion offers them with their sentence, and the JSON Schema
 * generator (scripts/build-schemas.ts) writes the same sentences and sections.
 */
import {
  CLASS_NAMES,
  COMMAND_BOARD,
  DEFAULT_ORDER_RANGE,
  DOCTRINES,
  DOGFIGHTERS,
  GAME_SIZES,
  PRECISION_STRIKE,
  RANGE_BANDS,
  STAT_ORDER,
  WEAPON_DAMAGE,
  WEAPON_MIN_ATTACKS,
  WEAPON_TYPE_ABBREVIATIONS,
  WEAPON_TYPES,
} from '../rules/data';
import type { SectionMarkdownOptions } from '../rules/text';

/** A rulebook section the field's documentation quotes, with what of it to show. */
export type SectionRef = number | readonly [number, SectionMarkdownOptions];

export interface FieldSpec {
  readonly key: string;
  /** What the field holds, in one or two sentences for users (completion, schema descriptions). */
  readonly doc: string;
  /** The value's shape: inserting a list or mapping key opens the list or the mapping. */
  readonly shape: 'scalar' | 'list' | 'map';
  readonly sections?: readonly SectionRef[];
}

const bands = RANGE_BANDS.map((b) => `${b}"`).join(' ');
const doctrines = Object.entries(DOCTRINES)
  .map(([d, cp]) => `${d} (${cp} CP)`)
  .join(', ');

const gameSizes = GAME_SIZES.map(
  (g) =>
    `${g.points} ${g.name} (${g.table}, ${g.objectives.min === g.objectives.max ? g.objectives.min : `${g.objectives.min}–${g.objectives.max}`} objectives)`,
).join(', ');

const f = (key: string, shape: FieldSpec['shape'], doc: string, sections?: readonly SectionRef[]) =>
  ({ key, shape, doc, ...(sections ? { sections } : {}) }) as const;

export const FIELDS = {
  unitFile: [f('faction', 'scalar', 'The faction these cards belong to.'), f('units', 'list', 'Unit cards of this faction.', [3])],
  card: [
    f('name', 'scalar', "The card's name: unique within its faction across the workspace; fleet lists refer to it."),
    f('class', 'scalar', `The unit class: ${CLASS_NAMES.join(', ')}.`, [[3, { inPlay: true }]]),
    f('points', 'scalar', "The card's points cost: a positive whole number. The class card gives the standard cost; another figure is homebrew.", [17]),
    f('bases', 'scalar', "How many bases the unit has; must equal its class's count when given.", [[3, { inPlay: false }]]),
    f(
      'base',
      'scalar',
      `Base size in mm (e.g. 60mm); the class default when absent. Dogfighters double against targets on ${DOGFIGHTERS.targetBaseAtMostMm}mm bases or smaller, Precision Strike against ${PRECISION_STRIKE.targetBaseAtLeastMm}mm or larger.`,
      [4, 5],
    ),
    f('stats', 'map', `All nine stats, ${STAT_ORDER.join(' ')}: a mapping, or the card's stat line in that order.`, [1]),
    f('weapons', 'list', 'Weapon systems: mappings (name, type, range, damage, attacks) or the one-line profile "Name — Type, Range, Dmg, Attacks".', [12]),
    f('orders', 'list', 'Orders: a mapping (name, difficulty, range, effect) or a known order by name. The class sets how many (section 16).', [
      [16, { inPlay: true, example: true }],
    ]),
    f('abilities', 'list', 'Abilities printed on the card, and universal class rules (which take no slot).', [3]),
  ],
  weapon: [
    f('name', 'scalar', "The weapon system's name."),
    f('type', 'scalar', `The weapon type: ${WEAPON_TYPES.join(', ')} (or ${Object.keys(WEAPON_TYPE_ABBREVIATIONS).join(', ')}).`, [
      [12, { inPlay: true, noSummary: true }],
    ]),
    f('range', 'scalar', `The range: a range band, ${bands} (the inch mark is optional).`, [[12, { example: true, faq: true }]]),
    f('damage', 'scalar', `Dmg: damage per unsaved hit, ${WEAPON_DAMAGE.min} to ${WEAPON_DAMAGE.max}.`, [12]),
    f(
      'attacks',
      'scalar',
      `Attacks: at least ${WEAPON_MIN_ATTACKS}. Blast multiplies them by the target's bases; Dogfighters and Precision Strike set them per base.`,
      [12, 4, 5],
    ),
  ],
  order: [
    f('name', 'scalar', "The order's name."),
    f('difficulty', 'scalar', 'LD Difficulty: how many LD successes issuing the order needs (a whole number, at least 1).', [16]),
    f('range', 'scalar', `How far the order reaches (default ${DEFAULT_ORDER_RANGE}"): a range band.`, [16, 12]),
    f('effect', 'scalar', 'What the order does. Inch figures in it should be range bands.'),
  ],
  ability: [
    f('name', 'scalar', "The ability's name."),
    f('text', 'scalar', 'What the ability does. Inch figures in it should be range bands.'),
    f('range', 'scalar', 'How far the ability reaches: a range band.', [12]),
  ],
  faction: [
    f('faction', 'scalar', "The faction's name."),
    f('doctrine', 'scalar', `The Command Doctrine: ${doctrines}.`, [[21, { inPlay: true, noSummary: true }]]),
    f('cp', 'scalar', `CP generated per round: the doctrine's figure (${doctrines}); never more than ${COMMAND_BOARD.maxCpPerRound}.`, [21]),
    f(
      'cpSources',
      'list',
      "Where the round's CP come from, when the board splits them (e.g. Commander Burst 2 CP, First Officer Burst 1 CP); they add up to the doctrine's CP.",
      [21],
    ),
    f('factionAbility', 'map', 'The one Faction Ability: always active, costs no CP.', [21]),
    f('commandAbilities', 'list', `Exactly ${COMMAND_BOARD.commandAbilities} command abilities, each with a name, CP cost, timing and effect.`, [
      [21, { example: true }],
    ]),
    f('units', 'list', 'Unit cards of this faction.', [3]),
  ],
  cpSource: [f('name', 'scalar', "The source's name."), f('cp', 'scalar', 'The CP it gives each round.')],
  factionAbility: [f('name', 'scalar', "The faction ability's name."), f('text', 'scalar', 'What it does.')],
  commandAbility: [
    f('name', 'scalar', "The command ability's name (unique on the board)."),
    f(
      'cost',
      'scalar',
      `Its CP cost: a whole number from ${COMMAND_BOARD.minAbilityCost}, never more than the faction generates per round (at most ${COMMAND_BOARD.maxCpPerRound}).`,
      [21],
    ),
    f('timing', 'scalar', 'When it may be used (e.g. "Before a friendly unit moves").'),
    f('effect', 'scalar', 'What it does.'),
  ],
  fleet: [
    f('name', 'scalar', "The fleet's name."),
    f('faction', 'scalar', 'The faction the fleet belongs to; every card must be of it.'),
    f('points', 'scalar', `The game's points limit: ${gameSizes}, or any positive whole number for a custom game.`, [17]),
    f('objectives', 'scalar', 'How many objectives the game uses (checked against the recommendation for its size).', [[20, { inPlay: true }]]),
    f('units', 'list', "The fleet's entries.", [17]),
  ],
  fleetEntry: [
    f('unit', 'scalar', "The card's name (a card of the fleet's faction, in any *.unit.yaml or *.faction.yaml file)."),
    f('count', 'scalar', 'How many of this card (default 1). With `embark`, each copy carries the listed units.'),
    f('embark', 'list', "Units carried in this ship's Launch Bay(s) at the start; their points count toward the fleet.", [6]),
  ],
  collection: [f('owned', 'list', 'The models you own, by card name (as in fleet lists): a fleet that fields more copies than you own is warned about.')],
  ownedEntry: [f('unit', 'scalar', "The card's name (as a fleet list names it)."), f('count', 'scalar', 'How many of this model you own (default 1).')],
} as const;

export type FieldOwner = keyof typeof FIELDS;
export type FieldKey<O extends FieldOwner> = (typeof FIELDS)[O][number]['key'];

/** The keys of a kind of mapping, in the format's order. */
export function keysOf<O extends FieldOwner>(owner: O): readonly FieldKey<O>[] {
  return (FIELDS[owner] as readonly FieldSpec[]).map((x) => x.key);
}

/** A field of a kind of mapping; undefined when the key is not one of its fields. */
export function fieldOf(owner: FieldOwner, key: string): FieldSpec | undefined {
  return (FIELDS[owner] as readonly FieldSpec[]).find((x) => x.key === key);
}
