/**
 * Runs the extension-host suite (suite/*.test.ts) inside real VS Code, with this checkout loaded as
 * an extension in development mode and a fresh copy of examples/ as the workspace.
 *
 *   npm run test:extension-host                 # in code-server (VS Code 1.139), works offline
 *   npm run test:extension-host -- --electron   # in desktop VS Code via @vscode/test-electron
 *                                               # (downloads VS Code; needs that network access)
 *   npm run test:extension-host -- --no-build   # reuse dist/ as it is
 *
 * Under code-server the suite runs through the same mechanism @vscode/test-web uses: the web
 * workbench's `payload` names the development extension and the tests entry point (honoured when
 * the server runs with enable-smoke-test-driver), the remote extension host calls `run()`, and the
 * workbench reports the exit code through `window.codeAutomationExit`, which Playwright exposes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { makeSandbox, removeSandbox, requireCodeServer, startCodeServer } from '../e2e/codeServer';
import { E2E_SETTINGS, workbenchUrl } from '../e2e/fixture';
import { launchBrowser } from '../e2e/workbench';

const ROOT = join(__dirname, '..', '..');
const OUT = join(ROOT, 'out', 'extension-host');

/** Compiles the suite: one CommonJS file per test, `vscode` and `mocha` left to the extension host's require. */
async function buildSuite(): Promise<string> {
  rmSync(OUT, { recursive: true, force: true });
  const dir = join(__dirname, 'suite');
  const entries = ['index.ts', ...readdirSync(dir).filter((n) => n.endsWith('.test.ts'))];
  await esbuild.build({
    entryPoints: entries.map((e) => join(dir, e)),
    outdir: OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return join(OUT, 'index.js');
}

interface Report {
  failures: number;
  results: { title: string; state: string | undefined; error?: string }[];
}

function printReport(): Report | undefined {
  const file = join(OUT, 'report.json');
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  for (const r of report.results) {
    console.log(`  ${r.state === 'passed' ? '✔' : '✘'} ${r.title}`);
    if (r.error) console.log(r.error.replace(/^/gm, '      '));
  }
  console.log(`\n  ${report.results.filter((r) => r.state === 'passed').length} passing, ${report.failures} failing`);
  return report;
}

async function inCodeServer(testsPath: string): Promise<number> {
  requireCodeServer();
  const sandbox = makeSandbox(join(ROOT, 'examples'), E2E_SETTINGS);
  const server = await startCodeServer(sandbox, ['enable-smoke-test-driver']);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const exit = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    await page.goto(workbenchUrl(server, { extensionDevelopmentPath: ROOT, extensionTestsPath: testsPath }));
    const timeout = new Promise<number>((_, reject) =>
      setTimeout(() => reject(new Error('The extension-host suite did not finish within 10 minutes')), 600_000).unref(),
    );
    return await Promise.race([exit, timeout]);
  } finally {
    await browser.close();
    await server.stop();
    removeSandbox(sandbox);
  }
}

async function inElectron(testsPath: string): Promise<number> {
  const { runTests } = await import('@vscode/test-electron');
  const sandbox = makeSandbox(join(ROOT, 'examples'), E2E_SETTINGS);
  try {
    return await runTests({
      version: process.env.VSCODE_VERSION ?? 'stable',
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: testsPath,
      launchArgs: [sandbox.folder, '--disable-extensions', `--user-data-dir=${sandbox.userDataDir}`],
    });
  } finally {
    removeSandbox(sandbox);
  }
}

async function main(): Promise<void> {
  // The development extension runs from dist/, so build it first (the same bundles the VSIX ships);
  // --no-build reuses dist/ as it is.
  if (!process.argv.includes('--no-build')) {
    execFileSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
  const testsPath = await buildSuite();
  const code = process.argv.includes('--electron') ? await inElectron(testsPath) : await inCodeServer(testsPath);
  const report = printReport();
  if (!report) console.error('The suite wrote no report: it did not run (see the extension host log).');
  process.exitCode = code === 0 && report && report.failures === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
