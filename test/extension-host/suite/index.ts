/**
 * The entry point VS Code's extension host calls with `--extensionTestsPath` (the `run()` contract
 * of @vscode/test-electron and of the web workbench's extension tests): runs the mocha suites of
 * this folder inside the extension host, where `vscode` is the real API.
 *
 * The outcome is also written to report.json beside this file, because under code-server the
 * extension host's console is not the terminal that started the run.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  for (const f of readdirSync(__dirname)
    .filter((n) => n.endsWith('.test.js'))
    .sort())
    mocha.addFile(join(__dirname, f));
  const results: { title: string; state: string | undefined; error?: string }[] = [];
  await new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      writeFileSync(join(__dirname, 'report.json'), JSON.stringify({ failures, results }, null, 2));
      if (failures > 0) reject(new Error(`${failures} extension-host tests failed`));
      else resolve();
    });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed' }));
    runner.on('fail', (t, err: Error) => {
      results.push({ title: t.fullTitle(), state: 'failed', error: `${err.message}\n${err.stack ?? ''}` });
    });
  });
}
