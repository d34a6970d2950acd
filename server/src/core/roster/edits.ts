/**
 * The roster's edits as plain text edits on the fleet's YAML, so the file stays the source of
 * truth: add a unit, remove an entry, embark a unit, disembark one. Each edit keeps the list's
 * style (block or flow), its indentation, its line endings and the user's comments, and quotes
 * names that YAML would misread. Pure; an edit that cannot be made safely is `undefined`.
 */
import type { FleetDocument, FleetEntry, ListField, Span, Field } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { LAUNCH_BAY, type UnitClass } from '../rules/data';
import { bayCapacity } from '../model/derived';
import { yamlScalar, lineEnd } from '../features/shared';
import { fleetTotals, type FleetTotals } from '../fleetPoints';

/** Replace [start, end) of the text with `newText`. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

export function applyEdit(text: string, e: OffsetEdit): string {
  return text.slice(0, e.start) + e.newText + text.slice(e.end);
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** A name as a scalar inside a flow collection, where `,` `[` `]` `{` `}` end a plain scalar. */
function flowScalar(s: string): string {
  const plain = yamlScalar(s);
  return plain.startsWith('"') || !/[,[\]{}]/.test(plain) ? plain : JSON.stringify(s);
}

/** A node's end without the trailing whitespace and line breaks some nodes' ranges take in. */
function contentEnd(text: string, span: Span): number {
  let e = span.end;
  while (e > span.start && /\s/.test(text[e - 1]!)) e--;
  return e;
}

function lineStartOf(text: string, off: number): number {
  return text.lastIndexOf('\n', Math.max(0, off - 1)) + 1;
}

function column(text: string, off: number): number {
  return off - lineStartOf(text, off);
}

/** The offset of the `-` that introduces a block sequence item, when there is one. */
function dashBefore(text: string, itemStart: number): number | undefined {
  let k = itemStart - 1;
  while (k >= 0 && ' \t\r\n'.includes(text[k]!)) k--;
  return k >= 0 && text[k] === '-' ? k : undefined;
}

/** Skips spaces, tabs and (optionally) line breaks and comments from `off`. */
function skipSpace(text: string, off: number, lines: boolean): number {
  let i = off;
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || (lines && (text[i] === '\n' || text[i] === '\r')))) i++;
    if (lines && text[i] === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    return i;
  }
}

type Style = { kind: 'block' } | { kind: 'flow'; open: number; close: number } | { kind: 'empty'; lineEnd: number } | { kind: 'scalar' };

/** How a key's list value is written, found from the text after the key. */
function styleOf(text: string, list: ListField<unknown>): Style {
  let i = list.keySpan.end;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (text[i] !== ':') return { kind: 'scalar' };
  i = skipSpace(text, i + 1, false);
  if (text[i] === '[') {
    const close = matchingBracket(text, i);
    return close === undefined ? { kind: 'scalar' } : { kind: 'flow', open: i, close };
  }
  if (i >= text.length || text[i] === '\n' || text[i] === '\r' || text[i] === '#') {
    const j = skipSpace(text, i, true);
    if (text[j] === '-' && dashBefore(text, j + 1) === j && column(text, j) >= column(text, list.keySpan.start)) return { kind: 'block' };
    return { kind: 'empty', lineEnd: lineEnd(text, i) };
  }
  return { kind: 'scalar' };
}

/** The `]` that closes the `[` at `open`, skipping quoted scalars and nested collections. */
function matchingBracket(text: string, open: number): number | undefined {
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
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return c === ']' ? i : undefined;
    }
  }
  return undefined;
}

/** Appends `item` (already YAML text for one item) to a list under `list`'s key. */
function appendItem(text: string, list: ListField<{ span: Span }>, blockItem: string, flowItem: string, keyIndentIfEmpty: number): OffsetEdit | undefined {
  const eol = eolOf(text);
  const style = styleOf(text, list);
  const items = list.items;
  switch (style.kind) {
    case 'flow': {
      const inner = text.slice(style.open + 1, style.close);
      if (inner.trim() === '' || items.length === 0) return { start: style.open, end: style.close + 1, newText: `[${flowItem}]` };
      // After the last item (and any trailing comma), right before "]".
      const last = items[items.length - 1]!;
      const lastEnd = contentEnd(text, last.span);
      if (lastEnd > style.close || last.span.start < style.open) return undefined;
      let at = skipSpace(text, lastEnd, true);
      if (text[at] === ',') {
        at = skipSpace(text, at + 1, true);
        return { start: at, end: at, newText: `${flowItem}` + (at === style.close ? '' : ', ') };
      }
      return { start: lastEnd, end: lastEnd, newText: `, ${flowItem}` };
    }
    case 'block': {
      const last = items[items.length - 1];
      const first = items[0];
      if (!last || !first) return undefined;
      const dash = dashBefore(text, first.span.start);
      if (dash === undefined || last.span.start < list.keySpan.end) return undefined;
      const at = lineEnd(text, contentEnd(text, last.span));
      return { start: at, end: at, newText: `${eol}${' '.repeat(column(text, dash))}${blockItem}` };
    }
    case 'empty':
      return { start: style.lineEnd, end: style.lineEnd, newText: `${eol}${' '.repeat(keyIndentIfEmpty)}${blockItem}` };
    case 'scalar':
      return undefined;
  }
}

/** Removes one item of a block or flow list, with its line(s) or its comma. */
function removeItem(text: string, list: ListField<{ span: Span }>, index: number): OffsetEdit | undefined {
  const item = list.items[index];
  if (!item) return undefined;
  const style = styleOf(text, list);
  if (style.kind === 'flow') {
    const itemEnd = contentEnd(text, item.span);
    if (item.span.start < style.open || itemEnd > style.close) return undefined;
    const after = skipSpace(text, itemEnd, true);
    if (text[after] === ',') return { start: item.span.start, end: skipSpace(text, after + 1, true), newText: '' };
    // The last item: take the comma before it instead.
    let before = item.span.start - 1;
    while (before > style.open && /\s/.test(text[before]!)) before--;
    if (text[before] === ',') return { start: before, end: itemEnd, newText: '' };
    return { start: item.span.start, end: itemEnd, newText: '' };
  }
  if (style.kind !== 'block') return undefined;
  const dash = dashBefore(text, item.span.start);
  if (dash === undefined || item.span.start < list.keySpan.end) return undefined;
  const start = lineStartOf(text, dash);
  // Only whitespace may precede the dash on its line, or the line holds something else too.
  if (text.slice(start, dash).trim() !== '') return undefined;
  let end = lineEnd(text, contentEnd(text, item.span));
  if (text.startsWith('\r\n', end)) end += 2;
  else if (text[end] === '\n') end += 1;
  return { start, end, newText: '' };
}

/** Adds an entry for the card `name` at the end of the fleet's units. */
export function addUnitEdit(doc: FleetDocument, name: string, count = 1): OffsetEdit | undefined {
  const text = doc.text;
  const eol = eolOf(text);
  const n = Number.isInteger(count) && count > 1 ? count : 1;
  const block = (indent: string) => `- unit: ${yamlScalar(name)}${n > 1 ? `${eol}${indent}  count: ${n}` : ''}`;
  const flow = n > 1 ? `{unit: ${flowScalar(name)}, count: ${n}}` : flowScalar(name);
  if (doc.unread) return undefined;
  if (!doc.units) {
    // No units key: append one at the end of the file (top-level keys start at column 0).
    const sep = text.length === 0 || text.endsWith('\n') ? '' : eol;
    return { start: text.length, end: text.length, newText: `${sep}units:${eol}  ${block('  ')}${eol}` };
  }
  const keyCol = column(text, doc.units.keySpan.start);
  const style = styleOf(text, doc.units);
  let indent = ' '.repeat(keyCol + 2);
  if (style.kind === 'block') {
    const dash = dashBefore(text, doc.units.items[0]!.span.start);
    if (dash !== undefined) indent = ' '.repeat(column(text, dash));
  }
  return appendItem(text, doc.units, block(indent), flow, keyCol + 2);
}

/** Removes the fleet's entry `index` (0-based, as in the roster). */
export function removeEntryEdit(doc: FleetDocument, index: number): OffsetEdit | undefined {
  if (!doc.units || doc.unread) return undefined;
  return removeItem(doc.text, doc.units, index);
}

/** Embarks one unit of card `name` on entry `index`. */
export function embarkEdit(doc: FleetDocument, index: number, name: string): OffsetEdit | undefined {
  const text = doc.text;
  const eol = eolOf(text);
  const entry: FleetEntry | undefined = doc.units?.items[index];
  if (!entry || !doc.units || doc.unread) return undefined;
  const listStyle = styleOf(text, doc.units);
  const isScalarEntry = entry.unit.span.start === entry.span.start && entry.unit.span.end === entry.span.end;
  if (listStyle.kind === 'flow') {
    if (isScalarEntry)
      return {
        start: entry.span.start,
        end: entry.span.end,
        newText: `{unit: ${text.slice(entry.span.start, entry.span.end)}, embark: [${flowScalar(name)}]}`,
      };
    if (entry.embark && styleOf(text, entry.embark).kind === 'flow') return appendItem(text, entry.embark, '', flowScalar(name), 0);
    return undefined;
  }
  if (listStyle.kind !== 'block') return undefined;
  if (isScalarEntry) {
    // "- Lumen Cruiser" becomes a mapping with the unit and its embark list.
    const dash = dashBefore(text, entry.span.start);
    if (dash === undefined) return undefined;
    const ind = ' '.repeat(column(text, dash) + 2);
    return {
      start: entry.span.start,
      end: entry.span.end,
      newText: `unit: ${text.slice(entry.span.start, entry.span.end)}${eol}${ind}embark:${eol}${ind}  - ${yamlScalar(name)}`,
    };
  }
  const keyCol = column(text, entry.span.start);
  // The entry must be a block mapping whose keys start on the dash's line.
  if (text[entry.span.start] === '{') {
    if (entry.embark && styleOf(text, entry.embark).kind === 'flow') return appendItem(text, entry.embark, '', flowScalar(name), 0);
    return undefined;
  }
  if (!entry.embark) {
    const at = lineEnd(text, contentEnd(text, entry.span));
    return { start: at, end: at, newText: `${eol}${' '.repeat(keyCol)}embark:${eol}${' '.repeat(keyCol + 2)}- ${yamlScalar(name)}` };
  }
  const st = styleOf(text, entry.embark);
  if (st.kind === 'scalar') {
    // "embark: Wing": one name written without a list.
    const only = entry.embark.items[0];
    if (!only) return undefined;
    return { start: only.span.start, end: only.span.end, newText: `[${text.slice(only.span.start, only.span.end)}, ${flowScalar(name)}]` };
  }
  return appendItem(text, entry.embark as ListField<Field<string>>, `- ${yamlScalar(name)}`, flowScalar(name), keyCol + 2);
}

/** Takes embarked unit `embarkIndex` off entry `index`. */
export function disembarkEdit(doc: FleetDocument, index: number, embarkIndex: number): OffsetEdit | undefined {
  const entry = doc.units?.items[index];
  if (!entry?.embark || doc.unread) return undefined;
  const st = styleOf(doc.text, entry.embark);
  if (st.kind === 'scalar') {
    const only = entry.embark.items[0];
    return only && embarkIndex === 0 ? { start: only.span.start, end: only.span.end, newText: '[]' } : undefined;
  }
  return removeItem(doc.text, entry.embark, embarkIndex);
}

export interface CardChoice {
  name: string;
  class: string;
  points: number | undefined;
  faction: string;
  uri: string;
}

function choice(r: CardRef): CardChoice {
  return { name: r.name, class: r.cls ?? r.classRaw, points: r.points, faction: r.faction, uri: r.uri };
}

/** The cards "Add unit…" offers: the fleet's faction's, by class then name (every card without a faction). */
export function addChoices(doc: FleetDocument, ws: Workspace): CardChoice[] {
  const faction = doc.faction.value;
  const pool = faction !== undefined && ws.cardsOf(faction).length ? ws.cardsOf(faction) : faction === undefined ? ws.allCards() : [];
  return pool
    .filter((r) => r.name)
    .map(choice)
    .sort((a, b) => (b.points ?? 0) - (a.points ?? 0) || a.name.localeCompare(b.name));
}

/**
 * The cards "Embark…" offers for entry `index`: the faction's Fighters and Bombers its bays can
 * carry, each with whether one more still fits (Fighter-only tier slots first, as the checker counts).
 */
export function embarkChoices(
  doc: FleetDocument,
  ws: Workspace,
  index: number,
  totals: FleetTotals = fleetTotals(doc, ws),
): (CardChoice & { fits: boolean })[] {
  return embarkChooser(doc, ws, totals)(index).choices;
}

/**
 * `embarkChoices` for every entry of a fleet, with the faction's cards read once: a fleet may have
 * hundreds of carriers and its faction thousands of cards. `limit` keeps the first choices only.
 */
export function embarkChooser(
  doc: FleetDocument,
  ws: Workspace,
  totals: FleetTotals = fleetTotals(doc, ws),
): (index: number, limit?: number) => { choices: (CardChoice & { fits: boolean })[]; total: number } {
  // By which bays there are (tier slots, reserves): the cards they carry, in addChoices' order.
  const lists = new Map<string, { c: CardChoice; tier: boolean; reserves: boolean }[]>();
  let classes: (UnitClass | undefined)[] | undefined;
  let all: CardChoice[] | undefined;
  const carriable = (tierBays: boolean, reserveBays: boolean) => {
    const key = `${tierBays}|${reserveBays}`;
    let list = lists.get(key);
    if (!list) {
      all ??= addChoices(doc, ws);
      classes ??= all.map((c) => ws.findCards(c.name, c.faction)[0]?.cls);
      list = [];
      all.forEach((c, i) => {
        const cls = classes![i];
        const tier = tierBays && cls !== undefined && LAUNCH_BAY.tierCarries.includes(cls);
        const reserves = reserveBays && cls !== undefined && LAUNCH_BAY.carrierCarries.includes(cls);
        if (tier || reserves) list!.push({ c, tier, reserves });
      });
      lists.set(key, list);
    }
    return list;
  };
  return (index, limit = Infinity) => {
    const none = { choices: [], total: 0 };
    const ep = totals.entries[index];
    if (!ep?.card) return none;
    const cap = bayCapacity(ep.card.card);
    if (cap.tierFighters === 0 && cap.reserves === 0) return none;
    let tierLeft = cap.tierFighters;
    let reservesLeft = cap.reserves;
    for (const x of ep.embarked) {
      const cls = x.card?.cls;
      if (cls && LAUNCH_BAY.tierCarries.includes(cls) && tierLeft > 0) tierLeft--;
      else if (cls && LAUNCH_BAY.carrierCarries.includes(cls) && reservesLeft > 0) reservesLeft--;
    }
    const list = carriable(cap.tierFighters > 0, cap.reserves > 0);
    const choices = list.slice(0, limit).map((k) => ({ ...k.c, fits: (k.tier && tierLeft > 0) || (k.reserves && reservesLeft > 0) }));
    return { choices, total: list.length };
  };
}
