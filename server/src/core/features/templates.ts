/**
 * Templates: the snippets completion offers for a new file, a new card and a new list item (weapon,
 * order, ability, command ability, fleet entry), built from the rules pack so that their choices
 * (classes, weapon types, range bands, doctrines, known orders, game sizes) are the validator's own
 * lists and their defaults check clean.
 *
 * A body is a list of lines in snippet syntax, indented relative to its first line; completion
 * indents every line after the first to the column where the body goes. Each template names the
 * place it fits, so that completion offers it only there (never where a value goes, and a list
 * item's template replaces the "- " already typed instead of adding a second one).
 */
import {
  CLASS_NAMES,
  CLASSES,
  COMMAND_BOARD,
  DEFAULT_ORDER_RANGE,
  DOCTRINES,
  GAME_SIZES,
  KNOWN_ORDERS,
  RANGE_BANDS,
  SMALL_CRAFT_MAX_RANGE,
  STAT_ORDER,
  WEAPON_TYPES,
  type UnitClass,
} from '../rules/data';
import { count } from '../rules/words';
import { exampleWorkspace } from '../examples/index';
import type { Weapon } from '../model/types';
import { yamlScalar } from './shared';
import { keysOf, type FieldKey, type FieldOwner } from '../model/fields';

export type TemplatePlace = 'unitFile' | 'factionFile' | 'fleetFile' | 'card' | 'weapon' | 'order' | 'ability' | 'commandAbility' | 'fleetEntry';

export interface Template {
  label: string;
  /** Short text beside the label. */
  detail: string;
  /** What the template makes, for the details pane. */
  description: string;
  /** Words a user types to find it (besides the label). */
  words: string[];
  /** Snippet lines, indented relative to the first. */
  body: string[];
}

/** What the templates may use from the workspace. */
export interface TemplateContext {
  /** The workspace's factions: those with cards, most cards first, then those of its Command Boards. */
  factions: string[];
  /** The bundled example factions the workspace has no card of: a fleet may use their cards. */
  exampleFactions?: string[];
  /** Whether a card of this name is in the workspace already: a new card is named apart (a second would be a duplicate card). */
  nameTaken?: (name: string) => boolean;
}

/** "New Fighter", or "New Fighter 2", 3, ... when the workspace has that name already. */
function newCardName(cls: UnitClass, ctx: TemplateContext): string {
  const base = `New ${cls}`;
  if (!ctx.nameTaken?.(base)) return base;
  for (let i = 2; i < 1000; i++) if (!ctx.nameTaken(`${base} ${i}`)) return `${base} ${i}`;
  return base;
}

/** A choice placeholder; commas, pipes, dollars, braces and backslashes inside a choice are escaped. */
export function choice(n: number, options: readonly (string | number)[]): string {
  return `\${${n}|${options.map((o) => String(o).replace(/[\\,|$}]/g, '\\$&')).join(',')}|}`;
}

/** A placeholder with default text (escaped). */
function ph(n: number, text: string): string {
  return `\${${n}:${text.replace(/[\\$}]/g, '\\$&')}}`;
}

const bands = RANGE_BANDS.map((b) => `${b}"`);
/** Choices list the default first: VS Code selects the first option. */
const bandsFrom = (first: string) => [first, ...bands.filter((b) => b !== first)];

/**
 * The class of the unit cards file template's first card, and of the one new card that the e2e
 * walk makes: the Destroyer, the first class with an order slot.
 */
export const EXAMPLE_CLASS = 'Destroyer' as const;

const DASH = '\u2014';

/**
 * Each class's stat line (M BS D SH AC HP LD CR T) on its class card, as the bundled Myr-Valari
 * cards print it (their points, bases and weapon systems are the class table's, rules/data.ts), so
 * that a new card of any class checks clean as it comes: small craft have no Shields, Armor,
 * Combat Rating or Tonnage, squadrons' Shields are per base.
 */
export const CLASS_CARD_STATS: Readonly<Record<UnitClass, readonly string[]>> = {
  Fighter: ['9/6', '4+', '6+', DASH, DASH, '1', '7/2', DASH, DASH],
  Bomber: ['9/3', '5+', '7+', DASH, DASH, '1', '7/2', DASH, DASH],
  Escort: ['9/6', '5+', '6+', '2', '8+', '2', '7/2', DASH, '1'],
  Frigate: ['9/3', '5+', '7+', '3', '7+', '3', '6/2', '8/2', '2'],
  Destroyer: ['9/6', '5+', '7+', '4', '6+', '5', '6/3', '7/2', '3'],
  Cruiser: ['6/6', '5+', '8+', '6', '5+', '7', '6/3', '7/3', '5'],
  Battleship: ['6/3', '4+', '9+', '10', '5+', '10', '5/4', '6/4', '7'],
  'Capital Ship': ['6/3', '4+', '9+', '12', '4+', '12', '4/5', '6/4', '8'],
  Carrier: ['6/3', '5+', '9+', '10', '5+', '11', '5/3', '6/3', '7'],
  Dreadnought: ['6/3', '4+', '10+', '20', '3+', '16', '4/5', '5/5', '10'],
};

/**
 * A card of a class with its class card's points, bases, stat line and as many weapon systems as
 * the class has (in both forms), each in the range its class may use.
 */
function cardBody(start: number, cls: UnitClass, name: string): { lines: string[]; next: number } {
  let n = start;
  const next = () => n++;
  const row = CLASSES[cls];
  const stats = CLASS_CARD_STATS[cls];
  const band = (b: number) => (row.smallCraft ? `${Math.min(b, SMALL_CRAFT_MAX_RANGE)}"` : `${b}"`);
  const lines = [
    `- name: ${ph(next(), name)}`,
    `  class: ${cls}`,
    `  points: ${ph(next(), String(row.points))}`,
    `  bases: ${row.bases}`,
    '  stats:',
    ...STAT_ORDER.map((k, i) => `    ${k}: ${ph(next(), stats[i] ?? '')}`),
    '  weapons:',
  ];
  const own = classCardWeapons(cls);
  for (let w = 0; w < row.weapons; w++) {
    // The class card's weapon system where it has one (so that the card is costed as the class card
    // is: a placeholder weapon on a big hull read as overpriced), else a placeholder's figures.
    const cw = own[w];
    const type = cw?.type.value;
    const types = type ? [type, ...WEAPON_TYPES.filter((t) => t !== type)] : WEAPON_TYPES;
    const range = cw?.range.value !== undefined ? band(cw.range.value) : band(w % 2 === 0 ? 12 : 9);
    const figures = { damage: String(cw?.damage.value ?? (w % 2 === 0 ? 2 : 1)), attacks: String(cw?.attacks.value ?? (w % 2 === 0 ? 2 : 3)) };
    if (w % 2 === 0) {
      lines.push(...weaponItem(n, `Weapon ${w + 1}`, { types, range, ...figures }).map((l) => `    ${l}`));
      n += 5;
    } else {
      // The rulebook's one-line form, so a new card shows both ways of writing a weapon.
      lines.push(
        `    - ${ph(next(), `Weapon ${w + 1}`)} ${DASH} ${choice(next(), types)}, ${choice(next(), bandsFrom(range))}, ${ph(next(), figures.damage)}, ${ph(next(), figures.attacks)}`,
      );
    }
  }
  lines.push('  orders: []', '  abilities: []');
  return { lines, next: n };
}

/** What a class's card template says it makes: "Fighter: 60 pts, 4 bases, 1 weapon system". */
function classFacts(cls: UnitClass): string {
  const row = CLASSES[cls];
  return `${cls}: ${row.points} pts, ${count(row.bases, 'base')}, ${count(row.weapons, 'weapon system')}`;
}

const ORDER_BAND = `${DEFAULT_ORDER_RANGE}"`;

/** A list item's lines in the field table's order (model/fields.ts), `- key: value` first: the keys are the format's own. */
function listItem<O extends FieldOwner>(owner: O, values: { [K in FieldKey<O>]?: string }): string[] {
  return keysOf(owner)
    .filter((k) => values[k] !== undefined)
    .map((k, i) => `${i === 0 ? '- ' : '  '}${k}: ${values[k]}`);
}

/** The keys a template fills in, as its detail says them. */
const keyList = (owner: FieldOwner) => keysOf(owner).join(', ');

/** A weapon system as a mapping, placeholders `n` to `n + 4`. */
function weaponItem(
  n: number,
  name: string,
  w: { types: readonly string[]; range: string; damage: string; attacks: string } = { types: WEAPON_TYPES, range: '12"', damage: '2', attacks: '2' },
): string[] {
  return listItem('weapon', {
    name: ph(n, name),
    type: choice(n + 1, w.types),
    range: choice(n + 2, bandsFrom(w.range)),
    damage: ph(n + 3, w.damage),
    attacks: ph(n + 4, w.attacks),
  });
}

/**
 * The weapon systems of a class's class card: the bundled Myr-Valari card of that class at its
 * standard points, as CLASS_CARD_STATS copies its stat line.
 */
function classCardWeapons(cls: UnitClass): readonly Weapon[] {
  const ref = exampleWorkspace()
    .allCards()
    .find((r) => r.faction === 'Myr-Valari' && r.cls === cls && r.points === CLASSES[cls].points);
  return ref?.card.weapons?.items ?? [];
}

/** A command ability, placeholders `n` to `n + 3`. */
function commandAbilityItem(n: number, name: string): string[] {
  return listItem('commandAbility', { name: ph(n, name), cost: ph(n + 1, '1'), timing: ph(n + 2, 'When it may be used'), effect: ph(n + 3, 'What it does.') });
}

/** A new Command Board file. */
function factionFileTemplates(ctx: TemplateContext): Template[] {
  const abilities: string[] = [];
  for (let i = 0; i < COMMAND_BOARD.commandAbilities; i++) abilities.push(...commandAbilityItem(5 + i * 4, `Command Ability ${i + 1}`).map((l) => `  ${l}`));
  const doctrines = Object.keys(DOCTRINES);
  return [
    {
      label: 'New Command Board',
      detail: 'doctrine, faction ability, command abilities',
      description: `A Command Board: doctrine, the faction ability and the ${COMMAND_BOARD.commandAbilities} command abilities.`,
      words: ['faction', 'board', 'file'],
      body: [
        `faction: ${factionPlaceholder(1, ctx, 'My Faction')}`,
        `doctrine: ${choice(2, ['Standard', ...doctrines.filter((d) => d !== 'Standard')])}`,
        'factionAbility:',
        `  name: ${ph(3, 'Faction Ability')}`,
        `  text: ${ph(4, 'What it does.')}`,
        'commandAbilities:',
        ...abilities,
        'units: []',
        '$0',
      ],
    },
  ];
}

/** A new fleet list. */
function fleetFileTemplates(ctx: TemplateContext): Template[] {
  const standard = GAME_SIZES.find((g) => g.name === 'Standard') ?? GAME_SIZES[0]!;
  // Each size with its name as a YAML comment: a choice shows its text only.
  const sizes = [standard, ...GAME_SIZES.filter((g) => g !== standard)].map((g) => `${g.points} # ${g.name}`);
  const factions = [...ctx.factions, ...(ctx.exampleFactions ?? [])];
  return [
    {
      label: 'New fleet',
      detail: 'name, faction, points limit, units',
      description: `A fleet list: name, faction (the workspace's, then the bundled example factions, whose cards it may use), points limit (${GAME_SIZES.map((g) => `${g.points} ${g.name}`).join(', ')}) and its first entry. Card names complete as you type.`,
      words: ['fleet', 'file', 'list'],
      // The entry's card is an empty stop: its completion lists the chosen faction's cards.
      body: [
        `name: ${ph(1, 'My Fleet')}`,
        `faction: ${factionPlaceholder(2, { factions }, 'My Faction')}`,
        `points: ${choice(3, sizes)}`,
        'units:',
        '  - unit: $4',
        '    count: ${5:1}',
        '$0',
      ],
    },
  ];
}

/** A new order. */
function orderTemplates(): Template[] {
  return [
    {
      label: 'New order',
      detail: keyList('order'),
      description: 'An order with its LD difficulty, range and effect. Known orders complete by name alone.',
      words: ['order'],
      body: [
        ...listItem('order', {
          name: choice(
            1,
            KNOWN_ORDERS.map((o) => o.name),
          ),
          difficulty: ph(2, String(KNOWN_ORDERS[0]?.difficulty ?? 2)),
          range: choice(3, bandsFrom(ORDER_BAND)),
          effect: ph(4, 'What the order does.'),
        }),
        '$0',
      ],
    },
  ];
}

/** The templates that fit a place, best first. */
export function templatesFor(place: TemplatePlace, ctx: TemplateContext = { factions: [] }): Template[] {
  switch (place) {
    case 'unitFile':
      // One per class, the Destroyer first: a snippet's choice cannot change the figures after it.
      return classesFirst().map((cls) => {
        const card = cardBody(2, cls, newCardName(cls, ctx));
        return {
          label: `New unit cards file: ${cls}`,
          detail: `faction and a first ${cls}`,
          description: `A faction and its first unit card, with the ${classFacts(cls)} and its class card's stat line. Change the figures freely.`,
          words: ['units', 'file', 'faction', 'card', cls.toLowerCase()],
          body: [`faction: ${factionPlaceholder(1, ctx, 'My Faction')}`, 'units:', ...card.lines.map((l) => `  ${l}`), '$0'],
        };
      });
    case 'factionFile':
      return factionFileTemplates(ctx);
    case 'fleetFile':
      return fleetFileTemplates(ctx);
    case 'card':
      return classesFirst().map((cls) => ({
        label: `New unit card: ${cls}`,
        detail: classFacts(cls),
        description: `A ${cls} card: name, points, bases, the nine stats and the class's weapon systems, with the ${cls} class card's figures (${CLASSES[cls].points} pts); change them freely.`,
        words: ['card', 'unit', cls.toLowerCase()],
        body: [...cardBody(1, cls, newCardName(cls, ctx)).lines, '$0'],
      }));
    case 'weapon':
      return [
        {
          label: 'New weapon system',
          detail: keyList('weapon'),
          description: 'A weapon system as a mapping: name, type, range band, damage and attacks.',
          words: ['weapon'],
          body: [...weaponItem(1, 'Weapon'), '$0'],
        },
        {
          label: 'New weapon line',
          detail: 'Name — Type, Range, Dmg, Attacks',
          description: "A weapon system in the rulebook's one-line form: Name — Type, Range, Dmg, Attacks.",
          words: ['weapon', 'line', 'profile'],
          body: [`- ${ph(1, 'Weapon')} — ${choice(2, WEAPON_TYPES)}, ${choice(3, bandsFrom('12"'))}, ${ph(4, '2')}, ${ph(5, '3')}$0`],
        },
      ];
    case 'order':
      return orderTemplates();
    case 'ability':
      return [
        {
          label: 'New ability',
          detail: 'name and rule text',
          description: 'A faction ability with its rule text. Universal rules and the rulebook abilities complete by name alone.',
          words: ['ability'],
          body: [...listItem('ability', { name: ph(1, 'Ability'), text: ph(2, 'What the ability does.') }), '$0'],
        },
      ];
    case 'commandAbility':
      return [
        {
          label: 'New command ability',
          detail: keyList('commandAbility'),
          description: 'A command ability: name, CP cost, timing and effect.',
          words: ['command', 'ability'],
          body: [...commandAbilityItem(1, 'Command Ability'), '$0'],
        },
      ];
    case 'fleetEntry':
      return [
        {
          label: 'New fleet entry',
          detail: 'unit and count',
          description: 'A card in the fleet and how many. The card name completes from the fleet\u2019s faction.',
          words: ['entry', 'unit'],
          body: ['- unit: $1', '  count: ${2:1}', '$0'],
        },
        {
          label: 'New fleet entry with embarked units',
          detail: 'a carrier and what it carries',
          description: 'A Carrier or Launch Bay ship with the Fighters (and Bombers) it carries at the start.',
          words: ['embark', 'entry', 'carrier'],
          body: ['- unit: $1', '  embark:', '    - $2', '$0'],
        },
      ];
  }
}

/** The classes in the rulebook's order, the example class first (the one a user picks without looking). */
function classesFirst(): UnitClass[] {
  return [EXAMPLE_CLASS, ...CLASS_NAMES.filter((c) => c !== EXAMPLE_CLASS)];
}

/** A faction: a choice of the workspace's factions when there are any, else a name to type over. */
function factionPlaceholder(n: number, ctx: TemplateContext, fallback: string): string {
  return ctx.factions.length ? choice(n, ctx.factions.map(yamlScalar)) : ph(n, fallback);
}

/** Every place, for tests and documentation. */
export const TEMPLATE_PLACES: readonly TemplatePlace[] = [
  'unitFile',
  'factionFile',
  'fleetFile',
  'card',
  'weapon',
  'order',
  'ability',
  'commandAbility',
  'fleetEntry',
];
