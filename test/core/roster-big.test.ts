/**
 * The Fleet view's roster of a big fleet stays small. 500 Carrier entries in a faction of
 * 2,000 cards (1,800 of them Fighters and Bombers its bays carry) answered 34 MB, every entry
 * carrying every choice; now each entry carries the first EMBARK_CHOICES_SHOWN (20) with the total, and
 * `embarkFor` asks for one entry's all.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import type { FleetDocument } from '../../server/src/core/model/types';
import { createFabledService } from '../../server/src/core/service';
import { EMBARK_CHOICES_SHOWN, rosterData } from '../../server/src/lsp/roster';
import { embarkChoices } from '../../server/src/core/roster/edits';

function bigFaction(): string {
  const out = ['faction: Bench', 'units:'];
  out.push(
    '  - name: Bench Carrier',
    '    class: Carrier',
    '    points: 300',
    '    stats: "6/3 5+ 9+ 10 5+ 11 5/3 6/3 7"',
    '    weapons:',
    '      - Lance — Energy, 18", 2, 2',
  );
  for (let i = 0; i < 1800; i++)
    out.push(
      `  - name: Wing ${i}`,
      `    class: ${i % 2 ? 'Bomber' : 'Fighter'}`,
      `    points: ${40 + (i % 30)}`,
      '    bases: 4',
      '    stats: "9/6 4+ 6+ - - 1 7/2 - -"',
      '    weapons:',
      '      - Darts — Energy, 6", 1, 1',
    );
  for (let i = 0; i < 199; i++)
    out.push(
      `  - name: Escort ${i}`,
      '    class: Escort',
      '    points: 50',
      '    stats: "9/6 5+ 7+ 2 6+ 2 6/2 6/2 2"',
      '    weapons:',
      '      - Gun — Energy, 12", 1, 2',
    );
  return out.join('\n') + '\n';
}

describe('roster of a big fleet', function () {
  this.timeout(120_000);
  const ws = new Workspace();
  ws.set('file:///bench/bench.unit.yaml', bigFaction());
  const units = Array.from({ length: 500 }, () => '  - unit: Bench Carrier\n    count: 1\n    embark: [Wing 0]\n').join('');
  const doc = ws.set('file:///bench/big.fleet.yaml', `name: Big\nfaction: Bench\npoints: 200000\nunits:\n${units}`) as FleetDocument;

  it('sends each entry the first choices with their total, and one entry all of them when asked', () => {
    const all = embarkChoices(doc, ws, 3);
    assert.ok(all.length >= 1800, `${all.length} choices`);
    const r = rosterData(createFabledService({ workspace: ws }), doc, () => undefined);
    assert.equal(r.entries.length, 500);
    for (const e of r.entries) {
      assert.equal(e.embarkChoices.length, EMBARK_CHOICES_SHOWN);
      assert.equal(e.embarkChoicesTotal, all.length);
    }
    // The first choices are the same as the full list's, fits and all.
    assert.deepEqual(
      r.entries[3]!.embarkChoices,
      all.slice(0, EMBARK_CHOICES_SHOWN).map((c) => ({ name: c.name, class: c.class, points: c.points, fits: c.fits })),
    );
    const size = JSON.stringify(r).length;
    assert.ok(size < 3e6, `the answer is ${(size / 1e6).toFixed(1)} MB`);
    const one = rosterData(createFabledService({ workspace: ws }), doc, () => undefined, { uri: doc.uri, embarkFor: 3 });
    assert.equal(one.entries[3]!.embarkChoices.length, all.length);
    assert.equal(one.entries[3]!.embarkChoicesTotal, undefined);
    assert.equal(one.entries[4]!.embarkChoices.length, EMBARK_CHOICES_SHOWN);
  });
});
