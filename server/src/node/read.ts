/**
 * The one way the CLI and the language server read a file from disk: a regular file only, at most
 * `maxBytes` bytes, whatever `stat` says.
 *
 * `stat` cannot be trusted for size: `/proc/self/pagemap` and most of procfs and sysfs report 0 bytes
 * and then stream gigabytes, and a file can grow between `stat` and the read. So the file is opened
 * once (without blocking, so that a FIFO cannot hang the open), checked on the open descriptor
 * (`fstat`: a regular file, not a device, a pipe or a socket), and read in chunks until the cap, where
 * the read stops. With `within`, the file's real path (every symbolic link resolved) must lie in one
 * of the given folders, and the last component may not be a symbolic link at all, as when a folder is
 * listed: a link named like a card file cannot pull `/etc/passwd` or a procfs file into the index.
 *
 * Node only (no vscode, no LSP): the CLI and server/src/lsp both use it.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { LIMITS } from '../core/model/limits';

/**
 * The most bytes read of one file. UTF-8 takes at most 3 bytes per UTF-16 unit, so a file larger
 * than this is over the checker's character limit for sure (and is reported as too large).
 */
export const MAX_READ_BYTES = 3 * LIMITS.fileChars;

/** What a read gave: the text, or why there is none. */
export type ReadResult =
  | { ok: true; text: string }
  /** The file holds more than the cap (`bytes` is how much was seen before the read stopped). */
  | { ok: false; reason: 'too-large'; bytes: number }
  | { ok: false; reason: 'not-regular' | 'outside' | 'symlink' | 'error'; message: string };

export interface ReadOptions {
  /** More bytes than this make the file too large (the read stops within one 64 KiB chunk past it). */
  maxBytes: number;
  /** Folders the file's real path must be inside (absolute); undefined: anywhere. */
  within?: readonly string[];
  /**
   * With `within`: real paths of the directories already resolved in this batch (a scan reads
   * thousands of files from a few directories). The file itself is then opened without following
   * a link (O_NOFOLLOW refuses one), so its real path is its directory's real path and its name,
   * and the `lstat` and `realpath` of each file are saved.
   */
  realDirs?: Map<string, string>;
}

const CHUNK = 64 * 1024;
const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function errorResult(e: unknown): ReadResult {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ELOOP') return { ok: false, reason: 'symlink', message: 'a symbolic link' };
  return { ok: false, reason: 'error', message: code ?? (e instanceof Error ? e.message : String(e)) };
}

/** Whether `p` is `dir` or below it (both real, absolute paths). */
export function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function decode(chunks: Buffer[], total: number): string {
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Reads `file` synchronously (the CLI). */
export function readCappedSync(file: string, opts: ReadOptions): ReadResult {
  let target = file;
  let flags = FLAGS;
  if (opts.within) {
    try {
      if (opts.realDirs && NOFOLLOW) {
        const dir = path.dirname(file);
        let real = opts.realDirs.get(dir);
        if (real === undefined) opts.realDirs.set(dir, (real = fs.realpathSync(dir)));
        target = path.join(real, path.basename(file));
      } else {
        if (fs.lstatSync(file).isSymbolicLink()) return { ok: false, reason: 'symlink', message: 'a symbolic link' };
        target = fs.realpathSync(file);
      }
    } catch (e) {
      return errorResult(e);
    }
    if (!opts.within.some((d) => isInside(target, d))) return { ok: false, reason: 'outside', message: 'outside the workspace folders' };
    flags |= NOFOLLOW;
  }
  let fd: number;
  try {
    fd = fs.openSync(target, flags);
  } catch (e) {
    return errorResult(e);
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return { ok: false, reason: 'not-regular', message: 'not a regular file' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // Whole chunks: procfs files such as pagemap refuse reads of other sizes (EINVAL).
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (total > opts.maxBytes) return { ok: false, reason: 'too-large', bytes: total };
    }
    return { ok: true, text: decode(chunks, total) };
  } catch (e) {
    return errorResult(e);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads `file` without blocking the event loop (the language server). */
export async function readCapped(file: string, opts: ReadOptions): Promise<ReadResult> {
  let target = file;
  let flags = FLAGS;
  if (opts.within) {
    try {
      if ((await fsp.lstat(file)).isSymbolicLink()) return { ok: false, reason: 'symlink', message: 'a symbolic link' };
      target = await fsp.realpath(file);
    } catch (e) {
      return errorResult(e);
    }
    if (!opts.within.some((d) => isInside(target, d))) return { ok: false, reason: 'outside', message: 'outside the workspace folders' };
    flags |= NOFOLLOW;
  }
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(target, flags);
  } catch (e) {
    return errorResult(e);
  }
  try {
    if (!(await handle.stat()).isFile()) return { ok: false, reason: 'not-regular', message: 'not a regular file' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const { bytesRead: n } = await handle.read(buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (total > opts.maxBytes) return { ok: false, reason: 'too-large', bytes: total };
    }
    return { ok: true, text: decode(chunks, total) };
  } catch (e) {
    return errorResult(e);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
