/**
 * One line of a posted list read as a unit: its bullet or count, its points, the units carried on
 * it ("A + B", "A (embarks B, C)", "A [250pts]: 2x B") and the host it rides on ("embarked on a cruiser").
 */
import type { Item } from './types';

export interface LineRead {
  indent: number;
  /** Whether the line is marked as a unit by a bullet, a count or a leading "+". */
  marked: boolean;
  /** Whether it gives points ("(250)", "[145]", "- 250 pts", a number at the end). */
  priced: boolean;
  /** A leading "+" (or "Embarked:"): an embarked unit of the entry above. */
  embarked: boolean;
  head: Item;
  /** `Name + Name` on the line: units embarked on the head. */
  carried: Item[];
  /** "embarked on a cruiser": the head rides on an entry of the list, named by its class or its card. */
  host?: string;
}

const COUNT_PREFIX = /^(?:(\d{1,4})\s*(?:[x\u00d7*]\s*|\s+(?=\D))|[x\u00d7]\s*(\d{1,4})\s+)/i;
const COUNT_SUFFIX = /\s*(?:\(\s*)?(?:[x\u00d7]\s*(\d{1,4})|(\d{1,4})\s*[x\u00d7](?=\s*\)))\s*\)?\s*$/i;
const COUNT_SUFFIX2 = /\s+(\d{1,4})\s*[x\u00d7]\s*$/i;
const POINTS_BRACKET = /\s*[([{]\s*(?:\d{1,3}(?:,\d{3})+|\d{1,6})(?:\+\?)?\s*(?:pts?\.?|points?)?\s*(?:each)?\s*[)\]}]/gi;
const POINTS_TAIL = /(?:\s+|\s*[-\u2013\u2014:@=,|]\s*)(?:\d{1,3}(?:,\d{3})+|\d{1,6}(?:\+\?)?|\?)\s*(?:ea\.?|each)?\s*$/;
const POINTS_WORD = /\s*[-\u2013\u2014:@=,|]?\s*(?:\d{1,3}(?:,\d{3})+|\d{1,6})\s*(?:pts?\.?|points?)(?![\p{L}\p{N}]).*$/iu;
/** A number of points as players write it: "1000", "1,000", "1.000", "2 000" (a no-break or thin space too). */
export const POINTS_NUMBER = String.raw`\d{1,3}(?:[,.\u00a0\u202f\u2009 ]\d{3})+(?!\d)|\d{2,6}`;
export const pointsValue = (s: string) => Number(s.replace(/\D/g, ''));
/** Bullets that are an emoji or a chat's `:shortcode:` ("\u{1F525} Oblivion Maw", ":rocket: Radiant Court"). */
export const EMOJI_BULLET = /^(?:(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|:[a-z0-9_+-]{1,40}:)[\ufe0e\ufe0f\u200d\u{1F3FB}-\u{1F3FF}]*\s*)+/iu;

/** Markers of our own exports after the name: " [Class] 250 pts (...)", " · Class · 250 pts". */
const CLASS_TAIL = /\s+\[[^\]]*\]\s+(?:\d+(?:\+\?)?|\?)\s*pts\b.*$/;
const DOT_TAIL = /\s+\u00b7\s+.*$/;
/** List bullets: "-", "*", "•", "◦", "▪", "●", "‣", "–", ">", "1.", "1)". */
export const BULLET = /^(?:[-*\u2022\u25e6\u25aa\u25cf\u2023\u2013>]|\d{1,3}[.)])\s+/;

/** A count and points stripped from one unit's text: "2x Name", "Name x2", "Name (x2)", "Name 250". */
function item(written: string): Item & { priced: boolean; counted: boolean } {
  let count = 1;
  let counted = false;
  let s = written.replace(/\s+/g, ' ');
  // "(2) Name", "[3] Name": a bracketed number under 10 before the name is a count, as after it.
  const lead = /^\s*[([]\s*([1-9])\s*[)\]]\s*(?=\S)/.exec(s);
  if (lead) {
    count = Number(lead[1]);
    counted = true;
    s = s.slice(lead[0].length);
  }
  // "Name (2)": a bracketed number under 10 is a count (no card costs so little), a bigger one is points.
  const small = counted ? null : /\s*[([]\s*([1-9])\s*[)\]]\s*$/.exec(s);
  let t = s;
  if (small && small.index > 0) {
    count = Number(small[1]);
    counted = true;
    t = t.slice(0, small.index);
  }
  t = t.replace(POINTS_BRACKET, ' ').replace(POINTS_WORD, '').trim();
  let priced = t !== s.trim() && !(counted && !lead);
  const countOf = () => {
    if (counted) return;
    let m = COUNT_PREFIX.exec(t);
    if (m && t.length > m[0].length) {
      count = Number(m[1] ?? m[2]);
      t = t.slice(m[0].length);
      counted = true;
    } else if ((m = COUNT_SUFFIX.exec(t)) && m.index > 0) {
      count = Number(m[1] ?? m[2]);
      t = t.slice(0, m.index);
      counted = true;
    } else if ((m = COUNT_SUFFIX2.exec(t)) && m.index > 0) {
      count = Number(m[1]);
      t = t.slice(0, m.index);
      counted = true;
    }
  };
  countOf();
  const tail = POINTS_TAIL.exec(t);
  if (tail && tail.index > 0 && /\p{L}/u.test(t.slice(0, tail.index))) {
    t = t.slice(0, tail.index);
    priced = true;
  }
  // "Name x2 - 290": the count comes before the points.
  countOf();
  return { name: t.trim(), count, priced, counted };
}

/**
 * Pieces of a ", "-separated list of units, joined back while the join names a card (a card's name
 * may itself hold ", "): "A, 2x B, C" -> ["A", "2x B", "C"].
 */
export function commaItems(s: string, known: (name: string) => boolean): string[] {
  const pieces = s.split(/\s*[,;]\s+|\s*,\s*(?=\d|\p{Lu})/u).filter((p) => p.trim());
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    let p = pieces[i]!;
    let j = i;
    while (j + 1 < pieces.length && !known(item(p).name) && known(item(`${p}, ${pieces.slice(i + 1, j + 2).join(', ')}`).name)) p = `${p}, ${pieces[++j]}`;
    i = j;
    out.push(p);
  }
  return out;
}

/** "A, B and C" after an embark marker: each piece a unit, when the whole does not name a card. */
function carriedItems(part: string, known: (name: string) => boolean): string[] {
  if (known(item(part).name)) return [part];
  return commaItems(part.replace(/\s+(?:and|&)\s+(?=\d|\p{L})/giu, ', '), known);
}

export function readLine(raw: string, known: (name: string) => boolean = () => false): LineRead {
  const indent = /^[ \t]*/.exec(raw)![0].replace(/\t/g, '    ').length;
  // One space for each run (tabs, no-break spaces): the patterns below with a space on both sides of
  // an optional mark backtrack over a long run, cubic in its length (a hang on one pasted line).
  let s = raw.trim().replace(/\s+/g, ' ');
  let marked = false;
  let embarked = false;
  // An emoji before the name is decoration, not a mark: a heading may wear one too.
  const emoji = EMOJI_BULLET.exec(s);
  if (emoji) s = s.slice(emoji[0].length);
  const bullet = BULLET.exec(s);
  if (bullet) {
    marked = true;
    s = s.slice(bullet[0].length);
  }
  // "+ Name", "\u21b3 Name", "Embarked: Name", and BattleScribe's ". Name" for a selection of the unit above.
  const plus = /^(?:\+\s*(?:embarked\s*:)?|\u21b3|embarked\s*:|embark\s*:|\.(?=\s+\p{L}))\s*/iu.exec(s);
  if (plus) {
    marked = true;
    embarked = true;
    s = s.slice(plus[0].length);
  }
  s = s
    .replace(/\\([\\`*_[\]{}<>()#+\-.!|~:@&=])/g, '$1')
    .replace(/^\*\*(.+?)\*\*/, '$1')
    .replace(/^__(.+?)__/, '$1')
    // Dot leaders of a list typed in columns: "Lumen Destroyer ....... 145".
    .replace(/\s*(?:\.{3,}|\u2026+)\s*(?=\S)/g, ' ');
  const before = s;
  s = s.replace(CLASS_TAIL, '').replace(DOT_TAIL, '');
  let priced = s !== before;
  // Embarked units on the entry's line: "A + B", "A w/ B", "A with B", "A, embarked: B", "A (+ B)", "A (+B, +C)".
  s = s.replace(/\s*\(\s*\+\s*([^()]*)\)/g, (_, inner: string) => ` + ${inner.split(/\s*,\s*\+?\s*/).join(' + ')}`);
  // "A (embarks 2x B, C)", "A [w/ B]", "A [B]": a bracket of cards after the name.
  // (One run of non-brackets, the letter checked after: a pattern with a letter in the middle backtracks on a long line.)
  s = s.replace(/[([]\s*(?:(?:embark(?:s|ed|ing)?|carrying|carries|with|w\/)\s*:?\s*)?([^()[\]]*)[)\]]/gu, (all: string, inner: string) =>
    /\p{L}/u.test(inner) && carriedItems(inner, known).every((p) => known(item(p).name)) ? ` + ${inner}` : all,
  );
  // BattleScribe's and New Recruit's "A [250pts]: 2x B, C": the unit's selections after a colon.
  const selections = /^(.+?)\s*:\s+(.+)$/.exec(s);
  if (selections && known(item(selections[1]!).name) && !known(item(s).name)) s = `${selections[1]} + ${selections[2]}`;
  // "Veilwing Fighters (60) embarked on a cruiser", "A (aboard the Lumen Cruiser)": the host is another entry of the list.
  let host: string | undefined;
  const on =
    /\s*[,;]?\s*\(?\s*\b(?:embark(?:ed|s|ing)?|carried|riding|aboard)\s+(?:(?:on(?:board)?|in|into|aboard)\s+)?(?:(?:a|an|the|my|one)\s+)?([^,;()]+?)\s*\)?\s*$/i.exec(
      s,
    );
  if (!embarked && on && on.index > 0 && /\p{L}/u.test(on[1]!) && !known(item(s).name)) {
    host = on[1]!.trim();
    s = s.slice(0, on.index);
  }
  const parts = s.split(/\s+\+\s+|\s*,?\s+(?:each\s+)?(?:w\/|w|with|carrying|embarking)\s+(?:an?\s+)?|\s*[,;]?\s+embark(?:ed|s)?\s*:\s*/i);
  // "Embarked: A, A, B" and "A carrying B, C and D": a list of the units carried.
  const pieces = embarked ? carriedItems(parts.join(' + '), known) : [parts[0] ?? ''];
  if (embarked && parts.length > 1) pieces.splice(0, pieces.length, ...parts.flatMap((p) => carriedItems(p, known)));
  const head = item(pieces[0] ?? '');
  const carried = [...pieces.slice(1), ...(embarked ? [] : parts.slice(1).flatMap((p) => carriedItems(p, known)))].map(item);
  if (head.counted) marked = true;
  if (head.priced || carried.some((c) => c.priced)) priced = true;
  return {
    indent,
    marked,
    priced,
    embarked,
    head: { name: head.name, count: head.count },
    carried: carried.map((c) => ({ name: c.name, count: c.count })),
    ...(host !== undefined ? { host } : {}),
  };
}
