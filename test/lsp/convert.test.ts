/** The conversions' kind tables: the core's kind names to the LSP enums' members, by member name. */
import assert from 'node:assert/strict';
import { CompletionItemKind, SymbolKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { completionList, documentSymbolList, kindTable } from '../../server/src/lsp/convert';

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
