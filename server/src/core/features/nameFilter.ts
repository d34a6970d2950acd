/**
 * Which files may hold a card of some names, judged from their text alone, without parsing: while
 * a big workspace is read, the files that can define the cards an open fleet names are parsed
 * first, so that the fleet resolves before the other thousands are indexed.
 *
 * A superset by construction: a card named N (compared as `name.trim().toLowerCase()`, as the
 * index does) is written in its file with N's words in order, whatever the quoting or folding,
 * unless an escape (a backslash) or a character that lower-cases to ASCII (U+0130, U+212A) spells
 * it differently; files holding either are always taken.
 */

/** What a file must show to be taken whatever the names: escapes, and the two non-ASCII letters lower-casing to ASCII. */
const ALWAYS = /[\\\u0130\u212a]/;

/** At most this many names: a longer alternation costs more than parsing every file. */
export const NAME_FILTER_MAX = 400;

/**
 * A test that is true for every text that may define a card of one of `names` (and for some that
 * do not); undefined when no cheap test is exact enough (a name with non-ASCII letters, whose case
 * folding a regular expression does not follow, or too many names).
 */
export function cardNameFilter(names: Iterable<string>): ((text: string) => boolean) | undefined {
  const parts: string[] = [];
  for (const n of names) {
    const words = n.trim().split(/\s+/).filter(Boolean);
    if (!words.length) continue;
    if (words.some((w) => /[^\x00-\x7f]/.test(w))) return undefined;
    // Words apart by any white space (a folded scalar breaks lines), a quote possibly doubled ('').
    const body = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "'+")).join('\\s+');
    // Not inside a longer word ("Cruiser 1" is not "Cruiser 13"): a longer scalar is another name.
    parts.push(`${/^\w/.test(words[0]!) ? '(?<!\\w)' : ''}${body}${/\w$/.test(words.at(-1)!) ? '(?!\\w)' : ''}`);
    if (parts.length > NAME_FILTER_MAX) return undefined;
  }
  if (!parts.length) return (text) => ALWAYS.test(text);
  const re = new RegExp(parts.join('|'), 'i');
  return (text) => re.test(text) || ALWAYS.test(text);
}
