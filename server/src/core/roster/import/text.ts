/** The text as lines (cut to a bounded length), and the small decodings every reader uses: HTML entities, markdown escapes, a points limit. */
import { IMPORT_LIMITS } from './types';

/**
 * The text's lines, each cut to `IMPORT_LIMITS.lineChars` (the patterns of a line stay cheap), with
 * the lines that were cut kept whole by line number (a list written on one line is read piece by
 * piece: `longPieces`), and whether the text has more lines than are read.
 */
export interface Lines {
  all: string[];
  /** 1-based line -> the whole line, for each line longer than the limit. */
  long: Map<number, string>;
  /** Whether lines after `IMPORT_LIMITS.lines` were left unread. */
  more: boolean;
}

export function lines(text: string): Lines {
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
export function longPieces(line: string): string[] | undefined {
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

export function decodeHtml(s: string): string {
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

export function unescapeMd(s: string): string {
  return s.replace(/\\(.)/g, '$1').replace(/@\u200b/g, '@');
}

/** "970 / 1000 pts", "970/1000" -> 1000; "970 pts" -> undefined. */
export function limitOf(s: string): number | undefined {
  const m = /(\d{1,7}(?:\+\?)?)\s*\/\s*(\d{1,7})\b/.exec(s);
  return m ? Number(m[2]) : undefined;
}

/** Text of a posted heading: no heading marks, emphasis or markdown escapes. */
export function postText(s: string): string {
  return s
    .replace(/^#+\s*/, '')
    .replace(/\*\*|__/g, '')
    .replace(/\\([\\`*_[\]{}<>()#+\-.!|~:@&=])/g, '$1')
    .trim();
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
