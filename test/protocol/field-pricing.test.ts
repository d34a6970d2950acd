/**
 * A workspace's own reference field priced by battle in the background (server/src/lsp/fieldPricing.ts):
 * with ten cards at their class's standard points, the estimate starts scaled to their
 * printed points, and once the server has priced them by battle it is fitted to those prices: the
 * hover says so and the notes are made again, without an edit.
 */
import { strict as assert } from 'node:assert';
import type { Hover } from 'vscode-languageserver-protocol/node';
import { startServer, type Client } from './harness';
import { CLASSES, CLASS_NAMES } from '../../server/src/core/rules/data';

/** Ten cards at their class's standard points: a field of their own. */
const FIELD = [
  'faction: Ref',
  'units:',
  ...CLASS_NAMES.flatMap((cls, i) => [
    `  - name: Ref ${cls}`,
    `    class: ${cls}`,
    `    points: ${CLASSES[cls].points}`,
    `    stats: "6/3 ${4 + (i % 3)}+ 7+ ${i * 2} 6+ ${2 + i} 6/3 7/2 3"`,
    '    weapons:',
    `      - Gun — Energy, 18", ${1 + (i % 3)}, ${2 + i}`,
  ]),
  '',
].join('\n');

const LAB =
  'faction: Lab\nunits:\n  - name: Lab Cruiser\n    class: Cruiser\n    points: 200\n    stats: "6/6 5+ 8+ 6 5+ 7 6/3 7/3 5"\n    weapons:\n      - Broadside — Energy, 18", 2, 4\n';

function md(h: Hover | null): string {
  const c = h?.contents as { value?: string } | undefined;
  return c?.value ?? '';
}

describe('a workspace field priced in the background', function () {
  this.timeout(240_000);
  let c: Client;
  before(async () => {
    c = await startServer({ files: { 'ref/field.unit.yaml': FIELD, 'lab/lab.unit.yaml': LAB } });
  });
  after(async () => c?.stop());

  it('fits the estimate to the field\u2019s battle prices once they are in, without an edit', async () => {
    const uri = await c.open('lab/lab.unit.yaml', LAB);
    const hover = () => c.request<Hover>('textDocument/hover', { textDocument: { uri }, position: c.pos(uri, 'points: 2', 9) });
    const start = Date.now();
    // The workspace scan brings the field's file in: the field becomes the workspace's ten cards.
    let first = md(await hover());
    while (!/costed like 10 cards at their class's standard points from this workspace/.test(first)) {
      assert.ok(Date.now() - start < 60_000, `the workspace's field never came:\n${first}`);
      await new Promise((r) => setTimeout(r, 100));
      first = md(await hover());
    }
    let last = first;
    while (!/scaled to this field's battle prices/.test(last)) {
      assert.ok(Date.now() - start < 200_000, `still not priced:\n${last}`);
      await new Promise((r) => setTimeout(r, 500));
      last = md(await hover());
    }
    assert.match(first, /scaled to this field's points/);
    assert.match(last, /Points estimate: ≈ \d+ pts/);
  });
});
