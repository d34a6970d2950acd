/**
 * The facade rule of eslint.config.mjs fires: an edge (server/src/lsp, server/src/cli)
 * imports the core only through core/service.ts and the shared shapes of core/api.ts, and the
 * facade itself may reach every layer of the core (but no editor library). Each case lints one
 * import placed in a file of a given folder (text only, nothing is written) with the project's config.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = resolve(__dirname, '../..');
// The facade's own rule, the layer bans, and the allow-list of what each folder may import.
const RULES = ['no-restricted-imports', '@typescript-eslint/no-restricted-imports', 'import-x/no-restricted-paths'];

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => RULES.includes(ruleId),
});

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code + '\nexport const _used = x;\n', { filePath: resolve(ROOT, file) });
  assert.deepEqual(
    result!.messages.filter((m) => m.fatal),
    [],
    'parsed',
  );
  return result!.messages.filter((m) => RULES.includes(m.ruleId ?? '')).map((m) => m.message);
}

const cases: { file: string; imports: string; fails: boolean }[] = [
  { file: 'server/src/lsp/probe.ts', imports: "import { x } from '../core/service';", fails: false },
  { file: 'server/src/lsp/probe.ts', imports: "import type { x } from '../core/api';", fails: false },
  { file: 'server/src/lsp/probe.ts', imports: "import { x } from '../core/features/hover';", fails: true },
  { file: 'server/src/lsp/probe.ts', imports: "import type { x } from '../core/model/types';", fails: true },
  { file: 'server/src/lsp/probe.ts', imports: "import { x } from '../core/workspace';", fails: true },
  { file: 'server/src/cli/probe.ts', imports: "import { x } from '../core/check';", fails: true },
  { file: 'server/src/cli/probe.ts', imports: "import { x } from '../core/service';", fails: false },
  { file: 'server/src/cli.ts', imports: "import { x } from './core/sim/index';", fails: true },
  // The Node and browser hosts too: a worker plays every task through the core's in-process runner.
  { file: 'server/src/node/probe.ts', imports: "import { x } from '../core/service';", fails: false },
  { file: 'server/src/node/probe.ts', imports: "import { x } from '../core/sim/run-here';", fails: true },
  { file: 'server/src/node/probe.ts', imports: "import { x } from '../core/worker';", fails: false },
  // The workers' entry reaches the simulator and the roster's import, not the features.
  { file: 'server/src/core/worker.ts', imports: "import { x } from './features/hover';", fails: true },
  { file: 'server/src/web/probe.ts', imports: "import type { x } from '../core/api';", fails: false },
  { file: 'server/src/web/probe.ts', imports: "import { x } from '../core/sim/runner';", fails: true },
  // The server program only wires the LSP layer (the allow-list), not even the facade.
  { file: 'server/src/server.ts', imports: "import { x } from './core/service';", fails: true },
  // The facade reaches every layer of the core, but stays pure.
  { file: 'server/src/core/service.ts', imports: "import { x } from './features/hover';", fails: false },
  { file: 'server/src/core/service.ts', imports: "import { x } from './check/index';", fails: false },
  { file: 'server/src/core/service.ts', imports: "import { x } from 'vscode-languageserver/node';", fails: true },
  // Another core file at the top still may not use check/ as a toolbox.
  { file: 'server/src/core/fleetPoints.ts', imports: "import { x } from './check/index';", fails: true },
];

describe('the edges reach the core through its facade (eslint.config.mjs)', function () {
  this.timeout(60000);
  for (const c of cases) {
    it(`${c.fails ? 'rejects' : 'allows'} \`${c.imports}\` in ${c.file}`, async () => {
      const errors = await lint(c.file, c.imports);
      if (c.fails) assert.equal(errors.length, 1, `expected one error, got ${JSON.stringify(errors)}`);
      else assert.deepEqual(errors, []);
    });
  }

  it('every edge file today imports at most core/service and core/api from the core', () => {
    const modules = new Set<string>();
    for (const dir of ['server/src/lsp', 'server/src/cli'])
      for (const f of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith('.ts')))
        for (const m of readFileSync(join(ROOT, dir, f), 'utf8').matchAll(/from '(\.\.\/core\/[^']+)'/g)) modules.add(m[1]!);
    assert.deepEqual(
      [...modules].sort(),
      ['../core/api', '../core/service'].filter((m) => modules.has(m)),
    );
    assert.ok(modules.has('../core/service'));
  });
});
