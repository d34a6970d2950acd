/**
 * Text -> typed documents. This layer reads structure (which keys, which kinds of value, the two
 * stat forms, the two weapon forms) and reports what cannot be read; the rules themselves (limits,
 * slots, bands) are checked in ../check on the model it builds.
 */
import { keysOf } from './fields';
import { CLASS_NAMES, DOCTRINES, STAT_ORDER, WEAPON_TYPES, WEAPON_TYPE_ABBREVIATIONS, DASHES, STATS } from '../rules/data';
import type { Doctrine, StatName, UnitClass, WeaponType } from '../rules/data';
import type {
  Ability,
  CommandAbility,
  CpSource,
  DocKind,
  FabledDocument,
  FactionDocument,
  Field,
  FleetDocument,
  FleetEntry,
  CollectionDocument,
  OwnedEntry,
  Order,
  NamedRule,
  Problem,
  Span,
  StatEntry,
  StatsBlock,
  StatValue,
  UnitCard,
  UnitDocument,
  Weapon,
} from './types';
import { ChunkCache, moveChunk, setOrigin, splitList, type ChunkResult, type Split } from './chunks';
import {
  Kind,
  deref,
  entrySpan,
  describeKind,
  isScalar,
  loadYaml,
  problem,
  readMap,
  scalarText,
  spanOf,
  suggest,
  type Entry,
  type YAMLNode,
  type YAMLScalar,
  type YAMLSequence,
} from './yaml';
import { LIMITS, clip, countLines, longLines, size } from './limits';
import { knownAbility, launchBayTier, universalRule } from '../rules/lookup';
import { KNOWN_ORDERS } from '../rules/data';

const SUFFIXES: readonly [string, DocKind][] = [
  ['.unit.yaml', 'unit'],
  ['.unit.yml', 'unit'],
  ['.faction.yaml', 'faction'],
  ['.faction.yml', 'faction'],
  ['.fleet.yaml', 'fleet'],
  ['.fleet.yml', 'fleet'],
  ['.collection.yaml', 'collection'],
  ['.collection.yml', 'collection'],
];

/** The file name decides the kind (FORMATS.md): a uri's path, its query and fragment left out. */
export function kindOfUri(uri: string): DocKind | undefined {
  return kindOfPath(uri.replace(/[?#].*$/, ''));
}

/** The kind a file path names: a path is no uri, so "#" and "?" are part of its names (`C#/a.unit.yaml`). */
export function kindOfPath(file: string): DocKind | undefined {
  const lower = file.toLowerCase();
  for (const [suffix, kind] of SUFFIXES) if (lower.endsWith(suffix)) return kind;
  return undefined;
}

export const LANGUAGE_IDS: Readonly<Record<DocKind, string>> = {
  unit: 'fabled-unit',
  faction: 'fabled-faction',
  fleet: 'fabled-fleet',
  collection: 'fabled-collection',
};

/** The kind an editor's language id names (an untitled buffer has no file name to tell it). */
export function kindOfLanguage(languageId: string | undefined): DocKind | undefined {
  return (Object.keys(LANGUAGE_IDS) as DocKind[]).find((k) => LANGUAGE_IDS[k] === languageId);
}

// The keys of each mapping come from the field table (fields.ts), which completion and the schemas read too.
export const CARD_KEYS = keysOf('card');
export const UNIT_FILE_KEYS = keysOf('unitFile');
export const FACTION_KEYS = keysOf('faction');
export const FLEET_KEYS = keysOf('fleet');
export const FLEET_ENTRY_KEYS = keysOf('fleetEntry');
export const COLLECTION_KEYS = keysOf('collection');
export const OWNED_ENTRY_KEYS = keysOf('ownedEntry');
export const WEAPON_KEYS = keysOf('weapon');
export const ORDER_KEYS = keysOf('order');
export const ABILITY_KEYS = keysOf('ability');
export const COMMAND_ABILITY_KEYS = keysOf('commandAbility');
export const CP_SOURCE_KEYS = keysOf('cpSource');
export const FACTION_ABILITY_KEYS = keysOf('factionAbility');

// Named in messages that every card's fields are read with: joined once.
const CLASS_LIST = CLASS_NAMES.join(', ');
const WEAPON_TYPE_LIST = WEAPON_TYPES.join(', ');

/**
 * Parses a document of the kind its name says; undefined when the name is not one of ours. With a
 * cache (one per document), card files are parsed card by card and unchanged cards are reused.
 */
export function parseDocument(uri: string, text: string, kind: DocKind | undefined = kindOfUri(uri), cache?: ChunkCache): FabledDocument | undefined {
  if (!kind) return undefined;
  const refusal = refuse(text);
  if (refusal) return unread(uri, text, kind, [refusal]);
  // Over-long lines are blanked (offsets kept) and reported, so that the rest of the file is read.
  const long = longLines(text);
  const source = long.length ? blankSpans(text, long) : text;
  const limits = long.map((l) =>
    problem(
      'FS-YAML-LIMIT',
      `This line is ${l.end - l.start} characters long; lines longer than ${LIMITS.lineChars} are not read (write one value per line)`,
      l,
    ),
  );
  let doc: FabledDocument | undefined;
  if (kind === 'unit' || kind === 'faction') {
    const split = splitList(source);
    if (split) doc = parseSplit(uri, source, kind, split, cache ?? new ChunkCache());
  }
  doc ??= parseWhole(uri, source, kind);
  capProblems(doc);
  if (long.length) {
    doc.text = text;
    doc.problems.unshift(...limits.slice(0, 1000));
  }
  return doc;
}

/**
 * Files the parser is not given at all: too large to be a card file (and to check within a
 * keystroke), or binary (YAML text never holds NUL).
 */
function refuse(text: string): ReturnType<typeof problem> | undefined {
  const first = firstLine(text);
  const head = { start: 0, end: Math.min(Math.max(first.end, 1), text.length, 200) };
  if (text.length > LIMITS.fileChars) return fileTooLarge(text.length, head);
  if (countLines(text) > LIMITS.fileLines) {
    return problem(
      'FS-YAML-LIMIT',
      `This file has more than ${LIMITS.fileLines.toLocaleString('en')} lines; longer files are not checked (a card file has a few hundred)`,
      head,
    );
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return problem('FS-YAML-SYNTAX', 'This file holds NUL characters: it is binary, not YAML text, and is not read', { start: nul, end: nul + 1 });
  return undefined;
}

/** What a file over `LIMITS.fileChars` is told (the CLI says it of files too large to read, too). */
export function fileTooLarge(chars: number, at: Span, atLeast = false): Problem {
  return problem(
    'FS-YAML-LIMIT',
    `This file is ${atLeast ? 'over ' : ''}${size(chars)}; files larger than ${size(LIMITS.fileChars)} are not checked (a card file is a few kilobytes)`,
    at,
  );
}

/** A document of the kind with nothing read from it: just the problems that say why. */
function unread(uri: string, text: string, kind: DocKind, problems: Problem[]): FabledDocument {
  const none = <T>(): Field<T> => ({ value: undefined, raw: '', span: { start: 0, end: 0 } });
  switch (kind) {
    case 'unit':
      return { kind, uri, text, problems, unread: true, faction: none(), units: [] };
    case 'faction':
      return { kind, uri, text, problems, unread: true, faction: none(), doctrine: none(), units: [] };
    case 'fleet':
      return { kind, uri, text, problems, unread: true, name: none(), faction: none(), points: none() };
    case 'collection':
      return { kind, uri, text, problems, unread: true };
  }
}

/** Said on the `units:` key of a file with more than `LIMITS.cards` cards (duplicate names are checked card against card). */
function tooManyCards(at: Span): Problem {
  return problem('FS-YAML-LIMIT', `This file holds more than ${LIMITS.cards} cards; only the first ${LIMITS.cards} are read (a faction has dozens)`, at);
}

/** Lists the first `LIMITS.problems` problems of the parse, in file order, and says how many more there are. */
function capProblems(doc: FabledDocument): void {
  if (doc.problems.length <= LIMITS.problems) return;
  doc.problems.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const rest = doc.problems.length - LIMITS.problems;
  const at = doc.problems[LIMITS.problems]!.span;
  doc.problems.length = LIMITS.problems;
  doc.problems.push(problem('FS-YAML-LIMIT', `${rest} more problems in this file are not listed; fix the ones above first`, at));
}

function blankSpans(text: string, spans: Span[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + ' '.repeat(s.end - s.start);
    at = s.end;
  }
  return out + text.slice(at);
}

/** Parses without splitting (the reference that split parsing must agree with). */
export function parseWhole(uri: string, text: string, kind: DocKind): FabledDocument {
  const { root, problems, fatal } = loadYaml(text);
  // Nothing was read: the problems say why, and "this file is empty" would only mislead.
  if (fatal) return unread(uri, text, kind, problems);
  const r = new Reader(text, problems);
  const top = root && root.kind === Kind.MAP ? root : undefined;
  if (root && !top && !(root.kind === Kind.SCALAR && scalarText(root as YAMLScalar) === '')) {
    problems.push(
      problem('FS-TYPE', `A ${kind} file is a YAML mapping of keys (${topKeys(kind).slice(0, 3).join(', ')}, ...), not ${describeKind(root)}`, spanOf(root)),
    );
  }
  switch (kind) {
    case 'unit':
      return r.unitDoc(uri, text, top);
    case 'faction':
      return r.factionDoc(uri, text, top);
    case 'fleet':
      return r.fleetDoc(uri, text, top);
    case 'collection':
      return r.collectionDoc(uri, text, top);
  }
}

/** Blanks a region (keeping line breaks) so that a parse of the rest keeps its offsets. */
function blank(s: string): string {
  return s.replace(/[^\r\n]/g, ' ');
}

function parseSplit(uri: string, text: string, kind: 'unit' | 'faction', split: Split, cache: ChunkCache): FabledDocument {
  const head =
    split.listEnd >= text.length
      ? text.slice(0, split.listStart)
      : text.slice(0, split.listStart) + blank(text.slice(split.listStart, split.listEnd)) + text.slice(split.listEnd);
  const doc = parseWhole(uri, head, kind) as UnitDocument | FactionDocument;
  // A broken head (an unclosed quote, a bad indent before `units:`) can change how the parser
  // reads what follows; then the file is read whole, as the reference reading.
  if (doc.unread || doc.problems.some((p) => p.code === 'FS-YAML-SYNTAX')) return parseWhole(uri, text, kind);
  doc.text = text;
  // Two items with the same text (a card pasted twice) need two results: one result's cards sit
  // at one place only.
  const used = new Set<ChunkResult>();
  for (const item of split.items) {
    const chunkText = text.slice(item.start, item.end);
    let chunk = cache.get(chunkText);
    if (chunk && used.has(chunk)) chunk = undefined;
    if (!chunk) {
      // Parse the item alone, then move its tree to where it stands, so the model is built with
      // the document's own offsets (and reads the document's text) without copying anything.
      // One level encloses the item: the file's top-level mapping (`units:` is at column 0).
      const { root, problems } = loadYaml(chunkText, item.start, 1, false);
      const r = new Reader(text, problems, item.start);
      chunk = { text: chunkText, base: item.start, cards: root ? r.cardsOfList(root, doc.faction) : [], problems };
      if (cache.keeps) {
        for (const c of chunk.cards) setOrigin(c, chunk);
        cache.set(chunkText, chunk);
      }
    } else moveChunk(chunk, item.start);
    used.add(chunk);
    // The same cap as a whole parse's (though syntax errors past it are not looked for here).
    if (chunk.cards.length && doc.units.length >= LIMITS.cards) {
      doc.problems.push(tooManyCards(doc.unitsKey ?? firstLine(text)));
      break;
    }
    for (const c of chunk.cards) {
      c.faction = doc.faction;
      doc.units.push(c);
    }
    // One by one: a spread of a chunk's problems (there may be 100,000) would overflow the stack.
    for (const p of chunk.problems) doc.problems.push(p);
  }
  cache.sweep();
  return doc;
}

function topKeys(kind: DocKind): readonly string[] {
  return kind === 'unit' ? UNIT_FILE_KEYS : kind === 'faction' ? FACTION_KEYS : kind === 'fleet' ? FLEET_KEYS : COLLECTION_KEYS;
}

/** Signed whole numbers: read them, so the checks can say what range is allowed. */
const SIGNED = /^[+-]?\d+$/;
const signed = (r: string): number | undefined => (SIGNED.test(r.trim()) ? Number(r.trim()) : undefined);

/** Parses a range written as 12, 12", 12\u201d or 12\u2033 (typographic), 12'' or 12 in; undefined when it is not an inch figure. */
export function parseInches(raw: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:"|\u201d|\u2033|''|in\.?|inch|inches)?\s*$/i.exec(raw);
  return m ? Number(m[1]) : undefined;
}

/**
 * The first spaced dash of a printed rule that is not inside brackets ("Dogfighters (Universal
 * Fighter Class Rule — does not use ...) — Fighter weapons ..." splits after the bracket).
 */
function dashOutsideBrackets(raw: string): { index: number; 0: string } | undefined {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && i > 0 && /\s/.test(raw[i - 1]!) && /[-\u2014\u2013]/.test(c!) && /\s/.test(raw[i + 1] ?? ''))
      return { index: i - 1, 0: raw.slice(i - 1, i + 2) };
  }
  return undefined;
}

/** Parses a base size written as 60mm, 60 mm or 60. */
export function parseMm(raw: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$/i.exec(raw);
  return m ? Number(m[1]) : undefined;
}

/** Weapon types and classes by their lower-case names (looked up for every weapon and card). */
const WEAPON_TYPE_BY_LOWER = new Map<string, WeaponType>(WEAPON_TYPES.map((w) => [w.toLowerCase(), w]));
const CLASS_BY_LOWER = new Map<string, UnitClass>(CLASS_NAMES.map((c) => [c.toLowerCase(), c]));

export function normaliseWeaponType(raw: string): WeaponType | undefined {
  const t = raw.trim();
  const abbr = WEAPON_TYPE_ABBREVIATIONS[t.toUpperCase()];
  if (abbr && t.length === 1) return abbr;
  return WEAPON_TYPE_BY_LOWER.get(t.toLowerCase());
}

export function normaliseClass(raw: string): UnitClass | undefined {
  const t = raw.trim();
  return CLASS_BY_LOWER.get((/\s\s|[^\S ]/.test(t) ? t.replace(/\s+/g, ' ') : t).toLowerCase());
}

export function isDash(raw: string): boolean {
  return DASHES.includes(raw.trim());
}

/** Parses one stat token in the form its stat takes; undefined when it is malformed. */
export function parseStatToken(stat: StatName, raw: string): StatValue | undefined {
  const t = raw.trim();
  if (isDash(t)) return { kind: 'none' };
  switch (STATS[stat].form) {
    case 'sticks': {
      const m = /^(\d+)(?:"?\s*\/\s*(\d+))?"?$/.exec(t);
      if (!m) return undefined;
      return { kind: 'sticks', parts: m[2] === undefined ? [Number(m[1])] : [Number(m[1]), Number(m[2])] };
    }
    case 'target': {
      const m = /^(\d+)\s*\+$/.exec(t);
      return m ? { kind: 'target', target: Number(m[1]) } : undefined;
    }
    case 'count':
      return SIGNED.test(t) ? { kind: 'count', n: Number(t) } : undefined;
    case 'targetDice': {
      const m = /^(\d+)\s*\/\s*(\d+)$/.exec(t);
      return m ? { kind: 'targetDice', target: Number(m[1]), dice: Number(m[2]) } : undefined;
    }
  }
}

/** How well a value fits a stat: 2 read and within its limits, 1 read, 0 not its form. */
function statFit(stat: StatName, raw: string): number {
  const v = parseStatToken(stat, raw);
  if (!v) return 0;
  const spec = STATS[stat];
  switch (v.kind) {
    case 'none':
      return spec.dashAllowed ? 2 : 1;
    case 'sticks':
      return v.parts.length <= (spec.maxParts ?? 1) && v.parts.every((p) => spec.sticks?.includes(p)) ? 2 : 1;
    case 'target':
      return v.target >= spec.min! && v.target <= spec.max! ? 2 : 1;
    case 'count':
      return v.n >= spec.min! && (spec.max === undefined || v.n <= spec.max) ? 2 : 1;
    case 'targetDice': {
      const t = spec.target!;
      const d = spec.dice!;
      return v.target >= t.best && v.target <= t.worst && v.dice >= d.min && v.dice <= d.max ? 2 : 1;
    }
  }
}

/**
 * Which stats the values of a stat line with fewer than nine values are: of the ways to keep them
 * in rulebook order (at most 126), the one they fit best; among equals, the one that leaves out the
 * latest stats (the values as written, left to right). `unsure`: when equals leave out different
 * stats, every stat one of them leaves out.
 */
function alignStats(raws: string[]): { stats: StatName[]; unsure: StatName[] } {
  const n = raws.length;
  const fit = raws.map((r) => STAT_ORDER.map((s) => statFit(s, r)));
  let best = -1;
  let bestStats: StatName[] = [];
  const tied: StatName[][] = [];
  const pick: number[] = [];
  // Choices in lexicographic order: the first of the best keeps the values at the earliest stats.
  const walk = (i: number, from: number, score: number): void => {
    if (i === n) {
      const stats = pick.map((k) => STAT_ORDER[k]!);
      if (score > best) {
        best = score;
        bestStats = stats;
        tied.length = 0;
        tied.push(stats);
      } else if (score === best) tied.push(stats);
      return;
    }
    for (let k = from; k <= STAT_ORDER.length - (n - i); k++) {
      pick.push(k);
      walk(i + 1, k + 1, score + fit[i]![k]!);
      pick.pop();
    }
  };
  walk(0, 0, 0);
  const missingOf = (stats: StatName[]) => STAT_ORDER.filter((s) => !stats.includes(s));
  const first = missingOf(bestStats).join(' ');
  const unsure = tied.some((t) => missingOf(t).join(' ') !== first) ? STAT_ORDER.filter((s) => tied.some((t) => !t.includes(s))) : [];
  return { stats: bestStats, unsure };
}

/**
 * Where a scalar's characters sit in the source: for plain and simply quoted scalars, offsets of
 * the decoded text map one-to-one onto the source after the opening quote. For scalars where they
 * do not (escapes, folded or block scalars), undefined: callers then use the whole node.
 */
function contentStart(text: string, node: YAMLScalar, base: number): number | undefined {
  const value = scalarText(node);
  const start = node.startPosition + base;
  const q = text[start];
  const from = q === '"' || q === "'" ? start + 1 : start;
  return text.startsWith(value, from) ? from : undefined;
}

class Reader {
  /** `base`: added to every node position (a tree parsed from a piece of the text; see `loadYaml`). */
  constructor(
    private readonly text: string,
    readonly problems: Problem[],
    private readonly base = 0,
  ) {}

  /** A node's range without the blank lines and spaces the parser counts at its end. */
  private trimmed(span: Span): Span {
    let end = span.end;
    // ASCII blanks by code (this runs for every card and problem); other characters of \s by regex.
    for (; end > span.start; end--) {
      const c = this.text.charCodeAt(end - 1);
      if (c === 32 || (c >= 9 && c <= 13)) continue;
      if (c < 128 || !/\s/.test(this.text[end - 1]!)) break;
    }
    return { start: span.start, end };
  }

  private report(code: Parameters<typeof problem>[0], message: string, span: Span, data?: Parameters<typeof problem>[3]): void {
    const card = this.reading;
    if (card?.merge && !(card.span.start <= span.start && span.end <= card.span.end)) {
      // A value the card merged (`<<: *base`): said on the card, at its merge key, not on the mapping it came from
      // (which may be another card); no fix, which would edit that mapping.
      this.problems.push(problem(code, `${message} (in what this card merges with <<)`, card.merge));
      return;
    }
    // Without the blank lines the parser counts at a node's end: they differ between a card parsed
    // alone and the same card in the whole file.
    this.problems.push(problem(code, message, this.trimmed(span), data));
  }

  /** The card being read, while its fields are (see `report`). */
  private reading: { span: Span; merge: Span | undefined } | undefined;

  // ---------- fields ----------

  /** An empty field placed right after a key (or at `at`) for values that are absent. */
  private absent<T>(at: Span): Field<T> {
    return { value: undefined, raw: '', span: { start: at.end, end: at.end } };
  }

  private str(e: Entry | undefined, at: Span, what: string): Field<string> {
    if (!e) return this.absent(at);
    const f: Field<string> = { value: undefined, raw: '', span: e.valueSpan, keySpan: e.keySpan };
    if (isScalar(e.value)) {
      f.raw = scalarText(e.value);
      f.value = f.raw.trim() === '' ? undefined : f.raw.trim();
      if (f.value === undefined) this.report('FS-MISSING-FIELD', `"${e.key}" is empty; give ${what}`, e.keySpan);
    } else {
      this.report('FS-TYPE', `"${e.key}" should be ${what}, not ${describeKind(e.value)}`, e.value ? e.valueSpan : e.keySpan);
    }
    return f;
  }

  /** A whole number field; `parse` may accept other spellings (inches, mm). */
  private num(e: Entry | undefined, at: Span, what: string, parse: (raw: string) => number | undefined = signed): Field<number> {
    if (!e) return this.absent(at);
    const f: Field<number> = { value: undefined, raw: '', span: e.valueSpan, keySpan: e.keySpan };
    if (isScalar(e.value) && scalarText(e.value).trim() !== '') {
      f.raw = scalarText(e.value);
      f.value = parse(f.raw);
      if (f.value === undefined) this.report('FS-TYPE', `"${clip(e.key)}" should be ${what}, not "${clip(f.raw)}"`, e.valueSpan);
    } else if (e.value && !isScalar(e.value)) {
      this.report('FS-TYPE', `"${e.key}" should be ${what}, not ${describeKind(e.value)}`, e.valueSpan);
    } else {
      this.report('FS-MISSING-FIELD', `"${e.key}" is empty; give ${what}`, e.keySpan);
    }
    return f;
  }

  private required<T>(f: Field<T>, entry: Entry | undefined, key: string, where: Span, what: string): Field<T> {
    if (!entry) this.report('FS-MISSING-FIELD', `Missing "${key}": ${what}`, where);
    return f;
  }

  /** What every document starts with: its kind, uri, text and the problems found reading it. */
  private docHead<K extends FabledDocument['kind']>(kind: K, uri: string, text: string) {
    return { kind, uri, text, problems: this.problems };
  }

  /**
   * A document's top-level mapping, read with its known keys: `g` gives an entry, `at` is where a
   * missing key is reported (the first key, or the document's first line). Undefined, after
   * reporting `whenEmpty` on the first line, when the document is empty.
   */
  private topLevel(top: YAMLNode | undefined, docSpan: Span, keys: readonly string[], where: string, whenEmpty: string) {
    if (!top) {
      this.report('FS-MISSING-FIELD', whenEmpty, docSpan);
      return undefined;
    }
    const m = readMap(top, this.problems, keys, where, this.base);
    return { at: m.list[0]?.keySpan ?? docSpan, g: (k: string) => m.entries.get(k) };
  }

  /** A list under a key; a single mapping or scalar is accepted as a list of one when `single`. */
  private list(
    e: Entry | undefined,
    single: boolean,
    what: string,
    max: number = LIMITS.listItems,
  ): { items: YAMLNode[]; keySpan: Span; span: Span } | undefined {
    if (!e) return undefined;
    const out = { items: [] as YAMLNode[], keySpan: e.keySpan, span: entrySpan(e) };
    if (e.value && e.value.kind === Kind.SEQ) {
      for (const item of (e.value as YAMLSequence).items ?? []) {
        const d = deref(item);
        if (!d) continue;
        if (out.items.length === max) {
          // Checks compare list items with each other and with the workspace's cards: a list no
          // one writes by hand (a fleet of 10,000 entries) would hold the checker for seconds.
          this.report('FS-YAML-LIMIT', `"${e.key}" lists more than ${max} ${what}; the rest are not read`, spanOf(d, this.base));
          break;
        }
        out.items.push(d);
      }
    } else if (e.value && single && (e.value.kind === Kind.MAP || isScalar(e.value)) && !(isScalar(e.value) && scalarText(e.value) === '')) {
      out.items.push(e.value);
    } else if (e.value && !(isScalar(e.value) && scalarText(e.value) === '')) {
      this.report('FS-TYPE', `"${e.key}" should be a list of ${what}, not ${describeKind(e.value)}`, e.valueSpan);
    }
    return out;
  }

  // ---------- unit cards ----------

  unitDoc(uri: string, text: string, top: YAMLNode | undefined): UnitDocument {
    const docSpan = firstLine(text);
    if (!top) {
      this.report('FS-MISSING-FIELD', 'This unit file is empty: give "faction:" and "units:" with at least one card', docSpan);
      return { kind: 'unit', uri, text, problems: this.problems, faction: this.absent(docSpan), units: [] };
    }
    const single = !!top && hasKey(top, 'units') === false && (hasKey(top, 'name') || hasKey(top, 'class'));
    const known = single ? [...UNIT_FILE_KEYS.filter((k) => k !== 'units'), ...CARD_KEYS] : UNIT_FILE_KEYS;
    const m = readMap(top, this.problems, known, 'in a unit file', this.base);
    const at = m.list[0]?.keySpan ?? docSpan;
    const faction = this.required(
      this.str(m.entries.get('faction'), at, 'the faction name'),
      m.entries.get('faction'),
      'faction',
      at,
      'the faction these cards belong to',
    );
    const doc: UnitDocument = { kind: 'unit', uri, text, problems: this.problems, faction, units: [] };
    if (single) {
      doc.units.push(this.card(top, m, faction, spanOf(top, this.base)));
    } else {
      const e = m.entries.get('units');
      if (!e) this.report('FS-MISSING-FIELD', 'Missing "units": the list of unit cards', at);
      else {
        doc.unitsKey = e.keySpan;
        doc.units = this.cards(e, faction);
      }
    }
    return doc;
  }

  /** The cards of a list parsed on its own (one item of a split card list). */
  cardsOfList(root: YAMLNode, faction: Field<string>): UnitCard[] {
    if (root.kind !== Kind.SEQ) return [];
    return this.cardItems(
      ((root as YAMLSequence).items ?? []).map((i) => deref(i)).filter((i): i is YAMLNode => !!i),
      faction,
    );
  }

  private cards(e: Entry, faction: Field<string>): UnitCard[] {
    return this.cardItems(this.list(e, true, 'unit cards', Infinity)?.items ?? [], faction, e.keySpan);
  }

  /** With `capAt`, at most `LIMITS.cards` cards are read, and a file with more is told so there. */
  private cardItems(items: YAMLNode[], faction: Field<string>, capAt?: Span): UnitCard[] {
    const out: UnitCard[] = [];
    for (const item of items) {
      if (item.kind !== Kind.MAP) {
        this.report('FS-TYPE', `A unit card is a mapping (name, class, points, stats, ...), not ${describeKind(item)}`, spanOf(item, this.base));
        continue;
      }
      if (capAt && out.length >= LIMITS.cards) {
        this.problems.push(tooManyCards(capAt));
        break;
      }
      const m = readMap(item, this.problems, CARD_KEYS, 'on a unit card', this.base);
      out.push(this.card(item, m, faction, this.trimmed(spanOf(item, this.base))));
    }
    return out;
  }

  private card(node: YAMLNode, m: ReturnType<typeof readMap>, faction: Field<string>, span: Span): UnitCard {
    const merge = m.merges?.[0];
    this.reading = { span, merge };
    try {
      const card = this.cardFields(node, m, faction, span);
      if (merge) card.merge = merge;
      return card;
    } finally {
      this.reading = undefined;
    }
  }

  private cardFields(node: YAMLNode, m: ReturnType<typeof readMap>, faction: Field<string>, span: Span): UnitCard {
    const head = m.list[0]?.keySpan ?? { start: span.start, end: span.start };
    const g = (k: string) => m.entries.get(k);
    const name = this.required(this.str(g('name'), head, 'the card name'), g('name'), 'name', head, "the card's name");
    const at = name.keySpan ?? head;
    const classEntry = g('class');
    const classText = this.str(classEntry, at, `a class (${CLASS_LIST})`);
    const cls = readAs(classText, classText.value !== undefined ? normaliseClass(classText.value) : undefined);
    this.required(cls, classEntry, 'class', at, `the card's class (${CLASS_LIST})`);
    const points = this.required(this.num(g('points'), at, 'a whole number of points'), g('points'), 'points', at, "the card's points cost");
    const card: UnitCard = { span, name, class: cls, points, faction };
    if (g('bases')) card.bases = this.num(g('bases'), at, 'a whole number of bases');
    if (g('base')) card.base = this.num(g('base'), at, 'a base size such as 60mm', parseMm);
    const stats = g('stats');
    if (stats) card.stats = this.stats(stats);
    else this.report('FS-MISSING-FIELD', `Missing "stats": all nine stats (${STAT_ORDER.join(' ')})`, at);
    const weapons = this.list(g('weapons'), true, 'weapons');
    if (weapons) card.weapons = { items: weapons.items.map((w) => this.weapon(w)), keySpan: weapons.keySpan, span: weapons.span };
    const orders = this.list(g('orders'), true, 'orders');
    if (orders) card.orders = { items: orders.items.map((o) => this.order(o)).filter((o): o is Order => !!o), keySpan: orders.keySpan, span: orders.span };
    const abilities = this.list(g('abilities'), true, 'abilities');
    if (abilities)
      card.abilities = {
        items: abilities.items.map((a) => this.ability(a)).filter((a): a is Ability => !!a),
        keySpan: abilities.keySpan,
        span: abilities.span,
      };
    void node;
    return card;
  }

  private stats(e: Entry): StatsBlock {
    const block: StatsBlock = { form: 'mapping', keySpan: e.keySpan, span: entrySpan(e), entries: {} };
    const v = e.value;
    if (v && v.kind === Kind.MAP) {
      const m = readMap(v, this.problems, STAT_ORDER, 'in stats', this.base);
      for (const en of m.list) {
        const stat = en.key as StatName;
        if (!(STAT_ORDER as readonly string[]).includes(stat)) continue;
        if (!isScalar(en.value) || scalarText(en.value).trim() === '') {
          block.entries[stat] = { stat, raw: '', span: en.value ? en.valueSpan : en.keySpan, keySpan: en.keySpan, value: undefined };
          if (en.value && !isScalar(en.value))
            this.report('FS-TYPE', `${stat} should be a single value such as ${example(stat)}, not ${describeKind(en.value)}`, en.valueSpan);
          continue;
        }
        const raw = scalarText(en.value).trim();
        block.entries[stat] = { stat, raw, span: en.valueSpan, keySpan: en.keySpan, value: parseStatToken(stat, raw) };
      }
    } else if (isScalar(v) && scalarText(v).trim() !== '') {
      block.form = 'line';
      this.statLine(v, block);
    } else if (v && !isScalar(v)) {
      this.report('FS-TYPE', `"stats" is a mapping (M: 9/6, BS: 5+, ...) or the stat line as one string, not ${describeKind(v)}`, e.valueSpan);
    }
    return block;
  }

  /** The stat line string: nine tokens in rulebook order, separated by spaces or by middle dots. */
  private statLine(node: YAMLScalar, block: StatsBlock): void {
    const value = scalarText(node);
    const base = contentStart(this.text, node, this.base);
    const tokens: { raw: string; span: Span }[] = [];
    const re = /[^\s\u00b7\u2022|,]+/g;
    for (let m = re.exec(value); m; m = re.exec(value)) {
      const span = base === undefined ? spanOf(node, this.base) : { start: base + m.index, end: base + m.index + m[0].length };
      tokens.push({ raw: m[0], span });
    }
    // Fewer than nine values: read as the stats they fit (a value left out in the middle is that
    // stat missing, not every stat after it read from its neighbour's value).
    const n = Math.min(tokens.length, STAT_ORDER.length);
    const reading = n > 0 && n < STAT_ORDER.length ? alignStats(tokens.slice(0, n).map((t) => t.raw)) : { stats: STAT_ORDER.slice(0, n), unsure: [] };
    reading.stats.forEach((stat, i) => {
      const t = tokens[i]!;
      const entry: StatEntry = { stat, raw: t.raw, span: t.span, keySpan: t.span, value: parseStatToken(stat, t.raw) };
      block.entries[stat] = entry;
    });
    if (reading.unsure.length) block.unsure = reading.unsure;
    if (tokens.length > STAT_ORDER.length) {
      const extra = tokens.slice(STAT_ORDER.length);
      this.report('FS-STAT-EXTRA', `The stat line has ${tokens.length} values; it holds exactly nine, in the order ${STAT_ORDER.join(' ')}`, {
        start: extra[0]!.span.start,
        end: extra[extra.length - 1]!.span.end,
      });
    }
  }

  private weapon(node: YAMLNode): Weapon {
    const span = spanOf(node, this.base);
    if (node.kind === Kind.MAP) {
      const m = readMap(node, this.problems, WEAPON_KEYS, 'on a weapon', this.base);
      const head = m.list[0]?.keySpan ?? span;
      const g = (k: string) => m.entries.get(k);
      const name = this.required(this.str(g('name'), head, 'the weapon name'), g('name'), 'name', head, "the weapon's name");
      const at = name.keySpan ?? head;
      const typeText = this.str(g('type'), at, `a weapon type (${WEAPON_TYPE_LIST})`);
      this.required(typeText, g('type'), 'type', at, `the weapon type (${WEAPON_TYPE_LIST})`);
      const type = readAs(typeText, typeText.value ? normaliseWeaponType(typeText.value) : undefined);
      const range = this.required(this.num(g('range'), at, 'a range in inches such as 12"', parseInches), g('range'), 'range', at, 'the range band in inches');
      const damage = this.required(this.num(g('damage'), at, 'a whole number'), g('damage'), 'damage', at, 'the damage (1 to 5)');
      const attacks = this.required(this.num(g('attacks'), at, 'a whole number'), g('attacks'), 'attacks', at, 'the number of attacks');
      return { form: 'mapping', span, name, type, range, damage, attacks };
    }
    if (isScalar(node)) return this.weaponLine(node);
    this.report(
      'FS-TYPE',
      `A weapon is a mapping (name, type, range, damage, attacks) or a line "Name — Type, Range, Dmg, Attacks", not ${describeKind(node)}`,
      span,
    );
    return unreadableWeapon(span, '');
  }

  /** A weapon line, `Pulse Laser - Ion, 9", 2, 4`, with a hyphen, an em dash or an en dash as the dash. */
  private weaponLine(node: YAMLScalar): Weapon {
    const span = spanOf(node, this.base);
    const value = scalarText(node);
    const base = contentStart(this.text, node, this.base);
    const at = (i: number, len: number): Span => (base === undefined ? span : { start: base + i, end: base + i + len });
    const dashes = [...value.matchAll(/\s[-\u2014\u2013]\s/g)];
    let split: RegExpMatchArray | undefined;
    // The last dash with exactly three commas after it. Commas are counted from the end once, not
    // again for each dash (a 2 MB line of dashes took half a minute), and once there are more than
    // three no earlier dash can qualify.
    let commas = 0;
    let countedFrom = value.length;
    for (let i = dashes.length - 1; i >= 0 && commas <= 3; i--) {
      const from = dashes[i]!.index + 3;
      for (let k = from; k < countedFrom; k++) if (value.charCodeAt(k) === 44) commas++;
      countedFrom = Math.min(countedFrom, from);
      if (commas === 3) {
        split = dashes[i];
        break;
      }
    }
    if (!split) {
      this.report(
        'FS-WEAPON-FORMAT',
        `Cannot read the weapon "${clip(value)}": write "Name — Type, Range, Dmg, Attacks" (e.g. Pulse Laser — Ion, 9", 2, 4) or a mapping`,
        span,
      );
      // Still a weapon system of the card (counted for its class's slots), as a mapping with a
      // missing field is: the problem is reported once, here.
      return unreadableWeapon(span, value);
    }
    const nameText = value.slice(0, split.index);
    const name: Field<string> = { value: nameText.trim() || undefined, raw: nameText, span: at(leading(nameText), nameText.trim().length) };
    if (!name.value) this.report('FS-WEAPON-FORMAT', 'The weapon has no name before the dash', span);
    let off = split.index! + 3;
    const parts: { raw: string; span: Span }[] = [];
    for (const piece of value.slice(off).split(',')) {
      parts.push({ raw: piece.trim(), span: at(off + leading(piece), piece.trim().length) });
      off += piece.length + 1;
    }
    const [t, r, d, a] = parts as [(typeof parts)[0], (typeof parts)[0], (typeof parts)[0], (typeof parts)[0]];
    const type: Field<WeaponType> = { value: normaliseWeaponType(t.raw), raw: t.raw, span: t.span };
    if (t.raw === '') this.report('FS-WEAPON-FORMAT', `The weapon's type is missing: write one of ${WEAPON_TYPES.join(', ')} after the dash`, span);
    const numField = (p: (typeof parts)[0], what: string, parse: (s: string) => number | undefined): Field<number> => {
      const v = parse(p.raw);
      if (v === undefined)
        this.report(
          p.raw === '' ? 'FS-WEAPON-FORMAT' : 'FS-TYPE',
          p.raw === '' ? `The weapon's ${what} is missing` : `The weapon's ${what} should be a number, not "${clip(p.raw)}"`,
          p.raw === '' ? span : p.span,
        );
      return { value: v, raw: p.raw, span: p.span };
    };
    return {
      form: 'line',
      span,
      name,
      type,
      range: numField(r, 'range', parseInches),
      damage: numField(d, 'damage', signed),
      attacks: numField(a, 'attacks', signed),
    };
  }

  private order(node: YAMLNode): Order | undefined {
    return this.namedRule<Order>(node, 'order', '(name, difficulty, range, effect)', ORDER_KEYS, (o, g, at) => {
      if (g('difficulty')) o.difficulty = this.num(g('difficulty'), at, 'a whole number of LD successes', signed);
      if (g('range')) o.range = this.num(g('range'), at, 'a range in inches such as 12"', parseInches);
      if (g('effect')) o.effect = this.str(g('effect'), at, 'the effect text');
    });
  }

  private ability(node: YAMLNode): Ability | undefined {
    return this.namedRule<Ability>(node, 'ability', '(name, text)', ABILITY_KEYS, (a, g, at) => {
      if (g('text')) a.text = this.str(g('text'), at, 'the rule text');
      if (g('range')) a.range = this.num(g('range'), at, 'a range in inches such as 6"', parseInches);
    });
  }

  /**
   * An order or an ability (`word`): a known one's name alone (form `string`), or a mapping of its
   * `keys` with a name, whose other fields `fill` reads (`at`: where their problems land).
   * Undefined, after saying what it should be, when it is neither.
   */
  private namedRule<T extends NamedRule>(
    node: YAMLNode,
    word: 'order' | 'ability',
    fields: string,
    keys: readonly string[],
    fill: (rule: T, g: (k: string) => Entry | undefined, at: Span) => void,
  ): T | undefined {
    const span = spanOf(node, this.base);
    if (isScalar(node)) {
      const raw = scalarText(node);
      const rule = { form: 'string', span, name: { value: raw.trim() || undefined, raw, span } } as T;
      this.printedRule(node, raw, word, rule);
      return rule;
    }
    if (node.kind !== Kind.MAP) {
      this.report('FS-TYPE', `An ${word} is a mapping ${fields} or a known ${word}'s name, not ${describeKind(node)}`, span);
      return undefined;
    }
    const m = readMap(node, this.problems, keys, `on an ${word}`, this.base);
    const head = m.list[0]?.keySpan ?? span;
    const g = (k: string) => m.entries.get(k);
    const name = this.required(this.str(g('name'), head, `the ${word} name`), g('name'), 'name', head, `the ${word}'s name`);
    const rule = { form: 'mapping', span, name } as T;
    fill(rule, g, name.keySpan ?? head);
    return rule;
  }

  /**
   * A rulebook order or ability written as the class cards print it, "Name \u2014 text" ("Evasive
   * Screen \u2014 when targeted ...", "Attack Run \u2014 LD Difficulty 2, Range 12": ..."), or with the
   * difficulty in brackets ("Recover Craft (Difficulty 3)"): when the part before the first spaced
   * dash names a known one, that part is the name and the rest its text, difficulty and range.
   * Anything else stays one name (a homebrew name is reported as unknown, as before).
   */
  private printedRule(
    node: YAMLScalar,
    raw: string,
    word: 'order' | 'ability',
    rule: NamedRule & { effect?: Field<string>; text?: Field<string>; difficulty?: Field<number> },
  ): void {
    const dash = dashOutsideBrackets(raw);
    const bracket = word === 'order' ? /\s*\((?:LD\s+)?Difficulty\s+(\d+)\)\s*$/i.exec(dash ? raw.slice(0, dash.index) : raw) : null;
    if (!dash && !bracket) return;
    // Where the value's text is not the source's (escapes in quotes), every part has the item's span.
    const base = contentStart(this.text, node, this.base);
    const whole = spanOf(node, this.base);
    const sp = (from: number, length: number): Span => (base === undefined ? whole : { start: base + from, end: base + from + length });
    const headEnd = bracket ? bracket.index : dash ? dash.index : raw.length;
    const head = raw.slice(0, headEnd);
    const name = head.trim();
    const known =
      word === 'order'
        ? KNOWN_ORDERS.some((o) => o.name.toLowerCase() === name.toLowerCase())
        : !!universalRule(name) || !!knownAbility(name) || launchBayTier(name) !== undefined;
    if (!known) return;
    const lead = head.length - head.trimStart().length;
    rule.name = { value: name, raw: head, span: sp(lead, name.length) };
    const number = (digits: string, at: number): Field<number> => ({ value: Number(digits), raw: digits, span: sp(at, digits.length) });
    if (bracket) rule.difficulty = number(bracket[1]!, headEnd + bracket[0].search(/\d/));
    if (!dash) return;
    let at = dash.index + dash[0].length;
    if (word === 'order') {
      // "LD Difficulty 2, Range 12": " before an order's text, as the class cards print it.
      const m = /^(\s*(?:LD\s+)?Difficulty\s+)(\d+)(?:(\s*,\s*Range\s+)((\d+(?:\.\d+)?)\s*(?:"|\u201d|\u2033|''|in(?:ch(?:es)?)?\b)?))?\s*[:,]?\s*/i.exec(
        raw.slice(at),
      );
      if (m) {
        rule.difficulty = number(m[2]!, at + m[1]!.length);
        // The range's span holds its inch mark, so that a fix to a band replaces both.
        if (m[3] && m[4]) {
          const from = at + m[1]!.length + m[2]!.length + m[3].length;
          rule.range = { value: Number(m[5]), raw: m[4], span: sp(from, m[4].length) };
        }
        at += m[0].length;
      }
    }
    const rest = raw.slice(at);
    const textLead = rest.length - rest.trimStart().length;
    const body = rest.trim();
    if (!body) return;
    const field: Field<string> = { value: body, raw: rest, span: sp(at + textLead, body.length) };
    if (word === 'order') rule.effect = field;
    else rule.text = field;
  }

  // ---------- faction ----------

  factionDoc(uri: string, text: string, top: YAMLNode | undefined): FactionDocument {
    const docSpan = firstLine(text);
    const empty: FactionDocument = { ...this.docHead('faction', uri, text), faction: this.absent(docSpan), doctrine: this.absent(docSpan), units: [] };
    const read = this.topLevel(
      top,
      docSpan,
      FACTION_KEYS,
      'on a Command Board',
      'This Command Board is empty: give faction, doctrine, factionAbility and six commandAbilities',
    );
    if (!read) return empty;
    const { at, g } = read;
    const faction = this.required(this.str(g('faction'), at, 'the faction name'), g('faction'), 'faction', at, "the faction's name");
    const doctrineText = this.str(g('doctrine'), at, `a doctrine (${Object.keys(DOCTRINES).join(', ')})`);
    this.required(
      doctrineText,
      g('doctrine'),
      'doctrine',
      at,
      `the Command Doctrine (${Object.entries(DOCTRINES)
        .map(([k, v]) => `${k} ${v} CP`)
        .join(', ')})`,
    );
    const doctrine: Field<Doctrine> = {
      ...doctrineText,
      value: (Object.keys(DOCTRINES) as Doctrine[]).find((d) => d.toLowerCase() === doctrineText.value?.toLowerCase()),
    };
    const doc: FactionDocument = { ...empty, faction, doctrine };
    if (g('cp')) doc.cp = this.num(g('cp'), at, 'a whole number of CP');
    const sources = this.list(g('cpSources'), true, 'CP sources');
    if (sources) {
      doc.cpSources = { ...sources, items: [] };
      for (const item of sources.items) {
        if (item.kind !== Kind.MAP) {
          this.report('FS-TYPE', `A CP source is a mapping { name, cp }, not ${describeKind(item)}`, spanOf(item, this.base));
          continue;
        }
        const sm = readMap(item, this.problems, CP_SOURCE_KEYS, 'on a CP source', this.base);
        const h = sm.list[0]?.keySpan ?? spanOf(item, this.base);
        const s: CpSource = {
          span: spanOf(item, this.base),
          name: this.required(this.str(sm.entries.get('name'), h, 'a name'), sm.entries.get('name'), 'name', h, "the source's name"),
          cp: this.required(this.num(sm.entries.get('cp'), h, 'a whole number of CP'), sm.entries.get('cp'), 'cp', h, 'the CP it gives'),
        };
        doc.cpSources.items.push(s);
      }
    }
    const fa = g('factionAbility');
    if (fa) {
      doc.factionAbilityKey = fa.keySpan;
      const v = fa.value;
      if (v && v.kind === Kind.MAP) {
        const am = readMap(v, this.problems, FACTION_ABILITY_KEYS, 'on the faction ability', this.base);
        const h = am.list[0]?.keySpan ?? fa.keySpan;
        doc.factionAbility = {
          span: spanOf(v, this.base),
          keySpan: fa.keySpan,
          name: this.required(this.str(am.entries.get('name'), h, 'a name'), am.entries.get('name'), 'name', h, "the faction ability's name"),
          text: this.required(this.str(am.entries.get('text'), h, 'the rule text'), am.entries.get('text'), 'text', h, "the faction ability's rule text"),
        };
      } else if (v && v.kind === Kind.SEQ) {
        const n = ((v as YAMLSequence).items ?? []).length;
        this.report('FS-FACTION-ABILITY', `A Command Board has exactly one faction ability (a mapping with name and text), not a list of ${n}`, fa.keySpan);
      } else {
        this.report('FS-TYPE', `"factionAbility" is a mapping with name and text, not ${describeKind(v)}`, v ? fa.valueSpan : fa.keySpan);
      }
    }
    const cas = this.list(g('commandAbilities'), false, 'command abilities');
    if (cas) {
      doc.commandAbilities = { ...cas, items: [] };
      for (const item of cas.items) {
        const ca = this.commandAbility(item);
        if (ca) doc.commandAbilities.items.push(ca);
      }
    }
    const units = g('units');
    if (units) {
      doc.unitsKey = units.keySpan;
      doc.units = this.cards(units, faction);
    }
    return doc;
  }

  /** One command ability of a Command Board (a mapping: name, cost, timing, effect); undefined, said, when it is not a mapping. */
  commandAbility(item: YAMLNode): CommandAbility | undefined {
    if (item.kind !== Kind.MAP) {
      this.report('FS-TYPE', `A command ability is a mapping (name, cost, timing, effect), not ${describeKind(item)}`, spanOf(item, this.base));
      return undefined;
    }
    const cm = readMap(item, this.problems, COMMAND_ABILITY_KEYS, 'on a command ability', this.base);
    const h = cm.list[0]?.keySpan ?? spanOf(item, this.base);
    const ge = (k: string) => cm.entries.get(k);
    const missing = COMMAND_ABILITY_KEYS.filter((k) => !ge(k));
    const ca: CommandAbility = {
      span: spanOf(item, this.base),
      name: this.str(ge('name'), h, 'a name'),
      cost: this.num(ge('cost'), h, 'a whole number of CP', signed),
      timing: this.str(ge('timing'), h, 'when it may be used'),
      effect: this.str(ge('effect'), h, 'what it does'),
    };
    if (missing.length)
      this.report(
        'FS-COMMAND-ABILITY-FIELD',
        `This command ability lacks ${missing.map((k) => `"${k}"`).join(', ')}; each has a name, a CP cost, a timing and an effect`,
        h,
      );
    return ca;
  }

  // ---------- fleet ----------

  fleetDoc(uri: string, text: string, top: YAMLNode | undefined): FleetDocument {
    const docSpan = firstLine(text);
    const empty: FleetDocument = {
      ...this.docHead('fleet', uri, text),
      name: this.absent(docSpan),
      faction: this.absent(docSpan),
      points: this.absent(docSpan),
    };
    const read = this.topLevel(top, docSpan, FLEET_KEYS, 'in a fleet list', 'This fleet list is empty: give name, faction, points and units');
    if (!read) return empty;
    const { at, g } = read;
    const doc: FleetDocument = {
      ...empty,
      name: this.required(this.str(g('name'), at, 'the fleet name'), g('name'), 'name', at, "the fleet's name"),
      faction: this.required(this.str(g('faction'), at, 'the faction name'), g('faction'), 'faction', at, 'the faction the fleet belongs to'),
      points: this.required(
        this.num(g('points'), at, 'the points limit as a whole number (500, 1000, 2000 or a custom figure)', signed),
        g('points'),
        'points',
        at,
        "the game's points limit (500, 1000 or 2000)",
      ),
    };
    if (g('objectives')) doc.objectives = this.num(g('objectives'), at, 'a whole number of objectives');
    const units = this.list(g('units'), false, 'fleet entries');
    if (!g('units')) this.report('FS-MISSING-FIELD', 'Missing "units": the cards this fleet fields', at);
    if (units) {
      doc.units = { ...units, items: [] };
      for (const item of units.items) {
        const entry = this.fleetEntry(item);
        if (entry) doc.units.items.push(entry);
      }
    }
    return doc;
  }

  // ---------- collection ----------

  collectionDoc(uri: string, text: string, top: YAMLNode | undefined): CollectionDocument {
    const docSpan = firstLine(text);
    const doc: CollectionDocument = this.docHead('collection', uri, text);
    const read = this.topLevel(top, docSpan, COLLECTION_KEYS, 'in a collection', 'This collection is empty: list the models you own under "owned"');
    if (!read) return doc;
    const { at, g } = read;
    const owned = this.list(g('owned'), false, 'owned models');
    if (!g('owned')) this.report('FS-MISSING-FIELD', 'Missing "owned": the models you own, by card name', at);
    if (owned) {
      doc.owned = { ...owned, items: [] };
      for (const item of owned.items) {
        const entry = this.ownedEntry(item);
        if (entry) doc.owned.items.push(entry);
      }
    }
    return doc;
  }

  /** An owned model: `{unit, count}` or a bare card name (one). */
  private ownedEntry(node: YAMLNode): OwnedEntry | undefined {
    const span = spanOf(node, this.base);
    if (isScalar(node)) {
      const raw = scalarText(node);
      return { span, unit: { value: raw.trim() || undefined, raw, span }, count: { value: 1, raw: '', span: { start: span.end, end: span.end } } };
    }
    if (node.kind !== Kind.MAP) {
      this.report('FS-TYPE', `An owned model is a mapping (unit, count) or a card name, not ${describeKind(node)}`, span);
      return undefined;
    }
    const m = readMap(node, this.problems, OWNED_ENTRY_KEYS, 'on an owned model', this.base);
    const head = m.list[0]?.keySpan ?? span;
    const g = (k: string) => m.entries.get(k);
    const unit = this.required(this.str(g('unit'), head, "a card's name"), g('unit'), 'unit', head, "the card's name");
    const count: Field<number> = g('count')
      ? this.num(g('count'), head, 'a whole number', signed)
      : { value: 1, raw: '', span: { start: head.end, end: head.end } };
    return { span, unit, count };
  }

  private fleetEntry(node: YAMLNode): FleetEntry | undefined {
    const span = spanOf(node, this.base);
    if (isScalar(node)) {
      const raw = scalarText(node);
      return { span, unit: { value: raw.trim() || undefined, raw, span }, count: { value: 1, raw: '', span: { start: span.end, end: span.end } } };
    }
    if (node.kind !== Kind.MAP) {
      this.report('FS-TYPE', `A fleet entry is a mapping (unit, count, embark) or a card name, not ${describeKind(node)}`, span);
      return undefined;
    }
    const m = readMap(node, this.problems, FLEET_ENTRY_KEYS, 'on a fleet entry', this.base);
    const head = m.list[0]?.keySpan ?? span;
    const g = (k: string) => m.entries.get(k);
    const unit = this.required(this.str(g('unit'), head, "a card's name"), g('unit'), 'unit', head, "the card's name");
    const count: Field<number> = g('count')
      ? this.num(g('count'), head, 'a whole number', signed)
      : { value: 1, raw: '', span: { start: head.end, end: head.end } };
    const entry: FleetEntry = { span, unit, count };
    const emb = this.list(g('embark'), true, 'card names');
    if (emb) {
      entry.embark = { ...emb, items: [] };
      for (const item of emb.items) {
        if (isScalar(item)) {
          const raw = scalarText(item);
          entry.embark.items.push({ value: raw.trim() || undefined, raw, span: spanOf(item, this.base) });
        } else if (item.kind === Kind.MAP) {
          const em = readMap(item, this.problems, ['unit'], 'on an embarked unit', this.base);
          const u = this.str(em.entries.get('unit'), spanOf(item, this.base), "a card's name");
          entry.embark.items.push(u);
        } else {
          this.report('FS-TYPE', `An embarked unit is a card name, not ${describeKind(item)}`, spanOf(item, this.base));
        }
      }
    }
    return entry;
  }
}

/** A weapon whose profile could not be read (reported where it is): every field empty, the text kept as its name's raw. */
function unreadableWeapon(span: Span, raw: string): Weapon {
  const empty = <T>(): Field<T> => ({ value: undefined, raw: '', span: { start: span.start, end: span.start } });
  return { form: 'line', span, name: { value: undefined, raw, span }, type: empty(), range: empty(), damage: empty(), attacks: empty() };
}

/**
 * A text field turned into a field of what its text names (a class, a weapon type), in place: the
 * same object with the same keys, so a card's hundred fields are not each copied once more.
 */
function readAs<T>(f: Field<string>, value: T | undefined): Field<T> {
  const out = f as unknown as Field<T>;
  out.value = value;
  return out;
}

function hasKey(node: YAMLNode, key: string): boolean {
  return ((node as { mappings?: { key?: YAMLScalar }[] }).mappings ?? []).some((m) => m.key && isScalar(m.key) && scalarText(m.key) === key);
}

function leading(s: string): number {
  return s.length - s.trimStart().length;
}

/** The first non-blank, non-comment line: where whole-file problems go. */
function firstLine(text: string): Span {
  const re = /^[ \t]*([^\s#][^\n]*)$/m;
  const m = re.exec(text);
  if (!m) return { start: 0, end: 0 };
  const start = m.index + m[0].length - m[1]!.length;
  return { start, end: start + m[1]!.replace(/\r$/, '').length };
}

function example(stat: StatName): string {
  switch (STATS[stat].form) {
    case 'sticks':
      return '9/6';
    case 'target':
      return '5+';
    case 'count':
      return '4';
    case 'targetDice':
      return '6/3';
  }
}

export { suggest };
