/** Folding and selection ranges over LSP, for editors that have no indentation folding of their own. */
import { strict as assert } from 'node:assert';
import type { FoldingRange, SelectionRange } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';

const FLEET = `name: Patrol
faction: Myr-Valari
points: 500
units:
  - unit: Lumen Cruiser
    count: 2
  - unit: Dawnhold Carrier
    embark:
      - Veilwing Fighter Wing
`;

describe('folding and selection ranges over LSP', function () {
  this.timeout(60000);
  let c: Client;
  before(async () => {
    c = await startServer();
  });
  after(async () => c?.stop());

  it('folds the entries and grows a selection from a card name to the document', async () => {
    const uri = await c.open('patrol.fleet.yaml', FLEET);
    const folds = await c.request<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
    const got = folds.map((f) => `${f.startLine}-${f.endLine}`);
    for (const want of ['3-8', '4-5', '6-8', '7-8']) assert.ok(got.includes(want), `${want} in ${got.join(', ')}`);
    const [sel] = await c.request<SelectionRange[]>('textDocument/selectionRange', { textDocument: { uri }, positions: [{ line: 4, character: 12 }] });
    const chain: string[] = [];
    for (let s: SelectionRange | undefined = sel; s; s = s.parent)
      chain.push(`${s.range.start.line}:${s.range.start.character}-${s.range.end.line}:${s.range.end.character}`);
    assert.deepEqual(chain.slice(0, 2), ['4:10-4:23', '4:4-4:23']);
    assert.equal(chain[chain.length - 1], '0:0-8:29');
  });
});
