/**
 * Builds server/src/core/rules/ruletext.json from the rulebook (docs/rules/fabled-star-rulebook.txt, a
 * copy of ../shared/rules/fabled-star-rulebook.txt kept in the repo so that a fresh clone tests
 * anywhere; the tests check the two are the same wherever ../shared is present).
 *
 *   node --import=tsx scripts/build-ruletext.ts [RULEBOOK] [OUT]
 *
 * The packaged product bundles the JSON and never reads the rulebook, so this runs at development
 * time only and its output is committed. The parser is strict on purpose: when the rulebook's
 * layout changes in a way it does not understand, it stops and names the line, instead of
 * writing hover text with pieces missing. `buildRuleText` is exported so that the tests can
 * regenerate the JSON in memory and compare it with the committed file.
 *
 * The rulebook is plain text whose structure is carried by line shapes ("12Weapons & Weapon
 * Types", block headings, "• Q? A" bullets, the class card stat line), so a small line-based
 * parser is written here; no general-purpose parser knows this layout.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLASS_NAMES } from '../server/src/core/rules/data';
import type { UnitClass } from '../server/src/core/rules/data';
import type { CardItem, CardOrder, ChangelogEntry, ClassCardText, FaqItem, LoreChapter, RuleSection, RuleText } from '../server/src/core/rules/text';
import { runMain } from './generated-files';

export const RULEBOOK_PATH = path.resolve(__dirname, '../docs/rules/fabled-star-rulebook.txt');
/** Where the user keeps the rulebook, beside the repository; copy it to RULEBOOK_PATH when it changes. */
export const SHARED_RULEBOOK_PATH = path.resolve(__dirname, '../../shared/rules/fabled-star-rulebook.txt');
export const RULETEXT_PATH = path.resolve(__dirname, '../server/src/core/rules/ruletext.json');

/** The block headings of a section, in the order the rulebook prints them, and their JSON keys. */
export const BLOCKS = [
  ['Rule', 'rule'],
  ['In play', 'inPlay'],
  ['Example', 'example'],
  ['Designer note', 'designerNote'],
  ['FAQ', 'faq'],
] as const;

const SECTION_HEADER = /^(\d{1,3})(\S.*)$/;
const BULLET = /^•\s*(.*)$/;
/** "Cosmology · Before Reckoning": a lore subtitle (no sentence punctuation at the end). */
const LORE_SUBTITLE = /^[^.!?]+ · [^.!?]+$/;
const CARD_LINE = /^(.+?) · (\d+) pts · (\d+) bases? · (\d+) order slots? · (\d+) ability slots?$/;
const CHANGELOG_HEADER = /^v(.+?) — (.+)$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ENDS_SENTENCE = /[.!?:;"”)]$/;

interface Line {
  /** 1-based line number in the rulebook, for error messages. */
  no: number;
  text: string;
}

class RulebookFormatError extends Error {
  constructor(line: Line | undefined, message: string) {
    super(line ? `rulebook line ${line.no}: ${message} (${JSON.stringify(line.text.slice(0, 60))})` : `rulebook: ${message}`);
  }
}

function joinParagraphs(lines: readonly Line[]): string {
  return lines.map((l) => l.text).join('\n\n');
}

/**
 * Splits a card's "Orders:"/"Abilities:" list into items. Items are separated by ", ", but item
 * text has commas of its own ("when targeting a unit whose bases are 40mm or smaller, each ..."),
 * so a comma only separates items while the item so far is a bare name (no " — " outside
 * parentheses yet) or when it ends a sentence ("... against that attack., Combined Shields").
 */
export function splitCardItems(list: string): CardItem[] {
  const raw: string[] = [];
  let start = 0;
  let depth = 0;
  let hasDash = false;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && list.startsWith(' — ', i)) hasDash = true;
    else if (depth === 0 && c === ',' && list[i + 1] === ' ') {
      const sofar = list.slice(start, i);
      if (!hasDash || sofar.endsWith('.')) {
        raw.push(sofar);
        start = i + 2;
        hasDash = false;
      }
    }
  }
  raw.push(list.slice(start));
  return raw.map((item) => {
    const at = dashOutsideParens(item);
    return at < 0 ? { name: item } : { name: item.slice(0, at), text: item.slice(at + 3) };
  });
}

/** The index of the first " — " outside parentheses, or -1. */
function dashOutsideParens(s: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && s.startsWith(' — ', i)) return i;
  }
  return -1;
}

function toOrder(item: CardItem): CardOrder {
  const m = item.text ? /^LD Difficulty (\d+)(?:, Range (\d+)")?:/.exec(item.text) : null;
  if (!m) return item;
  const order: CardOrder = { ...item, difficulty: Number(m[1]) };
  if (m[2] !== undefined) order.range = Number(m[2]);
  return order;
}

/** Parses lore chapters: a title line, a subtitle line, then paragraphs until the next title. */
function parseLore(lines: readonly Line[], isSubtitle: (l: Line) => boolean): LoreChapter[] {
  const out: { title: Line; subtitle?: Line; paragraphs: Line[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const cur = out[out.length - 1];
    if (cur && !cur.subtitle) {
      cur.subtitle = l;
    } else if (!ENDS_SENTENCE.test(l.text) && (!cur || cur.paragraphs.length > 0) && lines[i + 1] !== undefined && isSubtitle(lines[i + 1]!)) {
      out.push({ title: l, paragraphs: [] });
    } else if (cur) {
      cur.paragraphs.push(l);
    } else {
      throw new RulebookFormatError(l, 'text before the first lore chapter title');
    }
  }
  return out.map((c) => {
    if (!c.subtitle || c.paragraphs.length === 0) throw new RulebookFormatError(c.title, 'lore chapter without subtitle or text');
    return { title: c.title.text, subtitle: c.subtitle.text, text: joinParagraphs(c.paragraphs) };
  });
}

function parseSection(header: Line, body: readonly Line[], number: number): RuleSection {
  const title = SECTION_HEADER.exec(header.text)![2]!;
  const [category, summary, ...rest] = body;
  if (!category || !summary) throw new RulebookFormatError(header, 'section without category and summary');
  const blocks = new Map<string, Line[]>();
  let current: Line[] | undefined;
  let expect = 0;
  for (const l of rest) {
    const heading = BLOCKS.findIndex(([h]) => h === l.text);
    if (heading >= 0) {
      if (heading !== expect) throw new RulebookFormatError(l, `expected the "${BLOCKS[expect]?.[0] ?? '(end)'}" block`);
      expect++;
      current = [];
      blocks.set(BLOCKS[heading]![1], current);
    } else if (!current) {
      throw new RulebookFormatError(l, 'text before the "Rule" block');
    } else {
      current.push(l);
    }
  }
  if (expect !== BLOCKS.length) throw new RulebookFormatError(header, `section ${number} lacks the "${BLOCKS[expect]![0]}" block`);
  const text = (key: string): string => {
    const ls = blocks.get(key)!;
    if (ls.length === 0) throw new RulebookFormatError(header, `section ${number}: empty block ${key}`);
    return joinParagraphs(ls);
  };
  const faq: FaqItem[] = blocks.get('faq')!.map((l) => {
    const m = BULLET.exec(l.text);
    const q = m ? m[1]!.indexOf('? ') : -1;
    if (!m || q < 0) throw new RulebookFormatError(l, 'FAQ item is not "• Question? Answer"');
    return { q: m[1]!.slice(0, q + 1), a: m[1]!.slice(q + 2) };
  });
  return {
    number,
    title,
    category: category.text,
    summary: summary.text,
    rule: text('rule'),
    inPlay: text('inPlay'),
    example: text('example'),
    designerNote: text('designerNote'),
    faq,
  };
}

function parseCard(nameLine: Line, statLine: Line, body: readonly Line[]): ClassCardText {
  const m = CARD_LINE.exec(statLine.text)!;
  const cls = CLASS_NAMES.find((c) => c === m[1]);
  if (!cls) throw new RulebookFormatError(statLine, `unknown class "${m[1]}"`);
  const description: Line[] = [];
  let orders: CardOrder[] = [];
  let abilities: CardItem[] = [];
  for (const l of body) {
    if (l.text.startsWith('Orders: ')) orders = splitCardItems(l.text.slice('Orders: '.length)).map(toOrder);
    else if (l.text.startsWith('Abilities: ')) abilities = splitCardItems(l.text.slice('Abilities: '.length));
    else if (orders.length > 0 || abilities.length > 0) throw new RulebookFormatError(l, 'card text after its Orders/Abilities lines');
    else description.push(l);
  }
  return {
    name: nameLine.text,
    class: cls as UnitClass,
    points: Number(m[2]),
    bases: Number(m[3]),
    orderSlots: Number(m[4]),
    abilitySlots: Number(m[5]),
    description: joinParagraphs(description),
    orders,
    abilities,
  };
}

function parseChangelog(lines: readonly Line[]): ChangelogEntry[] {
  const out: ChangelogEntry[] = [];
  for (let i = 0; i < lines.length;) {
    const head = lines[i]!;
    const m = CHANGELOG_HEADER.exec(head.text);
    const date = lines[i + 1];
    if (!m || !date || !ISO_DATE.test(date.text)) throw new RulebookFormatError(head, 'changelog entry is not "vVERSION — Title" then a date');
    const items: string[] = [];
    i += 2;
    for (; i < lines.length && BULLET.test(lines[i]!.text); i++) items.push(BULLET.exec(lines[i]!.text)![1]!);
    if (items.length === 0) throw new RulebookFormatError(head, 'changelog entry without items');
    out.push({ version: m[1]!, title: m[2]!, date: date.text, items });
  }
  return out;
}

/** Parses the rulebook text into the structure of ruletext.json. Throws RulebookFormatError, naming the line, on a layout it does not know. */
export function buildRuleText(rulebook: string, source = path.basename(RULEBOOK_PATH)): RuleText {
  const lines: Line[] = rulebook
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((text, i) => ({ no: i + 1, text: text.trim() }))
    .filter((l) => l.text !== '');
  const [titleLine, ...rest] = lines;
  if (!titleLine) throw new RulebookFormatError(undefined, 'empty rulebook');

  // Section headers run 1, 2, 3, ... in order; a line like "2026-07-30" never matches.
  const headers: number[] = [];
  for (let i = 0; i < rest.length; i++) {
    const m = SECTION_HEADER.exec(rest[i]!.text);
    if (m && Number(m[1]) === headers.length + 1 && /^\p{Lu}/u.test(m[2]!)) headers.push(i);
  }
  if (headers.length === 0) throw new RulebookFormatError(undefined, 'no numbered sections found');

  // The last section ends where its FAQ bullets end.
  const lastHeader = headers[headers.length - 1]!;
  const lastFaq = rest.findIndex((l, i) => i > lastHeader && l.text === 'FAQ');
  if (lastFaq < 0) throw new RulebookFormatError(rest[lastHeader], 'last section has no FAQ');
  let sectionsEnd = lastFaq + 1;
  while (sectionsEnd < rest.length && BULLET.test(rest[sectionsEnd]!.text)) sectionsEnd++;

  const sections = headers.map((start, k) => {
    const end = k + 1 < headers.length ? headers[k + 1]! : sectionsEnd;
    return parseSection(rest[start]!, rest.slice(start + 1, end), k + 1);
  });

  const lore = parseLore(rest.slice(0, headers[0]), (l) => LORE_SUBTITLE.test(l.text));

  const firstCard = rest.findIndex((l, i) => i >= sectionsEnd && CARD_LINE.test(rest[i + 1]?.text ?? ''));
  const changelogStart = rest.findIndex((l, i) => i >= sectionsEnd && CHANGELOG_HEADER.test(l.text) && ISO_DATE.test(rest[i + 1]?.text ?? ''));
  const cardsEnd = changelogStart < 0 ? rest.length : changelogStart;
  if (firstCard < 0) throw new RulebookFormatError(rest[sectionsEnd], 'no class cards after the sections');

  // After the sections come the two powers' chapters: title and subtitle lines carry no sentence
  // punctuation, their prose does.
  const factionLore = parseLore(rest.slice(sectionsEnd, firstCard), (l) => !ENDS_SENTENCE.test(l.text));

  const cardLines = rest.slice(firstCard, cardsEnd);
  const cardStarts = cardLines.flatMap((l, i) => (CARD_LINE.test(cardLines[i + 1]?.text ?? '') ? [i] : []));
  const classCards = cardStarts.map((start, k) => {
    const end = cardStarts[k + 1] ?? cardLines.length;
    return parseCard(cardLines[start]!, cardLines[start + 1]!, cardLines.slice(start + 2, end));
  });

  const changelog = changelogStart < 0 ? [] : parseChangelog(rest.slice(changelogStart));

  return { source, title: titleLine.text, lore, sections, factionLore, classCards, changelog };
}

/** The JSON text of a generated file: two-space indents and a final newline, stable across runs. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function main(): void {
  const [input = RULEBOOK_PATH, output = RULETEXT_PATH] = process.argv.slice(2);
  const data = buildRuleText(fs.readFileSync(input, 'utf8'), path.basename(input));
  fs.writeFileSync(output, formatJson(data));
  const faqs = data.sections.reduce((n, s) => n + s.faq.length, 0);
  console.log(
    `${path.relative(process.cwd(), output)}: ${data.sections.length} sections, ${faqs} FAQ items, ` +
      `${data.classCards.length} class cards, ${data.lore.length + data.factionLore.length} lore chapters, ` +
      `${data.changelog.length} changelog entries`,
  );
}

runMain(module, main);
