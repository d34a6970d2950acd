/**
 * A roster written as text, read back into a fleet list (FORMATS.md, `import`): each of the
 * roster's own exports (text, markdown, the one line, JSON and the printable HTML), and lists as
 * players post them: `2x Name`, `2 x Name`, `Name x2`, `- Name`, `* Name`, `1. Name`,
 * `Name (250)`, `Name [145]`, `Name - 250 pts`, an embarked unit as an indented `+ Name` or
 * `Name + Name` on the entry's line; headings, totals and prose are passed over. Also what list
 * builders and chats add: BattleScribe / New Recruit's `Name [250pts]: 2x A, B`, a Fighter or
 * Bomber indented under its host, `Embarked: A, B`, markdown tables, a list on one line
 * (`A, B, C`), `(2) Name`, dot leaders, `1,000 pts`, plurals ("2 Maw Escort Packs"), names
 * without their accents or hyphens, quoted replies, emoji and `:shortcodes:`, pasted HTML and
 * lines a forum wrapped.
 *
 * Names match the cards of the workspace case-insensitively (and whatever the quotes, dashes,
 * spacing and markdown escapes). A line that names no card is reported with its line number and
 * the closest card (model/suggest.ts, the same bounded "did you mean" the checks use), never
 * dropped in silence: it goes into the fleet as a comment. Pure, linear in the text, never throws.
 */
import { linkText } from './link';
import type { Workspace } from '../workspace';
import { CLASS_NAMES, GAME_SIZES, LAUNCH_BAY, type UnitClass } from '../rules/data';
import { boundedDistance, nearest, prepare, SuggestBudget, SUGGEST_LIMITS, type Prepared } from '../model/suggest';
import { DIGEST_PATTERN } from './digest';
import { clean } from './clean';
import { candidatesNote, guessNote } from '../model/importNotes';
import { LIMITS } from '../model/limits';

export type ImportFormat = 'json' | 'html' | 'text' | 'markdown' | 'short' | 'post';

export interface ImportOptions {
  /** Used when the text names no faction (and to choose between factions that share a card name). */
  faction?: string;
  /** Used when the text names no fleet. */
  name?: string;
  /** Used when the text gives no points limit. */
  points?: number;
  /**
   * Take only what the text says: no default name, no points limit guessed from a game size, no
   * faction from the cards (verify.ts: the fleet as the roster wrote it, for its digest).
   */
  asWritten?: boolean;
}

export interface ImportedEntry {
  /** The card's name as the card spells it. */
  unit: string;
  count: number;
  /** Embarked units (each copy carries them), as the cards spell them. */
  embark: string[];
  /** 1-based line of the text the entry came from. */
  line: number;
  /** The unit's name as written, when no card has it and the entry is the closest card (a typo). */
  guess?: EntryGuess;
  /** The same for each embarked unit (parallel to `embark`; undefined where the name was a card's). */
  embarkGuess?: (EntryGuess | undefined)[];
}

/** A name read as the closest card: as written, and the other cards it might have meant. */
export interface EntryGuess {
  written: string;
  others: string[];
}

/** A name read as the closest card, for the report ("2: 1x Celestial Batleship (280): read as Celestial Battleship"). */
export interface ImportGuess extends EntryGuess {
  /** 1-based line. */
  line: number;
  /** The line as written (one line, cut to 200 characters). */
  text: string;
  /** The card taken. */
  unit: string;
}

export interface ImportProblem {
  /** 1-based line. */
  line: number;
  /** The line as written (one line, cut to 200 characters). */
  text: string;
  /** Why it could not be read ("no card of that name"). */
  why: string;
  /** The closest card's name, when one is close. */
  closest: string | undefined;
  /** The cards the line may mean, closest first (the first is `closest`), when a name is close to several. */
  candidates?: string[];
}

export interface ImportResult {
  format: ImportFormat;
  name: string;
  /** Where the name came from. */
  nameFrom: 'text' | 'option' | 'default';
  faction: string | undefined;
  factionFrom: 'text' | 'option' | 'cards' | 'none';
  points: number | undefined;
  pointsFrom: 'text' | 'option' | 'game size' | 'none';
  objectives: number | undefined;
  entries: ImportedEntry[];
  problems: ImportProblem[];
  /** Names no card has, each read as the one card it is clearly close to (a typo, a plural, a name cut short). */
  guesses: ImportGuess[];
  /** What the roster says about itself: its digest and rules version, when it carries them. */
  digest: string | undefined;
  rules: string | undefined;
  /** The fleet list, `*.fleet.yaml` text (LF line endings). */
  fleet: string;
}

/** Bounds that keep a hostile paste cheap: lines longer than this are cut before reading. */
export const IMPORT_LIMITS = {
  lineChars: 2000,
  problemText: 200,
  lines: 200_000,
  /** Plain lines searched for a card's name inside them (each search is over every card). */
  cardInside: 500,
} as const;

// ---------------------------------------------------------------------------------------------
// Names.

/** A name as compared: NFKC, lower case, one kind of quote and dash, markdown escapes and emphasis gone, one space. */
export function nameKey(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\\(.)/g, '$1')
    .replace(/[\u200b-\u200d\ufe0e\ufe0f]|\p{Extended_Pictographic}/gu, '')
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * A name as a player may misspell it and still mean one card: `nameKey`, and also no accents
 * ("Okami" for "\u014ckami"), a hyphen or an apostrophe as a space or left out ("Star Eater",
 * "Shavor"), and the last word's plural ("2 Maw Escort Packs"): tried only when the exact key
 * names no card, and only when it names one card name.
 */
function looseKeys(key: string): string[] {
  const k = key.normalize('NFD').replace(/\p{M}/gu, '').replace(/['"-]/g, '').replace(/\s+/g, '');
  const out = [k];
  if (/ies$/.test(key)) out.push(k.replace(/ies$/, 'y'));
  if (/(?:s|x|z|ch|sh)es$/.test(key)) out.push(k.replace(/es$/, ''));
  if (/[^s]s$/.test(key)) out.push(k.replace(/s$/, ''));
  return out;
}

interface Cards {
  /** Key -> cards of that name (several factions may share one). */
  byKey: Map<string, ImportCard[]>;
  /** Loose key (looseKeys' first) -> the names of the cards it may mean. */
  byLoose: Map<string, Set<string>>;
  prepared: Prepared[];
  /**
   * A card's name cut short ("Prism Frigate" for "Prism Frigate Squadron"): its first words (two or
   * more, fewer than all, not a faction's name), as `wordsKey` writes them -> the card's name.
   */
  byPrefix: Map<string, string[]>;
  factions: string[];
  /** Names looked up already, in this import (a post asks about the same pieces several times). */
  memo: Map<string, ImportCard[] | undefined>;
}

/** A card as the importer reads it: a `CardRef`'s summary, as plain data (the import may run on a worker thread). */
export interface ImportCard {
  name: string;
  faction: string;
  cls: string | undefined;
  points: number | undefined;
}

/** The cards a text is read against: every faction, and each faction's cards in the workspace's order. */
export interface ImportCards {
  factions: string[];
  cards: ImportCard[];
}

/** The workspace's cards as plain data (each card's summary only: a closed file is not parsed again). */
export function importCards(ws: Workspace): ImportCards {
  const factions = ws.factions();
  return { factions, cards: factions.flatMap((f) => ws.cardsOf(f).map((r) => ({ name: r.name, faction: r.faction, cls: r.cls, points: r.points }))) };
}

function cardsOf(src: ImportCards): Cards {
  const byKey = new Map<string, ImportCard[]>();
  const byLoose = new Map<string, Set<string>>();
  const names: string[] = [];
  const factions = src.factions;
  for (const ref of src.cards) {
    const k = nameKey(ref.name);
    if (!k) continue;
    const list = byKey.get(k);
    if (list) list.push(ref);
    else byKey.set(k, [ref]);
    const lk = looseKeys(k)[0]!;
    const set = byLoose.get(lk);
    if (set) set.add(k);
    else byLoose.set(lk, new Set([k]));
    names.push(ref.name);
  }
  const byPrefix = new Map<string, string[]>();
  const factionKeys = new Set(factions.map((f) => wordsKey(f)));
  for (const name of names) {
    const words = wordsKey(name).split(' ');
    for (let n = words.length - 1; n >= 2; n--) {
      const k = words.slice(0, n).join(' ');
      if (factionKeys.has(k) || byKey.has(k)) continue;
      const list = byPrefix.get(k);
      if (!list) byPrefix.set(k, [name]);
      else if (!list.includes(name) && list.length < 5) list.push(name);
    }
  }
  return { byKey, byLoose, byPrefix, prepared: prepare(names), factions, memo: new Map() };
}

/** A name's words only: `nameKey` without punctuation ("Prism Frigate Squadron (x2)" -> "prism frigate squadron x2"). */
function wordsKey(s: string): string {
  return nameKey(s)
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ')
    .trim();
}

/** The cards a name means: its exact key's, else its loose key's when that names one card name. */
function lookup(cards: Cards, name: string): ImportCard[] | undefined {
  if (cards.memo.has(name)) return cards.memo.get(name);
  const found = lookupKey(cards, name);
  if (cards.memo.size < 50_000) cards.memo.set(name, found);
  return found;
}

function lookupKey(cards: Cards, name: string): ImportCard[] | undefined {
  const key = nameKey(name);
  const exact = cards.byKey.get(key);
  if (exact || !key) return exact;
  for (const lk of looseKeys(key)) {
    const set = cards.byLoose.get(lk);
    if (set?.size === 1) return cards.byKey.get([...set][0]!);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Reading one line of a post.

interface Item {
  name: string;
  count: number;
}

interface LineRead {
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
const POINTS_NUMBER = String.raw`\d{1,3}(?:[,.\u00a0\u202f\u2009 ]\d{3})+(?!\d)|\d{2,6}`;
const pointsValue = (s: string) => Number(s.replace(/\D/g, ''));
/** Bullets that are an emoji or a chat's `:shortcode:` ("\u{1F525} Oblivion Maw", ":rocket: Radiant Court"). */
const EMOJI_BULLET = /^(?:(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|:[a-z0-9_+-]{1,40}:)[\ufe0e\ufe0f\u200d\u{1F3FB}-\u{1F3FF}]*\s*)+/iu;

/** Markers of our own exports after the name: " [Class] 250 pts (...)", " · Class · 250 pts". */
const CLASS_TAIL = /\s+\[[^\]]*\]\s+(?:\d+(?:\+\?)?|\?)\s*pts\b.*$/;
const DOT_TAIL = /\s+\u00b7\s+.*$/;

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
function commaItems(s: string, known: (name: string) => boolean): string[] {
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

function readLine(raw: string, known: (name: string) => boolean = () => false): LineRead {
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

// ---------------------------------------------------------------------------------------------
// The importer.

interface Draft {
  format: ImportFormat;
  rules?: string;
  name?: string;
  faction?: string;
  points?: number;
  objectives?: number;
  /** Each unit as written, with its line. */
  units: { name: string; count: number; embark: { name: string; line: number }[]; line: number; host?: string }[];
  /** Lines that look like units but could not be read as any. */
  unread: { line: number; text: string; why: string }[];
  /** Lines to look up loosely: a plain line may be a unit without a marker (closest card only when close). */
  loose: { line: number; text: string; name: string }[];
}

/**
 * The text's lines, each cut to `IMPORT_LIMITS.lineChars` (the patterns of a line stay cheap), with
 * the lines that were cut kept whole by line number (a list written on one line is read piece by
 * piece: `longPieces`), and whether the text has more lines than are read.
 */
interface Lines {
  all: string[];
  /** 1-based line -> the whole line, for each line longer than the limit. */
  long: Map<number, string>;
  /** Whether lines after `IMPORT_LIMITS.lines` were left unread. */
  more: boolean;
}

function lines(text: string): Lines {
  const all = text.split(/\r\n|\r|\n/, IMPORT_LIMITS.lines + 1);
  const more = all.length > IMPORT_LIMITS.lines;
  if (more) all.length = IMPORT_LIMITS.lines;
  const long = new Map<number, string>();
  for (let i = 0; i < all.length; i++)
    if (all[i]!.length > IMPORT_LIMITS.lineChars) {
      long.set(i + 1, all[i]!);
      all[i] = all[i]!.slice(0, IMPORT_LIMITS.lineChars);
    }
  return { all, long, more };
}

/**
 * A line longer than the limit cut into pieces of at most `IMPORT_LIMITS.lineChars` at its list
 * separators (", ", "; "), so that a list of 140 units on one line is read whole; undefined when a
 * piece between two separators is itself too long (that line is read up to the limit and said so).
 */
function longPieces(line: string): string[] | undefined {
  const max = IMPORT_LIMITS.lineChars;
  const out: string[] = [];
  let start = 0;
  while (line.length - start > max) {
    const window = line.slice(start, start + max + 1);
    const cut = Math.max(window.lastIndexOf(', '), window.lastIndexOf('; '));
    if (cut <= 0) return undefined;
    out.push(line.slice(start, start + cut));
    start += cut + 2;
  }
  out.push(line.slice(start));
  return out;
}

function decodeHtml(s: string): string {
  return decodeEntities(s.replace(/<[^>]*>/g, ''));
}

/** HTML's entities as the roster's renderer writes them (render.ts `esc`), and numeric ones, as characters. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#39|nbsp);/gi, (all, e: string) => {
    const k = e.toLowerCase();
    if (k.startsWith('#x')) return safeChar(parseInt(k.slice(2), 16), all);
    if (k.startsWith('#')) return safeChar(parseInt(k.slice(1), 10), all);
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' } as Record<string, string>)[k] ?? all;
  });
}

function safeChar(n: number, fallback: string): string {
  return Number.isFinite(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
}

function unescapeMd(s: string): string {
  return s.replace(/\\(.)/g, '$1').replace(/@\u200b/g, '@');
}

/** "970 / 1000 pts", "970/1000" -> 1000; "970 pts" -> undefined. */
function limitOf(s: string): number | undefined {
  const m = /(\d{1,7}(?:\+\?)?)\s*\/\s*(\d{1,7})\b/.exec(s);
  return m ? Number(m[2]) : undefined;
}

/** Our JSON export. */
function fromJson(text: string): Draft | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || t.length > 20_000_000) return undefined;
  let j: unknown;
  try {
    j = JSON.parse(t);
  } catch {
    return undefined;
  }
  if (!j || typeof j !== 'object' || !Array.isArray((j as { entries?: unknown }).entries)) return undefined;
  const o = j as { name?: unknown; faction?: unknown; limit?: unknown; objectives?: unknown; entries: unknown[] };
  const d: Draft = { format: 'json', units: [], unread: [], loose: [] };
  if (typeof o.name === 'string' && o.name) d.name = o.name;
  if (typeof o.faction === 'string' && o.faction) d.faction = o.faction;
  if (typeof o.limit === 'number') d.points = o.limit;
  if (typeof o.objectives === 'number') d.objectives = o.objectives;
  const rules = (o as { rules?: { version?: unknown } }).rules;
  if (rules && typeof rules.version === 'string') d.rules = rules.version;
  o.entries.forEach((e, i) => {
    const x = e as { unit?: unknown; count?: unknown; embarked?: unknown };
    if (!x || typeof x.unit !== 'string') {
      d.unread.push({ line: 1, text: `entries[${i}]`, why: 'an entry without a unit name' });
      return;
    }
    const embark = Array.isArray(x.embarked)
      ? x.embarked.flatMap((y) => (y && typeof (y as { name?: unknown }).name === 'string' ? [{ name: (y as { name: string }).name, line: 1 }] : []))
      : [];
    d.units.push({ name: x.unit, count: typeof x.count === 'number' ? x.count : 1, embark, line: 1 });
  });
  return d;
}

/** The HTML export's QR code, as qr.ts draws it on one line: nothing but its drawing and its label. */
const QR_LINE =
  /^<svg class="qr share" xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+" shape-rendering="crispEdges" role="img" aria-label="[^"<>&]*(?:&#39;[^"<>&]*)*"><rect width="\d+" height="\d+" fill="#fff"\/><path fill="#000" d="(?:M\d+ \d+h\d+v1h-\d+z)*"\/><\/svg>$/;

/** Our printable HTML export: the units table. */
function fromHtml(all: string[]): Draft | undefined {
  if (!all.some((l) => l.startsWith('<tr class="entry">'))) return undefined;
  const d: Draft = { format: 'html', units: [], unread: [], loose: [] };
  all.forEach((l, i) => {
    let m: RegExpExecArray | null;
    if ((m = /^<h1>(.*)<\/h1>$/.exec(l))) {
      const n = decodeHtml(m[1]!);
      if (n !== '(unnamed fleet)') d.name = n;
    } else if ((m = /^<p class="meta">(.*)<\/p>$/.exec(l))) {
      const f = decodeHtml(m[1]!.split(' · ')[0]!);
      if (f !== '(no faction)') d.faction = f;
      const obj = /\b(\d+) objectives?\b/.exec(m[1]!);
      if (obj) d.objectives = Number(obj[1]);
    } else if ((m = /^<p class="points[^"]*">(.*?)(?:<span|<\/p>)/.exec(l))) d.points = limitOf(decodeHtml(m[1]!));
    else if ((m = /^<tr class="entry"><td class="n">(\d+)<\/td><td><strong>(.*?)<\/strong><\/td>/.exec(l)))
      d.units.push({ name: decodeHtml(m[2]!), count: Number(m[1]), embark: [], line: i + 1 });
    else if ((m = /^<tr class="embarked"><td class="n"><\/td><td>\u21b3 (.*?)(?: <small>\(each copy\)<\/small>)?<\/td>/.exec(l))) {
      const last = d.units.at(-1);
      if (last) last.embark.push({ name: decodeHtml(m[1]!), line: i + 1 });
    }
  });
  return d;
}

/** Our plain-text export: a "Units" section of entries indented two spaces. */
function fromText(all: string[]): Draft | undefined {
  const units = all.indexOf('Units', 3);
  if (units < 0 || !all.includes('By class', units) || !/^Points: /.test(all[2] ?? '')) return undefined;
  const d: Draft = { format: 'text', units: [], unread: [], loose: [] };
  if (all[0] && all[0] !== '(unnamed fleet)') d.name = all[0];
  const meta = (all[1] ?? '').split(' · ');
  if (meta[0] && meta[0] !== '(no faction)') d.faction = meta[0];
  const obj = /\b(\d+) objectives?$/.exec(all[1] ?? '');
  if (obj) d.objectives = Number(obj[1]);
  d.points = limitOf(all[2]!);
  for (let i = units + 1; i < all.length && all[i] !== ''; i++) {
    const l = all[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^ {2}(?! )(?:(\d+)\u00d7 )?(.*) \[[^\]]*\] (?:\d+(?:\+\?)?|\?) pts\b/.exec(l)))
      d.units.push({ name: m[2]!, count: m[1] !== undefined ? Number(m[1]) : 1, embark: [], line: i + 1 });
    else if ((m = /^ {4}\+ embarked: (.*) \[[^\]]*\] (?:\d+|\?) pts$/.exec(l))) d.units.at(-1)?.embark.push({ name: m[1]!, line: i + 1 });
  }
  // Its shape but not its indentation (a forum trimmed the spaces): read as a post.
  if (d.units.length === 0 && all[units + 1]?.trim() && all[units + 1]!.trim() !== '(no units)') return undefined;
  return d;
}

/** Our markdown export: a "## Units" section of `- **Name** · Class · pts` items. */
function fromMarkdown(all: string[]): Draft | undefined {
  const units = all.indexOf('## Units');
  if (units < 0 || !/^# /.test(all[0] ?? '')) return undefined;
  const d: Draft = { format: 'markdown', units: [], unread: [], loose: [] };
  const name = unescapeMd(all[0]!.slice(2));
  if (name !== '(unnamed fleet)') d.name = name;
  for (let i = 1; i < units; i++) {
    const l = all[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^\*\*(\d+(?: \/ \d+)? pts)\*\*/.exec(l))) d.points = limitOf(m[1]!);
    else if ((m = /^\*\*(.*?)\*\* \u00b7 /.exec(l)) && d.faction === undefined) {
      const f = unescapeMd(m[1]!);
      if (f !== '(no faction)') d.faction = f;
      const obj = /\b(\d+) objectives?$/.exec(l);
      if (obj) d.objectives = Number(obj[1]);
    }
  }
  for (let i = units + 1; i < all.length && !/^## /.test(all[i]!); i++) {
    const l = all[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^- \*\*(?:(\d+)\u00d7 )?(.*)\*\* \u00b7 /.exec(l)))
      d.units.push({ name: unescapeMd(m[2]!), count: m[1] !== undefined ? Number(m[1]) : 1, embark: [], line: i + 1 });
    else if ((m = /^ *- Embarked: \*\*(.*)\*\* \u00b7 /.exec(l))) d.units.at(-1)?.embark.push({ name: unescapeMd(m[1]!), line: i + 1 });
  }
  const first = all.slice(units + 1).find((l) => l.trim());
  if (d.units.length === 0 && first !== undefined && first !== '- (no units)' && !/^## /.test(first)) return undefined;
  return d;
}

/** Our one-line roster: "Name (Faction): A 250, 2× B + C 160; 970/1000 · rules … · fs1-…". */
function fromShort({ all, long }: Lines, cards: Cards): Draft | undefined {
  const nonBlank = all.map((l, i) => [l.trim(), i] as const).filter(([l]) => l);
  if (nonBlank.length !== 1) return undefined;
  const at = nonBlank[0]![1];
  // A fleet of a hundred entries is longer than a line of a post may be: the whole line is read. Its
  // end is checked first, so that the pattern below (two spans that may backtrack) runs only on a roster's line.
  const l = long.get(at + 1)?.trim() ?? nonBlank[0]![0];
  if (l.length > IMPORT_LIMITS.lineChars && !/(?:^|; )(?:\d+ pts|\d+\/\d+)(?: \(\d+ errors?\))?(?: \u00b7 rules [^;]{0,300})?$/.test(l.slice(-400)))
    return undefined;
  const m = /^(?:(.*?): )?(?:(.*); )?(\d+ pts|\d+\/\d+)(?: \(\d+ errors?\))?(?: \u00b7 rules .*)?$/.exec(l);
  if (!m) return undefined;
  // A fleet's name may hold ": " itself ("Choir's Wake: Second (Kith'ra): ..."): the head ends at the
  // first ": " after a "(Faction)" the cards know, else at the first ": " before a card's name.
  if (m[1] !== undefined && m[2] !== undefined) {
    const line = `${m[1]}: ${m[2]}`;
    const factions = new Set(cards.factions.map(nameKey));
    const cuts: number[] = [];
    for (let i = line.indexOf(': '); i >= 0 && cuts.length < 50; i = line.indexOf(': ', i + 1)) cuts.push(i);
    const first = (body: string) => cards.byKey.has(nameKey(shortItem(body.split(', ')[0] ?? '').name));
    const cut =
      cuts.find((i) => {
        const f = /\(([^()]*)\)$/.exec(line.slice(0, i));
        return f !== null && factions.has(nameKey(f[1]!));
      }) ?? cuts.find((i) => first(line.slice(i + 2)));
    if (cut !== undefined) {
      m[1] = line.slice(0, cut);
      m[2] = line.slice(cut + 2);
    }
  }
  const d: Draft = { format: 'short', units: [], unread: [], loose: [] };
  const head = m[1] ?? '';
  const hm = /^(.*?)\s*\(([^()]*)\)$/.exec(head);
  if (hm) {
    if (hm[1]) d.name = hm[1];
    d.faction = hm[2];
  } else if (head) d.name = head;
  d.points = limitOf(m[3]!);
  // Items are ", "-separated and a carried unit follows " + ", but a card's name may hold either
  // ("Lance, Second", "Hammer + Anvil"): of the ways to cut the line into items, the one that names
  // the most cards, then (our export: every item ends with its points) leaves the fewest items
  // without points, then has the most items.
  const pieces = m[2] !== undefined ? m[2].split(', ') : [];
  const isCard = (n: string) => cards.byKey.has(nameKey(n));
  const ours = / \u00b7 rules /.test(l);
  const MAX_JOIN = 8;
  const score = (p: string): [number, number] => {
    const r = shortItem(p, isCard);
    return [[r, ...r.carried].filter((x) => isCard(x.name)).length, ours && !SHORT_POINTS.test(p) ? -1 : 0];
  };
  // best[i]: the best cut of the first i pieces, as [cards named, items without points (negated), items] and where its last item starts.
  const best: { v: [number, number, number]; from: number }[] = [{ v: [0, 0, 0], from: 0 }];
  const better = (a: [number, number, number], b: [number, number, number]) => (a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] > b[2]);
  for (let i = 1; i <= pieces.length; i++) {
    let pick: { v: [number, number, number]; from: number } | undefined;
    for (let j = i - 1; j >= Math.max(0, i - MAX_JOIN); j--) {
      const [k, bare] = score(pieces.slice(j, i).join(', '));
      const prev = best[j]!.v;
      const v: [number, number, number] = [prev[0] + k, prev[1] + bare, prev[2] + 1];
      if (!pick || better(v, pick.v)) pick = { v, from: j };
    }
    best.push(pick!);
  }
  const items: string[] = [];
  for (let i = pieces.length; i > 0; i = best[i]!.from) items.unshift(pieces.slice(best[i]!.from, i).join(', '));
  for (const p of items) {
    const r = shortItem(p, isCard);
    const embark: { name: string; line: number }[] = [];
    for (const c of r.carried) for (let k = 0; k < c.count; k++) embark.push({ name: c.name, line: at + 1 });
    d.units.push({ name: r.name, count: r.count, embark, line: at + 1 });
  }
  return d;
}

/** An item's points as rosterShort writes them: "250", "250+?", "?". */
const SHORT_POINTS = / (?:\d+(?:\+\?)?|\?)$/;

/**
 * One item of the one-line roster, as rosterShort writes it: "[N× ]Name[ + [k× ]Name]... POINTS".
 * With `isCard`, a name that holds " + " itself is one name: the longest run of parts that names a card.
 */
function shortItem(s: string, isCard?: (name: string) => boolean): Item & { carried: Item[] } {
  const body = s.replace(SHORT_POINTS, '');
  const parts = body.split(' + ');
  const counted = (p: string): Item => {
    const m = /^(\d+)\u00d7 (.*)$/.exec(p);
    return m ? { name: m[2]!, count: Number(m[1]) } : { name: p, count: 1 };
  };
  const groups: Item[] = [];
  for (let i = 0; i < parts.length;) {
    let j = i + 1;
    if (isCard)
      for (let k = Math.min(parts.length, i + 8); k > i + 1; k--)
        if (isCard(counted(parts.slice(i, k).join(' + ')).name)) {
          j = k;
          break;
        }
    groups.push(counted(parts.slice(i, j).join(' + ')));
    i = j;
  }
  return { ...(groups[0] ?? { name: '', count: 1 }), carried: groups.slice(1) };
}

/** A section of a list by the class of its units, or by its role ("Carriers - 645pts", "Small craft"). */
const SECTION_WORDS = new RegExp(
  `^(?:${[
    ...CLASS_NAMES,
    'capital',
    'capitals',
    'small craft',
    'squadrons?',
    'support',
    'line',
    'core',
    'hq',
    'command',
    'reserves?',
    'detachment',
    'escorts and small craft',
  ]
    .map((c) => c.toLowerCase() + (/s\?$|s$/.test(c) ? '' : 's?'))
    .join('|')})(?:\s+\d+)?$`,
);

/** A heading: markdown's, a rule, "Escorts:", or BattleScribe's "++ HQ ++" / "+ Escorts +". */
const HEADING = /^(?:#{1,6}\s|={3,}|-{3,}|_{3,}|\*{3,}|\++\s.*\s\++$)|:$/;
const TOTAL = /^(?:total|points|pts|grand total|sum|remaining|left)\b/i;
/** List bullets: "-", "*", "•", "◦", "▪", "●", "‣", "–", ">", "1.", "1)". */
const BULLET = /^(?:[-*\u2022\u25e6\u25aa\u25cf\u2023\u2013>]|\d{1,3}[.)])\s+/;
/**
 * Headings of the sections of a roster that list no units (this tool's exports, copied as rendered
 * text from a chat or a forum): their lines are passed over until a "Units" heading.
 */
const OTHER_SECTION = /^(?:by class|embarked units|command board|problems|unit cards|assumptions)$/i;
const UNITS_SECTION = /^(?:units|fleet|ships|list|army list|fleet list)$/i;
/** A card's details under its entry, as the exports print them (a stat line, weapons, orders, abilities). */
const CARD_DETAIL = /^(?:(?:weapons?|abilities|ability|orders?|stats)\s*:|M\s+\S+\s+\u00b7\s+BS\b)/i;

/**
 * A post's lines as plain text, one for one (the line numbers stay): HTML pasted from a forum's
 * source loses its tags and entities, a quoted reply its "> " marks, and a markdown table's rows
 * become "- 2x Name" (the header row says which column is the count; the rule row and the header
 * are passed over).
 */
function postLines(all: string[]): string[] {
  const html = all.some((l) => /<(?:li|p|br|div|ul|ol|strong|b|span|td)\b[^>]*>/i.test(l));
  let countCol = -1;
  return all.map((raw, i) => {
    let l = html ? decodeHtml(raw) : raw;
    l = l.replace(/^(\s*)(?:>\s?)+(?=\s*\S|$)/, '$1');
    if (!/^\s*\|.*\|\s*$/.test(l)) return l;
    const cells = (row: string) =>
      row
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim());
    if (/^\s*\|[\s:|-]*-[\s:|-]*\|\s*$/.test(l)) return '';
    const next = html ? decodeHtml(all[i + 1] ?? '') : (all[i + 1] ?? '');
    if (/^\s*\|[\s:|-]*-[\s:|-]*\|\s*$/.test(next)) {
      countCol = cells(l).findIndex((c) => /^(?:qty|quantity|count|copies|no\.?|#|x|n|number)$/i.test(postText(c)));
      return '';
    }
    const row = cells(l);
    const nameAt = row.findIndex((c, k) => k !== countCol && /\p{L}/u.test(c) && !/^\s*(?:\d[\d,]*\s*(?:pts?\.?|points?)?)\s*$/i.test(c));
    if (nameAt < 0) return '';
    const n = countCol >= 0 ? /^\s*(\d{1,4})\s*[x\u00d7]?\s*$/i.exec(postText(row[countCol] ?? '')) : null;
    return `- ${n ? `${n[1]}x ` : ''}${postText(row[nameAt]!)}`;
  });
}

/** A list as players post it. */
function fromPost({ all: written, long }: Lines, cards: Cards, near: (name: string) => boolean): Draft {
  const all = postLines(written);
  const d: Draft = { format: 'post', units: [], unread: [], loose: [] };
  const factionKeys = cards.factions.map((f) => [nameKey(f), f] as const).sort((a, b) => b[0].length - a[0].length);
  const known = (name: string) => lookup(cards, name) !== undefined;
  const smallCraft = (name: string) => (lookup(cards, name) ?? []).some((r) => LAUNCH_BAY.carrierCarries.includes(r.cls as UnitClass));
  let lastIndent = 0;
  let skipping = false;
  /** The last entry line read, when it was the line just before (for an indented line under it). */
  let last: { raw: string; line: number; complete: boolean } | undefined;
  /** Whether the fleet's name came from a line that names neither the faction nor the points (chat before the list). */
  let weakName = false;
  const firstLine = all.findIndex((l) => l.trim()) + 1;
  /** The faction and the points limit a heading line names, taken when not known yet. */
  const headerFacts = (t: string, line: number) => {
    const lk = nameKey(t.replace(/^#+\s*/, ''));
    const f =
      factionKeys.find(([k]) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRe(k)}(?:$|[^\\p{L}\\p{N}])`, 'u').test(lk)) ??
      // "Myr Valari", "myrvalari": the faction without its hyphen or spaces (a long enough name only).
      factionKeys.find(([k]) => looseKeys(k)[0]!.length >= 6 && looseKeys(lk)[0]!.includes(looseKeys(k)[0]!));
    if (f && !d.faction) d.faction = f[1];
    const pts =
      new RegExp(`(?<![\\d,.])(${POINTS_NUMBER})\\s*(?:pts?\\.?|points?)(?![\\p{L}\\p{N}])`, 'iu').exec(t) ??
      new RegExp(`\\/\\s*(${POINTS_NUMBER})\\b`, 'u').exec(t) ??
      // "The Long Hunger [2000]", "Radiant Vanguard (2000)": a bracketed number in a heading.
      new RegExp(`[([]\\s*(${POINTS_NUMBER})\\s*[)\\]]`, 'u').exec(t) ??
      (f ? new RegExp(`(?:^|[\\s,(\\[/-])(${POINTS_NUMBER})(?:$|[\\s,)\\]])`, 'u').exec(t.replace(/\d+x\b/gi, '')) : null);
    // "consumed 1k", "2K game".
    const kilo = pts ? null : /(?:^|[\s,([/-])([12])\s*k(?:\s*(?:pts?|points?|game))?(?=$|[\s,)\]])/i.exec(t);
    // A section's subtotal ("Detachment 1 (730 pts)") is not the limit: only a game size is, or what the first line says.
    const value = pts ? pointsValue(pts[1]!) : kilo ? Number(kilo[1]) * 1000 : undefined;
    if (value !== undefined && d.points === undefined && (line === firstLine || GAME_SIZES.some((g) => g.points === value))) d.points = value;
    return { f, pts };
  };
  const handle = (raw: string, line: number): void => {
    // Emoji and :shortcodes: around a line are decoration (":rocket: **The Hunger Within** :rocket:").
    const trimmed = raw
      .trim()
      .replace(/\s+/g, ' ')
      .replace(EMOJI_BULLET, '')
      .replace(/(?:\s+(?:\p{Extended_Pictographic}|:[a-z0-9_+-]{1,40}:)[\ufe0e\ufe0f\u200d]*)+$/iu, '')
      .trim();
    if (!trimmed || DIGEST_PATTERN.test(trimmed) || /^rules:/i.test(trimmed)) {
      if (!trimmed) last = undefined;
      return;
    }
    const bare = postText(trimmed.replace(BULLET, ''));
    if (OTHER_SECTION.test(bare)) {
      skipping = true;
      return;
    }
    if (UNITS_SECTION.test(bare.replace(/:$/, ''))) {
      skipping = false;
      return;
    }
    if (skipping || CARD_DETAIL.test(bare)) return;
    // "Total: 970/1000" anywhere gives the limit when nothing before did.
    if (TOTAL.test(trimmed) && d.points === undefined) d.points = limitOf(trimmed);
    const banner = /^\++\s(.*)\s\++$/.exec(trimmed);
    if (banner) {
      // BattleScribe's "++ Myr-Valari Standard (1000pts) ++": a faction and a limit, never a unit or the name.
      if (d.units.length === 0) headerFacts(banner[1]!, line);
      last = undefined;
      return;
    }
    let r = readLine(raw, known);
    // A card whose name itself ends in a number or holds a count-like word ("Lancer 2") reads as the whole line.
    const whole = trimmed.replace(/^(?:[-*\u2022]|\d{1,3}[.)])\s+/, '');
    if (!known(r.head.name) && known(whole))
      r = { indent: r.indent, marked: true, priced: false, embarked: false, head: { name: whole, count: 1 }, carried: [] };
    const key = nameKey(r.head.name);
    const isCard = known(r.head.name);
    // A line wrapped by the forum ("... carrying Veilwing Fighter Wing, Veilwing" / "  Fighter Wing, ..."):
    // an indented line, unmarked and naming no card, under an entry that did not read whole, continues it.
    if (
      last &&
      !last.complete &&
      !isCard &&
      !r.marked &&
      r.indent > 0 &&
      d.units.at(-1)?.line === last.line &&
      last.raw.length + trimmed.length < IMPORT_LIMITS.lineChars
    ) {
      const joined = `${last.raw.trimEnd()} ${trimmed}`;
      const at = last.line;
      d.units.pop();
      last = undefined;
      handle(joined, at);
      return;
    }
    // "my 500: A + B, C, D": units on one line, ", "-separated (a heading before a colon).
    if (!isCard && !r.embarked) {
      const body = /^(?:[^:]*:\s+)?([^]*)$/.exec(trimmed)![1]!;
      const items = commaItems(body, known);
      // Not a sentence that names cards ("Radiant Court, what do you think?").
      if (items.length > 1 && !/[.?!]$/.test(body) && items.some((p) => known(readLine(p, known).head.name))) {
        // The words before the colon are the list's heading ("Lantern Watch (Myr-Valari, 1000): ...").
        if (body !== trimmed && d.units.length === 0) handle(trimmed.slice(0, trimmed.length - body.length).replace(/:\s*$/, ''), line);
        for (const p of items) handle(p, line);
        last = undefined;
        return;
      }
    }
    const prev = d.units.at(-1);
    // Before the first unit, a line with points but no bullet or count is a heading ("My list - 1000 pts").
    if (isCard || r.marked || (r.priced && d.units.length > 0)) {
      if (!key || !/\p{L}/u.test(key)) return;
      if (TOTAL.test(key) && !isCard) return;
      if (!isCard && HEADING.test(trimmed)) return;
      // "Detachment 2: Pack (270 pts)", "Carriers - 645pts": a section's heading with its subtotal, not a unit.
      if (!isCard && !r.marked && (/^[^:]+:\s/.test(r.head.name) || SECTION_WORDS.test(nameKey(r.head.name)))) {
        last = undefined;
        return;
      }
      // An embarked unit: "+ Name", or a Fighter or Bomber indented under the entry just above ("  - 2x Veilwing Fighter Wing").
      const under = prev !== undefined && last !== undefined && r.indent > lastIndent;
      const embarkedHere =
        r.host === undefined && (r.embarked || (under && /^\s*\+/.test(raw)) || (under && smallCraft(r.head.name) && !smallCraft(prev.name)));
      if (embarkedHere && prev) {
        for (const c of [r.head, ...r.carried]) for (let k = 0; k < c.count; k++) prev.embark.push({ name: c.name, line });
        return;
      }
      const embark: { name: string; line: number }[] = [];
      for (const c of r.carried) for (let k = 0; k < c.count; k++) embark.push({ name: c.name, line });
      d.units.push({ name: r.head.name, count: r.head.count, embark, line, ...(r.host !== undefined ? { host: r.host } : {}) });
      lastIndent = r.indent;
      last = { raw, line, complete: isCard && r.carried.every((c) => known(c.name)) };
      return;
    }
    last = undefined;
    // Not a unit line: the fleet's name, faction or limit when before the units; otherwise a note.
    if (d.units.length === 0) {
      const labelled = /^(?:fleet|list|name|(?:fleet|list|army|roster)\s+name)\s*:\s*(.+)$/i.exec(trimmed);
      const fl = /^faction\s*:\s*(.+)$/i.exec(trimmed);
      if (fl) {
        d.faction ??= fl[1]!.trim();
        return;
      }
      // A tournament sheet's other fields ("Player: Jenny K.", "Event: ...") name neither the fleet nor its units.
      if (/^(?:player|author|by|event|date|club|round|opponent|mission|scenario|game|email|e-mail|team|discord)\s*:/i.test(trimmed)) return;
      const limit = /^(?:points|pts|limit|points limit|game size|size)\s*:\s*([\d,. \u00a0]+)\s*(?:pts?\.?|points?)?$/i.exec(trimmed);
      if (limit) {
        d.points ??= pointsValue(limit[1]!);
        return;
      }
      const { f, pts } = headerFacts(trimmed, line);
      if (labelled) {
        // A name the text labels wins over one guessed from a line of chat.
        // The quotes around it ("Fleet: \"Veil & Shadow\"") mark the name, they are not part of it.
        if (d.name === undefined || weakName) {
          const name = postText(labelled[1]!);
          const quoted = /^"([^"]+)"$|^\u201c([^\u201c\u201d]+)\u201d$|^\u00ab([^\u00ab\u00bb]+)\u00bb$|^'([^']+)'$/u.exec(name);
          d.name = quoted
            ? quoted
                .slice(1)
                .find((x) => x !== undefined)!
                .trim()
            : name;
        }
        weakName = false;
        return;
      }
      // A unit misspelt, with no bullet or count, before the first one read: reported, not taken for the name.
      // So is a line that holds a card's name among other words, after the name ("Shardlight Escort (2x)"),
      // or after a heading that gave the faction or the limit but no name ("Myr-Valari 1000" then
      // "Lumen Cruiser 190 (magnetised)"): taken for the name, that unit was lost without a word.
      const afterHeading = d.name !== undefined || (line !== firstLine && (d.faction !== undefined || d.points !== undefined));
      // And a line that starts with a card's name and then its points ("Lumen Cruiser 190 (magnetised)",
      // "Lumen Cruiser x2 - 380/1000"), first or after a heading: a unit with a note, never the fleet's name.
      const unitFirst = !f && cardFirst(trimmed, cards) && /^\S[^\d]*\s(?:x\s*)?\d/i.test(trimmed.replace(/^[\s\-*\u2022]+/, ''));
      if (
        unitFirst ||
        (!f && !HEADING.test(trimmed) && (near(r.head.name) || (!pts && afterHeading && !/[.?!:]\s*$/.test(trimmed) && cardInside(trimmed, cards))))
      ) {
        d.loose.push({ line, text: trimmed, name: r.head.name });
        return;
      }
      if ((d.name !== undefined && !(weakName && f)) || /:$|^(?:={3,}|-{3,}|_{3,}|\*{3,})$/.test(trimmed)) return;
      // The name is what is left of the line without the faction and the points: "Radiant Vanguard (Myr-Valari) - 1000 pts".
      let rest = postText(trimmed)
        .replace(EMOJI_BULLET, '')
        .replace(/\s(?:\p{Extended_Pictographic}|:[a-z0-9_+-]{1,40}:)[\ufe0e\ufe0f\u200d]*(?=\s|$)/giu, ' ');
      if (pts)
        rest = rest.replace(new RegExp(`[-\\u2013\\u2014:@|,([]*\\s*(?:\\d{1,6}\\s*\\/\\s*)?(?:${POINTS_NUMBER})\\s*(?:pts?\\.?|points?)?[)\\]]?`, 'giu'), ' ');
      if (f) rest = rest.replace(new RegExp(escapeRe(f[1]).replace(/\\? /g, '\\s+').replace(/-/g, '[-\\u2010\\u2011]'), 'iu'), ' ');
      rest = rest
        .replace(/\(\s*[,;]?\s*\)|\[\s*\]/g, ' ')
        .replace(/^[\s\-\u2013\u2014:|,/\u00b7)\]]+|[\s\-\u2013\u2014:|,/\u00b7([]+$/g, '')
        .replace(/\s+/g, ' ')
        // "Lantern Watch - tournament list, feedback welcome!": the name is before the chatter.
        .split(/\s*[,!?;]\s+|[!?]$|\s+[-\u2013\u2014]\s+|\s+\/\/\s+/)[0]!
        .replace(/^["\u201c\u201d\u00ab\u00bb']+|["\u201c\u201d\u00ab\u00bb']+$/g, '')
        .trim();
      if (
        rest &&
        /\p{L}/u.test(rest) &&
        !TOTAL.test(rest) &&
        !/^(?:my\s+)?(?:list|fleet|army|build|roster)$/i.test(rest) &&
        !/^my\s+\d+\s*(?:pts?|points?|k)?$/i.test(rest)
      ) {
        if (d.name !== undefined && !f) return;
        d.name = rest;
        weakName = !f;
      }
      return;
    }
    if (HEADING.test(trimmed) || TOTAL.test(key) || !/\p{L}/u.test(key)) return;
    d.loose.push({ line, text: trimmed, name: r.head.name });
  };
  all.forEach((raw, i) => {
    const whole = long.get(i + 1);
    const pieces = whole === undefined ? undefined : longPieces(whole);
    if (whole !== undefined && !pieces)
      d.unread.push({
        line: i + 1,
        text: raw,
        why: `the line is ${whole.length} characters long: only its first ${IMPORT_LIMITS.lineChars} were read (write one unit a line, or separate them with ", ")`,
      });
    if (pieces) for (const p of pieces) handle(postLines([p])[0]!, i + 1);
    else handle(raw, i + 1);
  });
  return d;
}

/** Text of a posted heading: no heading marks, emphasis or markdown escapes. */
function postText(s: string): string {
  return s
    .replace(/^#+\s*/, '')
    .replace(/\*\*|__/g, '')
    .replace(/\\([\\`*_[\]{}<>()#+\-.!|~:@&=])/g, '$1')
    .trim();
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------
// Writing the fleet.

/** The longest card name inside a line, at word boundaries (bounded: a line is cut to IMPORT_LIMITS.lineChars). */
/** Whether the text starts with a card's whole name (letter case, quotes and spacing aside). */
function cardFirst(text: string, cards: Cards): boolean {
  const k = `${nameKey(text)
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ')
    .trim()} `;
  for (const key of cards.byKey.keys()) if (key.length >= 4 && k.startsWith(`${key.replace(/[^\p{L}\p{N}'-]+/gu, ' ')} `)) return true;
  return false;
}

function cardInside(text: string, cards: Cards): string | undefined {
  const k = ` ${nameKey(text).replace(/[^\p{L}\p{N}'-]+/gu, ' ')} `;
  let best: ImportCard | undefined;
  for (const [key, refs] of cards.byKey)
    if (key.length >= 4 && (!best || key.length > best.name.length) && k.includes(` ${key.replace(/[^\p{L}\p{N}'-]+/gu, ' ')} `)) best = refs[0];
  return best?.name;
}

/**
 * "Veilwing Fighters embarked on a cruiser": each entry read with a host goes aboard the entry it
 * names, by its card's class ("a cruiser") or its card ("the Lumen Cruiser", "the Cruiser"), the first
 * such entry of the list that is not itself aboard another. One copy of a host of several copies
 * takes them (the entry is split in two: the others fly without). A host the list does not hold is
 * said, and the unit stays an entry of its own.
 */
function embarkOnHosts(
  entries: (ImportedEntry & { host?: string })[],
  pick: (name: string) => ImportCard | undefined,
  report: (line: number, why: string) => void,
): void {
  const singular = (k: string) => new Set([k, k.replace(/ies$/, 'y'), k.replace(/([^s])s$/, '$1')]);
  for (let i = 0; i < entries.length; i++) {
    const rider = entries[i]!;
    if (rider.host === undefined) continue;
    const host = rider.host;
    delete rider.host;
    const forms = singular(wordsKey(host).replace(/^(?:a|an|the|my|one)\s+/, ''));
    const fits = (e: ImportedEntry, how: 'class' | 'name') => {
      const cls = wordsKey(pick(e.unit)?.cls ?? '');
      const name = wordsKey(e.unit);
      return how === 'class' ? forms.has(cls) : forms.has(name) || [...forms].some((f) => name.endsWith(` ${f}`));
    };
    const free = (e: ImportedEntry & { host?: string }, j: number) => j !== i && e.host === undefined;
    let at = entries.findIndex((e, j) => free(e, j) && fits(e, 'name'));
    if (at < 0) at = entries.findIndex((e, j) => free(e, j) && fits(e, 'class'));
    if (at < 0) {
      report(rider.line, `embarked on "${host.slice(0, 60)}", but no entry of the list is one: read as an entry of its own`);
      continue;
    }
    let target = entries[at]!;
    if (target.count > 1) {
      target.count--;
      const one: ImportedEntry = { ...target, count: 1, embark: [...target.embark] };
      if (target.embarkGuess) one.embarkGuess = [...target.embarkGuess];
      entries.splice(at + 1, 0, one);
      target = one;
      if (at < i) i++;
    }
    for (let k = 0; k < rider.count; k++) {
      target.embark.push(rider.unit);
      if (rider.guess || target.embarkGuess) (target.embarkGuess ??= target.embark.slice(0, -1).map(() => undefined)).push(rider.guess);
    }
    entries.splice(i, 1);
    i--;
  }
}

/** A YAML scalar: plain when it reads back as the same string, else double-quoted (JSON's escapes are YAML's). */
export function yamlScalar(s: string): string {
  const plain =
    /^[\p{L}\p{N}][\p{L}\p{N} '()&.,/-]*$/u.test(s) &&
    !/[ ]$/.test(s) &&
    !/^(?:true|false|yes|no|on|off|null|~|y|n)$/i.test(s) &&
    !/^[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+|0x[0-9a-f]+|0o[0-7]+|\.inf|\.nan)$/i.test(s) &&
    !/:\s|\s#/.test(s);
  return plain ? s : JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function comment(s: string): string {
  return clean(s).slice(0, IMPORT_LIMITS.problemText);
}

function writeFleet(r: Omit<ImportResult, 'fleet'>): string {
  const out: string[] = [`# Imported from a roster (${r.format === 'post' ? 'a posted list' : `the ${r.format} export`}) by fabled-star import.`];
  for (const p of r.problems) {
    const near = p.candidates ?? (p.closest !== undefined ? [p.closest] : []);
    out.push(`# line ${p.line}: ${comment(p.text)} (${p.why}${near.length ? `; ${candidatesNote(near.map(comment))}` : ''})`);
  }
  out.push(`name: ${yamlScalar(r.name)}`);
  if (r.faction !== undefined) out.push(`faction: ${yamlScalar(r.faction)}`);
  else out.push('# faction: the text names none and its units name no card; give --faction NAME');
  if (r.points !== undefined)
    out.push(`points: ${r.points}${r.pointsFrom === 'game size' ? ' # the text gives no limit: the smallest game size that holds the units' : ''}`);
  if (r.objectives !== undefined) out.push(`objectives: ${r.objectives}`);
  if (r.entries.length === 0) out.push('units: []');
  else out.push('units:');
  // A name read as the closest card says so on its line (check/fleet.ts warns there, with the other candidates as fixes).
  const note = (g: EntryGuess | undefined) => (g ? ` # ${guessNote(comment(g.written), g.others.map(comment))}` : '');
  for (const e of r.entries) {
    out.push(`  - unit: ${yamlScalar(e.unit)}${note(e.guess)}`);
    if (e.count !== 1) out.push(`    count: ${e.count}`);
    if (e.embark.length) {
      out.push('    embark:');
      e.embark.forEach((x, i) => out.push(`      - ${yamlScalar(x)}${note(e.embarkGuess?.[i])}`));
    }
  }
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------

/** Reads a roster or a posted list; the fleet list and what could not be read. */
export function importRoster(text: string, from: Workspace | ImportCards, opts: ImportOptions = {}): ImportResult {
  const cards = cardsOf(Array.isArray((from as ImportCards).cards) ? (from as ImportCards) : importCards(from as Workspace));
  // A `fabledstar:` link is the one line, percent-encoded (link.ts).
  const src = linkText(text.replace(/^\ufeff/, ''));
  const read = lines(src);
  const { all } = read;
  const budget = new SuggestBudget();
  // A plain line may be a unit written without a marker: reported when a card is close.
  // No bonus for a name inside a card's ("Escorts" is a heading, not "Shardlight Escort"), and a tighter bound.
  // A card's name cut short on its own line is a unit too ("Prism Frigate" for "Prism Frigate Squadron").
  const closeTo = (name: string): string | undefined =>
    nearest(name, cards.prepared, {
      n: 1,
      bonus: 0,
      allowed: () => Math.max(2, Math.floor(Math.min(name.trim().length, SUGGEST_LIMITS.chars) / 5)),
      budget,
    })[0] ?? cards.byPrefix.get(wordsKey(name))?.[0];
  const draft =
    fromJson(src) ??
    fromHtml(all) ??
    fromText(all) ??
    fromMarkdown(all) ??
    fromShort(read, cards) ??
    fromPost(read, cards, (name) => closeTo(name) !== undefined);

  // The faction: the text's, else the option's, else the one most of the named cards belong to.
  let faction = draft.faction !== undefined ? clean(draft.faction) : undefined;
  let factionFrom: ImportResult['factionFrom'] = faction !== undefined ? 'text' : 'none';
  if (faction === undefined && opts.faction !== undefined) {
    faction = opts.faction;
    factionFrom = 'option';
  }
  if (faction !== undefined) {
    const f = nameKey(faction);
    // "myr valari" for Myr-Valari: the faction as the cards spell it, whatever the case, hyphens or accents.
    const known = cards.factions.find((x) => nameKey(x) === f) ?? cards.factions.find((x) => looseKeys(nameKey(x))[0] === looseKeys(f)[0]);
    if (known) faction = known;
  } else if (!opts.asWritten) {
    const votes = new Map<string, number>();
    for (const u of draft.units) for (const ref of lookup(cards, u.name) ?? []) votes.set(ref.faction, (votes.get(ref.faction) ?? 0) + Math.max(1, u.count));
    const best = [...votes].sort((a, b) => b[1] - a[1])[0];
    if (best) {
      faction = best[0];
      factionFrom = 'cards';
    }
  }
  const pick = (name: string): ImportCard | undefined => {
    const list = lookup(cards, name);
    if (!list?.length) return undefined;
    return (faction !== undefined ? list.find((r) => nameKey(r.faction) === nameKey(faction)) : undefined) ?? list[0];
  };

  const problems: ImportProblem[] = [];
  const problemAt = (line: number, textOf: string, why: string, near: string | undefined, candidates?: string[]) =>
    problems.push({
      line,
      text: comment(textOf).slice(0, IMPORT_LIMITS.problemText),
      why,
      closest: candidates?.[0] ?? near,
      ...(candidates && candidates.length ? { candidates } : {}),
    });
  const lineText = (n: number) => (draft.format === 'json' ? '' : (all[n - 1] ?? ''));
  for (const u of draft.unread) problemAt(u.line, u.text, u.why, undefined);

  /**
   * A name no card has: the card it clearly means, and the cards it may mean (closest first). Clear
   * is a name cut short or a plural of the first words of one card's name ("Veilwing Fighters" for
   * "Veilwing Fighter Wing"), or one card within a typo's edit distance (a quarter of the name's
   * letters, at least 2) with no other within 2 more edits ("Celestial Batleship"). The distance is
   * suggest.ts's bounded one (the checks' "did you mean"), so a hostile paste stays cheap.
   */
  const guessed = new Map<string, { take?: ImportCard; candidates: string[] }>();
  const guessCard = (name: string): { take?: ImportCard; candidates: string[] } => {
    let g = guessed.get(name);
    if (!g) {
      g = guessOnce(name);
      if (guessed.size < 50_000) guessed.set(name, g);
    }
    return g;
  };
  const guessOnce = (name: string): { take?: ImportCard; candidates: string[] } => {
    const generous = () =>
      nearest(name, cards.prepared, {
        n: 3,
        bonus: 2 * SUGGEST_LIMITS.chars + 1,
        allowed: () => Math.max(3, Math.ceil(Math.min(name.trim().length, SUGGEST_LIMITS.chars) / 2)),
        budget,
      });
    if (opts.asWritten) return { candidates: generous() };
    const key = wordsKey(name);
    for (const k of new Set([key, key.replace(/ies$/, 'y'), key.replace(/(s|x|z|ch|sh)es$/, '$1'), key.replace(/([^s])s$/, '$1')])) {
      const list = cards.byPrefix.get(k);
      if (list) return list.length === 1 ? { take: pick(list[0]!), candidates: list } : { candidates: list.slice(0, 3) };
    }
    const q = name.trim().toLowerCase().slice(0, SUGGEST_LIMITS.chars);
    const allowed = Math.max(2, Math.floor(q.length / 4));
    const near = nearest(name, cards.prepared, { n: 3, bonus: 0, allowed: () => allowed, budget });
    if (near.length) {
      const d = near.map((c) => boundedDistance(q, c.toLowerCase().slice(0, SUGGEST_LIMITS.chars), allowed + 2, budget));
      if (near.length === 1 || d[1]! - d[0]! >= 2) return { take: pick(near[0]!), candidates: near };
      return { candidates: near };
    }
    return { candidates: generous() };
  };
  const guesses: ImportGuess[] = [];

  const entries: (ImportedEntry & { host?: string })[] = [];
  for (const u of draft.units) {
    let ref = pick(u.name);
    let guess: EntryGuess | undefined;
    if (!ref) {
      const g = guessCard(u.name);
      if (!g.take) {
        problemAt(u.line, lineText(u.line) || u.name, `no card named "${comment(u.name)}"`, undefined, g.candidates);
        continue;
      }
      ref = g.take;
      guess = { written: u.name, others: g.candidates.filter((c) => c !== g.take!.name) };
    }
    if (!Number.isInteger(u.count) || u.count < 0) {
      problemAt(u.line, lineText(u.line) || u.name, `"${u.count}" is not a number of copies`, undefined);
      continue;
    }
    // "0x Lumen Destroyer" (a list builder's option not taken): no copy to field, and said so.
    if (u.count === 0) {
      problemAt(u.line, lineText(u.line) || u.name, '0 copies: left out of the fleet', undefined);
      continue;
    }
    const embark: string[] = [];
    const embarkGuess: (EntryGuess | undefined)[] = [];
    for (const x of u.embark) {
      let er = pick(x.name);
      let xg: EntryGuess | undefined;
      if (!er) {
        const g = guessCard(x.name);
        if (!g.take) {
          problemAt(x.line, lineText(x.line) || x.name, `no card named "${comment(x.name)}" to embark`, undefined, g.candidates);
          continue;
        }
        er = g.take;
        xg = { written: x.name, others: g.candidates.filter((c) => c !== g.take!.name) };
        guesses.push({ line: x.line, text: comment(lineText(x.line) || x.name), unit: er.name, ...xg });
      }
      embark.push(er.name);
      embarkGuess.push(xg);
    }
    if (guess) guesses.push({ line: u.line, text: comment(lineText(u.line) || u.name), unit: ref.name, ...guess });
    entries.push({
      unit: ref.name,
      count: u.count,
      embark,
      line: u.line,
      ...(guess ? { guess } : {}),
      ...(embarkGuess.some((g) => g) ? { embarkGuess } : {}),
      ...(u.host !== undefined ? { host: u.host } : {}),
    });
  }
  embarkOnHosts(entries, pick, (line, why) => problemAt(line, lineText(line), why, undefined));
  // A plain line may be a unit written without a marker: reported when a card is close, or when it
  // names a card inside other words and is no sentence ("Brood Carrier (two swarms)", not "Thoughts on the Radiant Court?").
  // A line the bounded searches could not look at is said once, at the first (a limit reached says so).
  let unsearched: number | undefined;
  draft.loose.forEach((l, i) => {
    const sentence = /[.?!:]\s*$/.test(l.text);
    const near = closeTo(l.name) ?? (i >= IMPORT_LIMITS.cardInside || sentence ? undefined : cardInside(l.text, cards));
    if (near) problemAt(l.line, l.text, `no card named "${comment(l.name)}"`, near);
    else if (unsearched === undefined && (budget.exhausted || (i >= IMPORT_LIMITS.cardInside && !sentence))) {
      unsearched = l.line;
      problemAt(
        l.line,
        l.text,
        budget.exhausted
          ? 'the search for misspelt card names reached its work limit here: from this line on, a line that names no card exactly was passed over unchecked'
          : `more than ${IMPORT_LIMITS.cardInside} lines name no card: from this line on, a line is not searched for a card's name among other words`,
        undefined,
      );
    }
  });
  // Lines past the limits are said, never dropped in silence: the text's, and the fleet list's (it reads so many entries).
  if (entries.length > LIMITS.listItems)
    problemAt(
      entries[LIMITS.listItems]!.line,
      lineText(entries[LIMITS.listItems]!.line),
      `the list has ${entries.length} entries: a fleet list reads its first ${LIMITS.listItems}, the rest are written but not read`,
      undefined,
    );
  if (read.more)
    problemAt(
      IMPORT_LIMITS.lines + 1,
      '',
      `the text has more than ${IMPORT_LIMITS.lines} lines: line ${IMPORT_LIMITS.lines + 1} and those after it were not read`,
      undefined,
    );
  if (draft.format === 'html' || draft.format === 'text' || draft.format === 'markdown')
    for (const [line, whole] of read.long)
      // The HTML sheet's QR code (render.ts, qr.ts) is one long line of path data that can name no
      // unit: read whole and matched as a whole, it is passed over; any other text on it is not.
      if (!(draft.format === 'html' && QR_LINE.test(whole)))
        problemAt(line, all[line - 1]!, `the line is ${whole.length} characters long: only its first ${IMPORT_LIMITS.lineChars} were read`, undefined);
  // A text in which no line names a card: said, not a fleet of nothing in silence.
  if (draft.format === 'post' && entries.length === 0 && problems.length === 0) {
    const at = all.findIndex((l) => /\p{L}/u.test(l));
    if (at >= 0)
      problemAt(
        at + 1,
        all[at]!,
        `no line of the text names a card of ${cards.byKey.size ? `these ${cards.byKey.size} cards` : 'the cards given (none were found)'}`,
        undefined,
      );
  }
  problems.sort((a, b) => a.line - b.line);

  let name = draft.name !== undefined ? clean(draft.name) : '';
  let nameFrom: ImportResult['nameFrom'] = name ? 'text' : 'default';
  if (!name) {
    name = opts.name ?? (opts.asWritten ? '' : 'Imported fleet');
    nameFrom = opts.name !== undefined ? 'option' : 'default';
  }
  let points = draft.points;
  let pointsFrom: ImportResult['pointsFrom'] = points !== undefined ? 'text' : 'none';
  if (points === undefined && opts.points !== undefined) {
    points = opts.points;
    pointsFrom = 'option';
  }
  if (points === undefined && entries.length && !opts.asWritten) {
    const total = entries.reduce((t, e) => {
      const each = (pick(e.unit)?.points ?? 0) + e.embark.reduce((s, x) => s + (pick(x)?.points ?? 0), 0);
      return t + each * e.count;
    }, 0);
    const size = GAME_SIZES.find((g) => g.points >= total);
    if (size) {
      points = size.points;
      pointsFrom = 'game size';
    }
  }
  const digest = DIGEST_PATTERN.exec(src.slice(0, 5_000_000))?.[0];
  const rules = draft.rules ?? /\brules:? ([^\u00b7<\n]*?)(?: \(\d{4}-\d\d-\d\d\))?\s*\u00b7/i.exec(src.slice(0, 5_000_000))?.[1]?.trim();
  const result: Omit<ImportResult, 'fleet'> = {
    format: draft.format,
    name,
    nameFrom,
    faction,
    factionFrom,
    points,
    pointsFrom,
    objectives: draft.objectives,
    entries,
    problems,
    guesses: guesses.sort((a, b) => a.line - b.line),
    digest,
    rules,
  };
  return { ...result, fleet: writeFleet(result) };
}
