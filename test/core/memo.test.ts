/** Values kept on model objects (server/src/core/model/memo.ts): found again, and invisible to everything else. */
import { strict as assert } from 'node:assert';
import { getMemo, memo, setMemo } from '../../server/src/core/model/memo';
import { parseDocument } from '../../server/src/core/model/parse';
import { ChunkCache } from '../../server/src/core/model/chunks';
import { estimateCard, bundledCards, fieldFor, newEstimates } from '../../server/src/core/balance/index';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

const TEXT =
  'faction: Myr\nunits:\n  - name: Lance\n    class: Frigate\n    points: 40\n    stats: "6/6 4+ 5+ 1 6+ 3 6/3 7/2 3"\n    weapons:\n      - Gun — Energy, 12", 1, 2\n';

describe('memo on model objects', () => {
  it('gives back what was kept, per key, and nothing for another object or key', () => {
    const a = memo<number>('a');
    const b = memo<string>('b');
    const o = {};
    assert.equal(getMemo(o, a), undefined);
    setMemo(o, a, 1);
    setMemo(o, b, 'x');
    setMemo(o, a, 2);
    assert.equal(getMemo(o, a), 2);
    assert.equal(getMemo(o, b), 'x');
    assert.equal(getMemo({}, a), undefined);
    assert.equal(getMemo(o, memo<number>('a')), undefined, 'two memos of one name are two keys');
  });

  it('a card that kept estimates still equals a fresh parse of its text, and prints the same JSON', () => {
    const doc = parseDocument('file:///a.unit.yaml', TEXT, 'unit', new ChunkCache())!;
    const fresh = parseDocument('file:///a.unit.yaml', TEXT, 'unit', new ChunkCache())!;
    const card = doc.kind === 'unit' ? doc.units[0]! : undefined;
    assert.ok(card);
    const e1 = estimateCard(card, 'Myr', fieldFor(bundledCards(), estimates));
    assert.equal(estimateCard(card, 'Myr', fieldFor(bundledCards(), estimates)), e1, 'kept on the card');
    assert.deepStrictEqual(doc, fresh);
    assert.equal(JSON.stringify(doc), JSON.stringify(fresh));
    assert.deepEqual(Object.keys(card), Object.keys(fresh.kind === 'unit' ? fresh.units[0]! : {}));
  });
});
