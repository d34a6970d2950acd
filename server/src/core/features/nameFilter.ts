/**
 * Which files may hold a card of some names, judged from their text alone, without parsing: while
 * a big workspace is read, the files that can define the cards an open fleet names are parsed
 * first, so that the fleet resolves before the other thousands are indexed.
 *
 * A superset by construction: a card named N (compared as `name.trim().toLowerCase()`, as the
 * index does) is written in its file with N's words in order, whatever the quoting or folding,
 * unless an escape (a backslash) or a character that lower-cases to ASCII (U+0130, U+212A) spells
 * it differently; files holding either are always taken. A name whose lower case is not ASCII, which
 * a regular expression's case folding does not follow, is written with a character past ASCII (or
 * an escape): files holding one are taken for it (otherwise no file would go first).
 */

/** What a file must show to be taken whatever the names: escapes, and the two non-ASCII letters lower-casing to ASCII. */
const ALWAYS = /[\\\u0130\u212a]/;

/** At most this many names: a longer alternation costs more than parsing every file. */
export const NAME_FILTER_MAX = 400;

/** What a file must show to be taken for a name whose lower case is past ASCII. */
const PAST_ASCII = /[^\x00-\x7f]/;

/**
 * A test that is true for every text that may define a card of one of `names` (and for some that
 * do not); undefined when no cheap test is exact enough (too many names).
 */
export function cardNameFilter(names: Iterable<string>): ((text: string) => boolean) | undefined {
  const parts: string[] = [];
  let pastAscii = false;
  for (const n of names) {
    let words = n.trim().split(/\s+/).filter(Boolean);
    if (!words.length) continue;
    if (words.some((w) => PAST_ASCII.test(w))) {
      // As the index compares it; a Kelvin sign is a "k" then, and an ASCII name is found as one.
      const lower = n.trim().toLowerCase();
      if (PAST_ASCII.test(lower)) {
        pastAscii = true;
        continue;
      }
      words = lower.split(/\s+/).filter(Boolean);
    }
    // Words apart by any white space (a folded scalar breaks lines), a quote possibly doubled ('').
    const body = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "'+")).join('\\s+');
    // Not inside a longer word ("Cruiser 1" is not "Cruiser 13"): a longer scalar is another name.
    parts.push(`${/^\w/.test(words[0]!) ? '(?<!\\w)' : ''}${body}${/\w$/.test(words.at(-1)!) ? '(?!\\w)' : ''}`);
    if (parts.length > NAME_FILTER_MAX) return undefined;
  }
  const always = (text: string) => ALWAYS.test(text) || (pastAscii && PAST_ASCII.test(text));
  if (!parts.length) return always;
  const re = new RegExp(parts.join('|'), 'i');
  return (text) => re.test(text) || always(text);
}
