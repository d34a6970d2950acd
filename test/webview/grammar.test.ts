/**
 * The TextMate grammars: what the injection colours, on each YAML grammar VS Code has shipped, and
 * that it never breaks YAML's own reading of the file (keys, sequences, quotes stay where they are).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generatedFiles, INJECTION, LANGUAGES } from '../../syntaxes/generate';
import { tokenizer, yamlGrammars, type Token, type Tokenizer } from './grammar';
import { ROOT } from './harness';

/** `line`, the `text` of one token in it, and the scope that token must carry (or `null`: no .fabled scope). */
type Case = [line: string, text: string, scope: string | null];

const UNIT_CASES: Case[] = [
  ['    class: Destroyer', 'Destroyer', 'support.class.unit-class.fabled'],
  ['    class: Capital Ship', 'Capital Ship', 'support.class.unit-class.fabled'],
  ['    class: "Carrier"', 'Carrier', 'support.class.unit-class.fabled'],
  ['  - name: Veilwing Fighter Wing', 'Fighter', null],
  ['      BS: 5+', 'BS', 'keyword.other.stat.fabled'],
  ['      BS: 5+', '5+', 'constant.numeric.target.fabled'],
  ['      M: 9/6', '9', 'constant.numeric.pair.fabled'],
  ['      M: 9/6', '/', 'punctuation.separator.pair.fabled'],
  ['      LD: 6/3', '6', 'constant.numeric.pair.fabled'],
  ['      CR: —', '—', 'constant.language.not-possessed.fabled'],
  ['      SH: –', '–', 'constant.language.not-possessed.fabled'],
  ['      AC: "-"', '-', 'constant.language.not-possessed.fabled'],
  ['    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"', '7+', 'constant.numeric.target.fabled'],
  ['    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"', '4', 'constant.numeric.integer.fabled'],
  ['    stats: 9/6 · 5+ · - · 4 · 6+ · 5 · 6/3 · 7/2 · 3', '·', 'punctuation.separator.stat-line.fabled'],
  ['    stats: 9/6 · 5+ · - · 4 · 6+ · 5 · 6/3 · 7/2 · 3', '-', 'constant.language.not-possessed.fabled'],
  ['        type: Energy', 'Energy', 'support.type.weapon-type.fabled'],
  ['        type: P', 'P', 'support.type.weapon-type.fabled'],
  ['        type: Plasma', 'Plasma', null],
  ['        range: 18"', '18', 'constant.numeric.range-band.fabled'],
  ['        range: 18"', '"', 'keyword.other.unit.inch.fabled'],
  ['        range: 12', '12', 'constant.numeric.range-band.fabled'],
  ['        range: 10"', '10"', null],
  ['      - Pulse Laser — Ion, 9", 2, 4', 'Pulse Laser', 'entity.name.function.weapon.fabled'],
  ['      - Pulse Laser — Ion, 9", 2, 4', '—', 'punctuation.separator.dash.fabled'],
  ['      - Pulse Laser — Ion, 9", 2, 4', 'Ion', 'support.type.weapon-type.fabled'],
  ['      - Pulse Laser — Ion, 9", 2, 4', '9', 'constant.numeric.range.fabled'],
  ['      - Pulse Laser — Ion, 9", 2, 4', '4', 'constant.numeric.attacks.fabled'],
  ['      - Spine Volley - A, 12", 1, 3', 'Spine Volley', 'entity.name.function.weapon.fabled'],
  ['      - "Maw Ripper — P, 9\\", 2, 3"', 'Maw Ripper', 'entity.name.function.weapon.fabled'],
  ['        effect: Friendly units within 6" gain +1 BS.', '6', 'constant.numeric.range-band.fabled'],
  ['        effect: Each 5+ hits both units.', '5+', 'constant.numeric.target.fabled'],
  ['    points: 145  # costs 5+ more than 12"', '5+', null],
];

const FACTION_CASES: Case[] = [
  ['doctrine: Elite', 'Elite', 'support.constant.doctrine.fabled'],
  ['doctrine: Heroic', 'Heroic', null],
  ['    timing: Before a friendly unit moves', 'unit', null],
];

const FLEET_CASES: Case[] = [
  ['  - unit: Lumen Destroyer', 'Lumen Destroyer', 'entity.name.type.unit-reference.fabled'],
  ['  - { unit: Maw Frigate, count: 2 }', 'Maw Frigate', 'entity.name.type.unit-reference.fabled'],
  ['    count: 2', '2', null],
  ['points: 1000', '1000', null],
];

function scopesOf(tokens: Token[], text: string): string[] | undefined {
  return tokens.find((t) => t.text === text)?.scopes;
}

/** Every example file of the repository, with its language's scope. */
function exampleFiles(): { path: string; scope: string }[] {
  const out: { path: string; scope: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      const kind = /\.(unit|faction|fleet)\.yaml$/.exec(name)?.[1];
      if (kind) out.push({ path, scope: `source.fabled-${kind}` });
    }
  };
  walk(join(ROOT, 'examples'));
  return out;
}

/** The scopes YAML itself gives each character, ignoring ours. */
function yamlScopesPerChar(lines: Token[][], keep: (scope: string) => boolean): string[] {
  const out: string[] = [];
  lines.forEach((tokens, n) => {
    for (const t of tokens) {
      const scopes = t.scopes.filter((s) => !s.endsWith('.fabled') && keep(s)).join(' ');
      for (let i = 0; i < t.text.length; i++) out.push(`${n}:${scopes}`);
    }
  });
  return out;
}

describe('TextMate grammars', () => {
  it('are up to date with the rules pack (node --import=tsx syntaxes/generate.ts)', async () => {
    for (const { file, text } of await generatedFiles()) {
      assert.equal(readFileSync(join(ROOT, 'syntaxes', file), 'utf8'), text, `${file} is stale`);
    }
  });

  it('are the ones the manifest contributes, injected into exactly the three languages', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { grammars: { language?: string; scopeName: string; path: string; injectTo?: string[] }[] };
    };
    const grammars = manifest.contributes.grammars;
    for (const lang of LANGUAGES) {
      const entry = grammars.find((g) => g.language === lang.id);
      assert.ok(entry, `a grammar for ${lang.id}`);
      assert.equal(entry.scopeName, lang.scope);
      assert.equal(entry.path, `./syntaxes/${lang.file}`);
    }
    const injection = grammars.find((g) => g.scopeName === INJECTION.scope);
    assert.ok(injection, 'the injection grammar is contributed');
    assert.equal(injection.path, `./syntaxes/${INJECTION.file}`);
    assert.deepEqual([...(injection.injectTo ?? [])].sort(), LANGUAGES.map((l) => l.scope).sort());
  });

  for (const yaml of yamlGrammars()) {
    describe(`over ${yaml.name}`, () => {
      const tokenizers = new Map<string, Tokenizer>();
      const plainYaml = new Map<string, Tokenizer>();
      before(async () => {
        for (const lang of LANGUAGES) tokenizers.set(lang.scope, await tokenizer(yaml, lang.scope));
        plainYaml.set('yaml', await tokenizer(yaml, 'source.yaml'));
      });

      const groups: [string, Case[]][] = [
        ['source.fabled-unit', UNIT_CASES],
        ['source.fabled-faction', [...FACTION_CASES, ...UNIT_CASES.slice(0, 3)]],
        ['source.fabled-fleet', FLEET_CASES],
      ];
      for (const [scope, cases] of groups) {
        for (const [line, text, expected] of cases) {
          const what = expected ? `colours ${JSON.stringify(text)} as ${expected}` : `leaves ${JSON.stringify(text)} alone`;
          it(`${scope}: in ${JSON.stringify(line.trim())} ${what}`, () => {
            const [tokens] = tokenizers.get(scope)!(line);
            if (expected) {
              const scopes = scopesOf(tokens!, text);
              assert.ok(scopes, `no token ${JSON.stringify(text)} in ${JSON.stringify(tokens!.map((t) => t.text))}`);
              assert.ok(scopes.includes(expected), `${JSON.stringify(text)} has ${scopes.join(' ')}`);
            } else {
              // Every token that overlaps the text carries no scope of ours.
              const from = line.indexOf(text);
              const to = from + text.length;
              assert.ok(from >= 0);
              let at = 0;
              for (const t of tokens!) {
                const overlaps = at < to && at + t.text.length > from;
                at += t.text.length;
                if (overlaps)
                  assert.deepEqual(
                    t.scopes.filter((s) => s.endsWith('.fabled')),
                    [],
                    `${JSON.stringify(t.text)} got ${t.scopes.join(' ')}`,
                  );
              }
            }
          });
        }
      }

      it('leaves plain YAML files alone (the injection is for the three languages only)', async () => {
        const lines = plainYaml.get('yaml')!('stats:\n  BS: 5+\n  M: 9/6\nrange: 18"\n');
        for (const t of lines.flat())
          assert.deepEqual(
            t.scopes.filter((s) => s.endsWith('.fabled')),
            [],
            t.text,
          );
      });

      for (const { path, scope } of exampleFiles()) {
        const name = path.slice(ROOT.length + 1);
        it(`keeps YAML's structure in ${name}`, () => {
          const text = readFileSync(path, 'utf8');
          const ours = tokenizers.get(scope)!(text);
          const theirs = plainYaml.get('yaml')!(text);
          // Punctuation (key separators, sequence dashes, quotes, flow brackets) and comments are
          // where YAML decides what a file means; the injection must leave every one where it was.
          const structural = (s: string) =>
            (s.startsWith('punctuation.') && s.endsWith('.yaml') && !s.startsWith('punctuation.whitespace')) || s.startsWith('comment.');
          assert.deepEqual(yamlScopesPerChar(ours, structural), yamlScopesPerChar(theirs, structural));
          // And it colours something in every example, or it is not doing its job.
          assert.ok(
            ours.flat().some((t) => t.scopes.some((s) => s.endsWith('.fabled'))),
            'nothing coloured',
          );
        });
      }
    });
  }
});
