/**
 * The core's answers (offsets, plain data) -> LSP types (positions, kinds). The only place that
 * maps between the two; every function is pure over a TextDocument.
 */
import {
  FabledService,
  type Problem,
  type Span,
  type CompletionList as CoreCompletionList,
  type DocSymbol,
  type CodeActionData,
  type Fold,
  type Hint,
  type Lens,
} from '../core/service';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  InsertTextFormat,
  InsertTextMode,
  SymbolKind,
  type CodeAction,
  type CodeLens,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type DocumentSymbol,
  type FoldingRange,
  type InlayHint,
  type Location,
  type Position,
  type Range,
  type SelectionRange,
  type SymbolInformation,
  type TextEdit,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { BATTLE_COMMAND, PRICE_COMMAND, SIMULATE_COMMAND, VS_FIELD_COMMAND } from '../../../protocol';

/** What a completion item is (a key, a value, a card's name...), as the core names it. */
type CompletionKind = CoreCompletionList['items'][number]['kind'];
/** What a symbol is (a card, a fleet, an entry...), as the core names it. */
type SymbolKindName = DocSymbol['kind'];

/** Finds the text of a document the answer points into (open or on disk). */
export type TextOf = (uri: string) => TextDocument | undefined;

export function range(td: TextDocument, span: Span): Range {
  return { start: td.positionAt(span.start), end: td.positionAt(span.end) };
}

export function span(td: TextDocument, r: Range): Span {
  return { start: td.offsetAt(r.start), end: td.offsetAt(r.end) };
}

/**
 * The positions of `offsets` in `text`, as `TextDocument.positionAt` gives them, found in one pass
 * up to the last; undefined when the text holds a carriage return (positionAt then applies its
 * rules for \r and \r\n). The first positionAt on a document indexes every line of it: on a
 * 20,000-line file just opened that took about 10 ms of the time to its first diagnostics, which
 * usually sit on a few lines. The index is still made, once something else needs it.
 */
export function positionsIn(text: string, offsets: readonly number[]): Map<number, Position> | undefined {
  if (text.indexOf('\r') >= 0) return undefined;
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const out = new Map<number, Position>();
  let line = 0;
  let start = 0;
  let next = text.indexOf('\n');
  for (const asked of sorted) {
    const at = Math.max(0, Math.min(asked, text.length));
    while (next !== -1 && next < at) {
      line++;
      start = next + 1;
      next = text.indexOf('\n', start);
    }
    out.set(asked, { line, character: at - start });
  }
  return out;
}

/** Every problem of a document as a diagnostic (see `toDiagnostic`), its positions found in one pass. */
export function toDiagnostics(problems: readonly Problem[], td: TextDocument, related: TextOf | undefined): Diagnostic[] {
  const offsets: number[] = [];
  for (const p of problems) offsets.push(p.span.start, p.span.end);
  const at = problems.length ? positionsIn(td.getText(), offsets) : undefined;
  const rangeOf = at ? (s: Span): Range => ({ start: at.get(s.start)!, end: at.get(s.end)! }) : undefined;
  return problems.map((p) => toDiagnostic(p, td, related, rangeOf));
}

/**
 * `related` (when the client shows related information) finds the documents that related locations
 * point into; `rangeOf` turns a span of `td` into a range (by default `range`).
 */
export function toDiagnostic(p: Problem, td: TextDocument, related: TextOf | undefined, rangeOf?: (s: Span) => Range): Diagnostic {
  const d: Diagnostic = {
    range: rangeOf ? rangeOf(p.span) : range(td, p.span),
    severity: p.severity === 'error' ? DiagnosticSeverity.Error : p.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information,
    code: p.code,
    codeDescription: { href: FabledService.codeHref(p.code) },
    source: 'fabled-star',
    message: p.message,
  };
  if (p.data) d.data = p.data;
  if (related && p.related?.length) {
    const rel = [];
    for (const r of p.related) {
      const other = related(r.uri);
      if (other) rel.push({ location: { uri: r.uri, range: range(other, r.span) }, message: r.message });
    }
    if (rel.length) d.relatedInformation = rel;
  }
  return d;
}

export function locations(list: { uri: string; span: Span }[], textOf: TextOf): Location[] {
  const out: Location[] = [];
  for (const l of list) {
    const td = textOf(l.uri);
    if (td) out.push({ uri: l.uri, range: range(td, l.span) });
  }
  return out;
}

/** Edits across files -> `WorkspaceEdit.changes` (edits into documents no longer known are dropped). */
export function changes(edits: { uri: string; span: Span; newText: string }[], textOf: TextOf): Record<string, TextEdit[]> {
  const out: Record<string, TextEdit[]> = {};
  for (const e of edits) {
    const td = textOf(e.uri);
    if (td) (out[e.uri] ??= []).push({ range: range(td, e.span), newText: e.newText });
  }
  return out;
}

/**
 * A table from the core's kind names to an LSP enum's members, each written as the member's name
 * (`Property` for `CompletionItemKind.Property`): the types check that every name is a member.
 */
export function kindTable<K extends string, E extends Record<string, number>>(lspEnum: E, names: Record<K, keyof E>): Record<K, E[keyof E]> {
  return Object.fromEntries(Object.entries<keyof E>(names).map(([k, member]) => [k, lspEnum[member]])) as Record<K, E[keyof E]>;
}

const COMPLETION_KINDS: Record<CompletionKind, CompletionItemKind> = kindTable(CompletionItemKind, {
  key: 'Property',
  value: 'Value',
  enum: 'EnumMember',
  card: 'Class',
  snippet: 'Snippet',
  order: 'Event',
  ability: 'Function',
  faction: 'Module',
});

/** Snippet text as plain text, for clients without snippet support. */
export function plainSnippet(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]*)[^}]*\|\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\}|\$\d+/g, '');
}

/** What a completion item carries for `completionItem/resolve`: its list's number and its place in it. */
export interface CompletionData {
  l: number;
  i: number;
}

/**
 * The documentation of the latest completion lists' items, given on `completionItem/resolve`
 * (the editor asks for the item the player has selected), for a client that says it resolves
 * `documentation` (`completionItem.resolveSupport`): the list itself carries each item's label,
 * edit and one-line detail, and a small `data`. Measured in the server on 4,000 cards: the keys of
 * a card 2,492 -> 1,563 bytes, the abilities 4,971 -> 3,676, the classes 4,643 -> 2,964, each in
 * about 0.1 ms either way; card names (124,891 bytes among 4,000 cards) carry no documentation, so
 * the biggest list is as fast as before: what the client is spared is the rule text it never shows.
 */
export class CompletionDocs {
  private next = 1;
  private readonly lists = new Map<number, (string | undefined)[]>();

  /** Keeps one list's documentation (one entry per item) and returns the list's number. */
  keep(docs: (string | undefined)[]): number {
    const id = this.next++;
    this.lists.set(id, docs);
    // A client resolves items of the list it shows: the latest, or one still open just before it.
    for (const old of this.lists.keys()) if (old <= id - CompletionDocs.KEPT) this.lists.delete(old);
    return id;
  }

  /** `item` with its documentation, when `data` names an item of a list still kept; else `item` as it came. */
  resolve(item: CompletionItem, markdownDocs: boolean): CompletionItem {
    const data = item.data as Partial<CompletionData> | undefined;
    if (!data || typeof data.l !== 'number' || typeof data.i !== 'number') return item;
    const doc = this.lists.get(data.l)?.[data.i];
    if (doc === undefined) return item;
    return { ...item, documentation: markdownDocs ? { kind: 'markdown', value: doc } : { kind: 'plaintext', value: FabledService.markdownToPlain(doc) } };
  }

  static readonly KEPT = 4;
}

/**
 * The LSP completion list. With `lazy`, each item's documentation stays on the server until the
 * client resolves the item (the item carries `data` instead); without it, the list carries it all.
 */
export function completionList(list: CoreCompletionList, td: TextDocument, snippets: boolean, markdownDocs = true, lazy?: CompletionDocs): CompletionList {
  // Most items share one replace range: convert each distinct span once.
  const ranges = new Map<string, Range>();
  const rangeOf = (s: Span): Range => {
    const k = `${s.start}:${s.end}`;
    let v = ranges.get(k);
    if (!v) ranges.set(k, (v = range(td, s)));
    return v;
  };
  const listId = lazy ? lazy.keep(list.items.map((c) => c.documentation)) : 0;
  const items: CompletionItem[] = list.items.map((c, i) => {
    const snippet = !!c.snippet && snippets;
    const item: CompletionItem = {
      label: c.label,
      kind: COMPLETION_KINDS[c.kind],
      textEdit: { range: rangeOf(c.span), newText: c.snippet && !snippets ? plainSnippet(c.insertText) : c.insertText },
      insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    };
    if (c.detail) item.detail = c.detail;
    if (c.documentation && lazy) item.data = { l: listId, i } satisfies CompletionData;
    else if (c.documentation)
      item.documentation = markdownDocs
        ? { kind: 'markdown', value: c.documentation }
        : { kind: 'plaintext', value: FabledService.markdownToPlain(c.documentation) };
    if (c.sortText) item.sortText = c.sortText;
    if (c.filterText) item.filterText = c.filterText;
    // The text carries its own indentation: an editor must not add the line's indentation again.
    // (Any line break: in a CR-only file the text comes with lone CRs.)
    if (/[\r\n]/.test(item.textEdit!.newText)) item.insertTextMode = InsertTextMode.asIs;
    return item;
  });
  return { isIncomplete: list.isIncomplete, items };
}

/**
 * Code actions of the kinds the client asked for (`only`); `diagnostic` converts the problem an
 * action fixes.
 */
export function codeActionList(actions: CodeActionData[], only: string[] | undefined, textOf: TextOf, diagnostic: (p: Problem) => Diagnostic): CodeAction[] {
  const out: CodeAction[] = [];
  for (const a of actions) {
    const kind = a.kind === 'quickfix' ? CodeActionKind.QuickFix : a.kind === 'source.fixAll' ? CodeActionKind.SourceFixAll : CodeActionKind.RefactorRewrite;
    if (only && !only.some((o) => kind === o || kind.startsWith(o + '.'))) continue;
    const action: CodeAction = { title: a.title, kind, edit: { changes: changes(a.edits, textOf) } };
    if (a.problem) action.diagnostics = [diagnostic(a.problem)];
    if (a.isPreferred) action.isPreferred = true;
    out.push(action);
  }
  return out;
}

const SYMBOL_KINDS: Record<SymbolKindName, SymbolKind> = kindTable(SymbolKind, {
  card: 'Class',
  weapon: 'Method',
  order: 'Event',
  ability: 'Property',
  stats: 'Struct',
  fleet: 'Module',
  entry: 'Object',
  embarked: 'Field',
  faction: 'Namespace',
  commandAbility: 'Function',
  factionAbility: 'Interface',
});

/** The outline as a tree (clients with hierarchical symbols) or as a flat list with container names. */
export function documentSymbolList(syms: DocSymbol[], td: TextDocument, hierarchical: boolean): DocumentSymbol[] | SymbolInformation[] {
  if (hierarchical) {
    const conv = (s: DocSymbol): DocumentSymbol => ({
      name: s.name,
      kind: SYMBOL_KINDS[s.kind],
      range: range(td, s.span),
      selectionRange: range(td, s.selectionSpan),
      ...(s.detail ? { detail: s.detail } : {}),
      children: s.children.map(conv),
    });
    return syms.map(conv);
  }
  const flat: SymbolInformation[] = [];
  const walk = (s: DocSymbol, container?: string) => {
    flat.push({
      name: s.name,
      kind: SYMBOL_KINDS[s.kind],
      location: { uri: td.uri, range: range(td, s.span) },
      ...(container ? { containerName: container } : {}),
    });
    for (const c of s.children) walk(c, s.name);
  };
  syms.forEach((s) => walk(s));
  return flat;
}

export function inlayHint(h: Hint, td: TextDocument): InlayHint {
  return {
    position: td.positionAt(h.offset),
    label: h.label,
    paddingLeft: true,
    ...(h.tooltip ? { tooltip: { kind: 'markdown' as const, value: h.tooltip } } : {}),
  };
}

/** A lens that simulates runs the client's simulate command; an informational lens runs nothing. */
export function codeLens(l: Lens, td: TextDocument): CodeLens {
  const tip = l.tooltip ? { tooltip: l.tooltip } : {};
  return {
    range: range(td, l.span),
    command: l.battle
      ? { title: l.title, ...tip, command: BATTLE_COMMAND, arguments: [l.battle] }
      : l.price
        ? { title: l.title, ...tip, command: PRICE_COMMAND, arguments: [l.price] }
        : l.vsField
          ? { title: l.title, ...tip, command: VS_FIELD_COMMAND, arguments: [l.vsField] }
          : { title: l.title, ...tip, command: l.simulate ? SIMULATE_COMMAND : '', ...(l.simulate ? { arguments: [l.simulate] } : {}) },
  };
}

/** Folds as line ranges: one per start line (the outermost), only those of more than one line. */
export function foldingRangeList(folds: Fold[], td: TextDocument): FoldingRange[] {
  const byStart = new Map<number, FoldingRange>();
  for (const f of folds) {
    const startLine = td.positionAt(f.start).line;
    const endLine = td.positionAt(f.end).line;
    if (endLine <= startLine) continue;
    const have = byStart.get(startLine);
    if (have && have.endLine >= endLine) continue;
    byStart.set(startLine, { startLine, endLine, ...(f.kind ? { kind: f.kind } : {}) });
  }
  return [...byStart.values()].sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

/** Spans innermost first -> a selection range with its parents (an empty chain: the position itself). */
export function selectionRange(spans: Span[], td: TextDocument, at: Position): SelectionRange {
  let out: SelectionRange | undefined;
  for (const s of [...spans].reverse()) out = { range: range(td, s), ...(out ? { parent: out } : {}) };
  return out ?? { range: { start: at, end: at } };
}
