/**
 * Quick fixes for the diagnostics whose fix is clear, and the refactor between the two stat forms.
 * The validator puts the preferred replacement texts in `Problem.data.replacements`; the fixes that
 * need more than a replacement (missing stats, removing a misplaced rule) are built here.
 */
import type { FabledDocument, Problem, Span, StatsBlock } from '../model/types';
import { MOVEMENT_STICKS, STATS, STAT_ORDER, type StatName } from '../rules/data';
import { cardsOf, inStyleOf, within, yamlScalar } from './shared';

export interface TextEdit {
  uri: string;
  span: Span;
  newText: string;
}

export interface CodeActionData {
  title: string;
  kind: 'quickfix' | 'refactor.rewrite';
  edits: TextEdit[];
  /** The problem it fixes (quick fixes). */
  problem?: Problem;
  isPreferred?: boolean;
}

function overlaps(a: Span, b: Span): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** Titles by code: what the fix does, in the user's words. */
function replaceTitle(p: Problem, r: string, current: string): string {
  switch (p.code) {
    case 'FS-RANGE-BAND':
    case 'FS-RANGE-TEXT':
    case 'FS-RANGE-SMALL-CRAFT':
      return `Snap ${current.trim()} to the range band ${r}`;
    case 'FS-UNIT-UNKNOWN':
    case 'FS-FACTION-UNKNOWN':
    case 'FS-ORDER-UNKNOWN':
    case 'FS-ABILITY-UNKNOWN':
    case 'FS-CLASS-UNKNOWN':
    case 'FS-WEAPON-TYPE':
    case 'FS-DOCTRINE':
    case 'FS-UNKNOWN-KEY':
      return `Change to "${r}"`;
    case 'FS-STAT-RANGE':
      return `Bring to the limit: ${r}`;
    case 'FS-BASES':
      return `Set bases to the class's ${r}`;
    case 'FS-CP-MISMATCH':
      return `Set cp to ${r}`;
    case 'FS-POINTS-NONSTANDARD':
      return `Set points to the class card's ${r}`;
    case 'FS-BARE-DASH':
      return `Write the dash as ${r}`;
    default:
      return `Replace with ${r}`;
  }
}

/** Whether a span lies inside a one-line string (stat line token, weapon line part), where YAML quoting does not apply. */
function insideLineForm(doc: FabledDocument, span: Span): boolean {
  for (const card of cardsOf(doc)) {
    if (!within(card.span, span.start)) continue;
    if (card.stats?.form === 'line' && within(card.stats.span, span.start) && !within(card.stats.keySpan, span.start)) return true;
    for (const w of card.weapons?.items ?? [])
      if (w.form === 'line' && within(w.span, span.start) && (span.start > w.span.start || span.end < w.span.end)) return true;
  }
  return false;
}

/** The replacement text as it must be written at that place. */
function fit(doc: FabledDocument, span: Span, r: string): string {
  // Only a quoted dash comes pre-quoted (stats.ts); anything else is text, however it looks (a card may be named '"Q"').
  const quoted = /^"[-–—]"$/.test(r);
  if (insideLineForm(doc, span)) return quoted ? r.slice(1, -1) : r;
  if (quoted) return r;
  // Keep the quoting style the user chose for the old value, when it can hold the new one.
  return inStyleOf(doc.text.slice(span.start, span.end), r);
}

export function codeActions(doc: FabledDocument, range: Span, problems: Problem[]): CodeActionData[] {
  const out: CodeActionData[] = [];
  try {
    for (const p of problems) {
      if (!overlaps(p.span, range)) continue;
      out.push(...fixesFor(doc, p));
    }
    out.push(...refactors(doc, range));
  } catch {
    // A failed fix must not take the other actions with it.
  }
  return out;
}

function fixesFor(doc: FabledDocument, p: Problem): CodeActionData[] {
  const out: CodeActionData[] = [];
  const reps = p.data?.replacements ?? [];
  const current = doc.text.slice(p.span.start, p.span.end);
  reps.forEach((r, i) => {
    const newText = fit(doc, p.span, r);
    if (newText === current) return;
    out.push({
      title: replaceTitle(p, r, current),
      kind: 'quickfix',
      edits: [{ uri: doc.uri, span: p.span, newText }],
      problem: p,
      isPreferred: i === 0 && reps.length === 1,
    });
  });
  if (reps.length) return out;
  const card = cardsOf(doc).find((c) => within(c.span, p.span.start));
  switch (p.code) {
    case 'FS-STAT-MISSING': {
      const missing = (Array.isArray(p.data?.missing) ? (p.data!.missing as string[]) : []).filter((s): s is StatName =>
        (STAT_ORDER as readonly string[]).includes(s),
      );
      if (card?.stats && missing.length) {
        const edit = addStats(doc, card.stats, missing);
        if (edit)
          out.push({
            title: `Add the missing ${missing.length === 1 ? 'stat' : 'stats'} ${missing.join(', ')} (placeholder values)`,
            kind: 'quickfix',
            edits: [edit],
            problem: p,
            isPreferred: true,
          });
      }
      break;
    }
    case 'FS-UNIVERSAL-RULE-CLASS': {
      const a = card?.abilities?.items.find((x) => within(x.span, p.span.start));
      if (a) {
        const del = deleteLines(doc.text, a.span);
        out.push({
          title: `Remove ${a.name.value ?? 'this rule'}`,
          kind: 'quickfix',
          edits: [{ uri: doc.uri, span: del, newText: '' }],
          problem: p,
          isPreferred: true,
        });
      }
      break;
    }
    case 'FS-ORDER-UNREACHABLE': {
      const ld = card?.stats?.entries.LD?.value;
      const o = card?.orders?.items.find((x) => within(x.span, p.span.start));
      if (o?.difficulty && ld?.kind === 'targetDice') {
        out.push({
          title: `Lower the difficulty to ${ld.dice} (the LD dice)`,
          kind: 'quickfix',
          edits: [{ uri: doc.uri, span: o.difficulty.span, newText: String(ld.dice) }],
          problem: p,
        });
      }
      break;
    }
  }
  return out;
}

/** A placeholder for a missing stat: "—" where the unit may lack it, else the weakest legal value. */
function placeholder(stat: StatName): string {
  const s = STATS[stat];
  if (s.dashAllowed) return '—';
  switch (s.form) {
    case 'sticks':
      return String(MOVEMENT_STICKS[0]);
    case 'target':
      return `${s.max}+`;
    case 'count':
      return String(s.min);
    case 'targetDice':
      return `${s.target!.worst}/${s.dice!.min}`;
  }
}

function addStats(doc: FabledDocument, block: StatsBlock, missing: StatName[]): TextEdit | undefined {
  const text = doc.text;
  if (block.form === 'line') {
    // Positional: only trailing stats can be appended; the string ends where the last token does.
    const entries = STAT_ORDER.map((s) => block.entries[s]).filter((e) => !!e);
    const last = entries[entries.length - 1];
    if (!last) return undefined;
    const trailing = STAT_ORDER.slice(STAT_ORDER.indexOf(last.stat) + 1);
    if (trailing.some((s) => !missing.includes(s))) return undefined;
    const sep = /·/.test(text.slice(block.span.start, block.span.end)) ? ' · ' : ' ';
    return { uri: doc.uri, span: { start: last.span.end, end: last.span.end }, newText: trailing.map((s) => sep + placeholder(s)).join('') };
  }
  const entries = STAT_ORDER.map((s) => block.entries[s]).filter((e) => !!e);
  const keyCol = block.keySpan.start - (text.lastIndexOf('\n', block.keySpan.start - 1) + 1);
  if (entries.length === 0) {
    const indent = ' '.repeat(keyCol + 2);
    const at = block.keySpan.end + 1; // after the colon
    return {
      uri: doc.uri,
      span: { start: at, end: Math.max(at, block.span.end) },
      newText: '\n' + missing.map((s) => `${indent}${s}: ${placeholder(s)}`).join('\n'),
    };
  }
  const lastEnd = Math.max(...entries.map((e) => e!.span.end));
  const first = entries[0]!;
  const col = first.keySpan.start - (text.lastIndexOf('\n', first.keySpan.start - 1) + 1);
  const indent = ' '.repeat(col);
  return { uri: doc.uri, span: { start: lastEnd, end: lastEnd }, newText: missing.map((s) => `\n${indent}${s}: ${placeholder(s)}`).join('') };
}

/** The whole lines a span covers, with the line break, so that deleting them leaves no blank line. */
function deleteLines(text: string, span: Span): Span {
  const start = text.lastIndexOf('\n', span.start - 1) + 1;
  let end = text.indexOf('\n', span.end);
  end = end < 0 ? text.length : end + 1;
  return { start, end };
}

// ------------------------------------------------------------------------------------------
// Refactors

function refactors(doc: FabledDocument, range: Span): CodeActionData[] {
  const out: CodeActionData[] = [];
  const card = cardsOf(doc).find((c) => within(c.span, range.start));
  const block = card?.stats;
  if (!card || !block || !(within(block.span, range.start) || within(block.keySpan, range.start))) return out;
  const text = doc.text;
  const entries = STAT_ORDER.map((s) => block.entries[s]);
  if (block.form === 'line') {
    const present = entries.filter((e) => !!e);
    if (!present.length) return out;
    const keyCol = block.keySpan.start - (text.lastIndexOf('\n', block.keySpan.start - 1) + 1);
    const indent = ' '.repeat(keyCol + 2);
    const lines = present.map((e) => `${indent}${e!.stat}: ${mappingValue(e!.raw)}`);
    out.push({
      title: 'Write the stats as a mapping (one key per stat)',
      kind: 'refactor.rewrite',
      edits: [{ uri: doc.uri, span: { start: block.keySpan.end, end: valueEnd(block) }, newText: ':\n' + lines.join('\n') }],
    });
  } else if (entries.every((e) => e && e.raw)) {
    const line = entries.map((e) => e!.raw).join(' ');
    out.push({
      title: 'Write the stats as one stat line',
      kind: 'refactor.rewrite',
      edits: [{ uri: doc.uri, span: { start: block.keySpan.end, end: valueEnd(block) }, newText: `: "${line.replace(/["\\]/g, '')}"` }],
    });
  }
  return out;
}

/** Where the stats value ends: the last entry's value, or the block's end. */
function valueEnd(block: StatsBlock): number {
  const ends = Object.values(block.entries).map((e) => e!.span.end);
  return Math.max(block.span.end, ...ends);
}

/** A stat token as a mapping value: a bare "-" would be a YAML list marker, so it becomes the em dash. */
function mappingValue(raw: string): string {
  if (raw === '-' || raw === '–') return '—';
  return yamlScalar(raw);
}
