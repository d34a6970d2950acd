/** The conversions' kind tables: the core's kind names to the LSP enums' members, by member name. */
import assert from 'node:assert/strict';
import { CompletionItemKind, SymbolKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import fc from 'fast-check';
import { completionList, documentSymbolList, kindTable, positionsIn, toDiagnostic, toDiagnostics } from '../../server/src/lsp/convert';
import type { Problem } from '../../server/src/core/model/types';
import { propertySettings } from '../core/property-settings';

describe('convert: kind tables', () => {
  it('maps each name to the enum member it names', () => {
    assert.deepEqual(kindTable(SymbolKind, { card: 'Class', fleet: 'Module' }), { card: SymbolKind.Class, fleet: SymbolKind.Module });
    assert.deepEqual(kindTable(CompletionItemKind, {}), {});
  });

  it('gives completion items and symbols the kinds they had', () => {
    const td = TextDocument.create('file:///a.unit.yaml', 'fabled-unit', 1, 'name: x\n');
    const span = { start: 0, end: 4 };
    const items = completionList(
      { isIncomplete: false, items: (['key', 'enum', 'card', 'faction'] as const).map((kind) => ({ label: kind, kind, insertText: kind, span })) },
      td,
      true,
    ).items;
    assert.deepEqual(
      items.map((i) => i.kind),
      [CompletionItemKind.Property, CompletionItemKind.EnumMember, CompletionItemKind.Class, CompletionItemKind.Module],
    );
    const syms = documentSymbolList(
      (['card', 'weapon', 'factionAbility'] as const).map((kind) => ({ name: kind, kind, span, selectionSpan: span, children: [] })),
      td,
      true,
    );
    assert.deepEqual(
      syms.map((s) => s.kind),
      [SymbolKind.Class, SymbolKind.Method, SymbolKind.Interface],
    );
  });
});

describe('convert: positions of many offsets at once', () => {
  const chars = fc.constantFrom('a', ' ', '\n', '-', ':', '\u00e9', '\ud83d\ude80');

  it('gives what TextDocument.positionAt gives, for any offsets (in range or not) of a text without carriage returns', () => {
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 200 }), fc.array(fc.integer({ min: -5, max: 420 }), { maxLength: 30 }), (parts, offsets) => {
        const text = parts.join('');
        const td = TextDocument.create('file:///a.unit.yaml', 'fabled-unit', 1, text);
        const at = positionsIn(text, offsets)!;
        for (const o of offsets) assert.deepEqual(at.get(o), td.positionAt(o), `offset ${o} of ${JSON.stringify(text)}`);
      }),
      propertySettings(300, 20261130),
    );
  });

  it('leaves a text with carriage returns to positionAt, and the diagnostics still match it', () => {
    const text = 'name: a\r\nclass: b\rpoints: c\n';
    assert.equal(positionsIn(text, [3]), undefined);
    const td = TextDocument.create('file:///a.unit.yaml', 'fabled-unit', 1, text);
    const problems: Problem[] = [{ code: 'FS-TYPE', severity: 'error', message: 'x', span: { start: 19, end: 28 } }];
    assert.deepEqual(toDiagnostics(problems, td, undefined)[0]!.range, { start: td.positionAt(19), end: td.positionAt(28) });
  });

  it('makes the same diagnostics as one problem at a time', () => {
    const text = 'faction: X\nunits:\n  - name: A\n    points: lots\n';
    const td = TextDocument.create('file:///a.unit.yaml', 'fabled-unit', 1, text);
    const problems: Problem[] = [
      { code: 'FS-TYPE', severity: 'error', message: 'late', span: { start: 40, end: 44 } },
      { code: 'FS-MISSING-FIELD', severity: 'warning', message: 'early', span: { start: 0, end: 7 } },
      { code: 'FS-TYPE', severity: 'error', message: 'past the end', span: { start: 60, end: 70 } },
    ];
    assert.deepEqual(
      toDiagnostics(problems, td, undefined),
      problems.map((p) => toDiagnostic(p, td, undefined)),
    );
  });
});
