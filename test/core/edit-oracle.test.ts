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
import { Workspace } from '../../server/src/core/workspace';
import type { FleetDocument } from '../../server/src/core/model/types';
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
  const ws = new Workspace();
  ws.set('file:///ws/cards/myr.unit.yaml', MYR_UNITS);
  ws.set('file:///ws/cards/extra.unit.yaml', EXTRA_CARDS);
  return ws;
}

interface GenEntry {
  name: string;
  form: 'scalar' | 'map' | 'flowmap';
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
  list: 'block' | 'flow' | 'flowLines';
  dashIndent: number;
  tabAfterDash: boolean;
  trailingComma: boolean;
  headComment: boolean;
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
    // A bare name has no count or embark; only a bare name carries an anchor here.
    const scalar = e.form === 'scalar';
    return {
      ...e,
      form: e.form as GenEntry['form'],
      count: scalar ? 1 : e.count,
      embark: scalar || !e.embark ? undefined : { names: e.embark.names, style: e.embark.style as 'block' | 'flow' },
      inner: scalar ? false : e.inner,
      anchor: scalar ? e.anchor : false,
    };
  });

const fleetArb: fc.Arbitrary<GenFleet> = fc.record({
  eol: fc.constantFrom<Eol>('\n', '\r\n', '\r'),
  bom: fc.boolean(),
  finalBreak: fc.boolean(),
  list: fc.constantFrom<GenFleet['list']>('block', 'block', 'flow', 'flowLines'),
  dashIndent: fc.constantFrom(0, 2),
  tabAfterDash: fc.boolean(),
  trailingComma: fc.boolean(),
  headComment: fc.boolean(),
  tail: fc.constantFrom<GenFleet['tail']>('none', 'comment', 'objectives'),
  entries: fc.array(entryArb, { minLength: 1, maxLength: 5 }),
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
  push('name: Oracle Fleet', -1);
  push('faction: Myr-Valari', -1);
  push('points: 2000', -1);
  const flowEntry = (e: GenEntry, i: number): string => {
    const anchor = e.anchor ? `&a${i} ` : '';
    if (e.form === 'scalar') return `${anchor}${flowName(e.name)}`;
    const parts = [`unit: ${flowName(e.name)}`];
    if (e.count !== 1) parts.push(`count: ${e.count}`);
    if (e.embark) parts.push(`embark: [${e.embark.names.map(flowName).join(', ')}]`);
    return `{${parts.join(', ')}}`;
  };
  if (g.list === 'flow') {
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
    const sep = g.tabAfterDash ? '\t' : ' ';
    const k = ' '.repeat(g.dashIndent + 2);
    g.entries.forEach((e, i) => {
      const inline = () => (e.inline ? `  ${comment(i)}` : '');
      if (e.form === 'scalar') push(`${d}-${sep}${e.anchor ? `&a${i} ` : ''}${yamlScalar(e.name)}${inline()}`, i);
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
  if (g.tail === 'objectives') {
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
  switch (op.op) {
    case 'add': {
      const i = m.findIndex((e) => same(e.name, op.name) && e.embark.length === 0);
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

function splitLines(text: string, eol: Eol): string[] {
  return text.replace(/^\uFEFF/, '').split(eol);
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

function check(ws: Workspace, g: GenFleet, op: Op): void {
  const r = render(g);
  const doc = ws.set('file:///ws/fleets/oracle.fleet.yaml', r.text) as FleetDocument;
  const errorsBefore = doc.problems.filter((p) => p.severity === 'error').map((p) => p.code);
  assert.deepEqual(errorsBefore, [], `the generated fleet reads:\n${JSON.stringify(r.text)}`);
  assert.deepEqual(
    readEntries(doc),
    g.entries.map((e) => ({ name: e.name, count: e.count, embark: e.embark?.names ?? [] })),
    'the generated fleet reads as generated',
  );
  const want = expected(g, op);
  const edit = editFor(doc, op);
  if (!want) {
    assert.equal(edit, undefined, 'an edit of nothing');
    return;
  }
  assert.ok(edit, `no edit for ${JSON.stringify(op)} in:\n${JSON.stringify(r.text)}`);
  const text = applyEdit(r.text, edit);
  const ctx = `${JSON.stringify(op)}\nbefore: ${JSON.stringify(r.text)}\nafter:  ${JSON.stringify(text)}`;
  const after = ws.set('file:///ws/fleets/oracle.fleet.yaml', text) as FleetDocument;
  // Readable, and it means what the user asked for.
  assert.deepEqual(
    after.problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.message}`),
    [],
    ctx,
  );
  assert.deepEqual(readEntries(after), want.entries, ctx);
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
  if (g.list === 'flow') region = own('list');
  else if (want.target >= 0) region = own(want.target);
  else if (g.list === 'flowLines') region = own(g.entries.length - 1);
  else region = [Math.max(...own(g.entries.length - 1)) + 0.5];
  const t0 = Math.ceil(Math.min(...region));
  const t1 = Math.floor(Math.max(...region));
  const tail = b.length - 1 - t1;
  assert.deepEqual(a.slice(0, t0), b.slice(0, t0), `a line before the target's changed: ${ctx}`);
  assert.deepEqual(a.slice(a.length - tail), b.slice(b.length - tail), `a line after the target's changed: ${ctx}`);
  assert.ok(a.length - tail >= t0, ctx);
  if (want.removes && g.list === 'block') {
    // Exactly the entry's own lines go, nothing else.
    const kept = r.lines.filter((l) => l.owner !== want.target).map((l) => l.text);
    const trim = (s: string) => (s.endsWith(g.eol) ? s.slice(0, -g.eol.length) : s);
    assert.equal(trim(text), (g.bom ? '\uFEFF' : '') + kept.join(g.eol), ctx);
  }
  // Every comment not on a removed entry's own lines stays, once.
  const ids = commentIds(text);
  for (const [id, owner] of r.comments) {
    if (want.removes && owner === want.target) continue;
    if (want.removes && owner === 'list' && g.list === 'flow') continue;
    assert.equal(ids.get(id), 1, `comment ${id} lost: ${ctx}`);
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
});
