/**
 * The index of cards and fleets across files. Pure: callers (the server, the CLI) feed it text;
 * it never touches a file system. Documents are parsed once per text and cached.
 */
import type { DocKind, FabledDocument, FleetDocument, UnitCard } from './model/types';
import { parseDocument, kindOfUri } from './model/parse';
import { ChunkCache } from './model/chunks';

export interface CardRef {
  uri: string;
  card: UnitCard;
  /** The faction of the file the card is in. */
  faction: string;
}

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

export class Workspace {
  private docs = new Map<string, FabledDocument>();
  /** Per document: parsed cards by their text, so an edit re-parses only the card it touched. */
  private caches = new Map<string, ChunkCache>();
  /** faction (normalised) -> card name (normalised) -> every card of that name. */
  private cardIndex: Map<string, Map<string, CardRef[]>> | undefined;
  /** Bumped on every change, so that callers can cache derived data. */
  version = 0;

  /**
   * Adds or replaces a document; returns the parsed document (reused when the text is unchanged).
   * `kind` defaults to the one the file name says; an editor's untitled buffer has it from its language.
   */
  set(uri: string, text: string, kind: DocKind | undefined = kindOfUri(uri)): FabledDocument | undefined {
    const old = this.docs.get(uri);
    if (old && old.text === text && old.kind === kind) return old;
    if (!kind) return undefined;
    let cache = this.caches.get(uri);
    // A buffer whose language changed is read afresh: cards parsed as another kind are not reused.
    if (!cache || (old && old.kind !== kind)) this.caches.set(uri, (cache = new ChunkCache()));
    const doc = parseDocument(uri, text, kind, cache);
    if (!doc) return undefined;
    this.docs.set(uri, doc);
    this.changed(doc.kind !== 'fleet' || (old !== undefined && old.kind !== 'fleet'));
    return doc;
  }

  delete(uri: string): void {
    this.caches.delete(uri);
    const old = this.docs.get(uri);
    if (this.docs.delete(uri)) this.changed(old?.kind !== 'fleet');
  }

  get(uri: string): FabledDocument | undefined {
    return this.docs.get(uri);
  }

  uris(): string[] {
    return [...this.docs.keys()];
  }

  documents(): FabledDocument[] {
    return [...this.docs.values()];
  }

  fleets(): FleetDocument[] {
    return this.documents().filter((d): d is FleetDocument => d.kind === 'fleet');
  }

  /** `cards`: whether the change can touch the card index (fleets hold no cards, so a fleet edit keeps it). */
  private changed(cards = true): void {
    this.version++;
    if (cards) this.cardIndex = undefined;
  }

  private index(): Map<string, Map<string, CardRef[]>> {
    if (this.cardIndex) return this.cardIndex;
    const idx = new Map<string, Map<string, CardRef[]>>();
    for (const doc of this.docs.values()) {
      if (doc.kind === 'fleet') continue;
      const faction = doc.faction.value ?? '';
      for (const card of doc.units) {
        const name = card.name.value;
        if (!name) continue;
        let byName = idx.get(norm(faction));
        if (!byName) idx.set(norm(faction), (byName = new Map()));
        const list = byName.get(norm(name)) ?? [];
        list.push({ uri: doc.uri, card, faction });
        byName.set(norm(name), list);
      }
    }
    this.cardIndex = idx;
    return idx;
  }

  /** Every card, in document order. */
  allCards(): CardRef[] {
    const out: CardRef[] = [];
    for (const byName of this.index().values()) for (const list of byName.values()) for (const r of list) out.push(r);
    return out;
  }

  /** Which card a name means under a policy (see CardPolicy). Names and factions compare case-insensitively. */
  resolve(sel: CardSelector, policy: CardPolicy): CardResolution {
    if (!sel.name.trim()) return { ref: undefined, matches: [], candidates: [] };
    const candidates = this.findCards(sel.name);
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
    return out;
  }

  /** The factions that have at least one card. */
  factions(): string[] {
    const out: string[] = [];
    for (const byName of this.index().values()) {
      const first = byName.values().next().value;
      if (first && first[0]) out.push(first[0].faction);
    }
    return out;
  }

  /** Cards of a faction (the first card of each name). */
  cardsOf(faction: string): CardRef[] {
    const byName = this.index().get(norm(faction));
    return byName ? [...byName.values()].map((l) => l[0]!) : [];
  }
}
