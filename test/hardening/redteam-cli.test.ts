/**
 * The red-team review, CLI items: control characters from files reach the terminal (3),
 * reads that trust `stat` (4), folders that cannot be read (5). Runs the built CLI (bin/) in a
 * process of its own, with a bounded heap and time.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { nodeIO } from '../../server/src/cli/io';
import { runCheck } from '../../server/src/cli/check';
import { escapeControls } from '../../server/src/cli/terminal';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'fabled-star.js');

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  ms: number;
}

/** Runs the CLI with `args`, killing it after `timeoutMs`; `asUser` runs it as that uid/gid (root only). */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number; heapMb?: number; asUser?: number } = {}): Promise<Run> {
  const node = [`--max-old-space-size=${opts.heapMb ?? 256}`, CLI, ...args];
  const [cmd, argv] =
    opts.asUser !== undefined
      ? ['setpriv', [`--reuid=${opts.asUser}`, `--regid=${opts.asUser}`, '--clear-groups', process.execPath, ...node]]
      : [process.execPath, node];
  return new Promise((res) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err), ms: performance.now() - t0 });
    });
  });
}

/** Bytes a terminal acts on: C0 controls other than tab and line feed, DEL, and C1 controls (UTF-8 C2 80 to C2 9F). */
export function terminalControls(b: Buffer): string[] {
  const found: string[] = [];
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f) found.push(`0x${c.toString(16)} at ${i}`);
    else if (c === 0xc2 && b[i + 1]! >= 0x80 && b[i + 1]! <= 0x9f) found.push(`U+00${b[i + 1]!.toString(16)} at ${i}`);
  }
  return found;
}

/** A card file whose names, weapon type and order carry terminal commands. */
export const ESCAPING_CARDS = [
  'faction: "Red\\e]0;owned\\a"',
  'units:',
  '  - name: "Evil\\e[2K\\r0 files checked: 0 errors\\e[8m"',
  '    class: "Destroyer\\u009b2J"',
  '    points: 145',
  '    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"',
  '    weapons:',
  '      - "Lance \\e]52;c;cm0gLXJmIH4=\\a — Energy, 18\\", 2, 3"',
  '      - "Pulse\\u202e\\u2028 — Ion, 9\\", 2, 4"',
  '    orders:',
  '      - "Attack\\rRun\\u0085"',
  '  - name: Target',
  '    class: Frigate',
  '    points: 60',
  '    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"',
  '    weapons:',
  '      - Pulse Laser — Ion, 9", 2, 4',
  '  - name: Junk',
  '    class: Frigate',
  '    points: 110',
  '    weapons:',
  '      - "Gun — Laser\\x07\\x7f\\e[1A, 9\\", 2, 4"',
  '',
].join('\n');

describe('red team: the CLI', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    assert.ok(existsSync(join(ROOT, 'dist', 'cli.js')), 'run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'fabled-redteam-'));
    chmodSync(dir, 0o755);
  });
  // rm walks by file descriptor: the paths here are too long for rmSync.
  after(() => new Promise((res) => spawn('rm', ['-rf', dir]).on('close', res)));

  describe('3. control characters from files', () => {
    it('escapes every control character, DEL, C1 control and bidi override', () => {
      assert.equal(
        escapeControls('a\u001b[2Kb\u0007c\rd\u009be\u007ff\u202eg\u2028h\ti\nj'),
        'a\\u001b[2Kb\\u0007c\\rd\\u009be\\u007ff\\u202eg\\u2028h\\ti\\nj',
      );
      assert.equal(escapeControls('line one\n\tline two\r\n', true), 'line one\n\tline two\\r\n');
      assert.equal(escapeControls('Radiant Court — Ünïcode ✓'), 'Radiant Court — Ünïcode ✓');
    });

    for (const format of ['text', 'json', 'sarif']) {
      it(`writes no terminal control from file text or file names: check --format ${format}`, async () => {
        const sub = join(dir, `esc-${format}`);
        mkdirSync(sub);
        writeFileSync(join(sub, 'evil.unit.yaml'), ESCAPING_CARDS);
        writeFileSync(join(sub, 'name\u001b]0;x\u0007\r.unit.yaml'), 'faction: X\nunits:\n  - name: A\n');
        const r = await runCli(['check', sub, join(sub, 'gone\u001b[2J.unit.yaml'), '--format', format]);
        assert.equal(r.code, 2, r.stderr.toString());
        assert.deepEqual(terminalControls(r.stdout), [], r.stdout.toString());
        assert.deepEqual(terminalControls(r.stderr), [], r.stderr.toString());
        if (format === 'text') {
          assert.match(r.stdout.toString(), /Unknown class "Destroyer\\u009b2J"/);
          assert.match(r.stdout.toString(), /Unknown weapon type "Laser\\u0007\\u007f\\u001b\[1A"/);
          assert.match(r.stdout.toString(), /"Attack\\rRun\\u0085" is not a known order/);
          assert.match(r.stdout.toString(), /name\\u001b\]0;x\\u0007\\r\.unit\.yaml/);
          assert.match(r.stderr.toString(), /gone\\u001b\[2J\.unit\.yaml: no such file/);
        } else {
          // The same text, only escaped: JSON readers get what the file holds.
          const text = JSON.stringify(JSON.parse(r.stdout.toString()));
          assert.ok(text.includes('Destroyer\u009b2J'), 'JSON keeps the text');
          assert.ok(text.includes('Laser\\u0007\u007f\\u001b[1A'), 'JSON keeps the text');
        }
      });
    }

    it('writes no terminal control in sim reports and errors', async () => {
      const sub = join(dir, 'esc-sim');
      mkdirSync(sub);
      writeFileSync(join(sub, 'evil.unit.yaml'), ESCAPING_CARDS.replace('class: "Destroyer\\u009b2J"', 'class: Destroyer'));
      const ok = await runCli([
        'sim',
        '--cards',
        sub,
        '--attacker',
        'Evil\u001b[2K\r0 files checked: 0 errors\u001b[8m',
        '--defender',
        'Target',
        '--trials',
        '200',
      ]);
      assert.equal(ok.code, 0, ok.stderr.toString());
      assert.deepEqual(terminalControls(ok.stdout), [], ok.stdout.toString());
      assert.match(ok.stdout.toString(), /Evil\\u001b\[2K/);
      const bad = await runCli(['sim', '--cards', sub, '--attacker', 'Evi\u001b[2K', '--defender', 'Target\u0007', '--aim', 'x\u009b\u001b]52;c;eA==\u0007']);
      assert.equal(bad.code, 2);
      assert.deepEqual(terminalControls(bad.stderr), [], bad.stderr.toString());
      const unknownCommand = await runCli(['\u001b[2Jcheck']);
      assert.deepEqual(terminalControls(unknownCommand.stderr), [], unknownCommand.stderr.toString());
    });
  });

  describe('4. reads that trust stat', () => {
    it('stops reading a card file that links to /proc/self/pagemap (stat says 0 bytes) at the cap: FS-YAML-LIMIT within 10 s and 256 MB', async function () {
      if (!existsSync('/proc/self/pagemap')) this.skip();
      const sub = join(dir, 'pagemap');
      mkdirSync(sub);
      symlinkSync('/proc/self/pagemap', join(sub, 'evil.unit.yaml'));
      writeFileSync(join(sub, 'ok.unit.yaml'), 'faction: X\nunits:\n  - name: A\n');
      const r = await runCli(['check', join(sub, 'evil.unit.yaml'), join(sub, 'ok.unit.yaml'), '--format', 'json'], { timeoutMs: 10_000, heapMb: 256 });
      assert.equal(r.signal, null, `killed after ${Math.round(r.ms)} ms`);
      assert.equal(r.code, 1, r.stderr.toString());
      const report = JSON.parse(r.stdout.toString()) as { diagnostics: { file: string; code: string; message: string }[]; summary: { files: number } };
      assert.equal(report.summary.files, 2);
      const limit = report.diagnostics.find((d) => d.file.endsWith('evil.unit.yaml'))!;
      assert.equal(limit.code, 'FS-YAML-LIMIT');
      assert.match(limit.message, /over 6 MB/);
    });

    it('reads no more than the cap of a file that stat says is small, and refuses devices and pipes without waiting', async () => {
      const sub = join(dir, 'devices');
      mkdirSync(sub);
      symlinkSync('/dev/zero', join(sub, 'zero.unit.yaml'));
      const fifo = join(sub, 'pipe.fleet.yaml');
      const mk = spawn('mkfifo', [fifo]);
      await new Promise((res) => mk.on('close', res));
      const r = await runCli(['check', join(sub, 'zero.unit.yaml'), fifo], { timeoutMs: 10_000 });
      assert.equal(r.signal, null, 'hung');
      assert.equal(r.code, 2);
      assert.match(r.stderr.toString(), /zero\.unit\.yaml: not a regular file/);
      assert.match(r.stderr.toString(), /pipe\.fleet\.yaml: not a regular file/);
      const sim = await runCli(['sim', '--cards', join(sub, 'zero.unit.yaml'), '--attacker', 'A', '--defender', 'B'], { timeoutMs: 10_000 });
      assert.equal(sim.code, 2);
      assert.match(sim.stderr.toString(), /not a regular file/);
    });
  });

  describe('5. folders that cannot be read', () => {
    it('reports a folder it may not list and exits 2, instead of "0 files checked" and 0', async function () {
      const sub = join(dir, 'locked');
      mkdirSync(join(sub, 'inner'), { recursive: true });
      writeFileSync(join(sub, 'a.unit.yaml'), 'faction: X\nunits: []\n');
      writeFileSync(join(sub, 'inner', 'b.unit.yaml'), 'faction: X\nunits: []\n');
      chmodSync(join(sub, 'inner'), 0o000);
      const locked = join(dir, 'locked-top');
      mkdirSync(locked);
      chmodSync(locked, 0o000);
      // root reads any folder: run as nobody, for whom the mode holds.
      const asUser = process.getuid?.() === 0 ? 65534 : undefined;
      try {
        const top = await runCli(['check', locked], { asUser });
        assert.equal(top.code, 2, top.stdout.toString() + top.stderr.toString());
        assert.match(top.stderr.toString(), /locked-top: cannot list this folder \(EACCES\)/);
        const inner = await runCli(['check', sub], { asUser });
        assert.equal(inner.code, 2);
        assert.match(inner.stderr.toString(), /inner: cannot list this folder \(EACCES\)/);
        assert.match(inner.stdout.toString(), /1 file checked/);
      } finally {
        chmodSync(join(sub, 'inner'), 0o755);
        chmodSync(locked, 0o755);
      }
    });

    it('reports a folder it cannot list even as root: a path too long for the system, and nesting past 32 levels', async () => {
      const sub = join(dir, 'deep');
      mkdirSync(sub);
      // Made one level at a time from inside: the whole path is too long for mkdir itself.
      const d = 'd'.repeat(250);
      const script = `process.chdir(process.argv[1]); for (let i = 0; i < 20; i++) { fs.mkdirSync('${d}'); process.chdir('${d}'); }`;
      const mk = spawn(process.execPath, ['-e', script, sub], { stdio: 'inherit' });
      assert.equal(await new Promise((res) => mk.on('close', res)), 0);
      const r = await runCli(['check', sub]);
      assert.equal(r.code, 2, r.stdout.toString());
      assert.match(r.stderr.toString(), /cannot list this folder \(ENAMETOOLONG\)/);
      const nested = join(dir, 'nested', ...Array.from({ length: 40 }, () => 'n'));
      mkdirSync(nested, { recursive: true });
      writeFileSync(join(nested, 'x.unit.yaml'), 'faction: X\nunits: []\n');
      const n = await runCli(['check', join(dir, 'nested')]);
      assert.equal(n.code, 2);
      assert.match(n.stderr.toString(), /nested more than 32 deep are not searched/);
    });

    it('reports a folder that turned into something else while it was being listed', () => {
      const sub = join(dir, 'replaced');
      mkdirSync(join(sub, 'gone'), { recursive: true });
      const real = nodeIO();
      let err = '';
      let out = '';
      const io = {
        ...real,
        stdout: (s: string) => (out += s),
        stderr: (s: string) => (err += s),
        // The folder is there when asked, and replaced by a file before it is listed.
        isDirectory: (p: string) => {
          const yes = real.isDirectory(p);
          if (yes && p.endsWith('replaced')) {
            rmSync(join(sub, 'gone'), { recursive: true });
            writeFileSync(join(sub, 'gone'), 'x');
            rmSync(sub, { recursive: true });
            writeFileSync(sub, 'now a file');
          }
          return yes;
        },
      };
      assert.equal(runCheck([sub], io), 2, out);
      assert.match(err, /replaced: cannot list this folder \(ENOTDIR\)/);
    });
  });
});
