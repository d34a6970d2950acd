/**
 * Regressions found by the hardening work: quadratic duplicate checks, unclipped messages, split
 * and whole parses disagreeing after a broken head, rule checks on a file that was not read.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import { parseDocument, parseWhole } from '../../server/src/core/model/parse';
import { ChunkCache } from '../../server/src/core/model/chunks';
import { bound, describeBound } from './bounds';

const view = (ps: { span: { start: number; end: number }; code: string }[]) => ps.map((p) => `${p.span.start}-${p.span.end} ${p.code}`);

describe('owner: lead', () => {
  it('A. checks one file of a workspace holding 40,000 cards of one name (20 files x 2,000) within 2 s', function () {
    this.timeout(60_000);
    const ws = new Workspace();
    for (let f = 0; f < 20; f++)
      ws.set(`file:///w/f${f}.unit.yaml`, 'faction: X\nunits:\n' + '  - name: Same\n    class: Fighter\n    points: 60\n'.repeat(2000));
    const t = performance.now();
    checkDocument(ws.get('file:///w/f0.unit.yaml')!, ws);
    const ms = performance.now() - t;
    const limit = bound(2000);
    assert.ok(ms < limit, `took ${Math.round(ms)} ms; the bound is ${describeBound(2000, limit)}`);
  });

  it('B. keeps every message under 1,000 characters, however long the names in the file', () => {
    const long = `Long${'\n    word'.repeat(4_000)}`;
    const ws = new Workspace();
    const doc = ws.set('file:///w/f.fleet.yaml', `name: F\nfaction: ${long}\npoints: 500\nunits:\n  - unit: Nobody\n`)!;
    for (const p of checkDocument(doc, ws)) assert.ok(p.message.length <= 1000, `${p.code}: ${p.message.length} characters`);
  });

  for (const [what, text] of <[string, string][]>[
    ['an indented first key', '  faction: Fuzz\nunits:\n  - name: A\n    class: Destroyer\n'],
    ['an unclosed quote before units:', "faction: 'Fuzz\nunits:\n  - name: A\n    class: Destroyer\n"],
  ]) {
    it(`C. parses a card file with ${what} the same split and whole`, () => {
      const split = parseDocument('file:///a.unit.yaml', text, 'unit', new ChunkCache())!;
      const whole = parseWhole('file:///a.unit.yaml', text, 'unit');
      assert.deepEqual(view(checkDocument(split)), view(checkDocument(whole)));
    });
  }

  it('D. says only why about a Command Board it could not read', () => {
    for (const text of [`faction: X\nfactionAbility: ${'['.repeat(200)}\n`, 'faction: X\u0000\n']) {
      const codes = checkDocument(parseDocument('file:///a.faction.yaml', text)!).map((p) => p.code);
      assert.deepEqual(
        codes.filter((c) => !/^FS-YAML-/.test(c)),
        [],
        JSON.stringify(text.slice(0, 30)),
      );
    }
  });
});
