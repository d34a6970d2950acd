/** Document symbols (the outline) and workspace symbols (cards across files). */
import type { FabledDocument, Span } from '../model/types';
import type { Workspace } from '../workspace';
import { fleetSummary, pointsLabel } from './fleetSummary';
import { RESULT_CAP } from './shared';

export type SymbolKindName =
  'card' | 'weapon' | 'order' | 'ability' | 'stats' | 'fleet' | 'entry' | 'embarked' | 'faction' | 'commandAbility' | 'factionAbility';

export interface DocSymbol {
  name: string;
  detail?: string;
  kind: SymbolKindName;
  /** The whole thing. */
  span: Span;
  /** Its name (inside `span`). */
  selectionSpan: Span;
  children: DocSymbol[];
}

function sym(name: string | undefined, kind: SymbolKindName, span: Span, sel: Span | undefined, detail?: string): DocSymbol {
  // LSP needs the selection inside the range and a non-empty name.
  const selectionSpan = sel && sel.start >= span.start && sel.end <= span.end ? sel : { start: span.start, end: span.start };
  return { name: name && name.trim() ? name : '(unnamed)', kind, span, selectionSpan, detail, children: [] };
}

export function documentSymbols(doc: FabledDocument, ws: Workspace): DocSymbol[] {
  let count = 0;
  const take = () => ++count <= RESULT_CAP;
  const out: DocSymbol[] = [];
  if (doc.kind === 'collection') {
    const root = sym('Collection', 'fleet', { start: 0, end: doc.text.length }, undefined, 'models owned');
    for (const e of doc.owned?.items ?? []) if (take()) root.children.push(sym(e.unit.value, 'entry', e.span, e.unit.span, `× ${e.count.value ?? '?'}`));
    return [root];
  }
  if (doc.kind === 'fleet') {
    const s = fleetSummary(doc, ws);
    const fleetSpan = { start: 0, end: doc.text.length };
    const root = sym(doc.name.value ?? 'Fleet', 'fleet', fleetSpan, doc.name.span, `${doc.faction.value ?? ''} · ${pointsLabel(s)}`);
    (doc.units?.items ?? []).forEach((e, i) => {
      if (!take()) return;
      const es = s.entries[i];
      const entry = sym(
        e.unit.value,
        'entry',
        e.span,
        e.unit.span,
        es ? `× ${es.count}${es.points !== undefined ? ` · ${es.points * es.count} pts` : ''}` : undefined,
      );
      for (const x of e.embark?.items ?? []) if (take()) entry.children.push(sym(x.value, 'embarked', x.span, x.span, 'embarked'));
      root.children.push(entry);
    });
    out.push(root);
    return out;
  }
  if (doc.kind === 'faction') {
    if (doc.factionAbility)
      out.push(
        sym(
          doc.factionAbility.name.value,
          'factionAbility',
          { start: doc.factionAbility.keySpan.start, end: doc.factionAbility.span.end },
          doc.factionAbility.name.span,
          'faction ability',
        ),
      );
    for (const ca of doc.commandAbilities?.items ?? [])
      if (take()) out.push(sym(ca.name.value, 'commandAbility', ca.span, ca.name.span, ca.cost.value !== undefined ? `${ca.cost.value} CP` : undefined));
  }
  for (const card of doc.units) {
    if (!take()) break;
    const c = sym(card.name.value, 'card', card.span, card.name.span, `${card.class.value ?? card.class.raw} · ${card.points.value ?? '?'} pts`);
    if (card.stats) c.children.push(sym('stats', 'stats', card.stats.span, card.stats.keySpan));
    for (const w of card.weapons?.items ?? []) if (take()) c.children.push(sym(w.name.value, 'weapon', w.span, w.name.span, w.type.value));
    for (const o of card.orders?.items ?? []) if (take()) c.children.push(sym(o.name.value, 'order', o.span, o.name.span, 'order'));
    for (const a of card.abilities?.items ?? []) if (take()) c.children.push(sym(a.name.value, 'ability', a.span, a.name.span, 'ability'));
    out.push(c);
  }
  return out;
}

export interface WsSymbol {
  name: string;
  container: string;
  uri: string;
  span: Span;
}

/** Cards whose name contains the query's characters in order (what editors expect of symbol search). */
export function workspaceSymbols(ws: Workspace, query: string): WsSymbol[] {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const out: WsSymbol[] = [];
  for (const r of ws.allCards()) {
    const name = r.name;
    if (!name) continue;
    if (q && !subsequence(q, name.toLowerCase())) continue;
    out.push({ name, container: r.faction, uri: r.uri, span: r.nameSpan });
    if (out.length >= RESULT_CAP) break;
  }
  return out;
}

function subsequence(q: string, s: string): boolean {
  let i = 0;
  for (const c of s) if (c === q[i]) i++;
  return i === q.length;
}
