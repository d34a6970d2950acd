/**
 * A thin layer over the YAML parser: load text into an AST with offsets, turn the parser's errors
 * into problems, and read mappings with duplicate and unknown-key checks.
 *
 * The parser is @stoplight/yaml-ast-parser (the js-yaml-derived AST parser behind Spectral): it keeps
 * the offsets of every node, recovers after errors, keeps aliases as references instead of expanding
 * them (so alias bombs cost nothing), and parses a 20,000-line card file about ten times faster than
 * the `yaml` package's parseDocument (see bench/ and the README), which decides the editor's latency.
 */
import { load, Kind, type YAMLNode, type YAMLScalar, type YAMLMapping, type YamlMap, type YAMLSequence } from '@stoplight/yaml-ast-parser';
import { Schema } from '@stoplight/yaml-ast-parser/dist/src/schema';
import FULL_SCHEMA from '@stoplight/yaml-ast-parser/dist/src/schema/default_full';
import { boundedDistance, nearest, SUGGEST_LIMITS, type Prepared, type SuggestBudget } from './suggest';
import { CODES, type Code } from './codes';
import { shiftTree } from './chunks';
import { clip, findExcess, LIMITS } from './limits';
import type { Problem, Span, ProblemData } from './types';
import { getMemo, memo, setMemo } from './memo';

export { Kind };
export type { YAMLNode, YAMLScalar, YAMLMapping, YamlMap, YAMLSequence };

/**
 * The parser's default schema, except that a plain scalar is only tested for null (and for the
 * merge key `<<`): the reader takes every scalar as its text and converts numbers itself, so the
 * parser's guesses (bool, int, float, timestamp) were never read, and the float and timestamp
 * patterns it tried on every name and effect took about 5% of a cold open. Explicit tags
 * (`!!int 5`, `!!set`) resolve as before.
 */
const READ_SCHEMA = (() => {
  const kept = new Set(['tag:yaml.org,2002:null', 'tag:yaml.org,2002:merge']);
  const implicit = FULL_SCHEMA.compiledImplicit as Schema['implicit'];
  return new Schema({
    implicit: implicit.filter((t) => kept.has(t.tag)),
    explicit: [...implicit.filter((t) => !kept.has(t.tag)), ...(FULL_SCHEMA.compiledExplicit as Schema['explicit'])],
  });
})();

export function problem(code: Code, message: string, span: Span, data?: ProblemData): Problem {
  const p: Problem = { code, severity: CODES[code].severity, message, span: { start: span.start, end: span.end } };
  if (data) p.data = data;
  return p;
}

/** The closest of `candidates` to `word` when it is close enough to be a plausible typo. */
export function suggest(word: string, candidates: readonly string[], budget?: SuggestBudget): string | undefined {
  if (!word || candidates.length === 0) return undefined;
  const lower = word.length <= 200 ? word.toLowerCase() : undefined;
  const exact = lower === undefined ? undefined : candidates.find((c) => c.length === lower.length && c.toLowerCase() === lower);
  if (exact) return exact;
  return nearest(word, candidates, { n: 1, bonus: 0, allowed: (key) => Math.max(2, Math.floor(key.length / 3)), budget })[0];
}

/**
 * Every candidate, closest first (ties in the given order): for fixes that offer all the choices.
 * The word is cut to the compared length, so a huge value costs no more than a short one.
 */
export function rankByCloseness(word: string, candidates: readonly string[]): string[] {
  const lower = word.toLowerCase().slice(0, SUGGEST_LIMITS.chars);
  return candidates
    .map((c, i) => ({ c, i, d: boundedDistance(lower, c.toLowerCase().slice(0, SUGGEST_LIMITS.chars), SUGGEST_LIMITS.chars) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.c);
}

/** Up to `n` candidates ordered by closeness, for "did you mean" lists. */
export function suggestMany(word: string, candidates: readonly string[] | readonly Prepared[], n = 3, budget?: SuggestBudget): string[] {
  return nearest(word, candidates, { n, bonus: 3, allowed: (key) => Math.max(3, Math.floor(key.length / 2)), budget });
}

/**
 * A bare "-" after a key (`D: -`) is a YAML block-sequence indicator, so every YAML parser rejects
 * it, and this parser then drops the rest of the file. Designers write it anyway: the rulebook uses
 * a dash for "not possessed". We read it as the dash it means (the em dash has the same length, so
 * offsets are unchanged) and warn, so that the rest of the file still gets checked.
 */
const BARE_DASH = /^([ \t]*[^\s#:][^#:\n]*:[ \t]+)-([ \t]*)(#[^\n]*)?$/gm;

export interface Loaded {
  root: YAMLNode | undefined;
  problems: Problem[];
  /** The text was not parsed at all (a limit, or a parser failure): there is nothing to read. */
  fatal?: boolean;
}

/**
 * Loads YAML; with `offset`, the text is a piece of a document starting there, and every position
 * is the document's; `depth` is how many levels of the document enclose the piece. With `shift`
 * false, the problems' positions are the document's but the tree's nodes keep the piece's own
 * (the caller adds `offset` itself, as `spanOf(node, offset)` does: a walk of every node of every
 * card of a 20,000-line file, to move it, costs more than that).
 */
export function loadYaml(text: string, offset = 0, depth = 0, shift = true): Loaded {
  // A byte order mark (Windows editors write one) is not part of the YAML: parse what follows it and
  // move every position one on. (Turning it into a space instead indents the first key by one
  // column, and then every other top-level key is a syntax error.)
  if (text.charCodeAt(0) === 0xfeff) {
    if (shift) return loadYaml(text.slice(1), offset + 1, depth);
    // Unshifted, the tree's positions are the piece's own: the one character on.
    const r = loadYaml(text.slice(1), offset + 1, depth, false);
    if (r.root) shiftTree(r.root, 1);
    return r;
  }
  const problems: Problem[] = [];
  // Keep inputs the parser cannot take (or takes forever over) away from it: see ./limits.
  const excess = findExcess(text, LIMITS, depth);
  if (excess) {
    const message =
      excess.what === 'depth'
        ? `Nested more than ${LIMITS.depth} levels deep (a card file needs six): this part of the file is not read`
        : `More than ${LIMITS.tags} YAML tags ("!name"; Fabled Star files need none): this part of the file is not read`;
    // The whole line, so that the report does not depend on where the scan counted past the limit.
    const start = lineStart(text, excess.at);
    let first = start;
    while (first < excess.at && (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9)) first++;
    problems.push(problem('FS-YAML-LIMIT', message, { start: first, end: Math.max(first + 1, lineEndFrom(text, first)) }));
    return { root: undefined, problems: moved(problems, offset), fatal: true };
  }
  let source = text;
  // A cheap test first: the full pattern is slower, and almost every file has list dashes.
  if (/:[ \t]+-[ \t]*(?:#|\r?$)/m.test(source)) {
    source = source.replace(BARE_DASH, (m: string, pre: string, post: string, comment: string | undefined, at0: number) => {
      const at = at0 + pre.length;
      problems.push(
        problem(
          'FS-BARE-DASH',
          'A bare "-" is a YAML list marker, not a value (other YAML tools reject it); write \u2014 or "-" in quotes',
          { start: at, end: at + 1 },
          // The em dash first, and the one fix-all takes: every other dash fix writes it too.
          { replacements: ['\u2014', '"-"'], preferFirst: true },
        ),
      );
      return pre + '—' + post + (comment ?? '');
    });
  }
  let root: YAMLNode | undefined;
  try {
    // Duplicate keys are reported by readMap; the parser's own check compares every key with every
    // other (10,000 copies of one key make 10^8 errors and exhaust the heap, which kills the process).
    root = load(source, { ignoreDuplicateKeys: true, schema: READ_SCHEMA });
  } catch (e) {
    // The parser recovers from ordinary errors itself; a throw here is an input it cannot handle at
    // all (its own bugs, or a stack too small for the nesting findExcess lets through). Report it
    // instead of crashing the caller.
    const why = e instanceof RangeError ? 'it nests too deeply' : `the YAML parser failed: ${clipMessage(e)}`;
    problems.push(
      problem('FS-YAML-SYNTAX', `The file cannot be read as YAML (${why})`, { start: 0, end: Math.min(text.length, Math.max(1, lineEndFrom(text, 0))) }),
    );
    return { root: undefined, problems: moved(problems, offset), fatal: true };
  }
  if (root) {
    // Errors before warnings, so that a line with both reports the error.
    const errors = (root.errors ?? [])
      .filter((err) => !/duplicate(d)? key/i.test(String(err.reason ?? err.message)))
      .sort((a, b) => Number(!!a.isWarning) - Number(!!b.isWarning));
    // Follow-on errors the parser emits after a real one say nothing new: keep the first per line.
    const noise = /cannot resolve a node with|expected a single document in the stream/i;
    const real = errors.some((err) => !noise.test(String(err.reason ?? err.message)));
    const lines = new Set<number>();
    for (const err of errors) {
      const reason = String(err.reason ?? err.message ?? 'syntax error');
      // Duplicate keys are reported by readMap with both places; skip the parser's copy.
      if (real && noise.test(reason)) continue;
      let pos = Math.max(0, Math.min(text.length, err.mark?.position ?? 0));
      if (/end of the stream within/i.test(reason)) pos = unclosedOpener(text, reason) ?? pos;
      const line = lineStart(text, pos);
      if (lines.has(line)) continue;
      lines.add(line);
      const end = lineEndFrom(text, pos);
      const span = { start: pos, end: end > pos ? end : Math.min(text.length, pos + 1) };
      const message = friendlyYamlMessage(reason, /^[ ]*\t/.test(text.slice(line, line + 200)));
      problems.push(problem(err.isWarning ? 'FS-YAML-WARNING' : 'FS-YAML-SYNTAX', message, span));
    }
  }
  // The parser adds a line break to a text that does not end in one, and may place a node there,
  // past the end of the text; a key it has to invent while recovering from an error may sit at -1.
  if (root && ((root.errors ?? []).length > 0 || !/[\n\r]$/.test(text))) clampTree(root, text.length);
  if (root && offset && shift) shiftTree(root, offset);
  return { root, problems: moved(problems, offset) };
}

/** Keeps every position of a tree within [0, max] (aliases are clamped where their anchors stand). */
function clampTree(root: YAMLNode, max: number): void {
  type N = { startPosition: number; endPosition: number; kind?: number; key?: N; value?: unknown; mappings?: N[]; items?: N[] };
  const stack: N[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    n.startPosition = Math.min(Math.max(n.startPosition, 0), max);
    n.endPosition = Math.min(Math.max(n.endPosition, n.startPosition), max);
    if (n.key) stack.push(n.key);
    if (n.kind !== Kind.ANCHOR_REF && n.value && typeof n.value === 'object') stack.push(n.value as N);
    if (n.mappings) for (const m of n.mappings) if (m) stack.push(m);
    if (n.items) for (const m of n.items) if (m) stack.push(m);
  }
}

function clipMessage(e: unknown): string {
  const m = String((e as Error)?.message ?? e);
  return m.length > 120 ? `${m.slice(0, 119)}…` : m;
}

function moved(problems: Problem[], offset: number): Problem[] {
  if (offset) for (const p of problems) p.span = { start: p.span.start + offset, end: p.span.end + offset };
  return problems;
}

function lineEndFrom(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  const end = nl < 0 ? text.length : nl;
  return end > pos && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/**
 * The parser reports an unclosed [ { or quote where the text ends; the useful place is where it
 * was opened. A small scan (brackets outside quotes and comments) finds the innermost opener.
 */
function unclosedOpener(text: string, reason: string): number | undefined {
  const stack: number[] = [];
  let quote: string | undefined;
  let quoteAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s[{,:]/.test(text[i - 1]!))) {
      quote = c;
      quoteAt = i;
    } else if (c === '[' || c === '{') stack.push(i);
    else if ((c === ']' || c === '}') && stack.length) stack.pop();
  }
  if (/quoted scalar/i.test(reason) && quote) return quoteAt;
  return stack.length ? stack[stack.length - 1] : undefined;
}

function friendlyYamlMessage(reason: string, tabIndent = false): string {
  const r = reason.replace(/^JS-YAML:\s*/, '');
  if (/tabs/i.test(r) || tabIndent) return `Tab characters in indentation: YAML indents with spaces only (${r})`;
  if (/end of the stream within a flow collection/i.test(r)) return 'YAML syntax error: this [ or { is never closed';
  if (/end of the stream within a (double|single) quoted scalar/i.test(r)) return 'YAML syntax error: this quote is never closed';
  if (/bad indentation/i.test(r)) return `YAML syntax error: ${r} (check that this line lines up with its siblings)`;
  return `YAML syntax error: ${r}`;
}

const MAX_ALIAS_DEPTH = 32;
/** Levels of `<<` merges the reader follows: each level is a merge and a mapping, two steps of MAX_ALIAS_DEPTH. */
const MAX_MERGE_LEVELS = MAX_ALIAS_DEPTH / 2;

/** Follows alias references (`*name`) to the anchored node; undefined for a missing or cyclic one. */
export function deref(node: YAMLNode | null | undefined): YAMLNode | undefined {
  let n = node ?? undefined;
  for (let i = 0; n && n.kind === Kind.ANCHOR_REF && i < MAX_ALIAS_DEPTH; i++) n = (n as { value?: YAMLNode }).value ?? undefined;
  return n && n.kind !== Kind.ANCHOR_REF && n.kind !== Kind.INCLUDE_REF ? n : undefined;
}

/** A node's range; `base` is added for a tree parsed from a piece of a document (see `loadYaml`). */
export function spanOf(node: YAMLNode, base = 0): Span {
  return { start: node.startPosition + base, end: Math.max(node.startPosition, node.endPosition) + base };
}

export function isScalar(n: YAMLNode | undefined): n is YAMLScalar {
  return !!n && n.kind === Kind.SCALAR;
}

/** A scalar's text as a string ('' for null scalars written as nothing or "~"). */
export function scalarText(n: YAMLScalar): string {
  if (n.valueObject === null && n.plainScalar) return '';
  return typeof n.value === 'string' ? n.value : String(n.value ?? '');
}

export function describeKind(n: YAMLNode | undefined): string {
  if (!n) return 'nothing';
  switch (n.kind) {
    case Kind.MAP:
      return 'a mapping';
    case Kind.SEQ:
      return 'a list';
    case Kind.SCALAR:
      return scalarText(n as YAMLScalar) === '' ? 'an empty value' : 'text';
    default:
      return 'a reference';
  }
}

export interface Entry {
  key: string;
  keySpan: Span;
  /** The value node, aliases followed; undefined for `key:` with nothing after it. */
  value: YAMLNode | undefined;
  /** The range of the value, or an empty range right after the key when there is none. */
  valueSpan: Span;
}

/** The whole `key: value` pair of an entry (made when asked for: most entries never are). */
export function entrySpan(e: Entry): Span {
  return { start: e.keySpan.start, end: Math.max(e.keySpan.end, e.valueSpan.end) };
}

/** Known-key lists as sets, made once per list and kept on it (every key of every mapping is looked up). */
const KNOWN_SET = memo<Set<string>>('known keys');

function knownSet(known: readonly string[]): Set<string> {
  let set = getMemo(known, KNOWN_SET);
  if (!set) setMemo(known, KNOWN_SET, (set = new Set(known)));
  return set;
}

export interface ReadMap {
  entries: Map<string, Entry>;
  /** Entries in source order. */
  list: Entry[];
  /** The `<<` keys of this mapping, when it merges others (their entries' ranges are where they were written). */
  merges?: Span[];
}

/**
 * Reads a mapping: entries by key, merge keys (`<<: *base`) folded in (explicit keys win),
 * duplicates reported on the second key, unknown keys (when `known` is given) reported with the
 * closest known key.
 */
export function readMap(node: YAMLNode, problems: Problem[], known?: readonly string[], what = 'here', base = 0): ReadMap {
  return readMapAt(node, problems, known, what, base, 0, undefined);
}

function readMapAt(
  node: YAMLNode,
  problems: Problem[],
  known: readonly string[] | undefined,
  what: string,
  base: number,
  depth: number,
  merging: Set<YAMLNode> | undefined,
  /** Set when a merge nested past the limit (reported by the outermost mapping). */
  deepest?: { past: boolean },
): ReadMap {
  const entries = new Map<string, Entry>();
  const list: Entry[] = [];
  let merges: Span[] | undefined;
  // Made on the first merge key only: a card file reads thousands of mappings and merges none.
  let merged: Entry[] | undefined;
  const mappings = (node as YamlMap).mappings ?? [];
  // Past this many, unknown keys are counted, not each reported and suggested for (90,000 of them
  // took a second).
  let unknown = 0;
  let unreported: Span | undefined;
  for (const m of mappings) {
    if (!m || !m.key) continue;
    const keyNode = m.key;
    const key = isScalar(keyNode) ? scalarText(keyNode) : '';
    const keySpan = spanOf(keyNode, base);
    const raw = m.value as YAMLNode | null;
    const value = deref(raw);
    const valueSpan = raw ? spanOf(raw, base) : { start: keySpan.end + 1, end: keySpan.end + 1 };
    const entry: Entry = { key, keySpan, value, valueSpan };
    if (key === '<<') {
      const deep = deepest ?? { past: false };
      collectMerge(value, (merged ??= []), base, depth + 1, (merging ??= new Set()), deep);
      (merges ??= []).push(keySpan);
      // Said once, at the outermost merge: past the limit the reader stops following, and the keys beyond are not read.
      if (deep.past && depth === 0)
        problems.push(
          problem(
            'FS-YAML-LIMIT',
            `Merge keys (<<) nest deeper here than the reader follows (${MAX_MERGE_LEVELS} levels); the keys merged beyond that are not read. Write the values out, or merge fewer levels.`,
            keySpan,
          ),
        );
      continue;
    }
    const prev = entries.get(key);
    if (prev) {
      problems.push(problem('FS-DUPLICATE-KEY', `"${clip(key)}" is given twice in this mapping; only one is allowed (the first is kept)`, keySpan));
      continue;
    }
    const isKnown = !known || knownSet(known).has(key);
    if (!isKnown && ++unknown > LIMITS.keyReports) {
      unreported ??= keySpan;
    } else if (!isKnown) {
      const s = suggest(key, known);
      problems.push(
        problem(
          'FS-UNKNOWN-KEY',
          s ? `Unknown key "${clip(key)}" ${what}; did you mean "${s}"?` : `Unknown key "${clip(key)}" ${what}; known keys: ${known.join(', ')}`,
          keySpan,
          s ? { replacements: [s] } : undefined,
        ),
      );
    }
    entries.set(key, entry);
    list.push(entry);
  }
  if (unreported)
    problems.push(
      problem(
        'FS-UNKNOWN-KEY',
        `${unknown - LIMITS.keyReports} more unknown keys ${what} are not listed one by one; known keys: ${known!.join(', ')}`,
        unreported,
      ),
    );
  for (const e of merged ?? []) {
    if (!entries.has(e.key) && (!known || known.includes(e.key))) {
      entries.set(e.key, e);
      list.push(e);
    }
  }
  return merges ? { entries, list, merges } : { entries, list };
}

/**
 * Collects the entries of merged mappings. Each mapping is merged once per readMap: a second merge
 * of the same node adds only keys already present (the first one wins), and without this a few
 * lines of mappings that each merge ten aliases of the one before cost 10^10 steps.
 */
function collectMerge(value: YAMLNode | undefined, out: Entry[], base: number, depth: number, merging: Set<YAMLNode>, deep: { past: boolean }): void {
  if (!value || merging.has(value)) return;
  if (depth > MAX_ALIAS_DEPTH) {
    deep.past = true;
    return;
  }
  merging.add(value);
  if (value.kind === Kind.SEQ) {
    for (const item of (value as YAMLSequence).items ?? []) collectMerge(deref(item), out, base, depth + 1, merging, deep);
  } else if (value.kind === Kind.MAP) {
    const inner = readMapAt(value, [], undefined, '', base, depth + 1, merging, deep);
    for (const e of inner.list) out.push(e);
  }
}
