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
import { LIMITS } from '../core/service';

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
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, total).toString('utf8');
}

/** The sync reads' first chunk: one at a time, so one buffer serves them all (decoded before the next). */
const SCRATCH = Buffer.allocUnsafe(CHUNK);

/** One step of a read on the disk: what `capped` asks for, and the sync and async runners do. */
type Step =
  | { op: 'isLink'; path: string }
  | { op: 'realpath'; path: string }
  | { op: 'open'; path: string; flags: number }
  /** fstat on the open file: whether it is a regular file, and the size it says. */
  | { op: 'isFile' }
  | { op: 'read'; buf: Buffer }
  | { op: 'close' };

/**
 * The read, written once: it yields each step on the disk and gets back the step's answer (or its
 * error, thrown in); `readCappedSync` and `readCapped` run it with blocking or promised calls.
 */
function* capped(file: string, opts: ReadOptions, scratch?: Buffer): Generator<Step, ReadResult, unknown> {
  let target = file;
  let flags = FLAGS;
  if (opts.within) {
    try {
      if (opts.realDirs && NOFOLLOW) {
        const dir = path.dirname(file);
        let real = opts.realDirs.get(dir);
        if (real === undefined) opts.realDirs.set(dir, (real = (yield { op: 'realpath', path: dir }) as string));
        target = path.join(real, path.basename(file));
      } else {
        if (yield { op: 'isLink', path: file }) return { ok: false, reason: 'symlink', message: 'a symbolic link' };
        target = (yield { op: 'realpath', path: file }) as string;
      }
    } catch (e) {
      return errorResult(e);
    }
    if (!opts.within.some((d) => isInside(target, d))) return { ok: false, reason: 'outside', message: 'outside the workspace folders' };
    flags |= NOFOLLOW;
  }
  try {
    yield { op: 'open', path: target, flags };
  } catch (e) {
    return errorResult(e);
  }
  try {
    const info = (yield { op: 'isFile' }) as { file: boolean; size: number };
    if (!info.file) return { ok: false, reason: 'not-regular', message: 'not a regular file' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // Whole chunks: procfs files such as pagemap refuse reads of other sizes (EINVAL). The first
      // into the caller's scratch buffer if it lends one (a scan reads 20,000 small files).
      const buf = total === 0 && scratch ? scratch : Buffer.allocUnsafe(CHUNK);
      const n = (yield { op: 'read', buf }) as number;
      if (n === 0) break;
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (total > opts.maxBytes) return { ok: false, reason: 'too-large', bytes: total };
      // All the size fstat gave, in a short read: the end, without the read that would return 0.
      // (Not a cap: a file that says 0 or the wrong size, as procfs and sysfs do, is read to its end.)
      if (info.size > 0 && total === info.size && n < buf.length) break;
    }
    return { ok: true, text: decode(chunks, total) };
  } catch (e) {
    return errorResult(e);
  } finally {
    yield { op: 'close' };
  }
}

/** What a step gave: its answer, or the error it threw. */
type Outcome = { answer: unknown } | { error: unknown };

/** Hands a step's outcome back to the read: the answer in, or the error thrown in. */
function resume(steps: Generator<Step, ReadResult, unknown>, outcome: Outcome): IteratorResult<Step, ReadResult> {
  return 'error' in outcome ? steps.throw(outcome.error) : steps.next(outcome.answer);
}

/** Reads `file` synchronously (the CLI). */
export function readCappedSync(file: string, opts: ReadOptions): ReadResult {
  let fd = -1;
  const take = (step: Step): unknown => {
    switch (step.op) {
      case 'isLink':
        return fs.lstatSync(step.path).isSymbolicLink();
      case 'realpath':
        return fs.realpathSync(step.path);
      case 'open':
        fd = fs.openSync(step.path, step.flags);
        return undefined;
      case 'isFile': {
        const st = fs.fstatSync(fd);
        return { file: st.isFile(), size: st.size };
      }
      case 'read':
        return fs.readSync(fd, step.buf, 0, step.buf.length, null);
      case 'close':
        return fs.closeSync(fd);
    }
  };
  const steps = capped(file, opts, SCRATCH);
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    let outcome: Outcome;
    try {
      outcome = { answer: take(step) };
    } catch (error) {
      outcome = { error };
    }
    next = resume(steps, outcome);
  }
  return next.value;
}

/** Reads `file` without blocking the event loop (the language server). */
export async function readCapped(file: string, opts: ReadOptions): Promise<ReadResult> {
  let handle: fsp.FileHandle | undefined;
  const take = async (step: Step): Promise<unknown> => {
    switch (step.op) {
      case 'isLink':
        return (await fsp.lstat(step.path)).isSymbolicLink();
      case 'realpath':
        return fsp.realpath(step.path);
      case 'open':
        handle = await fsp.open(step.path, step.flags);
        return undefined;
      case 'isFile': {
        const st = await handle!.stat();
        return { file: st.isFile(), size: st.size };
      }
      case 'read':
        return (await handle!.read(step.buf, 0, step.buf.length, null)).bytesRead;
      case 'close':
        return handle!.close().catch(() => undefined);
    }
  };
  const steps = capped(file, opts);
  let next = steps.next();
  while (!next.done)
    next = resume(
      steps,
      await take(next.value).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      ),
    );
  return next.value;
}
