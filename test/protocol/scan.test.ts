/**
 * The first scan of a big workspace over stdio (issue 14): the client is shown work-done progress
 * (create, then begin, reports and end on its token) when it can show it, and nothing when it
 * cannot; requests about an open document are answered while the scan is still reading; and once
 * the scan ends, the open fleet's diagnostics resolve every card it names.
 */
import { strict as assert } from 'node:assert';
import type { Hover } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';

const CARD_FILES = 4000;

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < CARD_FILES; i++)
    out[`cards/c${String(i).padStart(5, '0')}.unit.yaml`] = `faction: Scan\nunits:\n  - name: Scan Card ${i}\n    class: Frigate\n    points: 40\n`;
  // The fleet names cards read last: they resolve only when the scan is through.
  out['fleets/scan.fleet.yaml'] = `name: Scan Fleet\nfaction: Scan\npoints: 1000\nunits:\n  - unit: Scan Card ${CARD_FILES - 1}\n  - unit: Scan Card 0\n`;
  return out;
}

type Progress = { token: string | number; value: { kind: 'begin' | 'report' | 'end'; percentage?: number; message?: string; title?: string } };

const progress = (c: Client): Progress[] => c.notifications.filter((n) => n.method === '$/progress').map((n) => n.params as Progress);
const ended = (c: Client) => progress(c).some((p) => p.value.kind === 'end');

describe('the first scan of a big workspace (stdio)', function () {
  this.timeout(180000);
  const fs = files();

  it('shows work-done progress, answers requests while scanning, then resolves the open fleet', async () => {
    const c = await startServer({ files: fs });
    try {
      const fleet = await c.open('fleets/scan.fleet.yaml', fs['fleets/scan.fleet.yaml']);
      // A hover on the open fleet while the scan reads: answered before the scan ends.
      const hover = await c.request<Hover | null>('textDocument/hover', { textDocument: { uri: fleet }, position: c.pos(fleet, 'points: 1000', 2) });
      assert.ok(hover, 'a hover on "points" in the fleet');
      const endedBeforeHover = ended(c);
      await c.waitFor('the end of the scan', () => ended(c), 150000);
      assert.equal(endedBeforeHover, false, 'the hover was answered while the scan was still reading');

      assert.equal(c.progressTokens.length, 1, 'one progress created');
      const seen = progress(c).filter((p) => p.token === c.progressTokens[0]);
      assert.equal(seen.length, progress(c).length, 'progress only on the created token');
      const kinds = seen.map((p) => p.value.kind);
      assert.equal(kinds[0], 'begin');
      assert.equal(kinds.at(-1), 'end');
      assert.equal(kinds.filter((k) => k === 'begin').length, 1);
      assert.equal(kinds.filter((k) => k === 'end').length, 1);
      assert.ok(kinds.includes('report'), `reports between begin and end: ${kinds.join(' ')}`);
      const pct = seen.filter((p) => p.value.kind === 'report').map((p) => p.value.percentage ?? -1);
      assert.ok(
        pct.every((p, i) => p >= 0 && p <= 100 && (i === 0 || p >= pct[i - 1]!)),
        `percentages rise within 0..100: ${pct.join(' ')}`,
      );
      assert.match(seen.find((p) => p.value.kind === 'report')!.value.message ?? '', new RegExp(`of ${CARD_FILES + 1} files`));

      // After the scan the fleet resolves both cards: no "No card named".
      await c.diagnosticsWhere(fleet, 'the fleet resolved', (d) => !d.some((x) => x.code === 'FS-UNIT-UNKNOWN'), 60000);
      const cards = await c.request<unknown[]>('fabledStar/listCards', {});
      assert.equal(cards.length, CARD_FILES);
    } finally {
      await c.stop();
    }
  });

  it('sends no progress to a client that cannot show it', async () => {
    const small: Record<string, string> = {};
    for (const [k, v] of Object.entries(fs).slice(0, 300)) small[k] = v;
    const c = await startServer({
      files: small,
      capabilities: (caps) => ({ ...caps, window: {} }),
    });
    try {
      await c.poll('the scan', async () => (await c.request<unknown[]>('fabledStar/listCards', {})).length === 300, 60000);
      assert.equal(c.progressTokens.length, 0);
      assert.equal(progress(c).length, 0);
    } finally {
      await c.stop();
    }
  });
});
