/**
 * English in messages and hovers: counts with the right plural and names with the right article,
 * whatever class, faction or doctrine a file names. The helper (rules/words.ts) is tested on its
 * own; then every fixture is checked again under each class and under faction names that start
 * with a vowel, a vowel letter said with a consonant sound, and a consonant, and every message,
 * hover and completion detail is read for "a Escort", "an Cruiser", "2 abilitys", "1 bases".
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { article, count, listOf, noun, pluralOf, pointsLeft, withArticle } from '../../server/src/core/rules/words';
import { CLASS_NAMES, DOCTRINES } from '../../server/src/core/rules/data';
import { CODES } from '../../server/src/core/model/codes';
import { diagnose } from '../../server/src/core/service';
import { hover } from '../../server/src/core/features/hover';
import { complete } from '../../server/src/core/features/completion';
import { codeLenses } from '../../server/src/core/features/codeLens';
import { Workspace } from '../../server/src/core/workspace';
import { resolveSettings } from '../../protocol';

describe('words: plurals and articles', () => {
  it('counts with the right plural', () => {
    const cases: [number, string, string][] = [
      [1, 'ability', '1 ability'],
      [2, 'ability', '2 abilities'],
      [0, 'base', '0 bases'],
      [1, 'base', '1 base'],
      [3, 'die', '3 dice'],
      [2, 'LD die', '2 LD dice'],
      [2, 'entry', '2 entries'],
      [2, 'ability slot', '2 ability slots'],
      [2, 'weapon system', '2 weapon systems'],
      [4, 'Order', '4 Orders'],
      [2, 'day', '2 days'],
      [2, 'class', '2 classes'],
      [5, 'info', '5 infos'],
      [2, 'other', '2 others'],
    ];
    for (const [n, w, want] of cases) assert.equal(count(n, w), want);
    assert.equal(noun(1, 'die'), 'die');
    assert.equal(pluralOf('Carrier'), 'Carriers');
    assert.equal(pluralOf('Capital Ship'), 'Capital Ships');
    assert.equal(count(2, 'child', 'children'), '2 children');
    assert.equal(listOf(['Bombers']), 'Bombers');
    assert.equal(listOf(['Escorts', 'Frigates']), 'Escorts and Frigates');
    assert.equal(listOf(['Fighters', 'Bombers', 'Escorts'], 'or'), 'Fighters, Bombers or Escorts');
  });

  it('gives every class and doctrine the article it is said with', () => {
    const an = new Set(['Escort']);
    for (const c of CLASS_NAMES) assert.equal(article(c), an.has(c) ? 'an' : 'a', c);
    assert.equal(withArticle('Elite', true), 'An Elite');
    assert.equal(withArticle('Light', true), 'A Light');
    for (const d of Object.keys(DOCTRINES)) assert.equal(article(d), d === 'Elite' ? 'an' : 'a', d);
  });

  it('says "an" before vowel sounds and "a" before consonant sounds, in names, numbers and initialisms', () => {
    const cases: [string, 'a' | 'an'][] = [
      ['Iron Choir card', 'an'],
      ['Umbral Host', 'an'],
      ['Elder Court', 'an'],
      ['Aurelian Pact', 'an'],
      ['Obsidian Reach', 'an'],
      ['Unity Compact', 'a'],
      ['Union', 'a'],
      ['European', 'a'],
      ['one-off', 'a'],
      ['hour', 'an'],
      ['honest', 'an'],
      ['Myr Valari card', 'a'],
      ['8" stick', 'an'],
      ['18', 'an'],
      ['11,000 pts', 'an'],
      ['800', 'an'],
      ['110', 'a'],
      ['12" stick', 'a'],
      ['500 pts', 'a'],
      ['1000 pts', 'a'],
      ['LD roll', 'an'],
      ['SH pool', 'an'],
      ['CR test', 'a'],
      ['"Escort"', 'an'],
      ['', 'a'],
    ];
    for (const [phrase, want] of cases) assert.equal(article(phrase), want, phrase);
    assert.equal(article('Escort', true), 'An');
  });
});

/** What reads wrong: an article that does not fit the next word, or a count with the wrong number. */
export function badEnglish(text: string): string[] {
  const found: string[] = [];
  // "a" (not "A." initials) before a word whose article is "an", and the reverse. Markdown marks
  // and quotes between the article and the word are skipped.
  for (const m of text.matchAll(/(?<![\p{L}\p{N}'’-])([Aa]n?) (?:[*_`"“]+)?([\p{L}\p{N}][\p{L}\p{N},'’-]*)/gu)) {
    const [whole, art, word] = m as unknown as [string, string, string];
    // "A" as a stat name or a weapon letter ("A — Energy", "A: 9/6") is not an article.
    if (art === 'A' && /^[—–-]|^:/.test(text.slice(m.index! + 2))) continue;
    const want = article(word);
    if (art.toLowerCase() !== want) found.push(`"${whole}" (should be "${want}")`);
  }
  // Misspelt plurals, and counts whose noun disagrees with the number.
  for (const m of text.matchAll(/\b\w+(?:ys|dies|ie?s)\b/g)) {
    if (/^(abilitys|entrys|dies|squadronss|abilitie|copys|factionss)$/i.test(m[0]) || /[^aeiou]ys$/i.test(m[0])) found.push(`"${m[0]}"`);
  }
  for (const m of text.matchAll(/(?<![\d.,/+×x-])\b1 (base|ability|slot|order|weapon system|entry|card|hit|point|unit|squadron|die)s\b/gi))
    found.push(`"${m[0]}"`);
  for (const m of text.matchAll(
    /(?<![\d.,/+×x-])\b(?:0|[2-9]|\d{2,}) (base|ability|ability slot|order|Order|weapon system|entry|card|hit|hull point|unit|squadron|die)\b(?! (?:slots?|systems?|points?|rolls?|of|dice)\b)/g,
  ))
    found.push(`"${m[0]}"`);
  return found;
}

describe('words: no message, hover or completion reads wrong', () => {
  it('the checker itself finds what the issue found', () => {
    assert.deepEqual(badEnglish('A Capital Ship has 2 abilitys'), ['"abilitys"']);
    assert.equal(badEnglish('A Escort has exactly 2 bases').length, 1);
    assert.equal(badEnglish('is a Iron Choir card').length, 1);
    assert.equal(badEnglish('an Cruiser').length, 1);
    assert.equal(badEnglish('1 bases').length, 1);
    assert.equal(badEnglish('2 ability').length, 1);
    assert.deepEqual(badEnglish('An Escort has exactly 2 bases; a Unity card; an 8" stick; 2 ability slots; A — Energy'), []);
  });

  const ROOT = path.join(__dirname, 'fixtures');
  const FACTIONS = ['Iron Choir', 'Umbral Host', 'Elder Court', 'Unity Compact', 'Myr Valari', 'Obsidian Reach'];
  const settings = resolveSettings({ referenceTarget: '' });

  function yamlFiles(dir: string): string[] {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [path.join(dir, e.name)] : []));
  }

  /** Every fixture folder as a workspace, with each file's text changed by `change`. */
  function variants(change: (text: string) => string): Workspace[] {
    return fs
      .readdirSync(ROOT, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => {
        const ws = new Workspace();
        for (const f of yamlFiles(path.join(ROOT, e.name))) ws.set(`file://${f}`, change(fs.readFileSync(f, 'utf8')));
        return ws;
      });
  }

  /** Every problem's message, and the hovers and completion details at the start of each key and value. */
  function texts(ws: Workspace): { codes: Set<string>; out: { where: string; text: string }[] } {
    const codes = new Set<string>();
    const out: { where: string; text: string }[] = [];
    for (const uri of ws.uris()) {
      const doc = ws.get(uri);
      if (!doc) continue;
      // What the language server reports: the checks, then the points-estimate notes.
      // (through the file's suppression comments, whose own notes are read too).
      for (const p of diagnose(doc, ws).problems) {
        codes.add(p.code);
        out.push({ where: `${path.basename(uri)} ${p.code}`, text: p.message });
      }
      const text = doc.text;
      for (const m of text.matchAll(/^(\s*(?:- )?)([\w ]+:)?\s*(\S)?/gm)) {
        const offsets = [m.index! + m[1]!.length, m[3] !== undefined ? m.index! + m[0].length - 1 : -1].filter((o) => o >= 0);
        for (const off of offsets) {
          const h = hover(doc, ws, off, settings);
          if (h) out.push({ where: `${path.basename(uri)} hover at ${off}`, text: h.markdown });
        }
      }
      for (const m of text.matchAll(/^\s*(class|bases|faction|unit|doctrine):\s*/gm)) {
        const list = complete(doc, ws, text, m.index! + m[0].length);
        for (const item of list.items)
          out.push({ where: `${path.basename(uri)} completion ${item.label}`, text: `${item.detail ?? ''} ${JSON.stringify(item.documentation ?? '')}` });
      }
      for (const lens of codeLenses(doc, ws, settings)) out.push({ where: `${path.basename(uri)} lens`, text: lens.title });
    }
    return { codes, out };
  }

  it('over every fixture, with each class and faction name', function () {
    this.timeout(120_000);
    const seen = new Set<string>();
    const bad: string[] = [];
    const runs: Workspace[] = [
      ...FACTIONS.flatMap((f) => variants((t) => t.replace(/^(\s*faction:\s*)(?!["'[{])[^#\n]*?(\s*(?:#.*)?)$/gm, `$1${f}$2`))),
      ...CLASS_NAMES.flatMap((c) => variants((t) => t.replace(/^(\s*class:\s*)(?!["'[{])[^#\n]*?(\s*(?:#.*)?)$/gm, `$1${c}$2`))),
      ...Object.keys(DOCTRINES).flatMap((d) => variants((t) => t.replace(/^(\s*doctrine:\s*)(?!["'[{])[^#\n]*?(\s*(?:#.*)?)$/gm, `$1${d}$2`))),
    ];
    for (const ws of runs) {
      const { codes, out } = texts(ws);
      for (const c of codes) seen.add(c);
      for (const { where, text } of out) for (const b of badEnglish(text)) bad.push(`${where}: ${b} in: ${text.slice(0, 200)}`);
    }
    assert.deepEqual([...new Set(bad)].slice(0, 30), []);
    // Every code's message was read (the fixtures hold one of each).
    assert.deepEqual(
      Object.keys(CODES).filter((c) => !seen.has(c)),
      [],
    );
  });
});

describe('points left of a limit: one wording for hover, lens, inlay hint, roster and the Fleet view', () => {
  it('says what is left, what is over, and when it is exact', () => {
    assert.equal(pointsLeft(5), '5 pts left');
    assert.equal(pointsLeft(-105), '105 pts over the limit');
    assert.equal(pointsLeft(0), 'exactly on the limit');
    assert.equal(pointsLeft(460, true), '460 left');
    assert.equal(pointsLeft(-3, true), '3 over');
    assert.equal(pointsLeft(0, true), 'exactly on the limit');
  });
});
