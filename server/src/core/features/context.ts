/**
 * Where the cursor is, structurally, in text that is usually half-typed.
 *
 * Completion runs on text that is not valid YAML yet (`  cla` on a new line, `unit: ` with nothing
 * after it), so a parser's AST cannot say where the cursor is. This reads the indentation of the
 * lines above the cursor instead, the way YAML itself nests blocks, and returns the chain of keys
 * and list items down to the cursor. Written by hand: YAML parsers (yaml, @stoplight/yaml-ast-parser)
 * offer ASTs of what parses, not the path of a position in broken text, and yaml-language-server's
 * equivalent is tied to its own AST and JSON Schema machinery.
 */
import type { Span } from '../model/types';

export interface LineInfo {
  /** Offset of the line's first character. */
  start: number;
  /** Offset of the end of the line (before \r\n or \n). */
  end: number;
  /** The line's text without the line break. */
  text: string;
  /** Column of the first non-blank character (or the line length for blank lines). */
  indent: number;
  /** Column of the "- " list marker, when the line starts a list item. */
  dash?: number;
  /** Column where the content after the marker(s) starts. */
  contentCol: number;
  /** The key, when the content is `key:` or `key: value`. */
  key?: string;
  /** Column right after the key's colon. */
  colonCol?: number;
  /** The value's text after `key:` (or the item's text after "- "), comments removed, trimmed. */
  value: string;
  /** Column of the value's first character. */
  valueCol: number;
  blank: boolean;
}

const KEY_RE = /^((?:"[^"]*"|'[^']*'|[^\s#'"\-?:,[\]{}][^#:]*?|-[^\s#:][^#:]*?))[ \t]*:(?=[ \t]|$)/;

/** Strips a trailing " # comment" that is outside quotes. */
function stripComment(s: string): string {
  let q: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (q) {
      if (c === q) q = undefined;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /\s/.test(s[i - 1]!)) q = c;
    } else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]!))) {
      return s.slice(0, i);
    }
  }
  return s;
}

function unquote(k: string): string {
  const t = k.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

export function analyseLine(text: string, start: number): LineInfo {
  const end = start + text.length;
  const indent = text.length - text.trimStart().length;
  const blank = text.trim() === '' || text.trimStart().startsWith('#');
  const info: LineInfo = { start, end, text, indent, contentCol: indent, value: '', valueCol: text.length, blank };
  if (blank) return info;
  let col = indent;
  const m = /^-(?:[ \t]+|$)/.exec(text.slice(col));
  if (m) {
    info.dash = col;
    col += m[0].length;
    info.contentCol = col;
  }
  const rest = text.slice(col);
  const km = KEY_RE.exec(rest);
  if (km) {
    info.key = unquote(km[1]!);
    info.colonCol = col + km[0].length;
    const after = text.slice(info.colonCol);
    const lead = after.length - after.trimStart().length;
    info.valueCol = info.colonCol + lead;
    info.value = stripComment(after).trim();
  } else {
    info.valueCol = col;
    info.value = stripComment(rest).trim();
  }
  return info;
}

export function lineAt(text: string, offset: number): { start: number; text: string } {
  // lastIndexOf clamps a negative start to 0 and would find a '\n' at 0: the first line starts at 0.
  const start = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  const s = offset > 0 && text[offset - 1] === '\n' ? offset : start;
  let end = text.indexOf('\n', s);
  if (end < 0) end = text.length;
  let lineText = text.slice(s, end);
  if (lineText.endsWith('\r')) lineText = lineText.slice(0, -1);
  return { start: s, text: lineText };
}

/** Column of the first non-blank character of the line starting at `start` (the line's length if blank). */
function indentOf(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i - start;
}

/**
 * Iterates the lines before `offset`'s line, nearest first, without splitting the whole text.
 * Lines indented deeper than `maxIndent()` are skipped before any parsing: walking up from the
 * last card of a 20,000-line file to its `units:` key must stay cheap.
 */
export function* linesAbove(text: string, lineStart: number, maxIndent: () => number = () => Infinity): Generator<LineInfo> {
  let end = lineStart - 1; // the '\n' ending the previous line
  while (end >= 0) {
    // At end 0 (an empty first line) the search would find the '\n' at 0 again and never move on.
    const start = end > 0 ? text.lastIndexOf('\n', end - 1) + 1 : 0;
    const ind = indentOf(text, start, end);
    if (ind <= maxIndent() || start + ind >= end) {
      let t = text.slice(start, end);
      if (t.endsWith('\r')) t = t.slice(0, -1);
      yield analyseLine(t, start);
    }
    end = start - 1;
  }
}

export function* linesBelow(text: string, lineEnd: number, maxIndent = Infinity): Generator<LineInfo> {
  let start = text.indexOf('\n', lineEnd);
  while (start >= 0) {
    start += 1;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const ind = indentOf(text, start, end);
    if (ind <= maxIndent || start + ind >= end) {
      let t = text.slice(start, end);
      if (t.endsWith('\r')) t = t.slice(0, -1);
      yield analyseLine(t, start);
    }
    if (end >= text.length) return;
    start = end;
  }
}

/** One step of the path: a key, or a list item ('[]'), with the line it starts on. */
export interface PathStep {
  key: string;
  /** Offset of the line where the key or the item's "- " is. */
  lineStart: number;
  /** Column of the key or of the item's dash. */
  col: number;
}

export interface CursorContext {
  /** Keys from the root down to the mapping (or list) the cursor is in; '[]' for a list item. */
  path: PathStep[];
  /**
   * key: the cursor is where a key of the mapping at `path` goes;
   * value: the cursor is in the value of `key` (whose mapping is at `path`);
   * item: the cursor is right after a list marker, where a scalar item or a key may go.
   */
  mode: 'key' | 'value' | 'item';
  key?: string;
  /** What is typed from the token's start to the cursor. */
  prefix: string;
  /** What a completion replaces: the token under the cursor (value: the whole value). */
  replace: Span;
  /** The whole value text (value and item modes). */
  value: string;
  /** Keys already present in the mapping the cursor is in (key mode; item mode: the item's keys). */
  siblings: string[];
  /** Column where keys of the cursor's mapping start (for inserting nested text). */
  keyCol: number;
  /** The cursor line. */
  line: LineInfo;
}

/** The names of a path ('units', '[]', 'stats'). */
export function pathKeys(ctx: { path: PathStep[] }): string[] {
  return ctx.path.map((p) => p.key);
}

function isKeyOnly(l: LineInfo): boolean {
  return l.key !== undefined && (l.value === '' || /^[|>][-+0-9]*$/.test(l.value) || /^&\S+$/.test(l.value));
}

/**
 * The chain of parents of a position at column `col`, for a line starting at `lineStart`.
 * `inItemAt`: when the position is inside a list item whose dash is at that column.
 */
function parents(text: string, lineStart: number, col: number, inItemAt: number | undefined): PathStep[] {
  const path: PathStep[] = [];
  let mapCol = col;
  // When inside a list item, first find that sequence's parent.
  let seqCol = inItemAt;
  if (seqCol !== undefined) path.unshift({ key: '[]', lineStart, col: seqCol });
  for (const l of linesAbove(text, lineStart, () => seqCol ?? mapCol)) {
    if (l.blank) continue;
    if (seqCol !== undefined) {
      // Looking for the key that owns the sequence whose items are at seqCol.
      if (l.dash !== undefined && l.dash === seqCol) continue; // a sibling item
      if (l.indent > seqCol) continue; // inside a sibling item
      if (l.key !== undefined && isKeyOnly(l) && (l.contentCol < seqCol || (l.contentCol === seqCol && l.dash === undefined))) {
        path.unshift({ key: l.key, lineStart: l.start, col: l.contentCol });
        mapCol = l.contentCol;
        seqCol = undefined;
        if (l.dash !== undefined) {
          path.unshift({ key: '[]', lineStart: l.start, col: l.dash });
          seqCol = l.dash;
        }
        continue;
      }
      // Anything else at a smaller indentation: the structure is broken; stop here.
      if (l.indent <= seqCol) break;
      continue;
    }
    // Looking for the owner of the mapping whose keys are at mapCol.
    if (l.indent > mapCol) continue; // deeper content of a sibling
    if (l.dash !== undefined && l.contentCol === mapCol) {
      // The item that starts our mapping.
      path.unshift({ key: '[]', lineStart: l.start, col: l.dash });
      seqCol = l.dash;
      continue;
    }
    if (l.contentCol === mapCol && l.dash === undefined) continue; // a sibling key
    if (l.contentCol < mapCol) {
      if (l.key !== undefined && isKeyOnly(l)) {
        path.unshift({ key: l.key, lineStart: l.start, col: l.contentCol });
        mapCol = l.contentCol;
        if (l.dash !== undefined) {
          path.unshift({ key: '[]', lineStart: l.start, col: l.dash });
          seqCol = l.dash;
        }
        continue;
      }
      // A scalar key above at a smaller column: the cursor is over-indented; treat it as a sibling.
      mapCol = l.contentCol;
      if (l.dash !== undefined) {
        path.unshift({ key: '[]', lineStart: l.start, col: l.dash });
        seqCol = l.dash;
      }
      continue;
    }
    if (l.indent < mapCol) {
      // A line starting left of our mapping whose content is right of it (e.g. "- x" then deeper).
      if (l.dash !== undefined && l.dash < mapCol) {
        path.unshift({ key: '[]', lineStart: l.start, col: l.dash });
        seqCol = l.dash;
      }
    }
  }
  return path;
}

/** Keys of the mapping at column `col` around the cursor line (above and below, same block). */
function siblingKeys(text: string, line: LineInfo, col: number): string[] {
  const keys: string[] = [];
  if (line.key !== undefined && line.contentCol === col) keys.push(line.key);
  const walk = (it: Generator<LineInfo>, up: boolean): void => {
    for (const l of it) {
      if (l.blank) continue;
      if (l.indent > col) continue;
      if (l.dash !== undefined && l.contentCol === col) {
        // The item's first line: its key belongs to our mapping; above it the mapping ends.
        if (up && l.key !== undefined) keys.push(l.key);
        return;
      }
      if (l.contentCol === col && l.dash === undefined) {
        if (l.key !== undefined) keys.push(l.key);
        continue;
      }
      return;
    }
  };
  if (!(line.dash !== undefined && line.contentCol === col))
    walk(
      linesAbove(text, line.start, () => col),
      true,
    );
  walk(linesBelow(text, line.end, col), false);
  return keys;
}

/** Finds the structural context of `offset` in `text`. Never throws. */
export function cursorContext(text: string, offset: number): CursorContext {
  const off = Math.max(0, Math.min(text.length, offset));
  const at = lineAt(text, off);
  const line = analyseLine(at.text, at.start);
  const cursorCol = off - at.start;
  const base = { line, value: '', siblings: [] as string[] };

  // Value of "key: value" when the cursor is after the colon.
  if (line.key !== undefined && line.colonCol !== undefined && cursorCol >= line.colonCol) {
    const path = parents(text, at.start, line.contentCol, line.dash);
    const valueText = stripComment(line.text.slice(line.valueCol)).trimEnd();
    const replace = { start: at.start + line.valueCol, end: at.start + Math.max(line.valueCol, line.valueCol + valueText.length) };
    if (cursorCol < line.valueCol) replace.start = replace.end = Math.max(off, replace.start);
    const prefix = line.text.slice(line.valueCol, Math.max(line.valueCol, cursorCol));
    return {
      ...base,
      path,
      mode: 'value',
      key: line.key,
      prefix,
      replace: cursorCol < line.valueCol ? { start: off, end: off } : replace,
      value: valueText,
      keyCol: line.contentCol,
    };
  }

  // Blank line: the cursor's column decides the nesting.
  if (line.blank && !line.text.trimStart().startsWith('#')) {
    const col = cursorCol;
    const path = parents(text, at.start, col, undefined);
    const siblings = siblingKeys(text, line, col);
    return { ...base, path, mode: 'key', prefix: '', replace: { start: off, end: off }, keyCol: col, siblings };
  }

  // "- " item start, possibly with a partial word after it.
  if (line.dash !== undefined && line.key === undefined && cursorCol >= line.contentCol) {
    const valueText = stripComment(line.text.slice(line.contentCol)).trimEnd();
    const path = parents(text, at.start, line.contentCol, line.dash);
    const replace = { start: at.start + line.contentCol, end: at.start + line.contentCol + valueText.length };
    const prefix = line.text.slice(line.contentCol, cursorCol);
    return { ...base, path, mode: 'item', prefix, replace, value: valueText, keyCol: line.contentCol, siblings: [] };
  }

  // A partial key (no colon yet), or the cursor inside a key.
  const col = line.contentCol;
  const path = parents(text, at.start, col, line.dash);
  const word = line.key !== undefined ? line.text.slice(col, (line.colonCol ?? col + 1) - 1) : stripComment(line.text.slice(col)).trimEnd();
  const replace = { start: at.start + col, end: at.start + col + word.length };
  if (line.key === undefined && cursorCol < col) replace.start = replace.end = off;
  const siblings = siblingKeys(text, line, col).filter((k) => k !== line.key);
  return { ...base, path, mode: 'key', prefix: line.text.slice(col, Math.max(col, cursorCol)), replace, keyCol: col, siblings };
}
