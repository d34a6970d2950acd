/**
 * Completion: keys allowed at the cursor, enum values, legal stat values, range bands, card names
 * (for `embark`, only what the host can carry), known orders and abilities, and snippets for a new
 * card and a new fleet. Works on half-typed text through the line-based context of context.ts.
 */
import type { FabledDocument, FleetDocument, UnitCard } from '../model/types';
import type { Workspace, CardRef } from '../workspace';
import {
  CLASSES,
  CLASS_NAMES,
  DOCTRINES,
  GAME_SIZES,
  KNOWN_ABILITIES,
  KNOWN_ORDERS,
  LAUNCH_BAY,
  MOVEMENT_STICKS,
  RANGE_BANDS,
  SMALL_CRAFT_MAX_RANGE,
  STATS,
  STAT_NAMES,
  STAT_ORDER,
  UNIVERSAL_RULES,
  WEAPON_DAMAGE,
  WEAPON_TYPES,
  WEAPON_TYPE_ABBREVIATIONS,
  WEAPON_TYPE_SECTION,
  type StatName,
  type UnitClass,
} from '../rules/data';
import { fieldOf, keysOf, type FieldOwner } from '../model/fields';
import { bayCapacity, ruleFits } from '../model/derived';
import { cursorContext, lineAt, linesAbove, linesBelow, pathKeys, type CursorContext, type LineInfo } from './context';
import { cardsOf, md, pSuccess, pct, yamlScalar, within } from './shared';
import type { Span } from '../model/types';
import { templatesFor, type TemplatePlace } from './templates';
import { weaponTypeText } from './hover';
import { eolOf, withEol } from '../model/edit';
import { count, withArticle } from '../rules/words';
import { listCards } from './workspaceQueries';

export type CompletionKind = 'key' | 'value' | 'enum' | 'card' | 'snippet' | 'order' | 'ability' | 'faction';

export interface Completion {
  label: string;
  kind: CompletionKind;
  /** Short text beside the label. */
  detail?: string;
  /** Markdown shown in the details pane (escaped). */
  documentation?: string;
  /** The text that replaces `span`; a snippet (with $1 placeholders) when `snippet` is true. */
  insertText: string;
  snippet?: boolean;
  span: Span;
  sortText?: string;
  filterText?: string;
  /** Moves the cursor on and reopens completion (after inserting a key). */
  retrigger?: boolean;
}

export interface CompletionList {
  items: Completion[];
  /** More items exist than were returned (the client should ask again as the user types). */
  isIncomplete: boolean;
}

const MAX_ITEMS = 500;

export function complete(doc: FabledDocument | undefined, ws: Workspace, text: string, off: number): CompletionList {
  try {
    // The cursor's context reads lines by "\n": a lone CR is one too (same length, so offsets hold).
    const lf = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
    const list = completeInner(doc, ws, lf, off);
    // The LSP's rule for an item's edit: one line, and it contains the cursor. The context gives such
    // spans; an item that would break the rule is left out rather than sent to be misplaced.
    const line = lineAt(lf, off);
    const lineEnd = line.start + line.text.length;
    list.items = list.items.filter((i) => i.span.start <= off && off <= i.span.end && i.span.start >= line.start && i.span.end <= lineEnd);
    // Templates and list keys are written with "\n": they go in with the file's line ending (the edit layer's).
    if (eolOf(text) !== '\n') for (const item of list.items) if (item.insertText) item.insertText = withEol(text, item.insertText);
    return list;
  } catch {
    return { items: [], isIncomplete: false };
  }
}

function completeInner(doc: FabledDocument | undefined, ws: Workspace, text: string, off: number): CompletionList {
  if (!doc) return { items: [], isIncomplete: false };
  const ctx = cursorContext(text, off);
  if (!completesAt(ctx, off)) return { items: [], isIncomplete: false };
  const path = pathKeys(ctx);
  const kind = doc.kind;
  const items: Completion[] = [];

  // Unit and faction files hold cards under units[] (a unit file may hold one card at top level).
  const cardPath = kind === 'unit' || kind === 'faction' ? cardRelative(path, kind, text) : undefined;

  if (ctx.mode === 'key' || ctx.mode === 'item') {
    // Keys of the mapping the cursor is in.
    const set = keysFor(kind, path, cardPath, ctx.mode === 'item');
    if (set) {
      const present = new Set(ctx.siblings);
      set.keys.forEach((k, i) => {
        if (present.has(k)) return;
        items.push(keyItem(k, ctx, i, kind, set.owner));
      });
    }
    // Scalar list items and snippets.
    if (ctx.mode === 'item') items.push(...itemValues(doc, ws, ctx, path, cardPath, off));
    items.push(...snippets(ws, kind, path, cardPath, ctx, text));
  } else if (ctx.mode === 'value' && ctx.key !== undefined) {
    items.push(...valuesFor(doc, ws, ctx, path, cardPath, off));
  }

  const isIncomplete = items.length > MAX_ITEMS;
  return { items: items.slice(0, MAX_ITEMS), isIncomplete };
}

/**
 * Whether anything is offered at the cursor: not in a comment, not in the indentation (or the
 * "- ") before a line's content. Elsewhere an item whose span does not reach the cursor (in the
 * blanks past a value, between a key's colon and its value) is left out by `complete`.
 */
function completesAt(ctx: CursorContext, off: number): boolean {
  const line = ctx.line;
  const col = off - line.start;
  const trimmed = line.text.trimStart();
  if (trimmed.startsWith('#')) return false;
  const comment = commentCol(line.text);
  if (comment !== undefined && col > comment) return false;
  return trimmed === '' || col >= line.contentCol;
}

/** The column of a line's comment ("#" at the start or after a blank, outside quotes), if any. */
function commentCol(text: string): number | undefined {
  let q: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (q) {
      if (c === q) q = undefined;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s[{,:-]/.test(text[i - 1]!)) q = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return i;
  }
  return undefined;
}

/** The path relative to the card the cursor is in ([] = the card's own keys), or undefined when not in a card. */
function cardRelative(path: string[], kind: 'unit' | 'faction', text: string): string[] | undefined {
  if (path[0] === 'units' && path[1] === '[]') return path.slice(2);
  if (kind === 'unit' && !/^units\s*:/m.test(text) && /^(name|class)\s*:/m.test(text)) {
    // A file holding one card at top level.
    return path;
  }
  return undefined;
}

/** The mapping the cursor is in: which kind (its fields in the field table) and its keys. */
interface KeySet {
  owner: FieldOwner | 'stats';
  keys: readonly string[];
}

function keysFor(kind: FabledDocument['kind'], path: string[], cardPath: string[] | undefined, itemStart: boolean): KeySet | undefined {
  const p = path.join('.');
  const set = (owner: FieldOwner): KeySet => ({ owner, keys: keysOf(owner) });
  if (cardPath) {
    const c = cardPath.join('.');
    if (c === '')
      return kind === 'unit' && path.length === 0
        ? { owner: 'card', keys: [...keysOf('unitFile').filter((k) => k !== 'units'), ...keysOf('card')] }
        : set('card');
    if (c === 'stats') return { owner: 'stats', keys: STAT_ORDER };
    if (c === 'weapons.[]') return set('weapon');
    if (c === 'orders.[]') return set('order');
    if (c === 'abilities.[]') return set('ability');
    return undefined;
  }
  if (kind === 'unit') {
    if (p === '') return set('unitFile');
    if (p === 'units' && itemStart) return set('card');
    return undefined;
  }
  if (kind === 'faction') {
    if (p === '') return set('faction');
    if (p === 'cpSources.[]' || (p === 'cpSources' && itemStart)) return set('cpSource');
    if (p === 'factionAbility') return set('factionAbility');
    if (p === 'commandAbilities.[]' || (p === 'commandAbilities' && itemStart)) return set('commandAbility');
    if (p === 'units' && itemStart) return set('card');
    return undefined;
  }
  if (kind === 'collection') {
    if (p === '') return set('collection');
    if (p === 'owned.[]' || (p === 'owned' && itemStart)) return set('ownedEntry');
    return undefined;
  }
  if (p === '') return set('fleet');
  if (p === 'units.[]' || (p === 'units' && itemStart)) return set('fleetEntry');
  return undefined;
}

function keyItem(k: string, ctx: CursorContext, i: number, kind: FabledDocument['kind'], owner: KeySet['owner']): Completion {
  const inStats = owner === 'stats';
  // A unit file's top level mixes the file's keys and a single card's.
  const field = inStats ? undefined : (fieldOf(owner, k) ?? fieldOf('unitFile', k));
  const indent = ' '.repeat(ctx.keyCol + 2);
  let insertText = `${k}: `;
  let snippet = false;
  if (field?.shape === 'list') {
    insertText = `${k}:\n${indent}- $0`;
    snippet = true;
  } else if (field?.shape === 'map') {
    insertText = `${k}:\n${indent}$0`;
    snippet = true;
  }
  const doc = inStats ? `${STAT_NAMES[k as StatName]}: ${formOf(k as StatName)}` : (field?.doc ?? '');
  return {
    label: k,
    kind: 'key',
    detail: inStats ? STAT_NAMES[k as StatName] : kind === 'fleet' && k === 'points' ? 'points limit' : undefined,
    documentation: doc ? md(doc) : undefined,
    insertText,
    snippet,
    span: keySpan(ctx),
    sortText: String(i).padStart(3, '0'),
    retrigger: !snippet,
  };
}

/** Where a key completion goes: the typed word (in item mode, after the "- "). */
function keySpan(ctx: CursorContext): Span {
  if (ctx.mode === 'item') {
    const start = ctx.line.start + ctx.line.contentCol;
    return { start, end: ctx.replace.end };
  }
  return ctx.replace;
}

function formOf(stat: StatName): string {
  const s = STATS[stat];
  const dash = s.dashAllowed ? ', or "-"' : '';
  switch (s.form) {
    case 'sticks':
      return `one or two stick lengths (${s.sticks!.join(', ')}), e.g. 9/6`;
    case 'target':
      return `${s.min}+ (best) to ${s.max}+ (worst)${dash}`;
    case 'count':
      return `${s.max !== undefined ? `${s.min} to ${s.max}` : `at least ${s.min}`}${dash}`;
    case 'targetDice':
      return `Target/Dice, ${s.target!.best}..${s.target!.worst} / ${s.dice!.min}..${s.dice!.max}${dash}`;
  }
}

/** "1 base · 2 weapons · 1 order · 1 ability · 145 pts": what the class card gives, in words. */
export function classDetail(cl: UnitClass): string {
  const r = CLASSES[cl];
  return [
    count(r.bases, 'base'),
    count(r.weapons, 'weapon'),
    r.orders ? count(r.orders, 'order') : 'no orders',
    count(r.abilities, 'ability'),
    `${r.points} pts`,
  ].join(' · ');
}

function classSummary(cl: UnitClass): string {
  const r = CLASSES[cl];
  const parts = [
    `The ${r.card} class card: ${count(r.bases, 'base')} (${r.baseMm}mm${r.baseIsHouseValue ? ', the tools\u2019 default size' : ''}), up to ${count(r.weapons, 'weapon system')}, ${r.orders ? `up to ${count(r.orders, 'order')}` : 'no orders'} and ${count(r.abilities, 'ability')}; ${r.points} points.`,
  ];
  if (r.smallCraft) parts.push(`Small craft: weapons reach at most ${SMALL_CRAFT_MAX_RANGE}".`);
  if (r.combinedShields) parts.push('Its bases share one pool of shields (Combined Shields).');
  return parts.join(' ');
}

/** Weapon types with the rulebook's one-line rule for each (section 12) and their letter. */
function weaponTypeItems(span: Span): Completion[] {
  return WEAPON_TYPES.map((t, i) => {
    const letter = Object.entries(WEAPON_TYPE_ABBREVIATIONS).find(([, v]) => v === t)?.[0];
    const text = weaponTypeText(t);
    return value(t, span, i, {
      kind: 'enum',
      detail: text ? shorten(text) : `weapon type (§${WEAPON_TYPE_SECTION})`,
      documentation: md(`${t}${letter ? ` (${letter})` : ''}: ${text ?? ''} (§${WEAPON_TYPE_SECTION})`),
    });
  });
}

/** The first clause of a rule, for the one-line detail beside a label. */
function shorten(text: string, max = 60): string {
  const t = text.replace(/\.$/, '');
  return t.length <= max ? t : `${t.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

function value(label: string, span: Span, i: number, extra: Partial<Completion> = {}): Completion {
  return { label, kind: 'value', insertText: label, span, sortText: String(i).padStart(4, '0'), filterText: label, ...extra };
}

/** The legal values of a stat, best first. */
export function statValues(stat: StatName): { label: string; detail?: string }[] {
  const s = STATS[stat];
  const out: { label: string; detail?: string }[] = [];
  switch (s.form) {
    case 'sticks':
      for (const a of MOVEMENT_STICKS) out.push({ label: String(a) });
      for (const a of MOVEMENT_STICKS) for (const b of MOVEMENT_STICKS) out.push({ label: `${a}/${b}` });
      break;
    case 'target':
      for (let t = s.min!; t <= s.max!; t++) out.push({ label: `${t}+`, detail: `${pct(pSuccess(t))} per die` });
      break;
    case 'count': {
      const max = s.max ?? s.min! + 9;
      for (let n = s.min!; n <= max; n++) out.push({ label: String(n) });
      break;
    }
    case 'targetDice':
      for (let d = s.dice!.max; d >= s.dice!.min; d--)
        for (let t = s.target!.best; t <= s.target!.worst; t++)
          out.push({ label: `${t}/${d}`, detail: `${(d * pSuccess(t)).toFixed(1)} successes on average` });
      break;
  }
  // A bare "-" is a YAML list marker; the em dash means the same and needs no quotes.
  if (s.dashAllowed) out.push({ label: '—', detail: 'not possessed' });
  return out;
}

function valuesFor(doc: FabledDocument, ws: Workspace, ctx: CursorContext, path: string[], cardPath: string[] | undefined, off: number): Completion[] {
  const key = ctx.key!;
  const span = valueSpan(ctx);
  const out: Completion[] = [];
  const c = cardPath?.join('.');
  const card = cardPath ? cardNear(doc, off) : undefined;
  const cls = card?.class.value;

  // Inside a flow list (`orders: []`, as the templates write it; `embark: [A, B]`): the item at the cursor.
  const flow = flowItemAt(ctx, off);
  if (flow) {
    if (cardPath && c === '' && key === 'orders') return orderItems(flow.span, card);
    if (cardPath && c === '' && key === 'abilities') return abilityItems(flow.span, card, cls);
    if (doc.kind === 'fleet' && path.join('.') === 'units.[]' && key === 'embark') return embarkItems(doc, ws, { ...ctx, prefix: flow.prefix }, flow.span);
    return [];
  }

  if (cardPath && c === 'stats' && (STAT_ORDER as readonly string[]).includes(key)) {
    statValues(key as StatName).forEach((v, i) => out.push(value(v.label, span, i, { kind: 'enum', detail: v.detail })));
    return out;
  }
  if (cardPath && c === '' && key === 'stats') return statLineValues(ctx, span);
  if (cardPath && c === '' && key === 'class') {
    CLASS_NAMES.forEach((cl, i) => {
      out.push(
        value(cl, span, i, {
          kind: 'enum',
          detail: classDetail(cl),
          documentation: md(classSummary(cl)),
        }),
      );
    });
    return out;
  }
  if (cardPath && c === '' && key === 'points' && cls) return [value(String(CLASSES[cls].points), span, 0, { detail: `the ${cls} class card` })];
  if (cardPath && c === '' && key === 'bases' && cls) return [value(String(CLASSES[cls].bases), span, 0, { detail: withArticle(cls) })];
  if (cardPath && c === '' && key === 'base' && cls) return [value(`${CLASSES[cls].baseMm}mm`, span, 0, { detail: `${cls} default` })];
  if (cardPath && c === 'weapons.[]' && key === 'type') return weaponTypeItems(span);
  if (cardPath && (c === 'weapons.[]' || c === 'orders.[]' || c === 'abilities.[]') && key === 'range') {
    const max = c === 'weapons.[]' && cls && CLASSES[cls].smallCraft ? SMALL_CRAFT_MAX_RANGE : Infinity;
    return RANGE_BANDS.filter((b) => b <= max).map((b, i) => value(`${b}"`, span, i, { kind: 'enum' }));
  }
  if (cardPath && c === 'weapons.[]' && key === 'damage') {
    const out2: Completion[] = [];
    for (let d = WEAPON_DAMAGE.min; d <= WEAPON_DAMAGE.max; d++) out2.push(value(String(d), span, d));
    return out2;
  }
  if (cardPath && c === 'orders.[]' && key === 'name') return orderItems(span, card);
  if (cardPath && c === 'orders.[]' && key === 'difficulty') {
    const name = siblingValue(ctx, doc.text, 'name');
    const k = KNOWN_ORDERS.find((o) => o.name.toLowerCase() === name?.toLowerCase());
    return k?.difficulty !== undefined ? [value(String(k.difficulty), span, 0, { detail: `${k.name} in the rulebook` })] : [];
  }
  if (cardPath && c === 'abilities.[]' && key === 'name') return abilityItems(span, card, cls);
  if (key === 'faction' && path.length === 0) {
    // The workspace's factions (of its cards, most first, then of its Command Boards); in a fleet
    // also the bundled example factions, whose cards a fleet may use where the workspace has none.
    const { own, examples } = factionChoices(ws, doc.uri);
    const cards = (f: string) => (ws.hasOwnCards(f) ? count(ws.cardsOf(f).length, 'card') : 'no cards yet');
    return [
      ...own.map((f, i) => ({ ...value(yamlScalar(f), span, i), label: f, kind: 'faction' as const, detail: cards(f) })),
      ...(doc.kind === 'fleet' ? examples : []).map((f, i) => ({
        ...value(yamlScalar(f), span, own.length + i),
        label: f,
        kind: 'faction' as const,
        detail: `bundled example, ${count(ws.cardsOf(f).length, 'card')}`,
      })),
    ];
  }
  if (doc.kind === 'faction' && path.length === 0 && key === 'doctrine') {
    return Object.entries(DOCTRINES).map(([d, cp], i) => value(d, span, i, { kind: 'enum', detail: `${cp} CP per round` }));
  }
  if (doc.kind === 'faction' && path.length === 0 && key === 'cp') {
    const d = doc.doctrine.value;
    return d ? [value(String(DOCTRINES[d]), span, 0, { detail: `${d} doctrine` })] : Object.values(DOCTRINES).map((v, i) => value(String(v), span, i));
  }
  if (doc.kind === 'fleet' && path.length === 0 && key === 'points') {
    return GAME_SIZES.map((g, i) => value(String(g.points), span, i, { kind: 'enum', detail: `${g.name} (${g.table})` }));
  }
  if (doc.kind === 'fleet' && path.length === 0 && key === 'objectives') {
    const g = GAME_SIZES.find((x) => x.points === doc.points.value);
    if (!g) return [];
    const o: Completion[] = [];
    for (let n = g.objectives.min; n <= g.objectives.max; n++) o.push(value(String(n), span, n, { detail: `recommended for ${g.name}` }));
    return o;
  }
  if (doc.kind === 'fleet' && path.join('.') === 'units.[]' && key === 'unit') return cardItems(fleetCards(doc, ws, text(doc)), span, ctx.prefix);
  // A collection names any card of the workspace.
  if (doc.kind === 'collection' && path.join('.') === 'owned.[]' && key === 'unit') return cardItems(listCards(ws), span, ctx.prefix);
  if (doc.kind === 'fleet' && path.join('.') === 'units.[]' && key === 'embark') return [];
  if (doc.kind === 'fleet' && path.join('.') === 'units.[].embark.[]' && key === 'unit') return embarkItems(doc, ws, ctx, span);
  return out;
}

function text(doc: FabledDocument): string {
  return doc.text;
}

/**
 * The item of a one-line flow list (`[A, B]`) under the cursor: its span (what a completion
 * replaces, without the spaces around it) and what is typed of it before the cursor. Undefined
 * when the value is no flow list or the cursor is outside its brackets.
 */
export function flowItemAt(ctx: CursorContext, off: number): { span: Span; prefix: string } | undefined {
  const v = ctx.value;
  if (!v.startsWith('[')) return undefined;
  const base = ctx.line.start + ctx.line.valueCol;
  const cur = off - base;
  if (cur < 1) return undefined;
  // Separators (commas, the brackets) outside quotes.
  let from = 0;
  let to = v.length;
  let q: string | undefined;
  for (let i = 1; i < v.length; i++) {
    const ch = v[i]!;
    if (q) {
      if (ch === q) q = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") q = ch;
    else if (ch === ',' || ch === ']') {
      if (i < cur) {
        if (ch === ']') return undefined; // after the list
        from = i;
      } else {
        to = i;
        break;
      }
    }
  }
  const raw = v.slice(from + 1, to);
  const lead = raw.length - raw.trimStart().length;
  const start = Math.min(base + from + 1 + lead, off);
  const end = Math.max(start, base + from + 1 + raw.trimEnd().length, off);
  return { span: { start, end }, prefix: ctx.line.text.slice(start - ctx.line.start, off - ctx.line.start) };
}

/** The value's replace range, extended over an opening quote the user typed. */
function valueSpan(ctx: CursorContext): Span {
  return ctx.replace;
}

function itemValues(doc: FabledDocument, ws: Workspace, ctx: CursorContext, path: string[], cardPath: string[] | undefined, off: number): Completion[] {
  const span = ctx.replace;
  const c = cardPath?.join('.');
  const card = cardPath ? cardNear(doc, off) : undefined;
  if (c === 'orders.[]') return orderItems(span, card);
  if (c === 'abilities.[]') return abilityItems(span, card, card?.class.value);
  if (doc.kind === 'fleet' && path.join('.') === 'units.[]') return cardItems(fleetCards(doc, ws, doc.text), span, ctx.prefix);
  if (doc.kind === 'fleet' && path.join('.') === 'units.[].embark.[]') return embarkItems(doc, ws, ctx, span);
  if (doc.kind === 'collection' && path.join('.') === 'owned.[]') return cardItems(listCards(ws), span, ctx.prefix);
  return [];
}

function orderItems(span: Span, card: UnitCard | undefined): Completion[] {
  const have = new Set((card?.orders?.items ?? []).map((o) => o.name.value?.toLowerCase()));
  const cls = card?.class.value;
  // An order only some classes may issue (Recover Craft: Carriers) is not offered to the others.
  const fits = (o: (typeof KNOWN_ORDERS)[number]) => !o.onlyClasses || !cls || o.onlyClasses.classes.includes(cls);
  return KNOWN_ORDERS.filter((o) => !have.has(o.name.toLowerCase()) && fits(o)).map((o, i) =>
    value(o.name, span, i, {
      kind: 'order',
      detail: o.difficulty !== undefined ? `difficulty ${o.difficulty}` : o.section,
      documentation: md(o.summary),
      insertText: yamlScalar(o.name),
    }),
  );
}

function abilityItems(span: Span, card: UnitCard | undefined, cls: UnitClass | undefined): Completion[] {
  const have = new Set((card?.abilities?.items ?? []).map((a) => a.name.value?.toLowerCase()));
  const out: Completion[] = [];
  let i = 0;
  for (const r of UNIVERSAL_RULES) {
    if (have.has(r.name.toLowerCase())) continue;
    if (card && cls && !ruleFits(r, card, cls)) continue;
    out.push(
      value(r.name, span, i++, { kind: 'ability', detail: 'universal class rule (free)', documentation: md(r.summary), insertText: yamlScalar(r.name) }),
    );
  }
  for (const a of KNOWN_ABILITIES) {
    if (have.has(a.name.toLowerCase())) continue;
    if (a.name === LAUNCH_BAY.reservesAbility && cls && cls !== 'Carrier') continue;
    out.push(
      value(a.name, span, i++, {
        kind: 'ability',
        detail: a.requiresStat ? `needs ${a.requiresStat}` : a.section,
        documentation: md(a.summary),
        insertText: yamlScalar(a.name),
      }),
    );
  }
  if (![...have].some((h) => h && LAUNCH_BAY.tierPattern.test(h))) {
    out.push(
      value('Launch Bay Tier 1', span, i++, {
        kind: 'ability',
        detail: `embarks ${LAUNCH_BAY.fightersPerTier} Fighter unit per tier`,
        insertText: 'Launch Bay Tier ${1:1}',
        snippet: true,
      }),
    );
  }
  return out;
}

/**
 * Card names as completions. The client sorts by label; the server only filters by what is typed
 * (every word of it, in any order and case) and caps the list, so that a workspace of thousands of
 * cards answers at once.
 */
function cardItems(cards: CardRef[], span: Span, typed: string): Completion[] {
  const words = typed.replace(/^["']/, '').toLowerCase().split(/\s+/).filter(Boolean);
  const out: Completion[] = [];
  for (const r of cards) {
    const name = r.name;
    if (!name) continue;
    if (words.length) {
      const lower = name.toLowerCase();
      if (!words.every((w) => lower.includes(w))) continue;
    }
    const ins = yamlScalar(name);
    out.push({
      label: name,
      kind: 'card',
      detail: `${r.cls ?? r.classRaw} · ${r.points ?? '?'} pts`,
      insertText: ins,
      filterText: ins,
      span,
    });
    if (out.length > MAX_ITEMS) break;
  }
  return out;
}

/** The fleet's faction's cards; all cards when the faction has none (or is not given yet). */
function fleetCards(doc: FleetDocument, ws: Workspace, text: string): CardRef[] {
  const faction = doc.faction.value ?? /^faction\s*:\s*(.+?)\s*$/m.exec(text)?.[1];
  const own = faction ? ws.cardsOf(faction) : [];
  return own.length ? own : ws.allCards();
}

/** Cards the entry's host can carry: Fighters for Launch Bay Tiers; Fighters and Bombers for a Carrier. */
function embarkItems(doc: FleetDocument, ws: Workspace, ctx: CursorContext, span: Span): Completion[] {
  // The entry is the list item two levels up: units[] -> embark -> [].
  const entryStep = ctx.path[1];
  const entry =
    (doc.units?.items ?? []).find((e) => entryStep && within(e.span, entryStep.lineStart + entryStep.col)) ??
    (doc.units?.items ?? []).find((e) => e.span.start <= ctx.line.start && ctx.line.start <= e.span.end);
  const hostName = entry?.unit.value ?? (entryStep ? hostFromText(doc.text, entryStep.lineStart) : undefined);
  const host = ws.card(hostName, doc.faction.value, 'ownFirst');
  const cards = fleetCards(doc, ws, doc.text);
  if (!host) return cardItems(cards, span, ctx.prefix);
  const cap = bayCapacity(host.card);
  const kinds = new Set<string>([...(cap.tierFighters > 0 ? LAUNCH_BAY.tierCarries : []), ...(cap.reserves > 0 ? LAUNCH_BAY.carrierCarries : [])]);
  return cardItems(
    cards.filter((r) => r.cls !== undefined && kinds.has(r.cls)),
    span,
    ctx.prefix,
  );
}

function hostFromText(text: string, lineStart: number): string | undefined {
  const line = text.slice(lineStart, text.indexOf('\n', lineStart) < 0 ? text.length : text.indexOf('\n', lineStart));
  const m = /unit\s*:\s*(.+?)\s*$/.exec(line);
  return m ? m[1]!.replace(/^["']|["']$/g, '') : undefined;
}

/** The value of a sibling key in the same mapping, read from the text (the model may lag while typing). */
function siblingValue(ctx: CursorContext, text: string, key: string): string | undefined {
  const col = ctx.keyCol;
  const match = (l: LineInfo) => (l.key === key && l.contentCol === col ? l.value.replace(/^["']|["']$/g, '') : undefined);
  let n = 0;
  for (const l of linesAbove(text, ctx.line.start, () => col)) {
    if (++n > 40 || (!l.blank && l.indent < col && l.dash === undefined)) break;
    const v = match(l);
    if (v !== undefined) return v;
    if (l.dash !== undefined && l.contentCol === col) break;
  }
  n = 0;
  for (const l of linesBelow(text, ctx.line.end, col)) {
    if (++n > 40 || (!l.blank && (l.indent < col || (l.dash !== undefined && l.contentCol === col)))) break;
    const v = match(l);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The card around the cursor; while typing, the model may lag, so fall back to the nearest card above. */
function cardNear(doc: FabledDocument, off: number): UnitCard | undefined {
  const cards = cardsOf(doc);
  return cards.find((c) => within(c.span, off)) ?? [...cards].reverse().find((c) => c.span.start <= off);
}

/** Completion inside the stat-line string: legal values of the stat at that token. */
function statLineValues(ctx: CursorContext, span: Span): Completion[] {
  const v = ctx.value;
  if (!v) return [];
  const q = v[0] === '"' || v[0] === "'" ? v[0] : '';
  const valueStart = span.start + (q ? 1 : 0);
  const cursor = ctx.line.start + ctx.prefix.length + ctx.line.valueCol;
  const before = ctx.line.text.slice(valueStart - ctx.line.start, cursor - ctx.line.start);
  const tokens = before.split(/[\s\u00b7\u2022|,]+/).filter(Boolean);
  const typingToken = before.length > 0 && !/[\s\u00b7\u2022|,]$/.test(before);
  const index = typingToken ? tokens.length - 1 : tokens.length;
  const stat = STAT_ORDER[index];
  if (!stat) return [];
  const tokStart = typingToken ? cursor - tokens[tokens.length - 1]!.length : cursor;
  let tokEnd = cursor;
  const after = ctx.line.text.slice(cursor - ctx.line.start);
  const m = /^[^\s\u00b7\u2022|,"']*/.exec(after);
  if (m) tokEnd += m[0].length;
  const tspan = { start: tokStart, end: tokEnd };
  return statValues(stat).map((s, i) => value(s.label, tspan, i, { kind: 'enum', detail: `${stat} (${STAT_NAMES[stat]})${s.detail ? ` · ${s.detail}` : ''}` }));
}

// ------------------------------------------------------------------------------------------
// Templates (snippets)

/** Where templates go at the cursor: a list item or a key of the given list, or a blank file. */
function templatePlaces(kind: FabledDocument['kind'], path: string[], cardPath: string[] | undefined, ctx: CursorContext, text: string): TemplatePlace[] {
  const item = ctx.mode === 'item';
  // An item whose text is more than one word being typed is a value, not the start of an item.
  if (item && /[:\s]/.test(ctx.value.trim())) return [];
  const listAt = (p: string, list: string) => (ctx.mode === 'key' && p === list) || (item && p === `${list}.[]`);
  const p = path.join('.');
  const out: TemplatePlace[] = [];
  const blankFile = ctx.mode === 'key' && path.length === 0 && text.trim() === ctx.prefix.trim();
  if (blankFile && kind !== 'collection') out.push(kind === 'unit' ? 'unitFile' : kind === 'faction' ? 'factionFile' : 'fleetFile');
  if (kind === 'fleet') {
    if (listAt(p, 'units')) out.push('fleetEntry');
    return out;
  }
  if (listAt(p, 'units')) out.push('card');
  if (kind === 'faction' && listAt(p, 'commandAbilities')) out.push('commandAbility');
  if (cardPath) {
    const c = cardPath.join('.');
    if (listAt(c, 'weapons')) out.push('weapon');
    if (listAt(c, 'orders')) out.push('order');
    if (listAt(c, 'abilities')) out.push('ability');
  }
  return out;
}

/**
 * The factions a new file may name: `own`, the workspace's (its cards' factions, most cards first,
 * then those of its card and faction files that have no card yet); `examples`, the bundled example factions
 * the workspace has no card of (a fleet of those resolves to the example cards).
 */
function factionChoices(ws: Workspace, uri?: string): { own: string[]; examples: string[] } {
  const withCards = ws
    .factions()
    .filter((f) => ws.hasOwnCards(f))
    .map((f) => ({ f, n: ws.cardsOf(f).length }))
    .sort((a, b) => b.n - a.n || a.f.localeCompare(b.f))
    .map((x) => x.f);
  const seen = new Set(withCards.map((f) => f.trim().toLowerCase()));
  const own = [...withCards];
  // Not the file's own (half-typed) faction: it would only offer back what is being typed.
  for (const f of ws.fileFactions(uri)) {
    if (!seen.has(f.toLowerCase())) {
      seen.add(f.toLowerCase());
      own.push(f);
    }
  }
  const examples = ws.factions().filter((f) => !seen.has(f.trim().toLowerCase()));
  return { own, examples };
}

/**
 * The templates that fit the cursor, indented to where they go: the first line at the cursor (for a
 * list item, replacing the "- " already typed), every further line at that column plus its own
 * indentation. The text is absolute: the server sends it with insertTextMode asIs so that an editor
 * does not add the line's indentation a second time.
 */
function snippets(ws: Workspace, kind: FabledDocument['kind'], path: string[], cardPath: string[] | undefined, ctx: CursorContext, text: string): Completion[] {
  const places = templatePlaces(kind, path, cardPath, ctx, text);
  if (!places.length) return [];
  const item = ctx.mode === 'item';
  const span = item ? { start: ctx.line.start + (ctx.line.dash ?? 0), end: ctx.replace.end } : ctx.replace;
  const indent = ' '.repeat(span.start - ctx.line.start);
  const { own, examples } = factionChoices(ws);
  const out: Completion[] = [];
  let i = 0;
  for (const place of places) {
    for (const t of templatesFor(place, { factions: own, exampleFactions: examples, nameTaken: (n) => ws.findCards(n).length > 0 })) {
      out.push({
        label: t.label,
        kind: 'snippet',
        detail: t.detail,
        documentation: md(t.description),
        insertText: t.body.map((l, n) => (n === 0 || l === '' ? l : indent + l)).join('\n'),
        snippet: true,
        span,
        // Offered only where they fit, so first there; VS Code filters from the range start (the "- ").
        // Except in a card's orders and abilities, where a new player most often wants one of the
        // rulebook's (they complete by name alone): the blank template for a homebrew one comes after.
        sortText: `${place === 'order' || place === 'ability' ? '~' : ' '}${i++}`,
        filterText: `${item ? '- ' : ''}${t.label} ${t.words.join(' ')}`,
      });
    }
  }
  return out;
}
