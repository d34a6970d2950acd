/**
 * The edges (the language server in server/src/lsp, the CLI, the Node and browser parts, the two
 * programs) know the core as one service and its shapes: the names they import from
 * server/src/core, all edges together, are few, and a namespace import (`* as core`), which would
 * hide how many, is refused. Read with the TypeScript compiler's own parser.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const CORE = join(ROOT, 'server/src/core');
const EDGES = ['server/src/lsp', 'server/src/cli', 'server/src/node', 'server/src/web', 'server/src/server.ts', 'server/src/cli.ts'];

/** At most this many names from the core, in all the edges together. */
const MOST = 30;

function filesUnder(p: string): string[] {
  if (!statSync(p).isDirectory()) return p.endsWith('.ts') ? [p] : [];
  return readdirSync(p).flatMap((n) => filesUnder(join(p, n)));
}

/** The names one edge file takes from the core ("name" per binding; "* as x" for a namespace), with where. */
export function coreNames(file: string, text: string): { name: string; at: string }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: { name: string; at: string }[] = [];
  const at = (n: ts.Node) => `${relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const fromCore = (spec: ts.Expression | undefined) =>
    !!spec && ts.isStringLiteral(spec) && spec.text.startsWith('.') && resolve(dirname(file), spec.text).startsWith(CORE);
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && fromCore(st.moduleSpecifier)) {
      const c = st.importClause;
      if (!c) continue;
      if (c.name) out.push({ name: 'default', at: at(c) });
      const b = c.namedBindings;
      if (b && ts.isNamespaceImport(b)) out.push({ name: `* as ${b.name.text}`, at: at(b) });
      if (b && ts.isNamedImports(b)) for (const e of b.elements) out.push({ name: (e.propertyName ?? e.name).text, at: at(e) });
    }
    if (ts.isExportDeclaration(st) && fromCore(st.moduleSpecifier)) {
      const c = st.exportClause;
      if (!c || ts.isNamespaceExport(c)) out.push({ name: '* (re-export)', at: at(st) });
      else for (const e of c.elements) out.push({ name: (e.propertyName ?? e.name).text, at: at(e) });
    }
  }
  return out;
}

function edgeNames(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const e of EDGES)
    for (const f of filesUnder(join(ROOT, e)))
      for (const { name, at } of coreNames(f, readFileSync(f, 'utf8'))) names.set(name, [...(names.get(name) ?? []), at]);
  return names;
}

describe('the edges know the core as one service and its shapes', () => {
  it('counts named imports and re-exports, and names a namespace import', () => {
    const f = join(ROOT, 'server/src/lsp/probe.ts');
    const text = [
      "import { a, type B, c as d } from '../core/service';",
      "import * as all from '../core/api';",
      "export { e } from '../core/service';",
      "import { x } from 'vscode-languageserver';",
      "import { y } from './convert';",
    ].join('\n');
    assert.deepEqual(
      coreNames(f, text).map((n) => n.name),
      ['a', 'B', 'c', '* as all', 'e'],
    );
  });

  it(`the edges import at most ${MOST} names from server/src/core, and no namespace`, () => {
    const names = edgeNames();
    const stars = [...names].filter(([n]) => n.startsWith('*'));
    assert.deepEqual(stars, [], 'a namespace import from the core');
    const list = [...names.keys()].sort().join(', ');
    assert.ok(names.size <= MOST, `${names.size} names from the core (at most ${MOST}): ${list}`);
  });
});
