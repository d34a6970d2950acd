/**
 * The one file reader (server/src/node/read.ts) on what a disk can hold: its blocking form (the CLI)
 * and its promised form (the language server) run the same steps, so every case is read both ways
 * and must give the same answer: text, too large (whatever stat says), not a regular file (a
 * folder, a FIFO that must not hang, a device), missing, and with `within` a link or a path outside.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readCapped, readCappedSync, type ReadOptions, type ReadResult } from '../../server/src/node/read';

describe('reading a file (node/read.ts), blocking and promised alike', () => {
  let dir: string;
  let outside: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fabled-read-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fabled-read-out-')));
    fs.writeFileSync(path.join(dir, 'a.unit.yaml'), 'faction: Ä\n');
    fs.writeFileSync(path.join(dir, 'big.unit.yaml'), 'x'.repeat(200_000));
    fs.mkdirSync(path.join(dir, 'folder.unit.yaml'));
    execFileSync('mkfifo', [path.join(dir, 'pipe.unit.yaml')]);
    fs.writeFileSync(path.join(outside, 'secret.unit.yaml'), 'secret');
    fs.symlinkSync(path.join(outside, 'secret.unit.yaml'), path.join(dir, 'link.unit.yaml'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  // Paths are functions: the folders exist only once `before` has run.
  const cases: [string, () => string, () => ReadOptions, (r: ReadResult) => boolean][] = [
    ['a card file', () => path.join(dir, 'a.unit.yaml'), () => ({ maxBytes: 100 }), (r) => r.ok && r.text === 'faction: Ä\n'],
    ['a file over the cap', () => path.join(dir, 'big.unit.yaml'), () => ({ maxBytes: 1000 }), (r) => !r.ok && r.reason === 'too-large' && r.bytes > 1000],
    ['a folder', () => path.join(dir, 'folder.unit.yaml'), () => ({ maxBytes: 100 }), (r) => !r.ok && (r.reason === 'not-regular' || r.reason === 'error')],
    ['a FIFO (no hang)', () => path.join(dir, 'pipe.unit.yaml'), () => ({ maxBytes: 100 }), (r) => !r.ok && r.reason === 'not-regular'],
    ['a device', () => '/dev/zero', () => ({ maxBytes: 100 }), (r) => !r.ok && r.reason === 'not-regular'],
    ['a missing file', () => path.join(dir, 'gone.unit.yaml'), () => ({ maxBytes: 100 }), (r) => !r.ok && r.reason === 'error' && r.message === 'ENOENT'],
    ['a file inside the folders', () => path.join(dir, 'a.unit.yaml'), () => ({ maxBytes: 100, within: [dir] }), (r) => r.ok],
    ['a link, with folders given', () => path.join(dir, 'link.unit.yaml'), () => ({ maxBytes: 100, within: [dir] }), (r) => !r.ok && r.reason === 'symlink'],
    ['a link, anywhere allowed', () => path.join(dir, 'link.unit.yaml'), () => ({ maxBytes: 100 }), (r) => r.ok && r.text === 'secret'],
    [
      'a file outside the folders',
      () => path.join(outside, 'secret.unit.yaml'),
      () => ({ maxBytes: 100, within: [dir] }),
      (r) => !r.ok && r.reason === 'outside',
    ],
    [
      'a procfs file that stat calls empty',
      () => '/proc/self/pagemap',
      () => ({ maxBytes: 100_000 }),
      (r) => !r.ok && (r.reason === 'too-large' || r.reason === 'error'),
    ],
  ];
  for (const [what, file, opts, ok] of cases)
    it(`${what}: the same answer both ways`, async () => {
      const sync = readCappedSync(file(), opts());
      const promised = await readCapped(file(), opts());
      assert.ok(ok(sync), JSON.stringify(sync));
      assert.deepEqual(promised, sync);
    });

  it('closes what it opens (no descriptor left behind after a thousand reads)', async () => {
    const before = fs.readdirSync('/proc/self/fd').length;
    for (let i = 0; i < 500; i++) {
      readCappedSync(path.join(dir, 'big.unit.yaml'), { maxBytes: 1000 });
      await readCapped(path.join(dir, 'a.unit.yaml'), { maxBytes: 100 });
    }
    assert.ok(fs.readdirSync('/proc/self/fd').length <= before + 2);
  });
});
