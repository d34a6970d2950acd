/**
 * The language server's handlers convert and delegate (rust-analyzer's handlers/request.rs,
 * yaml-language-server's languageHandlers.ts): every function of lsp/handlers.ts, the table's rows
 * and the named handlers they call, is at most 20 lines (blank lines and comments not counted); the
 * work lives in the service. Read with the TypeScript compiler's own parser.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

const FILE = resolve(__dirname, '../../server/src/lsp/handlers.ts');
const MOST = 20;

/** Each function of a source text longer than `most` lines of code: "line: name (n lines)". */
export function longFunctions(text: string, most: number): string[] {
  const sf = ts.createSourceFile('handlers.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const code = n
        .getText(sf)
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.trim().startsWith('//'));
      if (code.length > most) {
        const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
        const name = n.name?.getText(sf) ?? n.getText(sf).split('\n')[0]!.slice(0, 60);
        out.push(`${line}: ${name} (${code.length} lines)`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('the handlers convert and delegate', () => {
  it('finds a long function, and not a short one', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const text = `function long() {\n${body(25)}\n}\nfunction short() {\n  // a comment\n\n${body(3)}\n}\n`;
    assert.deepEqual(longFunctions(text, MOST), ['1: long (27 lines)']);
  });

  it(`every function of lsp/handlers.ts is at most ${MOST} lines`, () => {
    assert.deepEqual(longFunctions(readFileSync(FILE, 'utf8'), MOST), []);
  });
});
