/**
 * The built CLI writing into a pipe whose reader has gone (`fabled-star check … | head -1`): no
 * stack on stderr, and the exit status the command has with the whole output read (0 clean, 1
 * errors found), not Node's 1 for an unhandled EPIPE. Real pipes, through bash.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXAMPLES } from '../helpers';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'fabled-star.js');

/**
 * Runs `fabled-star ARGS | READER` in bash: the CLI's exit status (PIPESTATUS), its stderr, and
 * what the reader printed. `true` as the reader closes the pipe before the CLI has started (it
 * waits 0.3 s first); `head -1` reads one line of a long output, then closes it.
 */
function piped(args: string[], reader: 'true' | 'head -1'): Promise<{ status: number; stderr: string; read: string }> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const wait = reader === 'true' ? 'sleep 0.3; ' : '';
  const script = `{ ${wait}exec ${quoted} 2>"$ERR"; } | ${reader} >"$READ"; echo "\${PIPESTATUS[0]}"`;
  const dir = mkdtempSync(join(tmpdir(), 'fabled-pipe-'));
  const env = { ...process.env, ERR: join(dir, 'err'), READ: join(dir, 'read') };
  return new Promise((res, rej) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', rej);
    child.on('close', () => {
      const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '');
      const r = { status: Number(out.trim()), stderr: read(env.ERR), read: read(env.READ) };
      rmSync(dir, { recursive: true, force: true });
      res(r);
    });
  });
}

describe('CLI: a pipe closed early', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    assert.ok(existsSync(join(ROOT, 'dist', 'cli.js')), 'run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'fabled-pipe-cards-'));
    // Far more than a pipe holds (64 KiB): a card file with hundreds of problems.
    const cards = Array.from({ length: 600 }, (_, i) => `  - name: Broken ${i}\n    class: Frigate\n    points: -${i}\n`).join('');
    writeFileSync(join(dir, 'broken.unit.yaml'), `faction: Broken\nunits:\n${cards}`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('check … | head -1: the first line, no stack, exit 1 (errors found)', async () => {
    const r = await piped(['check', dir], 'head -1');
    assert.match(r.read, /^.*broken\.unit\.yaml:\d+:\d+: error FS-[A-Z-]+: .*\n$/);
    assert.equal(r.stderr, '');
    assert.equal(r.status, 1);
  });

  it('check … | true (closed before the first write): no stack, exit 0 for clean files', async () => {
    const r = await piped(['check', join(EXAMPLES, 'myr-valari')], 'true');
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
  });

  it('roster … | true: no stack, the roster’s own status (0 legal, 1 not legal)', async () => {
    const legal = await piped(['roster', join(EXAMPLES, 'fleets', 'skirmish-500.fleet.yaml'), '--cards', EXAMPLES, '--format', 'html'], 'true');
    assert.deepEqual([legal.stderr, legal.status], ['', 0]);
    const over = await piped(['roster', join(EXAMPLES, 'showcase', 'over-budget.fleet.yaml'), '--cards', EXAMPLES], 'true');
    assert.deepEqual([over.stderr, over.status], ['', 1]);
  });

  it('check --format json … | head -1: no stack, exit 1', async () => {
    const r = await piped(['check', dir, '--format', 'json'], 'head -1');
    assert.equal(r.read, '{\n');
    assert.equal(r.stderr, '');
    assert.equal(r.status, 1);
  });
});
