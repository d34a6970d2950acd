/**
 * The layer rules of eslint.config.mjs fire: each case lints one import placed in a file of a given
 * folder (text only, nothing is written) with the project's own config, and expects one layer error
 * (a folder's allow-list, a banned library, or an import cycle) or none.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = resolve(__dirname, '../..');
/** A library a layer must not use; an import of ours outside the folder's allow-list (MAY_IMPORT); a cycle. */
const RULES = new Set(['@typescript-eslint/no-restricted-imports', 'import-x/no-restricted-paths', 'import-x/no-cycle']);

// Type information is not needed for import rules, and these files do not exist: parse without the project service.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => RULES.has(ruleId),
});

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code + '\nexport const _used = x;\n', { filePath: resolve(ROOT, file) });
  const fatal = result!.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], 'parsed');
  return result!.messages.filter((m) => m.ruleId !== null && RULES.has(m.ruleId)).map((m) => m.message);
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
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../check/index';", fails: true },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from './codes';", fails: false },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../workspace';", fails: true },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../rules/data';", fails: false },
  // The allow-list: the model imports only the rules pack, not the layers above it.
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../balance/estimate';", fails: true },
  { file: 'server/src/core/model/probe.ts', imports: "import type { x } from '../roster/model';", fails: true },
  { file: 'server/src/core/model/probe.ts', imports: "import { x } from '../examples/index';", fails: true },
  { file: 'server/src/core/sim/probe.ts', imports: "import { x } from '../balance/estimate';", fails: true },
  { file: 'server/src/core/balance/probe.ts', imports: "import { x } from '../sim/engagement';", fails: false },
  // Nothing in the core imports the client's tree, the view, or the repository's tests.
  { file: 'server/src/core/sim/probe.ts', imports: "import { x } from '../../../../client/src/ctx';", fails: true },
  { file: 'server/src/core/features/probe.ts', imports: "import type { x } from '../../../../client/webview/engagement/messages';", fails: true },
  { file: 'server/src/core/probe.ts', imports: "import { x } from '../../../test/core/property-settings';", fails: true },
  { file: 'server/src/core/check/probe.ts', imports: "import { x } from '../features/hover';", fails: true },
  { file: 'server/src/core/check/probe.ts', imports: "import { x } from '../model/derived';", fails: false },
  { file: 'server/src/core/sim/probe.ts', imports: "import { x } from '../check/index';", fails: true },
  { file: 'server/src/core/features/probe.ts', imports: "import { x } from '../check/context';", fails: true },
  { file: 'server/src/core/features/probe.ts', imports: "import { x } from '../rules/lookup';", fails: false },
  { file: 'server/src/core/features/probe.ts', imports: "import { x } from '../workspace';", fails: false },
  // The roster reports the validator's verdict (check/), but never runs the simulator or knows an editor.
  { file: 'server/src/core/roster/probe.ts', imports: "import { x } from '../check/index';", fails: false },
  { file: 'server/src/core/roster/probe.ts', imports: "import { x } from '../sim/engagement';", fails: true },
  { file: 'server/src/core/roster/probe.ts', imports: "import { x } from 'vscode-languageserver/node';", fails: true },
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
  // The edges: the server program only wires the LSP layer, which never reaches into the CLI.
  { file: 'server/src/server.ts', imports: "import { x } from './core/workspace';", fails: true },
  { file: 'server/src/lsp/probe.ts', imports: "import { x } from '../cli/args';", fails: true },
  { file: 'server/src/lsp/probe.ts', imports: "import { x } from '../core/workspace';", fails: false },
  // An import cycle: model/parse.ts imports limits.ts, so limits.ts may not import parse.ts.
  { file: 'server/src/core/model/limits.ts', imports: "import { x } from './parse';", fails: true },
  { file: 'server/src/core/model/limits.ts', imports: "import { x } from './chunks';", fails: false },
  // The CLI calls the core; scripts read the rules pack, not check/.
  { file: 'server/src/cli/probe.ts', imports: "import { x } from '../lsp/state';", fails: true },
  { file: 'server/src/cli/probe.ts', imports: "import { x } from '../core/service';", fails: false },
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
    const errors = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId !== null && RULES.has(m.ruleId)).map((m) => `${r.filePath}:${m.line}: ${m.message}`),
    );
    assert.deepEqual(errors, []);
  });
});
