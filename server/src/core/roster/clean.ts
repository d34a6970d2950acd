/**
 * File text made one line and printable: line breaks and tabs become spaces; other control
 * characters and the bidirectional overrides that reorder what a reader sees become U+FFFD.
 * Every roster renderer prints names through it, and the roster digest (digest.ts) reads names
 * through it, so a name reads back from any export to the text the digest was taken over.
 */
export function clean(s: string): string {
  // Most names need nothing but the trim: one test instead of three replacements (a roster of 500
  // entries cleans thousands of names at each edit). Whatever the replacements below would change
  // matches this pattern, so without a match they would give `s` itself.
  if (!NEEDS_CLEANING.test(s)) return s.trim();
  return slowClean(s);
}

/** A character the replacements of `slowClean` change, or two spaces in a row. */
const NEEDS_CLEANING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]| {2}/;

/** `clean` by its definition, every replacement made (exported for the test that holds `clean` to it). */
export function slowClean(s: string): string {
  return s
    .replace(/\r\n|[\n\r\t\v\f\u2028\u2029\u0085]/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '\uFFFD')
    .replace(/ {2,}/g, ' ')
    .trim();
}
