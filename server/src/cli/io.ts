/**
 * What the CLI commands need from the outside world, so that they can be run in tests without a
 * process or a disk. `nodeIO()` is the real one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface CliIO {
  stdout(s: string): void;
  stderr(s: string): void;
  /** Throws (with a readable message) when the file cannot be read, or is not a regular file. */
  readFile(p: string): string;
  /** The size in bytes, when known: files far too large to check are not read at all. */
  fileSize?(p: string): number | undefined;
  isDirectory(p: string): boolean;
  exists(p: string): boolean;
  /** Fabled Star files (*.unit.yaml, *.faction.yaml, *.fleet.yaml) below a folder, sorted. */
  listYaml(dir: string): string[];
  cwd: string;
}

const SKIP = new Set(['node_modules', '.git']);
const OURS = /\.(unit|faction|fleet)\.ya?ml$/i;

export function nodeIO(): CliIO {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readFile: (p) => {
      // A device or a pipe named like a card file (/dev/zero, a FIFO) would be read forever.
      if (!fs.statSync(p).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'not a regular file' });
      return fs.readFileSync(p, 'utf8');
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
    listYaml: (dir) => {
      const out: string[] = [];
      const walk = (d: string, depth: number) => {
        if (depth > 32) return;
        let entries: fs.Dirent[];
        try {
          entries = fs.readdirSync(d, { withFileTypes: true });
        } catch {
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
    cwd: process.cwd(),
  };
}

/** Expands files and folders into Fabled Star files; reports paths that do not exist. */
export function expandPaths(io: CliIO, paths: string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    // One by one: spreading a listing of 200,000 files into push() overflows the stack.
    if (io.isDirectory(p)) for (const f of io.listYaml(p)) files.push(f);
    else if (io.exists(p)) files.push(p);
    else missing.push(p);
  }
  return { files: [...new Set(files)], missing };
}

/** A file path as a URI the workspace can key on (and kindOfUri can read). */
export function fileUri(p: string): string {
  const abs = path.resolve(p).replace(/\\/g, '/');
  return 'file://' + (abs.startsWith('/') ? '' : '/') + encodeURI(abs).replace(/#/g, '%23').replace(/\?/g, '%3F');
}
