/**
 * The typed document model: what a `*.unit.yaml`, `*.faction.yaml` or `*.fleet.yaml` file says,
 * with the source offsets of every key and value so that checks and features can point at them.
 * Offsets are UTF-16 code-unit offsets into the document text (what JavaScript strings index);
 * the edges (LSP, CLI) turn them into line/column positions.
 */
import type { StatName, UnitClass, WeaponType, Doctrine } from '../rules/data';

/** A half-open range of offsets [start, end). */
export interface Span {
  start: number;
  end: number;
}

export type DocKind = 'unit' | 'faction' | 'fleet' | 'collection';

export type Severity = 'error' | 'warning' | 'info';

/** A problem found in a document: stable code, severity, message and where. */
export interface Problem {
  code: string;
  severity: Severity;
  message: string;
  span: Span;
  /** Data for quick fixes (e.g. the suggested replacements). */
  data?: ProblemData;
  /** Related places, possibly in other files (e.g. the card a fleet entry is about). */
  related?: { uri: string; span: Span; message: string }[];
}

export interface ProblemData {
  /** Replacement texts a quick fix may put at `span` (first is preferred). */
  replacements?: string[];
  /** Text a quick fix may insert, and where. */
  insert?: { offset: number; text: string };
  [key: string]: unknown;
}

/** A scalar (or other) value with its source range and its text as written. */
export interface Field<T> {
  /** The parsed value, or undefined when the text is not of the expected kind. */
  value: T | undefined;
  /** The source text of the value, as written (scalars: decoded string; other nodes: ''). */
  raw: string;
  /** The range of the value node (for a missing value: the end of the key). */
  span: Span;
  /** The range of the key, when the value came from a mapping entry. */
  keySpan?: Span;
}

/** A YAML list under a key, with the key's range (for "too many" diagnostics). */
export interface ListField<T> {
  items: T[];
  keySpan: Span;
  span: Span;
}

/** A parsed stat value. */
export type StatValue =
  | { kind: 'none' } // "-" or "—": not possessed
  | { kind: 'sticks'; parts: number[] } // M: "9" or "9/6"
  | { kind: 'target'; target: number } // BS/D/AC: "5+"
  | { kind: 'count'; n: number } // SH/HP/T: whole number
  | { kind: 'targetDice'; target: number; dice: number }; // LD/CR: "6/3"

export interface StatEntry {
  stat: StatName;
  /** The token as written (e.g. "5+"). */
  raw: string;
  span: Span;
  /** The key's range in mapping form; in stat-line form the token's own range. */
  keySpan: Span;
  /** Parsed value, or undefined when the token is malformed for this stat (reported by the model). */
  value: StatValue | undefined;
}

export interface StatsBlock {
  form: 'mapping' | 'line';
  keySpan: Span;
  span: Span;
  entries: Partial<Record<StatName, StatEntry>>;
  /**
   * A stat line with values left out, where the values fit more than one reading: every stat that
   * may be the one left out (the entries follow one of the readings).
   */
  unsure?: StatName[];
}

export interface Weapon {
  form: 'mapping' | 'line';
  span: Span;
  name: Field<string>;
  type: Field<WeaponType>;
  /** Range in inches. */
  range: Field<number>;
  damage: Field<number>;
  attacks: Field<number>;
}

/** What an order and an ability share: a mapping of fields, or (`string`) a known one's name alone. */
export interface NamedRule {
  form: 'mapping' | 'string';
  span: Span;
  name: Field<string>;
  range?: Field<number>;
}

export interface Order extends NamedRule {
  difficulty?: Field<number>;
  effect?: Field<string>;
}

export interface Ability extends NamedRule {
  text?: Field<string>;
}

export interface UnitCard {
  /** The whole card's range (the list item, or the document for a top-level card). */
  span: Span;
  /**
   * The card's first merge key (`<<: *base`), when it merges another mapping: what it takes from
   * there is written outside `span`, and its problems are reported here, on the card.
   */
  merge?: Span;
  name: Field<string>;
  class: Field<UnitClass>;
  points: Field<number>;
  bases?: Field<number>;
  /** Base size in mm. */
  base?: Field<number>;
  stats?: StatsBlock;
  weapons?: ListField<Weapon>;
  orders?: ListField<Order>;
  abilities?: ListField<Ability>;
  /** The faction this card belongs to (from its file). */
  faction: Field<string>;
}

export interface CommandAbility {
  span: Span;
  name: Field<string>;
  cost: Field<number>;
  timing: Field<string>;
  effect: Field<string>;
}

export interface CpSource {
  span: Span;
  name: Field<string>;
  cp: Field<number>;
}

export interface FleetEntry {
  span: Span;
  unit: Field<string>;
  count: Field<number>;
  embark?: ListField<Field<string>>;
}

interface DocBase {
  uri: string;
  text: string;
  /** Problems found while reading the text: YAML syntax, wrong shapes, unknown keys. */
  problems: Problem[];
  /** The text was not read at all (over a limit, or not YAML): only `problems` say anything. */
  unread?: boolean;
}

export interface UnitDocument extends DocBase {
  kind: 'unit';
  faction: Field<string>;
  units: UnitCard[];
  unitsKey?: Span;
}

export interface FactionDocument extends DocBase {
  kind: 'faction';
  faction: Field<string>;
  doctrine: Field<Doctrine>;
  cp?: Field<number>;
  cpSources?: ListField<CpSource>;
  factionAbility?: { span: Span; keySpan: Span; name: Field<string>; text: Field<string> };
  factionAbilityKey?: Span;
  commandAbilities?: ListField<CommandAbility>;
  units: UnitCard[];
  unitsKey?: Span;
}

export interface FleetDocument extends DocBase {
  kind: 'fleet';
  name: Field<string>;
  faction: Field<string>;
  points: Field<number>;
  objectives?: Field<number>;
  units?: ListField<FleetEntry>;
}

/** One model a player owns: a card name and how many (FORMATS.md "Collection"). */
export interface OwnedEntry {
  span: Span;
  unit: Field<string>;
  count: Field<number>;
}

/** The models a player owns (`*.collection.yaml`). */
export interface CollectionDocument extends DocBase {
  kind: 'collection';
  owned?: ListField<OwnedEntry>;
}

export type FabledDocument = UnitDocument | FactionDocument | FleetDocument | CollectionDocument;
