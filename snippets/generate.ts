/**
 * Writes the snippet files of the three languages from the rules pack, so that the choices they
 * offer (classes, weapon types, range bands, doctrines, known orders, game sizes) and the number
 * of command abilities a board gets are the validator's own lists.
 *
 *   node --import=tsx snippets/generate.ts          write snippets/*.code-snippets
 *   node --import=tsx snippets/generate.ts --check  exit 1 if the committed files are out of date
 *
 * The example figures in a new card (a Destroyer's stat line) are placeholders to type over, taken
 * from the class card where the rules pack has them.
 */
import { writeOrCheck } from '../scripts/generated-files';
import * as prettier from 'prettier';
import { join } from 'node:path';
import {
  CLASS_NAMES,
  CLASSES,
  COMMAND_BOARD,
  DEFAULT_ORDER_RANGE,
  DOCTRINES,
  GAME_SIZES,
  KNOWN_ORDERS,
  RANGE_BANDS,
  WEAPON_TYPES,
} from '../server/src/core/rules/data';

interface Snippet {
  prefix: string | string[];
  description: string;
  body: string[];
}

/** A choice placeholder; commas, pipes and backslashes inside a choice must be escaped. */
function choice(n: number, options: readonly (string | number)[]): string {
  return `\${${n}|${options.map((o) => String(o).replace(/[\\,|$}]/g, '\\$&')).join(',')}|}`;
}

const bands = RANGE_BANDS.map((b) => `${b}"`);
const EXAMPLE_CLASS = 'Destroyer' as const;
const ORDER_DEFAULT_BAND = bands.indexOf(`${DEFAULT_ORDER_RANGE}"`);
/** Choices list the default first: VS Code selects the first option. */
const bandsFrom = (first: string) => [first, ...bands.filter((b) => b !== first)];
const classesFrom = (first: string) => [first, ...CLASS_NAMES.filter((c) => c !== first)];

/** A card of the example class, with as many weapon systems as the class has (the first two forms). */
function unitCard(start: number): string[] {
  let n = start;
  const next = () => n++;
  const lines = [
    `- name: \${${next()}:New Unit}`,
    `  class: ${choice(next(), classesFrom(EXAMPLE_CLASS))}`,
    `  points: \${${next()}:${CLASSES[EXAMPLE_CLASS].points}}`,
    '  stats:',
    `    M: \${${next()}:9/6}`,
    `    BS: \${${next()}:5+}`,
    `    D: \${${next()}:7+}`,
    `    SH: \${${next()}:4}`,
    `    AC: \${${next()}:6+}`,
    `    HP: \${${next()}:5}`,
    `    LD: \${${next()}:6/3}`,
    `    CR: \${${next()}:7/2}`,
    `    T: \${${next()}:3}`,
    '  weapons:',
  ];
  for (let w = 0; w < CLASSES[EXAMPLE_CLASS].weapons; w++) {
    if (w % 2 === 0) {
      lines.push(
        `    - name: \${${next()}:Weapon ${w + 1}}`,
        `      type: ${choice(next(), WEAPON_TYPES)}`,
        `      range: ${choice(next(), bandsFrom('12"'))}`,
        `      damage: \${${next()}:2}`,
        `      attacks: \${${next()}:3}`,
      );
    } else {
      // The rulebook's one-line form, so a new card shows both ways of writing a weapon.
      lines.push(`    - \${${next()}:Weapon ${w + 1}} — ${choice(next(), WEAPON_TYPES)}, ${choice(next(), bandsFrom('9"'))}, \${${next()}:1}, \${${next()}:4}`);
    }
  }
  lines.push('  orders: []', '  abilities: []');
  return lines;
}

function weapon(): string[] {
  return ['- name: ${1:Weapon}', `  type: ${choice(2, WEAPON_TYPES)}`, `  range: ${choice(3, bandsFrom('12"'))}`, '  damage: ${4:2}', '  attacks: ${5:3}'];
}

function order(): string[] {
  const known = KNOWN_ORDERS.map((o) => o.name);
  return [
    `- name: ${choice(1, known)}`,
    '  difficulty: ${2:2}',
    `  range: ${choice(3, bandsFrom(bands[ORDER_DEFAULT_BAND]!))}`,
    '  effect: ${4:What the order does.}',
  ];
}

function unitSnippets(): Record<string, Snippet> {
  return {
    'Unit card': {
      prefix: ['unit', 'card'],
      description: 'A new unit card: class, points, the nine stats, a weapon system (a list item under units:)',
      body: [...unitCard(1), '$0'],
    },
    'Unit cards file': {
      prefix: ['units', 'new-units-file'],
      description: 'A new unit cards file: the faction and its first card',
      body: ['faction: ${1:Faction}', 'units:', ...unitCard(2).map((l) => `  ${l}`), '$0'],
    },
    Weapon: {
      prefix: ['weapon'],
      description: 'A weapon system: name, type, range band, damage and attacks (a list item under weapons:)',
      body: [...weapon(), '$0'],
    },
    'Weapon profile line': {
      prefix: ['weapon-line', 'profile'],
      description: "A weapon in the rulebook's one-line form: Name — Type, Range, Dmg, Attacks",
      body: [`- \${1:Weapon} — ${choice(2, WEAPON_TYPES)}, ${choice(3, bandsFrom('12"'))}, \${4:2}, \${5:3}`, '$0'],
    },
    Order: {
      prefix: ['order'],
      description: 'An order: name, LD difficulty, range and effect (a list item under orders:)',
      body: [...order(), '$0'],
    },
    Ability: {
      prefix: ['ability'],
      description: 'An ability with its rule text (a list item under abilities:)',
      body: ['- name: ${1:Ability}', '  text: ${2:What the ability does.}', '$0'],
    },
  };
}

function factionSnippets(): Record<string, Snippet> {
  const doctrines = Object.keys(DOCTRINES);
  const abilities: string[] = [];
  for (let i = 0; i < COMMAND_BOARD.commandAbilities; i++) {
    const n = 5 + i * 4;
    abilities.push(
      `  - name: \${${n}:Command Ability ${i + 1}}`,
      `    cost: \${${n + 1}:1}`,
      `    timing: \${${n + 2}:When it may be used}`,
      `    effect: \${${n + 3}:What it does.}`,
    );
  }
  return {
    'Faction Command Board': {
      prefix: ['faction', 'board', 'new-faction-board'],
      description: `A new Command Board: doctrine, faction ability and the ${COMMAND_BOARD.commandAbilities} command abilities`,
      body: [
        'faction: ${1:Faction}',
        `doctrine: ${choice(2, ['Standard', ...doctrines.filter((d) => d !== 'Standard')])}`,
        'factionAbility:',
        '  name: ${3:Faction Ability}',
        '  text: ${4:What it does.}',
        'commandAbilities:',
        ...abilities,
        'units: []',
        '$0',
      ],
    },
    'Command ability': {
      prefix: ['command-ability'],
      description: 'One command ability: name, CP cost, timing and effect (a list item under commandAbilities:)',
      body: ['- name: ${1:Command Ability}', '  cost: ${2:1}', '  timing: ${3:When it may be used}', '  effect: ${4:What it does.}', '$0'],
    },
    ...unitSnippets(),
  };
}

function fleetSnippets(): Record<string, Snippet> {
  const sizes = GAME_SIZES.map((g) => g.points);
  const standard = GAME_SIZES.find((g) => g.name === 'Standard') ?? GAME_SIZES[0]!;
  return {
    'Fleet list': {
      prefix: ['fleet', 'new-fleet'],
      description: `A new fleet list: name, faction, points limit (${GAME_SIZES.map((g) => `${g.points} ${g.name}`).join(', ')}) and its first unit`,
      body: [
        'name: ${1:Fleet Name}',
        'faction: ${2:Faction}',
        `points: ${choice(3, [standard.points, ...sizes.filter((p) => p !== standard.points)])}`,
        `objectives: \${4:${standard.objectives.min}}`,
        'units:',
        '  - unit: ${5:Card Name}',
        '$0',
      ],
    },
    'Fleet entry': {
      prefix: ['entry', 'unit'],
      description: 'A card in the fleet, with how many (a list item under units:)',
      body: ['- unit: ${1:Card Name}', '  count: ${2:1}', '$0'],
    },
    'Fleet entry with embarked units': {
      prefix: ['embark'],
      description: 'A carrier or Launch Bay ship with the units it carries at the start',
      body: ['- unit: ${1:Carrier Name}', '  embark:', '    - ${2:Fighter Wing Name}', '$0'],
    },
  };
}

export const SNIPPET_FILES: { language: string; file: string; snippets: () => Record<string, Snippet> }[] = [
  { language: 'fabled-unit', file: 'fabled-unit.code-snippets', snippets: unitSnippets },
  { language: 'fabled-faction', file: 'fabled-faction.code-snippets', snippets: factionSnippets },
  { language: 'fabled-fleet', file: 'fabled-fleet.code-snippets', snippets: fleetSnippets },
];

/** The files as they are committed: JSON with a comment line, laid out by the project's Prettier settings. */
export async function generatedSnippetFiles(): Promise<{ file: string; text: string }[]> {
  const header = '// Generated by snippets/generate.ts from server/src/core/rules/data.ts; edit those, not this file.\n';
  return Promise.all(
    SNIPPET_FILES.map(async ({ file, snippets }) => {
      const path = join(__dirname, file);
      const options = (await prettier.resolveConfig(path)) ?? {};
      return { file, text: await prettier.format(header + JSON.stringify(snippets()), { ...options, filepath: path }) };
    }),
  );
}

async function main(): Promise<void> {
  writeOrCheck(
    (await generatedSnippetFiles()).map(({ file, text }) => ({ path: join(__dirname, file), text })),
    'snippets/generate.ts',
  );
}

if (require.main === module) void main();
