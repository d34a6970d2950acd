/**
 * The fresh server's warm-up over stdio: a document opened at once (the warm-up stops)
 * and one opened after the warm-up has run get the same diagnostics, and the warm-up's example
 * files never reach the server's workspace.
 */
import { strict as assert } from 'node:assert';
import { startServer } from './harness';
import { MYR_BROKEN, MYR_UNITS } from './fixtures';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('warm-up of a fresh server (stdio)', function () {
  this.timeout(60000);

  it('changes nothing in the diagnostics, opened at once or after the warm-up', async () => {
    const texts = { 'cards/a.unit.yaml': MYR_UNITS, 'cards/broken.unit.yaml': MYR_BROKEN };
    const seen: unknown[][] = [];
    for (const wait of [0, 1500]) {
      const c = await startServer({ folder: false });
      try {
        await pause(wait);
        const got: unknown[] = [];
        for (const [rel, text] of Object.entries(texts)) {
          const uri = await c.open(rel, text);
          await c.waitFor(`diagnostics of ${rel}`, () => c.diagnostics.has(uri), 30000);
          got.push(c.diagnostics.get(uri)!.diagnostics);
        }
        // Only the documents opened are the server's: none of the warm-up's example files.
        const symbols = await c.request<{ location: { uri: string } }[]>('workspace/symbol', { query: '' });
        assert.ok(
          symbols.every((s) => s.location.uri.startsWith('file:')),
          `no warm-up file among the symbols: ${symbols.map((s) => s.location.uri).join(' ')}`,
        );
        assert.ok(symbols.length > 0, 'the opened cards are listed');
        seen.push(got);
      } finally {
        await c.stop();
      }
    }
    assert.ok((seen[0]![1] as unknown[]).length > 0, 'the broken file has problems');
    assert.deepEqual(seen[1], seen[0]);
  });
});
