/**
 * Folding ranges and selection ranges from the YAML structure, so that editors without an
 * indentation folder of their own (Neovim, Emacs) fold a card, a weapon list, a fleet entry, a
 * command ability, and grow a selection from a value to its line, its mapping, its list and its
 * card. Read with the yaml package's parser (the model keeps spans of what it reads, not of every
 * node); text that does not parse folds as far as it does.
 */
import { isCollection, isMap, isScalar, isSeq, parseDocument, type Node, type Pair } from 'yaml';
import type { Span } from '../model/types';

/** A region that folds: from the line of `start` to the line of `end` (offsets). */
export interface Fold {
  start: number;
  end: number;
  kind?: 'comment';
}

/** Where a node's content ends: its value's end, without the blanks after it. */
function contentEnd(text: string, end: number): number {
  let e = Math.min(end, text.length);
  while (e > 0 && /\s/.test(text[e - 1]!)) e--;
  return e;
}

function spanOf(text: string, node: Node | null | undefined): Span | undefined {
  const r = node?.range;
  if (!r) return undefined;
  return { start: r[0], end: Math.max(r[0], contentEnd(text, r[1])) };
}

function hasBreak(text: string, s: Span): boolean {
  const i = text.indexOf('\n', s.start);
  const j = text.indexOf('\r', s.start);
  return (i >= 0 && i < s.end) || (j >= 0 && j < s.end);
}

function parse(text: string) {
  return parseDocument(text, { keepSourceTokens: false, strict: false, uniqueKeys: false, prettyErrors: false });
}

/** The pair's span: from its key to the end of its value. */
function pairSpan(text: string, p: Pair): Span | undefined {
  const k = spanOf(text, p.key as Node | null);
  const v = spanOf(text, p.value as Node | null);
  if (!k) return v;
  return { start: k.start, end: Math.max(k.end, v?.end ?? k.end) };
}

/** Every region of more than one line: a key with a nested value (a card's `weapons:`), a list item (a card, an entry), runs of comment lines. */
export function foldingRanges(text: string): Fold[] {
  const out: Fold[] = [];
  try {
    const doc = parse(text);
    const walk = (node: unknown): void => {
      if (isMap(node)) {
        for (const p of node.items) {
          const s = pairSpan(text, p);
          if (s && (isCollection(p.value) || (isScalar(p.value) && (p.value.type === 'BLOCK_LITERAL' || p.value.type === 'BLOCK_FOLDED'))) && hasBreak(text, s))
            out.push(s);
          walk(p.value);
        }
      } else if (isSeq(node)) {
        for (const item of node.items) {
          const s = spanOf(text, item as Node);
          if (s && isCollection(item) && hasBreak(text, s)) {
            // From the item's "- ", where its line starts.
            const dash = text.lastIndexOf('-', s.start);
            out.push({ start: dash >= 0 && !/\S/.test(text.slice(dash + 1, s.start)) ? dash : s.start, end: s.end });
          }
          walk(item);
        }
      }
    };
    walk(doc.contents);
  } catch {
    // Folding is a convenience: a text the parser gives up on folds nothing.
  }
  // Runs of two or more whole-line comments.
  let run: Fold | undefined;
  let lines = 0;
  const re = /[^\r\n]*(\r\n|\r|\n|$)/g;
  for (let m = re.exec(text); m && m.index < text.length; m = re.exec(text)) {
    const line = m[0].replace(/[\r\n]+$/, '');
    const lead = line.length - line.trimStart().length;
    if (line.trimStart().startsWith('#')) {
      const end = m.index + line.length;
      if (run) {
        run.end = end;
        lines++;
      } else {
        run = { start: m.index + lead, end, kind: 'comment' };
        lines = 1;
      }
    } else {
      if (run && lines > 1) out.push(run);
      run = undefined;
    }
    if (!m[1]) break;
  }
  if (run && lines > 1) out.push(run);
  return out;
}

/**
 * The spans around `off`, innermost first: the scalar under the cursor, its `key: value`, the
 * mapping, the list item, the list with its key, and so on out to the whole document.
 */
export function selectionSpans(text: string, off: number): Span[] {
  const chain: Span[] = [];
  const add = (s: Span | undefined) => {
    if (!s || s.start > off || s.end < off) return;
    const last = chain[chain.length - 1];
    if (last && last.start === s.start && last.end === s.end) return;
    chain.push(s);
  };
  try {
    const doc = parse(text);
    // Outermost first, then reversed.
    const walk = (node: unknown): void => {
      if (isMap(node)) {
        for (const p of node.items) {
          const s = pairSpan(text, p);
          if (!s || s.start > off || s.end < off) continue;
          add(s);
          const k = spanOf(text, p.key as Node | null);
          if (k && k.start <= off && off <= k.end) add(k);
          else walk(p.value);
          return;
        }
      } else if (isSeq(node)) {
        for (const item of node.items) {
          const s = spanOf(text, item as Node);
          if (!s || s.start > off || s.end < off) continue;
          const dash = text.lastIndexOf('-', s.start);
          if (dash >= 0 && !/\S/.test(text.slice(dash + 1, s.start))) add({ start: dash, end: s.end });
          add(s);
          walk(item);
          return;
        }
      } else if (isScalar(node)) {
        add(spanOf(text, node));
      }
    };
    const root = spanOf(text, doc.contents);
    add({ start: 0, end: contentEnd(text, text.length) });
    add(root);
    walk(doc.contents);
  } catch {
    // A text the parser gives up on selects what was found so far.
  }
  return chain.reverse();
}
