/**
 * A card file seen for the first time gets its checks' diagnostics at once and its points-estimate
 * notes a moment later (a push that follows, or a refresh the pulling client answers with a pull);
 * edits after that get both in one message, so the notes never blink.
 */
import { strict as assert } from 'node:assert';
import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { startServer } from './harness';

/** Homebrew cards far off their points (so each gets a note), and one error the checks find. */
function cards(n: number, prefix = 'Bargain', points = 190): string {
  const lines = ['faction: Myr-Valari', 'units:'];
  for (let i = 0; i < n; i++)
    lines.push(
      `  - name: ${prefix} Cruiser ${i}`,
      '    class: Cruiser',
      `    points: ${i === 1 ? 'lots' : points}`,
      `    stats: "6/6 3+ 6+ 14 3+ 16 6/3 7/3 5"`,
      '    weapons:',
      `      - ${prefix} Lance ${i} — Energy, 24", ${3 + (i % 2)}, 5`,
      '      - Bargain Ion Array — Ion, 18", 3, 6',
    );
  return lines.join('\n') + '\n';
}

const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code));
const notes = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'FS-POINTS-ESTIMATE');
const checks = (ds: Diagnostic[]) => ds.filter((d) => d.code !== 'FS-POINTS-ESTIMATE');

describe('first diagnostics: the checks first, the estimate notes after', function () {
  this.timeout(120000);

  it('pushes the checks at once, then the same checks with the notes; an edit pushes both together', async () => {
    // Opened at once in a fresh server: nothing of the estimate is worked out yet.
    const c = await startServer({ folder: false });
    try {
      const text = cards(6);
      const uri = await c.open('cards/bargain.unit.yaml', text);
      await c.waitFor('the notes', () => c.published.some((p) => p.uri === uri && notes(p.diagnostics).length > 0), 60000);
      await new Promise((r) => setTimeout(r, 500));
      // Checks alone (the same each time) until the notes come; from then on never without them.
      const mine = c.published.filter((p) => p.uri === uri);
      const at = mine.findIndex((p) => notes(p.diagnostics).length > 0);
      const shown = mine.map((p) => codes(p.diagnostics).join(' ')).join(' | ');
      assert.ok(at >= 1, `the first message holds no notes: ${shown}`);
      for (const p of mine.slice(0, at)) assert.deepEqual(p.diagnostics, mine[0]!.diagnostics, shown);
      assert.ok(checks(mine[0]!.diagnostics).length > 0, 'the error is in the first message');
      const noted = notes(mine[at]!.diagnostics).length;
      assert.ok(noted >= 3, shown);
      for (const p of mine.slice(at)) {
        assert.deepEqual(checks(p.diagnostics), checks(mine[0]!.diagnostics), 'the same checks, then with the notes');
        assert.equal(notes(p.diagnostics).length, noted, `the notes never go: ${shown}`);
        assert.equal(p.version, mine[0]!.version);
      }

      // An edit: one message with the checks and the notes.
      const from = c.published.length;
      await c.edit(uri, 'Bargain Lance 0 — Energy, 24", 3', 'Bargain Lance 0 — Energy, 24", 4');
      await c.waitFor('the edit published', () => c.published.slice(from).some((p) => p.uri === uri), 60000);
      await new Promise((r) => setTimeout(r, 500));
      const after = c.published.slice(from).filter((p) => p.uri === uri);
      assert.ok(after.length >= 1);
      for (const p of after) assert.ok(notes(p.diagnostics).length >= noted - 1, `every message with the notes: ${codes(p.diagnostics).join(' ')}`);
    } finally {
      await c.stop();
    }
  });

  it('answers a pull with the checks, asks for a refresh, and the next pull has the notes', async () => {
    const c = await startServer({ folder: false, pull: true });
    try {
      const uri = await c.open('cards/bargain.unit.yaml', cards(6));
      const refreshes = c.refreshes;
      const first = await c.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } });
      assert.equal(first.kind, 'full');
      const firstItems = first.kind === 'full' ? first.items : [];
      assert.deepEqual(notes(firstItems), []);
      assert.ok(checks(firstItems).length > 0);
      await c.waitFor('a refresh', () => c.refreshes > refreshes, 60000);
      const previousResultId = first.kind === 'full' ? first.resultId : undefined;
      const second = await c.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri }, previousResultId });
      assert.equal(second.kind, 'full', 'the pull after the refresh gets the whole');
      const items = second.kind === 'full' ? second.items : [];
      assert.deepEqual(checks(items), checks(firstItems));
      assert.ok(notes(items).length >= 3, codes(items).join(' '));
      const third = await c.request<DocumentDiagnosticReport>('textDocument/diagnostic', {
        textDocument: { uri },
        previousResultId: second.kind === 'full' ? second.resultId : undefined,
      });
      assert.equal(third.kind, 'unchanged');
    } finally {
      await c.stop();
    }
  });

  it('asks a pulling client once for the notes of several files shown at once', async () => {
    const c = await startServer({ folder: false, pull: true });
    try {
      // Not at the class's standard points, so that they are not the estimate's reference field.
      const uris: string[] = [];
      for (let i = 0; i < 4; i++) uris.push(await c.open(`cards/bargain-${i}.unit.yaml`, cards(4 + i, `Lot${i}`, 120)));
      const refreshes = c.refreshes;
      const firsts = await Promise.all(uris.map((uri) => c.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } })));
      for (const r of firsts) assert.deepEqual(r.kind === 'full' ? notes(r.items) : ['unchanged'], [], 'checks alone first');
      await c.waitFor('a refresh', () => c.refreshes > refreshes, 60000);
      // Every file's notes are ready by then: one more pull each gets them, and no refresh follows.
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(c.refreshes - refreshes, 1, 'one refresh for the four files');
      for (const [i, uri] of uris.entries()) {
        const r = await c.request<DocumentDiagnosticReport>('textDocument/diagnostic', {
          textDocument: { uri },
          previousResultId: firsts[i]!.kind === 'full' ? firsts[i]!.resultId : undefined,
        });
        const items = r.kind === 'full' ? r.items : [];
        assert.equal(r.kind, 'full');
        assert.ok(notes(items).length >= 3, `${uri}: ${codes(items).join(' ')}`);
      }
    } finally {
      await c.stop();
    }
  });
});
