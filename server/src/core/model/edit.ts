/**
 * The one edit layer: every change the tools make to a user's file (the Fleet view's commands,
 * quick fixes, refactors, completion templates) is built from these helpers, so that each edit
 * changes exactly its target and nothing else:
 *
 * - new text is written with "\n" and goes into the file with the file's own line ending (LF,
 *   CRLF or a lone CR, all three of which YAML reads as a line break), see `withEol`;
 * - lines are found by any of those breaks, and a byte order mark is not a column;
 * - a node's lines end at its last content: the parser lets a node's range run on over the
 *   comment lines and indentation that follow it (a mapping whose last value is a nested block
 *   list ends where the next item starts), and those comments belong to what comes next;
 * - an item leaves a block or flow list with its own lines or its comma, and never with a
 *   comment that is not on its own lines; an item holding an anchor that is used elsewhere is
 *   not removed (the alias would dangle).
 *
 * Pure and text-only (offsets in UTF-16 code units); an edit that cannot be made safely is
 * `undefined`, never a guess.
 */
import type { ListField, Span } from './types';

/** Replace [start, end) of the text with `newText`. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

export function applyEdit(text: string, e: OffsetEdit): string {
  return text.slice(0, e.start) + e.newText + text.slice(e.end);
}

/** Applies edits that do not overlap (in any order). */
export function applyEdits(text: string, edits: readonly OffsetEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) out = applyEdit(out, e);
  return out;
}

export type Eol = '\n' | '\r\n' | '\r';

/** The file's line ending: that of its first line break (LF when it has none). */
export function eolOf(text: string): Eol {
  const i = text.search(/[\r\n]/);
  if (i < 0 || text[i] === '\n') return '\n';
  return text[i + 1] === '\n' ? '\r\n' : '\r';
}

/** `newText` (written with "\n", "\r\n" or "\r") with the line ending of `text`. */
export function withEol(text: string, newText: string): string {
  if (!/[\r\n]/.test(newText)) return newText;
  const eol = eolOf(text);
  return newText.replace(/\r\n|\r|\n/g, eol);
}

/** An edit of `text`, its new text in the file's line ending. */
export function textEdit(text: string, start: number, end: number, newText: string): OffsetEdit {
  return { start, end, newText: withEol(text, newText) };
}

function isBreak(c: string | undefined): boolean {
  return c === '\n' || c === '\r';
}

/** The start of the line holding `off`. */
export function lineStart(text: string, off: number): number {
  let i = Math.min(off, text.length);
  while (i > 0 && !isBreak(text[i - 1])) i--;
  return i;
}

/** The end of the line holding `off`, before its line break. */
export function lineEnd(text: string, off: number): number {
  let i = Math.max(0, off);
  while (i < text.length && !isBreak(text[i])) i++;
  return i;
}

/** The offset after the line break at `off` (a line end), or `off` at the end of the text. */
export function afterBreak(text: string, off: number): number {
  if (text[off] === '\r') return text[off + 1] === '\n' ? off + 2 : off + 1;
  if (text[off] === '\n') return off + 1;
  return off;
}

/** The column of `off`; a byte order mark at the start of the file is not one. */
export function column(text: string, off: number): number {
  const s = lineStart(text, off);
  return off - s - (s === 0 && text.charCodeAt(0) === 0xfeff && off > 0 ? 1 : 0);
}

/** The indentation of `off`'s column as spaces. */
export function indentOf(text: string, off: number): string {
  return ' '.repeat(column(text, off));
}

/** Whether a line's text (without its break) is blank or only a comment. */
function blankOrComment(line: string): boolean {
  const t = line.replace(/^\uFEFF/, '').trim();
  return t === '' || t.startsWith('#');
}

/**
 * Where a node's content ends: `span.end` without the trailing whitespace, whole comment lines
 * and next-item indentation (or "- ") the parser's range takes in. A comment on the node's last
 * content line stays part of it (it is on its own line).
 */
export function contentEnd(text: string, span: Span): number {
  let e = span.end;
  for (;;) {
    while (e > span.start && /\s/.test(text[e - 1]!)) e--;
    const ls = Math.max(span.start, lineStart(text, e));
    const line = text.slice(ls, e);
    // A comment line after the node, or the next item's indentation and "-", is not the node's.
    if (ls > span.start && (blankOrComment(line) || /^[ \t-]*$/.test(line))) {
      e = ls;
      continue;
    }
    return e;
  }
}

/** The whole lines from `start`'s line to the line of `end` (exclusive), with that line's break. */
export function wholeLines(text: string, start: number, end: number): Span {
  return { start: lineStart(text, start), end: afterBreak(text, lineEnd(text, Math.max(start, end - 1))) };
}

/** The lines a node's content is on (from the start of its first line), with the last line's break. */
export function nodeLines(text: string, span: Span): Span {
  return wholeLines(text, span.start, contentEnd(text, span));
}

/** Skips spaces, tabs and (optionally) line breaks and comments from `off`. */
export function skipSpace(text: string, off: number, lines: boolean): number {
  let i = off;
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || (lines && isBreak(text[i])))) i++;
    if (lines && text[i] === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      i = lineEnd(text, i);
      continue;
    }
    return i;
  }
}

/** The offset of the `-` that introduces a block sequence item, when there is one. */
export function dashBefore(text: string, itemStart: number): number | undefined {
  let k = itemStart - 1;
  for (;;) {
    while (k >= 0 && ' \t\r\n'.includes(text[k]!)) k--;
    // An anchor or a tag before the node ("- &flag Lumen Cruiser") is the item's too.
    let j = k;
    while (j >= 0 && !/\s/.test(text[j]!)) j--;
    if (k >= 0 && /^[&!]/.test(text.slice(j + 1, k + 1))) {
      k = j;
      continue;
    }
    break;
  }
  return k >= 0 && text[k] === '-' && (k === 0 || /[\s\uFEFF]/.test(text[k - 1]!)) ? k : undefined;
}

/** Where a node's properties (an anchor `&a`, a tag `!t`) start, when it has any; else the node's start. */
export function propsStart(text: string, nodeStart: number): number {
  let start = nodeStart;
  let k = nodeStart - 1;
  for (;;) {
    while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
    let j = k;
    while (j >= 0 && !/\s/.test(text[j]!) && !'[{,'.includes(text[j]!)) j--;
    if (k < 0 || !/^[&!]/.test(text.slice(j + 1, k + 1))) return start;
    start = j + 1;
    k = j;
  }
}

/** The bracket that closes the `[` or `{` at `open`, skipping quoted scalars, comments and nested collections. */
export function matchingBracket(text: string, open: number): number | undefined {
  const want = text[open] === '[' ? ']' : '}';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === "'") {
      for (i++; i < text.length; i++) {
        if (text[i] === "'" && text[i + 1] === "'") i++;
        else if (text[i] === "'") break;
      }
    } else if (c === '#' && /\s/.test(text[i - 1] ?? ' ')) {
      i = lineEnd(text, i) - 1;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return c === want ? i : undefined;
    }
  }
  return undefined;
}

/** The comments in [start, end): each from its `#` to its line's end (outside quoted scalars). */
export function commentsIn(text: string, start: number, end: number): string[] {
  const out: string[] = [];
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < end && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === "'") {
      for (i++; i < end; i++) {
        if (text[i] === "'" && text[i + 1] === "'") i++;
        else if (text[i] === "'") break;
      }
    } else if (c === '#' && (i === 0 || /[\s\uFEFF]/.test(text[i - 1]!))) {
      const e = Math.min(end, lineEnd(text, i));
      out.push(text.slice(i, e).trimEnd());
      i = e;
    }
  }
  return out;
}

/** Whether an anchor (`&name`) defined in [start, end) is used by an alias (`*name`) outside that range. */
export function anchorUsed(text: string, start: number, end: number): boolean {
  const piece = text.slice(start, end);
  for (const m of piece.matchAll(/(?:^|[\s[{,])&([^\s,[\]{}]+)/g)) {
    const alias = new RegExp(`\\*${m[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![^\\s,\\]}])`);
    if (alias.test(text.slice(0, start)) || alias.test(text.slice(end))) return true;
  }
  return false;
}

/**
 * Whether item `index` is written where it stands, after the items before it. An alias
 * (`- *flag`) reads as the anchored node, whose text is earlier: editing "it" would edit another
 * entry.
 */
export function ownText(items: readonly { span: Span }[], index: number): boolean {
  const item = items[index];
  if (!item) return false;
  for (let i = 0; i < index; i++) if (items[i]!.span.end > item.span.start) return false;
  return true;
}

/** How a key's list value is written: a block list, a flow list, nothing yet, or a single scalar. */
export type ListStyle = { kind: 'block' } | { kind: 'flow'; open: number; close: number } | { kind: 'empty'; lineEnd: number } | { kind: 'scalar' };

/** How `list`'s value is written, found from the text after its key. */
export function styleOf(text: string, list: { keySpan: Span }): ListStyle {
  let i = list.keySpan.end;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (text[i] !== ':') return { kind: 'scalar' };
  i = skipSpace(text, i + 1, false);
  if (text[i] === '[') {
    const close = matchingBracket(text, i);
    return close === undefined ? { kind: 'scalar' } : { kind: 'flow', open: i, close };
  }
  if (i >= text.length || isBreak(text[i]) || text[i] === '#') {
    const j = skipSpace(text, i, true);
    if (text[j] === '-' && dashBefore(text, j + 1) === j && column(text, j) >= column(text, list.keySpan.start)) return { kind: 'block' };
    return { kind: 'empty', lineEnd: lineEnd(text, i) };
  }
  return { kind: 'scalar' };
}

/**
 * Appends an item to the list under `list`'s key: `blockItem` ("- ..." written with "\n") in a
 * block list or under an empty key (at `indentIfEmpty` columns), `flowItem` in a flow list.
 */
export function appendItem(text: string, list: ListField<{ span: Span }>, blockItem: string, flowItem: string, indentIfEmpty: number): OffsetEdit | undefined {
  const style = styleOf(text, list);
  const items = list.items;
  switch (style.kind) {
    case 'flow': {
      const inner = text.slice(style.open + 1, style.close);
      if (items.length === 0) {
        if (inner.trim() !== '') {
          // Only comments inside: keep them, add before the "]".
          return commentsIn(text, style.open + 1, style.close).length ? undefined : textEdit(text, style.open, style.close + 1, `[${flowItem}]`);
        }
        return textEdit(text, style.open, style.close + 1, `[${flowItem}]`);
      }
      // After the list's last written item (an alias reads as an earlier node, so not its span):
      // the last significant character before the "]", a trailing comma's or an item's.
      const last = lastSignificant(text, style.open, style.close);
      if (last === style.open) return undefined;
      return textEdit(text, last + 1, last + 1, text[last] === ',' ? ` ${flowItem}` : `, ${flowItem}`);
    }
    case 'block': {
      const first = items[0];
      if (!first) return undefined;
      const dash = dashBefore(text, first.span.start);
      if (dash === undefined || first.span.start < list.keySpan.end) return undefined;
      // After the list's last content line (the list's own range: an alias item has none of its own).
      const at = lineEnd(text, contentEnd(text, { start: first.span.start, end: Math.max(list.span.end, ...items.map((x) => x.span.end)) }));
      return textEdit(text, at, at, `\n${indentOf(text, dash)}${indentLines(blockItem, indentOf(text, dash))}`);
    }
    case 'empty':
      return textEdit(text, style.lineEnd, style.lineEnd, `\n${' '.repeat(indentIfEmpty)}${indentLines(blockItem, ' '.repeat(indentIfEmpty))}`);
    case 'scalar':
      return undefined;
  }
}

/** The last character in (open, close) that is not a blank or in a comment (skipping quoted scalars); `open` when there is none. */
export function lastSignificant(text: string, open: number, close: number): number {
  let last = open;
  for (let i = open + 1; i < close; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      for (i++; i < close && text[i] !== c; i++) if (c === '"' && text[i] === '\\') i++;
      last = i;
    } else if (c === '#' && /\s/.test(text[i - 1]!)) i = lineEnd(text, i) - 1;
    else if (!/\s/.test(c)) last = i;
  }
  return last;
}

/** A block item's continuation lines, indented to its dash's column. */
function indentLines(item: string, indent: string): string {
  return item.replace(/\n/g, `\n${indent}`);
}

/**
 * Removes item `index` of a block or flow list: in a block list its own lines (its comments
 * between its lines go with it, the comment lines after it stay); in a flow list the item and
 * its comma, or its whole lines when it has lines of its own.
 */
export function removeItem(text: string, list: ListField<{ span: Span }>, index: number): OffsetEdit | undefined {
  const item = list.items[index];
  if (!item || !ownText(list.items, index)) return undefined;
  const style = styleOf(text, list);
  let edit: OffsetEdit | undefined;
  if (style.kind === 'flow') edit = removeFlowItem(text, style, list.items, index);
  else if (style.kind === 'block') {
    const dash = dashBefore(text, item.span.start);
    if (dash === undefined || item.span.start < list.keySpan.end) return undefined;
    const start = lineStart(text, dash);
    // Only whitespace may precede the dash on its line, or the line holds something else too.
    if (
      text
        .slice(start, dash)
        .replace(/^\uFEFF/, '')
        .trim() !== ''
    )
      return undefined;
    const lines = wholeLines(text, dash, contentEnd(text, item.span));
    edit = { start: lines.start, end: lines.end, newText: '' };
  }
  if (!edit) return undefined;
  // A byte order mark is not part of the first line.
  if (edit.start === 0 && text.charCodeAt(0) === 0xfeff) edit = { ...edit, start: 1 };
  return anchorUsed(text, edit.start, edit.end) ? undefined : edit;
}

function removeFlowItem(text: string, style: { open: number; close: number }, items: { span: Span }[], index: number): OffsetEdit | undefined {
  const item = items[index]!;
  const s = propsStart(text, item.span.start);
  const e = contentEnd(text, item.span);
  if (s < style.open || e > style.close) return undefined;
  // The item alone on its line(s): nothing but blanks before it on its first line.
  const ownLine = text.slice(lineStart(text, s), s).trim() === '';
  const after = skipSpace(text, e, false);
  if (text[after] === ',') {
    const k = skipSpace(text, after + 1, false);
    const restBlank = k >= text.length || isBreak(text[k]) || text[k] === '#';
    if (ownLine && restBlank) {
      const lines = wholeLines(text, s, lineEnd(text, k));
      return { start: lines.start, end: lines.end, newText: '' };
    }
    // "A, B": take "A, " (but keep a space before a comment that follows).
    return { start: s, end: restBlank ? after + 1 : k, newText: '' };
  }
  if (text[after] !== ']' && !isBreak(text[after]) && text[after] !== '#') return undefined;
  // The last item: the comma before it goes too when it is on the same line.
  if (index > 0) {
    const prevEnd = contentEnd(text, items[index - 1]!.span);
    const comma = skipSpace(text, prevEnd, true);
    if (text[comma] !== ',' || comma > s) return undefined;
    if (/^[ \t]*$/.test(text.slice(comma + 1, s))) return { start: comma, end: e, newText: '' };
    // The item is on a line of its own after "A," (and perhaps comments): take its line if nothing else
    // is on it, else the item alone; the comma left behind is a trailing comma, which YAML allows.
    if (ownLine && skipSpace(text, e, false) === lineEnd(text, e)) {
      const lines = wholeLines(text, s, e);
      return { start: lines.start, end: lines.end, newText: '' };
    }
    return { start: s, end: e, newText: '' };
  }
  return { start: s, end: e, newText: '' };
}
