/**
 * The hostile corpus (./corpus.ts) through the core and through the built CLI. Each case runs in
 * a process of its own with a bounded heap, and must give the diagnostic it expects within a time
 * bound: generous safety bounds (the cases take tens to hundreds of milliseconds; the speed
 * figures live in `npm run bench`), there so that a hang fails the test instead of the run.
 */
import { strict as assert } from 'node:assert';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CASES, type HostileCase } from './corpus';
import type { Checked } from './corpus-child';
import { bound, describeBound } from './bounds';

/** The safety bound of one check in the core (the text already generated). */
export const CORE_BOUND_MS = 2000;
/** The safety bound of one CLI run: process start, reading the file and the check. */
export const CLI_BOUND_MS = 5000;
/** The heap every run gets (the 50 MB case's text alone takes 50 MB). */
export const HEAP_MB = 256;

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'fabled-star.js');

function describeExpect(c: HostileCase): string {
  return c.expect.length ? c.expect.join(' and ') : 'no problems';
}

/** What every case must show, whichever front end reported it. */
function assertReport(c: HostileCase, codes: string[]): void {
  for (const code of c.expect) assert.ok(codes.includes(code), `expected ${code}; got ${codes.join(', ') || 'nothing'}`);
  if (c.only)
    assert.deepEqual(
      codes.filter((x) => !c.expect.includes(x)),
      [],
      'nothing else may be reported',
    );
}

/** A child that checks cases one at a time; replaced when one of them kills or hangs it. */
class Checker {
  private child: ChildProcess | undefined;

  private start(): ChildProcess {
    const child = fork(join(__dirname, 'corpus-child.ts'), [], {
      execArgv: ['--import', 'tsx', `--max-old-space-size=${HEAP_MB}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child.stderr!.resume();
    return child;
  }

  /** Checks one case: undefined plus a reason when the child died or ran past the bound. */
  run(index: number): Promise<{ checked?: Checked; failure?: string }> {
    const child = (this.child ??= this.start());
    return new Promise((res) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (r: { checked?: Checked; failure?: string }) => {
        if (timer) clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (r.failure) {
          child.kill('SIGKILL');
          this.child = undefined;
        }
        res(r);
      };
      const onExit = (code: number | null, signal: string | null) => finish({ failure: `the checking process died (exit ${code}, signal ${signal})` });
      const onMessage = (m: { type: 'generated' } | Checked) => {
        if (m.type === 'generated') {
          if (timer) clearTimeout(timer);
          const ms = bound(CORE_BOUND_MS);
          timer = setTimeout(() => finish({ failure: `no answer within ${describeBound(CORE_BOUND_MS, ms)}` }), ms);
        } else finish({ checked: m });
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      // Generating the largest case takes a moment on a busy machine; it is not what is bounded.
      timer = setTimeout(() => finish({ failure: 'the case was not generated within 60 s' }), 60_000);
      child.send(index);
    });
  }

  stop(): void {
    this.child?.kill();
    this.child = undefined;
  }
}

describe('hostile corpus: core', function () {
  this.timeout(120_000);
  const checker = new Checker();
  after(() => checker.stop());

  CASES.forEach((c, index) => {
    it(`${c.name}: ${describeExpect(c)} within ${CORE_BOUND_MS} ms, ${HEAP_MB} MB of heap`, async () => {
      const { checked, failure } = await checker.run(index);
      assert.ok(checked, failure);
      assertReport(c, checked.codes);
      assert.deepEqual(checked.badSpans, [], 'every range lies inside the text');
    });
  });
});

/** Runs the built CLI on one file; the process is killed at the bound. */
function runCli(file: string, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CLI, 'check', file, '--format', 'json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, ms);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout, stderr, killed });
    });
  });
}

describe('hostile corpus: CLI (fabled-star check FILE --format json)', function () {
  this.timeout(120_000);
  let dir: string;
  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run "node esbuild.mjs" first');
    dir = mkdtempSync(join(tmpdir(), 'fabled-hostile-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const c of CASES) {
    it(`${c.name}: ${describeExpect(c)}, exit 0 or 1, within ${CLI_BOUND_MS} ms and ${HEAP_MB} MB of heap`, async () => {
      const file = join(dir, c.file);
      writeFileSync(file, c.bytes ? c.bytes() : c.text());
      try {
        const ms = bound(CLI_BOUND_MS);
        const r = await runCli(file, ms);
        assert.ok(!r.killed, `no answer within ${describeBound(CLI_BOUND_MS, ms)}`);
        assert.ok(r.code === 0 || r.code === 1, `exit ${r.code} (signal ${r.signal}); stderr: ${r.stderr.slice(0, 2000)}`);
        const report = JSON.parse(r.stdout) as { diagnostics: { code: string; severity: string; line: number; column: number }[]; summary: { errors: number } };
        assertReport(c, [...new Set(report.diagnostics.map((d) => d.code))]);
        assert.equal(r.code, report.summary.errors > 0 ? 1 : 0, 'the exit status says whether there are errors');
        for (const d of report.diagnostics) assert.ok(d.line >= 1 && d.column >= 1, `${d.code} at ${d.line}:${d.column}`);
      } finally {
        rmSync(file, { force: true });
      }
    });
  }
});
