/**
 * The cycle check that sees type imports too (issue 25). The lint's `import-x/no-cycle` follows value
 * imports only (an `import type` leaves no code behind, and the rule has no option to follow it), but
 * a cycle of type imports still ties the modules' designs together: the six-file cycle issue 25 found
 * was one. dependency-cruiser reads the TypeScript sources before compilation
 * (`tsPreCompilationDeps`), so `import type` counts. Run by `npm run lint`; test/lint/layers.test.ts
 * shows it firing.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle, type imports included: move the shared shapes to a module both sides import.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|out)/' },
  },
};
