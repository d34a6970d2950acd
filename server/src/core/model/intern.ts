/**
 * One copy of each short string the parser reads again and again (a faction's name, "5+", "9/6",
 * a weapon type, an order every card has): the parser makes a new string for every scalar, and a
 * workspace of 20,000 card files otherwise holds a copy of each per card (issue 14: about 2 KB a
 * card file). Strings are immutable, so sharing them changes nothing but memory.
 */

/** Longer strings are rarely repeated (names, effects) and are kept as they are. */
const MAX_CHARS = 40;
/** The table is dropped and started again when it holds this many (it stays under a few MB). */
const MAX_ENTRIES = 1 << 15;

let table = new Map<string, string>();

/** The shared copy of `s` (or `s` itself: long, or the first of its kind). */
export function intern(s: string): string {
  if (s.length > MAX_CHARS) return s;
  const hit = table.get(s);
  if (hit !== undefined) return hit;
  if (table.size >= MAX_ENTRIES) table = new Map();
  table.set(s, s);
  return s;
}
