/**
 * The index of cards and fleets across files. Pure: callers (the server, the CLI) feed it text;
 * it never touches a file system. Documents are parsed once per text and kept, except closed unit
 * files, which are kept as their text and a summary of their cards and parsed again on demand.
 */
import type { CollectionDocument, DocKind, FabledDocument, FleetDocument, FactionDocument, Span, UnitCard } from './model/types';
import type { UnitClass } from './rules/data';
import { parseDocument, kindOfUri } from './model/parse';
import { ChunkCache } from './model/chunks';

/**
 * A copy of a string that shares no memory with the text it was cut from. V8 keeps a substring as
 * a slice of its parent (and a joined string as its parts), so a card's name kept past its model
 * would keep a copy of the whole card's text alive: 20,000 closed files' worth.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** A reference to a card held in memory (an open document's, a fleet's, a CLI run's). */
export function cardRef(uri: string, card: UnitCard, faction: string): CardRef {
  return new HeldRef(uri, faction, card);
}

/**
 * A card in the index. What lists of thousands of cards read (name, class, points, where) is kept
 * on the reference itself, copied out of the card so that it outlives a dropped model; `card`, the
 * whole parsed card, may parse its file again (a closed card file is kept as its text, see
 * `Workspace.set`), so loops over every card read the summary.
 */
export abstract class CardRef {
  abstract readonly uri: string;
  /** The whole card (for a closed file: parsed again when no longer in memory). */
  abstract readonly card: UnitCard;
  /** `card.name.value` ('' for an unnamed card, which the index does not hold). */
  readonly name: string;
  /** `card.class.value`, and the class as written. */
  readonly cls: UnitClass | undefined;
  readonly classRaw: string;
  /** `card.points.value`. */
  readonly points: number | undefined;
  /** `card.name.span` and `card.span`. */
  readonly nameSpan: Span;
  readonly span: Span;
  constructor(
    /** The faction of the file the card is in. */
    readonly faction: string,
    card: UnitCard,
  ) {
    this.name = detached(card.name.value ?? '');
    this.cls = card.class.value;
    this.classRaw = detached(card.class.raw);
    this.points = card.points.value;
    this.nameSpan = card.name.span;
    this.span = card.span;
  }
}

class HeldRef extends CardRef {
  constructor(
    readonly uri: string,
    faction: string,
    readonly card: UnitCard,
  ) {
    super(faction, card);
  }
}

/** A closed file's card: the summary kept, the card parsed again from the file's text when asked for. */
class LeanRef extends CardRef {
  constructor(
    private readonly lean: LeanDoc,
    /** The card's place in its document's `units`. */
    private readonly at: number,
    faction: string,
    card: UnitCard,
  ) {
    super(faction, card);
  }
  get uri(): string {
    return this.lean.uri;
  }
  get card(): UnitCard {
    // The same text parses to the same cards, so the place is the card's place again.
    return (this.lean.doc(true) as { units: UnitCard[] }).units[this.at]!;
  }
}

/**
 * Closed files' models in use: the most recent cards asked for (a fleet's few cards are asked for
 * again at every keystroke, so they are not parsed again each time), and every model handed out
 * during the current synchronous task (so that within one check or one request a closed file's
 * cards are the same objects each time they are asked for, and compare by identity as an open
 * document's do). The latter are let go of when the task ends; a WeakRef would keep them until the
 * next full collection, since V8's young-generation collector does not clear WeakRefs: thousands
 * of models read once (the checks after a scan) would all move to the old generation as garbage.
 */
class RecentDocs {
  private readonly held = new Map<LeanDoc, FabledDocument>();
  private task: Map<LeanDoc, FabledDocument> | undefined;
  constructor(private readonly max: number) {}
  get(lean: LeanDoc): FabledDocument | undefined {
    return this.task?.get(lean) ?? this.held.get(lean);
  }
  /** Held until the current synchronous task ends. */
  inTask(lean: LeanDoc, doc: FabledDocument): void {
    if (!this.task) {
      this.task = new Map();
      queueMicrotask(() => (this.task = undefined));
    }
    this.task.set(lean, doc);
  }
  /** Held among the most recent. */
  touch(lean: LeanDoc, doc: FabledDocument): void {
    this.held.delete(lean);
    this.held.set(lean, doc);
    if (this.held.size > this.max) this.held.delete(this.held.keys().next().value!);
  }
  forget(lean: LeanDoc): void {
    this.held.delete(lean);
    this.task?.delete(lean);
  }
}

/**
 * A card file read from disk and not open: kept as its text (a parsed card file is about ten
 * times the size of its text, and a workspace can hold 20,000 of them), parsed again when asked
 * for (see RecentDocs for how long a model is kept). Why by hand: this is a cache of our own
 * model, keyed by our own documents; no library knows when a model may be dropped.
 */
class LeanDoc {
  constructor(
    readonly uri: string,
    readonly text: string,
    readonly kind: DocKind,
    private readonly recent: RecentDocs,
  ) {}
  /**
   * The model. `keep`: hold it among the recent ones (a card asked for by a fleet is asked for again
   * at the next keystroke); a whole document read once (a closed file's check) is not held past the
   * current task, so that reading thousands leaves no long-lived garbage behind.
   */
  doc(keep = false): FabledDocument {
    let doc = this.recent.get(this);
    if (!doc) {
      // Parsed before, so parsed again (deterministic); an empty document only if the impossible happens.
      doc = parseDocument(this.uri, this.text, this.kind, new ChunkCache(false)) ?? emptyDocument(this.uri, this.text);
    }
    this.recent.inTask(this, doc);
    if (keep) this.recent.touch(this, doc);
    return doc;
  }
  /** Lets go of the parsed model: the next `doc()` parses the text again. */
  drop(): void {
    this.recent.forget(this);
  }
}

function emptyDocument(uri: string, text: string): FabledDocument {
  const none = { value: undefined, raw: '', span: { start: 0, end: 0 } };
  return { kind: 'unit', uri, text, problems: [], faction: none, units: [] };
}

/**
 * A value derived from a document's model, kept per document while its text is unchanged (see
 * `Workspace.derived`). The object is the key: make one per kind of value.
 */
export interface Derivation<T> {
  readonly make: (doc: FabledDocument) => T;
}

/** Closed card files parsed again and held, at most (a fleet names a few dozen). */
const RECENT_DOCS = 256;

function norm(s: string): string {
  return s.trim().toLowerCase();
}

/**
 * How a card name resolves when factions share names. Every lookup by name goes through
 * `Workspace.resolve` with one of these:
 * - `own`: the faction's card only; without a faction, any faction's. A fleet's entries and embarked
 *   units: another faction's card is not the fleet's (FS-UNIT-FACTION says so), so it has no points.
 * - `ownFirst`: the faction's card, else any faction's. Navigation, hovers, completion, a request
 *   that names a card.
 * - `opponent`: a card of another faction than the given one, else any faction's. The reference
 *   target a card's weapons are measured against.
 * - `unique`: the faction's (when given), else any faction's, but only when a single faction has
 *   the name. The CLI's --attacker and --defender, where a guess would mislead.
 */
export type CardPolicy = 'own' | 'ownFirst' | 'opponent' | 'unique';

/** A card named by the user: its name, and the faction it is named from (a fleet's, a card's) or for. */
export interface CardSelector {
  name: string;
  faction?: string;
}

export interface CardResolution {
  /** The card meant, when the name resolves under the policy: the first of `matches`. */
  ref: CardRef | undefined;
  /** Every card the policy accepts, in document order (more than one: duplicates, or factions sharing the name). */
  matches: CardRef[];
  /** Every card of that name in any faction (for messages: "several factions have it", "did you mean"). */
  candidates: CardRef[];
}

/** Files up to this size read with no edits expected keep no parse cache (a card file is a few kilobytes). */
export const UNEDITED_CACHE_CHARS = 64 * 1024;

/** How many card changes the workspace remembers for `cardChangesSince`. */
const CARD_LOG_MAX = 1024;

export class Workspace {
  /** Each document: its model, or (a closed card file) its text, parsed on demand. */
  private docs = new Map<string, FabledDocument | LeanDoc>();
  private readonly recent = new RecentDocs(RECENT_DOCS);
  /** The fleet documents' URIs (a few hundred among thousands of card files). */
  private readonly fleetUris = new Set<string>();
  /** Per document: parsed cards by their text, so an edit re-parses only the card it touched. */
  private caches = new Map<string, ChunkCache>();
  /**
   * faction (normalised) -> card name (normalised) -> every card of that name, in document order.
   * Kept up to date document by document: a change replaces only that document's cards.
   */
  private readonly cardIndex = new Map<string, Map<string, CardRef[]>>();
  /** The faction each card or faction file names (cards or not: a new file's faction is one to offer). */
  private readonly fileFaction = new Map<string, string>();
  /** The cards each document put in the index, in the document's order. */
  private readonly contributed = new Map<string, CardRef[]>();
  /** The index keys (faction, name) each document's cards were put under. */
  private readonly contributedKeys = new Map<string, [string, string][]>();
  /** Each document's place in document order (the order documents were first added). */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  /** Each indexed card's place in its document. */
  private readonly place = new WeakMap<CardRef, number>();
  /** Each document's kind (asked for every document in turn: without parsing a closed file again). */
  private kinds = new Map<string, DocKind>();
  /** Derived values per document entry (a model, or a closed file's text): see `derivedOf`. */
  private readonly memos = new WeakMap<object, Map<Derivation<unknown>, unknown>>();
  /** Derivations made as each document is read (see `deriveOnRead`). */
  private readonly eager: Derivation<unknown>[] = [];
  /** Derived lists, dropped whenever a card document changes. */
  private derived: { factions?: string[]; cardsOf: Map<string, CardRef[]> } = { cardsOf: new Map() };
  /**
   * Cards to fall back on (the server's: the bundled example factions'), for a faction this
   * workspace has no card of: a fleet list pasted from an example resolves in an empty folder.
   * Only name lookups see them (`resolve`, `card`, `hasCards`, `cardsOf`, `factions`); `allCards`
   * and `findCards` stay this workspace's own, so they never count in its duplicates, symbols or
   * points field. Read lazily: the examples are parsed on first need.
   */
  fallback: (() => Workspace) | undefined;
  /** Bumped on every change, so that callers can cache derived data. */
  version = 0;
  /** Bumped on every change that can touch a card (not on a fleet edit), for data derived from cards only. */
  cardsVersion = 0;
  /**
   * The URI of each change that bumped `cardsVersion`, the last ones only: entry i made version
   * `cardLogBase + i + 1`. Lets data derived from cards catch up document by document.
   */
  private cardLog: string[] = [];
  private cardLogBase = 0;

  /**
   * Adds or replaces a document; returns the parsed document (reused when the text is unchanged).
   * `kind` defaults to the one the file name says; an editor's untitled buffer has it from its language.
   * `edits`: whether the text is likely to be edited next (an open document) or not (a file read
   * from disk), which decides whether its parse cache is kept, and whether a unit file is kept as
   * its model or (small and not edited: the thousands of a big workspace) as its text (see LeanDoc).
   */
  set(uri: string, text: string, kind: DocKind | undefined = kindOfUri(uri), edits: 'expected' | 'unlikely' = 'expected'): FabledDocument | undefined {
    const old = this.docs.get(uri);
    const lean = edits === 'unlikely' && text.length <= UNEDITED_CACHE_CHARS;
    if (old && old.text === text && old.kind === kind) {
      if (old instanceof LeanDoc) return old.doc();
      // A file closed with the text it has on disk: kept as text from now on, the same cards.
      if (lean && old.kind === 'unit') this.keepLean(uri, old);
      return old;
    }
    if (!kind) return undefined;
    let cache = this.caches.get(uri);
    // A buffer whose language changed is read afresh: cards parsed as another kind are not reused.
    if (!cache || (old && old.kind !== kind)) cache = new ChunkCache();
    // A small file nobody edits (a closed workspace file) keeps no cache: the first edit, if any,
    // parses its few cards again. Thousands of such files would hold thousands of caches.
    if (edits === 'unlikely' && text.length <= UNEDITED_CACHE_CHARS) this.caches.delete(uri);
    else this.caches.set(uri, cache);
    // A closed unit file's model is dropped at once (see LeanDoc): nothing of its parse is kept.
    const doc = parseDocument(uri, text, kind, lean && kind === 'unit' ? new ChunkCache(false) : cache);
    if (!doc) return undefined;
    if (!this.order.has(uri)) this.order.set(uri, this.nextOrder++);
    // A closed unit file (the thousands of a big workspace) is kept as its text; faction files,
    // fleets and open documents as their models.
    if (old instanceof LeanDoc) this.recent.forget(old);
    const entry = lean && doc.kind === 'unit' ? new LeanDoc(uri, text, doc.kind, this.recent) : doc;
    this.docs.set(uri, entry);
    if (entry instanceof LeanDoc) this.prime(entry, doc);
    this.kinds.set(uri, doc.kind);
    if (doc.kind === 'fleet') this.fleetUris.add(uri);
    else this.fleetUris.delete(uri);
    const cards = doc.kind !== 'fleet' || (old !== undefined && old.kind !== 'fleet');
    if (cards) this.reindex(uri, doc);
    this.changed(cards, uri);
    return doc;
  }

  /** Keeps an unchanged document as its text from now on; its cards (and their identity while held) stay. */
  private keepLean(uri: string, doc: FabledDocument): void {
    this.caches.delete(uri);
    const lean = new LeanDoc(uri, doc.text, doc.kind, this.recent);
    this.docs.set(uri, lean);
    const memo = this.memos.get(doc);
    if (memo) this.memos.set(lean, memo);
    this.prime(lean, doc);
    this.reindex(uri, doc);
  }

  /** Makes the eager derivations of a closed file while its model is at hand. */
  private prime(entry: LeanDoc, doc: FabledDocument): void {
    if (!this.eager.length) return;
    let memo = this.memos.get(entry);
    if (!memo) this.memos.set(entry, (memo = new Map()));
    for (const d of this.eager) if (!memo.has(d)) memo.set(d, d.make(doc));
  }

  /**
   * `d.make(doc)` for a document, kept while its text is unchanged. A closed card file's value
   * outlives its model: it is not parsed again for it (made as it is read, with `deriveOnRead`).
   */
  derivedOf<T>(uri: string, d: Derivation<T>): T | undefined {
    const entry = this.docs.get(uri);
    if (!entry) return undefined;
    let memo = this.memos.get(entry);
    if (memo?.has(d)) return memo.get(d) as T;
    const value = d.make(entry instanceof LeanDoc ? entry.doc() : entry);
    if (!memo) this.memos.set(entry, (memo = new Map()));
    memo.set(d, value);
    return value;
  }

  /**
   * Lets go of every closed file's parsed model now (the next use parses its text again). For
   * tests, and for a caller short of memory; models still held elsewhere live on there.
   */
  dropParsed(): void {
    for (const entry of this.docs.values()) if (entry instanceof LeanDoc) entry.drop();
  }

  /** From now on, `d` is made as each closed file is read (while its model is at hand). */
  deriveOnRead(d: Derivation<unknown>): void {
    if (!this.eager.includes(d)) this.eager.push(d);
  }

  delete(uri: string): void {
    this.caches.delete(uri);
    const entry = this.docs.get(uri);
    if (entry instanceof LeanDoc) this.recent.forget(entry);
    const old = entry;
    this.kinds.delete(uri);
    if (this.docs.delete(uri)) {
      this.fleetUris.delete(uri);
      if (old?.kind !== 'fleet') this.reindex(uri, undefined);
      this.order.delete(uri);
      this.changed(old?.kind !== 'fleet', uri);
    }
  }

  /**
   * Gives documents not here yet their places in document order now, in the order given, so that
   * they take those places whatever order they are then added in (a scan indexes the files an open
   * fleet names first; which of two same-named cards comes first must not depend on that). Call
   * `settleOrder` once they are in.
   */
  reserveOrder(uris: Iterable<string>): void {
    for (const uri of uris) if (!this.order.has(uri)) this.order.set(uri, this.nextOrder++);
  }

  /**
   * After `reserveOrder`: forgets the places of documents that never came, and lists the documents
   * (`uris`, `documents`, `allCards`, ...) in document order again.
   */
  settleOrder(): void {
    for (const uri of this.order.keys()) if (!this.docs.has(uri)) this.order.delete(uri);
    const at = (uri: string) => this.order.get(uri) ?? 0;
    let last = -1;
    let sorted = true;
    for (const uri of this.docs.keys()) {
      if (at(uri) < last) sorted = false;
      last = at(uri);
    }
    if (sorted) return;
    this.docs = new Map([...this.docs].sort((a, b) => at(a[0]) - at(b[0])));
    this.kinds = new Map([...this.kinds].sort((a, b) => at(a[0]) - at(b[0])));
  }

  /** A document's model (a closed card file's is parsed again when no longer in memory: see `kindOf`, `textOf`). */
  get(uri: string): FabledDocument | undefined {
    const entry = this.docs.get(uri);
    return entry instanceof LeanDoc ? entry.doc() : entry;
  }

  /** The (faction, card name) keys, normalised, under which a document's cards are indexed: without its model. */
  cardKeys(uri: string): readonly (readonly [string, string])[] {
    return this.contributedKeys.get(uri) ?? [];
  }

  /** A document's kind, without its model. */
  kindOf(uri: string): DocKind | undefined {
    return this.kinds.get(uri);
  }

  /** A document's text, without its model. */
  textOf(uri: string): string | undefined {
    return this.docs.get(uri)?.text;
  }

  uris(): string[] {
    return [...this.docs.keys()];
  }

  /** Every document's model, in document order: parses every closed card file again. */
  documents(): FabledDocument[] {
    return [...this.docs.keys()].map((u) => this.get(u)!);
  }

  /** The Command Boards (faction files), in document order, without parsing the unit files again. */
  factionDocuments(): FactionDocument[] {
    const out: FactionDocument[] = [];
    for (const [uri, kind] of this.kinds) if (kind === 'faction') out.push(this.get(uri) as FactionDocument);
    return out;
  }

  /** The fleets, in document order (without walking the card files). */
  fleets(): FleetDocument[] {
    const out: FleetDocument[] = [];
    for (const uri of this.fleetUris) {
      const d = this.docs.get(uri);
      if (d && !(d instanceof LeanDoc) && d.kind === 'fleet') out.push(d);
    }
    return out.sort((a, b) => (this.order.get(a.uri) ?? 0) - (this.order.get(b.uri) ?? 0));
  }

  /**
   * The collections (FORMATS.md: at most one per workspace is read, the first by path), sorted by
   * path: the first is the one in use, any other is reported.
   */
  collections(): CollectionDocument[] {
    const out: CollectionDocument[] = [];
    for (const [uri, kind] of this.kinds) if (kind === 'collection') out.push(this.get(uri) as CollectionDocument);
    const rank = (d: CollectionDocument) => (d.uri === this.chosenCollection ? 0 : 1);
    return out.sort((a, b) => rank(a) - rank(b) || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** The collection the user named (`check --collection FILE`): the one in use whatever the others' paths. */
  chosenCollection: string | undefined;

  /**
   * The URIs of the documents whose changes made `cardsVersion` move on from `since` (repeats
   * possible), or undefined when that is too long ago to say (then derive afresh).
   */
  cardChangesSince(since: number): readonly string[] | undefined {
    if (since < this.cardLogBase || since > this.cardsVersion) return undefined;
    return this.cardLog.slice(since - this.cardLogBase);
  }

  /** Position of a document in document order (the order of `documents()`); undefined: not here. */
  orderOf(uri: string): number | undefined {
    return this.docs.has(uri) ? this.order.get(uri) : undefined;
  }

  /** `cards`: whether the change can touch the card index (fleets hold no cards, so a fleet edit keeps it). */
  private changed(cards: boolean, uri: string): void {
    this.version++;
    if (cards) {
      this.cardsVersion++;
      this.cardLog.push(uri);
      // A first scan adds thousands of files: whoever is that far behind derives afresh anyway.
      if (this.cardLog.length > CARD_LOG_MAX) {
        const drop = this.cardLog.length - CARD_LOG_MAX / 2;
        this.cardLog = this.cardLog.slice(drop);
        this.cardLogBase += drop;
      }
      this.derived = { cardsOf: new Map() };
    }
  }

  /** Whether card `a` comes before card `b` in document order. */
  private before(a: CardRef, b: CardRef): boolean {
    const oa = this.order.get(a.uri) ?? 0;
    const ob = this.order.get(b.uri) ?? 0;
    return oa !== ob ? oa < ob : (this.place.get(a) ?? 0) < (this.place.get(b) ?? 0);
  }

  /** Replaces one document's cards in the index (none: the document is gone or holds no cards). */
  private reindex(uri: string, doc: FabledDocument | undefined): void {
    // By the keys the cards were indexed under (card objects are shared with caches and may change).
    for (const [fk, nk] of this.contributedKeys.get(uri) ?? []) {
      const byName = this.cardIndex.get(fk);
      const list = byName?.get(nk);
      if (!byName || !list) continue;
      const rest = list.filter((r) => r.uri !== uri);
      if (rest.length) byName.set(nk, rest);
      else byName.delete(nk);
      if (!byName.size) this.cardIndex.delete(fk);
    }
    this.contributed.delete(uri);
    this.contributedKeys.delete(uri);
    this.fileFaction.delete(uri);
    if (!doc || doc.kind === 'fleet' || doc.kind === 'collection') return;
    // Kept past the model: copies, not slices of its text (see `detached`).
    const faction = detached(doc.faction.value ?? '');
    if (faction.trim()) this.fileFaction.set(uri, faction.trim());
    const fk = detached(norm(faction));
    const refs: CardRef[] = [];
    const keys: [string, string][] = [];
    const entry = this.docs.get(uri);
    doc.units.forEach((card, i) => {
      const name = card.name.value;
      if (!name) return;
      const ref: CardRef = entry instanceof LeanDoc ? new LeanRef(entry, i, faction, card) : new HeldRef(uri, faction, card);
      this.place.set(ref, i);
      refs.push(ref);
      let byName = this.cardIndex.get(fk);
      if (!byName) this.cardIndex.set(fk, (byName = new Map()));
      const nk = detached(norm(name));
      keys.push([fk, nk]);
      const list = byName.get(nk);
      if (!list) return void byName.set(nk, [ref]);
      // Usually one card per name: find the place from the end.
      let at = list.length;
      while (at > 0 && this.before(ref, list[at - 1]!)) at--;
      list.splice(at, 0, ref);
    });
    if (refs.length) {
      // Copies of exactly their length: a pushed-to array keeps room for 16, and there are two per file.
      this.contributed.set(uri, refs.slice());
      this.contributedKeys.set(uri, keys.slice());
    }
  }

  private index(): Map<string, Map<string, CardRef[]>> {
    return this.cardIndex;
  }

  /** Every card, in document order. */
  allCards(): CardRef[] {
    const out: CardRef[] = [];
    for (const uri of this.docs.keys()) for (const r of this.contributed.get(uri) ?? []) out.push(r);
    return out;
  }

  /** Which card a name means under a policy (see CardPolicy). Names and factions compare case-insensitively. */
  resolve(sel: CardSelector, policy: CardPolicy): CardResolution {
    if (!sel.name.trim()) return { ref: undefined, matches: [], candidates: [] };
    const candidates = this.findCards(sel.name);
    // A faction of which this workspace has no card (or, without a faction, a name it has nowhere): the fallback's.
    if (this.fallback && (sel.faction !== undefined ? !this.hasOwnCards(sel.faction) : candidates.length === 0)) {
      const other = this.fallback().resolve(sel, policy);
      if (other.candidates.length) return other;
    }
    const faction = sel.faction !== undefined ? norm(sel.faction) : undefined;
    const own = faction !== undefined ? candidates.filter((r) => norm(r.faction) === faction) : candidates;
    let matches: CardRef[];
    switch (policy) {
      case 'own':
        matches = own;
        break;
      case 'ownFirst':
        matches = own.length ? own : candidates;
        break;
      case 'opponent': {
        const others = faction !== undefined ? candidates.filter((r) => norm(r.faction) !== faction) : candidates;
        matches = others.length ? others : candidates;
        break;
      }
      case 'unique':
        matches = new Set(own.map((r) => norm(r.faction))).size === 1 ? own : [];
        break;
    }
    return { ref: matches[0], matches, candidates };
  }

  /** The card a name means under a policy; undefined for no name. */
  card(name: string | undefined, faction: string | undefined, policy: CardPolicy): CardRef | undefined {
    return name ? this.resolve({ name, ...(faction !== undefined ? { faction } : {}) }, policy).ref : undefined;
  }

  /**
   * The index itself: cards of that name (case-insensitive), in the given faction or, without one,
   * in any faction. To resolve a name, use `resolve`.
   */
  findCards(name: string, faction?: string): CardRef[] {
    const idx = this.index();
    if (faction !== undefined) return idx.get(norm(faction))?.get(norm(name)) ?? [];
    const out: CardRef[] = [];
    for (const byName of idx.values()) for (const r of byName.get(norm(name)) ?? []) out.push(r);
    // Cards of several factions: in document order, whichever faction the index met first.
    return out.length > 1 ? this.sorted(out) : out;
  }

  /**
   * Whether the faction (any faction, without one) has a named card: `cardsOf(faction).length > 0`
   * without listing them (a fleet's checks ask it on every keystroke).
   */
  hasCards(faction?: string): boolean {
    return this.hasOwnCards(faction) || (this.fallback?.().hasCards(faction) ?? false);
  }

  /** `hasCards` without the fallback: whether this workspace itself has a card (of the faction). */
  hasOwnCards(faction?: string): boolean {
    return faction === undefined ? this.cardIndex.size > 0 : (this.cardIndex.get(norm(faction))?.size ?? 0) > 0;
  }

  /** The factions the card and faction files name (with cards or not; but `except`), each once, in document order; this workspace's own. */
  fileFactions(except?: string): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    const uris = [...this.fileFaction.keys()].filter((u) => u !== except).sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
    for (const u of uris) {
      const f = this.fileFaction.get(u)!;
      if (!seen.has(norm(f))) {
        seen.add(norm(f));
        out.push(f);
      }
    }
    return out;
  }

  /** The factions that have at least one card, in the order their first cards come. */
  factions(): string[] {
    if (this.derived.factions) return this.derived.factions;
    const firsts: CardRef[] = [];
    for (const byName of this.index().values()) {
      let first: CardRef | undefined;
      for (const list of byName.values()) if (list[0] && (!first || this.before(list[0], first))) first = list[0];
      if (first) firsts.push(first);
    }
    const own = this.sorted(firsts).map((r) => r.faction);
    const more = (this.fallback?.().factions() ?? []).filter((f) => !own.some((o) => norm(o) === norm(f)));
    return (this.derived.factions = [...own, ...more]);
  }

  /** Cards of a faction (the first card of each name), in document order. */
  cardsOf(faction: string): CardRef[] {
    if (this.fallback && !this.hasOwnCards(faction)) return this.fallback().cardsOf(faction);
    const key = norm(faction);
    let out = this.derived.cardsOf.get(key);
    if (!out) {
      const byName = this.index().get(key);
      out = byName ? this.sorted([...byName.values()].map((l) => l[0]!)) : [];
      this.derived.cardsOf.set(key, out);
    }
    return out.slice();
  }

  private sorted(refs: CardRef[]): CardRef[] {
    if (refs.length < 64) return refs.sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
    // Many cards (a faction of thousands, after each card edit): each one's place looked up once.
    const keyed = refs.map((r) => ({ r, doc: this.order.get(r.uri) ?? 0, at: this.place.get(r) ?? 0 }));
    keyed.sort((a, b) => a.doc - b.doc || a.at - b.at);
    for (let i = 0; i < refs.length; i++) refs[i] = keyed[i]!.r;
    return refs;
  }
}
