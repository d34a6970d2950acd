// Lint that catches real bugs: floating promises, == instead of ===, type-only imports kept out of
// the bundles. Formatting is Prettier's job. Below, the layers of CONTRIBUTING.md as an allow-list per
// folder (what each may import of ours), a ban on the libraries a layer must not use, and no import
// cycle, so that drift fails CI (test/lint/layers.test.ts shows each rule firing).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const ROOT = import.meta.dirname;
const CORE = 'server/src/core';
/** The core's own files beside its folders (workspace.ts, fleetPoints.ts, api.ts), but the facade, which may import every layer. */
const FACADE = `${CORE}/service.ts`;
/** The facade's slim twin for the simulation workers: the in-process runner and the roster's import. */
const WORKER_ENTRY = `${CORE}/worker.ts`;
const coreEntries = readdirSync(join(ROOT, CORE), { withFileTypes: true });
const CORE_FILES = coreEntries
  .filter((d) => d.isFile() && d.name.endsWith('.ts') && ![FACADE, WORKER_ENTRY].includes(`${CORE}/${d.name}`))
  .map((d) => `${CORE}/${d.name}`);
const core = (...folders) => folders.map((f) => `${CORE}/${f}`);

/**
 * What each folder may import of the repository's own files (paths from the root; a folder may
 * always import its own files): the layers of CONTRIBUTING.md. An import of anything else of ours
 * is an error that says what the folder may import. Libraries are not paths of ours: the layers'
 * bans on editor and I/O libraries are below.
 */
const MAY_IMPORT = [
  // The core: rules <- model <- (workspace, check, sim) <- (examples, balance) <- (features, roster) <- the facade.
  { folder: core('rules'), may: [], says: 'The rules pack imports nothing else of ours.' },
  { folder: core('model'), may: core('rules'), says: 'The model imports only the rules pack.' },
  {
    folder: CORE_FILES,
    target: [`${CORE}/!(service|worker).ts`],
    may: [...core('rules', 'model'), ...CORE_FILES],
    says: 'The workspace and fleet points import only the model and the rules pack.',
  },
  { folder: core('check'), may: [...core('rules', 'model'), ...CORE_FILES], says: 'Checks import only the workspace, the model and the rules pack.' },
  { folder: core('sim'), may: core('rules', 'model'), says: 'The simulator imports only the model and the rules pack.' },
  {
    folder: core('examples'),
    may: [...core('rules', 'model'), ...CORE_FILES],
    says: 'The example cards import only the workspace, the model and the rules pack.',
  },
  {
    folder: core('balance'),
    may: [...core('rules', 'model', 'sim', 'examples'), ...CORE_FILES],
    says: 'The points estimate imports only the simulator, the example cards, the workspace, the model and the rules pack.',
  },
  {
    folder: core('features'),
    may: [...core('rules', 'model', 'sim', 'examples', 'balance', 'roster'), ...CORE_FILES],
    says: 'Features import only balance/, sim/, roster/, examples/, the workspace, the model and the rules pack: not check/ as a toolbox (rule lookups are in rules/lookup.ts, derived facts in model/derived.ts, fleet points in fleetPoints.ts).',
  },
  // The roster reports the validator's verdict on a fleet, so it may call checkDocument; it never runs the simulator.
  {
    folder: core('roster'),
    may: [...core('rules', 'model', 'check'), ...CORE_FILES],
    says: 'The roster imports only check/, the workspace, the model and the rules pack.',
  },
  { folder: [FACADE], may: [CORE], says: 'The facade imports only the core.' },
  {
    folder: [WORKER_ENTRY],
    may: [...core('rules', 'model', 'sim', 'roster', 'check'), ...CORE_FILES],
    says: "The workers' entry imports only the simulator, the roster's import and what they stand on.",
  },
  // The service's request groups: each may call every layer of the core; only the facade imports them.
  { folder: core('requests'), may: [CORE], says: "The service's request groups import only the core." },
  // The edges.
  { folder: ['server/src/server.ts'], may: ['server/src/lsp'], says: 'The server program only wires the LSP layer.' },
  { folder: ['server/src/lsp'], may: [CORE, 'server/src/node', 'protocol'], says: 'The LSP layer imports only the core, server/src/node and protocol/.' },
  {
    folder: ['server/src/cli.ts', 'server/src/cli'],
    may: [CORE, 'server/src/node', 'server/src/cli'],
    says: 'The CLI calls the core, not the LSP layer or protocol/.',
  },
  { folder: ['server/src/node'], may: [CORE], says: 'server/src/node imports only the core.' },
  {
    folder: ['server/src/web'],
    may: [CORE, 'server/src/lsp', 'server/src/node', 'protocol'],
    says: "The browser version's server wires the LSP layer and stands in for its Node parts: it imports the core, server/src/lsp, protocol/ and server/src/node's types.",
  },
  {
    folder: ['protocol'],
    may: [`${CORE}/api.ts`, ...core('rules', 'sim'), 'package.json'],
    says: "protocol/ imports only the core's shared types (api.ts, sim/), the rules pack and the manifest's settings table (package.json).",
  },
  { folder: ['client/src'], may: ['protocol', 'client/webview'], says: "The client never imports from the server's tree: go through protocol/." },
  {
    folder: ['client/webview'],
    may: ['protocol/simulation.ts'],
    says: 'The view runs in a browser and talks to the host only through postMessage: it imports only protocol/simulation.',
  },
  {
    folder: ['scripts', 'syntaxes'],
    may: [
      ...core('rules', 'model', 'sim', 'balance', 'examples'),
      ...CORE_FILES,
      'server/src/node',
      'server/src/cli/price-pool.ts',
      'server/src/cli.ts',
      'server/src/cli/args.ts',
      'protocol/settings.ts',
      'scripts',
      'test',
    ],
    says: "Scripts read the rules pack, the model, the simulator, the estimate and the examples, run battles on server/src/node's pool, and read the CLI's command tables (cli.ts, cli/args.ts) and the settings table (protocol/settings.ts) for the reference pages: not check/, features/ or the LSP layer.",
  },
];
// A folder of the core that the table does not name yet may import the core's lower layers only, until it is given its line.
for (const d of coreEntries)
  if (d.isDirectory() && !MAY_IMPORT.some((l) => l.folder.includes(`${CORE}/${d.name}`)))
    MAY_IMPORT.push({
      folder: core(d.name),
      may: [...core('rules', 'model'), ...CORE_FILES],
      says: `${CORE}/${d.name} is not in MAY_IMPORT (eslint.config.mjs) yet: it may import only the workspace, the model and the rules pack.`,
    });

/** One zone per line of the table: anything of the repository's outside the folder and what it may import is refused. */
const zones = MAY_IMPORT.map(({ folder, target, may, says }) => ({
  target: target ?? folder,
  from: '.',
  except: [...new Set([...folder, ...may, 'node_modules'])].map((p) => `./${p}`),
  message: `${says} (MAY_IMPORT in eslint.config.mjs)`,
}));

/** A forbidden library: a pattern of the import path and the sentence the error gives. */
const ban = (regex, message, allowTypeImports = false) => ({ regex, message, allowTypeImports });

const EDITOR = ban(
  '^(vscode|vscode-languageserver|vscode-languageclient|vscode-languageserver-protocol)(/|$)',
  'The core is pure: no editor or LSP library (the LSP layer is server/src/lsp).',
);
const NODE_IO = ban('^(node:)?(fs|fs/promises|child_process|net|http|https)$', 'The core reads no files: text comes in through the Workspace.');

/** One config block per layer; each lists every pattern that applies (a later block replaces the rule, it does not add to it). */
const layer = (files, patterns) => ({ files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } });

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.bench/**', 'test-output/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },

  // What each folder may import of ours (MAY_IMPORT above), and no import cycle in the product's code.
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // As import-x's flat TypeScript config: read .ts files (for the cycle check) with typescript-eslint's parser.
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: join(ROOT, 'tsconfig.json') })],
    },
  },
  { files: ['**/*.ts'], rules: { 'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones }] } },
  // A cycle of value imports (the rule does not follow `import type`, which leaves no code behind).
  { files: ['server/src/**/*.ts', 'client/**/*.ts', 'protocol/**/*.ts'], rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] } },

  // With noUncheckedIndexedAccess on, a `]!` says "this index is in range"; an assertion that changes nothing is noise.
  {
    files: ['server/src/**/*.ts', 'client/**/*.ts', 'protocol/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'error' },
  },

  // A function says one thing: none in the product's code runs past 100 lines (blank lines and comments not counted).
  {
    files: ['server/src/**/*.ts', 'client/**/*.ts', 'protocol/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }] },
  },

  // The libraries each layer must not use. Nothing in the core knows an editor or reads a file.
  layer([`${CORE}/**/*.ts`], [EDITOR, NODE_IO]),
  // The CLI knows no LSP; protocol/ only types of the core (and the figures the client shows).
  layer(['server/src/cli.ts', 'server/src/cli/**/*.ts'], [EDITOR]),
  layer(
    ['protocol/**/*.ts'],
    [
      ban(
        '(^|/)server/src/(?!core/rules/data$|core/rules/words$|core/sim/limits$|core/sim/variants/catalog$)',
        'protocol/ imports only types from the core (values: the rules pack figures in protocol/simulation.ts, and its words).',
        true,
      ),
      ban('^(vscode|vscode-languageserver|vscode-languageclient)(/|$)', 'protocol/ is shared by client and server: only vscode-languageserver-protocol.'),
    ],
  ),
  layer(['client/webview/**/*.ts'], [ban('^vscode', 'The view runs in a browser: no vscode or LSP libraries (protocol/simulation has what it needs).')]),

  // The edges reach the core only through its facade: core/service.ts, and the shared
  // shapes of core/api.ts. Its own rule (not a layer row), so that it adds to the layer rules above.
  {
    files: [
      'server/src/lsp/**/*.ts',
      'server/src/cli/**/*.ts',
      'server/src/node/**/*.ts',
      'server/src/web/**/*.ts',
      'server/src/cli.ts',
      'server/src/server.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)core/(?!(service|api|worker)$)',
              message:
                "The edges import the core only through server/src/core/service.ts (and the shared shapes of core/api.ts, and a simulation worker's core/worker.ts): add what you need there.",
            },
          ],
        },
      ],
    },
  },
);
