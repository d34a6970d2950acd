/**
 * In the editor, over LSP: every diagnostic links to its code's page (`codeDescription.href`), a
 * suppression comment hides its problem, and the quick fix "Ignore FS-CODE on this line" hides the
 * problem once its edit is applied.
 */
import { strict as assert } from 'node:assert';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';

const CARD = `faction: Hush
units:
  - name: Quiet Destroyer
    class: Destroyer
    points: 145
    bases: 2 # fabled-star-disable-line FS-BASES
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Hush Lance — Energy, 18", 2, 3
      - Hush Battery — Auto, 10", 1, 4
`;

/** `text` with LSP edits applied (ranges in its own line/character terms). */
function apply(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const off = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => off(b.range.start) - off(a.range.start))
    .reduce((t, e) => t.slice(0, off(e.range.start)) + e.newText + t.slice(off(e.range.end)), text);
}

describe('suppression and code links in the editor', function () {
  this.timeout(60000);
  let c: Client;
  before(async () => {
    c = await startServer({ settings: { pointsEstimate: false } });
  });
  after(async () => c?.stop());

  it('links every diagnostic to its page, hides what a comment hides, and the quick fix hides the rest', async () => {
    const uri = await c.open('hush.unit.yaml', CARD);
    const first = await c.diagnosticsWhere(uri, 'FS-RANGE-BAND', (d) => d.some((x) => x.code === 'FS-RANGE-BAND'));
    assert.ok(!first.some((d) => d.code === 'FS-BASES'), 'FS-BASES is hidden by its comment');
    for (const d of first) assert.equal(d.codeDescription?.href, `https://github.com/fabled-star/fabled-star-tools/blob/main/docs/codes/${String(d.code)}.md`);

    const band = first.find((d) => d.code === 'FS-RANGE-BAND')!;
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: band.range,
      context: { diagnostics: [band] },
    });
    const ignore = actions.find((a) => a.title === 'Ignore FS-RANGE-BAND on this line');
    assert.ok(ignore?.edit?.changes?.[uri], actions.map((a) => a.title).join(', '));
    assert.equal(ignore.kind, 'quickfix');
    const fixed = apply(CARD, ignore.edit.changes[uri]);
    assert.ok(fixed.includes('      # fabled-star-disable-next-line FS-RANGE-BAND\n      - Hush Battery'), fixed);
    await c.change(uri, [{ text: fixed }], fixed);
    const after: Diagnostic[] = await c.diagnosticsWhere(uri, 'the fix applied', (d) => !d.some((x) => x.code === 'FS-RANGE-BAND'));
    assert.ok(!after.some((d) => d.code === 'FS-DISABLE-UNUSED' || d.code === 'FS-BASES'), JSON.stringify(after.map((d) => d.code)));
  });
});
