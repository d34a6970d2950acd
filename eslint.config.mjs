// Lint that catches real bugs: floating promises, == instead of ===, type-only imports kept out of
// the bundles. Formatting is Prettier's job. Below, the layers of CONTRIBUTING.md as import rules
// per folder, so that drift fails CI (test/lint/layers.test.ts shows each rule firing).
import tseslint from 'typescript-eslint';

/** A forbidden import: a pattern of the import path and the sentence the error gives. */
const ban = (regex, message, allowTypeImports = false) => ({ regex, message, allowTypeImports });

const EDITOR = ban(
  '^(vscode|vscode-languageserver|vscode-languageclient|vscode-languageserver-protocol)(/|$)',
  'The core is pure: no editor or LSP library (the LSP layer is server/src/lsp).',
);
const NODE_IO = ban('^(node:)?(fs|fs/promises|child_process|net|http|https)$', 'The core reads no files: text comes in through the Workspace.');
const PROTOCOL = ban('(^|/)protocol(/|$)', 'The core never imports protocol/: declare shared types in server/src/core/api.ts; protocol/ imports them.');
const EDGES = ban('(^|/)(lsp|cli)(/|$)|(^|/)(server|cli)$', 'The core never imports its edges (server/src/lsp, server/src/cli).');
const CHECK = (who) =>
  ban(
    '(^|/)check(/|$)',
    `${who} do not use check/ as a toolbox: rule lookups are in rules/lookup.ts, derived facts in model/derived.ts, fleet points in fleetPoints.ts.`,
  );
const FEATURES = (who) => ban('(^|/)features(/|$)', `${who} do not import features/.`);
const SIM = (who) => ban('(^|/)sim(/|$)', `${who} do not import the simulator.`);
const WORKSPACE = (who) => ban('(^|/)(workspace|fleetPoints)$', `${who} do not import the workspace.`);
const CORE = [EDITOR, NODE_IO, PROTOCOL, EDGES];

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

  // The core: rules <- model <- (workspace, check, sim) <- balance <- features. Nothing in it knows an editor.
  layer(
    ['server/src/core/*.ts'],
    [...CORE, CHECK('The workspace and fleet points'), FEATURES('The workspace and fleet points'), SIM('The workspace and fleet points')],
  ),
  // The facade (issue 25) is the one core file that reaches every layer, to offer it to the edges.
  layer(['server/src/core/service.ts'], CORE),
  layer(['server/src/core/rules/**/*.ts'], [...CORE, ban('^\\.\\./', 'The rules pack imports nothing else of ours.')]),
  layer(['server/src/core/model/**/*.ts'], [...CORE, CHECK('The model'), FEATURES('The model'), SIM('The model'), WORKSPACE('The model')]),
  layer(['server/src/core/check/**/*.ts'], [...CORE, FEATURES('Checks'), SIM('Checks')]),
  layer(['server/src/core/sim/**/*.ts'], [...CORE, CHECK('The simulator'), FEATURES('The simulator'), WORKSPACE('The simulator')]),
  layer(['server/src/core/balance/**/*.ts'], [...CORE, CHECK('The points estimate'), FEATURES('The points estimate')]),
  layer(['server/src/core/features/**/*.ts'], [...CORE, CHECK('Features')]),
  // The roster reports the validator's verdict on a fleet, so it may call checkDocument.
  layer(['server/src/core/roster/**/*.ts'], [...CORE, SIM('The roster')]),

  // The edges: the CLI knows no LSP; protocol/ only types of the core (and the figures the client shows).
  layer(['server/src/cli.ts', 'server/src/cli/**/*.ts'], [EDITOR, ban('(^|/)(lsp|protocol)(/|$)', 'The CLI calls the core, not the LSP layer or protocol/.')]),
  layer(
    ['protocol/**/*.ts'],
    [
      ban(
        '(^|/)server/src/(?!core/rules/data$|core/sim/limits$|core/sim/variants/catalog$)',
        'protocol/ imports only types from the core (values: the rules pack figures in protocol/simulation.ts).',
        true,
      ),
      ban('^(vscode|vscode-languageserver|vscode-languageclient)(/|$)', 'protocol/ is shared by client and server: only vscode-languageserver-protocol.'),
    ],
  ),
  layer(['client/src/**/*.ts'], [ban('(^|/)server/(src)?(/|$)', "The client never imports from the server's tree: go through protocol/.")]),
  layer(
    ['client/webview/**/*.ts'],
    [
      ban('(^|/)server/(src)?(/|$)', "The view never imports from the server's tree: go through protocol/simulation."),
      ban('^vscode|(^|/)protocol(/index)?$', 'The view runs in a browser: no vscode or LSP libraries (protocol/simulation has what it needs).'),
      ban('(^|/)src/', 'The view talks to the host only through postMessage (client/webview/messages.ts).'),
    ],
  ),
  layer(
    ['scripts/**/*.ts', 'syntaxes/**/*.ts'],
    [CHECK('Scripts'), FEATURES('Scripts'), ban('(^|/)(lsp|protocol)(/|$)', 'Scripts read the rules pack and the model, not the LSP layer.')],
  ),

  // The edges reach the core only through its facade (issue 25): core/service.ts, and the shared
  // shapes of core/api.ts. Its own rule (not a layer row), so that it adds to the layer rules above.
  {
    files: ['server/src/lsp/**/*.ts', 'server/src/cli/**/*.ts', 'server/src/cli.ts', 'server/src/server.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)core/(?!(service|api)$)',
              message: 'The edges import the core only through server/src/core/service.ts (and the shared shapes of core/api.ts): add what you need there.',
            },
          ],
        },
      ],
    },
  },
);
