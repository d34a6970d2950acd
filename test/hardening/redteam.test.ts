/**
 * The red-team review (issue 17): each attack that was reproduced, as a test that failed before
 * its fix. Figures for each case: `node --import tsx test/hardening/redteam-measure.ts`.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import fc from 'fast-check';
import { boundedDistance } from '../../server/src/core/model/suggest';
import { alikeName, longNameCardFiles, unknownEntriesFleet } from './redteam';

describe('red team (issue 17): did you mean', function () {
  this.timeout(120_000);

  it('2. checks a 500-entry fleet of unknown 900-character names against 2,000 cards of 900-character names within 5 s (it took minutes)', () => {
    const ws = new Workspace();
    longNameCardFiles().forEach((text, i) => ws.set(`file:///w/cards${i}.unit.yaml`, text));
    const fleet = ws.set('file:///w/red.fleet.yaml', unknownEntriesFleet())!;
    const t = performance.now();
    const problems = checkDocument(fleet, ws);
    const ms = performance.now() - t;
    assert.equal(problems.filter((p) => p.code === 'FS-UNIT-UNKNOWN').length, 500);
    assert.ok(ms < 5000, `took ${Math.round(ms)} ms`);
  });

  it('2. the same with names that all look alike, so that no cheap filter helps: bounded by the work budget', () => {
    const ws = new Workspace();
    longNameCardFiles(2000, 900, 500, 'Hostile', (i) => alikeName(900, i)).forEach((text, i) => ws.set(`file:///w/cards${i}.unit.yaml`, text));
    const fleet = ws.set(
      'file:///w/red.fleet.yaml',
      unknownEntriesFleet(500, 900, 'Hostile', (i) => alikeName(900, 5000 + i) + 'z'),
    )!;
    const t = performance.now();
    const problems = checkDocument(fleet, ws);
    const ms = performance.now() - t;
    const unknown = problems.filter((p) => p.code === 'FS-UNIT-UNKNOWN');
    assert.equal(unknown.length, 500);
    assert.ok(unknown[0]!.message.includes('did you mean'), 'the first entries still get suggestions');
    assert.ok(ms < 5000, `took ${Math.round(ms)} ms`);
  });

  it('2. the banded distance equals the full edit distance whenever it is within the bound', () => {
    const full = (a: string, b: string) => {
      let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
      return prev[b.length]!;
    };
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 14 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 16 }), (a, b, max) => {
        const d = full(a, b);
        assert.equal(boundedDistance(a, b, max), d <= max ? d : max + 1);
      }),
      { seed: 17, numRuns: 3000 },
    );
  });

  it('2. still suggests the near names of an ordinary typo', () => {
    const ws = new Workspace();
    ws.set('file:///w/c.unit.yaml', 'faction: F\nunits:\n  - name: Lance Destroyer\n    class: Destroyer\n  - name: Maw Frigate\n    class: Frigate\n');
    const fleet = ws.set('file:///w/f.fleet.yaml', 'name: X\nfaction: F\npoints: 500\nunits:\n  - unit: Lance Destroyr\n  - unit: maw frigat\n')!;
    const msgs = checkDocument(fleet, ws)
      .filter((p) => p.code === 'FS-UNIT-UNKNOWN')
      .map((p) => p.message);
    assert.deepEqual(msgs, ['No card named "Lance Destroyr"; did you mean "Lance Destroyer"?', 'No card named "maw frigat"; did you mean "Maw Frigate"?']);
  });
});
