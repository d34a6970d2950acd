/**
 * The layer rules of eslint.config.mjs fire: each case lints one import placed in a file of a given
 * folder (text only, nothing is written) with the project's own config, and expects the
 * no-restricted-imports error or its absence.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = resolve(__dirname, '../..');
const RULE = '@typescript-eslint/no-restricted-imports';

// Type information is not needed for import rules, and these files do not exist: parse without the project service.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === RULE,
});

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code + '\nexport const _used = x;\n', { filePath: resolve(ROOT, file) });
  const fatal = result!.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], 'parsed');
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const cases: { file: string; imports: string; fails: boolean }[] = [
  // The core knows no editor, no protocol, no file system, none of its edges.
  { file: 'server/src/core/features/probe.ts', imports: "import { x } from '../../../../protocol';", fails: true },
  { file: 'server/src/core/features/probe.ts', imports: "import type { x } from '../../../../protocol';", fails: true },
  { file: 'server/src/core/check/probe.ts', imports: "import { x } from 'vscode-languageserver/node';", fails: true },
  { file: 'server/src/core/check/probe.ts', imports: "import type { x } from 'vscode-languageserver-protocol';", fails: true },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from 'node:fs';", fails: true },
  { file: 'server/src/core/probe.ts', imports: "import { x } from '../lsp/state';", fails: true },
  // Rules <- model <- check/sim <- features.
  { file: 'server/src/core/rules/probe.ts', imports: "import { x } from '../model/types';", fails: true },
  { file: 'server/src/core/rules/probe.ts', imports: "import { x } from './data';", fails: false },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../check/codes';", fails: true },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from './codes';", fails: false },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../workspace';", fails: true },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../rules/data';", fails: false },
  { file: 'server/src/core/check/probe.ts', imports: "import { x } from '../features/hover';", fails: true },
  { file: 'server/src/core/check/probe.ts', imports: "import { x } from '../model/derived';", fails: false },
  { file: 'server/src/core/sim/probe.ts', imports: "import { x } from '../check/index';", fails: true },
  { file: 'server/src/core/features/probe.ts', imports: "import { x } from '../check/context';", fails: true },
  { file: 'server/src/core/features/probe.ts', imports: "import { x } from '../rules/lookup';", fails: false },
  { file: 'server/src/core/features/probe.ts', imports: "import { x } from '../workspace';", fails: false },
  // protocol/ takes only types from the core.
  { file: 'protocol/probe.ts', imports: "import { x } from '../server/src/core/sim/types';", fails: true },
  { file: 'protocol/probe.ts', imports: "import type { x } from '../server/src/core/sim/types';", fails: false },
  { file: 'protocol/probe.ts', imports: "import { x } from 'vscode-languageserver/node';", fails: true },
  // The client goes through protocol/; the view through protocol/simulation only.
  { file: 'client/src/probe.ts', imports: "import { x } from '../../server/src/core/rules/data';", fails: true },
  { file: 'client/src/probe.ts', imports: "import type { x } from '../../server/src/core/sim/types';", fails: true },
  { file: 'client/src/probe.ts', imports: "import { x } from '../../protocol';", fails: false },
  { file: 'client/webview/probe.ts', imports: "import { x } from '../../protocol';", fails: true },
  { file: 'client/webview/probe.ts', imports: "import { x } from 'vscode';", fails: true },
  { file: 'client/webview/probe.ts', imports: "import { x } from '../src/ctx';", fails: true },
  { file: 'client/webview/probe.ts', imports: "import { x } from '../../protocol/simulation';", fails: false },
  // The CLI calls the core; scripts read the rules pack, not check/.
  { file: 'server/src/cli/probe.ts', imports: "import { x } from '../lsp/state';", fails: true },
  { file: 'server/src/cli/probe.ts', imports: "import { x } from '../core/check';", fails: false },
  { file: 'scripts/probe.ts', imports: "import { x } from '../server/src/core/check/stats';", fails: true },
  { file: 'scripts/probe.ts', imports: "import { x } from '../server/src/core/rules/lookup';", fails: false },
];

describe('layer rules (eslint.config.mjs)', function () {
  this.timeout(60000);
  for (const c of cases) {
    it(`${c.fails ? 'rejects' : 'allows'} \`${c.imports}\` in ${c.file}`, async () => {
      const errors = await lint(c.file, c.imports);
      if (c.fails) assert.equal(errors.length, 1, `expected one layer error, got ${JSON.stringify(errors)}`);
      else assert.deepEqual(errors, []);
    });
  }

  it('passes on the project itself (the layers hold today)', async () => {
    const results = await eslint.lintFiles(['server/src', 'protocol', 'client', 'scripts', 'syntaxes']);
    const errors = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line}: ${m.message}`));
    assert.deepEqual(errors, []);
  });
});
