/**
 * The core holds no state of its own between calls: no module of server/src/core has a top-level
 * `let` or `var`, nor a top-level collection (a Map, a Set, an array or an object literal) that a
 * function of the module changes (a set/add/push/delete/clear… call on it, or an assignment to one
 * of its properties). A cache, a memo or a price that arrives lives in an instance the caller owns
 * (createFabledService), so that two services (two workspaces, a test beside the server) never see
 * each other's figures. A collection filled once while the module loads (a table built from
 * another) is a constant and passes. Read with the TypeScript compiler's own parser.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const CORE = join(ROOT, 'server/src/core');

/**
 * The modules that still hold state, and why. Each one goes when its state moves into an instance;
 * the test fails when a module here holds none any more (take it off) and for any module not here.
 */
const STILL_HOLDING = new Map<string, string>([]);

/** Methods that change a Map, a Set, a WeakMap, an array or a typed array in place. */
const MUTATORS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return filesUnder(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Whether an initializer makes a collection: `new Map(…)`, `new Set(…)`, `[…]`, `{…}` (through `as`/`satisfies`). */
function isCollection(e: ts.Expression): boolean {
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isArrayLiteralExpression(e) || ts.isObjectLiteralExpression(e)) return true;
  if (ts.isNewExpression(e)) return /^(Weak)?(Map|Set)$|Array$/.test(e.expression.getText());
  return false;
}

/** Whether `node` lies inside a function (its code runs on a call, not once while the module loads). */
function inFunction(node: ts.Node): boolean {
  for (let p = node.parent; p; p = p.parent) if (ts.isFunctionLike(p) || ts.isClassStaticBlockDeclaration(p)) return true;
  return false;
}

/** The module-level state of one source text, one line per finding ("file:line what"). */
export function moduleState(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const collections = new Set<string>();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const flags = st.declarationList.flags;
    const isConst = (flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      const name = d.name.getText(sf);
      if (!isConst) found.push(`${at(d)} top-level ${flags & ts.NodeFlags.Let ? 'let' : 'var'} ${name}`);
      else if (ts.isIdentifier(d.name) && d.initializer && isCollection(d.initializer)) collections.add(name);
    }
  }
  const mutated = new Set<string>();
  const visit = (n: ts.Node): void => {
    // `name.set(…)`, `name.push(…)`, …
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const target = n.expression.expression;
      if (ts.isIdentifier(target) && collections.has(target.text) && MUTATORS.has(n.expression.name.text) && inFunction(n))
        mutated.add(`${at(n)} top-level collection ${target.text} changed: ${target.text}.${n.expression.name.text}(…)`);
    }
    // `name.x = …`, `name[k] = …`, `name.x += …`, `name.x++`, `delete name.x`
    const written = (e: ts.Expression): void => {
      if (
        (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) &&
        ts.isIdentifier(e.expression) &&
        collections.has(e.expression.text) &&
        inFunction(n)
      ) {
        mutated.add(`${at(n)} top-level collection ${e.expression.text} changed: ${e.getText(sf)} written`);
      }
    };
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment)
      written(n.left);
    if (
      (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) &&
      (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)
    )
      written(n.operand);
    if (ts.isDeleteExpression(n)) written(n.expression);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return [...found, ...mutated];
}

describe('no module-level mutable state in server/src/core', () => {
  it('the scanner finds a let, a var and a collection a function changes, and passes constants', () => {
    const probe = [
      'let a = 1;',
      'var b = 2;',
      'const cache = new Map<string, number>();',
      'const list: number[] = [];',
      'const table = { x: 1 };',
      'const fixed = new Set(["x"]);',
      'const built = new Map<string, number>();',
      'for (const k of ["a"]) built.set(k, 1);',
      'export function f(k: string) { cache.set(k, 1); list.push(1); table.x = 2; return fixed.has(k) && built.get(k); }',
      'export function g() { let local = 0; const m = new Map(); m.set(1, 1); return local++; }',
    ].join('\n');
    const found = moduleState('probe.ts', probe);
    assert.equal(found.length, 5, found.join('\n'));
    assert.ok(found.some((f) => f.includes('let a')));
    assert.ok(found.some((f) => f.includes('var b')));
    assert.ok(found.some((f) => f.includes('cache.set')));
    assert.ok(found.some((f) => f.includes('list.push')));
    assert.ok(found.some((f) => f.includes('table.x written')));
  });

  it('no module of the core holds state, but the few still listed here (the list only shrinks)', () => {
    const found = filesUnder(CORE).flatMap((f) => moduleState(relative(ROOT, f), readFileSync(f, 'utf8')));
    const files = new Set(found.map((f) => f.slice(0, f.indexOf(':'))));
    assert.deepEqual(
      found.filter((f) => !STILL_HOLDING.has(f.slice(0, f.indexOf(':')))),
      [],
      'a module of the core holds state: keep it in the instance that owns it (an Estimates, a workspace, a field, a card: model/memo.ts)',
    );
    assert.deepEqual(
      [...STILL_HOLDING.keys()].filter((f) => !files.has(f)),
      [],
      'a module no longer holds state: take it off the list',
    );
  });
});
