/**
 * The test helpers written once: a workspace of files held in memory, a CLI command run with its
 * output captured (on files in memory, `memoryIO`, or on disk, `nodeIO`), and the bundled example
 * fleets (exampleFleets.ts). The server harness for test/protocol is test/protocol/harness.ts.
 */
import { Workspace } from '../server/src/core/workspace';
import { nodeIO, type CliIO } from '../server/src/cli/io';

export { memoryIO } from './core/memoryIO';
export { EXAMPLES, EXAMPLE_BATTLE_ARGS, exampleCardsWorkspace } from './exampleFleets';

/** A workspace of the given files, text by URI, set in order. */
export function workspaceOf(files: Record<string, string>): Workspace {
  const ws = new Workspace();
  for (const [uri, text] of Object.entries(files)) ws.set(uri, text);
  return ws;
}

/** A CLI command as the CLI's table holds it. */
export type Command = (argv: string[], io: CliIO) => number | Promise<number>;

/** What a command did: its exit code and what it wrote to standard output and standard error. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** The IO a run uses: `io`'s fields over `base` (files on disk unless given), with stdout and stderr captured. */
function captured(base: CliIO, io: Partial<CliIO>, run: CliRun): CliIO {
  return { ...base, stdout: (s) => void (run.out += s), stderr: (s) => void (run.err += s), ...io };
}

/** Runs a command with its output captured. */
export async function runCli(cmd: Command, args: string[], io: Partial<CliIO> = {}, base: CliIO = nodeIO()): Promise<CliRun> {
  const run: CliRun = { code: -1, out: '', err: '' };
  run.code = await cmd(args, captured(base, io, run));
  return run;
}

/** Runs a command that answers at once (it returns its exit code, not a promise) with its output captured. */
export function runCliSync(cmd: Command, args: string[], io: Partial<CliIO> = {}, base: CliIO = nodeIO()): CliRun {
  const run: CliRun = { code: -1, out: '', err: '' };
  const code = cmd(args, captured(base, io, run));
  if (typeof code !== 'number') throw new Error('runCliSync: the command answered with a promise; use runCli');
  run.code = code;
  return run;
}
