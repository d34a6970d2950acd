/**
 * The CLI's IO over files held in memory, for the CLI tests: what is written goes to `out` and
 * `err`; a path under a file's folder is a folder; a missing file's read fails with `readError`'s
 * code (ENOENT unless a test wants another); a folder in `unlistable` cannot be listed and says so.
 */
import type { CliIO } from '../../server/src/cli/io';

export function memoryIO(
  files: Record<string, string> = {},
  opts: { readError?: string; unlistable?: Record<string, string> } = {},
): CliIO & { out: string; err: string } {
  const under = (dir: string) => Object.keys(files).filter((f) => f.startsWith(dir.replace(/\/?$/, '/')));
  const io = {
    out: '',
    err: '',
    stdout(s: string) {
      io.out += s;
    },
    stderr(s: string) {
      io.err += s;
    },
    readFile(p: string) {
      const t = files[p];
      const code = opts.readError ?? 'ENOENT';
      if (t === undefined) throw Object.assign(new Error(code), { code });
      return t;
    },
    isDirectory: (p: string) => under(p).length > 0,
    exists: (p: string) => p in files || under(p).length > 0,
    listYaml: (dir: string, problems?: string[]) => {
      const why = opts.unlistable?.[dir];
      if (why !== undefined) {
        problems?.push(why);
        return [];
      }
      return under(dir).sort();
    },
    cwd: '/ws',
  };
  return io;
}
