/**
 * Quick fixes for the diagnostics whose fix is clear, and the refactor between the two stat forms.
 * The validator puts the preferred replacement texts in `Problem.data.replacements`; the fixes that
 * need more than a replacement (missing stats, removing a misplaced rule) are built here.
 */
import type { Ability, FabledDocument, FleetDocument, Problem, Span, StatsBlock, UnitCard } from '../model/types';
import { CLASSES, LAUNCH_BAY, MOVEMENT_STICKS, SMALL_CRAFT_MAX_RANGE, STATS, STAT_ORDER, WEAPON_TYPES, type StatName } from '../rules/data';
import type { Workspace } from '../workspace';
import { CODES } from '../model/codes';
import { bayCapacity } from '../model/derived';
import { universalRule } from '../rules/lookup';
import { fleetTotals } from '../fleetPoints';
import { cardsOf, flowScalar, inStyleOf, within, yamlScalar } from './shared';
import { noun } from '../rules/words';
import { DIRECTIVE_MARK, directivesIn, lineOf, lineStarts } from '../model/directives';
import {
  appendItem,
  applyEdit,
  commentsIn,
  contentEnd,
  lineEnd,
  lineStart,
  removeItem,
  styleOf,
  textEdit as offsetEdit,
  wholeLines,
  type OffsetEdit,
} from '../model/edit';
import { addUnitEdit, countEdit, disembarkEdit, embarkEdit, removeEntryEdit } from '../roster/edits';
import { copiesIn, guessNoteAt, unreadNotes } from '../model/importNotes';
import { measuredBattlePrice, shownBattlePrice } from './priceByBattle';

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

/**
 * Every edit a fix or refactor makes, through the edit layer (model/edit.ts): its new text is
 * written with "\n" and goes into the file with the file's line ending.
 */
function edit(doc: FabledDocument, span: Span, newText: string): TextEdit {
  const e = offsetEdit(doc.text, span.start, span.end, newText);
  return { uri: doc.uri, span: { start: e.start, end: e.end }, newText: e.newText };
}

function fromOffsets(doc: FabledDocument, e: OffsetEdit): TextEdit {
  return { uri: doc.uri, span: { start: e.start, end: e.end }, newText: e.newText };
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
/** How many problems of one request are offered "Ignore FS-CODE on this line". */
const IGNORE_MAX = 5;
/** The longest text (UTF-16 units) whose problems are offered "Ignore FS-CODE on this line". */
const IGNORE_TEXT_MAX = 300_000;

export function codeActions(doc: FabledDocument, range: Span, problems: Problem[], ws?: Workspace): CodeActionData[] {
  const out: CodeActionData[] = [];
  try {
    const here = new Set<string>();
    const ignores: CodeActionData[] = [];
    const ignored = new Set<string>();
    let ignoreTries = 0;
    for (const p of problems) {
      if (!overlaps(p.span, range)) continue;
      here.add(p.code);
      out.push(...fixesFor(doc, p, ws));
      // Each "Ignore" reads the whole text twice (to be sure its comment is a comment): offered for
      // the first few problems of a range, and not in a text past IGNORE_TEXT_MAX (a generated or
      // hostile file of thousands of lines), so that the answer stays quick whatever is selected.
      if (++ignoreTries > IGNORE_MAX || doc.text.length > IGNORE_TEXT_MAX) continue;
      const ignore = ignoreOnLine(doc, p);
      if (ignore && !ignored.has(ignore.title + ignore.edits[0]!.span.start)) {
        ignored.add(ignore.title + ignore.edits[0]!.span.start);
        ignores.push(ignore);
      }
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
    if (ws) out.push(...battlePriceFix(doc, range, ws));
    // After the fixes: hiding a problem is the last resort.
    out.push(...ignores);
    out.push(...refactors(doc, range));
  } catch {
    // A failed fix must not take the other actions with it.
  }
  return out;
}

/**
 * "Ignore FS-CODE on this line": a `# fabled-star-disable-next-line FS-CODE` comment above the
 * problem's line, at its indentation (or the code added to such a comment already there). Not
 * offered where a comment cannot go (a line inside a block scalar's text): the edited text is read
 * back, and the fix is offered only when its comment hides the code on that line.
 */
function ignoreOnLine(doc: FabledDocument, p: Problem): CodeActionData | undefined {
  if (!(p.code in CODES) || p.code.startsWith('FS-DISABLE-')) return undefined;
  const text = doc.text;
  const starts = lineStarts(text);
  const line = lineOf(starts, p.span.start);
  const above = directivesIn(text, starts).find((d) => d.kind === 'next-line' && d.ownLine && d.line === line - 1 && d.codes.length > 0);
  let e: OffsetEdit;
  if (above) {
    const end = above.codes[above.codes.length - 1]!.span.end;
    e = offsetEdit(text, end, end, `, ${p.code}`);
  } else {
    const start = starts[line]!;
    const indent = /^[ \t]*/.exec(text.slice(start, lineEnd(text, start)))![0];
    e = offsetEdit(text, start, start, `${indent}# ${DIRECTIVE_MARK}-next-line ${p.code}\n`);
  }
  const after = applyEdit(text, e);
  const target = above ? line : line + 1;
  const hides = directivesIn(after).some((d) => d.kind === 'next-line' && d.line === target - 1 && d.codes.some((c) => c.code === p.code));
  if (!hides) return undefined;
  return { title: `Ignore ${p.code} on this line`, kind: 'quickfix', edits: [fromOffsets(doc, e)], problem: p };
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

/** The replacements a check offers for its problem, each a quick fix. */
function replacementFixes(doc: FabledDocument, p: Problem): CodeActionData[] {
  const out: CodeActionData[] = [];
  const reps = p.data?.replacements ?? [];
  const current = doc.text.slice(p.span.start, p.span.end);
  reps.forEach((r, i) => {
    const newText = fit(doc, p.span, r);
    if (newText === current) return;
    out.push({
      title: replaceTitle(p, r, current),
      kind: 'quickfix',
      edits: [edit(doc, p.span, newText)],
      problem: p,
      // One replacement, or the first of several when the check says it is the one to take (a dash: the em
      // dash). A cost is the designer's call: the estimate is offered, never applied by "fix all".
      isPreferred: i === 0 && (reps.length === 1 || p.data?.preferFirst === true) && p.code !== 'FS-POINTS-ESTIMATE',
    });
  });
  return out;
}

/** FS-STAT-MISSING: add the missing stats with placeholder values. */
function missingStatFixes(doc: FabledDocument, p: Problem, card: UnitCard | undefined): CodeActionData[] {
  const missing = (Array.isArray(p.data?.missing) ? (p.data.missing as string[]) : []).filter((s): s is StatName =>
    (STAT_ORDER as readonly string[]).includes(s),
  );
  const edit = card?.stats && missing.length ? addStats(doc, card.stats, missing) : undefined;
  if (!edit) return [];
  return [
    {
      title: `Add the missing ${noun(missing.length, 'stat')} ${missing.join(', ')} (placeholder values)`,
      kind: 'quickfix',
      edits: [edit],
      problem: p,
      isPreferred: true,
    },
  ];
}

/** FS-ABILITY-UNKNOWN: copy the ability's definition from another card that has it. */
function copyAbilityFixes(doc: FabledDocument, p: Problem, card: UnitCard | undefined, ws: Workspace | undefined): CodeActionData[] {
  const a = card?.abilities?.items.find((x) => within(x.span, p.span.start));
  const def = a && card && ws ? definedElsewhere(ws, card, a) : undefined;
  if (!a || !def || !card?.abilities) return [];
  // In a flow list ("abilities: [A, B]") the definition is a flow mapping, on the item's place.
  const flow = styleOf(doc.text, card.abilities).kind === 'flow';
  const scalar = flow ? flowScalar : yamlScalar;
  const pairs = [`name: ${scalar(def.ability.name.value!)}`];
  if (def.ability.text?.value) pairs.push(`text: ${scalar(def.ability.text.value)}`);
  if (def.ability.range?.value !== undefined) pairs.push(`range: ${def.ability.range.value}"`);
  const newText = flow ? `{${pairs.join(', ')}}` : pairs.join('\n' + ' '.repeat(a.span.start - lineStart(doc.text, a.span.start)));
  return [
    {
      title: `Copy the definition of ${def.ability.name.value} from ${def.card.name.value}`,
      kind: 'quickfix',
      edits: [edit(doc, { start: a.span.start, end: contentEnd(doc.text, a.span) }, newText)],
      problem: p,
      isPreferred: true,
    },
  ];
}

function fixesFor(doc: FabledDocument, p: Problem, ws?: Workspace): CodeActionData[] {
  if (p.data?.replacements?.length) return replacementFixes(doc, p);
  const out: CodeActionData[] = [];
  const card = cardsOf(doc).find((c) => within(c.span, p.span.start));
  switch (p.code) {
    case 'FS-STAT-MISSING':
      return missingStatFixes(doc, p, card);
    case 'FS-UNIVERSAL-RULE-CLASS': {
      const list = card?.abilities;
      const i = list ? list.items.findIndex((x) => within(x.span, p.span.start)) : -1;
      const a = list?.items[i];
      const del = list && a ? removeItem(doc.text, list, i) : undefined;
      if (a && del)
        out.push({
          title: `Remove ${a.name.value ?? 'this rule'}`,
          kind: 'quickfix',
          edits: [fromOffsets(doc, del)],
          problem: p,
          isPreferred: true,
        });
      break;
    }
    case 'FS-SLOTS-ABILITIES': {
      // Offer to remove each ability that takes a slot (universal class rules are free).
      const list = card?.abilities;
      list?.items.forEach((a, i) => {
        if (universalRule(a.name.value ?? '')) return;
        const del = removeItem(doc.text, list, i);
        if (del)
          out.push({
            title: `Remove the ability ${a.name.value ?? a.name.raw}`,
            kind: 'quickfix',
            edits: [fromOffsets(doc, del)],
            problem: p,
          });
      });
      break;
    }
    case 'FS-ABILITY-UNKNOWN':
      return copyAbilityFixes(doc, p, card, ws);
    case 'FS-SLOTS-WEAPONS':
    case 'FS-SLOTS-WEAPONS-UNDER':
      if (card) out.push(...weaponCountFixes(doc, card, p));
      break;
    case 'FS-FLEET-OVER':
      if (doc.kind === 'fleet' && ws) out.push(...fleetOverFixes(doc, p, ws));
      break;
    case 'FS-EMBARK-NO-BAY':
      if (doc.kind === 'fleet' && ws) out.push(...moveEmbarkedFixes(doc, p, ws));
      break;
    case 'FS-IMPORT-GUESS':
      if (doc.kind === 'fleet') out.push(...importGuessFixes(doc, p));
      break;
    case 'FS-IMPORT-UNREAD':
      if (doc.kind === 'fleet') out.push(...importUnreadFixes(doc, p));
      break;
    case 'FS-ORDER-UNREACHABLE': {
      const ld = card?.stats?.entries.LD?.value;
      const o = card?.orders?.items.find((x) => within(x.span, p.span.start));
      if (o?.difficulty && ld?.kind === 'targetDice') {
        out.push({
          title: `Lower the difficulty to ${ld.dice} (the LD dice)`,
          kind: 'quickfix',
          edits: [edit(doc, o.difficulty.span, String(ld.dice))],
          problem: p,
        });
      }
      break;
    }
  }
  return out;
}

/**
 * A name `import` read as the closest card: keep it (the note goes), or take another candidate the
 * note names (the name changes and the note goes). The note is removed with the spaces before it, so
 * the line ends at its value again.
 */
function importGuessFixes(doc: FleetDocument, p: Problem): CodeActionData[] {
  const note = guessNoteAt(doc.text, p.span.end);
  if (!note) return [];
  let from = note.start;
  while (from > p.span.end && /[ \t]/.test(doc.text[from - 1]!)) from--;
  const dropNote = edit(doc, { start: from, end: note.end }, '');
  const current = doc.text.slice(p.span.start, p.span.end);
  return [
    { title: `Keep ${current.trim()} (remove the import's note)`, kind: 'quickfix', edits: [dropNote], problem: p },
    ...note.others.map((c) => ({
      title: `Change to "${c}" (the import's other candidate)`,
      kind: 'quickfix' as const,
      edits: [edit(doc, p.span, fit(doc, p.span, c)), dropNote],
      problem: p,
    })),
  ];
}

/** A line `import` could not read: add the card it may mean (as many copies as the line asked for), the note goes. */
function importUnreadFixes(doc: FleetDocument, p: Problem): CodeActionData[] {
  const note = unreadNotes(doc.text).find((n) => n.start === p.span.start);
  if (!note) return [];
  const copies = copiesIn(note.text);
  const lines = wholeLines(doc.text, note.start, note.end);
  return note.candidates.flatMap((c) => {
    const add = addUnitEdit(doc, c, copies);
    if (!add || add.start < lines.end) return [];
    return [
      {
        title: `Add ${copies > 1 ? `${copies}\u00d7 ` : ''}${c} for line ${note.line} of the imported list`,
        kind: 'quickfix' as const,
        edits: [edit(doc, lines, ''), fromOffsets(doc, add)],
        problem: p,
      },
    ];
  });
}

/**
 * A card with more weapon systems than its class has: remove one (each offered). One with fewer:
 * add placeholder weapons in the rulebook's one-line form, in a range its class may use, after the
 * last one (or under an empty `weapons:`). Both through the edit layer, so block and flow lists,
 * comments and the file's line endings are kept.
 */
function weaponCountFixes(doc: FabledDocument, card: UnitCard, p: Problem): CodeActionData[] {
  const text = doc.text;
  const weapons = card.weapons;
  const row = card.class.value ? CLASSES[card.class.value] : undefined;
  if (!row || !weapons) return [];
  const items = weapons.items;
  if (p.code === 'FS-SLOTS-WEAPONS') {
    return items.flatMap((w, i) => {
      const e = removeItem(text, weapons, i);
      return e
        ? [
            {
              title: `Remove the weapon system ${w.name.value ?? w.name.raw} (the class has ${row.weapons})`,
              kind: 'quickfix' as const,
              edits: [fromOffsets(doc, e)],
              problem: p,
            },
          ]
        : [];
    });
  }
  const missing = row.weapons - items.length;
  if (missing <= 0) return [];
  // A placeholder range (the templates' 12"), within what small craft may use.
  const band = row.smallCraft ? SMALL_CRAFT_MAX_RANGE : 12;
  const weapon = (n: number) => `Weapon ${n} \u2014 ${WEAPON_TYPES[0]}, ${band}", 2, 3`;
  const names = Array.from({ length: missing }, (_, i) => weapon(items.length + i + 1));
  const indent = weapons.keySpan.start - lineStart(text, weapons.keySpan.start) + 2;
  const style = styleOf(text, weapons);
  // "weapons: []" (as the templates write it): a block list under the key reads best.
  const e =
    style.kind === 'flow' && items.length === 0 && text.slice(style.open + 1, style.close).trim() === ''
      ? offsetEdit(text, text.indexOf(':', weapons.keySpan.end) + 1, style.close + 1, names.map((n) => `\n${' '.repeat(indent)}- ${n}`).join(''))
      : appendItem(text, weapons, names.map((n) => `- ${n}`).join('\n'), names.map((n) => JSON.stringify(n)).join(', '), indent);
  if (!e) return [];
  const title = `Add ${missing === 1 ? 'a placeholder weapon system' : `${missing} placeholder weapon systems`} (the class has ${row.weapons})`;
  return [{ title, kind: 'quickfix', edits: [fromOffsets(doc, e)], problem: p }];
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
  totals.entries.forEach((ep, index) => {
    const name = ep.entry.unit.value ?? ep.entry.unit.raw;
    const count = ep.entry.count.value ?? 1;
    if (ep.each <= 0) return;
    // Fewest copies to drop (not on an entry an alias reads, which would change with it).
    const drop = Math.ceil(over / ep.each);
    const fewer = count > 1 && drop < count && doc.units?.items[index] === ep.entry ? countEdit(doc, index, count - drop) : undefined;
    if (fewer)
      options.push({
        left: limit - (totals.total - drop * ep.each),
        action: {
          title: `Field ${count - drop} ${name} instead of ${count} (−${drop * ep.each} pts)`,
          kind: 'quickfix',
          edits: [fromOffsets(doc, fewer)],
          problem: p,
        },
      });
    // The entry's own lines (or its comma in a flow list), as the Fleet view's Remove takes them.
    const del = ep.total >= over && doc.units?.items[index] === ep.entry ? removeEntryEdit(doc, index) : undefined;
    if (del)
      options.push({
        left: limit - (totals.total - ep.total),
        action: {
          title: `Remove ${count > 1 ? `${count}× ` : ''}${name} (−${ep.total} pts)`,
          kind: 'quickfix',
          edits: [fromOffsets(doc, del)],
          problem: p,
        },
      });
  });
  return options
    .sort((a, b) => a.left - b.left)
    .slice(0, 6)
    .map((o) => o.action);
}

/** Moves an embarked unit from a host without a bay to another entry whose bay has room for it. */
function moveEmbarkedFixes(doc: FleetDocument, p: Problem, ws: Workspace): CodeActionData[] {
  const entries = doc.units?.items ?? [];
  const fromIndex = entries.findIndex((e) => e.embark?.items.some((f) => within(f.span, p.span.start)));
  const from = entries[fromIndex];
  const itemIndex = from?.embark?.items.findIndex((f) => within(f.span, p.span.start)) ?? -1;
  const item = from?.embark?.items[itemIndex];
  if (!from?.embark || !item) return [];
  const faction = doc.faction.value;
  const carried = ws.card(item.value, faction, 'ownFirst');
  const cls = carried?.card.class.value;
  if (!cls) return [];
  const text = doc.text;
  const out: CodeActionData[] = [];
  // Taking the item off: the whole embark key, with its own lines, when it is the only one in a block list.
  const only = from.embark.items.length === 1 && styleOf(text, from.embark).kind === 'block';
  const off = only ? keyLines(text, from.embark.keySpan, from.embark.span) : disembarkEdit(doc, fromIndex, itemIndex);
  if (!off) return [];
  const removal = fromOffsets(doc, off);
  entries.forEach((host, hostIndex) => {
    if (host === from) return;
    const h = ws.card(host.unit.value, faction, 'own');
    if (!h) return;
    const cap = bayCapacity(h.card);
    const room =
      (cap.tierFighters > 0 && LAUNCH_BAY.tierCarries.includes(cls) ? cap.tierFighters : 0) +
      (cap.reserves > 0 && LAUNCH_BAY.carrierCarries.includes(cls) ? cap.reserves : 0) -
      (host.embark?.items.length ?? 0);
    if (room <= 0) return;
    const put = embarkEdit(doc, hostIndex, item.value ?? item.raw);
    if (!put) return;
    const add = fromOffsets(doc, put);
    if (overlapsEdit(add, removal) || add.span.start === removal.span.end || add.span.end === removal.span.start) return;
    out.push({
      title: `Move ${item.value} to ${host.unit.value}, which has room in its launch bay`,
      kind: 'quickfix',
      edits: [removal, add],
      problem: p,
    });
  });
  // One host with room: that is the fix.
  if (out.length === 1) out[0]!.isPreferred = true;
  return out;
}

/** A key with its value as whole lines (the comment lines after it stay), when the key starts its line. */
function keyLines(text: string, keySpan: Span, span: Span): OffsetEdit | undefined {
  if (text.slice(lineStart(text, keySpan.start), keySpan.start).trim() !== '') return undefined;
  const lines = wholeLines(text, keySpan.start, contentEnd(text, { start: keySpan.start, end: Math.max(span.end, keySpan.end) }));
  return { start: lines.start, end: lines.end, newText: '' };
}

function overlapsEdit(a: TextEdit, b: TextEdit): boolean {
  return a.span.start < b.span.end && b.span.start < a.span.end;
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
  const entries = STAT_ORDER.map((s) => block.entries[s]).filter((e) => !!e);
  if (block.form === 'line') {
    // Positional: only trailing stats can be appended; the string ends where the last token does.
    const last = entries[entries.length - 1];
    if (!last) return undefined;
    const trailing = STAT_ORDER.slice(STAT_ORDER.indexOf(last.stat) + 1);
    if (trailing.some((s) => !missing.includes(s))) return undefined;
    const sep = /\u00b7/.test(text.slice(block.span.start, block.span.end)) ? ' · ' : ' ';
    return edit(doc, { start: last.span.end, end: last.span.end }, trailing.map((s) => sep + placeholder(s)).join(''));
  }
  const value = afterColon(text, block.keySpan.end);
  if (value === undefined) return undefined;
  if (text[value] === '{') {
    // A flow mapping: the pairs go after the last stat (or into the empty braces).
    const pairs = missing.map((s) => `${s}: ${placeholder(s)}`);
    if (entries.length) {
      const lastEnd = Math.max(...entries.map((e) => e.span.end));
      return edit(doc, { start: lastEnd, end: lastEnd }, pairs.map((x) => `, ${x}`).join(''));
    }
    return /^\{[ \t]*\}/.test(text.slice(value)) ? edit(doc, { start: value + 1, end: text.indexOf('}', value) }, pairs.join(', ')) : undefined;
  }
  // A block mapping, or nothing yet after the key: each stat on a line of its own, after the last
  // stat's line (its comment stays on it), or under the key.
  if (value < lineEnd(text, value) && text[value] !== '#') return undefined;
  const last = entries.reduce<(typeof entries)[number] | undefined>((m, e) => (!m || e.span.end > m.span.end ? e : m), undefined);
  const at = lineEnd(text, last ? last.span.end : block.keySpan.end);
  const first = entries[0];
  const indent = first ? ' '.repeat(first.keySpan.start - lineStart(text, first.keySpan.start)) : indentOfNextLine(text, at, block.keySpan);
  return edit(doc, { start: at, end: at }, missing.map((s) => `\n${indent}${s}: ${placeholder(s)}`).join(''));
}

/** The first significant character after a key's colon (on the key's line), or undefined when there is no colon. */
function afterColon(text: string, keyEnd: number): number | undefined {
  let i = keyEnd;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] !== ':') return undefined;
  i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** The indentation of the key's first nested line when it has one, else two more than the key's. */
function indentOfNextLine(text: string, keyLineEnd: number, keySpan: Span): string {
  const keyCol = keySpan.start - lineStart(text, keySpan.start);
  const m = /^(?:\r\n|\r|\n)([ \t]*)[^\s#]/.exec(text.slice(keyLineEnd));
  return m && m[1]!.length > keyCol ? m[1]!.replace(/\t/g, ' ') : ' '.repeat(keyCol + 2);
}

// ------------------------------------------------------------------------------------------
// Refactors

/**
 * "Set points to the battle price (N)" on a card's points once Price by battle has measured it (the
 * price its lens and hover show): the figure paid a run for stays on offer after the notification
 * that first offered it is gone. Not when the points are that already.
 */
function battlePriceFix(doc: FabledDocument, range: Span, ws: Workspace): CodeActionData[] {
  const card = cardsOf(doc).find((c) => within(c.points.span, range.start) || within(c.points.keySpan, range.start));
  const span = card?.points.span;
  if (!card || !span || span.end <= span.start) return [];
  const m = measuredBattlePrice(card, ws);
  const n = m ? shownBattlePrice(m).price : undefined;
  if (n === undefined || card.points.value === n) return [];
  return [{ title: `Set points to the battle price (${n})`, kind: 'quickfix', edits: [edit(doc, span, String(n))] }];
}

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
    const keyCol = block.keySpan.start - lineStart(text, block.keySpan.start);
    const indent = ' '.repeat(keyCol + 2);
    const lines = present.map((e) => `${indent}${e.stat}: ${mappingValue(e.raw)}`);
    // A comment after the line goes up to the key's line, where it still says what it said.
    const end = contentEnd(text, { start: block.keySpan.end, end: valueEnd(block) });
    const rest = text.slice(end, lineEnd(text, end)).trim();
    const comment = rest.startsWith('#') ? ` ${rest}` : '';
    if (rest && !comment) return out;
    out.push({
      title: 'Write the stats as a mapping (one key per stat)',
      kind: 'refactor.rewrite',
      edits: [edit(doc, { start: block.keySpan.end, end: comment ? lineEnd(text, end) : end }, `:${comment}\n` + lines.join('\n'))],
    });
  } else if (entries.every((e) => e && e.raw)) {
    const oneLine = statLineEdit(doc, block, entries.map((e) => e!.raw).join(' '));
    if (oneLine) out.push({ title: 'Write the stats as one stat line', kind: 'refactor.rewrite', edits: [oneLine] });
  }
  return out;
}

/**
 * The mapping `block` rewritten as `stats: "<line>"`; its comments become comment lines above the
 * key (or below it, when something precedes the key on its line). Undefined when the mapping holds
 * anything a stat line cannot: a key that is not a stat (a homebrew stat), a stat twice.
 */
function statLineEdit(doc: FabledDocument, block: StatsBlock, line: string): TextEdit | undefined {
  const text = doc.text;
  const end = contentEnd(text, { start: block.keySpan.end, end: valueEnd(block) });
  const region = text.slice(block.keySpan.end, end);
  const comments = commentsIn(text, block.keySpan.end, end);
  let bare = region;
  for (const c of comments) bare = bare.replace(c, '');
  const keys = [...bare.matchAll(/(?:^|[\s{,])([^\s:,{}[\]#"']+)[ \t]*:(?=\s|$)/g)].map((m) => m[1]!);
  if (keys.length !== STAT_ORDER.length || new Set(keys).size !== keys.length || keys.some((k) => !(STAT_ORDER as readonly string[]).includes(k)))
    return undefined;
  const value = `: "${line.replace(/["\\]/g, '')}"`;
  if (!comments.length) return edit(doc, { start: block.keySpan.end, end }, value);
  const ls = lineStart(text, block.keySpan.start);
  const indent = ' '.repeat(block.keySpan.start - ls);
  if (text.slice(ls, block.keySpan.start).trim() === '') {
    const key = text.slice(block.keySpan.start, block.keySpan.end);
    return edit(doc, { start: ls, end }, comments.map((c) => `${indent}${c}\n`).join('') + indent + key + value);
  }
  return edit(doc, { start: block.keySpan.end, end }, value + comments.map((c) => `\n${indent}  ${c}`).join(''));
}

/** Where the stats value ends: the last entry's value, or the block's end. */
function valueEnd(block: StatsBlock): number {
  const ends = Object.values(block.entries).map((e) => e.span.end);
  return Math.max(block.span.end, ...ends);
}

/** A stat token as a mapping value: a bare "-" would be a YAML list marker, so it becomes the em dash. */
function mappingValue(raw: string): string {
  if (raw === '-' || raw === '–') return '—';
  return yamlScalar(raw);
}
