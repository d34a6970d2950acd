/**
 * The first scan of a big workspace over stdio: the client is shown work-done progress
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

  /**
   * Follows the fleet's publications and the progress in the order they arrive, until the scan has
   * ended and the fleet was published again after it.
   */
  async function follow(c: Client, fleet: string): Promise<{ ended: boolean; diagnostics: string }[]> {
    const seen: { ended: boolean; diagnostics: string }[] = [];
    let count = -1;
    let endedAt: number | undefined;
    await c.waitFor(
      'the end of the scan, then the fleet published again',
      () => {
        const n = c.published.filter((p) => p.uri === fleet).length;
        if (n !== count && c.diagnostics.has(fleet)) {
          count = n;
          seen.push({ ended: ended(c), diagnostics: JSON.stringify(c.diagnostics.get(fleet)!.diagnostics) });
        }
        if (ended(c) && endedAt === undefined) endedAt = n;
        return endedAt !== undefined && n > endedAt;
      },
      150000,
    );
    return seen;
  }

  it("publishes the open fleet's diagnostics before the scan ends when they are what the whole workspace says", async () => {
    const c = await startServer({ files: fs });
    try {
      const fleet = await c.open('fleets/scan.fleet.yaml', fs['fleets/scan.fleet.yaml']);
      const seen = await follow(c, fleet);
      const early = seen.find((s) => !s.diagnostics.includes('FS-UNIT-UNKNOWN'));
      assert.ok(early, 'the fleet resolved');
      assert.equal(early.ended, false, 'resolved before the scan ended');
      assert.equal(seen.at(-1)!.diagnostics, early.diagnostics, 'what the whole workspace says after the scan');
    } finally {
      await c.stop();
    }
  });

  it('a pulling client (VS Code) is asked to pull again once the fleet\u2019s cards are in, before the scan ends, wherever they are', async () => {
    const c = await startServer({ files: fs, pull: true });
    try {
      const fleet = await c.open('fleets/scan.fleet.yaml', fs['fleets/scan.fleet.yaml']);
      const pulled = async () => (await c.request<{ items: { code?: unknown }[] }>('textDocument/diagnostic', { textDocument: { uri: fleet } })).items;
      // Pulls as VS Code does: at open, then at each refresh the server asks for.
      let items = await pulled();
      while (items.some((d) => d.code === 'FS-UNIT-UNKNOWN')) {
        const seen = c.refreshes;
        await c.waitFor('a diagnostics refresh', () => c.refreshes > seen, 150000);
        if (!ended(c)) items = await pulled();
        else break;
      }
      assert.equal(ended(c), false, 'resolved before the scan ended (the fleet names the last file\u2019s card)');
      assert.ok(!items.some((d) => d.code === 'FS-UNIT-UNKNOWN'), JSON.stringify(items));
      await c.waitFor('the end of the scan', () => ended(c), 150000);
    } finally {
      await c.stop();
    }
  });

  it('a fleet opened while the scan indexes: its cards are brought forward, and it resolves before the scan ends', async () => {
    const c = await startServer({ files: fs });
    try {
      const indexing = () =>
        progress(c).find((p) => {
          const m = /^(\d+) of (\d+) files indexed/.exec(p.value.message ?? '');
          // Any time in the first part of the indexing (reports come at most every 100 ms).
          return m && Number(m[1]) > 0 && Number(m[1]) < Number(m[2]) * 0.6;
        });
      await c.waitFor('the scan indexing its first files', indexing, 150000);
      const fleet = await c.open('fleets/scan.fleet.yaml', fs['fleets/scan.fleet.yaml']);
      const seen = await follow(c, fleet);
      const early = seen.find((s) => !s.diagnostics.includes('FS-UNIT-UNKNOWN'));
      assert.ok(early, 'the fleet resolved');
      assert.equal(early.ended, false, 'resolved before the scan ended');
      assert.equal(seen.at(-1)!.diagnostics, early.diagnostics, 'what the whole workspace says after the scan');
    } finally {
      await c.stop();
    }
  });

  it('publishes nothing early for a fleet naming an unknown card (its suggestions read every card)', async () => {
    const c = await startServer({ files: fs });
    try {
      const text = fs['fleets/scan.fleet.yaml']!.replace('Scan Card 0\n', 'Scan Card 0\n  - unit: Scan Crad 12\n');
      const fleet = await c.open('fleets/scan.fleet.yaml', text);
      const seen = await follow(c, fleet);
      assert.ok(
        seen.filter((s) => !s.ended).every((s) => !s.diagnostics.includes('did you mean')),
        'no suggestion before the scan ended',
      );
      assert.match(seen.at(-1)!.diagnostics, /No card named \\"Scan Crad 12\\"; did you mean/);
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
