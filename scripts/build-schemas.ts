/**
 * Builds the JSON Schemas (draft-07) in schemas/ from the rules pack and the rule text:
 *
 *   node --import=tsx scripts/build-schemas.ts [OUTDIR]
 *
 * The schemas serve editors that speak JSON Schema (yaml-language-server and the Red Hat YAML
 * extension): completion of keys and values, hovers with the rulebook's text, and the checks a
 * schema can express. They accept every file the validator accepts without an error (the test
 * suite holds them to that), so they are as lenient as the validator where it is lenient (class
 * and weapon-type spelling in any case, numbers written as strings, ranges as 12, 12" or 12 in)
 * and leave to the validator what a schema cannot know (other files, sums, unknown keys, which are
 * only warnings).
 *
 * Every figure comes from server/src/core/rules/data.ts and every rule text from ruletext.json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CLASSES,
  CLASS_NAMES,
  COMMAND_BOARD,
  DASHES,
  DOCTRINES,
  GAME_SIZES,
  KNOWN_ABILITIES,
  KNOWN_ORDERS,
  LAUNCH_BAY,
  RANGE_BANDS,
  SMALL_CRAFT_MAX_RANGE,
  STATS,
  STAT_NAMES,
  STAT_ORDER,
  UNIVERSAL_RULES,
  WEAPON_DAMAGE,
  WEAPON_MIN_ATTACKS,
  WEAPON_TYPES,
  WEAPON_TYPE_ABBREVIATIONS,
} from '../server/src/core/rules/data';
import type { Doctrine, StatName, UnitClass } from '../server/src/core/rules/data';
import { formDescription } from '../server/src/core/rules/lookup';
import { fieldOf, type FieldOwner, type SectionRef } from '../server/src/core/model/fields';
import { classCardMarkdown, escapeMarkdown, section, sectionMarkdown } from '../server/src/core/rules/text';
import { formatJson } from './build-ruletext';
import { runMain } from './generated-files';

export const SCHEMAS_DIR = path.resolve(__dirname, '../schemas');
export const SCHEMA_FILES = {
  unit: 'fabled-unit.schema.json',
  faction: 'fabled-faction.schema.json',
  fleet: 'fabled-fleet.schema.json',
  collection: 'fabled-collection.schema.json',
} as const;

/** A JSON Schema node; the generator builds plain objects. */
export type Schema = { [keyword: string]: unknown };

// ---------------------------------------------------------------------------------------------
// Regular-expression pieces. Patterns must mean the same with and without the "u" flag (ajv and
// yaml-language-server compile them differently), so only syntax characters are ever escaped.

function escapeRe(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function alt(parts: readonly (string | number)[]): string {
  return `(?:${parts.map(String).join('|')})`;
}

/** A literal in any letter case, with any run of whitespace between words (as the validator reads class names). */
function anyCase(literal: string): string {
  return literal
    .trim()
    .split(/\s+/)
    .map((w) => [...w].map((c) => (/\p{L}/u.test(c) && c.toLowerCase() !== c.toUpperCase() ? `[${c.toUpperCase()}${c.toLowerCase()}]` : escapeRe(c))).join(''))
    .join('\\s+');
}

function range(lo: number, hi: number): number[] {
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** Digits (leading zeros allowed, as Number() reads them) of a whole number in [min, max]. */
function digits(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined && max - min <= 40) return `0*${alt(range(min, max).reverse())}`;
  if (min === 1) return '0*[1-9]\\d*';
  if (min === 0) return '\\d+';
  return '\\d+';
}

const DASH = alt(DASHES.map(escapeRe));
/** The validator's inch spellings: 12, 12", 12” or 12″ (typographic), 12'' and 12 in / in. / inch / inches. */
const INCH_MARK = alt(['"', '”', '″', "''", anyCase('inches'), anyCase('inch'), `${anyCase('in')}\\.?`]);

function bandToken(max = Infinity): string {
  const bands = RANGE_BANDS.filter((b) => b <= max);
  return `0*${alt([...bands].reverse())}(?:\\.0+)?\\s*${INCH_MARK}?`;
}

const WEAPON_TYPE_TOKEN = alt([
  ...WEAPON_TYPES.map(anyCase),
  `[${Object.keys(WEAPON_TYPE_ABBREVIATIONS)
    .map((a) => a + a.toLowerCase())
    .join('')}]`,
]);

/** One stat's token; `spaced` allows the spaces the mapping form tolerates inside "9 / 6". */
function statToken(stat: StatName, spaced: boolean): string {
  const spec = STATS[stat];
  const sp = spaced ? '\\s*' : '';
  let token: string;
  switch (spec.form) {
    case 'sticks': {
      const stick = `0*${alt([...spec.sticks!].reverse())}`;
      token = `${stick}(?:"?${sp}\\/${sp}${stick})?"?`;
      break;
    }
    case 'target':
      token = `${digits(spec.min, spec.max)}${sp}\\+`;
      break;
    case 'count':
      token = `\\+?${digits(spec.min, spec.max)}`;
      break;
    case 'targetDice':
      token = `${digits(spec.target!.best, spec.target!.worst)}${sp}\\/${sp}${digits(spec.dice!.min, spec.dice!.max)}`;
      break;
  }
  return spec.dashAllowed ? alt([token, DASH]) : token;
}

/** The stat-line separators the validator splits on (FORMATS.md: spaces or " · "). */
const STAT_SEPARATOR = '[\\s·•|,]';

// ---------------------------------------------------------------------------------------------
// The field table (server/src/core/model/fields.ts): what each key holds, as parser and completion know it.

function doc(owner: FieldOwner, key: string): string {
  const f = fieldOf(owner, key);
  if (!f) throw new Error(`build-schemas: no field ${owner}.${key} in the field table`);
  return f.doc;
}

function sections(owner: FieldOwner, key: string): SectionRef[] {
  return [...(fieldOf(owner, key)?.sections ?? [])];
}

// ---------------------------------------------------------------------------------------------
// Descriptions: a short plain `description`, and `markdownDescription` with the rulebook's text.

function plainSection(n: number): string {
  const s = section(n);
  return s ? `§${s.number} ${s.title}: ${s.summary}` : '';
}

function described(own: string, sections: readonly SectionRef[] = []): Schema {
  const md = sections.map((s) => (typeof s === 'number' ? sectionMarkdown(s, { noSummary: false }) : sectionMarkdown(s[0], s[1]))).filter(Boolean);
  const first = sections[0];
  const plain = [own.replace(/[*_`\\]/g, ''), first === undefined ? '' : `(${plainSection(typeof first === 'number' ? first : first[0])})`]
    .filter(Boolean)
    .join(' ');
  return { description: plain, markdownDescription: [own, ...md].join('\n\n---\n\n') };
}

// ---------------------------------------------------------------------------------------------
// Value schemas.
//
// Unions are written for yaml-language-server as much as for validation. A value that may be a
// string or something else is if/then/else on its type, so that a mistake is reported in the
// branch the value is in (a bad stat line as a bad stat line, not "expected object"). Other unions
// are oneOf over branches that exclude each other: with anyOf, yaml-language-server replaces a
// hover's rule text by the plain descriptions of the branches whenever several of them match.

function stringOr(ifString: Schema, otherwise: Schema): Schema {
  return { if: { type: 'string' }, then: { type: 'string', ...ifString }, else: otherwise };
}

/** Any scalar the validator reads as text: a string with something in it, or a number. */
function text(own: string, sections: readonly SectionRef[] = []): Schema {
  return { ...described(own, sections), ...stringOr({ pattern: '\\S', patternErrorMessage: 'Must not be empty.' }, { type: 'number' }) };
}

/** A whole number in [min, max], as YAML writes it or as a string of digits (the validator reads both). */
function whole(own: string, min?: number, max?: number, sections: readonly SectionRef[] = []): Schema {
  const int: Schema = { type: 'integer' };
  if (min !== undefined) int.minimum = min;
  if (max !== undefined) int.maximum = max;
  const sign = min !== undefined && min >= 0 ? '\\+?' : '[+-]?';
  const limits = min !== undefined && max !== undefined ? (min === max ? ` ${min}` : ` from ${min} to ${max}`) : min !== undefined ? ` of at least ${min}` : '';
  return {
    ...described(own, sections),
    ...stringOr({ pattern: `^\\s*${sign}${digits(min, max)}\\s*$`, patternErrorMessage: `A whole number${limits}.` }, int),
  };
}

function bandValue(own: string, max = Infinity, sections: readonly SectionRef[] = [12]): Schema {
  const bands = RANGE_BANDS.filter((b) => b <= max);
  const message = `A range band: ${bands.map((b) => `${b}"`).join(' ')}${max < Infinity ? ` (Fighter and Bomber weapons reach at most ${max}")` : ''}.`;
  return {
    ...described(own, sections),
    ...stringOr(
      { pattern: `^\\s*${bandToken(max)}\\s*$`, patternErrorMessage: message, examples: bands.map((b) => `${b}"`) },
      { type: 'integer', enum: [...bands], errorMessage: message },
    ),
  };
}

/** A value that is one of `names` in any letter case, offering the canonical spellings for completion. */
function caseless(own: string, names: readonly string[], descriptions: readonly string[], sections: readonly SectionRef[]): Schema {
  return {
    ...described(own, sections),
    oneOf: [
      { type: 'string', enum: [...names], markdownEnumDescriptions: [...descriptions] },
      // The same names in another case or spacing, which the validator accepts too.
      { type: 'string', pattern: `^\\s*${alt(names.map(anyCase))}\\s*$`, not: { enum: [...names] }, patternErrorMessage: `One of ${names.join(', ')}.` },
    ],
  };
}

/** A list under a key: a YAML list, a single item (read as a list of one) or nothing. */
function listOf(own: string, item: Schema, sections: readonly SectionRef[], single = true): Schema {
  const branches: Schema[] = [{ type: 'array', items: item }];
  if (single) branches.push(item);
  branches.push({ type: 'null' });
  return { ...described(own, sections), oneOf: branches };
}

// ---------------------------------------------------------------------------------------------
// Unit cards.

function weaponTypeDescriptions(): string[] {
  // §12 "In play" describes each type as "E — Energy: ..."; show that sentence with its type.
  const inPlay = section(12)?.inPlay ?? '';
  return WEAPON_TYPES.map((t) => {
    const abbr = Object.keys(WEAPON_TYPE_ABBREVIATIONS).find((a) => WEAPON_TYPE_ABBREVIATIONS[a] === t)!;
    const m = new RegExp(`${abbr} — ${t}: (.*?)(?= [A-Z] — [A-Z][a-z]+:|$)`).exec(inPlay);
    return `**${t}** (${abbr})${m ? ` — ${escapeMarkdown(m[1]!)}` : ''}`;
  });
}

function weaponSchemas(maxRange = Infinity): { mapping: Schema; line: Schema } {
  const typeNames = [...WEAPON_TYPES, ...Object.keys(WEAPON_TYPE_ABBREVIATIONS)];
  const typeDescriptions = [...weaponTypeDescriptions(), ...Object.entries(WEAPON_TYPE_ABBREVIATIONS).map(([a, t]) => `${a}: short for **${t}**`)];
  const smallNote = maxRange < Infinity ? ` Fighter and Bomber weapons reach at most ${SMALL_CRAFT_MAX_RANGE}".` : '';
  const mapping: Schema = {
    type: 'object',
    ...described('A weapon system: name, type, range, damage and attacks.', [[12, { inPlay: true }]]),
    required: ['name', 'type', 'range', 'damage', 'attacks'],
    properties: {
      name: text(doc('weapon', 'name')),
      type: caseless(doc('weapon', 'type'), typeNames, typeDescriptions, sections('weapon', 'type')),
      range: bandValue(`${doc('weapon', 'range')}${smallNote}`, maxRange, sections('weapon', 'range')),
      damage: whole(doc('weapon', 'damage'), WEAPON_DAMAGE.min, WEAPON_DAMAGE.max, sections('weapon', 'damage')),
      attacks: whole(doc('weapon', 'attacks'), WEAPON_MIN_ATTACKS, undefined, sections('weapon', 'attacks')),
    },
  };
  const line: Schema = {
    type: 'string',
    ...described(
      `A weapon written as the rulebook's one-line profile: \`Name — Type, Range, Dmg, Attacks\` ("-", "—" or "–" as the dash), e.g. \`Pulse Laser — Ion, 9", 2, 4\`.${smallNote}`,
      [12],
    ),
    pattern: `^\\s*\\S.*?\\s${DASH}\\s\\s*${WEAPON_TYPE_TOKEN}\\s*,\\s*${bandToken(maxRange)}\\s*,\\s*\\+?${digits(WEAPON_DAMAGE.min, WEAPON_DAMAGE.max)}\\s*,\\s*\\+?${digits(WEAPON_MIN_ATTACKS, undefined)}\\s*$`,
    patternErrorMessage: `Write the weapon as "Name — Type, Range, Dmg, Attacks": a type (${WEAPON_TYPES.join(', ')} or ${Object.keys(WEAPON_TYPE_ABBREVIATIONS).join(', ')}), a range band${maxRange < Infinity ? ` up to ${maxRange}"` : ''}, damage ${WEAPON_DAMAGE.min} to ${WEAPON_DAMAGE.max} and at least ${WEAPON_MIN_ATTACKS} attack, e.g. Pulse Laser — Ion, 9", 2, 4.`,
    examples: ['Pulse Laser — Ion, 9", 2, 4'],
  };
  return { mapping, line };
}

/** A weapon in either form; small craft (Fighters, Bombers) have their own, with the shorter ranges. */
function weaponSchema(maxRange = Infinity): Schema {
  const { mapping, line } = weaponSchemas(maxRange);
  return stringOr(line, mapping);
}

function weaponList(): Schema {
  return listOf('Weapon systems, each a mapping or a one-line profile. The class sets how many (section 3).', { $ref: '#/definitions/weapon' }, [
    [12, { inPlay: true }],
    3,
  ]);
}

function statSchema(stat: StatName): Schema {
  const spec = STATS[stat];
  const own = `**${stat} — ${STAT_NAMES[stat]}**: ${escapeMarkdown(formDescription(stat))}.`;
  const asText: Schema = { pattern: `^\\s*${statToken(stat, true)}\\s*$`, patternErrorMessage: `${stat} (${STAT_NAMES[stat]}) is ${formDescription(stat)}.` };
  // Whole numbers are YAML numbers unless quoted; the other forms ("5+", "6/3") are always strings.
  let asNumber: Schema = { type: 'string', errorMessage: asText.patternErrorMessage };
  if (spec.form === 'sticks') asNumber = { type: 'integer', enum: [...spec.sticks!], errorMessage: asText.patternErrorMessage };
  if (spec.form === 'count') {
    asNumber = { type: 'integer', minimum: spec.min, errorMessage: asText.patternErrorMessage };
    if (spec.max !== undefined) asNumber.maximum = spec.max;
  }
  return { ...described(own, [[1, { inPlay: true }]]), ...stringOr(asText, asNumber) };
}

function statsSchema(): Schema {
  const line = `^${STAT_SEPARATOR}*${STAT_ORDER.map((s) => statToken(s, false)).join(`${STAT_SEPARATOR}+`)}${STAT_SEPARATOR}*$`;
  return {
    ...described(
      `All nine stats, as a mapping (\`M: 9/6\`, \`BS: 5+\`, ...) or as the card's stat line in rulebook order ${STAT_ORDER.join(' ')}, separated by spaces or " · ". A dash ("-" or "—") means the unit does not have the stat.`,
      [[1, { inPlay: true, faq: true }]],
    ),
    ...stringOr(
      {
        pattern: line,
        patternErrorMessage: `The stat line is nine values in the order ${STAT_ORDER.join(' ')}, separated by spaces or " · ", each in its form and limits (e.g. 9/6 5+ 7+ 4 6+ 5 6/3 7/2 3).`,
        examples: ['9/6 5+ 7+ 4 6+ 5 6/3 7/2 3', '9/6 · 5+ · 7+ · 4 · 6+ · 5 · 6/3 · 7/2 · 3'],
      },
      {
        type: 'object',
        required: [...STAT_ORDER],
        properties: Object.fromEntries(STAT_ORDER.map((s) => [s, statSchema(s)])),
      },
    ),
  };
}

function orderList(): Schema {
  const names = KNOWN_ORDERS.map((o) => o.name);
  const descriptions = KNOWN_ORDERS.map(
    (o) =>
      `${escapeMarkdown(o.summary)}${o.difficulty !== undefined ? ` (LD Difficulty ${o.difficulty})` : ''} — ${o.section === '16' ? '§16' : escapeMarkdown(o.section)}`,
  );
  const mapping: Schema = {
    type: 'object',
    ...described('An order printed on the card.', [16]),
    required: ['name'],
    properties: {
      name: text(doc('order', 'name')),
      difficulty: whole(doc('order', 'difficulty'), 1, undefined, sections('order', 'difficulty')),
      range: bandValue(doc('order', 'range'), Infinity, sections('order', 'range')),
      effect: text(doc('order', 'effect')),
    },
  };
  // Any name is allowed (an unknown one is a warning); the known ones are offered for completion.
  const item: Schema = {
    oneOf: [mapping, { type: 'string', enum: names, markdownEnumDescriptions: descriptions }, { type: 'string', not: { enum: names } }, { type: 'number' }],
  };
  return listOf(doc('card', 'orders'), item, sections('card', 'orders'));
}

function abilityList(): Schema {
  // A tier that is no whole number of at least 1 ("Launch Bay Tier 0", "-1", "1.5") is an error
  // (section 6); any other name is at most a warning. A negative lookahead rather than `not`, so
  // that editors can show the message.
  const notTierZero: Schema = {
    pattern: `^(?!\\s*${anyCase('Launch Bay Tier')}\\s+(?:\\+?0+(?:\\.0+)?|[-\\u2212\\u2013]\\s*\\d+(?:\\.\\d+)?|\\+?\\d+\\.\\d*[1-9]\\d*)\\s*$)`,
    patternErrorMessage: `A Launch Bay has a tier of at least 1, e.g. "Launch Bay Tier 1" (§${LAUNCH_BAY.section}).`,
  };
  const known = [
    ...UNIVERSAL_RULES.map((r) => ({
      name: r.name,
      text: `${r.summary} Universal rule of ${typeof r.classes === 'string' ? r.classes : r.classes.join(', ')}; takes no ability slot.`,
      section: r.section,
    })),
    ...KNOWN_ABILITIES.map((a) => ({ name: a.name, text: a.summary + (a.requiresStat ? ` Needs ${a.requiresStat}.` : ''), section: a.section })),
    { name: 'Launch Bay Tier 1', text: `May embark ${LAUNCH_BAY.fightersPerTier} Fighter unit per tier, never Bombers.`, section: LAUNCH_BAY.section },
  ];
  const sectionLabel = (s: string): string => (/^\d+$/.test(s) ? `§${s}` : escapeMarkdown(s));
  const mapping: Schema = {
    type: 'object',
    ...described('An ability printed on the card.', [3]),
    required: ['name'],
    properties: {
      name: { ...described(doc('ability', 'name')), ...stringOr({ allOf: [{ pattern: '\\S' }, notTierZero] }, { type: 'number' }) },
      text: text(doc('ability', 'text')),
      range: bandValue(doc('ability', 'range'), Infinity, sections('ability', 'range')),
    },
  };
  const names = known.map((k) => k.name);
  const item: Schema = {
    oneOf: [
      mapping,
      { type: 'string', enum: names, markdownEnumDescriptions: known.map((k) => `${escapeMarkdown(k.text)} — ${sectionLabel(k.section)}`) },
      { type: 'string', ...notTierZero, not: { enum: names } },
      { type: 'number' },
    ],
  };
  return listOf(
    'Abilities: a mapping (name, text) or a known ability by name. Universal class rules (Dogfighters, Precision Strike, Squad Leader & Cohesion, Combined Shields, ...) are free and take no slot.',
    item,
    [3, 6],
  );
}

/** Per-class limits a schema can state: exact bases, most weapon systems and orders, small-craft ranges. */
function classRules(): Schema[] {
  return CLASS_NAMES.map((cls: UnitClass) => {
    const row = CLASSES[cls];
    const weapons: Schema = { type: 'array', maxItems: row.weapons };
    if (row.smallCraft) weapons.items = { $ref: '#/definitions/smallCraftWeapon' };
    return {
      if: { type: 'object', required: ['class'], properties: { class: { type: 'string', pattern: `^\\s*${anyCase(cls)}\\s*$` } } },
      then: {
        type: 'object',
        properties: {
          bases: whole(`A ${cls} has exactly ${row.bases} ${row.bases === 1 ? 'base' : 'bases'}.`, row.bases, row.bases),
          weapons: { if: { type: 'array' }, then: weapons },
          orders: { if: { type: 'array' }, then: { type: 'array', maxItems: row.orders } },
        },
      },
    };
  });
}

function classDescriptions(): string[] {
  return CLASS_NAMES.map((cls) => {
    const r = CLASSES[cls];
    const slots = `${r.bases} ${r.bases === 1 ? 'base' : 'bases'}, ${r.weapons} weapon ${r.weapons === 1 ? 'system' : 'systems'}, ${r.orders} ${r.orders === 1 ? 'order' : 'orders'}, ${r.abilities} ${r.abilities === 1 ? 'ability' : 'abilities'}, ${r.points} pts`;
    return [`**${cls}**: ${slots}`, classCardMarkdown(cls) ?? ''].filter(Boolean).join('\n\n');
  });
}

function cardSchema(): Schema {
  return {
    type: 'object',
    ...described('A unit card.', [3]),
    required: ['name', 'class', 'points', 'stats'],
    properties: {
      name: text(doc('card', 'name')),
      class: caseless(doc('card', 'class'), CLASS_NAMES, classDescriptions(), sections('card', 'class')),
      points: whole(doc('card', 'points'), 1, undefined, sections('card', 'points')),
      bases: whole(doc('card', 'bases'), undefined, undefined, sections('card', 'bases')),
      base: {
        ...described(doc('card', 'base'), sections('card', 'base')),
        ...stringOr(
          {
            pattern: `^\\s*\\d+(?:\\.\\d+)?\\s*(?:${anyCase('mm')})?\\s*$`,
            patternErrorMessage: 'A base size in mm, such as 60mm.',
            examples: ['25mm', '40mm', '60mm'],
          },
          { type: 'number', exclusiveMinimum: 0 },
        ),
      },
      stats: statsSchema(),
      weapons: weaponList(),
      orders: orderList(),
      abilities: abilityList(),
    },
    allOf: classRules(),
  };
}

function cardDefinitions(): Schema {
  return { card: cardSchema(), weapon: weaponSchema(), smallCraftWeapon: weaponSchema(SMALL_CRAFT_MAX_RANGE) };
}

function unitsList(): Schema {
  return listOf(doc('unitFile', 'units'), { $ref: '#/definitions/card' }, sections('unitFile', 'units'));
}

// ---------------------------------------------------------------------------------------------
// The three file schemas.

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function unitFileSchema(): Schema {
  return {
    $schema: DRAFT_07,
    title: 'Fabled Star unit cards (*.unit.yaml)',
    ...described("One faction's unit cards: `faction` and `units`, or a single card written at top level.", [[1, { noSummary: true }]]),
    type: 'object',
    required: ['faction'],
    properties: {
      faction: text(doc('unitFile', 'faction')),
      units: unitsList(),
    },
    // A file holding one card needs no list: without `units`, the top level is the card. (if/else
    // rather than anyOf, so that yaml-language-server reports a mistake inside `units` where it is.)
    if: { type: 'object', required: ['units'] },
    else: { $ref: '#/definitions/card' },
    definitions: cardDefinitions(),
  };
}

function factionFileSchema(): Schema {
  const doctrines = Object.keys(DOCTRINES) as Doctrine[];
  const commandAbility: Schema = {
    type: 'object',
    ...described('A command ability: name, CP cost, timing and effect.', [21]),
    required: ['name', 'cost', 'timing', 'effect'],
    properties: {
      name: text(doc('commandAbility', 'name')),
      cost: whole(doc('commandAbility', 'cost'), COMMAND_BOARD.minAbilityCost, COMMAND_BOARD.maxCpPerRound, sections('commandAbility', 'cost')),
      timing: text(doc('commandAbility', 'timing')),
      effect: text(doc('commandAbility', 'effect')),
    },
  };
  const cpSource: Schema = {
    type: 'object',
    ...described("One source of the round's CP.", [21]),
    required: ['name', 'cp'],
    properties: { name: text(doc('cpSource', 'name')), cp: whole(doc('cpSource', 'cp'), 0, COMMAND_BOARD.maxCpPerRound) },
  };
  // Without cpSources, `cp` must be the doctrine's figure.
  const doctrineCp: Schema[] = doctrines.map((d) => ({
    if: {
      type: 'object',
      required: ['doctrine', 'cp'],
      properties: { doctrine: { type: 'string', pattern: `^\\s*${anyCase(d)}\\s*$` } },
      not: { type: 'object', required: ['cpSources'] },
    },
    then: { type: 'object', properties: { cp: whole(`A ${d} doctrine generates ${DOCTRINES[d]} CP per round.`, DOCTRINES[d], DOCTRINES[d]) } },
  }));
  return {
    $schema: DRAFT_07,
    title: 'Fabled Star Command Board (*.faction.yaml)',
    ...described("A faction's Command Board: doctrine, CP, one faction ability and six command abilities, and optionally its unit cards.", [
      [21, { inPlay: true }],
    ]),
    type: 'object',
    required: ['faction', 'doctrine', 'factionAbility', 'commandAbilities'],
    properties: {
      faction: text(doc('faction', 'faction')),
      doctrine: caseless(
        doc('faction', 'doctrine'),
        doctrines,
        doctrines.map((d) => `**${d}**: ${DOCTRINES[d]} CP per round`),
        sections('faction', 'doctrine'),
      ),
      cp: whole(doc('faction', 'cp'), 0, COMMAND_BOARD.maxCpPerRound, sections('faction', 'cp')),
      cpSources: listOf(doc('faction', 'cpSources'), cpSource, sections('faction', 'cpSources')),
      factionAbility: {
        type: 'object',
        ...described(doc('faction', 'factionAbility'), sections('faction', 'factionAbility')),
        required: ['name', 'text'],
        properties: { name: text(doc('factionAbility', 'name')), text: text(doc('factionAbility', 'text')) },
      },
      commandAbilities: {
        type: 'array',
        ...described(doc('faction', 'commandAbilities'), sections('faction', 'commandAbilities')),
        minItems: COMMAND_BOARD.commandAbilities,
        maxItems: COMMAND_BOARD.commandAbilities,
        items: commandAbility,
      },
      units: unitsList(),
    },
    allOf: doctrineCp,
    definitions: cardDefinitions(),
  };
}

function fleetFileSchema(): Schema {
  // No description of its own: a single embarked name (no list) then shows the rule text of `embark`.
  const embarked: Schema = {
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'object', properties: { unit: text("The embarked card's name.") } }],
  };
  const entryMapping: Schema = {
    type: 'object',
    ...described('A fleet entry: the card, how many, and what it carries.'),
    required: ['unit'],
    properties: {
      unit: text(doc('fleetEntry', 'unit')),
      count: whole(doc('fleetEntry', 'count'), 1, undefined),
      embark: listOf(doc('fleetEntry', 'embark'), embarked, sections('fleetEntry', 'embark')),
    },
  };
  return {
    $schema: DRAFT_07,
    title: 'Fabled Star fleet list (*.fleet.yaml)',
    ...described('A fleet for one game: which cards, how many, what is embarked.', [[17, { noSummary: true }]]),
    type: 'object',
    required: ['name', 'faction', 'points', 'units'],
    properties: {
      name: text(doc('fleet', 'name')),
      faction: text(doc('fleet', 'faction')),
      points: {
        ...whole(doc('fleet', 'points'), 1, undefined, sections('fleet', 'points')),
        examples: GAME_SIZES.map((g) => g.points),
      },
      objectives: whole(doc('fleet', 'objectives'), undefined, undefined, sections('fleet', 'objectives')),
      units: listOf(doc('fleet', 'units'), { oneOf: [entryMapping, { type: 'string' }, { type: 'number' }] }, sections('fleet', 'units'), false),
    },
  };
}

function collectionFileSchema(): Schema {
  const entryMapping: Schema = {
    type: 'object',
    ...described('A model you own: the card and how many.'),
    required: ['unit'],
    properties: {
      unit: text(doc('ownedEntry', 'unit')),
      count: whole(doc('ownedEntry', 'count'), 1, undefined),
    },
  };
  return {
    $schema: DRAFT_07,
    title: 'Fabled Star collection (*.collection.yaml)',
    ...described('The models a player owns, by card name: a fleet that fields more copies than owned is warned about.'),
    type: 'object',
    required: ['owned'],
    properties: {
      owned: listOf(doc('collection', 'owned'), { oneOf: [entryMapping, { type: 'string' }, { type: 'number' }] }, [], false),
    },
  };
}

/** The schemas by file name. */
export function buildSchemas(): Record<string, Schema> {
  return {
    [SCHEMA_FILES.unit]: unitFileSchema(),
    [SCHEMA_FILES.faction]: factionFileSchema(),
    [SCHEMA_FILES.fleet]: fleetFileSchema(),
    [SCHEMA_FILES.collection]: collectionFileSchema(),
  };
}

function main(): void {
  const [outDir = SCHEMAS_DIR] = process.argv.slice(2);
  fs.mkdirSync(outDir, { recursive: true });
  for (const [file, schema] of Object.entries(buildSchemas())) {
    const out = path.join(outDir, file);
    fs.writeFileSync(out, formatJson(schema));
    console.log(`${path.relative(process.cwd(), out)}: ${fs.statSync(out).size} bytes`);
  }
}

runMain(module, main);
