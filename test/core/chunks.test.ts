/**
 * Card-by-card parsing must give exactly what a whole-file parse gives (once checked), both for a
 * fresh text and for a text reached by edits with the cache warm.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseDocument, parseWhole, kindOfUri } from '../../server/src/core/model/parse';
import { ChunkCache, splitList } from '../../server/src/core/model/chunks';
import { checkDocument } from '../../server/src/core/check';
import type { FabledDocument } from '../../server/src/core/model/types';

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.(unit|faction)\.yaml$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

const root = path.join(__dirname, '..', '..');
const samples = [...files(path.join(root, 'examples')), ...files(path.join(__dirname, 'fixtures'))];

/** What a user sees of a document: its checked problems and its cards. */
function view(doc: FabledDocument | undefined) {
  assert.ok(doc && (doc.kind === 'unit' || doc.kind === 'faction'));
  return {
    problems: checkDocument(doc).map((p) => `${p.span.start}-${p.span.end} ${p.code} ${p.message}`),
    cards: doc.units.map(
      (c) =>
        `${c.name.value}@${c.span.start}-${c.span.end}:${c.class.value}:${c.points.value}:${Object.values(c.stats?.entries ?? {})
          .map((e) => `${e!.stat}=${e!.raw}@${e!.span.start}`)
          .join(',')}:${(c.weapons?.items ?? []).map((w) => `${w.name.value}/${w.range.value}@${w.range.span.start}`).join(',')}`,
    ),
  };
}

describe('card-by-card parsing', () => {
  for (const f of samples) {
    it(`${path.relative(root, f)} parses the same split and whole`, () => {
      const text = fs.readFileSync(f, 'utf8');
      const kind = kindOfUri(f)!;
      assert.deepEqual(view(parseDocument(f, text, kind, new ChunkCache())), view(parseWhole(f, text, kind)));
    });
  }

  it('splits the examples card files (so the fast path is what runs)', () => {
    const text = fs.readFileSync(path.join(root, 'examples/myr-valari/myr-valari.unit.yaml'), 'utf8');
    assert.equal(splitList(text)?.items.length, 10);
  });

  it('does not split files with anchors, flow lists or tabs', () => {
    assert.equal(splitList('faction: X\nunits:\n  - &a\n    name: A\n  - <<: *a\n'), undefined);
    assert.equal(splitList('faction: X\nunits: [{name: A}]\n'), undefined);
    assert.equal(splitList('faction: X\nunits:\n\t- name: A\n'), undefined);
  });

  it('edits with a warm cache give what a fresh parse gives (property)', () => {
    const base = fs.readFileSync(path.join(root, 'examples/myr-valari/myr-valari.unit.yaml'), 'utf8');
    const snippets = ['', 'x', '\n', '  - name: Extra\n', '  ', '#', ':', '- ', '"', '9"', 'class: Frigate\n', '    points: 1\n'];
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 40 }), ins: fc.constantFrom(...snippets) }), { minLength: 1, maxLength: 6 }),
        (edits) => {
          const cache = new ChunkCache();
          let text = base;
          parseDocument('a.unit.yaml', text, 'unit', cache);
          for (const e of edits) {
            const at = e.at % (text.length + 1);
            text = text.slice(0, at) + e.ins + text.slice(at + e.del);
            const warm = view(parseDocument('a.unit.yaml', text, 'unit', cache));
            const fresh = view(parseDocument('a.unit.yaml', text, 'unit', new ChunkCache()));
            assert.deepEqual(warm, fresh);
          }
        },
      ),
      { seed: 42, numRuns: 150 },
    );
  });
});
