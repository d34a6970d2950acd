/**
 * Editing support that is data, not code: the language configuration (words, indentation, Enter)
 * and the templates completion offers. Templates are expanded with their default choices and checked
 * by the project's own validator: a new card, board or fleet straight from a template has no errors or
 * warnings.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocument } from '../../server/src/core/check';
import { Workspace } from '../../server/src/core/workspace';
import { exampleFallback } from '../../server/src/core/examples/index';
import { pointsEstimateProblems } from '../../server/src/core/features/pointsEstimate';
import { templatesFor, TEMPLATE_PLACES, type TemplatePlace } from '../../server/src/core/features/templates';
import { CLASS_NAMES, CLASSES } from '../../server/src/core/rules/data';
import { expandSnippet } from '../protocol/vscodeCompletion';
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

/** A template with every placeholder at its default (a choice's first option); `fill` for empty stops. */
function expand(body: string[], fill: Record<number, string> = {}): string {
  return expandSnippet(body.join('\n'), fill).text;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
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

describe('templates (the snippets completion offers)', () => {
  const one = (place: TemplatePlace, label?: string, factions: string[] = []) => {
    const t = templatesFor(place, { factions }).find((x) => !label || x.label === label);
    assert.ok(t, `${place} ${label ?? ''}`);
    return t.body;
  };

  it('exist for every place, each with a label, a description and words to find it by', () => {
    for (const place of TEMPLATE_PLACES) {
      const ts = templatesFor(place);
      assert.ok(ts.length, place);
      for (const t of ts) {
        assert.ok(t.label.startsWith('New '), t.label);
        assert.ok(t.description.length > 20 && t.words.length, t.label);
        // Distinct tab stops: typing one never renames another.
        const stops = [...t.body.join('\n').matchAll(/\$\{?(\d+)/g)].map((m) => m[1]);
        assert.equal(new Set(stops).size, stops.length, `${t.label} repeats a tab stop`);
      }
    }
  });

  it('make a unit cards file with no errors or warnings', () => {
    assert.deepEqual(problems({ 'new.unit.yaml': expand(one('unitFile')) }), []);
  });

  it('make a card of the class, points and stat line they show', () => {
    const text = expand(one('unitFile'));
    assert.match(text, /class: Destroyer\n {4}points: 145\n {4}bases: 1\n/);
  });

  it("make a card of every class, with its class card's points, bases and weapon systems, that checks clean as it comes", () => {
    for (const cls of CLASS_NAMES) {
      const file = expand(one('unitFile', `New unit cards file: ${cls}`));
      const row = CLASSES[cls];
      assert.match(file, new RegExp(`class: ${cls}\\n {4}points: ${row.points}\\n {4}bases: ${row.bases}\\n`), cls);
      assert.equal((file.match(/^ {6}- /gm) ?? []).length, row.weapons, `${cls}: ${row.weapons} weapon systems in\n${file}`);
      assert.deepEqual(problems({ 'new.unit.yaml': file }), [], cls);
      // Nor a note that its points are far off: a designer's first card starts fairly costed.
      const ws = exampleFallback(new Workspace());
      const doc = ws.set('file:///ws/new.unit.yaml', file)!;
      assert.deepEqual(
        pointsEstimateProblems(doc, ws, checkDocument(doc, ws)).map((p) => p.message),
        [],
        cls,
      );
      const card = expand(one('card', `New unit card: ${cls}`));
      assert.deepEqual(problems({ 'more.unit.yaml': `faction: Myr-Valari\nunits:\n${indent(card, '  ')}\n` }), [], `${cls} card:\n${card}`);
    }
  });

  it('name a new card apart from the cards the workspace has, so that a second new file is no duplicate', () => {
    const ws = new Workspace();
    const ctx = { factions: [], nameTaken: (n: string) => ws.findCards(n).length > 0 };
    const first = expand(templatesFor('unitFile', ctx).find((t) => t.label === 'New unit cards file: Fighter')!.body);
    assert.match(first, /- name: New Fighter\n/);
    ws.set('file:///ws/first.unit.yaml', first);
    const second = expand(templatesFor('unitFile', ctx).find((t) => t.label === 'New unit cards file: Fighter')!.body);
    assert.match(second, /- name: New Fighter 2\n/);
    const card = expand(templatesFor('card', ctx).find((t) => t.label === 'New unit card: Fighter')!.body);
    assert.match(card, /^- name: New Fighter 2\n/);
    assert.deepEqual(problems({ 'first.unit.yaml': first, 'second.unit.yaml': second }), []);
  });

  it('make a card whose weapon, order and ability templates fit in its slots', () => {
    const card = expand(one('card'))
      .replace(
        /  weapons:\n[\s\S]*?(?=  orders:)/,
        `  weapons:\n${indent(expand(one('weapon', 'New weapon system')), '    ')}\n${indent(expand(one('weapon', 'New weapon line')), '    ')}\n`,
      )
      .replace('  orders: []', `  orders:\n${indent(expand(one('order')), '    ')}`)
      .replace('  abilities: []', `  abilities:\n${indent(expand(one('ability')), '    ')}`);
    const text = `faction: Myr-Valari\nunits:\n${indent(card, '  ')}\n`;
    assert.equal((text.match(/^ {6}- /gm) ?? []).length, 4, `two weapons, one order, one ability in:\n${text}`);
    assert.deepEqual(problems({ 'card.unit.yaml': text }), []);
  });

  it('make a Command Board with no errors or warnings', () => {
    assert.deepEqual(problems({ 'new.faction.yaml': expand(one('factionFile')) }), []);
  });

  it('make a fleet list that checks clean once its card is named, with the workspace factions to choose from', () => {
    const cards = expand(one('unitFile'));
    const fleetText = expand(one('fleetFile', undefined, ['My Faction']), { 4: 'New Destroyer' });
    assert.match(fleetText, /faction: My Faction/);
    assert.deepEqual(problems({ 'cards.unit.yaml': cards, 'new.fleet.yaml': fleetText }), []);
    const entry = indent(expand(one('fleetEntry', 'New fleet entry'), { 1: 'New Destroyer' }), '  ');
    assert.deepEqual(problems({ 'cards.unit.yaml': cards, 'new.fleet.yaml': fleetText + entry + '\n' }), []);
  });

  it('offer the workspace factions as a choice, quoted where YAML needs it', () => {
    assert.match(one('fleetFile', undefined, ['Ashen Reach', 'Odd: Name'])[1]!, /^faction: \$\{2\|Ashen Reach,"Odd: Name"\|\}$/);
  });

  it("offer a fleet the bundled example factions after the workspace's own, and each game size by name", () => {
    const body = templatesFor('fleetFile', { factions: ['Ashen Reach'], exampleFactions: ['Consumed', 'Myr-Valari'] })[0]!.body;
    assert.match(body[1]!, /^faction: \$\{2\|Ashen Reach,Consumed,Myr-Valari\|\}$/);
    assert.match(body[2]!, /^points: \$\{3\|1000 # Standard,500 # Skirmish,2000 # Battle\|\}$/);
    // A unit cards file names a faction of the user's own, never an example's.
    assert.match(templatesFor('unitFile', { factions: [], exampleFactions: ['Consumed'] })[0]!.body[0]!, /^faction: \$\{1:My Faction\}$/);
  });
});
