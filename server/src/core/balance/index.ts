/**
 * The points estimate's public face: the bundled example cards as a field, the field of a
 * workspace (kept while the workspace's cards are unchanged), and the estimate of a card.
 */
import { detached, type Derivation, type Workspace } from '../workspace';
import { exampleWorkspace } from '../examples/index';
import { referenceField, referenceFieldOf, referenceFieldOfCapped, estimateCard } from './estimate';
import { standardCards, standardCardsAt, fieldMemberOf, evenPick, fieldOrder } from './field';
import { Estimates } from './state';
import { CLASS_NAMES, POINTS_ESTIMATE } from '../rules/data';
import type { UnitClass } from '../rules/data';
import type { CardLike, FieldMember, PointsEstimate, ReferenceField } from './field';
import type { FabledDocument, UnitCard } from '../model/types';
import { getMemo, memo, setMemo } from '../model/memo';

export { referenceField, estimateCard, unpricedOf } from './estimate';
export { standardCards, pricedMember } from './field';
export { clearEstimateMemo, Estimates } from './state';
export { fieldNeedsPrices, setFieldPrices } from './prices';
export type { CardLike, FieldMember, PointsEstimate, ReferenceField, LooRow, FieldSource } from './field';
export { Volleys, computeShare, offenseKey, defenseKey } from './volleys';

/** The bundled example cards, kept with the example workspace they are read from. */
const BUNDLED = memo<readonly CardLike[]>('bundled cards');

/** The bundled example cards (server/src/core/examples, shared with the engagement view's opponents). */
export function bundledCards(): readonly CardLike[] {
  const ws = exampleWorkspace();
  let cards = getMemo(ws, BUNDLED);
  if (!cards) setMemo(ws, BUNDLED, (cards = ws.allCards().map((r) => ({ card: r.card, faction: r.faction }))));
  return cards;
}

/**
 * A new points-estimate state (its fits and prices), its fallback field the bundled example cards;
 * `sharing`: a state whose content-keyed volley and approach memos it uses too.
 */
export function newEstimates(sharing?: Estimates): Estimates {
  return new Estimates(bundledCards, sharing);
}

/** A workspace's points-estimate state (its own fits and prices), kept with the workspace object. */
const ESTIMATES = memo<Estimates>('estimates');

/** The points-estimate state of a workspace: what its service owns (made on first use, by `make` when given). */
export function estimatesOf(ws: Workspace, make: () => Estimates = newEstimates): Estimates {
  let st = getMemo(ws, ESTIMATES);
  if (!st) setMemo(ws, ESTIMATES, (st = make()));
  return st;
}

/** The reference field for a set of cards (the bundled examples when too few cost their class's points), made by `st`. */
export function fieldFor(cards: readonly CardLike[], st: Estimates): ReferenceField {
  return referenceField(cards, st);
}

/** Each document's standard-cost cards, kept with the document object (a document's object changes with its text). */
const DOC_CANDIDATES = memo<FieldMember[]>('field candidates');

function candidatesOf(doc: FabledDocument): FieldMember[] {
  if (doc.kind === 'fleet' || doc.kind === 'collection') return [];
  let list = getMemo(doc, DOC_CANDIDATES);
  if (!list) {
    const faction = doc.faction.value ?? '';
    list = standardCards(doc.units.map((card) => ({ card, faction })));
    setMemo(doc, DOC_CANDIDATES, list);
  }
  return list;
}

/**
 * A standard-cost card as the field's bookkeeping holds it: what choosing the field needs, not its
 * profile (made again for the few the field picks). A workspace of 20,000 cards holds 20,000.
 */
interface Candidate {
  /** Faction and name (see FieldMember). */
  id: string;
  sortKey: string;
  class: UnitClass;
  uri: string;
  /** The card's place in its document's `units`. */
  at: number;
  faction: string;
}

/** Each document's candidates, kept by the workspace with the document's text (a closed file is not parsed again for them). */
const CANDIDATES: Derivation<Candidate[]> = {
  make: (doc) => {
    if (doc.kind === 'fleet' || doc.kind === 'collection') return [];
    const faction = doc.faction.value ?? '';
    return standardCardsAt(doc.units.map((card) => ({ card, faction }))).map(({ member, at }) => ({
      id: detached(member.id),
      sortKey: detached(member.sortKey),
      class: member.class,
      uri: doc.uri,
      at,
      faction,
    }));
  },
};

/**
 * Has the workspace find each document's field candidates as it reads it: the server calls this
 * before its first scan, so that the field never parses a closed file again to build itself.
 */
export function trackWorkspaceField(ws: Workspace): void {
  ws.deriveOnRead(CANDIDATES);
}

/** A document's standard-cost card, where its document stands in document order and it in the document. */
interface Entry {
  order: number;
  pos: number;
  member: Candidate;
}

function findSorted(list: readonly Candidate[], m: Candidate): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fieldOrder(list[mid]!, m) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A workspace's reference field kept up to date document by document. The field's candidates are
 * the standard-cost cards, one per faction and name: the first in document order (what a rebuild
 * walking `documents()` keeps). Kept: each name's cards in document order, and the candidates of
 * each class in the field's pick order, so a change costs the changed document's cards, not a walk
 * of every card.
 */
class FieldState {
  version = -1;
  /** The battle prices' version the field was made with (`pricesVersion`). */
  prices = -1;
  field: ReferenceField | undefined;
  private readonly perDoc = new Map<string, Entry[]>();
  /** Faction and name -> every document's card of that name, in document order (the first is the candidate). */
  private readonly byId = new Map<string, Entry[]>();
  /** Per class, its candidates in `fieldOrder`. */
  private readonly byClass = new Map<UnitClass, Candidate[]>(CLASS_NAMES.map((c) => [c, []]));
  /** The field members of the candidates last picked (made from their cards). */
  private members = new Map<Candidate, FieldMember>();

  /** Every document afresh (in document order). */
  build(ws: Workspace): void {
    for (const uri of ws.uris()) {
      const order = ws.orderOf(uri) ?? 0;
      const entries = (ws.derivedOf(uri, CANDIDATES) ?? []).map((member, pos) => ({ order, pos, member }));
      if (!entries.length) continue;
      this.perDoc.set(uri, entries);
      for (const e of entries) {
        const list = this.byId.get(e.member.id);
        if (list) list.push(e);
        else this.byId.set(e.member.id, [e]);
      }
    }
    for (const list of this.byId.values()) this.byClass.get(list[0]!.member.class)!.push(list[0]!.member);
    for (const list of this.byClass.values()) list.sort(fieldOrder);
  }

  /** Takes one document's current state (gone, a fleet, or its cards now). */
  update(ws: Workspace, uri: string): void {
    for (const e of this.perDoc.get(uri) ?? []) {
      const list = this.byId.get(e.member.id)!;
      const at = list.indexOf(e);
      list.splice(at, 1);
      if (at !== 0) continue;
      this.removeCandidate(e.member);
      if (list.length) this.addCandidate(list[0]!.member);
      else this.byId.delete(e.member.id);
    }
    this.perDoc.delete(uri);
    const order = ws.orderOf(uri);
    if (order === undefined) return;
    const entries = (ws.derivedOf(uri, CANDIDATES) ?? []).map((member, pos) => ({ order, pos, member }));
    if (!entries.length) return;
    this.perDoc.set(uri, entries);
    for (const e of entries) {
      let list = this.byId.get(e.member.id);
      if (!list) this.byId.set(e.member.id, (list = []));
      let at = list.length;
      while (at > 0 && list[at - 1]!.order > order) at--;
      list.splice(at, 0, e);
      if (at !== 0) continue;
      if (list.length > 1) this.removeCandidate(list[1]!.member);
      this.addCandidate(e.member);
    }
  }

  private addCandidate(m: Candidate): void {
    const list = this.byClass.get(m.class)!;
    list.splice(findSorted(list, m), 0, m);
  }

  private removeCandidate(m: Candidate): void {
    const list = this.byClass.get(m.class)!;
    let at = findSorted(list, m);
    while (at < list.length && list[at] !== m) at++;
    if (at < list.length) list.splice(at, 1);
  }

  /** The field of the candidates now, as `referenceFieldOf` would make it from them in document order. */
  makeField(ws: Workspace): ReferenceField {
    const available = this.byId.size;
    const max = POINTS_ESTIMATE.maxField;
    let picked: Candidate[];
    if (available <= max) {
      const firsts = [...this.byId.values()].map((l) => l[0]!);
      firsts.sort((a, b) => a.order - b.order || a.pos - b.pos);
      picked = firsts.map((e) => e.member);
    } else
      picked = evenPick(
        CLASS_NAMES.map((c) => this.byClass.get(c)!),
        max,
      );
    const members = new Map<Candidate, FieldMember>();
    for (const c of picked) {
      const m = this.members.get(c) ?? memberAt(ws, c);
      if (m) members.set(c, m);
    }
    this.members = members;
    return referenceFieldOfCapped([...members.values()], available, estimatesOf(ws), 'this workspace');
  }
}

/** A candidate's field member, from its card (a closed file's parsed again). */
function memberAt(ws: Workspace, c: Candidate): FieldMember | undefined {
  const doc = ws.get(c.uri);
  const card = doc && (doc.kind === 'unit' || doc.kind === 'faction') ? doc.units[c.at] : undefined;
  return card ? fieldMemberOf(card, c.faction) : undefined;
}

/** A workspace's field, kept with the workspace object. */
const FIELD = memo<FieldState>('reference field');

/**
 * The reference field of a workspace, kept while its cards are unchanged and then brought up to
 * date from the documents that changed only (a keystroke in one file of thousands reads that file).
 */
export function workspaceField(ws: Workspace): ReferenceField {
  trackWorkspaceField(ws);
  let st = getMemo(ws, FIELD);
  const prices = estimatesOf(ws).version;
  // Fleets hold no cards: a fleet edit keeps the field (it is read after every edit).
  if (st?.field && st.version === ws.cardsVersion && st.prices === prices) return st.field;
  const changes = st ? ws.cardChangesSince(st.version) : undefined;
  if (!st || !changes) {
    st = new FieldState();
    st.build(ws);
    setMemo(ws, FIELD, st);
  } else for (const uri of new Set(changes)) st.update(ws, uri);
  st.version = ws.cardsVersion;
  st.prices = prices;
  st.field = st.makeField(ws);
  return st.field;
}

/** The reference field of a workspace built afresh from every document (what `workspaceField` keeps up to date). */
export function workspaceFieldAfresh(ws: Workspace): ReferenceField {
  const candidates: FieldMember[] = [];
  const seen = new Set<string>();
  for (const doc of ws.documents()) {
    for (const m of candidatesOf(doc)) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      candidates.push(m);
    }
  }
  return referenceFieldOf(candidates, estimatesOf(ws), 'this workspace');
}

/** A card's estimate against its workspace's field. */
export function estimateInWorkspace(card: UnitCard, faction: string, ws: Workspace): PointsEstimate {
  return estimateCard(card, faction, workspaceField(ws));
}
