/**
 * What the checker refuses to read, and the cheap scans that find it before the YAML parser runs.
 *
 * The parser is recursive descent: nesting a few thousand levels deep exhausts the stack. That throws
 * a catchable RangeError, but it says nothing useful to the user, and the depth at which it happens
 * depends on how much stack the caller has left. Some inputs also cost the parser time quadratic in
 * their size (each unknown tag's error looks its line up by a linear search), and a file of
 * megabytes is not a card file. Each limit is far above anything a designer writes (a card file
 * nests six levels, uses no tags and is kilobytes) and far below where anything breaks (the parser
 * survives about 350 levels even with a fifth of Node's default stack).
 *
 * Hand-written, because the only library that tokenizes YAML without recursion here (the `yaml`
 * package's Lexer) takes about three times as long as the parse it would guard, on every keystroke.
 * The scan only needs brackets, quotes, comments, indentation and block scalars.
 */
import type { Span } from './types';

export const LIMITS = {
  /**
   * Characters in one file: 2 Mi, a 65,000-line card file (the largest example is 10 KB). The
   * parser reads densely written flow YAML at about 4 MB a second, and a check should take a
   * fraction of a second on a busy machine.
   */
  fileChars: 2 * 1024 * 1024,
  /**
   * Lines in one file. The parser's cost on broken YAML is in its errors (a few microseconds each,
   * at most two a line), so a file of nothing but errors is bounded by its lines, not its size.
   */
  fileLines: 50_000,
  /** Characters in one line: VS Code itself stops colouring lines at 20,000. */
  lineChars: 100_000,
  /** Levels of nesting (block and flow together). */
  depth: 100,
  /** YAML tags (`!name`): Fabled Star files need none. */
  tags: 100,
  /** Cards in one file: a faction has dozens. */
  cards: 2000,
  /** Problems listed for one file by the parse (the first of them say what is wrong). */
  problems: 1000,
  /** Unknown keys reported one by one in one mapping. */
  keyReports: 100,
  /** Items of any other list (fleet entries, embarked units, weapons, orders, abilities): a fleet has a few dozen. */
  listItems: 500,
} as const;

export interface Excess {
  what: 'depth' | 'tags';
  /** Where the limit was first passed. */
  at: number;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** "- - x", "? - x", "- ? x" from `i`: each indicator followed by a blank opens one more level; how many, and where the node starts. */
function compactIndicators(text: string, i: number, end: number): { count: number; at: number } {
  let count = 0;
  for (;;) {
    const c = text.charCodeAt(i);
    if (
      (c === 0x2d /* - */ || c === 0x3f /* ? */ || c === 0x3a) /* : */ &&
      (i + 1 >= end || isBlank(text.charCodeAt(i + 1)) || text.charCodeAt(i + 1) === CR)
    ) {
      count++;
      i++;
      while (i < end && isBlank(text.charCodeAt(i))) i++;
    } else return { count, at: i };
  }
}

/** Whether the token is | or > with up to two indicators (|- or >2): the start of a block scalar. */
function isBlockScalarIndicator(text: string, tokenStart: number, tokenEnd: number): boolean {
  return tokenStart >= 0 && tokenEnd - tokenStart <= 3 && /^[|>][0-9+-]{0,2}$/.test(text.slice(tokenStart, tokenEnd));
}

/**
 * Finds the first place where the text nests deeper than `LIMITS.depth` (counting `enclosing`
 * levels around the text, for a piece of a document) or uses more than `LIMITS.tags` tags. The
 * depth is an estimate that errs upwards: indentation levels on the way to a line, plus "- ", "? "
 * and ": " indicators that open a node on the same line, plus open flow brackets. Block scalars
 * (| and >) and quoted text are skipped, so text inside them never counts. Linear in the text.
 */
export function findExcess(text: string, limits: { depth: number; tags: number } = LIMITS, enclosing = 0): Excess | undefined {
  const max = limits.depth - enclosing;
  if (withinBounds(text, max, limits.tags)) return undefined;
  const indents: number[] = [];
  let flow = 0;
  let quote = 0; // the open quote character's code, or 0
  let blockScalarParent = -1; // indentation of the line that opened a block scalar, or -1
  let tags = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    let i = pos;
    // Block context at the start of the line: indentation, block scalars, compact indicators.
    let compact = 0;
    let nodeStart = true;
    let indent = -1; // set when the line starts in block context
    if (quote === 0 && flow === 0) {
      while (i < end && isBlank(text.charCodeAt(i))) i++;
      const c0 = i < end ? text.charCodeAt(i) : LF;
      const blank = c0 === LF || c0 === CR || c0 === 0x23; /* # */
      if (blockScalarParent >= 0 && (blank || i - pos > blockScalarParent)) {
        pos = end + 1;
        continue;
      }
      blockScalarParent = -1;
      if (blank) {
        pos = end + 1;
        continue;
      }
      indent = i - pos;
      while (indents.length && indents[indents.length - 1]! > indent) indents.pop();
      if (!indents.length || indents[indents.length - 1]! < indent) indents.push(indent);
      const node = compactIndicators(text, i, end);
      compact = node.count;
      i = node.at;
      if (indents.length + compact > max) return { what: 'depth', at: i };
    }
    const depthHere = indents.length + compact;
    let prev = i > pos ? text.charCodeAt(i - 1) : SPACE;
    // Where the last token outside comments started, to spot a block scalar indicator (| or >).
    let tokenStart = -1;
    let tokenEnd = -1;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (quote !== 0) {
        if (quote === 0x22 /* " */ && c === 0x5c /* \ */) i++;
        else if (c === quote) {
          if (quote === 0x27 /* ' */ && text.charCodeAt(i + 1) === 0x27) i++;
          else quote = 0;
        }
        prev = c;
        continue;
      }
      if (isBlank(c) || c === CR) {
        // After ": ", "- ", "? " or ", " a new node may start.
        if (prev === 0x3a || prev === 0x2d || prev === 0x3f || prev === 0x2c) nodeStart = true;
        prev = c;
        continue;
      }
      if (c === 0x23 /* # */ && isBlank(prev)) break;
      if (tokenEnd !== i) tokenStart = i;
      tokenEnd = i + 1;
      const start = nodeStart || (flow > 0 && (prev === 0x5b || prev === 0x7b || prev === 0x2c || prev === 0x3a));
      let opened = false;
      if (c === 0x22 || c === 0x27) {
        if (start) quote = c;
      } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
        if (start || flow > 0) {
          flow++;
          opened = true;
          if (depthHere + flow > max) return { what: 'depth', at: i };
        }
      } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
        if (flow > 0) flow--;
      } else if (c === 0x21 /* ! */ && start) {
        if (++tags > limits.tags) return { what: 'tags', at: i };
        // A tag (like an anchor) is followed by the node it belongs to.
        while (i + 1 < end && !isBlank(text.charCodeAt(i + 1))) i++;
        tokenEnd = i + 1;
        prev = 0x21;
        continue;
      } else if (c === 0x26 /* & */ && start) {
        while (i + 1 < end && !isBlank(text.charCodeAt(i + 1))) i++;
        tokenEnd = i + 1;
        prev = 0x26;
        continue;
      }
      nodeStart = opened || (c === 0x2c && flow > 0);
      prev = c;
    }
    // A line of block context whose last token is | or > (with up to two indicators such as |- or
    // >2) opens a block scalar: the lines indented more than this one are its text.
    if (indent >= 0 && quote === 0 && flow === 0 && isBlockScalarIndicator(text, tokenStart, tokenEnd)) blockScalarParent = indent;
    pos = end + 1;
  }
  return undefined;
}

/**
 * A quick proof that `findExcess` finds nothing, by native string searches instead of a scan of
 * every character (which, run cold on a fresh server's first 1 MB file, cost it 150+ ms). On a
 * line, the block depth is at most the length of its prefix of blanks and compact indicators plus
 * one (each level of indentation takes a column, each indicator two), flow depth at most the number
 * of `[` and `{` in the text, and tags at most the number of `!`.
 */
function withinBounds(text: string, maxDepth: number, maxTags: number): boolean {
  const count = (c: string, over: number) => {
    let n = 0;
    for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) if (++n > over) break;
    return n;
  };
  if (count('!', maxTags) > maxTags) return false;
  const flow = count('[', maxDepth) + count('{', maxDepth);
  if (flow >= maxDepth) return false;
  const prefix = /^[ \t?:-]+/gm;
  for (let m = prefix.exec(text); m; m = prefix.exec(text)) if (m[0].length + 1 + flow > maxDepth) return false;
  return true;
}

/** The number of lines, or `max + 1` as soon as there are more than `max`. */
export function countLines(text: string, max: number = LIMITS.fileLines): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) if (++n > max) break;
  return n;
}

/** Lines longer than `max` characters (not counting the line break). */
export function longLines(text: string, max: number = LIMITS.lineChars): Span[] {
  const out: Span[] = [];
  if (text.length <= max) return out;
  let pos = 0;
  while (pos <= text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const e = end > pos && text.charCodeAt(end - 1) === CR ? end - 1 : end;
    if (e - pos > max) out.push({ start: pos, end: e });
    pos = end + 1;
  }
  return out;
}

/** "4 MB" for messages: sizes in binary megabytes, kilobytes below one. */
export function size(chars: number): string {
  return chars >= 1024 * 1024 ? `${(chars / (1024 * 1024)).toFixed(chars % (1024 * 1024) ? 1 : 0)} MB` : `${Math.ceil(chars / 1024)} KB`;
}

/** A value for a message: one line, and short, however long the text it came from. */
export function clip(s: string, max = 60): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
