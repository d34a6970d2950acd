/**
 * The card index is kept up to date document by document: after any sequence of edits,
 * additions, deletions and kind changes, every answer of the index equals that of an index built
 * afresh from the same documents in the same order. Random sequences (fast-check, fixed seed).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Workspace, type CardRef, type CardPolicy } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check/index';
import { dependents } from '../../server/src/core/features/workspaceQueries';

const URIS = ['a.unit.yaml', 'b.unit.yaml', 'c.faction.yaml', 'd.unit.yaml', 'e.fleet.yaml'].map((f) => `file:///ws/${f}`);
const NAMES = ['Lance', 'lance ', 'Spear', 'Twice', 'Only', ''];
const FACTIONS = ['Myr-Valari', 'myr-valari', 'Consumed', ''];

function unitText(faction: string, names: string[]): string {
  return (faction ? `faction: ${faction}\n` : '') + 'units:\n' + names.map((n) => `  - name: ${n}\n    class: Frigate\n    points: 40\n`).join('');
}

const fleetText = (names: string[]) => 'name: F\nfaction: Consumed\npoints: 500\nunits:\n' + names.map((n) => `  - unit: ${n}\n`).join('');

/** `closed`: read as a closed file is (kept as its text, parsed again on demand); `drop` lets go of those models. */
type Op = { kind: 'set'; uri: number; faction: string; names: string[]; fleet: boolean; closed: boolean } | { kind: 'delete'; uri: number } | { kind: 'drop' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      uri: fc.nat(URIS.length - 1),
      faction: fc.constantFrom(...FACTIONS),
      names: fc.array(fc.constantFrom(...NAMES), { maxLength: 5 }),
      fleet: fc.boolean(),
      closed: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), uri: fc.nat(URIS.length - 1) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'drop' as const }) },
);

function apply(ws: Workspace, op: Op): void {
  if (op.kind === 'drop') return ws.dropParsed();
  const uri = URIS[op.uri]!;
  if (op.kind === 'delete') return ws.delete(uri);
  const edits = op.closed ? 'unlikely' : 'expected';
  // A unit file given fleet text (or any file given another language) is read as that kind.
  if (op.fleet && !uri.endsWith('.fleet.yaml')) ws.set(uri, fleetText(op.names), 'fleet', edits);
  else if (uri.endsWith('.fleet.yaml') && !op.fleet) ws.set(uri, fleetText(op.names), undefined, edits);
  else ws.set(uri, unitText(op.faction, op.names), uri.endsWith('.fleet.yaml') ? 'unit' : undefined, edits);
}

/** A card as the index gives it; its summary (what lists of every card read) must say what the card says. */
const key = (r: CardRef) => {
  const c = r.card;
  assert.deepEqual(
    [r.name, r.cls, r.classRaw, r.points, r.nameSpan, r.span],
    [c.name.value, c.class.value, c.class.raw, c.points.value, c.name.span, c.span],
    'the summary of a card is the card',
  );
  return `${r.uri}|${r.faction}|${c.name.value}|${c.span.start}`;
};
const keys = (rs: CardRef[]) => rs.map(key);

function answers(ws: Workspace): unknown {
  const out: Record<string, unknown> = { all: keys(ws.allCards()), factions: ws.factions() };
  for (const f of [...FACTIONS, 'Nobody']) out[`cardsOf ${f}`] = keys(ws.cardsOf(f));
  for (const n of [...NAMES, 'Nothing']) {
    out[`find ${n}`] = keys(ws.findCards(n));
    for (const f of FACTIONS) {
      out[`find ${n} in ${f}`] = keys(ws.findCards(n, f));
      for (const p of ['own', 'ownFirst', 'opponent', 'unique'] as CardPolicy[]) {
        const r = ws.resolve({ name: n, faction: f }, p);
        out[`resolve ${n} ${f} ${p}`] = [r.ref && key(r.ref), keys(r.matches), keys(r.candidates)];
      }
    }
  }
  return out;
}

/** The same documents, added afresh in the same order. */
function fresh(ws: Workspace): Workspace {
  const w = new Workspace();
  for (const doc of ws.documents()) w.set(doc.uri, doc.text, doc.kind);
  return w;
}

describe('incremental card index', () => {
  it('after any sequence of changes, answers as an index built afresh', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 30 }), (ops) => {
        const ws = new Workspace();
        for (const op of ops) {
          apply(ws, op);
          // Asking between changes must not leave stale derived lists behind.
          ws.factions();
          ws.cardsOf('Consumed');
        }
        assert.deepEqual(answers(ws), answers(fresh(ws)));
      }),
      { seed: 14, numRuns: 300 },
    );
  });

  it('files added in any order after their places are reserved answer as when added in order (a scan indexes the open fleet\u2019s cards first)', () => {
    const docArb = fc.record({ faction: fc.constantFrom(...FACTIONS), names: fc.array(fc.constantFrom(...NAMES), { maxLength: 4 }), closed: fc.boolean() });
    fc.assert(
      fc.property(
        fc
          .array(docArb, { minLength: 1, maxLength: URIS.length })
          .chain((docs) =>
            fc.tuple(fc.constant(docs), fc.shuffledSubarray([...docs.keys()], { minLength: docs.length, maxLength: docs.length }), fc.nat(docs.length)),
          ),
        ([docs, order, already]) => {
          const text = (i: number) => unitText(docs[i]!.faction, docs[i]!.names);
          const uri = (i: number) => `file:///ws/u${i}.unit.yaml`;
          const add = (w: Workspace, i: number) => w.set(uri(i), text(i), 'unit', docs[i]!.closed ? 'unlikely' : 'expected');
          const inOrder = new Workspace();
          docs.forEach((_, i) => add(inOrder, i));
          const reserved = new Workspace();
          // Some documents are in before the scan (open ones): they keep their earlier places.
          for (let i = 0; i < already; i++) add(reserved, i);
          reserved.reserveOrder([...docs.map((_, i) => uri(i)), 'file:///ws/never.unit.yaml']);
          for (const i of order) add(reserved, i);
          reserved.settleOrder();
          assert.deepEqual(reserved.uris(), inOrder.uris());
          assert.deepEqual(answers(reserved), answers(inOrder));
          assert.equal(reserved.orderOf('file:///ws/never.unit.yaml'), undefined);
        },
      ),
      { seed: 28, numRuns: 300 },
    );
  });

  it('bumps the cards version for card changes only (the points-estimate field is kept across fleet edits)', () => {
    const ws = new Workspace();
    ws.set(URIS[0]!, unitText('Consumed', ['Lance']));
    ws.set(URIS[4]!, fleetText(['Lance']));
    const { version, cardsVersion } = ws;
    ws.set(URIS[4]!, fleetText(['Lance', 'Spear']));
    assert.equal(ws.cardsVersion, cardsVersion);
    assert.ok(ws.version > version);
    ws.set(URIS[0]!, unitText('Consumed', ['Lance', 'Spear']));
    assert.ok(ws.cardsVersion > cardsVersion);
    // A fleet turned card file (its language changed) may hold cards: a card change.
    const before = ws.cardsVersion;
    ws.set(URIS[4]!, unitText('Consumed', ['Only']), 'unit');
    assert.ok(ws.cardsVersion > before);
  });

  it('keeps the card objects of documents an edit did not touch', () => {
    const ws = new Workspace();
    ws.set(URIS[0]!, unitText('Consumed', ['Lance', 'Spear']));
    ws.set(URIS[1]!, unitText('Consumed', ['Twice']));
    const before = ws.findCards('Lance')[0]!;
    const other = ws.findCards('Twice')[0]!;
    ws.set(URIS[1]!, unitText('Consumed', ['Twice', 'Only']));
    assert.equal(ws.findCards('Lance')[0], before);
    assert.equal(ws.findCards('Twice')[0]!.card, other.card);
    assert.deepEqual(keys(ws.findCards('Only')), [`${URIS[1]}|Consumed|Only|${ws.findCards('Only')[0]!.card.span.start}`]);
  });

  it('updates only the edited document: an edit costs the same in a workspace of 5,000 card files as in one of 50', () => {
    const time = (files: number) => {
      const ws = new Workspace();
      for (let i = 0; i < files; i++) ws.set(`file:///ws/c${i}.unit.yaml`, unitText('Consumed', [`Card ${i}`]));
      ws.findCards('Card 1');
      let ops = 0;
      for (let i = 0; i < 200; i++) {
        ws.set('file:///ws/c0.unit.yaml', unitText('Consumed', [`Card 0 ${i}`]));
        ops += ws.findCards(`Card 0 ${i}`).length;
      }
      return ops;
    };
    // Not a timing assertion (speed lives in the bench): the index answers every edit at once.
    assert.equal(time(50), 200);
    assert.equal(time(5000), 200);
  });

  it('names, through the index, every other document whose problems a change can alter', () => {
    // The server re-checks a changed document's dependents only: any document whose checks answer
    // differently after a change must be among them (the points-estimate notes move separately).
    const problems = (ws: Workspace) => new Map(ws.documents().map((d) => [d.uri, JSON.stringify(checkDocument(d, ws))]));
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 20 }), (ops) => {
        const ws = new Workspace();
        for (const op of ops) {
          if (op.kind === 'drop') continue;
          const uri = URIS[op.uri]!;
          const was = problems(ws);
          const before = ws.get(uri);
          apply(ws, op);
          const deps = new Set(dependents(ws, uri, before, ws.get(uri)));
          for (const [u, now] of problems(ws)) {
            if (u === uri || !was.has(u)) continue;
            if (was.get(u) !== now) assert.ok(deps.has(u), `${u} changed after ${JSON.stringify(op)} but is not a dependent of ${uri}`);
          }
        }
      }),
      { seed: 14, numRuns: 300 },
    );
  });
});
