/**
 * The rulebook's text as typed data, for hovers, completion details and the JSON Schemas.
 *
 * The text comes from `ruletext.json`, which `scripts/build-ruletext.ts` generates from the
 * rulebook and which is committed: the packaged product bundles the JSON and never reads the
 * rulebook itself. Every function here is pure and total: an unknown section, class or term gives
 * `undefined` (or an empty list), never an exception.
 */
import ruleTextJson from './ruletext.json';
import {
  CLASSES,
  CLASS_NAMES,
  COMMAND_BOARD,
  DICE,
  DOCTRINES,
  DOGFIGHTERS,
  GAME_SIZES,
  GAME_SIZE_SECTIONS,
  KNOWN_ABILITIES,
  KNOWN_ORDERS,
  LAUNCH_BAY,
  ORDERS_SECTION,
  PRECISION_STRIKE,
  RANGE_SECTION,
  SHIELD_RECHARGE,
  STATS,
  STAT_NAMES,
  STAT_ORDER,
  UNIVERSAL_RULES,
  WEAPON_TYPES,
  WEAPON_TYPE_ABBREVIATIONS,
  WEAPON_TYPE_SECTION,
  CLASS_TABLE_SECTIONS,
} from './data';
import type { UnitClass } from './data';
import { count } from './words';

// ---------------------------------------------------------------------------------------------
// The shape of ruletext.json (the build script imports these types, so both sides agree).

export interface FaqItem {
  /** The question, with its question mark. */
  q: string;
  a: string;
}

/** One numbered rulebook section ("12 Weapons & Weapon Types"). Blocks of several paragraphs join them with a blank line. */
export interface RuleSection {
  number: number;
  title: string;
  /** The section's group in the rulebook ("Core Rules", "Combat", ...). */
  category: string;
  /** The one-line summary printed under the title. */
  summary: string;
  rule: string;
  inPlay: string;
  example: string;
  designerNote: string;
  faq: FaqItem[];
}

/** An order or ability printed on a class card: "Name — text", or a bare name. */
export interface CardItem {
  name: string;
  text?: string;
}

export interface CardOrder extends CardItem {
  /** "LD Difficulty N", when the card prints one. */
  difficulty?: number;
  /** The order's range in inches, when the card prints one. */
  range?: number;
}

/** A class card ("Fighter Wing", "Radiant Court", ...). */
export interface ClassCardText {
  name: string;
  class: UnitClass;
  points: number;
  bases: number;
  orderSlots: number;
  abilitySlots: number;
  /** The card's prose (paragraphs joined by a blank line). */
  description: string;
  orders: CardOrder[];
  abilities: CardItem[];
}

/** A lore chapter: title, subtitle ("Cosmology · Before Reckoning") and prose. */
export interface LoreChapter {
  title: string;
  subtitle: string;
  /** Paragraphs joined by a blank line. */
  text: string;
}

export interface ChangelogEntry {
  /** The version label without its leading "v" ("July 30"). */
  version: string;
  title: string;
  /** ISO date, as printed. */
  date: string;
  items: string[];
}

export interface RuleText {
  /** The rulebook's file name, for provenance. */
  source: string;
  /** The book's title line. */
  title: string;
  /** The cosmology and history chapters before section 1. */
  lore: LoreChapter[];
  sections: RuleSection[];
  /** The two powers' chapters printed after section 21. */
  factionLore: LoreChapter[];
  classCards: ClassCardText[];
  changelog: ChangelogEntry[];
}

// ---------------------------------------------------------------------------------------------
// Lookups.

// The JSON module's inferred type is structural; the cast states the contract the build script keeps.
const RULE_TEXT: RuleText = ruleTextJson as RuleText;

const BY_NUMBER = new Map<number, RuleSection>(RULE_TEXT.sections.map((s) => [s.number, s]));
const CARDS_BY_NAME = new Map<string, ClassCardText>(RULE_TEXT.classCards.map((c) => [c.name, c]));

/** The whole rule text (read-only by convention). */
export function ruleText(): RuleText {
  return RULE_TEXT;
}

/** Accepts 12, "12" or "§12"; anything else gives undefined. */
function sectionNumber(n: number | string): number | undefined {
  if (typeof n === 'number') return Number.isInteger(n) ? n : undefined;
  const m = /^\s*\u00a7?\s*(\d+)\s*$/.exec(n);
  return m ? Number(m[1]) : undefined;
}

/** The section with that number (12, "12" or "§12"), or undefined. */
export function section(n: number | string): RuleSection | undefined {
  const num = sectionNumber(n);
  return num === undefined ? undefined : BY_NUMBER.get(num);
}

/** Every section, in rulebook order. */
export function sections(): readonly RuleSection[] {
  return RULE_TEXT.sections;
}

/** The class card of a unit class ('Capital Ship' gives the Radiant Court), or undefined for an unknown class. */
export function classCard(className: UnitClass | string): ClassCardText | undefined {
  const cls = CLASS_NAMES.find((c) => c.toLowerCase() === String(className).trim().toLowerCase());
  return cls ? CARDS_BY_NAME.get(CLASSES[cls].card) : undefined;
}

/** A class card by its printed name ("Fighter Wing"), or undefined. */
export function classCardByName(name: string): ClassCardText | undefined {
  const key = name.trim().toLowerCase();
  return RULE_TEXT.classCards.find((c) => c.name.toLowerCase() === key);
}

// ---------------------------------------------------------------------------------------------
// Markdown.

/**
 * Escapes rulebook text for Markdown so that it renders as written and is never read as HTML.
 * Written by hand because the common npm escapers (markdown-escape, escape-markdown) leave
 * backslashes, backticks, "|" and line-leading list markers ("1. Declare ...", in section 11)
 * alone, and turn "<" into an entity that plain-text clients show literally.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`)
      // "&" starts a character reference only when a name or number and ";" follow.
      .replace(/&(?=#?[\p{L}\p{N}]+;)/gu, '\\&')
      // Bare URLs, domains and e-mail addresses become links in GFM and linkify: break every form
      // an autolink needs ("scheme://", "www.", "name.tld", "a@b") with escapes that render as nothing.
      .replace(/:(?=\/\/)/g, '\\:')
      .replace(/@/g, '\\@')
      .replace(/(?<=[\p{L}\p{N}_-])\.(?=[\p{L}\p{N}_-])/gu, '\\.')
      .split('\n')
      .map((line) => line.replace(/^(\s*)(\d+)([.)])(?=\s|$)/, '$1$2\\$3').replace(/^(\s*)([-+=])/, '$1\\$2'))
      .join('\n')
  );
}

export interface SectionMarkdownOptions {
  /** Include the "In play" block (default false). */
  inPlay?: boolean;
  /** Include the example (default false). */
  example?: boolean;
  /** Include the designer note (default false). */
  designerNote?: boolean;
  /** Include the FAQ (default false). */
  faq?: boolean;
  /** Leave out the summary line (default false). */
  noSummary?: boolean;
}

/** "§12 Weapons & Weapon Types", or undefined for an unknown section. */
export function sectionTitle(n: number | string): string | undefined {
  const s = section(n);
  return s ? `§${s.number} ${s.title}` : undefined;
}

/** Rulebook blocks may hold two examples separated by "|||" (section 21); Markdown shows them as paragraphs. */
function paragraphs(text: string): string {
  return text
    .split(/\s*\|\|\|\s*/)
    .map((p) => escapeMarkdown(p))
    .join('\n\n');
}

/**
 * Hover-ready Markdown for a section: the bold "§N Title" heading, the summary in italics and the
 * rule, then whichever of in play, example, designer note and FAQ the options ask for. Every piece of
 * rulebook text is escaped. Undefined for an unknown section.
 */
export function sectionMarkdown(n: number | string, opts: SectionMarkdownOptions = {}): string | undefined {
  const s = section(n);
  if (!s) return undefined;
  const parts = [`**${escapeMarkdown(`§${s.number} ${s.title}`)}**`];
  if (!opts.noSummary) parts.push(`_${escapeMarkdown(s.summary)}_`);
  parts.push(paragraphs(s.rule));
  if (opts.inPlay) parts.push(`**In play:** ${paragraphs(s.inPlay)}`);
  if (opts.example) parts.push(`**Example:** ${paragraphs(s.example)}`);
  if (opts.designerNote) parts.push(`**Designer note:** ${paragraphs(s.designerNote)}`);
  if (opts.faq && s.faq.length > 0) {
    parts.push(['**FAQ**', ...s.faq.map((f) => `- **${escapeMarkdown(f.q)}** ${escapeMarkdown(f.a)}`)].join('\n'));
  }
  return parts.join('\n\n');
}

/** Hover-ready Markdown for a class card, or undefined for an unknown class. */
export function classCardMarkdown(className: UnitClass | string): string | undefined {
  const c = classCard(className);
  if (!c) return undefined;
  const item = (i: CardItem): string => `- **${escapeMarkdown(i.name)}**${i.text ? ` — ${escapeMarkdown(i.text)}` : ''}`;
  const parts = [
    `**${escapeMarkdown(c.name)}** (${escapeMarkdown(c.class)} class card)`,
    escapeMarkdown(`${c.points} pts · ${count(c.bases, 'base')} · ${count(c.orderSlots, 'order slot')} · ${count(c.abilitySlots, 'ability slot')}`),
    escapeMarkdown(c.description),
  ];
  if (c.orders.length > 0) parts.push(['**Orders**', ...c.orders.map(item)].join('\n'));
  if (c.abilities.length > 0) parts.push(['**Abilities**', ...c.abilities.map(item)].join('\n'));
  return parts.join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Search and glossary.

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every text of a section, for searching. */
function sectionTexts(s: RuleSection): string[] {
  return [s.title, s.summary, s.rule, s.inPlay, s.example, s.designerNote, ...s.faq.flatMap((f) => [f.q, f.a])];
}

/** A word's pattern with its singular and plural ("Ability"/"Abilities", "Orders"/"Order", "Hit"/"Hits"). */
function wordPattern(word: string): string {
  if (!/\p{L}$/u.test(word)) return escapeRegExp(word);
  // A consonant before "y" makes the plural "ies" ("Ability"); a vowel makes it "s" ("Bay").
  if (/[^aeiou](?:y|ies)$/i.test(word)) return `${escapeRegExp(word.replace(/(?:y|ies)$/i, ''))}(?:y|ies)`;
  const stem = /[^s]s$/i.test(word) ? word.slice(0, -1) : word;
  return `${escapeRegExp(stem)}(?:s|es)?`;
}

/**
 * A case-insensitive whole-word pattern for a term, in singular or plural ("Critical Hit" matches
 * "Critical Hits"); a trailing parenthesis is left out ("Boarding (CR)" looks for "Boarding").
 * Undefined for an empty term.
 */
export function termPattern(term: string): RegExp | undefined {
  const bare = term.trim().replace(/\s*\([^()]*\)$/, '') || term.trim();
  const words = bare.split(/\s+/).filter(Boolean).map(wordPattern);
  if (words.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
}

/** The sections whose text mentions the term (whole words, any case), in rulebook order. */
export function findSectionsMentioning(term: string): RuleSection[] {
  const re = termPattern(term);
  if (!re) return [];
  return RULE_TEXT.sections.filter((s) => sectionTexts(s).some((t) => re.test(t)));
}

/** A data.ts section reference ("12", "class cards") as a section number, when it is one. */
function num(ref: string): number | undefined {
  return /^\d+$/.test(ref) ? Number(ref) : undefined;
}

/**
 * Section numbers that data.ts does not carry as a constant: they are places in the rulebook, not
 * rule figures, and the tests check that each section really mentions each term it is given for.
 */
const SECTION = {
  movement: 7,
  squadLeaders: 8,
  actions: 9,
  combat: 11,
  boarding: 13,
  round: 14,
  actionTokens: 15,
  entering: 18,
  terrain: 19,
  objectives: 20,
} as const;

function buildGlossary(): Map<string, number> {
  const out = new Map<string, number>();
  const add = (ref: string | number | undefined, ...terms: string[]): void => {
    const n = typeof ref === 'number' ? ref : ref === undefined ? undefined : num(ref);
    if (n === undefined) return;
    // The first entry for a term wins, so the defining section is listed before later mentions.
    for (const t of terms) if (!out.has(t)) out.set(t, n);
  };
  for (const s of STAT_ORDER) add(STATS[s].section, s, STAT_NAMES[s]);
  add(STATS.M.section, 'stats', 'stat line');
  add(WEAPON_TYPE_SECTION, ...WEAPON_TYPES, ...Object.keys(WEAPON_TYPE_ABBREVIATIONS));
  add(WEAPON_TYPE_SECTION, 'weapons', 'weapon', 'weapon profile', 'weapon type', 'damage', 'Dmg', 'attacks', 'type');
  add(RANGE_SECTION, 'range', 'range band', 'range bands');
  add(CLASS_TABLE_SECTIONS[0], ...CLASS_NAMES, 'class', 'unit classes', 'bases', 'weapon systems', 'weapon system', 'abilities');
  add(DOGFIGHTERS.section, 'Dogfighters');
  add(PRECISION_STRIKE.section, 'Precision Strike');
  for (const r of UNIVERSAL_RULES) add(r.section, r.name);
  add(LAUNCH_BAY.section, 'Launch Bay', 'Launch Bays', 'Launch Bay Tier', 'embark', 'embarked');
  add(SHIELD_RECHARGE.section, 'Shields Back Online', 'Shield Recharge');
  add(DICE.section, 'Critical Hit', 'Critical Hits', 'Criticals', 'd10', 'dice');
  add(SECTION.actions, 'Action Points', 'AP', 'actions', 'Move', 'Fire', 'Aim', 'Brace', 'Scan');
  add(SECTION.movement, 'movement sticks', 'movement stick', 'Combined Movement');
  add(SECTION.squadLeaders, 'Squad Leader', 'Squad Leaders');
  add(SECTION.combat, 'Fire Sequence', 'Combat');
  add(SECTION.boarding, 'Boarding', 'Board', 'Ramming', 'Ram');
  for (const a of KNOWN_ABILITIES) add(a.section, a.name);
  add(SECTION.round, 'Initiative', 'Round Sequence', 'Command Phase', 'Initiative Phase', 'Activation Phase', 'End Phase', 'activation');
  add(SECTION.actionTokens, 'Action Tokens', 'Action Token');
  // An order's LD Difficulty is printed on class cards only; §16 never names it, so it has no entry.
  add(ORDERS_SECTION, 'Orders', 'Order', 'orders');
  for (const o of KNOWN_ORDERS) add(o.section, o.name);
  // "Standard" names both a game size and a doctrine, so neither list claims it.
  const ambiguous = (name: string): boolean => GAME_SIZES.some((g) => g.name === name) && name in DOCTRINES;
  const gameSizes = GAME_SIZES.map((g) => g.name).filter((n) => !ambiguous(n));
  add(GAME_SIZE_SECTIONS[0], 'points', 'Deployment', 'Battlefield Setup', ...gameSizes);
  add(SECTION.entering, 'Entering the Battlefield', 'battlefield edge');
  add(SECTION.terrain, 'Cover', 'Terrain', 'Line of Sight', 'Asteroid Field', 'Debris Field', 'Void Rift', 'Station', 'Gravitic Anomaly');
  add(SECTION.objectives, 'Objective', 'Objectives', 'objective control', 'control');
  add(COMMAND_BOARD.section, 'Command Board', 'doctrine', 'Command Doctrine', 'CP', 'cp', 'Command Points', 'Faction Ability', 'factionAbility');
  add(COMMAND_BOARD.section, 'Command Abilities', 'Command Ability', 'commandAbilities', 'CP Generation');
  add(COMMAND_BOARD.section, ...Object.keys(DOCTRINES).filter((n) => !ambiguous(n)));
  return out;
}

const GLOSSARY = buildGlossary();
const GLOSSARY_LOWER = new Map<string, number>();
for (const [term, n] of GLOSSARY) if (!GLOSSARY_LOWER.has(term.toLowerCase())) GLOSSARY_LOWER.set(term.toLowerCase(), n);

/** Every glossary term and its section, in the order they were added (for tests and completion). */
export function glossary(): ReadonlyMap<string, number> {
  return GLOSSARY;
}

/**
 * The section that defines a glossary term (a stat, weapon type, class, rule name, YAML key such
 * as `doctrine` or `embark`), or undefined. Exact spelling is tried first; terms longer than two
 * letters also match in any case, so that "d" is not taken for Dodge nor "a" for Auto.
 */
export function termSection(term: string): number | undefined {
  const t = term.trim().replace(/\s+/g, ' ');
  const exact = GLOSSARY.get(t);
  if (exact !== undefined) return exact;
  if (t.length <= 2) return undefined;
  return GLOSSARY_LOWER.get(t.toLowerCase());
}
