/**
 * The points estimate's reference field is kept up to date document by document: after
 * any sequence of card additions, edits, deletions and kind changes, `workspaceField` equals the
 * field built afresh from every document. Random sequences (fast-check, fixed seed), with enough
 * standard-cost cards across classes for the field to be capped, and names shared across files and
 * factions (which card a name's candidate is depends on document order).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { CLASSES, CLASS_NAMES } from '../../server/src/core/rules/data';
import { Workspace } from '../../server/src/core/workspace';
import { workspaceField, workspaceFieldAfresh } from '../../server/src/core/balance/index';
import type { ReferenceField } from '../../server/src/core/balance/index';

const URIS = Array.from({ length: 12 }, (_, i) => `file:///ws/f${i}.${i === 11 ? 'fleet' : i === 10 ? 'faction' : 'unit'}.yaml`);
const FACTIONS = ['Myr', 'myr', 'Consumed', ''];

interface Card {
  name: number;
  cls: number;
  standard: boolean;
  hp: number;
  attacks: number;
}

const cardArb: fc.Arbitrary<Card> = fc.record({
  name: fc.nat(30),
  cls: fc.nat(CLASS_NAMES.length - 1),
  // Mostly standard-cost, so that the field is often capped (more than 40 candidates).
  standard: fc.nat(3).map((n) => n > 0),
  hp: fc.integer({ min: 1, max: 6 }),
  attacks: fc.integer({ min: 0, max: 4 }),
});

function cardsText(faction: string, cards: Card[]): string {
  const units = cards.map((c) => {
    const cls = CLASS_NAMES[c.cls]!;
    const points = CLASSES[cls].points + (c.standard ? 0 : 5);
    return [
      `  - name: Card ${c.name}`,
      `    class: ${cls}`,
      `    points: ${points}`,
      `    stats: "6/6 4+ 5+ 1 6+ ${c.hp} 6/3 7/2 3"`,
      '    weapons:',
      `      - Gun — Energy, 12", 1, ${c.attacks}`,
    ].join('\n');
  });
  return [...(faction ? [`faction: ${faction}`] : []), 'units:', ...units, ''].join('\n');
}

/**
 * A change to one file: new text (cards, or fleet text), or none (the file is deleted); `closed`:
 * read as a closed file is (kept as its text, its models let go of at once, so the field must not
 * need them).
 */
interface Op {
  uri: number;
  text?: { faction: string; cards: Card[]; fleet: boolean };
  closed?: boolean;
}

const textArb = fc.record({ faction: fc.constantFrom(...FACTIONS), cards: fc.array(cardArb, { maxLength: 24, size: 'large' }), fleet: fc.boolean() });
// One change in six deletes the file.
const opArb: fc.Arbitrary<Op> = fc
  .tuple(fc.nat(URIS.length - 1), fc.nat(5), textArb, fc.boolean())
  .map(([uri, die, text, closed]) => (die === 0 ? { uri } : { uri, text, closed }));

function apply(ws: Workspace, op: Op): void {
  const uri = URIS[op.uri]!;
  const t = op.text;
  if (!t) return ws.delete(uri);
  const edits = op.closed ? 'unlikely' : 'expected';
  // A card file given fleet text (or a fleet file given card text) is read as that kind.
  if (t.fleet && t.cards.length % 3 === 0) ws.set(uri, 'name: F\nfaction: Consumed\npoints: 500\nunits:\n  - unit: Card 1\n', 'fleet', edits);
  else ws.set(uri, cardsText(t.faction, t.cards), uri.endsWith('.fleet.yaml') ? 'unit' : undefined, edits);
  if (op.closed) ws.dropParsed();
}

/** Everything a field says, but its figure memo (which fills as cards are estimated). */
function view(f: ReferenceField): unknown {
  const { memo: _memo, index, ...rest } = f;
  return { ...rest, index: [...index] };
}

describe('incremental points-estimate field', () => {
  it('after any sequence of changes, equals the field built afresh', function () {
    // 80 runs of a property over whole fields: about 15 s on an idle core, a minute on a shared one.
    this.timeout(240_000);
    let capped = 0;
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40, size: 'large' }), fc.array(fc.boolean(), { maxLength: 40, size: 'large' }), (ops, asks) => {
        const ws = new Workspace();
        ops.forEach((op, i) => {
          apply(ws, op);
          // Asking between changes (or not) must give the same as asking once at the end.
          if (asks[i]) assert.deepStrictEqual(view(workspaceField(ws)), view(workspaceFieldAfresh(ws)));
        });
        const field = workspaceField(ws);
        if (field.available > field.members.length) capped++;
        assert.deepStrictEqual(view(field), view(workspaceFieldAfresh(ws)));
        assert.equal(workspaceField(ws), field, 'kept while the cards are unchanged');
      }),
      { seed: 1414, numRuns: 80 },
    );
    assert.ok(capped >= 8, `the field was capped in ${capped} runs only`);
  });

  it('catches up after more changes than the workspace remembers', () => {
    const ws = new Workspace();
    const cards = (k: number): Card[] => CLASS_NAMES.map((_, c) => ({ name: k * 10 + c, cls: c, standard: true, hp: 1 + (k % 5), attacks: 1 + (k % 3) }));
    ws.set(URIS[0]!, cardsText('Myr', cards(0)));
    workspaceField(ws);
    for (let k = 0; k < 1500; k++) ws.set(URIS[1 + (k % 9)]!, cardsText(k % 2 ? 'Myr' : 'Consumed', cards(k)));
    assert.deepStrictEqual(view(workspaceField(ws)), view(workspaceFieldAfresh(ws)));
    assert.ok(workspaceField(ws).members.length > 10);
  });
});
