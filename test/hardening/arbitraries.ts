/**
 * Generators of the text an editor feeds the language service: files of all three kinds built
 * from YAML and Fabled Star tokens, real files from examples/ and the fixtures, and random edits of
 * both (what a half-typed card looks like). Shared by the property tests and `npm run fuzz`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import type { DocKind } from '../../server/src/core/model/types';

const ROOT = path.join(__dirname, '..', '..');

function yamlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : /\.(unit|faction|fleet)\.yaml$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/** Every real file the project has: the examples and the diagnostics fixtures. */
export const SAMPLES: { file: string; kind: DocKind; text: string }[] = [
  ...yamlFiles(path.join(ROOT, 'examples')),
  ...yamlFiles(path.join(ROOT, 'test', 'core', 'fixtures')),
].map((file) => ({
  file,
  kind: /\.unit\./.test(file) ? 'unit' : /\.faction\./.test(file) ? 'faction' : 'fleet',
  text: fs.readFileSync(file, 'utf8'),
}));

export const URIS: Record<DocKind, string> = {
  unit: 'file:///fuzz/a.unit.yaml',
  faction: 'file:///fuzz/a.faction.yaml',
  fleet: 'file:///fuzz/a.fleet.yaml',
  collection: 'file:///fuzz/a.collection.yaml',
};

/** Pieces of text that mean something to YAML or to Fabled Star, and some that mean nothing. */
export const TOKENS = [
  '\n',
  '\n',
  '\n',
  '  ',
  '  ',
  '    ',
  '- ',
  '-',
  ': ',
  ':',
  '[',
  ']',
  '{',
  '}',
  ', ',
  '"',
  "'",
  '# ',
  '&a ',
  '*a',
  '!t ',
  '<<: ',
  '<<: *a',
  '|',
  '>-',
  '---',
  '...',
  '? ',
  '%YAML 1.2',
  '\t',
  '\r\n',
  '\r',
  '\ufeff',
  '\u2028',
  '\\',
  '@',
  '`',
  '~',
  'null',
  'true',
  'faction: ',
  'units:',
  'name: ',
  'class: ',
  'points: ',
  'bases: ',
  'base: ',
  'stats: ',
  'weapons:',
  'orders:',
  'abilities:',
  'doctrine: ',
  'cp: ',
  'cpSources:',
  'factionAbility:',
  'commandAbilities:',
  'cost: ',
  'timing: ',
  'effect: ',
  'text: ',
  'unit: ',
  'count: ',
  'embark:',
  'objectives: ',
  'type: ',
  'range: ',
  'damage: ',
  'attacks: ',
  'difficulty: ',
  'Destroyer',
  'Fighter',
  'Carrier',
  'Frigate',
  'Myr-Valari',
  'Standard',
  'Elite',
  'Energy',
  'Ion',
  'Launch Bay Tier 2',
  'Lumen Destroyer',
  'Veilwing Fighter Wing',
  'Attack Run',
  'Hit & Run',
  'Dogfighters',
  '9/6',
  '5+',
  '7+',
  '4',
  '6/3',
  '12"',
  '18"',
  '10"',
  '0',
  '-1',
  '99999999',
  '1e309',
  '.inf',
  '0x1f',
  '—',
  ' — ',
  '–',
  '"9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"',
  'Pulse Laser — Ion, 9", 2, 4',
  '<script>alert(1)</script>',
  '${x}',
  '🚀',
  '\u202e',
  '\u0301',
];

const token = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...TOKENS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);

/** A text made of tokens: mostly near-YAML, sometimes anything at all. */
export const tokenText = fc.array(token, { maxLength: 120 }).map((parts) => parts.join(''));

export const kind = fc.constantFrom<DocKind>('unit', 'faction', 'fleet');

export interface Edit {
  /** Where, as a fraction of the text's length (so an edit fits any text). */
  at: number;
  /** How many characters to delete. */
  del: number;
  ins: string;
}

export const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  del: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.nat({ max: 8 }) }, { weight: 1, arbitrary: fc.nat({ max: 400 }) }),
  ins: fc.oneof({ weight: 4, arbitrary: token }, { weight: 1, arbitrary: fc.constant('') }, { weight: 1, arbitrary: tokenText }),
});

export function applyEdit(text: string, e: Edit): { text: string; start: number; end: number } {
  const start = Math.min(text.length, Math.floor(e.at * (text.length + 1)));
  const end = Math.min(text.length, start + e.del);
  return { text: text.slice(0, start) + e.ins + text.slice(end), start, end };
}

/** A real file, possibly edited into a half-typed one. */
export const sampleText = fc.record({ i: fc.nat({ max: SAMPLES.length - 1 }), edits: fc.array(edit, { maxLength: 6 }) }).map(({ i, edits }) => {
  const s = SAMPLES[i]!;
  let text = s.text;
  for (const e of edits) text = applyEdit(text, e).text;
  return { kind: s.kind, text };
});

/** Any document: a real one edited, or one made of tokens (its kind chosen freely). */
export const anyDocument = fc.oneof(sampleText, fc.record({ kind, text: tokenText }));

/** A card file of generated cards, some of them copies of others (cards pasted twice). */
export const cardFile = fc
  .array(
    fc.record({
      name: fc.constantFrom('Lumen Destroyer', 'Twin', 'Veilwing Fighter Wing', 'A', ''),
      cls: fc.constantFrom('Destroyer', 'Fighter', 'Frigate', 'Carrier', 'Nope'),
      points: fc.constantFrom('145', '60', '-1', 'lots', ''),
      weapon: fc.constantFrom('Pulse Laser — Ion, 9", 2, 4', '{ name: Lance, type: Energy, range: 18", damage: 2, attacks: 3 }', 'Broken —', '- x'),
      copies: fc.constantFrom(1, 1, 1, 2, 3),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((cards) => {
    const out = ['faction: Fuzz', 'units:'];
    for (const c of cards) {
      const lines = [
        `  - name: ${c.name}`,
        `    class: ${c.cls}`,
        `    points: ${c.points}`,
        '    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"',
        '    weapons:',
        `      - ${c.weapon}`,
        '',
      ];
      for (let k = 0; k < c.copies; k++) out.push(...lines);
    }
    return out.join('\n');
  });

/** Nesting of every kind YAML has, `depth` levels deep (for the parser guard). */
export const nesting = fc
  .record({
    depth: fc.integer({ min: 1, max: 400 }),
    seed: fc.array(fc.constantFrom('flow-seq', 'flow-map', 'block-seq', 'block-map', 'compact', 'key'), { minLength: 1, maxLength: 6 }),
  })
  .map(({ depth, seed }) => {
    // Block levels need a line each (and indentation), flow levels nest inside one another; once a
    // flow collection is open, everything inside it is flow.
    let text = 'units:\n';
    let indent = 2;
    let flow = 0;
    let closers = '';
    for (let d = 0; d < depth; d++) {
      const k = seed[d % seed.length]!;
      if (flow > 0 || k === 'flow-seq' || k === 'flow-map') {
        if (k === 'flow-map' || k === 'key' || k === 'block-map') {
          text += flow > 0 || d === 0 ? '{a: ' : `${' '.repeat(indent)}a: {a: `;
          closers = '}' + closers;
        } else {
          text += flow > 0 || d === 0 ? '[' : `${' '.repeat(indent)}- [`;
          closers = ']' + closers;
        }
        flow++;
      } else if (k === 'compact') {
        text += `${' '.repeat(indent)}- `;
        indent += 2;
        text += '\n';
      } else if (k === 'block-seq') {
        text += `${' '.repeat(indent)}-\n`;
        indent += 2;
      } else {
        text += `${' '.repeat(indent)}k${d}:\n`;
        indent += 2;
      }
    }
    return { depth, text: text + (flow > 0 ? 'x' + closers : `${' '.repeat(indent)}x`) + '\n' };
  });
