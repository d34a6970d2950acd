/**
 * The hostile-input corpus, generated at test time (a 50 MB file has no place in git). Each case
 * is a file name (which decides the kind), a deterministic generator, and what a user must be told:
 * the codes of which at least one has to be reported. Sizes are chosen to sit well past what the
 * parser or our own code could take before the guards were added (see test/hardening/README.md).
 *
 * Shared by the core tests, the CLI and server tests, and `npm run fuzz`.
 */
import { bigUnitFile } from '../../bench/generate';
import { mulberry32 } from '../../scripts/seeded';

export interface HostileCase {
  name: string;
  file: string;
  /** Generates the text (deterministic). */
  text: () => string;
  /** The file's bytes when they are not the text's UTF-8 (binary junk is written as raw bytes). */
  bytes?: () => Buffer;
  /** Codes that must all be reported: the clear diagnostic a user gets. */
  expect: readonly string[];
  /** Nothing but the expected codes may be reported (for files that are fine apart from them). */
  only?: boolean;
}

const MB = 1024 * 1024;

/** Random bytes (deterministic). */
export function junkBytes(bytes: number, seed = 1): Buffer {
  const r = mulberry32(seed);
  const buf = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) buf[i] = Math.floor(r() * 256);
  return buf;
}

/** Random bytes decoded as UTF-8 the way a file read is (invalid sequences become U+FFFD). */
export function binaryJunk(bytes: number, seed = 1): string {
  return junkBytes(bytes, seed).toString('utf8');
}

/** A valid card, for cases that poison one field of an otherwise good file. */
export function goodCard(name = 'Good Destroyer', over: Partial<Record<'points' | 'bases' | 'base' | 'stats' | 'weapon' | 'order', string>> = {}): string {
  return [
    `  - name: ${name}`,
    '    class: Destroyer',
    `    points: ${over.points ?? '145'}`,
    ...(over.bases ? [`    bases: ${over.bases}`] : []),
    ...(over.base ? [`    base: ${over.base}`] : []),
    `    stats: ${over.stats ?? '"9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"'}`,
    '    weapons:',
    `      - ${over.weapon ?? 'Lumen Lance — Energy, 18", 2, 3'}`,
    '      - Pulse Laser — Ion, 9", 2, 4',
    '    orders:',
    `      - ${over.order ?? '{ name: Attack Run, difficulty: 2, range: 12", effect: Target friendly unit gains +1 BS. }'}`,
    '',
  ].join('\n');
}

const unitFile = (body: string) => `faction: Hostile\nunits:\n${body}`;

/** Absurd numbers: every numeric field of every kind of file gets figures no card has. */
export const ABSURD_NUMBERS = ['99999999', '1e309', '-99999999', '9'.repeat(400), '0x7fffffff', '.inf', '-.inf', '.nan', '1.5', '-0'];

export const CASES: HostileCase[] = [
  {
    name: 'deeply nested flow sequences (40,000 [ on one line)',
    file: 'deep-flow.unit.yaml',
    text: () => `faction: Hostile\nunits: ${'['.repeat(40_000)}${']'.repeat(40_000)}\n`,
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: 'deeply nested flow mappings, never closed (20,000 "{a: ")',
    file: 'deep-flow-map.fleet.yaml',
    text: () => `name: X\nfaction: Hostile\npoints: 500\nunits: ${'{a: '.repeat(20_000)}\n`,
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: 'deeply nested flow sequences over 45,000 lines',
    file: 'deep-flow-lines.unit.yaml',
    text: () => `faction: Hostile\nunits:\n  - name: Lines\n    weapons: ${'[\n'.repeat(45_000)}`,
    expect: ['FS-YAML-LIMIT'],
  },
  {
    name: 'deeply nested block sequences on one line (40,000 "- ")',
    file: 'deep-block.unit.yaml',
    text: () => `faction: Hostile\nunits:\n  - ${'- '.repeat(40_000)}x\n`,
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: 'deeply nested block mappings by indentation (1,000 levels)',
    file: 'deep-indent.faction.yaml',
    text: () => {
      const out = ['faction: Hostile', 'factionAbility:'];
      for (let i = 1; i <= 1000; i++) out.push(`${' '.repeat(i)}k${i}:`);
      return out.join('\n') + '\n';
    },
    expect: ['FS-YAML-LIMIT'],
  },
  {
    name: 'deeply nested explicit keys (40,000 "? ")',
    file: 'deep-keys.fleet.yaml',
    text: () => `name: X\nfaction: Hostile\npoints: 500\nunits:\n  ${'? '.repeat(40_000)}x\n`,
    expect: ['FS-YAML-LIMIT'],
  },
  {
    name: 'alias bomb (billion laughs: 9 levels of 10 aliases)',
    file: 'alias-bomb.unit.yaml',
    text: () => {
      const out = ['faction: Hostile', 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
      for (let i = 1; i <= 9; i++) out.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
      out.push('units: *a9');
      return out.join('\n') + '\n';
    },
    expect: ['FS-UNKNOWN-KEY', 'FS-TYPE'],
  },
  {
    name: 'merge-key bomb (10 levels of mappings merging 10 aliases each)',
    file: 'merge-bomb.unit.yaml',
    text: () => {
      const out = ['faction: Hostile', 'units:', '  - &m0 { name: Merged, class: Destroyer, points: 145 }'];
      for (let i = 1; i <= 10; i++) out.push(`  - &m${i} { <<: [${Array.from({ length: 10 }, () => `*m${i - 1}`).join(', ')}] }`);
      return out.join('\n') + '\n';
    },
    expect: ['FS-DUPLICATE-CARD', 'FS-MISSING-FIELD'],
  },
  {
    name: 'an anchor that merges itself',
    file: 'merge-self.unit.yaml',
    text: () => 'faction: Hostile\nunits:\n  - &me\n    name: Me\n    <<: *me\n    class: Frigate\n',
    expect: ['FS-MISSING-FIELD'],
  },
  {
    name: "45,000 unknown tags (the parser looks each one's line up from the top)",
    file: 'tags.unit.yaml',
    text: () => `faction: Hostile\nunits:\n${'  - !card x\n'.repeat(45_000)}`,
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: '45,000 distinct keys in one mapping (the parser compared each with every other)',
    file: 'keys.fleet.yaml',
    text: () => `name: X\nfaction: Hostile\npoints: 500\nunits: []\n${Array.from({ length: 45_000 }, (_, i) => `k${i}: v`).join('\n')}\n`,
    expect: ['FS-UNKNOWN-KEY'],
  },
  {
    name: '10,000 copies of one key (the parser made 10^8 errors and ran out of heap)',
    file: 'dupes.unit.yaml',
    text: () => `faction: Hostile\nunits:\n  - name: Dupe\n${'    class: Destroyer\n'.repeat(10_000)}`,
    expect: ['FS-DUPLICATE-KEY'],
  },
  {
    name: '45,000 YAML documents',
    file: 'documents.fleet.yaml',
    text: () => 'name: X\n' + '---\n'.repeat(45_000),
    expect: ['FS-YAML-SYNTAX'],
  },
  {
    name: 'a 16 MB single line (a value)',
    file: 'long-line.unit.yaml',
    text: () => `faction: ${'x'.repeat(16 * MB)}\nunits:\n${goodCard()}`,
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: 'a 3 MB comment line in a valid file',
    file: 'long-comment.unit.yaml',
    text: () => unitFile(goodCard('Commented') + `# ${'c'.repeat(3 * MB)}\n`),
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: 'a weapon profile of 45,000 dashes folded over as many lines (quadratic profile reading)',
    file: 'dash-lines.unit.yaml',
    text: () => unitFile(goodCard('Dashes', { weapon: `Big — ${'\n        a —'.repeat(45_000)}` })),
    expect: ['FS-WEAPON-FORMAT'],
  },
  {
    name: 'names and values of 40,000 characters folded over many lines',
    file: 'long-values.fleet.yaml',
    text: () => {
      const long = `Long${'\n    word'.repeat(4_000)}`;
      return `name: ${long}\nfaction: ${long}\npoints: ${long}\nobjectives: ${long}\nunits:\n  - unit: ${long}\n    count: ${long}\n    embark: [${long}]\n  - ${long}\n${long}: 1\n`;
    },
    expect: ['FS-TYPE', 'FS-UNIT-UNKNOWN'],
  },
  {
    name: '45,000 lines of unbalanced closers (two parser errors a line)',
    file: 'closers.fleet.yaml',
    text: () => `name: X\nfaction: Hostile\npoints: 500\nunits: [a]\n${']}]}]}]}]}\n'.repeat(45_000)}`,
    expect: ['FS-YAML-SYNTAX'],
  },
  {
    name: '45,000 short lines of errors',
    file: 'many-errors.unit.yaml',
    text: () => `faction: Hostile\nunits:\n${'  - ]\n'.repeat(45_000)}`,
    expect: ['FS-YAML-SYNTAX', 'FS-TYPE'],
  },
  {
    name: 'a million lines of errors in 2 MB',
    file: 'million.fleet.yaml',
    text: () => ']\n'.repeat(1_000_000),
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: '1 MB of binary junk',
    file: 'junk.unit.yaml',
    text: () => binaryJunk(1 * MB, 7),
    bytes: () => junkBytes(1 * MB, 7),
    expect: ['FS-YAML-SYNTAX'],
    only: true,
  },
  {
    name: '1 MB of binary junk without NUL bytes',
    file: 'junk-no-nul.faction.yaml',
    text: () => binaryJunk(1 * MB, 11).replace(/\u0000/g, '\u0001'),
    bytes: () => Buffer.from(junkBytes(1 * MB, 11).map((b) => (b === 0 ? 1 : b))),
    // Random brackets never close: the nesting guard is what stops it.
    expect: ['FS-YAML-LIMIT'],
  },
  {
    name: 'NUL bytes and control characters around a valid card',
    file: 'nul.unit.yaml',
    text: () => `\u0000\u0001faction: Hostile\u0007\nunits:\n${goodCard('Nully')}\u0000\u001b[31m\n`,
    expect: ['FS-YAML-SYNTAX'],
    only: true,
  },
  {
    name: 'a 50 MB card file',
    file: 'fifty.unit.yaml',
    text: () => {
      const block = bigUnitFile(20_000).replace(/^faction: Bench\nunits:\n/, '');
      const times = Math.ceil((50 * MB) / block.length);
      return 'faction: Bench\nunits:\n' + block.repeat(times);
    },
    expect: ['FS-YAML-LIMIT'],
    only: true,
  },
  {
    name: 'absurd numbers in every numeric field of a card',
    file: 'absurd.unit.yaml',
    text: () =>
      unitFile(
        ABSURD_NUMBERS.map((n, i) =>
          goodCard(`Absurd ${i}`, {
            points: n,
            bases: n,
            base: `${n}mm`,
            stats: `"${n}/${n} ${n}+ ${n}+ ${n} ${n}+ ${n} ${n}/${n} ${n}/${n} ${n}"`,
            weapon: `Big Gun — Energy, ${n}", ${n}, ${n}`,
            order: `{ name: Attack Run, difficulty: ${n}, range: ${n}", effect: "Launch Bay Tier ${n}" }`,
          }),
        ).join(''),
      ),
    expect: ['FS-POINTS', 'FS-STAT-RANGE', 'FS-WEAPON-DAMAGE', 'FS-RANGE-BAND', 'FS-TYPE'],
  },
  {
    name: 'absurd numbers in every numeric field of a Command Board',
    file: 'absurd.faction.yaml',
    text: () => {
      const n = '99999999';
      const cas = Array.from({ length: 6 }, (_, i) => `  - { name: A${i}, cost: ${ABSURD_NUMBERS[i]}, timing: now, effect: "+${n}\\" movement" }`);
      return `faction: Hostile\ndoctrine: Elite\ncp: ${n}\ncpSources:\n  - { name: A, cp: ${n} }\n  - { name: B, cp: 1e309 }\nfactionAbility: { name: F, text: "Reroll ${n} dice" }\ncommandAbilities:\n${cas.join('\n')}\n`;
    },
    expect: ['FS-CP-MAX', 'FS-COMMAND-ABILITY-COST', 'FS-TYPE'],
  },
  {
    name: 'absurd numbers in every numeric field of a fleet list',
    file: 'absurd.fleet.yaml',
    text: () =>
      `name: Absurd\nfaction: Hostile\npoints: ${'9'.repeat(400)}\nobjectives: 99999999\nunits:\n` +
      ABSURD_NUMBERS.map((n) => `  - { unit: Nobody, count: ${n}, embark: [Nobody] }`).join('\n') +
      '\n',
    expect: ['FS-COUNT', 'FS-UNIT-UNKNOWN', 'FS-TYPE'],
  },
  {
    name: 'tabs for indentation throughout',
    file: 'tabs.unit.yaml',
    text: () => unitFile(goodCard('Tabby').replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2))),
    expect: ['FS-YAML-WARNING'],
  },
  {
    name: 'a BOM, CRLF line ends and Unicode names (astral, combining, right-to-left, zero-width, HTML)',
    file: 'unicode.unit.yaml',
    text: () => {
      const name = 'Ŝtar 🚀 Destroyer\u200d\u0301 \u202eevil\u202c <b>x</b>';
      return '\ufeff' + unitFile(goodCard(name) + goodCard(name).replace('class: Destroyer', 'class: Frigatë')).replace(/\n/g, '\r\n');
    },
    expect: ['FS-CLASS-UNKNOWN', 'FS-DUPLICATE-CARD'],
    only: true,
  },
  {
    name: 'CR-only line ends (classic Mac OS) and Unicode line separators',
    file: 'cr.unit.yaml',
    text: () => unitFile(goodCard('Carriage\u2028Return\u2029Card')).replace(/\n/g, '\r'),
    expect: [],
    only: true,
  },
  {
    name: 'lone surrogates and U+FFFF in keys and values',
    file: 'surrogates.fleet.yaml',
    text: () => `name: "\ud800"\nfaction: \udfff\npoints: 500\nunits:\n  - unit: \uffff\n  - \ud83d\n`,
    expect: ['FS-YAML-SYNTAX'],
  },
  {
    name: 'one card 40,000 times in a flow list (not split; many cards of one name)',
    file: 'flow-cards.unit.yaml',
    text: () => `faction: Hostile\nunits: [\n${Array.from({ length: 40_000 }, () => '{name: Same, class: Fighter, points: 60}').join(',\n')}]\n`,
    expect: ['FS-DUPLICATE-CARD', 'FS-MISSING-FIELD', 'FS-YAML-LIMIT'],
  },
  {
    name: 'a fleet of 20,000 entries naming unknown cards',
    file: 'big.fleet.yaml',
    text: () => `name: F\nfaction: Hostile\npoints: 500\nunits:\n${Array.from({ length: 20_000 }, (_, i) => `  - Nobody ${i}`).join('\n')}\n`,
    expect: ['FS-UNIT-UNKNOWN', 'FS-YAML-LIMIT'],
  },
];

/** A normal, valid card file and what a correct answer for it is: no problems at all. */
export const NORMAL_UNIT = unitFile(goodCard('Normal Destroyer'));

/**
 * Hostile simulations: cards and options that pass every size guard yet, without
 * a work budget, kept `sim` busy for minutes and a server deaf. Each is a card file (two cards) and
 * the options of a `fabled-star sim` / `fabledStar/simulate` run between them.
 */
export interface HostileSimulation {
  name: string;
  cards: string;
  attacker: string;
  defender: string;
  options: { trials?: number; rounds?: number; range?: number };
}

/** A card with `weapons` weapon systems of `attacks` attacks each and `hp` HP (far past the class limits, but readable). */
export function heavyCard(name: string, weapons: number, attacks: number, hp: number): string {
  const lines = Array.from({ length: weapons }, (_, i) => `      - Gun ${i} — ${['Auto', 'Energy', 'Ion'][i % 3]}, 12", 1, ${attacks}`);
  return [`  - name: ${name}`, '    class: Dreadnought', '    points: 480', `    stats: "6/3 4+ 8+ 20 5+ ${hp} 4/5 5/5 10"`, '    weapons:', ...lines, ''].join(
    '\n',
  );
}

export const SIM_CASES: HostileSimulation[] = [
  {
    name: 'two cards with 300 weapons of 500 attacks and 10^9 HP, a million trials of 100 rounds',
    cards: unitFile(heavyCard('Hydra', 300, 500, 1_000_000_000) + heavyCard('Leviathan', 300, 500, 1_000_000_000)),
    attacker: 'Hydra',
    defender: 'Leviathan',
    options: { trials: 1_000_000, rounds: 100 },
  },
  {
    name: 'two cards with 200 weapons of 3 attacks and 50,000 HP (exact kernels for every state), default options',
    cards: unitFile(heavyCard('Many Guns', 200, 3, 50_000) + heavyCard('Many Guns Too', 200, 3, 50_000)),
    attacker: 'Many Guns',
    defender: 'Many Guns Too',
    options: {},
  },
  {
    name: 'ordinary cards with in-range options at their maximum: a million trials of 100 rounds',
    cards: unitFile(goodCard('Normal Destroyer') + goodCard('Sturdy Destroyer', { stats: '"9/6 5+ 7+ 4 6+ 500 6/3 7/2 3"' })),
    attacker: 'Normal Destroyer',
    defender: 'Sturdy Destroyer',
    options: { trials: 1_000_000, rounds: 100 },
  },
];
