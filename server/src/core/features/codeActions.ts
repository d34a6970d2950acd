/**
 * Quick fixes for the diagnostics whose fix is clear, and the refactor between the two stat forms.
 * The validator puts the preferred replacement texts in `Problem.data.replacements`; the fixes that
 * need more than a replacement (missing stats, removing a misplaced rule) are built here.
 */
import type { Ability, FabledDocument, FleetDocument, FleetEntry, Problem, Span, StatsBlock, UnitCard } from '../model/types';
import { LAUNCH_BAY, MOVEMENT_STICKS, STATS, STAT_ORDER, type StatName } from '../rules/data';
import type { Workspace } from '../workspace';
import { CODES } from '../model/codes';
import { bayCapacity } from '../model/derived';
import { universalRule } from '../rules/lookup';
import { fleetTotals } from '../fleetPoints';
import { cardsOf, inStyleOf, within, yamlScalar } from './shared';
import { noun } from '../rules/words';

export interface TextEdit {
  uri: string;
  span: Span;
  newText: string;
}

export interface CodeActionData {
  title: string;
  kind: 'quickfix' | 'refactor.rewrite' | 'source.fixAll';
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
    case 'FS-POINTS-ESTIMATE':
      return `Set points to the estimate (≈ ${r})`;
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
  const quoted = /^"[-\u2013\u2014]"$/.test(r);
  if (insideLineForm(doc, span)) return quoted ? r.slice(1, -1) : r;
  if (quoted) return r;
  // Keep the quoting style the user chose for the old value, when it can hold the new one.
  return inStyleOf(doc.text.slice(span.start, span.end), r);
}

/**
 * The actions at `range`: fixes for the problems there, "fix all" of a kind when the file has more
 * than one such problem with a clear fix, and the refactors. `problems` are the file's (the fix-all
 * actions need all of them); `ws` lets fixes look across files (an ability another card defines,
 * the fleet's other entries' cards).
 */
export function codeActions(doc: FabledDocument, range: Span, problems: Problem[], ws?: Workspace): CodeActionData[] {
  const out: CodeActionData[] = [];
  try {
    const here = new Set<string>();
    for (const p of problems) {
      if (!overlaps(p.span, range)) continue;
      here.add(p.code);
      out.push(...fixesFor(doc, p, ws));
    }
    for (const code of here) {
      const all = fixAllOf(
        doc,
        problems.filter((p) => p.code === code),
        ws,
      );
      if (all && all.count > 1)
        out.push({ title: `Fix all in this file: ${CODES[code as keyof typeof CODES]?.title ?? code} (${all.count})`, kind: 'quickfix', edits: all.edits });
    }
    out.push(...refactors(doc, range));
  } catch {
    // A failed fix must not take the other actions with it.
  }
  return out;
}

/** source.fixAll: every problem of the file that has one clear (preferred) fix, in one edit. */
export function fixAll(doc: FabledDocument, problems: Problem[], ws?: Workspace): CodeActionData | undefined {
  try {
    const all = fixAllOf(doc, problems, ws);
    return all && all.count > 0 ? { title: `Fix all clear problems in this file (${all.count})`, kind: 'source.fixAll', edits: all.edits } : undefined;
  } catch {
    return undefined;
  }
}

/** The preferred fix of each problem, skipping any whose edits overlap one already taken. */
function fixAllOf(doc: FabledDocument, problems: Problem[], ws: Workspace | undefined): { edits: TextEdit[]; count: number } | undefined {
  const edits: TextEdit[] = [];
  let count = 0;
  for (const p of problems) {
    const fix = fixesFor(doc, p, ws).find((a) => a.isPreferred);
    if (!fix || fix.edits.some((e) => e.uri !== doc.uri)) continue;
    if (fix.edits.some((e) => edits.some((x) => e.span.start < x.span.end && x.span.start < e.span.end) || edits.some((x) => x.span.start === e.span.start)))
      continue;
    edits.push(...fix.edits);
    count++;
  }
  return count ? { edits, count } : undefined;
}

function fixesFor(doc: FabledDocument, p: Problem, ws?: Workspace): CodeActionData[] {
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
      // A cost is the designer's call: the estimate is offered, never applied by "fix all".
      isPreferred: i === 0 && reps.length === 1 && p.code !== 'FS-POINTS-ESTIMATE',
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
            title: `Add the missing ${noun(missing.length, 'stat')} ${missing.join(', ')} (placeholder values)`,
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
    case 'FS-SLOTS-ABILITIES': {
      // Offer to remove each ability that takes a slot (universal class rules are free).
      for (const a of card?.abilities?.items ?? []) {
        if (universalRule(a.name.value ?? '')) continue;
        out.push({
          title: `Remove the ability ${a.name.value ?? a.name.raw}`,
          kind: 'quickfix',
          edits: [{ uri: doc.uri, span: deleteLines(doc.text, a.span), newText: '' }],
          problem: p,
        });
      }
      break;
    }
    case 'FS-ABILITY-UNKNOWN': {
      const a = card?.abilities?.items.find((x) => within(x.span, p.span.start));
      const def = a && card && ws ? definedElsewhere(ws, card, a) : undefined;
      if (a && def) {
        const col = a.span.start - (doc.text.lastIndexOf('\n', a.span.start - 1) + 1);
        const lines = [`name: ${yamlScalar(def.ability.name.value!)}`];
        if (def.ability.text?.value) lines.push(`text: ${yamlScalar(def.ability.text.value)}`);
        if (def.ability.range?.value !== undefined) lines.push(`range: ${def.ability.range.value}"`);
        out.push({
          title: `Copy the definition of ${def.ability.name.value} from ${def.card.name.value}`,
          kind: 'quickfix',
          edits: [{ uri: doc.uri, span: a.span, newText: lines.join('\n' + ' '.repeat(col)) }],
          problem: p,
          isPreferred: true,
        });
      }
      break;
    }
    case 'FS-FLEET-OVER':
      if (doc.kind === 'fleet' && ws) out.push(...fleetOverFixes(doc, p, ws));
      break;
    case 'FS-EMBARK-NO-BAY':
      if (doc.kind === 'fleet' && ws) out.push(...moveEmbarkedFixes(doc, p, ws));
      break;
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

/** The same-named ability as a mapping with text on another card of the card's faction. */
function definedElsewhere(ws: Workspace, card: UnitCard, a: Ability): { card: UnitCard; ability: Ability } | undefined {
  const name = a.name.value?.trim().toLowerCase();
  const faction = card.faction.value;
  if (!name || faction === undefined) return undefined;
  for (const r of ws.cardsOf(faction)) {
    if (r.card === card) continue;
    const def = r.card.abilities?.items.find((x) => x.form === 'mapping' && x.name.value?.trim().toLowerCase() === name && x.text?.value);
    if (def) return { card: r.card, ability: def };
  }
  return undefined;
}

/** Entries (or one copy of an entry) whose removal brings the fleet within its limit, the closest fit first. */
function fleetOverFixes(doc: FleetDocument, p: Problem, ws: Workspace): CodeActionData[] {
  const totals = fleetTotals(doc, ws);
  const limit = doc.points.value;
  if (limit === undefined) return [];
  const over = totals.total - limit;
  const options: { left: number; action: CodeActionData }[] = [];
  for (const ep of totals.entries) {
    const name = ep.entry.unit.value ?? ep.entry.unit.raw;
    const count = ep.entry.count.value ?? 1;
    if (ep.each <= 0) continue;
    if (count > 1 && ep.entry.count.keySpan) {
      // Fewest copies to drop.
      const drop = Math.ceil(over / ep.each);
      if (drop < count)
        options.push({
          left: limit - (totals.total - drop * ep.each),
          action: {
            title: `Field ${count - drop} ${name} instead of ${count} (−${drop * ep.each} pts)`,
            kind: 'quickfix',
            edits: [{ uri: doc.uri, span: ep.entry.count.span, newText: String(count - drop) }],
            problem: p,
          },
        });
    }
    if (ep.total >= over)
      options.push({
        left: limit - (totals.total - ep.total),
        action: {
          title: `Remove ${count > 1 ? `${count}× ` : ''}${name} (−${ep.total} pts)`,
          kind: 'quickfix',
          edits: [{ uri: doc.uri, span: deleteLines(doc.text, entrySpan(doc, ep.entry)), newText: '' }],
          problem: p,
        },
      });
  }
  return options
    .sort((a, b) => a.left - b.left)
    .slice(0, 6)
    .map((o) => o.action);
}

/** An entry's whole range: from its "- " to its last nested line. */
function entrySpan(doc: FleetDocument, e: FleetEntry): Span {
  const dash = doc.text.lastIndexOf('-', e.span.start);
  const lineStart = doc.text.lastIndexOf('\n', e.span.start - 1) + 1;
  return { start: dash >= lineStart ? dash : e.span.start, end: Math.max(e.span.end, e.embark?.span.end ?? 0) };
}

/** Moves an embarked unit from a host without a bay to another entry whose bay has room for it. */
function moveEmbarkedFixes(doc: FleetDocument, p: Problem, ws: Workspace): CodeActionData[] {
  const entries = doc.units?.items ?? [];
  const from = entries.find((e) => e.embark?.items.some((f) => within(f.span, p.span.start)));
  const item = from?.embark?.items.find((f) => within(f.span, p.span.start));
  if (!from || !item) return [];
  const faction = doc.faction.value;
  const carried = ws.card(item.value, faction, 'ownFirst');
  const cls = carried?.card.class.value;
  if (!cls) return [];
  const text = doc.text;
  const out: CodeActionData[] = [];
  // A flow list ("embark: [A, B]") is left to the user: its items share a line.
  if (/\[/.test(text.slice(from.embark!.keySpan.end, item.span.start))) return [];
  // Removing the item: the whole embark key when it is the only one.
  const only = from.embark!.items.length === 1;
  const removal: TextEdit = {
    uri: doc.uri,
    span: deleteLines(text, only ? { start: from.embark!.keySpan.start, end: from.embark!.span.end } : item.span),
    newText: '',
  };
  for (const host of entries) {
    if (host === from) continue;
    const h = ws.card(host.unit.value, faction, 'own');
    if (!h) continue;
    const cap = bayCapacity(h.card);
    const room =
      (cap.tierFighters > 0 && LAUNCH_BAY.tierCarries.includes(cls) ? cap.tierFighters : 0) +
      (cap.reserves > 0 && LAUNCH_BAY.carrierCarries.includes(cls) ? cap.reserves : 0) -
      (host.embark?.items.length ?? 0);
    if (room <= 0) continue;
    const name = yamlScalar(item.value ?? item.raw);
    let add: TextEdit;
    const last = host.embark?.items[host.embark.items.length - 1];
    if (host.embark && last) {
      const lineStart = text.lastIndexOf('\n', last.span.start - 1) + 1;
      const dashCol = text.lastIndexOf('-', last.span.start) - lineStart;
      const inFlow = /\[/.test(text.slice(host.embark.keySpan.end, last.span.start));
      add = inFlow
        ? { uri: doc.uri, span: { start: last.span.end, end: last.span.end }, newText: `, ${name}` }
        : {
            uri: doc.uri,
            span: { start: lineEndOf(text, last.span.end), end: lineEndOf(text, last.span.end) },
            newText: `\n${' '.repeat(Math.max(0, dashCol))}- ${name}`,
          };
    } else {
      const unitKey = host.unit.keySpan ?? host.unit.span;
      const col = unitKey.start - (text.lastIndexOf('\n', unitKey.start - 1) + 1);
      const end = lineEndOf(text, Math.max(host.span.end - 1, host.unit.span.end));
      add = { uri: doc.uri, span: { start: end, end }, newText: `\n${' '.repeat(col)}embark:\n${' '.repeat(col + 2)}- ${name}` };
    }
    if (overlapsEdit(add, removal)) continue;
    out.push({
      title: `Move ${item.value} to ${host.unit.value}, which has room in its launch bay`,
      kind: 'quickfix',
      edits: [removal, add],
      problem: p,
    });
  }
  // One host with room: that is the fix.
  if (out.length === 1) out[0]!.isPreferred = true;
  return out;
}

function overlapsEdit(a: TextEdit, b: TextEdit): boolean {
  return a.span.start < b.span.end && b.span.start < a.span.end;
}

/** The end of the line holding `off` (before \r\n or \n). */
function lineEndOf(text: string, off: number): number {
  let e = text.indexOf('\n', off);
  if (e < 0) e = text.length;
  if (e > 0 && text[e - 1] === '\r') e--;
  return e;
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
    const sep = /\u00b7/.test(text.slice(block.span.start, block.span.end)) ? ' · ' : ' ';
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

/**
 * The whole lines a span covers, with the line break, so that deleting them leaves no blank line.
 * A node's span may run into the next line's indentation and "- " (a nested block list ends where
 * the next item starts): that line is not part of it.
 */
function deleteLines(text: string, span: Span): Span {
  const start = text.lastIndexOf('\n', span.start - 1) + 1;
  let last = span.end;
  const ls = text.lastIndexOf('\n', last - 1) + 1;
  if (ls > start && /^[ \t-]*$/.test(text.slice(ls, last))) last = ls - 1;
  let end = text.indexOf('\n', last);
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
