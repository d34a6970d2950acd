/**
 * Editing support that is data, not code: the language configuration (words, indentation, Enter)
 * and the snippets. Snippets are expanded with their default choices and checked by the project's
 * own validator: a new card, board or fleet straight from a snippet has no errors or warnings.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as jsonc from 'jsonc-parser';
import { checkDocument } from '../../server/src/core/check';
import { Workspace } from '../../server/src/core/workspace';
import { generatedSnippetFiles, SNIPPET_FILES } from '../../snippets/generate';
import { ROOT } from './harness';

interface LanguageConfiguration {
  wordPattern: string;
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
  onEnterRules: { beforeText: string; action: { indent: string; appendText?: string } }[];
  comments: { lineComment: string };
  autoClosingPairs: { open: string; close: string }[];
}

const config = JSON.parse(readFileSync(join(ROOT, 'language-configuration.json'), 'utf8')) as LanguageConfiguration;

describe('language configuration', () => {
  const words: [string, string[]][] = [
    ['    BS: 5+', ['BS', '5+']],
    ['    M: 9/6', ['M', '9/6']],
    ['    LD: 10/1', ['LD', '10/1']],
    ['    range: 12"', ['range', '12"']],
    ['faction: Myr-Valari', ['faction', 'Myr-Valari']],
    ['    base: 60mm', ['base', '60mm']],
    ['    points: 145', ['points', '145']],
    ['  - Pulse Laser — Ion, 9", 2, 4', ['Pulse', 'Laser', 'Ion', '9"', '2', '4']],
    // A quote right after a number reads as an inch mark, so stat-line examples are unquoted here.
    ['    stats: 9/6 · 5+ · - · 4', ['stats', '9/6', '5+', '4']],
  ];
  for (const [line, expected] of words) {
    it(`reads the words of ${JSON.stringify(line.trim())} as ${expected.join(' ')}`, () => {
      assert.deepEqual(line.match(new RegExp(config.wordPattern, 'g')), expected);
    });
  }

  const increase: [string, boolean][] = [
    ['units:', true],
    ['  - name: Lumen Destroyer', false],
    ['    stats:', true],
    ['    weapons:   # two systems', true],
    ['  -', true],
    ['    stats: { M: 9/6,', true],
    ['    BS: 5+', false],
    ['# units:', false],
    ['    effect: Gains +1 BS.', false],
  ];
  for (const [line, expected] of increase) {
    it(`${expected ? 'indents' : 'does not indent'} after ${JSON.stringify(line)}`, () => {
      assert.equal(new RegExp(config.indentationRules.increaseIndentPattern).test(line), expected);
    });
  }

  it('lines up a new line under the key of a "- key: value" list item', () => {
    const rule = config.onEnterRules.find((r) => new RegExp(r.beforeText).test('  - name: Lumen Destroyer'));
    assert.ok(rule);
    assert.equal(rule.action.appendText, '  ');
    for (const line of ['  - Pulse Laser — Ion, 9", 2, 4', '  - "quoted: item"', '  - name:', 'name: x']) {
      assert.equal(
        config.onEnterRules.some((r) => new RegExp(r.beforeText).test(line)),
        false,
        line,
      );
    }
  });

  it('comments with # and closes brackets and quotes', () => {
    assert.equal(config.comments.lineComment, '#');
    assert.deepEqual(
      config.autoClosingPairs.map((p) => p.open + p.close),
      ['{}', '[]', '""', "''"],
    );
  });
});

/** A snippet body with every placeholder at its default (a choice's first option). */
function expand(body: string[]): string {
  return body
    .join('\n')
    .replace(/\$\{\d+\|((?:\\.|[^|\\])*)\|\}/g, (_, options: string) => options.split(/(?<!\\),/)[0]!.replace(/\\(.)/g, '$1'))
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '');
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

interface SnippetFile {
  [name: string]: { prefix: string | string[]; body: string[]; description: string };
}

/** Reads a snippet file as VS Code does: JSON with comments and trailing commas. */
function snippets(file: string): SnippetFile {
  const errors: jsonc.ParseError[] = [];
  const value = jsonc.parse(readFileSync(join(ROOT, 'snippets', file), 'utf8'), errors, { allowTrailingComma: true }) as SnippetFile;
  assert.deepEqual(errors, [], `${file} is not valid JSON with comments`);
  return value;
}

/** Problems of the documents, as "file: CODE message" lines, errors and warnings only. */
function problems(files: Record<string, string>): string[] {
  const ws = new Workspace();
  for (const [name, text] of Object.entries(files)) ws.set(`file:///ws/${name}`, text);
  const out: string[] = [];
  for (const name of Object.keys(files)) {
    const doc = ws.get(`file:///ws/${name}`);
    assert.ok(doc, `${name} parses as a Fabled Star file`);
    for (const p of checkDocument(doc, ws)) if (p.severity === 'error' || p.severity === 'warning') out.push(`${name}: ${p.code} ${p.message}`);
  }
  return out;
}

describe('snippets', () => {
  it('are up to date with the rules pack (node --import=tsx snippets/generate.ts)', async () => {
    for (const { file, text } of await generatedSnippetFiles()) assert.equal(readFileSync(join(ROOT, 'snippets', file), 'utf8'), text, file);
  });

  it('are the files the manifest contributes, one per language', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { snippets: { language: string; path: string }[] } };
    for (const { language, file } of SNIPPET_FILES) {
      const entry = manifest.contributes.snippets.find((s) => s.language === language);
      assert.ok(entry, language);
      assert.equal(entry.path, `./snippets/${file}`);
      assert.ok(existsSync(join(ROOT, 'snippets', file)));
    }
  });

  const unit = snippets('fabled-unit.code-snippets');
  const faction = snippets('fabled-faction.code-snippets');
  const fleet = snippets('fabled-fleet.code-snippets');

  it('make a unit cards file with no errors or warnings', () => {
    assert.deepEqual(problems({ 'new.unit.yaml': expand(unit['Unit cards file']!.body) }), []);
  });

  it('make a card whose weapon, order and ability snippets fit in its slots', () => {
    const card = expand(unit['Unit card']!.body)
      .replace(
        /  weapons:\n[\s\S]*?(?=  orders:)/,
        `  weapons:\n${indent(expand(unit['Weapon']!.body), '    ')}\n${indent(expand(unit['Weapon profile line']!.body), '    ')}\n`,
      )
      .replace('  orders: []', `  orders:\n${indent(expand(unit['Order']!.body), '    ')}`)
      .replace('  abilities: []', `  abilities:\n${indent(expand(unit['Ability']!.body), '    ')}`);
    const text = `faction: Myr-Valari\nunits:\n${indent(card, '  ')}\n`;
    assert.equal((text.match(/^ {6}- /gm) ?? []).length, 4, `two weapons, one order, one ability in:\n${text}`);
    assert.deepEqual(problems({ 'card.unit.yaml': text }), []);
  });

  it('make a Command Board with no errors or warnings', () => {
    assert.deepEqual(problems({ 'new.faction.yaml': expand(faction['Faction Command Board']!.body) }), []);
  });

  it('make a fleet list that checks clean against a card made by the unit snippet', () => {
    const fleetText =
      expand(fleet['Fleet list']!.body).replace('Card Name', 'New Unit') +
      indent(expand(fleet['Fleet entry']!.body).replace('Card Name', 'New Unit'), '  ') +
      '\n';
    const cards = expand(unit['Unit cards file']!.body).replace('faction: Faction', 'faction: Faction');
    assert.deepEqual(problems({ 'cards.unit.yaml': cards, 'new.fleet.yaml': fleetText }), []);
  });

  it('give every snippet a prefix and a description', () => {
    for (const file of [unit, faction, fleet]) {
      for (const [name, s] of Object.entries(file)) {
        assert.ok(
          (Array.isArray(s.prefix) ? s.prefix : [s.prefix]).every((p) => /^[a-z-]+$/.test(p)),
          name,
        );
        assert.ok(s.description.length > 10, name);
      }
    }
  });
});
