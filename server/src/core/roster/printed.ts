/**
 * What a roster prints, beside what its fleet gives with the card files (`fabled-star verify`): the
 * digest covers the list and the cards, not the sheet, so a sheet whose points, stats, markup or
 * style were changed by hand would still carry a digest that matches. The whole sheet is rendered
 * again, in its own format, from the list read back and these cards (verify.ts), and the two are
 * compared line by line, every line:
 *
 * - HTML: each line exactly as exported, markup, attributes and the whole style block included
 *   (what a browser shows depends on all of them: a `hidden` attribute or a CSS rule changes it).
 * - markdown, text, the one line and JSON: each line with its spaces collapsed and trimmed (a forum
 *   or a chat re-indents), comments included; a blank line shows nothing and starts no markup by
 *   itself, and chats drop or double them, so blank lines are passed over. Nothing else is.
 *
 * The one thing a sheet prints that its list and the cards do not give is where each problem is
 * (the fleet's file and its line, the card files as the exporter named them): it is rendered as a
 * slot (a token no file text can hold), which matches a file name and `:LINE:COLUMN` written
 * with no markup of the format (no tag in HTML, no unescaped emphasis, link or tag in markdown),
 * and in JSON a file name string and whole numbers for its line and column.
 */
import { ROSTER_FORMATS, type RosterFormat } from './render';

/** The first line where the sheet and the cards differ. */
export interface PrintedDifference {
  /** The roster's line (1-based; 0: the roster ends where the cards give more). */
  line: number;
  /** What the roster prints there ('' when it ends). */
  says: string;
  /** What the cards give there ('' when the roster has more); a problem's location as "FILE:LINE:COLUMN". */
  gives: string;
}

/**
 * A token to render in place of every problem's file (RenderOptions.file): private-use characters
 * around a random number, which clean() keeps and no format escapes, and which no sheet can know
 * in advance (a fleet named like a slot stays a name).
 */
export function locationSlot(): string {
  return `\ue000${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}\ue001`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A file name as each format prints it: any printable text but markup that could hide or restyle what follows. */
const FILE_IN: Record<RosterFormat, string> = {
  text: '[^\\u0000-\\u001f\\u007f]+?',
  short: '[^\\u0000-\\u001f\\u007f]+?',
  // esc(): no tag, and "&" only as the references it writes.
  html: '(?:[^<>&\\u0000-\\u001f\\u007f]|&(?:amp|lt|gt|quot|#39);)+?',
  // md(): every markdown character escaped with "\", and "&" only where no reference follows.
  markdown: '(?:\\\\[^\\u0000-\\u001f\\u007f]|[^\\\\`*_[\\]<>#|~&\\u0000-\\u001f\\u007f]|&(?!#?[\\p{L}\\p{N}]+;))+?',
  json: '(?:[^"\\\\\\u0000-\\u001f]|\\\\.)+',
};

interface Line {
  line: number;
  text: string;
}

function linesOf(text: string, format: RosterFormat): Line[] {
  const all = text
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((t, i) => ({ line: i + 1, text: format === 'html' ? t : t.replace(/\s+/g, ' ').trim() }));
  if (format !== 'html') return all.filter((l) => l.text !== '');
  // HTML: every line, the final line break (or its absence) aside.
  while (all.length && all[all.length - 1]!.text === '') all.pop();
  return all;
}

/** How one expected line is matched: the text itself, or a pattern when it holds a problem's location. */
function matcher(expected: string, format: RosterFormat, slot: string): { test: (s: string) => boolean; shown: string } {
  const file = FILE_IN[format];
  if (!expected.includes(slot)) return { test: (s) => s === expected, shown: expected };
  const parts = expected.split(slot);
  let source = escapeRegExp(parts[0]!);
  let shown = parts[0]!;
  for (const p of parts.slice(1)) {
    const m = format === 'json' ? null : /^:\d+:\d+/.exec(p);
    if (format === 'json' && !shown.endsWith('"')) {
      // A problem's line or column: a whole number.
      source += `\\d+${escapeRegExp(p)}`;
      shown += `N${p}`;
    } else if (m) {
      source += `${file}:\\d+:\\d+${escapeRegExp(p.slice(m[0].length))}`;
      shown += `FILE:LINE:COLUMN${p.slice(m[0].length)}`;
    } else {
      source += `${file}${escapeRegExp(p)}`;
      shown += `FILE${p}`;
    }
  }
  const re = new RegExp(`^${source}$`, 'u');
  return { test: (s) => re.test(s), shown };
}

/**
 * The first difference between the roster `given` and the same roster rendered from the list and
 * the cards (`expected`, in its format, with `slot` as every problem's file), or undefined when
 * they agree.
 */
export function printedDifference(given: string, expected: string, format: string, slot: string): PrintedDifference | undefined {
  if (!(ROSTER_FORMATS as readonly string[]).includes(format)) return undefined;
  const f = format as RosterFormat;
  const a = linesOf(given, f);
  let b = linesOf(expected, f);
  if (f === 'json') b = jsonLocations(b, slot);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    const m = y ? matcher(y.text, f, slot) : undefined;
    if (x && m && m.test(x.text)) continue;
    return { line: x?.line ?? 0, says: x?.text ?? '', gives: m?.shown ?? '' };
  }
  return undefined;
}

/** JSON: a problem's `"line"` and `"column"` after its `"file": "SLOT"` are any whole numbers. */
function jsonLocations(lines: Line[], slot: string): Line[] {
  return lines.map((l, i) => {
    const before = lines[i - 1]?.text ?? '';
    const twoBefore = lines[i - 2]?.text ?? '';
    if (/^"line": \d+,$/.test(l.text) && before === `"file": "${slot}",`) return { ...l, text: `"line": ${slot},` };
    if (/^"column": \d+,$/.test(l.text) && twoBefore === `"file": "${slot}",`) return { ...l, text: `"column": ${slot},` };
    return l;
  });
}
