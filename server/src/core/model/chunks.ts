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
import { getMemo, memo, setMemo } from './memo';

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

/** Whether anything in the text could tie one item to another or change how lines nest. */
function unsafe(text: string): boolean {
  // Anchors (&a), aliases (*a) and tags (!t) where YAML would read them: after a space, a flow
  // indicator or a line start, and followed by a name. Checked by hand: one regex with a
  // look-behind over the whole file costs more than these scans.
  for (const c of ['&', '*', '!']) {
    for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) {
      const before = i === 0 ? '\n' : text[i - 1]!;
      const after = text[i + 1];
      if (after !== undefined && !/\s/.test(after) && /[\s[{,]/.test(before)) return true;
    }
  }
  return /^\t|^(?:---|\.\.\.)(?:\s|$)|^%|^ *\? /m.test(text);
}

/** Finds the items of the top-level block list under `key:`, or undefined when splitting is not safe. */
export function splitList(text: string, key = 'units'): Split | undefined {
  const head = new RegExp(`^${key}:[ \\t]*(?:#[^\\n]*)?\\r?$`, 'm').exec(text);
  if (!head || unsafe(text)) return undefined;
  let pos = head.index + head[0].length + 1;
  let indent = -1;
  const items: ItemRange[] = [];
  let listEnd = text.length;
  while (pos < text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    let i = pos;
    while (i < nl && text.charCodeAt(i) === 32) i++;
    const c = text[i];
    if (i >= nl || c === '\r' || c === '#') {
      pos = nl + 1;
      continue;
    }
    const ind = i - pos;
    const isItem = c === '-' && (i + 1 >= nl || text[i + 1] === ' ' || text[i + 1] === '\r');
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
    pos = nl + 1;
  }
  if (!items.length) return undefined;
  items[items.length - 1]!.end = Math.min(items[items.length - 1]!.end, listEnd);
  return { listStart: items[0]!.start, listEnd, items };
}

/** What one item's text parsed to, with absolute offsets for where it stands now (`base`). */
export interface ChunkResult {
  text: string;
  base: number;
  cards: UnitCard[];
  problems: Problem[];
  /** Problems of the card checks, filled in by the validator, kept with the card. */
  checks?: Problem[];
}

/** Results by item text; entries not used by the latest parse are dropped, so it stays small. */
export class ChunkCache {
  private map = new Map<string, ChunkResult>();
  private next = new Map<string, ChunkResult>();

  /**
   * `keeps`: false for a text parsed once and dropped (a closed file): then nothing is kept, not even
   * each card's origin (its checks' cache), which would only outlive the young generation as garbage.
   */
  constructor(readonly keeps = true) {}

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

/** Where a card came from, for the validator's per-card cache (kept on the card). */
const ORIGIN = memo<ChunkResult>('card origin');

export function setOrigin(card: UnitCard, chunk: ChunkResult): void {
  setMemo(card, ORIGIN, chunk);
}

export function originOf(card: UnitCard): ChunkResult | undefined {
  return getMemo(card, ORIGIN);
}

function isSpan(o: object): o is Span {
  const keys = Object.keys(o);
  return keys.length === 2 && typeof (o as Span).start === 'number' && typeof (o as Span).end === 'number';
}

/**
 * Moves a chunk's results to a new offset, in place: every span in its cards and problems moves
 * by the difference. In place, because copying every card after an edit near the top of a large
 * file would cost more than parsing it; documents older than the latest share these objects and
 * are not to be used once a newer version exists (the server never publishes stale results).
 */
export function moveChunk(chunk: ChunkResult, base: number): void {
  const delta = base - chunk.base;
  if (delta === 0) return;
  chunk.base = base;
  const seen = new Set<object>();
  const walk = (v: unknown, key?: string): void => {
    if (v === null || typeof v !== 'object' || key === 'faction' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (isSpan(v)) {
      v.start += delta;
      v.end += delta;
      return;
    }
    for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], k);
  };
  walk(chunk.cards);
  walk(chunk.problems);
  if (chunk.checks) walk(chunk.checks);
}

/** Moves every position of a freshly parsed YAML tree by `delta` (its errors stay as they are). */
export function shiftTree(root: { startPosition: number; endPosition: number }, delta: number): void {
  // The tree is a tree: children hang off key, value, mappings and items; an alias (kind 4) points
  // at another node through `value`, which is moved where it stands, so it is not followed here.
  type N = { startPosition: number; endPosition: number; kind?: number; key?: N; value?: unknown; mappings?: N[]; items?: N[] };
  const stack: N[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    n.startPosition += delta;
    n.endPosition += delta;
    if (n.key) stack.push(n.key);
    if (n.kind !== 4 && n.value && typeof n.value === 'object') stack.push(n.value as N);
    if (n.mappings) for (const m of n.mappings) if (m) stack.push(m);
    if (n.items) for (const m of n.items) if (m) stack.push(m);
  }
}
