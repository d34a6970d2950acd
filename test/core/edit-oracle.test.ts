/**
 * The edit oracle (#24): over generated fleets and cards written in every style people write
 * (comments between and inside entries, block and flow lists, anchors, LF, CRLF and lone-CR line
 * endings, tabs after dashes, a byte order mark, no final line break, names past ASCII), each edit
 * the tools make (the Fleet view's Add, Remove all / one, Embark, Disembark; the quick fixes and
 * refactors) leaves the document readable, means what it says (the entries read back as
 * expected), changes only its target's lines, keeps the file's line ending, and keeps every
 * comment not on a removed entry's own lines.
 *
 * The generator knows which lines are whose, so the oracle does not ask the code under test.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import YAML from 'yaml';
import type { Workspace } from '../../server/src/core/workspace';
import { workspaceOf } from '../helpers';
import type { FabledDocument, FleetDocument, Problem } from '../../server/src/core/model/types';
import { applyEdits } from '../../server/src/core/model/edit';
import { checkDocument } from '../../server/src/core/check';
import { codeActions, type CodeActionData } from '../../server/src/core/features/codeActions';
import { complete } from '../../server/src/core/features/completion';
import { addUnitEdit, applyEdit, disembarkEdit, embarkEdit, removeEntryEdit, type OffsetEdit } from '../../server/src/core/roster/edits';
import { yamlScalar } from '../../server/src/core/features/shared';
import { MYR_UNITS } from '../protocol/fixtures';
import { propertySettings } from './property-settings';

type Eol = '\n' | '\r\n' | '\r';

/** Cards with names past ASCII and one YAML would misread, beside the fixture's. */
const EXTRA_CARDS = `faction: Myr-Valari
units:
  - name: Ærith Lancer Ω
    class: Destroyer
    points: 140
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Gun — Energy, 12", 2, 3
  - name: "Star: Breaker #1"
    class: Frigate
    points: 90
    stats: "9/6 5+ 7+ 3 6+ 3 6/3 7/2 2"
    weapons:
      - Gun — Energy, 12", 2, 3
  - name: 星影 Runner 🚀
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 — 1"
    weapons:
      - Gun — Auto, 9", 1, 3
`;

const NAMES = ['Lumen Destroyer', 'Lumen Cruiser', 'Shardlight Escort', 'Ærith Lancer Ω', 'Star: Breaker #1', '星影 Runner 🚀'];
const WINGS = ['Veilwing Fighter Wing', 'Lumen Bomber Wing'];

function workspace(): Workspace {
  return workspaceOf({ 'file:///ws/cards/myr.unit.yaml': MYR_UNITS, 'file:///ws/cards/extra.unit.yaml': EXTRA_CARDS });
}

interface GenEntry {
  name: string;
  /** `alias`: `- *aK`, reading as entry `aliasOf` (which carries the anchor `&aK`). */
  form: 'scalar' | 'map' | 'flowmap' | 'alias';
  aliasOf?: number;
  count: number;
  embark: { names: string[]; style: 'block' | 'flow' } | undefined;
  anchor: boolean;
  inline: boolean;
  inner: boolean;
  /** Comment lines after the entry (block and multi-line flow lists), each at one of these columns. */
  after: number[];
}

interface GenFleet {
  eol: Eol;
  bom: boolean;
  finalBreak: boolean;
  /** The units list's style; `flowRoot`: the whole fleet one flow mapping; `none`, `noneFlow`: no units key yet. */
  list: 'block' | 'flow' | 'flowLines' | 'flowRoot' | 'none' | 'noneFlow';
  dashIndent: number;
  /** What follows a dash: a space, a tab, or several spaces. */
  afterDash: ' ' | '\t' | '   ';
  trailingComma: boolean;
  headComment: boolean;
  /** The points limit (the fixes' runs set it low, so that the fleet is over it). */
  points?: number;
  tail: 'none' | 'comment' | 'objectives';
  entries: GenEntry[];
}

const entryArb: fc.Arbitrary<GenEntry> = fc
  .record({
    name: fc.constantFrom(...NAMES),
    form: fc.constantFrom('scalar', 'map', 'map', 'flowmap'),
    count: fc.constantFrom(1, 1, 2, 3),
    embark: fc.option(fc.record({ names: fc.array(fc.constantFrom(...WINGS), { minLength: 1, maxLength: 2 }), style: fc.constantFrom('block', 'flow') }), {
      nil: undefined,
    }),
    anchor: fc.boolean(),
    inline: fc.boolean(),
    inner: fc.boolean(),
    after: fc.array(fc.constantFrom(0, 2, 4), { maxLength: 2 }),
  })
  .map((e) => {
    // A bare name has no count or embark; a bare name or a flow mapping carries an anchor here.
    const scalar = e.form === 'scalar';
    return {
      ...e,
      form: e.form as GenEntry['form'],
      count: scalar ? 1 : e.count,
      embark: scalar || !e.embark ? undefined : { names: e.embark.names, style: e.embark.style as 'block' | 'flow' },
      inner: scalar ? false : e.inner,
      anchor: scalar || e.form === 'flowmap' ? e.anchor : false,
    };
  });

const fleetArb: fc.Arbitrary<GenFleet> = fc
  .record({
    eol: fc.constantFrom<Eol>('\n', '\r\n', '\r'),
    bom: fc.boolean(),
    finalBreak: fc.boolean(),
    list: fc.constantFrom<GenFleet['list']>('block', 'block', 'block', 'flow', 'flowLines', 'flowLines', 'flowRoot', 'none', 'noneFlow'),
    dashIndent: fc.constantFrom(0, 2),
    afterDash: fc.constantFrom<GenFleet['afterDash']>(' ', ' ', '\t', '   '),
    trailingComma: fc.boolean(),
    headComment: fc.boolean(),
    tail: fc.constantFrom<GenFleet['tail']>('none', 'comment', 'objectives'),
    entries: fc.array(entryArb, { minLength: 1, maxLength: 5 }),
    alias: fc.boolean(),
  })
  .map(({ alias, ...g }) => {
    if (g.list === 'none' || g.list === 'noneFlow') return { ...g, entries: [] };
    // An alias of the first anchored entry, at the end.
    const k = g.entries.findIndex((e) => e.anchor);
    if (!alias || k < 0) return g;
    const copy: GenEntry = { ...g.entries[k]!, form: 'alias', aliasOf: k, anchor: false, inline: false, inner: false, after: [] };
    return { ...g, entries: [...g.entries, copy] };
  });

interface Line {
  text: string;
  /** The entry whose own line it is (-1: none of them; 'list': a one-line flow list holds them all). */
  owner: number | 'list';
}

interface Rendered {
  text: string;
  lines: Line[];
  /** Comment ids with the entry whose own line holds them (-1 for none). */
  comments: Map<string, number | 'list'>;
}

/** A name as written in a flow collection. */
function flowName(s: string): string {
  const plain = yamlScalar(s);
  return plain.startsWith('"') || !/[,[\]{}]/.test(plain) ? plain : JSON.stringify(s);
}

function render(g: GenFleet): Rendered {
  const lines: Line[] = [];
  const comments = new Map<string, number | 'list'>();
  let n = 0;
  const comment = (owner: number | 'list') => {
    const id = `c${++n}`;
    comments.set(id, owner);
    return `# ${id}`;
  };
  const push = (text: string, owner: number | 'list') => lines.push({ text, owner });
  if (g.headComment) push(comment(-1), -1);
  const flowRoot = g.list === 'flowRoot' || g.list === 'noneFlow';
  if (!flowRoot) {
    push('name: Oracle Fleet', -1);
    push('faction: Myr-Valari', -1);
    push(`points: ${g.points ?? 2000}`, -1);
  }
  const flowEntry = (e: GenEntry, i: number): string => {
    if (e.form === 'alias') return `*a${e.aliasOf}`;
    const anchor = e.anchor ? `&a${i} ` : '';
    if (e.form === 'scalar') return `${anchor}${flowName(e.name)}`;
    const parts = [`unit: ${flowName(e.name)}`];
    if (e.count !== 1) parts.push(`count: ${e.count}`);
    if (e.embark) parts.push(`embark: [${e.embark.names.map(flowName).join(', ')}]`);
    return `${anchor}{${parts.join(', ')}}`;
  };
  if (flowRoot) {
    const units = g.list === 'flowRoot' ? `, units: [${g.entries.map(flowEntry).join(', ')}${g.trailingComma ? ',' : ''}]` : '';
    push(
      `{name: Oracle Fleet, faction: Myr-Valari, points: ${g.points ?? 2000}${units}}${g.entries.some((e) => e.inline) ? ` ${comment('list')}` : ''}`,
      'list',
    );
  } else if (g.list === 'none') {
    // No units yet.
  } else if (g.list === 'flow') {
    const items = g.entries.map(flowEntry).join(', ');
    push(`units: [${items}${g.trailingComma ? ',' : ''}]${g.entries.some((e) => e.inline) ? ` ${comment('list')}` : ''}`, 'list');
  } else if (g.list === 'flowLines') {
    push(`units: [${g.headComment ? ` ${comment(-1)}` : ''}`, -1);
    g.entries.forEach((e, i) => {
      const last = i === g.entries.length - 1;
      const comma = !last || g.trailingComma ? ',' : '';
      push(`  ${flowEntry(e, i)}${comma}${e.inline ? ` ${comment(i)}` : ''}`, i);
      for (const col of e.after) push(`${' '.repeat(Math.max(2, col))}${comment(-1)}`, -1);
    });
    push(']', -1);
  } else {
    push(`units:${g.headComment ? ` ${comment(-1)}` : ''}`, -1);
    const d = ' '.repeat(g.dashIndent);
    const sep = g.afterDash;
    const k = ' '.repeat(g.dashIndent + 1 + sep.length);
    g.entries.forEach((e, i) => {
      const inline = () => (e.inline ? `  ${comment(i)}` : '');
      if (e.form === 'alias') push(`${d}-${sep}*a${e.aliasOf}${inline()}`, i);
      else if (e.form === 'scalar') push(`${d}-${sep}${e.anchor ? `&a${i} ` : ''}${yamlScalar(e.name)}${inline()}`, i);
      else if (e.form === 'flowmap') push(`${d}-${sep}${flowEntry(e, i)}${inline()}`, i);
      else {
        push(`${d}-${sep}unit: ${yamlScalar(e.name)}${inline()}`, i);
        // Between the entry's keys (a comment after its last key is after the entry, not in it).
        if (e.inner && (e.count !== 1 || e.embark)) push(`${k}${comment(i)}`, i);
        if (e.count !== 1) push(`${k}count: ${e.count}`, i);
        if (e.embark?.style === 'flow') push(`${k}embark: [${e.embark.names.map(flowName).join(', ')}]`, i);
        else if (e.embark) {
          push(`${k}embark:`, i);
          for (const x of e.embark.names) push(`${k}  - ${yamlScalar(x)}`, i);
        }
      }
      for (const col of e.after) push(`${' '.repeat(col)}${comment(-1)}`, -1);
    });
  }
  if (g.tail === 'comment') push(comment(-1), -1);
  if (g.tail === 'objectives' && flowRoot) push(comment(-1), -1);
  else if (g.tail === 'objectives') {
    push(comment(-1), -1);
    push('objectives: 5', -1);
  }
  const text = (g.bom ? '\uFEFF' : '') + lines.map((l) => l.text).join(g.eol) + (g.finalBreak ? g.eol : '');
  return { text, lines, comments };
}

type Op =
  | { op: 'add'; name: string }
  | { op: 'remove'; index: number; copies: 'all' | 'one' }
  | { op: 'embark'; index: number; name: string }
  | { op: 'disembark'; index: number; embarked: number };

const opArb = (g: GenFleet): fc.Arbitrary<Op> => {
  if (g.entries.length === 0) return fc.record({ op: fc.constant('add' as const), name: fc.constantFrom(...NAMES) });
  const i = fc.integer({ min: 0, max: g.entries.length - 1 });
  return fc.oneof(
    fc.record({ op: fc.constant('add' as const), name: fc.constantFrom(...NAMES) }),
    fc.record({ op: fc.constant('remove' as const), index: i, copies: fc.constantFrom<'all' | 'one'>('all', 'one') }),
    fc.record({ op: fc.constant('embark' as const), index: i, name: fc.constantFrom(...WINGS) }),
    fc.record({ op: fc.constant('disembark' as const), index: i, embarked: fc.integer({ min: 0, max: 1 }) }),
  );
};

interface Model {
  name: string;
  count: number;
  embark: string[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The entries after the op, as the user means it; `target` is the entry whose lines may change (-1: none). */
function expected(g: GenFleet, op: Op): { entries: Model[]; target: number; removes: boolean } | undefined {
  const m: Model[] = g.entries.map((e) => ({ name: e.name, count: e.count, embark: [...(e.embark?.names ?? [])] }));
  // An alias and the entry it reads are not edited (the change would be to both, or dangle).
  const alias = g.entries.findIndex((e) => e.form === 'alias');
  const fixed = new Set(alias >= 0 ? [alias, g.entries[alias]!.aliasOf!] : []);
  if (op.op !== 'add' && fixed.has(op.index)) return undefined;
  switch (op.op) {
    case 'add': {
      const i = m.findIndex((e, k) => same(e.name, op.name) && e.embark.length === 0 && !fixed.has(k));
      if (i >= 0) {
        m[i]!.count++;
        return { entries: m, target: i, removes: false };
      }
      m.push({ name: op.name, count: 1, embark: [] });
      return { entries: m, target: -1, removes: false };
    }
    case 'remove': {
      if (op.copies === 'one' && m[op.index]!.count > 1) {
        m[op.index]!.count--;
        return { entries: m, target: op.index, removes: false };
      }
      m.splice(op.index, 1);
      return { entries: m, target: op.index, removes: true };
    }
    case 'embark':
      m[op.index]!.embark.push(op.name);
      return { entries: m, target: op.index, removes: false };
    case 'disembark':
      if (op.embarked >= m[op.index]!.embark.length) return undefined;
      m[op.index]!.embark.splice(op.embarked, 1);
      return { entries: m, target: op.index, removes: false };
  }
}

function editFor(doc: FleetDocument, op: Op): OffsetEdit | undefined {
  switch (op.op) {
    case 'add':
      return addUnitEdit(doc, op.name);
    case 'remove':
      return removeEntryEdit(doc, op.index, op.copies);
    case 'embark':
      return embarkEdit(doc, op.index, op.name);
    case 'disembark':
      return disembarkEdit(doc, op.index, op.embarked);
  }
}

/** The lines of a text (a final line break ends the last line, it does not start another). */
function splitLines(text: string, eol: Eol): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(eol);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Every comment id in the text, with how often it appears. */
function commentIds(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/# (c\d+)\b/g)) out.set(m[1]!, (out.get(m[1]!) ?? 0) + 1);
  return out;
}

function readEntries(doc: FleetDocument): Model[] {
  return (doc.units?.items ?? []).map((e) => ({
    name: e.unit.value ?? '',
    count: e.count.value ?? 1,
    embark: (e.embark?.items ?? []).map((x) => x.value ?? ''),
  }));
}

/** What an edit should leave: the entries, the entries whose lines may change, whether it removes `targets[0]`. */
interface Want {
  entries: Model[];
  targets: number[];
  removes: boolean;
}

function readFleet(ws: Workspace, g: GenFleet): { r: Rendered; doc: FleetDocument } {
  const r = render(g);
  const doc = ws.set('file:///ws/fleets/oracle.fleet.yaml', r.text) as FleetDocument;
  // A fleet without units yet says so (FS-MISSING-FIELD); nothing else is wrong with it.
  const errorsBefore = doc.problems.filter((p) => p.severity === 'error' && p.code !== 'FS-MISSING-FIELD').map((p) => p.code);
  assert.deepEqual(errorsBefore, [], `the generated fleet reads:\n${JSON.stringify(r.text)}`);
  assert.deepEqual(
    readEntries(doc),
    g.entries.map((e) => ({ name: e.name, count: e.count, embark: e.embark?.names ?? [] })),
    'the generated fleet reads as generated',
  );
  return { r, doc };
}

function check(ws: Workspace, g: GenFleet, op: Op): void {
  const { r, doc } = readFleet(ws, g);
  const want = expected(g, op);
  const edit = editFor(doc, op);
  if (!want) {
    assert.equal(edit, undefined, 'an edit of nothing');
    return;
  }
  assert.ok(edit, `no edit for ${JSON.stringify(op)} in:\n${JSON.stringify(r.text)}`);
  verify(
    ws,
    g,
    r,
    applyEdit(r.text, edit),
    { entries: want.entries, targets: want.target >= 0 ? [want.target] : [], removes: want.removes },
    JSON.stringify(op),
  );
}

/** The oracle: `text` (the edited fleet) against what `want` says it should be. */
function verify(ws: Workspace, g: GenFleet, r: Rendered, text: string, want: Want, what: string): void {
  const ctx = `${what}\nbefore: ${JSON.stringify(r.text)}\nafter:  ${JSON.stringify(text)}`;
  const after = ws.set('file:///ws/fleets/oracle.fleet.yaml', text) as FleetDocument;
  // Readable, and it means what the user asked for.
  assert.deepEqual(
    after.problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.message}`),
    [],
    ctx,
  );
  assert.deepEqual(readEntries(after), want.entries, ctx);
  // A second YAML parser reads it the same (after making lone CRs the line breaks YAML says they are),
  // when it read the text before (it refuses a tab after a dash that starts a mapping, which ours reads).
  if (YAML.parseDocument(r.text.replace(/\r\n?/g, '\n')).errors.length === 0)
    assert.deepEqual(otherParser(text), want.entries, `the yaml package reads it otherwise: ${ctx}`);
  // The file's line ending, its byte order mark.
  if (g.eol === '\n') assert.ok(!text.includes('\r'), `a CR in an LF file: ${ctx}`);
  if (g.eol === '\r') assert.ok(!text.includes('\n'), `an LF in a CR file: ${ctx}`);
  if (g.eol === '\r\n') assert.ok(!/\r(?!\n)|(?<!\r)\n/.test(text), `a lone CR or LF in a CRLF file: ${ctx}`);
  assert.equal(text.startsWith('\uFEFF'), g.bom, ctx);
  assert.ok(!text.slice(1).includes('\uFEFF'), ctx);
  // Only the target's lines change: the text is the lines before the target's, something, and the lines after them.
  const b = splitLines(r.text, g.eol);
  const a = splitLines(text, g.eol);
  const own = (owner: number | 'list') => r.lines.flatMap((l, i) => (l.owner === owner ? [i] : []));
  let region: number[];
  if (g.list === 'flow' || g.list === 'flowRoot' || g.list === 'noneFlow') region = own('list');
  else if (g.list === 'none') region = [b.length - 0.5];
  else if (want.targets.length) region = want.targets.flatMap((t) => own(t));
  else if (g.list === 'flowLines') region = own(g.entries.length - 1);
  else region = [Math.max(...own(g.entries.length - 1)) + 0.5];
  const t0 = Math.ceil(Math.min(...region));
  const t1 = Math.floor(Math.max(...region));
  const tail = b.length - 1 - t1;
  assert.deepEqual(a.slice(0, t0), b.slice(0, t0), `a line before the target's changed: ${ctx}`);
  assert.deepEqual(a.slice(a.length - tail), b.slice(b.length - tail), `a line after the target's changed: ${ctx}`);
  assert.ok(a.length - tail >= t0, ctx);
  const removed = want.removes ? want.targets[0] : undefined;
  if (removed !== undefined && g.list === 'block') {
    // Exactly the entry's own lines go, nothing else.
    const kept = r.lines.filter((l) => l.owner !== removed).map((l) => l.text);
    const trim = (s: string) => (s.endsWith(g.eol) ? s.slice(0, -g.eol.length) : s);
    assert.equal(trim(text), (g.bom ? '\uFEFF' : '') + kept.join(g.eol), ctx);
  }
  // Every comment not on a removed entry's own lines stays, once.
  const ids = commentIds(text);
  for (const [id, owner] of r.comments) {
    if (removed !== undefined && owner === removed) continue;
    if (removed !== undefined && owner === 'list' && (g.list === 'flow' || g.list === 'flowRoot')) continue;
    assert.equal(ids.get(id), 1, `comment ${id} lost: ${ctx}`);
  }
}

/** The fleet's entries as the `yaml` package reads them (an independent parser). */
function otherParser(text: string): Model[] {
  const doc = YAML.parseDocument(text.replace(/\r\n?/g, '\n'));
  assert.deepEqual(
    doc.errors.map((e) => e.message),
    [],
    'the yaml package cannot read it',
  );
  const units = (doc.toJS() as { units?: unknown } | null)?.units;
  if (!Array.isArray(units)) return [];
  return units.map((u: unknown) => {
    if (typeof u === 'string') return { name: u, count: 1, embark: [] };
    const m = u as { unit: string; count?: number; embark?: string[] | string | null };
    return { name: m.unit, count: m.count ?? 1, embark: m.embark == null ? [] : Array.isArray(m.embark) ? m.embark : [m.embark] };
  });
}

/** Whether `f` passes the oracle (for a fix whose target is found among candidates). */
function passes(f: () => void): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The fleet's quick fixes (FS-FLEET-OVER: remove an entry or field fewer; FS-EMBARK-NO-BAY: move
 * an embarked unit to a host with room): each must pass the oracle as one of the edits it may be.
 */
function checkFixes(ws: Workspace, g: GenFleet, tried: Map<string, number>): void {
  const { r, doc } = readFleet(ws, g);
  const problems = checkDocument(doc, ws);
  const base = (): Model[] => g.entries.map((e) => ({ name: e.name, count: e.count, embark: [...(e.embark?.names ?? [])] }));
  const n = g.entries.length;
  for (const p of problems.filter((x) => x.code === 'FS-FLEET-OVER' || x.code === 'FS-EMBARK-NO-BAY')) {
    // "Ignore FS-CODE on this line" writes a comment, no roster edit (test/core/suppression.test.ts).
    for (const a of codeActions(doc, p.span, [p], ws).filter((x) => !x.title.startsWith('Ignore '))) {
      const kind = a.title.split(' ')[0]!;
      tried.set(kind, (tried.get(kind) ?? 0) + 1);
      const text = applyEdits(
        r.text,
        a.edits.map((e) => ({ start: e.span.start, end: e.span.end, newText: e.newText })),
      );
      const candidates: Want[] = [];
      for (let i = 0; i < n; i++) {
        const m = base();
        m.splice(i, 1);
        candidates.push({ entries: m, targets: [i], removes: true });
        for (let c = 1; c < g.entries[i]!.count; c++) {
          const k = base();
          k[i]!.count = c;
          candidates.push({ entries: k, targets: [i], removes: false });
        }
        for (let j = 0; j < (g.entries[i]!.embark?.names.length ?? 0); j++)
          for (let h = 0; h < n; h++) {
            if (h === i) continue;
            const k = base();
            const [x] = k[i]!.embark.splice(j, 1);
            k[h]!.embark.push(x!);
            candidates.push({ entries: k, targets: [i, h], removes: false });
          }
      }
      const why = candidates.map((w) => passes(() => verify(ws, g, r, text, w, a.title)));
      assert.ok(
        why.some((x) => x === undefined),
        `"${a.title}" is none of the edits it may be:\n${why.find((x) => x && !/Expected values to be strictly deep-equal:\n\+ actual/.test(x)) ?? why[0]}`,
      );
    }
  }
}

describe('the edit oracle: every roster edit over fleets in every style people write', () => {
  const ws = workspace();
  it('leaves the fleet readable and as asked, changes only its target’s lines, keeps line endings and comments', () => {
    fc.assert(
      fc.property(
        fleetArb.chain((g) => fc.tuple(fc.constant(g), opArb(g))),
        ([g, op]) => check(ws, g, op),
      ),
      propertySettings(600, 24_2026),
    );
  });
  it('so do the fleet’s quick fixes: Remove and Field fewer (over the limit), Move (an embarked unit without a bay)', () => {
    const tried = new Map<string, number>();
    fc.assert(
      fc.property(fleetArb, (g) => checkFixes(ws, { ...g, points: 400 }, tried)),
      propertySettings(300, 24_2028),
    );
    for (const kind of ['Remove', 'Field', 'Move']) assert.ok((tried.get(kind) ?? 0) >= 20, `${kind}: tried ${tried.get(kind) ?? 0} times`);
  });
});

// ---------------------------------------------------------------------------------------------
// Cards: the quick fixes and refactors on a card's stats and abilities

const STAT_VALUES: [string, string][] = [
  ['M', '9/6'],
  ['BS', '5+'],
  ['D', '7+'],
  ['SH', '4'],
  ['AC', '6+'],
  ['HP', '5'],
  ['LD', '6/3'],
  ['CR', '7/2'],
  ['T', '3'],
];

interface GenCard {
  eol: Eol;
  bom: boolean;
  finalBreak: boolean;
  form: 'mapping' | 'flow' | 'line';
  /** Which stats are written (mapping forms), or how many leading ones (line form). */
  present: boolean[];
  lineCount: number;
  /** A comment after each stat line (mapping), and comment lines between them. */
  inlineComments: boolean[];
  between: boolean[];
  keyComment: boolean;
  homebrew: boolean;
  /** A rule of another class (Dogfighters on a Destroyer), with comments around it. */
  misfit: boolean;
  abilityComments: boolean;
  abilitiesFlow: boolean;
  afterStats: boolean;
}

const cardArb: fc.Arbitrary<GenCard> = fc.record({
  eol: fc.constantFrom<Eol>('\n', '\r\n', '\r'),
  bom: fc.boolean(),
  finalBreak: fc.boolean(),
  form: fc.constantFrom<GenCard['form']>('mapping', 'mapping', 'flow', 'line'),
  present: fc.oneof(
    fc.constant(Array.from({ length: 9 }, () => true)),
    fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }).map((p) => p.map((x, i) => x || i % 3 === 0)),
  ),
  lineCount: fc.integer({ min: 6, max: 9 }),
  inlineComments: fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
  between: fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
  keyComment: fc.boolean(),
  homebrew: fc.boolean(),
  misfit: fc.boolean(),
  abilityComments: fc.boolean(),
  abilitiesFlow: fc.boolean(),
  afterStats: fc.boolean(),
});

interface RenderedCard {
  text: string;
  lines: string[];
  /** Line indices of the stats key and its value; of the misfit rule's own line. */
  stats: [number, number];
  misfit: number | undefined;
  comments: Map<string, 'stats' | 'misfit' | 'other'>;
}

function renderCard(g: GenCard): RenderedCard {
  const lines: string[] = [];
  const comments = new Map<string, 'stats' | 'misfit' | 'other'>();
  let n = 0;
  const comment = (where: 'stats' | 'misfit' | 'other') => {
    const id = `k${++n}`;
    comments.set(id, where);
    return `# ${id}`;
  };
  lines.push('faction: Myr-Valari', 'units:', '  - name: Oracle Ship', '    class: Destroyer', '    points: 145');
  const s0 = lines.length;
  if (g.form === 'line') {
    const tokens = STAT_VALUES.slice(0, g.lineCount).map(([, v]) => v);
    lines.push(`    stats: "${tokens.join(' ')}"${g.keyComment ? ` ${comment('stats')}` : ''}`);
  } else if (g.form === 'flow') {
    const pairs = STAT_VALUES.filter((_s, i) => g.present[i]).map(([k, v]) => `${k}: ${v}`);
    if (g.homebrew) pairs.push('Q: 9');
    lines.push(`    stats: {${pairs.join(', ')}}${g.keyComment ? ` ${comment('stats')}` : ''}`);
  } else {
    lines.push(`    stats:${g.keyComment ? ` ${comment('stats')}` : ''}`);
    STAT_VALUES.forEach(([k, v], i) => {
      if (!g.present[i]) return;
      if (g.between[i] && lines.length > s0 + 1) lines.push(`      ${comment('stats')}`);
      lines.push(`      ${k}: ${v}${g.inlineComments[i] ? `  ${comment('stats')}` : ''}`);
    });
    if (g.homebrew) lines.push('      Q: 9');
  }
  const s1 = lines.length - 1;
  if (g.afterStats) lines.push(`    ${comment('other')}`);
  lines.push('    weapons:', '      - Gun — Energy, 12", 2, 3');
  let misfit: number | undefined;
  if (g.abilitiesFlow) {
    // One line holds them all: its comment is the list's, and stays.
    if (g.misfit) misfit = lines.length;
    lines.push(`    abilities: [Hit & Run${g.misfit ? ', Dogfighters' : ''}]${g.abilityComments ? ` ${comment('other')}` : ''}`);
  } else lines.push('    abilities:', '      - Hit & Run');
  if (g.misfit && !g.abilitiesFlow) {
    if (g.abilityComments) lines.push(`      ${comment('other')}`);
    misfit = lines.length;
    lines.push(`      - Dogfighters${g.abilityComments ? `  ${comment('misfit')}` : ''}`);
    if (g.abilityComments) lines.push(`      ${comment('other')}`);
  }
  lines.push(`  # ${'end'}`);
  const text = (g.bom ? '\uFEFF' : '') + lines.join(g.eol) + (g.finalBreak ? g.eol : '');
  return { text, lines, stats: [s0, s1], misfit, comments };
}

function statsOf(doc: FabledDocument): Record<string, unknown> {
  const card = doc.kind === 'unit' || doc.kind === 'faction' ? doc.units[0] : undefined;
  return Object.fromEntries(Object.entries(card?.stats?.entries ?? {}).map(([k, e]) => [k, e?.value]));
}

function checkCard(ws: Workspace, g: GenCard, tried: Map<string, number>): void {
  const r = renderCard(g);
  const uri = 'file:///ws/cards/oracle.unit.yaml';
  const doc = ws.set(uri, r.text)!;
  assert.deepEqual(
    doc.problems.filter((p) => p.code.startsWith('FS-YAML') && p.severity === 'error'),
    [],
    JSON.stringify(r.text),
  );
  const problems = checkDocument(doc, ws);
  const card = doc.kind === 'unit' || doc.kind === 'faction' ? doc.units[0] : undefined;
  assert.ok(card?.stats, JSON.stringify(r.text));
  // Every action at the stats (the refactors, the missing-stat fix) and the misfit rule's fix.
  const at = (p: Problem | undefined, range: { start: number; end: number }) => codeActions(doc, range, p ? [p] : problems, ws);
  const actions: { a: CodeActionData; kind: 'stats' | 'misfit' }[] = [];
  for (const a of at(undefined, { start: card.stats.keySpan.start, end: card.stats.keySpan.start })) actions.push({ a, kind: 'stats' });
  const missing = problems.find((p) => p.code === 'FS-STAT-MISSING');
  if (missing) for (const a of at(missing, missing.span)) if (/missing/.test(a.title)) actions.push({ a, kind: 'stats' });
  const misfit = problems.find((p) => p.code === 'FS-UNIVERSAL-RULE-CLASS');
  if (g.misfit) {
    assert.ok(misfit, 'the misfit rule is flagged');
    const fix = at(misfit, misfit.span).find((a) => /^Remove Dogfighters/.test(a.title));
    assert.ok(fix, 'the misfit rule can be removed');
    actions.push({ a: fix, kind: 'misfit' });
  }
  // The refactor to one stat line is offered only when the mapping holds nothing a line cannot.
  const toLine = actions.find((x) => /one stat line/.test(x.a.title));
  if (g.form !== 'line' && (g.homebrew || g.present.some((p) => !p))) assert.equal(toLine, undefined, `offered over ${JSON.stringify(r.text)}`);
  for (const { a, kind } of actions) {
    const what = /^Add the missing/.test(a.title) ? 'Add the missing stats' : a.title;
    tried.set(what, (tried.get(what) ?? 0) + 1);
    const text = applyEdits(
      r.text,
      a.edits.map((e) => ({ start: e.span.start, end: e.span.end, newText: e.newText })),
    );
    const ctx = `${a.title}\nbefore: ${JSON.stringify(r.text)}\nafter:  ${JSON.stringify(text)}`;
    const after = ws.set(uri, text)!;
    assert.deepEqual(
      after.problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.message}`),
      [],
      ctx,
    );
    if (g.eol === '\n') assert.ok(!text.includes('\r'), `a CR in an LF file: ${ctx}`);
    if (g.eol === '\r') assert.ok(!text.includes('\n'), `an LF in a CR file: ${ctx}`);
    if (g.eol === '\r\n') assert.ok(!/\r(?!\n)|(?<!\r)\n/.test(text), `a lone CR or LF in a CRLF file: ${ctx}`);
    assert.equal(text.startsWith('\uFEFF'), g.bom, ctx);
    // A second YAML parser reads it too.
    assert.deepEqual(
      YAML.parseDocument(text.replace(/\r\n?/g, '\n')).errors.map((e) => e.message),
      [],
      `the yaml package cannot read it: ${ctx}`,
    );
    // Only the target's lines: the stats' (a comment line may go above the key), or the misfit rule's.
    const b = splitLines(r.text, g.eol);
    const l = splitLines(text, g.eol);
    const [t0, t1] = kind === 'stats' ? r.stats : [r.misfit!, r.misfit!];
    const tail = b.length - 1 - t1;
    assert.deepEqual(l.slice(0, t0), b.slice(0, t0), `a line before the target's changed: ${ctx}`);
    assert.deepEqual(l.slice(l.length - tail), b.slice(b.length - tail), `a line after the target's changed: ${ctx}`);
    // Every comment stays, once (the removed rule's own line's may go with it); so does a homebrew stat.
    const ids = new Map<string, number>();
    for (const m of text.matchAll(/# (k\d+)\b/g)) ids.set(m[1]!, (ids.get(m[1]!) ?? 0) + 1);
    for (const [id, where] of r.comments) if (!(kind === 'misfit' && where === 'misfit')) assert.equal(ids.get(id), 1, `comment ${id} lost: ${ctx}`);
    if (g.homebrew && g.form !== 'line') assert.match(text, /\bQ: 9\b/, `the homebrew stat lost: ${ctx}`);
    // And it does what it says.
    if (/missing/.test(a.title)) assert.equal(checkDocument(after, ws).filter((p) => p.code === 'FS-STAT-MISSING').length, 0, ctx);
    else if (kind === 'stats') assert.deepEqual(statsOf(after), statsOf(doc), ctx);
    else assert.ok(!/Dogfighters/.test(text) && /Hit & Run/.test(text), ctx);
  }
}

describe('the edit oracle: every quick fix and refactor over cards in every style people write', () => {
  const ws = workspace();
  it('leaves the card readable and as asked, changes only its target’s lines, keeps line endings, comments and homebrew keys', () => {
    const tried = new Map<string, number>();
    fc.assert(
      fc.property(cardArb, (g) => checkCard(ws, g, tried)),
      propertySettings(300, 24_2027),
    );
    // Each kind of action was tried on many cards.
    for (const what of ['Write the stats as one stat line', 'Write the stats as a mapping (one key per stat)', 'Add the missing stats', 'Remove Dogfighters'])
      assert.ok((tried.get(what) ?? 0) >= 20, `${what}: tried ${tried.get(what) ?? 0} times (${JSON.stringify([...tried])})`);
  });
});

describe('the quick fixes and refactors in the cases #24 found', () => {
  const ws = workspace();
  const uri = 'file:///ws/cards/case.unit.yaml';
  const head = 'faction: Myr-Valari\nunits:\n  - name: Case Ship\n    class: Destroyer\n    points: 145\n';
  const tail = '    weapons:\n      - Gun — Energy, 12", 2, 3\n';
  const refactor = (text: string) => {
    const doc = ws.set(uri, text)!;
    const off = text.indexOf('stats:');
    return codeActions(doc, { start: off, end: off }, []).find((a) => a.kind === 'refactor.rewrite');
  };
  const stats = 'M: 9/6\n      BS: 5+\n      D: 7+\n      SH: 4\n      AC: 6+\n      HP: 5\n      LD: 6/3\n      CR: 7/2\n      T: 3';

  it('"Write the stats as one stat line" keeps the mapping’s comments, as comment lines above the key', () => {
    const text = `${head}    stats: # the hull\n      ${stats.replace('SH: 4', 'SH: 4 # shields up')}\n      # crew below\n${tail}`;
    const a = refactor(text);
    assert.ok(a && /one stat line/.test(a.title));
    const after = applyEdits(
      text,
      a.edits.map((e) => ({ start: e.span.start, end: e.span.end, newText: e.newText })),
    );
    assert.equal(after, `${head}    # the hull\n    # shields up\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n      # crew below\n${tail}`);
  });

  it('"Write the stats as one stat line" is not offered over a homebrew stat (Q: 9), which a line cannot hold', () => {
    assert.equal(refactor(`${head}    stats:\n      ${stats}\n      Q: 9\n${tail}`), undefined);
    assert.equal(refactor(`${head}    stats: {M: 9/6, BS: 5+, D: 7+, SH: 4, AC: 6+, HP: 5, LD: 6/3, CR: 7/2, T: 3, Q: 9}\n${tail}`), undefined);
  });

  it('"Add the missing stat" writes the file’s line ending (CRLF) and keeps the last stat’s comment on its line', () => {
    const text = `${head}    stats:\n      ${stats.replace('\n      T: 3', ' # crew')}\n${tail}`.replace(/\n/g, '\r\n');
    const doc = ws.set(uri, text)!;
    const p = checkDocument(doc, ws).find((x) => x.code === 'FS-STAT-MISSING')!;
    const a = codeActions(doc, p.span, [p], ws).find((x) => /missing/.test(x.title))!;
    const after = applyEdits(
      text,
      a.edits.map((e) => ({ start: e.span.start, end: e.span.end, newText: e.newText })),
    );
    assert.match(after, /\r\n {6}CR: 7\/2 # crew\r\n {6}T: —\r\n {4}weapons:/);
    assert.ok(!/(?<!\r)\n/.test(after));
  });
});

describe('completion templates go in with the file’s line ending', () => {
  for (const eol of ['\r\n', '\r'] as const) {
    it(`a card template and a list key in a ${JSON.stringify(eol)} file`, () => {
      const ws = workspace();
      const text = `faction: Myr-Valari${eol}units:${eol}  - `;
      const doc = ws.set('file:///ws/cards/new.unit.yaml', text)!;
      const items = complete(doc, ws, text, text.length).items;
      const multi = items.filter((i) => /[\r\n]/.test(i.insertText));
      assert.ok(multi.length > 0, items.map((i) => i.label).join(', '));
      for (const i of multi)
        assert.equal(i.insertText.replace(/\r\n|\r|\n/g, '|'), i.insertText.split(eol).join('|'), `${i.label}: ${JSON.stringify(i.insertText)}`);
    });
  }
});

describe('copying an ability’s definition from another card', () => {
  const card = (name: string, abilities: string) =>
    `faction: Myr-Valari\nunits:\n  - name: ${name}\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - Gun — Energy, 12", 2, 3\n    abilities: ${abilities}\n`;
  for (const [style, list, expect] of [
    ['a flow list', '[Hit & Run, Ember Shroud]', '[Hit & Run, {name: Ember Shroud, text: "Enemies get -1 BS, always."}]'],
    [
      'a block list, CRLF',
      '\n      - Ember Shroud  # from the codex\n      - Hit & Run',
      '\n      - name: Ember Shroud\n        text: "Enemies get -1 BS, always."  # from the codex\n      - Hit & Run',
    ],
  ] as const) {
    it(`in ${style}: the definition in that list’s style, the file still readable`, () => {
      const ws = workspace();
      ws.set('file:///ws/cards/def.unit.yaml', card('Definer', '\n      - name: Ember Shroud\n        text: "Enemies get -1 BS, always."'));
      const eol = style.includes('CRLF') ? '\r\n' : '\n';
      const text = card('Copier', list).replace(/\n/g, eol);
      const doc = ws.set('file:///ws/cards/copy.unit.yaml', text)!;
      const problems = checkDocument(doc, ws);
      const p = problems.find((x) => x.code === 'FS-ABILITY-UNKNOWN')!;
      assert.ok(p, problems.map((x) => x.code).join(', '));
      const a = codeActions(doc, p.span, problems, ws).find((x) => /^Copy the definition/.test(x.title))!;
      const after = applyEdits(
        text,
        a.edits.map((e) => ({ start: e.span.start, end: e.span.end, newText: e.newText })),
      );
      assert.equal(after, card('Copier', expect).replace(/\n/g, eol));
      // Readable, and no error that was not there before (the two abilities take more slots than a Destroyer has).
      const errors = (ps: Problem[]) => ps.filter((x) => x.severity === 'error' && x.code !== 'FS-ABILITY-UNKNOWN').map((x) => `${x.code} ${x.message}`);
      const fixed = ws.set('file:///ws/cards/copy.unit.yaml', after)!;
      assert.deepEqual(errors(checkDocument(fixed, ws)), errors(problems));
      assert.ok(!checkDocument(fixed, ws).some((x) => x.code === 'FS-ABILITY-UNKNOWN'));
    });
  }
});
