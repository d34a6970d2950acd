/**
 * Fix-all over stdio, as VS Code asks for it: `source.fixAll` (Source Action... or on save) fixes
 * every problem of the file that has one clear fix; the light bulb offers "Fix all in this file" for
 * a kind with several; and a quick fix that looks across files (an ability another card defines).
 */
import { strict as assert } from 'node:assert';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';
import { acceptAsVSCode } from './vscodeCompletion';

const card = (name: string, weapons: string, abilities = '      - Hit & Run') =>
  `  - name: ${name}\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n${weapons}\n    abilities:\n${abilities}\n`;

function apply(text: string, edits: TextEdit[]): string {
  // Apply from last to first, each as a one-off completion-like edit.
  const off = (p: { line: number; character: number }) =>
    text
      .split('\n')
      .slice(0, p.line)
      .reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => off(b.range.start) - off(a.range.start))
    .reduce((t, e) => acceptAsVSCode(t, { label: '', textEdit: e, insertTextMode: 1 }).text, text);
}

describe('fix-all and cross-file fixes over stdio', function () {
  this.timeout(60000);
  let c: Client;
  before(async () => {
    c = await startServer({
      files: {
        'cards/def.unit.yaml':
          'faction: Ember\nunits:\n' +
          card('Definer', '      - Gun — Energy, 12", 2, 3\n      - Lance — Auto, 9", 1, 4', '      - name: Ember Shroud\n        text: Enemies get -1 BS.'),
      },
    });
  });
  after(async () => c?.stop());

  it('source.fixAll fixes every clear problem at once, and the light bulb offers a fix-all of the kind', async () => {
    const text = 'faction: Ember\nunits:\n' + card('Typo Ship', '      - Beam — Energi, 12", 2, 3\n      - Lance — Autp, 13", 1, 4');
    const uri = await c.open('cards/typos.unit.yaml', text);
    const ds = await c.diagnosticsWhere(uri, 'two type typos and a range', (d) => d.filter((x) => x.code === 'FS-WEAPON-TYPE').length === 2);
    const all = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll'], triggerKind: 1 },
    });
    assert.equal(all.length, 1);
    assert.equal(all[0]!.kind, 'source.fixAll');
    const fixed = apply(text, all[0]!.edit!.changes![uri]!);
    assert.match(fixed, /- Beam — Energy, 12", 2, 3\n {6}- Lance — Auto, 12", 1, 4\n/);
    const typo = ds.find((d) => d.code === 'FS-WEAPON-TYPE')!;
    const bulb = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: typo.range,
      context: { diagnostics: ds.filter((d) => d.code === 'FS-WEAPON-TYPE'), triggerKind: 2 },
    });
    assert.ok(
      bulb.some((a) => /^Fix all in this file: .*\(2\)$/.test(a.title) && a.kind === 'quickfix'),
      bulb.map((a) => a.title).join(' | '),
    );
    assert.ok(!bulb.some((a) => a.kind === 'source.fixAll'), 'source actions stay out of the light bulb');
  });

  it('copies an ability another card of the faction defines', async () => {
    const text = 'faction: Ember\nunits:\n' + card('Borrower', '      - Gun — Energy, 12", 2, 3\n      - Lance — Auto, 9", 1, 4', '      - Ember Shroud');
    const uri = await c.open('cards/borrow.unit.yaml', text);
    const ds = await c.diagnosticsWhere(uri, 'the unknown ability', (d: Diagnostic[]) => d.some((x) => x.code === 'FS-ABILITY-UNKNOWN'));
    const d = ds.find((x) => x.code === 'FS-ABILITY-UNKNOWN')!;
    const actions = await c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], triggerKind: 2 },
    });
    const copy = actions.find((a) => /^Copy the definition of Ember Shroud from Definer$/.test(a.title));
    assert.ok(copy, actions.map((a) => a.title).join(' | '));
    assert.match(apply(text, copy.edit!.changes![uri]!), /abilities:\n {6}- name: Ember Shroud\n {8}text: Enemies get -1 BS\.\n$/);
  });
});
