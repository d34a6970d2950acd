/**
 * The function-length rule of eslint.config.mjs fires: in the product's code (server/src, client,
 * protocol) a function of more than 100 lines is an error, blank lines and comments not counted,
 * with no file exempt; tests are not product code. Each case lints text only (nothing is written).
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = resolve(__dirname, '../..');
const RULE = 'max-lines-per-function';

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === RULE,
});

/** A function whose body is `statements` lines, each followed by `padding` (blank lines or comments). */
function fn(statements: number, padding = ''): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};${padding}`).join('\n');
  // Two lines for the head and the return, one for the closing brace.
  return `export function probe(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
}

async function errors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, file) });
  assert.deepEqual(
    result!.messages.filter((m) => m.fatal),
    [],
    'parsed',
  );
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('function length (eslint.config.mjs)', function () {
  this.timeout(120_000);
  for (const file of ['server/src/core/probe.ts', 'server/src/lsp/probe.ts', 'client/src/probe.ts', 'client/webview/probe.ts', 'protocol/probe.ts'])
    it(`rejects a function of 101 lines in ${file}, allows one of 100`, async () => {
      // 4 lines of frame + 97 statements = 101 lines.
      assert.match((await errors(file, fn(97))).join('\n'), /too many lines \(101\)\. Maximum allowed is 100/);
      assert.deepEqual(await errors(file, fn(96)), []);
    });
  it('does not count blank lines or comments', async () => {
    assert.deepEqual(await errors('server/src/core/probe.ts', fn(96, '\n\n  // why')), []);
  });
  it('leaves tests alone', async () => {
    assert.deepEqual(await errors('test/core/probe.test.ts', fn(200)), []);
  });
});
