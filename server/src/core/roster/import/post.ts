/**
 * A list as players post it, read line by line through tables of readers: the first reader of a
 * table that takes a line ends its reading. Markup (blank lines, sections, totals, banners) first;
 * then the line read as a unit (a line a forum wrapped, a list on one line, a unit and what it
 * carries); a line that is no unit names, before the first unit, the fleet's faction, limit or name,
 * and after it is a note (or a unit misspelt, looked up loosely).
 */
import { CLASS_NAMES, GAME_SIZES, LAUNCH_BAY, type UnitClass } from '../../rules/data';
import { DIGEST_PATTERN } from '../digest';
import { IMPORT_LIMITS, type Draft } from './types';
import { type Cards, cardFirst, cardInside, looseKeys, lookup, nameKey } from './names';
import { decodeHtml, escapeRe, limitOf, longPieces, postText, type Lines } from './text';
import { BULLET, commaItems, EMOJI_BULLET, POINTS_NUMBER, pointsValue, readLine, type LineRead } from './line';

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

/** What reading a post has gathered so far, and what the next line's reading needs to know. */
interface Post {
  d: Draft;
  cards: Cards;
  /** Whether a name is a card's. */
  known: (name: string) => boolean;
  /** Whether a name is a card a carrier's launch bay carries (a Fighter or a Bomber). */
  smallCraft: (name: string) => boolean;
  /** Whether a card's name is close to a name (a unit misspelt). */
  near: (name: string) => boolean;
  /** The factions' keys, longest first, with their names. */
  factionKeys: (readonly [string, string])[];
  /** 1-based line of the text's first non-blank line. */
  firstLine: number;
  lastIndent: number;
  /** Inside a section of an export that lists no units. */
  skipping: boolean;
  /** The last entry line read, when it was the line just before (for an indented line under it). */
  last: { raw: string; line: number; complete: boolean } | undefined;
  /** Whether the fleet's name came from a line that names neither the faction nor the points (chat before the list). */
  weakName: boolean;
}

/** One line of the post: as written, its 1-based number, and its text without decoration. */
interface PostLine {
  raw: string;
  line: number;
  trimmed: string;
}

/** A line read as a unit: the reading, its name's key, and whether that names a card. */
interface UnitLine extends PostLine {
  r: LineRead;
  key: string;
  isCard: boolean;
}

/** A line that is no unit, before the first unit: the faction and the points it names. */
interface HeadingLine extends UnitLine {
  f: readonly [string, string] | undefined;
  pts: RegExpExecArray | null;
}

/** A reader takes the line (true: the line is read, no later reader sees it) or leaves it to the next. */
type Reader<L> = (p: Post, l: L) => boolean;

/** Blank lines, our exports' digest and rules lines. */
const blankLine: Reader<PostLine> = (p, { trimmed }) => {
  if (trimmed && !DIGEST_PATTERN.test(trimmed) && !/^rules:/i.test(trimmed)) return false;
  if (!trimmed) p.last = undefined;
  return true;
};

/** The sections of an export that list no units, passed over until a "Units" heading; a card's details under its entry. */
const sectionLine: Reader<PostLine> = (p, { trimmed }) => {
  const bare = postText(trimmed.replace(BULLET, ''));
  if (OTHER_SECTION.test(bare)) {
    p.skipping = true;
    return true;
  }
  if (UNITS_SECTION.test(bare.replace(/:$/, ''))) {
    p.skipping = false;
    return true;
  }
  return p.skipping || CARD_DETAIL.test(bare);
};

/** "Total: 970/1000" anywhere gives the limit when nothing before did (the line is read on). */
const totalLine: Reader<PostLine> = ({ d }, { trimmed }) => {
  if (TOTAL.test(trimmed) && d.points === undefined) d.points = limitOf(trimmed);
  return false;
};

/** BattleScribe's "++ Myr-Valari Standard (1000pts) ++": a faction and a limit, never a unit or the name. */
const bannerLine: Reader<PostLine> = (p, { trimmed, line }) => {
  const banner = /^\++\s(.*)\s\++$/.exec(trimmed);
  if (!banner) return false;
  if (p.d.units.length === 0) headerFacts(p, banner[1]!, line);
  p.last = undefined;
  return true;
};

/**
 * A line wrapped by the forum ("... carrying Veilwing Fighter Wing, Veilwing" / "  Fighter Wing, ..."):
 * an indented line, unmarked and naming no card, under an entry that did not read whole, continues it.
 */
const wrappedLine: Reader<UnitLine> = (p, { r, isCard, trimmed }) => {
  const last = p.last;
  if (!last || last.complete || isCard || r.marked || r.indent <= 0 || p.d.units.at(-1)?.line !== last.line) return false;
  if (last.raw.length + trimmed.length >= IMPORT_LIMITS.lineChars) return false;
  p.d.units.pop();
  p.last = undefined;
  handle(p, `${last.raw.trimEnd()} ${trimmed}`, last.line);
  return true;
};

/** "my 500: A + B, C, D": units on one line, ", "-separated (a heading before a colon). */
const oneLineList: Reader<UnitLine> = (p, { isCard, r, trimmed, line }) => {
  if (isCard || r.embarked) return false;
  const body = /^(?:[^:]*:\s+)?([^]*)$/.exec(trimmed)![1]!;
  const items = commaItems(body, p.known);
  // Not a sentence that names cards ("Radiant Court, what do you think?").
  if (items.length <= 1 || /[.?!]$/.test(body) || !items.some((x) => p.known(readLine(x, p.known).head.name))) return false;
  // The words before the colon are the list's heading ("Lantern Watch (Myr-Valari, 1000): ...").
  if (body !== trimmed && p.d.units.length === 0) handle(p, trimmed.slice(0, trimmed.length - body.length).replace(/:\s*$/, ''), line);
  for (const x of items) handle(p, x, line);
  p.last = undefined;
  return true;
};

/** A unit: a card's name, a marked line, or (after the first unit) a line with points; with the units it carries, or carried itself. */
const unitLine: Reader<UnitLine> = (p, { raw, line, trimmed, r, key, isCard }) => {
  const { d } = p;
  // Before the first unit, a line with points but no bullet or count is a heading ("My list - 1000 pts").
  if (!(isCard || r.marked || (r.priced && d.units.length > 0))) return false;
  if (!key || !/\p{L}/u.test(key) || (TOTAL.test(key) && !isCard) || (!isCard && HEADING.test(trimmed))) return true;
  // "Detachment 2: Pack (270 pts)", "Carriers - 645pts": a section's heading with its subtotal, not a unit.
  if (!isCard && !r.marked && (/^[^:]+:\s/.test(r.head.name) || SECTION_WORDS.test(nameKey(r.head.name)))) {
    p.last = undefined;
    return true;
  }
  // An embarked unit: "+ Name", or a Fighter or Bomber indented under the entry just above ("  - 2x Veilwing Fighter Wing").
  const prev = d.units.at(-1);
  const under = prev !== undefined && p.last !== undefined && r.indent > p.lastIndent;
  const embarkedHere =
    r.host === undefined && (r.embarked || (under && /^\s*\+/.test(raw)) || (under && p.smallCraft(r.head.name) && !p.smallCraft(prev.name)));
  if (embarkedHere && prev) {
    for (const c of [r.head, ...r.carried]) for (let k = 0; k < c.count; k++) prev.embark.push({ name: c.name, line });
    return true;
  }
  const embark: { name: string; line: number }[] = [];
  for (const c of r.carried) for (let k = 0; k < c.count; k++) embark.push({ name: c.name, line });
  d.units.push({ name: r.head.name, count: r.head.count, embark, line, ...(r.host !== undefined ? { host: r.host } : {}) });
  p.lastIndent = r.indent;
  p.last = { raw, line, complete: isCard && r.carried.every((c) => p.known(c.name)) };
  return true;
};

/** "Faction: Myr-Valari". */
const factionField: Reader<UnitLine> = ({ d }, { trimmed }) => {
  const fl = /^faction\s*:\s*(.+)$/i.exec(trimmed);
  if (fl) d.faction ??= fl[1]!.trim();
  return fl !== null;
};

/** A tournament sheet's other fields ("Player: Jenny K.", "Event: ...") name neither the fleet nor its units. */
const otherField: Reader<UnitLine> = (_, { trimmed }) =>
  /^(?:player|author|by|event|date|club|round|opponent|mission|scenario|game|email|e-mail|team|discord)\s*:/i.test(trimmed);

/** "Points: 1,000", "Game size: 2000 pts". */
const limitField: Reader<UnitLine> = ({ d }, { trimmed }) => {
  const limit = /^(?:points|pts|limit|points limit|game size|size)\s*:\s*([\d,. \u00a0]+)\s*(?:pts?\.?|points?)?$/i.exec(trimmed);
  if (limit) d.points ??= pointsValue(limit[1]!);
  return limit !== null;
};

/**
 * "Fleet: Veil & Shadow": a name the text labels wins over one guessed from a line of chat. The
 * quotes around it ("Fleet: \"Veil & Shadow\"") mark the name, they are not part of it.
 */
const labelledName: Reader<HeadingLine> = (p, { trimmed }) => {
  const labelled = /^(?:fleet|list|name|(?:fleet|list|army|roster)\s+name)\s*:\s*(.+)$/i.exec(trimmed);
  if (!labelled) return false;
  if (p.d.name === undefined || p.weakName) {
    const name = postText(labelled[1]!);
    const quoted = /^"([^"]+)"$|^\u201c([^\u201c\u201d]+)\u201d$|^\u00ab([^\u00ab\u00bb]+)\u00bb$|^'([^']+)'$/u.exec(name);
    p.d.name = quoted
      ? quoted
          .slice(1)
          .find((x) => x !== undefined)!
          .trim()
      : name;
  }
  p.weakName = false;
  return true;
};

/**
 * A unit misspelt, with no bullet or count, before the first one read: reported, not taken for the name.
 * So is a line that holds a card's name among other words, after the name ("Shardlight Escort (2x)"),
 * or after a heading that gave the faction or the limit but no name ("Myr-Valari 1000" then
 * "Lumen Cruiser 190 (magnetised)"): taken for the name, that unit was lost without a word.
 */
const unitBeforeList: Reader<HeadingLine> = (p, { trimmed, line, r, f, pts }) => {
  const { d, cards } = p;
  const afterHeading = d.name !== undefined || (line !== p.firstLine && (d.faction !== undefined || d.points !== undefined));
  // And a line that starts with a card's name and then its points ("Lumen Cruiser 190 (magnetised)",
  // "Lumen Cruiser x2 - 380/1000"), first or after a heading: a unit with a note, never the fleet's name.
  const unitFirst = !f && cardFirst(trimmed, cards) && /^\S[^\d]*\s(?:x\s*)?\d/i.test(trimmed.replace(/^[\s\-*\u2022]+/, ''));
  const inside = () => !pts && afterHeading && !/[.?!:]\s*$/.test(trimmed) && cardInside(trimmed, cards);
  if (!unitFirst && (f || HEADING.test(trimmed) || !(p.near(r.head.name) || inside()))) return false;
  d.loose.push({ line, text: trimmed, name: r.head.name });
  return true;
};

/** The name is what is left of a heading without the faction and the points: "Radiant Vanguard (Myr-Valari) - 1000 pts". */
const nameFromHeading: Reader<HeadingLine> = (p, { trimmed, f, pts }) => {
  if ((p.d.name !== undefined && !(p.weakName && f)) || /:$|^(?:={3,}|-{3,}|_{3,}|\*{3,})$/.test(trimmed)) return true;
  const rest = headingName(trimmed, f, pts);
  if (
    rest &&
    /\p{L}/u.test(rest) &&
    !TOTAL.test(rest) &&
    !/^(?:my\s+)?(?:list|fleet|army|build|roster)$/i.test(rest) &&
    !/^my\s+\d+\s*(?:pts?|points?|k)?$/i.test(rest) &&
    !(p.d.name !== undefined && !f)
  ) {
    p.d.name = rest;
    p.weakName = !f;
  }
  return true;
};

/** A heading's text without its faction, its points, its decoration and the chatter after the name. */
function headingName(trimmed: string, f: HeadingLine['f'], pts: HeadingLine['pts']): string {
  let rest = postText(trimmed)
    .replace(EMOJI_BULLET, '')
    .replace(/\s(?:\p{Extended_Pictographic}|:[a-z0-9_+-]{1,40}:)[\ufe0e\ufe0f\u200d]*(?=\s|$)/giu, ' ');
  if (pts)
    rest = rest.replace(new RegExp(`[-\\u2013\\u2014:@|,([]*\\s*(?:\\d{1,6}\\s*\\/\\s*)?(?:${POINTS_NUMBER})\\s*(?:pts?\\.?|points?)?[)\\]]?`, 'giu'), ' ');
  if (f) rest = rest.replace(new RegExp(escapeRe(f[1]).replace(/\\? /g, '\\s+').replace(/-/g, '[-\\u2010\\u2011]'), 'iu'), ' ');
  return (
    rest
      .replace(/\(\s*[,;]?\s*\)|\[\s*\]/g, ' ')
      .replace(/^[\s\-\u2013\u2014:|,/\u00b7)\]]+|[\s\-\u2013\u2014:|,/\u00b7([]+$/g, '')
      .replace(/\s+/g, ' ')
      // "Lantern Watch - tournament list, feedback welcome!": the name is before the chatter.
      .split(/\s*[,!?;]\s+|[!?]$|\s+[-\u2013\u2014]\s+|\s+\/\/\s+/)[0]!
      .replace(/^["\u201c\u201d\u00ab\u00bb']+|["\u201c\u201d\u00ab\u00bb']+$/g, '')
      .trim()
  );
}

/** Readers of a line as written: blank lines, sections, totals and banners. */
const READ_MARKUP: Reader<PostLine>[] = [blankLine, sectionLine, totalLine, bannerLine];
/** Readers of a line read as a unit. */
const READ_ENTRY: Reader<UnitLine>[] = [wrappedLine, oneLineList, unitLine];
/** Readers of a line that is no unit, before the first unit: the fleet's labelled fields. */
const READ_FIELD: Reader<UnitLine>[] = [factionField, otherField, limitField];
/** Then, once the faction and the limit it names are taken: the fleet's name, or a unit misspelt. */
const READ_HEADING: Reader<HeadingLine>[] = [labelledName, unitBeforeList, nameFromHeading];

/** The faction and the points limit a heading line names, taken when not known yet. */
function headerFacts({ d, factionKeys, firstLine }: Post, t: string, line: number): Pick<HeadingLine, 'f' | 'pts'> {
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
}

/** A line as a unit: `readLine`'s reading, or the whole line when that is a card's name ("Lancer 2" reads as a count). */
function asUnit({ known }: Post, l: PostLine): UnitLine {
  let r = readLine(l.raw, known);
  // A card whose name itself ends in a number or holds a count-like word ("Lancer 2") reads as the whole line.
  const whole = l.trimmed.replace(/^(?:[-*\u2022]|\d{1,3}[.)])\s+/, '');
  if (!known(r.head.name) && known(whole)) r = { indent: r.indent, marked: true, priced: false, embarked: false, head: { name: whole, count: 1 }, carried: [] };
  return { ...l, r, key: nameKey(r.head.name), isCard: known(r.head.name) };
}

/** One line of the post through the tables of readers. */
function handle(p: Post, raw: string, line: number): void {
  // Emoji and :shortcodes: around a line are decoration (":rocket: **The Hunger Within** :rocket:").
  const trimmed = raw
    .trim()
    .replace(/\s+/g, ' ')
    .replace(EMOJI_BULLET, '')
    .replace(/(?:\s+(?:\p{Extended_Pictographic}|:[a-z0-9_+-]{1,40}:)[\ufe0e\ufe0f\u200d]*)+$/iu, '')
    .trim();
  const l: PostLine = { raw, line, trimmed };
  if (READ_MARKUP.some((read) => read(p, l))) return;
  const u = asUnit(p, l);
  if (READ_ENTRY.some((read) => read(p, u))) return;
  p.last = undefined;
  // Not a unit line: the fleet's name, faction or limit when before the units; otherwise a note.
  if (p.d.units.length > 0) {
    if (!HEADING.test(trimmed) && !TOTAL.test(u.key) && /\p{L}/u.test(u.key)) p.d.loose.push({ line, text: trimmed, name: u.r.head.name });
    return;
  }
  if (READ_FIELD.some((read) => read(p, u))) return;
  const h: HeadingLine = { ...u, ...headerFacts(p, trimmed, line) };
  READ_HEADING.some((read) => read(p, h));
}

/** A list as players post it. */
export function fromPost({ all: written, long }: Lines, cards: Cards, near: (name: string) => boolean): Draft {
  const all = postLines(written);
  const known = (name: string) => lookup(cards, name) !== undefined;
  const p: Post = {
    d: { format: 'post', units: [], unread: [], loose: [] },
    cards,
    known,
    smallCraft: (name) => (lookup(cards, name) ?? []).some((r) => LAUNCH_BAY.carrierCarries.includes(r.cls as UnitClass)),
    near,
    factionKeys: cards.factions.map((f) => [nameKey(f), f] as const).sort((a, b) => b[0].length - a[0].length),
    firstLine: all.findIndex((l) => l.trim()) + 1,
    lastIndent: 0,
    skipping: false,
    last: undefined,
    weakName: false,
  };
  all.forEach((raw, i) => {
    const whole = long.get(i + 1);
    const pieces = whole === undefined ? undefined : longPieces(whole);
    if (whole !== undefined && !pieces)
      p.d.unread.push({
        line: i + 1,
        text: raw,
        why: `the line is ${whole.length} characters long: only its first ${IMPORT_LIMITS.lineChars} were read (write one unit a line, or separate them with ", ")`,
      });
    if (pieces) for (const x of pieces) handle(p, postLines([x])[0]!, i + 1);
    else handle(p, raw, i + 1);
  });
  return p.d;
}
