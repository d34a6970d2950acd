/**
 * Merge keys (`<<: *base`) nested past what the reader follows: the keys merged beyond the limit
 * are not read, and the file says so at the outermost merge (FS-YAML-LIMIT) instead of reading a
 * value silently as missing.
 */
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/core/workspace';
import { checkDocument } from '../../server/src/core/check';
import type { UnitDocument } from '../../server/src/core/model/types';

/** A card file whose card merges `levels` mappings deep, the deepest giving its points. */
function deepMerge(levels: number): string {
  const lines = ['faction: Testers', 'x-base0: &b0', '  points: 145'];
  for (let i = 1; i < levels; i++) lines.push(`x-base${i}: &b${i}`, `  <<: *b${i - 1}`);
  lines.push('units:', `  - <<: *b${levels - 1}`, '    name: Gunboat', '    class: Destroyer', '    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"');
  return lines.join('\n') + '\n';
}

describe('YAML merge keys nested deep', () => {
  it('reads 16 levels of merges, and says so past them', () => {
    for (const [levels, read] of [
      [16, true],
      [17, false],
      [40, false],
    ] as const) {
      const ws = new Workspace();
      const doc = ws.set('file:///ws/deep.unit.yaml', deepMerge(levels)) as UnitDocument;
      const limit = checkDocument(doc, ws).filter((p) => p.code === 'FS-YAML-LIMIT');
      assert.equal(doc.units[0]!.points.value, read ? 145 : undefined, `${levels} levels`);
      if (read) assert.deepEqual(limit, [], `${levels} levels: nothing to say`);
      else {
        assert.equal(limit.length, 1, `${levels} levels: said once`);
        assert.match(limit[0]!.message, /Merge keys \(<<\) nest deeper here than the reader follows \(16 levels\)/);
        const text = deepMerge(levels);
        assert.equal(text.slice(limit[0]!.span.start, limit[0]!.span.end), '<<', 'at the outermost merge');
        assert.ok(limit[0]!.span.start > text.indexOf('units:'), "at the card's own merge");
      }
    }
  });
});
