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
 *
 * One module per idea: types.ts (the shapes), names.ts (names as compared, the cards by name),
 * text.ts (lines and decodings), exports.ts and short.ts (the roster's own exports read back),
 * line.ts (one line of a post as a unit), post.ts (a posted list, through tables of line readers),
 * guess.ts (a name no card has), fleet.ts (the fleet list written); here, the steps from the text
 * to the result.
 */
import { linkText } from '../link';
import type { Workspace } from '../../workspace';
import { GAME_SIZES } from '../../rules/data';
import { DIGEST_PATTERN } from '../digest';
import { clean } from '../clean';
import { LIMITS } from '../../model/limits';
import {
  IMPORT_LIMITS,
  type Draft,
  type EntryGuess,
  type ImportedEntry,
  type ImportGuess,
  type ImportOptions,
  type ImportProblem,
  type ImportResult,
} from './types';
import { type Cards, cardInside, cardsOf, type ImportCard, type ImportCards, importCards, looseKeys, lookup, nameKey } from './names';
import { lines, type Lines } from './text';
import { fromHtml, fromJson, fromMarkdown, fromText, QR_LINE } from './exports';
import { fromShort } from './short';
import { fromPost } from './post';
import { guesser, type Guesser } from './guess';
import { comment, embarkOnHosts, writeFleet } from './fleet';

export * from './types';
export { nameKey, importCards, type ImportCard, type ImportCards } from './names';
export { decodeEntities } from './text';
export { yamlScalar } from './fleet';

/** The readers of each format, most particular first: the first that recognises the text reads it (a posted list takes anything). */
const FORMATS: ((read: Lines, src: string, cards: Cards, near: (name: string) => boolean) => Draft | undefined)[] = [
  (_, src) => fromJson(src),
  ({ all }) => fromHtml(all),
  ({ all }) => fromText(all),
  ({ all }) => fromMarkdown(all),
  (read, _, cards) => fromShort(read, cards),
  (read, _, cards, near) => fromPost(read, cards, near),
];

/** One import under way: the text, what its format's reader drafted, and the problems and guesses so far. */
interface Reading {
  cards: Cards;
  read: Lines;
  draft: Draft;
  names: Guesser;
  /** The card of a name, of the fleet's faction where several factions share the name. */
  pick: (name: string) => ImportCard | undefined;
  problems: ImportProblem[];
  guesses: ImportGuess[];
}

function problemAt(r: Reading, line: number, textOf: string, why: string, near: string | undefined, candidates?: string[]): void {
  r.problems.push({
    line,
    text: comment(textOf).slice(0, IMPORT_LIMITS.problemText),
    why,
    closest: candidates?.[0] ?? near,
    ...(candidates && candidates.length ? { candidates } : {}),
  });
}

function lineText(r: Reading, n: number): string {
  return r.draft.format === 'json' ? '' : (r.read.all[n - 1] ?? '');
}

/** The faction: the text's, else the option's, else the one most of the named cards belong to. */
function factionOf(draft: Draft, cards: Cards, opts: ImportOptions): Pick<ImportResult, 'faction' | 'factionFrom'> {
  const given = draft.faction !== undefined ? clean(draft.faction) : opts.faction;
  if (given !== undefined) {
    const f = nameKey(given);
    // "myr valari" for Myr-Valari: the faction as the cards spell it, whatever the case, hyphens or accents.
    const known = cards.factions.find((x) => nameKey(x) === f) ?? cards.factions.find((x) => looseKeys(nameKey(x))[0] === looseKeys(f)[0]);
    return { faction: known ?? given, factionFrom: draft.faction !== undefined ? 'text' : 'option' };
  }
  if (opts.asWritten) return { faction: undefined, factionFrom: 'none' };
  const votes = new Map<string, number>();
  for (const u of draft.units) for (const ref of lookup(cards, u.name) ?? []) votes.set(ref.faction, (votes.get(ref.faction) ?? 0) + Math.max(1, u.count));
  const best = [...votes].sort((a, b) => b[1] - a[1])[0];
  return best ? { faction: best[0], factionFrom: 'cards' } : { faction: undefined, factionFrom: 'none' };
}

/** A name as a card: the card of that name, else the one it clearly means (with the guess), else a problem said at its line. */
function cardOf(r: Reading, name: string, line: number, what: string): { ref: ImportCard; guess?: EntryGuess } | undefined {
  const ref = r.pick(name);
  if (ref) return { ref };
  const g = r.names.guess(name, r.pick);
  if (!g.take) {
    problemAt(r, line, lineText(r, line) || name, `no card named "${comment(name)}"${what}`, undefined, g.candidates);
    return undefined;
  }
  return { ref: g.take, guess: { written: name, others: g.candidates.filter((c) => c !== g.take!.name) } };
}

/** One unit of the draft as an entry of the fleet, or a problem. */
function entryOf(r: Reading, u: Draft['units'][number]): (ImportedEntry & { host?: string }) | undefined {
  const head = cardOf(r, u.name, u.line, '');
  if (!head) return undefined;
  if (!Number.isInteger(u.count) || u.count < 0) {
    problemAt(r, u.line, lineText(r, u.line) || u.name, `"${u.count}" is not a number of copies`, undefined);
    return undefined;
  }
  // "0x Lumen Destroyer" (a list builder's option not taken): no copy to field, and said so.
  if (u.count === 0) {
    problemAt(r, u.line, lineText(r, u.line) || u.name, '0 copies: left out of the fleet', undefined);
    return undefined;
  }
  const embark: string[] = [];
  const embarkGuess: (EntryGuess | undefined)[] = [];
  for (const x of u.embark) {
    const card = cardOf(r, x.name, x.line, ' to embark');
    if (!card) continue;
    if (card.guess) r.guesses.push({ line: x.line, text: comment(lineText(r, x.line) || x.name), unit: card.ref.name, ...card.guess });
    embark.push(card.ref.name);
    embarkGuess.push(card.guess);
  }
  const { ref, guess } = head;
  if (guess) r.guesses.push({ line: u.line, text: comment(lineText(r, u.line) || u.name), unit: ref.name, ...guess });
  return {
    unit: ref.name,
    count: u.count,
    embark,
    line: u.line,
    ...(guess ? { guess } : {}),
    ...(embarkGuess.some((g) => g) ? { embarkGuess } : {}),
    ...(u.host !== undefined ? { host: u.host } : {}),
  };
}

/** The most words a plain line is searched through for a misspelt card's name among them. */
const INSIDE_WORDS = 24;

/**
 * A card whose name, misspelt, stands among other words of a line ("Lumen Destroyr or a Bomber"):
 * each run of two to four words, longest first, looked up as a plain line is.
 */
function closeInside(text: string, names: Reading['names']): string | undefined {
  const words = text
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter(Boolean)
    .slice(0, INSIDE_WORDS);
  for (let n = Math.min(4, words.length - 1); n >= 2; n--)
    for (let at = 0; at + n <= words.length; at++) {
      const hit = names.closeTo(words.slice(at, at + n).join(' '));
      if (hit) return hit;
    }
  return undefined;
}

/**
 * A plain line may be a unit written without a marker: reported when a card is close, or when it
 * names a card inside other words and is no sentence ("Brood Carrier (two swarms)", not "Thoughts on the Radiant Court?").
 * A line the bounded searches could not look at is said once, at the first (a limit reached says so).
 */
function reportLoose(r: Reading): void {
  let unsearched: number | undefined;
  r.draft.loose.forEach((l, i) => {
    const sentence = /[.?!:]\s*$/.test(l.text);
    const inside = i >= IMPORT_LIMITS.cardInside || sentence ? undefined : (cardInside(l.text, r.cards) ?? closeInside(l.text, r.names));
    const near = r.names.closeTo(l.name) ?? inside;
    const exhausted = r.names.budget.exhausted;
    if (near) problemAt(r, l.line, l.text, `no card named "${comment(l.name)}"`, near);
    else if (unsearched === undefined && (exhausted || (i >= IMPORT_LIMITS.cardInside && !sentence))) {
      unsearched = l.line;
      problemAt(
        r,
        l.line,
        l.text,
        exhausted
          ? 'the search for misspelt card names reached its work limit here: from this line on, a line that names no card exactly was passed over unchecked'
          : `more than ${IMPORT_LIMITS.cardInside} lines name no card: from this line on, a line is not searched for a card's name among other words`,
        undefined,
      );
    }
  });
}

/** Lines past the limits are said, never dropped in silence: the text's, and the fleet list's (it reads so many entries). */
function reportLimits(r: Reading, entries: ImportedEntry[]): void {
  const { draft, read } = r;
  const { all } = read;
  if (entries.length > LIMITS.listItems) {
    const line = entries[LIMITS.listItems]!.line;
    problemAt(
      r,
      line,
      lineText(r, line),
      `the list has ${entries.length} entries: a fleet list reads its first ${LIMITS.listItems}, the rest are written but not read`,
      undefined,
    );
  }
  if (read.more)
    problemAt(
      r,
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
        problemAt(r, line, all[line - 1]!, `the line is ${whole.length} characters long: only its first ${IMPORT_LIMITS.lineChars} were read`, undefined);
  // A text in which no line names a card: said, not a fleet of nothing in silence.
  if (draft.format === 'post' && entries.length === 0 && r.problems.length === 0) {
    const at = all.findIndex((l) => /\p{L}/u.test(l));
    const size = r.cards.byKey.size;
    if (at >= 0)
      problemAt(r, at + 1, all[at]!, `no line of the text names a card of ${size ? `these ${size} cards` : 'the cards given (none were found)'}`, undefined);
  }
}

/** The fleet's name: the text's, else the option's, else a default. */
function nameOf(draft: Draft, opts: ImportOptions): Pick<ImportResult, 'name' | 'nameFrom'> {
  const name = draft.name !== undefined ? clean(draft.name) : '';
  if (name) return { name, nameFrom: 'text' };
  return { name: opts.name ?? (opts.asWritten ? '' : 'Imported fleet'), nameFrom: opts.name !== undefined ? 'option' : 'default' };
}

/** The points limit: the text's, else the option's, else the smallest game size that holds the units. */
function pointsOf(r: Reading, entries: ImportedEntry[], opts: ImportOptions): Pick<ImportResult, 'points' | 'pointsFrom'> {
  if (r.draft.points !== undefined) return { points: r.draft.points, pointsFrom: 'text' };
  if (opts.points !== undefined) return { points: opts.points, pointsFrom: 'option' };
  if (entries.length && !opts.asWritten) {
    const total = entries.reduce((t, e) => {
      const each = (r.pick(e.unit)?.points ?? 0) + e.embark.reduce((s, x) => s + (r.pick(x)?.points ?? 0), 0);
      return t + each * e.count;
    }, 0);
    const size = GAME_SIZES.find((g) => g.points >= total);
    if (size) return { points: size.points, pointsFrom: 'game size' };
  }
  return { points: undefined, pointsFrom: 'none' };
}

/** Reads a roster or a posted list; the fleet list and what could not be read. */
export function importRoster(text: string, from: Workspace | ImportCards, opts: ImportOptions = {}): ImportResult {
  const cards = cardsOf(Array.isArray((from as ImportCards).cards) ? (from as ImportCards) : importCards(from as Workspace));
  // A `fabledstar:` link is the one line, percent-encoded (link.ts).
  const src = linkText(text.replace(/^\ufeff/, ''));
  const read = lines(src);
  const names = guesser(cards, opts.asWritten === true);
  // A plain line may be a unit written without a marker: reported when a card is close.
  const near = (name: string) => names.closeTo(name) !== undefined;
  let draft: Draft | undefined;
  for (const reader of FORMATS) if ((draft = reader(read, src, cards, near))) break;
  const { faction, factionFrom } = factionOf(draft!, cards, opts);
  const pick = (name: string): ImportCard | undefined => {
    const list = lookup(cards, name);
    if (!list?.length) return undefined;
    return (faction !== undefined ? list.find((x) => nameKey(x.faction) === nameKey(faction)) : undefined) ?? list[0];
  };
  const r: Reading = { cards, read, draft: draft!, names, pick, problems: [], guesses: [] };
  for (const u of r.draft.unread) problemAt(r, u.line, u.text, u.why, undefined);
  const entries = r.draft.units.flatMap((u) => entryOf(r, u) ?? []);
  embarkOnHosts(entries, pick, (line, why) => problemAt(r, line, lineText(r, line), why, undefined));
  reportLoose(r);
  reportLimits(r, entries);
  const digest = DIGEST_PATTERN.exec(src.slice(0, 5_000_000))?.[0];
  const rules = r.draft.rules ?? /\brules:? ([^\u00b7<\n]*?)(?: \(\d{4}-\d\d-\d\d\))?\s*\u00b7/i.exec(src.slice(0, 5_000_000))?.[1]?.trim();
  const result: Omit<ImportResult, 'fleet'> = {
    format: r.draft.format,
    ...nameOf(r.draft, opts),
    faction,
    factionFrom,
    ...pointsOf(r, entries, opts),
    objectives: r.draft.objectives,
    entries,
    problems: r.problems.sort((a, b) => a.line - b.line),
    guesses: r.guesses.sort((a, b) => a.line - b.line),
    digest,
    rules,
  };
  return { ...result, fleet: writeFleet(result) };
}
