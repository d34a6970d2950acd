/**
 * Card-by-card parsing. A card file is mostly one long block list under `units:`; each item is a
 * card that YAML lets us parse on its own. Parsing item by item, and keeping the result of each
 * item's text, turns a keystroke in a 20,000-line file into the parse of one card, and keeps a
 * syntax error in one card from swallowing the cards after it.
 *
 * We only split where it cannot change the meaning: block lists (not flow), and files without
 * anchors, aliases, tags, tabs at line starts or document markers (an alias may point into another
 * card). Anything else is parsed whole.
 */
import type { Problem, Span, UnitCard } from './types';

export interface ItemRange {
  start: number;
  end: number;
}

export interface Split {
  /** Offset where the list's items start and end. */
  listStart: number;
  listEnd: number;
  items: ItemRange[];
}

const UNSAFE = /(?:^|[\s[{,])[&*!][^\s]|^\t|^(?:---|\.\.\.)(?:\s|$)|^%|^ *\? /m;

/** Finds the items of the top-level block list under `key:`, or undefined when splitting is not safe. */
export function splitList(text: string, key = 'units'): Split | undefined {
  if (UNSAFE.test(text)) return undefined;
  const head = new RegExp(`^${key}:[ \\t]*(?:#[^\\n]*)?\\r?$`, 'm').exec(text);
  if (!head) return undefined;
  let pos = head.index + head[0].length + 1;
  let indent = -1;
  const items: ItemRange[] = [];
  let listEnd = text.length;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(pos, lineEnd);
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed === '\r' || trimmed.startsWith('#')) {
      pos = lineEnd + 1;
      continue;
    }
    const ind = line.length - trimmed.length;
    const isItem = trimmed.startsWith('- ') || trimmed === '-' || trimmed === '-\r';
    if (indent < 0) {
      if (!isItem) return undefined; // `units:` followed by something other than a block list
      indent = ind;
    }
    if (ind < indent || (ind === indent && !isItem)) {
      listEnd = pos;
      break;
    }
    if (ind === indent) {
      if (items.length) items[items.length - 1]!.end = pos;
      items.push({ start: pos, end: text.length });
    }
    pos = lineEnd + 1;
  }
  if (!items.length) return undefined;
  items[items.length - 1]!.end = Math.min(items[items.length - 1]!.end, listEnd);
  // Give trailing blank and comment lines back to the list's end, so a key after it is untouched.
  return { listStart: items[0]!.start, listEnd, items };
}

/** What one item's text parsed to, with offsets relative to the item's start. */
export interface ChunkResult {
  text: string;
  cards: UnitCard[];
  problems: Problem[];
  /** Problems of the card checks, relative, filled in lazily by the validator. */
  checks?: Problem[];
  /** The last absolute copy made, reused while the item stays at the same offset. */
  placed?: { base: number; cards: UnitCard[]; problems: Problem[]; checks?: Problem[] };
}

/** Results by item text; entries not used by the latest parse are dropped, so it stays small. */
export class ChunkCache {
  private map = new Map<string, ChunkResult>();
  private next = new Map<string, ChunkResult>();

  get(text: string): ChunkResult | undefined {
    const hit = this.map.get(text) ?? this.next.get(text);
    if (hit) this.next.set(text, hit);
    return hit;
  }

  set(text: string, r: ChunkResult): void {
    this.next.set(text, r);
  }

  /** Called after a whole document was parsed: keeps just what it used. */
  sweep(): void {
    this.map = this.next;
    this.next = new Map();
  }

  get size(): number {
    return this.map.size;
  }
}

/** Where an absolute card came from, for the validator's per-card cache. */
export const ORIGIN = Symbol('chunk-origin');
export interface Origin {
  chunk: ChunkResult;
  base: number;
}

export function originOf(card: UnitCard): Origin | undefined {
  return (card as unknown as { [ORIGIN]?: Origin })[ORIGIN];
}

function isSpan(o: object): o is Span {
  const keys = Object.keys(o);
  return keys.length === 2 && typeof (o as Span).start === 'number' && typeof (o as Span).end === 'number';
}

/**
 * A deep copy with every span moved by `delta`. Shared objects stay shared in the copy (a stat
 * line token's span is both its key and its value span). `replace` swaps whole values by key.
 */
export function shifted<T>(value: T, delta: number, replace?: Record<string, unknown>): T {
  const seen = new Map<object, unknown>();
  const walk = (v: unknown, key?: string): unknown => {
    if (key !== undefined && replace && key in replace) return replace[key];
    if (v === null || typeof v !== 'object') return v;
    const done = seen.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      seen.set(v, out);
      for (const x of v) out.push(walk(x));
      return out;
    }
    if (isSpan(v)) {
      const s = { start: v.start + delta, end: v.end + delta };
      seen.set(v, s);
      return s;
    }
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    for (const k of Object.keys(v)) out[k] = walk((v as Record<string, unknown>)[k], k);
    return out;
  };
  return walk(value) as T;
}
