/**
 * What a roster prints, beside what its fleet gives with the card files (`fabled-star verify`): the
 * digest covers the list and the cards, not the sheet, so a sheet whose points or stats were
 * changed by hand would still carry a digest that matches. The roster is rendered again, in its own
 * format, from the list read back and these cards, and the two are compared line by line, each
 * line trimmed and its spaces collapsed (a forum or a chat re-indents), over what comes from the
 * list and the cards: the header, the units with their cards, the points by class. The Command
 * Board (its faction file may not be among the cards given) and the problems (they name the files
 * they are in) are left out.
 */
import { ROSTER_FORMATS, type RosterFormat } from './render';
import { decodeEntities } from './import';

/** The first line where the sheet and the cards differ. */
export interface PrintedDifference {
  /** The roster's line (1-based; 0: the roster ends where the cards give more). */
  line: number;
  /** What the roster prints there ('' when it ends). */
  says: string;
  /** What the cards give there ('' when the roster has more). */
  gives: string;
}

/** Sections left out of the comparison. */
const LEFT_OUT = new Set(['command board', 'problems']);
/** Every section heading a roster prints (the text, markdown and HTML formats alike). */
const HEADINGS = new Set(['units', 'by class', 'unit cards', 'command board', 'problems']);

/**
 * A line about problems (one naming its code, or the counts of the verdict): the problems name the
 * files they are in, and a list read back is written cleanly, so its warnings need not be the same.
 */
const PROBLEM_LINE = /\bFS-[A-Z0-9]+(-[A-Z0-9]+)*\b|\b\d+ (errors?|warnings?|notes?)\b/;
/** The one line's counts, "(2 errors)". */
const COUNTS_NOTE = /\s*\(\d+ errors?(, \d+ warnings?)?\)/g;

interface Line {
  line: number;
  text: string;
}

/** The roster's lines as the comparison reads them: trimmed, spaces collapsed, empty ones and the left-out sections gone. */
function sheetLines(text: string, format: RosterFormat): Line[] {
  let source = text.replace(/\r\n?/g, '\n');
  // HTML: the text of each source line, the style sheet and scripts passed over (same lines kept).
  if (format === 'html') source = source.replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, (m) => m.replace(/[^\n]/g, ''));
  const out: Line[] = [];
  let skipping = false;
  source.split('\n').forEach((raw, i) => {
    let t = raw;
    if (format === 'html') t = decodeEntities(t.replace(/<[^>]*>/g, ' '));
    t = t.replace(/\s+/g, ' ').trim();
    if (!t) return;
    const heading = t
      .replace(/^#+\s*/, '')
      .trim()
      .toLowerCase();
    if (HEADINGS.has(heading)) skipping = LEFT_OUT.has(heading);
    if (skipping || PROBLEM_LINE.test(t)) return;
    out.push({ line: i + 1, text: format === 'short' ? t.replace(COUNTS_NOTE, '') : t });
  });
  return out;
}

/** Keys of the JSON roster about files and problems (see `sheetLines`), and the Command Board. */
const JSON_LEFT_OUT = new Set(['file', 'problems', 'board', 'counts', 'fleetCounts', 'cardCounts', 'legal', 'copyText']);

function withoutKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutKeys);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !JSON_LEFT_OUT.has(k))
      .map(([k, x]) => [k, withoutKeys(x)]),
  );
}

/** JSON: the same objects without what names files or problems, and the Command Board, as lines. */
function jsonLines(text: string): Line[] | undefined {
  try {
    const o = JSON.parse(text) as unknown;
    if (!o || typeof o !== 'object' || Array.isArray(o)) return undefined;
    return JSON.stringify(withoutKeys(o), null, 1)
      .split('\n')
      .map((t, i) => ({ line: i + 1, text: t.trim() }));
  } catch {
    return undefined;
  }
}

/**
 * The first difference between the roster `given` and the same roster rendered from the cards
 * (`rendered`, in its format), or undefined when they agree. For JSON the line is that of the
 * compared objects (problems and board left out), not of the file.
 */
export function printedDifference(given: string, rendered: string, format: string): PrintedDifference | undefined {
  if (!(ROSTER_FORMATS as readonly string[]).includes(format)) return undefined;
  const f = format as RosterFormat;
  const a = f === 'json' ? jsonLines(given) : sheetLines(given, f);
  const b = f === 'json' ? jsonLines(rendered) : sheetLines(rendered, f);
  if (!a || !b) return undefined;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x && y && x.text === y.text) continue;
    return { line: x?.line ?? 0, says: x?.text ?? '', gives: y?.text ?? '' };
  }
  return undefined;
}
