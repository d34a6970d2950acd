/**
 * Card names across files: go to definition (fleet entry -> card), find references (card -> every
 * fleet entry and embarked unit naming it), and rename a card everywhere.
 */
import type { FabledDocument, Field, Span } from '../model/types';
import type { Workspace } from '../workspace';
import { isExampleUri } from '../examples/index';
import { cardsOf, hasControl, inStyleOf, RESULT_CAP, within } from './shared';

export interface Location {
  uri: string;
  span: Span;
}

/** A card name under the cursor: on a card's `name`, a fleet entry's `unit`, or an embarked unit. */
export interface NameAt {
  name: string;
  /** The faction the name belongs to (the card's, or the fleet's). */
  faction: string | undefined;
  span: Span;
  /** Whether the cursor is on the card's own name (its declaration). */
  declaration: boolean;
}

const norm = (s: string) => s.trim().toLowerCase();

export function nameAt(doc: FabledDocument, off: number): NameAt | undefined {
  if (doc.kind === 'fleet') {
    const faction = doc.faction.value;
    for (const e of doc.units?.items ?? []) {
      if (!within(e.span, off)) continue;
      if (e.unit.value && within(e.unit.span, off)) return { name: e.unit.value, faction, span: e.unit.span, declaration: false };
      for (const x of e.embark?.items ?? []) if (x.value && within(x.span, off)) return { name: x.value, faction, span: x.span, declaration: false };
    }
    return undefined;
  }
  for (const c of cardsOf(doc)) {
    if (c.name.value && within(c.name.span, off)) return { name: c.name.value, faction: c.faction.value, span: c.name.span, declaration: true };
  }
  return undefined;
}

/** The cards a name refers to: the faction's; when it has none of that name, any faction's. */
function targets(ws: Workspace, n: NameAt): Location[] {
  // A bundled example card (a fleet pasted from an example) is no file to go to or rename.
  return ws
    .resolve(n, 'ownFirst')
    .matches.filter((r) => !isExampleUri(r.uri))
    .map((r) => ({ uri: r.uri, span: r.nameSpan }));
}

export function definition(doc: FabledDocument, ws: Workspace, off: number): Location[] {
  const n = nameAt(doc, off);
  if (!n) return [];
  return targets(ws, n);
}

/** Every place naming the card at the cursor (declarations included when asked). */
export function references(doc: FabledDocument, ws: Workspace, off: number, includeDeclaration: boolean): Location[] {
  const n = nameAt(doc, off);
  if (!n) return [];
  return referencesOf(ws, n, includeDeclaration);
}

function referencesOf(ws: Workspace, n: NameAt, includeDeclaration: boolean): Location[] {
  const decls = targets(ws, n);
  // The faction the card really belongs to (a fleet may name another faction's card).
  const faction = ws.resolve(n, 'ownFirst').ref?.faction ?? n.faction;
  const out: Location[] = includeDeclaration ? [...decls] : [];
  const name = norm(n.name);
  for (const fleet of ws.fleets()) {
    const ff = fleet.faction.value;
    // A fleet's name resolves in its own faction first; only count it when it lands on this card.
    const resolvesHere = (f: Field<string>): boolean => {
      if (!f.value || norm(f.value) !== name) return false;
      if (faction === undefined || ff === undefined) return true;
      if (norm(ff) === norm(faction)) return true;
      return ws.card(f.value, ff, 'own') === undefined;
    };
    for (const e of fleet.units?.items ?? []) {
      if (resolvesHere(e.unit)) out.push({ uri: fleet.uri, span: e.unit.span });
      for (const x of e.embark?.items ?? []) if (resolvesHere(x)) out.push({ uri: fleet.uri, span: x.span });
      if (out.length >= RESULT_CAP) return out;
    }
  }
  return out;
}

/** The span to rename (the name without quotes), or undefined when the cursor is on no card name. */
export function prepareRename(doc: FabledDocument, ws: Workspace, off: number): { span: Span; placeholder: string } | undefined {
  const n = nameAt(doc, off);
  if (!n || targets(ws, n).length === 0) return undefined;
  const raw = doc.text.slice(n.span.start, n.span.end);
  const q = raw[0] === '"' || raw[0] === "'" ? 1 : 0;
  return { span: { start: n.span.start + q, end: n.span.end - q }, placeholder: n.name };
}

export interface RenameResult {
  edits: { uri: string; span: Span; newText: string }[];
  error?: string;
}

export function rename(doc: FabledDocument, ws: Workspace, off: number, newName: string, textOf: (uri: string) => string | undefined): RenameResult {
  const n = nameAt(doc, off);
  const clean = newName.trim();
  if (!n) return { edits: [], error: 'Put the cursor on a card name to rename it.' };
  if (!clean || hasControl(clean)) return { edits: [], error: 'A card name is one non-empty line, without control characters.' };
  const locs = referencesOf(ws, n, true);
  if (!locs.some((l) => targets(ws, n).some((t) => t.uri === l.uri && t.span.start === l.span.start)))
    return { edits: [], error: `No card named "${n.name}" to rename.` };
  const faction = ws.resolve(n, 'ownFirst').ref?.faction;
  if (faction !== undefined && norm(clean) !== norm(n.name) && ws.card(clean, faction, 'own'))
    return { edits: [], error: `${faction} already has a card named "${clean}".` };
  const edits = locs.map((l) => {
    const old = textOf(l.uri)?.slice(l.span.start, l.span.end) ?? '';
    return { uri: l.uri, span: l.span, newText: inStyleOf(old, clean) };
  });
  return { edits };
}
