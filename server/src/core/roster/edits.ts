/**
 * The roster's edits as plain text edits on the fleet's YAML, so the file stays the source of
 * truth: add a unit (or one more of a card already fielded), remove an entry (or one copy of it),
 * embark a unit, disembark one. Built on the edit layer (model/edit.ts), so each edit keeps the
 * list's style (block or flow), its indentation, its line endings and the user's comments, and
 * quotes names that YAML would misread. Pure; an edit that cannot be made safely is `undefined`.
 */
import type { FleetDocument, FleetEntry } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { LAUNCH_BAY, type UnitClass } from '../rules/data';
import { bayCapacity } from '../model/derived';
import { flowScalar, yamlScalar } from '../model/scalars';
import {
  anchorUsed,
  appendItem,
  applyEdit,
  column,
  contentEnd,
  dashBefore,
  indentOf,
  lastSignificant,
  lineEnd,
  lineStart,
  matchingBracket,
  ownText,
  propsStart,
  removeItem,
  skipSpace,
  styleOf,
  textEdit,
  type OffsetEdit,
} from '../model/edit';
import { fleetTotals, type FleetTotals } from '../fleetPoints';

export { applyEdit, type OffsetEdit };

/**
 * Whether entry `index` can be changed where it is written: its text is its own (not an alias of
 * another entry's), and no alias elsewhere reads it (a change would change that entry too).
 */
function editable(doc: FleetDocument, index: number): boolean {
  const items = doc.units?.items ?? [];
  const e = items[index];
  return !!e && ownText(items, index) && !anchorUsed(doc.text, propsStart(doc.text, e.span.start), contentEnd(doc.text, e.span));
}

function sameCard(a: string | undefined, b: string): boolean {
  return a !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Whether an entry is written as the card's name alone (`- Lumen Cruiser`). */
function isScalarEntry(e: FleetEntry): boolean {
  return e.unit.span.start === e.span.start && e.unit.span.end === e.span.end && !e.unit.keySpan;
}

/** Whether the entry is a flow mapping (`{unit: A, count: 2}`). */
function isFlowEntry(text: string, e: FleetEntry): boolean {
  return text[e.span.start] === '{';
}

/**
 * Sets an entry's count to `n`: its `count:` value, or a new `count:` key (a bare name becomes a
 * mapping). Undefined when the entry is written in a form this cannot change safely.
 */
function setCountEdit(doc: FleetDocument, entry: FleetEntry, n: number, flowList: boolean): OffsetEdit | undefined {
  const text = doc.text;
  if (entry.count.keySpan) {
    if (entry.count.value === undefined || !/^\d+$/.test(text.slice(entry.count.span.start, entry.count.span.end))) return undefined;
    return textEdit(text, entry.count.span.start, entry.count.span.end, String(n));
  }
  if (isScalarEntry(entry)) return scalarToMapping(text, entry, flowList, [`count: ${n}`]);
  if (!entry.unit.keySpan) return undefined;
  if (isFlowEntry(text, entry)) return textEdit(text, entry.unit.span.end, entry.unit.span.end, `, count: ${n}`);
  // A block mapping: a line under the unit's, at its key's column.
  if (lineStart(text, entry.unit.keySpan.start) !== lineStart(text, entry.unit.span.end)) return undefined;
  const at = lineEnd(text, entry.unit.span.end);
  return entryEdit(text, entry, at, at, `\n${indentOf(text, entry.unit.keySpan.start)}count: ${n}`);
}

/**
 * A bare-name entry ("- Lumen Cruiser", or "Lumen Cruiser" in a flow list) as a mapping with the
 * unit and `pairs` ("count: 2", "embark:\n  - Wing" written with "\n" and two-space steps). An anchor
 * stays on the name, and a comment on the entry's line stays on the unit's line.
 */
function scalarToMapping(text: string, entry: FleetEntry, flowList: boolean, pairs: string[], flowPairs = pairs): OffsetEdit | undefined {
  const start = propsStart(text, entry.span.start);
  const name = text.slice(start, entry.span.end);
  if (/[\r\n]/.test(name)) return undefined;
  if (flowList) return textEdit(text, start, entry.span.end, `{unit: ${name}, ${flowPairs.join(', ')}}`);
  if (dashBefore(text, entry.span.start) === undefined) return undefined;
  // The new keys line up with "unit:", where the name starts now.
  const ind = ' '.repeat(column(text, start));
  const end = lineEnd(text, entry.span.end);
  const rest = text.slice(entry.span.end, end);
  if (rest.trim() !== '' && !rest.trim().startsWith('#')) return undefined;
  return entryEdit(text, entry, start, end, `unit: ${name}${rest}` + pairs.map((p) => `\n${ind}${p.replace(/\n/g, `\n${ind}`)}`).join(''));
}

/**
 * Replaces [start, end) of a block list's entry, which gives it keys on lines below its first.
 * A tab after the entry's dash becomes a space: YAML indents with spaces, and a mapping of several
 * keys after "-<tab>" is one that other YAML readers refuse (ours warns). Columns stay as they are.
 */
function entryEdit(text: string, entry: FleetEntry, start: number, end: number, newText: string): OffsetEdit {
  const node = propsStart(text, entry.span.start);
  const dash = dashBefore(text, entry.span.start);
  const sep = dash === undefined ? '' : text.slice(dash + 1, node);
  if (dash === undefined || !sep.includes('\t') || /[\r\n]/.test(sep) || start < node) return textEdit(text, start, end, newText);
  return textEdit(text, dash + 1, end, sep.replace(/\t/g, ' ') + text.slice(node, start) + newText);
}

/** The top-level flow mapping a fleet is written as (`{name: X, faction: Y}`), when it is one. */
function flowRoot(text: string): { open: number; close: number } | undefined {
  let i = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0, true);
  if (text.startsWith('---', i)) i = skipSpace(text, i + 3, true);
  if (text[i] !== '{') return undefined;
  const close = matchingBracket(text, i);
  return close === undefined ? undefined : { open: i, close };
}

/**
 * Adds `count` of the card `name` to the fleet: raises the count of an entry that already fields
 * it alone (no embarked units, which each copy would carry), or adds an entry at the end of the
 * fleet's units.
 */
export function addUnitEdit(doc: FleetDocument, name: string, count = 1): OffsetEdit | undefined {
  const text = doc.text;
  const n = Number.isInteger(count) && count > 1 ? count : 1;
  if (doc.unread) return undefined;
  const block = `- unit: ${yamlScalar(name)}${n > 1 ? `\n  count: ${n}` : ''}`;
  const flow = n > 1 ? `{unit: ${flowScalar(name)}, count: ${n}}` : flowScalar(name);
  if (!doc.units) {
    const root = flowRoot(text);
    if (root) {
      // "{name: X, faction: Y}": the units go inside the braces.
      const last = lastSignificant(text, root.open, root.close);
      if (last === root.open) return textEdit(text, root.open + 1, root.open + 1, `units: [${flow}]`);
      return textEdit(text, last + 1, last + 1, text[last] === ',' ? ` units: [${flow}]` : `, units: [${flow}]`);
    }
    // No units key: one at the end of the fleet's document (top-level keys start at column 0), which
    // is the end of the file unless a "..." or a second "---" ends it.
    const at = documentEnd(text);
    const sep = at === 0 || /[\r\n]$/.test(text.slice(0, at)) ? '' : '\n';
    return textEdit(text, at, at, `${sep}units:\n  ${block.replace(/\n/g, '\n  ')}\n`);
  }
  const style = styleOf(text, doc.units);
  const items = doc.units.items;
  const same = items.find((e, i) => sameCard(e.unit.value, name) && !e.embark?.items.length && editable(doc, i));
  if (same && (same.count.value ?? 1) >= 1) {
    const raised = setCountEdit(doc, same, (same.count.value ?? 1) + n, style.kind === 'flow');
    if (raised) return raised;
  }
  return appendItem(text, doc.units, block, flow, column(text, doc.units.keySpan.start) + 2);
}

/** Where the file's first YAML document ends: before a line "..." or a "---" after its content, else the file's end. */
function documentEnd(text: string): number {
  let seen = false;
  for (const m of text.matchAll(/^(---|\.\.\.)(?=[ \t]*(?:#.*)?$)|^[^\s#][^\r\n]*/gm)) {
    const marker = m[1];
    if (marker === '...' || (marker === '---' && seen)) return m.index;
    if (!marker) seen = true;
  }
  return text.length;
}

/** Sets entry `index`'s count to `n` (a count of copies, 1 or more), when the entry can be changed where it is written. */
export function countEdit(doc: FleetDocument, index: number, n: number): OffsetEdit | undefined {
  const entry = doc.units?.items[index];
  if (!entry || doc.unread || !Number.isInteger(n) || n < 1 || !editable(doc, index)) return undefined;
  return setCountEdit(doc, entry, n, styleOf(doc.text, doc.units!).kind === 'flow');
}

/**
 * Removes the fleet's entry `index` (0-based, as in the roster): all its copies, or (`one`) one of
 * them, lowering its count (an entry of one is removed).
 */
export function removeEntryEdit(doc: FleetDocument, index: number, copies: 'all' | 'one' = 'all'): OffsetEdit | undefined {
  if (!doc.units || doc.unread) return undefined;
  const entry = doc.units.items[index];
  if (!entry || !editable(doc, index)) return undefined;
  const count = entry.count.value ?? 1;
  if (copies === 'one' && count > 1) return setCountEdit(doc, entry, count - 1, styleOf(doc.text, doc.units).kind === 'flow');
  return removeItem(doc.text, doc.units, index);
}

/** Embarks one unit of card `name` on entry `index`. */
export function embarkEdit(doc: FleetDocument, index: number, name: string): OffsetEdit | undefined {
  const text = doc.text;
  const entry: FleetEntry | undefined = doc.units?.items[index];
  if (!entry || !doc.units || doc.unread || !editable(doc, index)) return undefined;
  const listStyle = styleOf(text, doc.units);
  const scalar = isScalarEntry(entry);
  if (listStyle.kind === 'flow') {
    if (scalar) return scalarToMapping(text, entry, true, [`embark: [${flowScalar(name)}]`]);
    if (entry.embark && styleOf(text, entry.embark).kind === 'flow') return appendItem(text, entry.embark, '', flowScalar(name), 0);
    if (!entry.embark && isFlowEntry(text, entry) && entry.unit.keySpan) return flowMappingKey(text, entry, `embark: [${flowScalar(name)}]`);
    return undefined;
  }
  if (listStyle.kind !== 'block') return undefined;
  // "- Lumen Cruiser" becomes a mapping with the unit and its embark list.
  if (scalar) return scalarToMapping(text, entry, false, [`embark:\n  - ${yamlScalar(name)}`]);
  if (isFlowEntry(text, entry)) {
    if (entry.embark && styleOf(text, entry.embark).kind === 'flow') return appendItem(text, entry.embark, '', flowScalar(name), 0);
    if (!entry.embark && entry.unit.keySpan) return flowMappingKey(text, entry, `embark: [${flowScalar(name)}]`);
    return undefined;
  }
  const keyCol = column(text, entry.span.start);
  if (!entry.embark) {
    const at = lineEnd(text, contentEnd(text, entry.span));
    return entryEdit(text, entry, at, at, `\n${' '.repeat(keyCol)}embark:\n${' '.repeat(keyCol + 2)}- ${yamlScalar(name)}`);
  }
  const st = styleOf(text, entry.embark);
  if (st.kind === 'scalar') {
    // "embark: Wing": one name written without a list.
    const only = entry.embark.items[0];
    if (!only) return undefined;
    return textEdit(text, only.span.start, only.span.end, `[${text.slice(only.span.start, only.span.end)}, ${flowScalar(name)}]`);
  }
  return appendItem(text, entry.embark, `- ${yamlScalar(name)}`, flowScalar(name), keyCol + 2);
}

/** Adds `key: value` to a flow-mapping entry, before its "}". */
function flowMappingKey(text: string, entry: FleetEntry, pair: string): OffsetEdit | undefined {
  const close = matchingBracket(text, entry.span.start);
  if (close === undefined) return undefined;
  const last = lastSignificant(text, entry.span.start, close);
  return textEdit(text, last + 1, last + 1, text[last] === ',' ? ` ${pair}` : `, ${pair}`);
}

/** Takes embarked unit `embarkIndex` off entry `index`. */
export function disembarkEdit(doc: FleetDocument, index: number, embarkIndex: number): OffsetEdit | undefined {
  const entry = doc.units?.items[index];
  if (!entry?.embark || doc.unread || !editable(doc, index)) return undefined;
  const st = styleOf(doc.text, entry.embark);
  if (st.kind === 'scalar') {
    const only = entry.embark.items[0];
    return only && embarkIndex === 0 ? textEdit(doc.text, only.span.start, only.span.end, '[]') : undefined;
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
  return addRefs(doc, ws).map(choice);
}

/** The cards behind `addChoices`, in its order (their classes as the index read them). */
function addRefs(doc: FleetDocument, ws: Workspace): CardRef[] {
  const faction = doc.faction.value;
  const pool = faction !== undefined && ws.cardsOf(faction).length ? ws.cardsOf(faction) : faction === undefined ? ws.allCards() : [];
  return pool.filter((r) => r.name).sort((a, b) => (b.points ?? 0) - (a.points ?? 0) || a.name.localeCompare(b.name));
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
      // The classes from the cards themselves: a bundled example card (a faction with no card of
      // the workspace's own) is in the fallback, which a lookup of the workspace's own would miss.
      const refs = addRefs(doc, ws);
      all ??= refs.map(choice);
      classes ??= refs.map((r) => r.cls);
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
