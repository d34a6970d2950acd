/**
 * What the CLI commands need from the outside world, so that they can be run in tests without a
 * process or a disk. `nodeIO()` is the real one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_READ_BYTES, readCappedSync } from '../node/read';
import { escapeControls } from './terminal';
import { createFabledService, type FabledService } from '../core/service';

export interface CliIO {
  stdout(s: string): void;
  stderr(s: string): void;
  /** Bytes to stdout as they are (a PDF), and whether stdout is a terminal (a PDF is not written there). */
  stdoutBytes?(b: Uint8Array): void;
  stdoutIsTerminal?(): boolean;
  /**
   * Throws (with a readable message) when the file cannot be read, or is not a regular file; throws
   * `{ code: 'too-large', bytes }` past `MAX_READ_BYTES`, however small `stat` says the file is.
   */
  readFile(p: string): string;
  /** The size in bytes, when known: files far too large to check are not read at all. */
  fileSize?(p: string): number | undefined;
  isDirectory(p: string): boolean;
  exists(p: string): boolean;
  /**
   * Fabled Star files (*.unit.yaml, *.faction.yaml, *.fleet.yaml) below a folder, sorted; a folder
   * that cannot be listed is added to `problems` ("PATH: why"), never skipped in silence.
   */
  listYaml(dir: string, problems?: string[]): string[];
  /** Standard input as text (`import -`), read up to `MAX_READ_BYTES`; throws past it. */
  readStdin?(): string;
  cwd: string;
}

const SKIP = new Set(['node_modules', '.git']);
const MAX_DEPTH = 32;
const OURS = /\.(unit|faction|fleet|collection)\.ya?ml$/i;

export function nodeIO(): CliIO {
  return {
    // The last line of defence: whatever a command writes, no control character reaches the terminal.
    // Nothing once the reader has gone (a closed pipe destroys the stream): see cli.ts quietWhenClosed.
    stdout: (s) => void (process.stdout.destroyed || process.stdout.write(escapeControls(s, true))),
    stderr: (s) => void (process.stderr.destroyed || process.stderr.write(escapeControls(s, true))),
    stdoutBytes: (b) => void (process.stdout.destroyed || process.stdout.write(b)),
    stdoutIsTerminal: () => process.stdout.isTTY === true,
    readFile: (p) => {
      // A device or a pipe named like a card file (/dev/zero, a FIFO) would be read forever, and so
      // would /proc/self/pagemap, which stat says is empty: read with a cap, on the opened file.
      const r = readCappedSync(p, { maxBytes: MAX_READ_BYTES });
      if (r.ok) return r.text;
      if (r.reason === 'too-large') throw Object.assign(new Error(`larger than ${MAX_READ_BYTES} bytes`), { code: 'too-large', bytes: r.bytes });
      throw Object.assign(new Error(r.message), { code: r.message });
    },
    fileSize: (p) => {
      try {
        return fs.statSync(p).size;
      } catch {
        return undefined;
      }
    },
    isDirectory: (p) => {
      try {
        return fs.statSync(p).isDirectory();
      } catch {
        return false;
      }
    },
    exists: (p) => fs.existsSync(p),
    listYaml: (dir, problems) => {
      const out: string[] = [];
      const walk = (d: string, depth: number) => {
        if (depth > MAX_DEPTH) {
          problems?.push(`${d}: folders nested more than ${MAX_DEPTH} deep are not searched`);
          return;
        }
        let entries: fs.Dirent[];
        try {
          entries = fs.readdirSync(d, { withFileTypes: true });
        } catch (e) {
          problems?.push(`${d}: cannot list this folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
          return;
        }
        for (const e of entries) {
          if (SKIP.has(e.name)) continue;
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p, depth + 1);
          else if (e.isFile() && OURS.test(e.name)) out.push(p);
        }
      };
      walk(dir, 0);
      return out.sort();
    },
    readStdin: () => {
      // In chunks, with the same cap as files: `yes | fabled-star import -` must end.
      const chunks: Buffer[] = [];
      let total = 0;
      const buf = Buffer.alloc(64 * 1024);
      for (;;) {
        let n: number;
        try {
          n = fs.readSync(0, buf, 0, buf.length, null);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
          if ((e as NodeJS.ErrnoException).code === 'EOF') break;
          throw e;
        }
        if (n === 0) break;
        total += n;
        if (total > MAX_READ_BYTES) throw Object.assign(new Error(`larger than ${MAX_READ_BYTES} bytes`), { code: 'too-large', bytes: total });
        chunks.push(Buffer.from(buf.subarray(0, n)));
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    cwd: process.cwd(),
  };
}

/** Expands files and folders into Fabled Star files; reports paths that do not exist and folders that cannot be listed. */
export function expandPaths(io: CliIO, paths: string[]): { files: string[]; missing: string[]; unreadable: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const unreadable: string[] = [];
  for (const p of paths) {
    // One by one: spreading a listing of 200,000 files into push() overflows the stack.
    if (io.isDirectory(p)) for (const f of io.listYaml(p, unreadable)) files.push(f);
    else if (io.exists(p)) files.push(p);
    else missing.push(p);
  }
  return { files: [...new Set(files)], missing, unreadable };
}

/** A file path as a URI the workspace can key on (and kindOfUri can read). */
export function fileUri(p: string): string {
  const abs = path.resolve(p).replace(/\\/g, '/');
  return 'file://' + (abs.startsWith('/') ? '' : '/') + encodeURI(abs).replace(/#/g, '%23').replace(/\?/g, '%3F');
}

/** Why a file could not be read, in the words of `CliIO.readFile`'s error (its code, or the size past the cap). */
export function readProblem(file: string, e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return `cannot read ${file}: ${err.code === 'too-large' ? err.message : (err.code ?? err.message)}`;
}

/** The cards read, in a new service's workspace (`ws`, the service's), or what stops them being read. */
export interface LoadedCards {
  service: FabledService;
  ws: FabledService['workspace'];
  problems: string[];
}

/**
 * The cards of files and folders (`--cards`; fleet lists among them are passed over) in a new
 * service's workspace, or what stops them being read: paths that do not exist, folders that cannot
 * be listed, the first file that cannot be read.
 */
export function loadCards(io: CliIO, paths: string[]): LoadedCards {
  // A faction without a card here is the bundled example one, as in the editor (a pasted example fleet resolves).
  const service = createFabledService({ examplesFallback: true });
  const ws = service.workspace;
  const { files, missing, unreadable } = expandPaths(io, paths);
  if (missing.length) return { service, ws, problems: [`no such file or folder: ${missing.join(', ')}`] };
  if (unreadable.length) return { service, ws, problems: unreadable };
  for (const file of files) {
    if (/\.fleet\.ya?ml$/i.test(file)) continue;
    try {
      ws.set(fileUri(file), io.readFile(file));
    } catch (e) {
      return { service, ws, problems: [readProblem(file, e)] };
    }
  }
  return { service, ws, problems: [] };
}
