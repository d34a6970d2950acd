/**
 * What the cold-open work changed inside the parse and the estimate must not change
 * what they give: an unshifted piece's tree read with its offset gives the shifted tree's
 * positions (with a byte order mark too), readMap over a piece gives the document's positions, and
 * profiles keep their keys and key order.
 */
import { strict as assert } from 'node:assert';
import { loadYaml, readMap, spanOf, type YAMLNode } from '../../server/src/core/model/yaml';
import { parseDocument } from '../../server/src/core/model/parse';
import { profileFromCard, sanitizeProfile } from '../../server/src/core/sim/profile';
import type { UnitDocument } from '../../server/src/core/model/types';

/** Every node's range, depth first. */
function ranges(root: YAMLNode | undefined, base = 0): string[] {
  const out: string[] = [];
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    const node = n as YAMLNode & { key?: unknown; value?: unknown; mappings?: unknown[]; items?: unknown[] };
    if (typeof node.startPosition !== 'number') return;
    const s = spanOf(node, base);
    out.push(`${s.start}-${s.end}`);
    walk(node.key);
    if (node.value && typeof node.value === 'object') walk(node.value);
    for (const m of node.mappings ?? []) walk(m);
    for (const m of node.items ?? []) walk(m);
  };
  walk(root);
  return out;
}

const PIECE = '  - name: Lancer\n    class: Cruiser\n    weapons:\n      - L — Ion, 9", 2, 4\n';

describe('cold open: the same results with less work', () => {
  for (const [what, text] of [
    ['a piece', PIECE],
    ['a piece after a byte order mark', `\uFEFF${PIECE}`],
  ] as const) {
    it(`reads ${what} unshifted with its offset as the shifted tree`, () => {
      const shifted = loadYaml(text, 1000, 1);
      const unshifted = loadYaml(text, 1000, 1, false);
      assert.deepEqual(unshifted.problems, shifted.problems, 'problems are at the document positions either way');
      assert.deepEqual(ranges(unshifted.root, 1000), ranges(shifted.root));
      assert.ok(ranges(shifted.root).length > 5);
    });
  }

  it('reads a mapping of an unshifted piece at the document positions', () => {
    const shifted = loadYaml(PIECE, 500, 1).root as YAMLNode & { items: YAMLNode[] };
    const unshifted = loadYaml(PIECE, 500, 1, false).root as YAMLNode & { items: YAMLNode[] };
    const a = readMap(shifted.items[0]!, [], ['name', 'class', 'weapons']);
    const b = readMap(unshifted.items[0]!, [], ['name', 'class', 'weapons'], 'here', 500);
    const pos = (m: ReturnType<typeof readMap>) => m.list.map((e) => [e.key, e.keySpan, e.valueSpan]);
    assert.deepEqual(pos(b), pos(a));
    assert.equal(a.list[0]!.keySpan.start, 504);
  });

  it('builds profiles with the keys in the order they always had', () => {
    const doc = parseDocument(
      'file:///p.unit.yaml',
      'faction: P\nunits:\n  - name: A\n    class: Cruiser\n    points: 190\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - L — Ion, 9", 2, 4\n',
    ) as UnitDocument;
    const p = profileFromCard(doc.units[0]!).profile!;
    const keys = [
      'name',
      'class',
      'bases',
      'baseMm',
      'bs',
      'dodge',
      'sh',
      'armour',
      'hp',
      'ld',
      'combinedShields',
      'weapons',
      'move',
      'cr',
      'tonnage',
      'points',
    ];
    assert.deepEqual(Object.keys(p), keys);
    // Sanitized, the weapons come last.
    const s = sanitizeProfile(p);
    assert.deepEqual(Object.keys(s), [...keys.filter((k) => k !== 'weapons'), 'weapons']);
    assert.deepEqual(s, { ...p, weapons: p.weapons });
  });
});
