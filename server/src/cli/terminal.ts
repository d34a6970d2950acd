/**
 * Text for a terminal. Names, weapon types and messages come from files, and file names from the
 * disk: a raw ESC, BEL, CR or C1 control in them reaches the terminal as a command (erase the line,
 * move the cursor, print a fake summary, set the clipboard through OSC 52, change the title). Every
 * piece of text the CLI writes goes through `escapeControls` at the edge where it is written.
 */

/**
 * C0 controls (tab and line feed only where `keep` says), DEL, C1 controls, and the invisible
 * characters that reorder or break lines on screen: bidirectional embeddings, overrides and
 * isolates, the Arabic letter mark, the line and paragraph separators.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_AND_LINES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function visible(c: string): string {
  return NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Replaces every control character with a visible escape (`\u001b`, `\r`). `keepLines` keeps line
 * feeds and tabs: for whole reports whose lines the CLI itself wrote. The `\uXXXX` form is also a
 * valid JSON escape of the same character, so JSON output stays equal to what it was.
 */
export function escapeControls(s: string, keepLines = false): string {
  return s.replace(keepLines ? CONTROLS : CONTROLS_AND_LINES, visible);
}

/** A copy of `v` with every string in it escaped (for reports rendered from data that holds names from files). */
export function escapeStrings<T>(v: T): T {
  if (typeof v === 'string') return escapeControls(v) as T;
  if (Array.isArray(v)) return v.map((x: unknown) => escapeStrings(x)) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = escapeStrings(x);
    return out as T;
  }
  return v;
}
