/**
 * The one way a CLI command reads its arguments and reports a usage problem. A command declares its
 * options as a table (`CommandSpec`); `parseCommand` parses them strictly, answers `--help`, checks
 * `--format` against the command's formats, and hands back the values with `fail`, which writes one
 * usage problem as `fabled-star COMMAND: ...` on stderr (every line escaped: names and values come
 * from files and from the command line) and returns exit status 2.
 */
import { parseArgs } from 'node:util';
import type { CliIO } from './io';
import { escapeControls } from './terminal';

/** One row of a command's option table: `--name VALUE` (`string`, `multiple` when it may repeat) or `--name` (`boolean`). */
export interface OptionRow {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** A string option the command cannot run without, and the word for its value in the message that says so (`--fleet FILE`). */
  required?: string;
}

/** `--cards PATH`, which may repeat: the commands that read cards share it. */
export const CARDS_OPTION = { type: 'string', multiple: true } as const satisfies OptionRow;

export interface CommandSpec<O extends Record<string, OptionRow> = Record<string, OptionRow>> {
  /** The command's word: `sim` in `fabled-star sim`. */
  name: string;
  /** The text `--help` prints. */
  help: string;
  /** The options besides `--format` and `-h, --help`, which every command has. */
  options: O;
  /** Whether the command takes paths after its options. */
  positionals?: boolean;
  /** The values `--format` takes. */
  formats: readonly [string, ...string[]];
  /** The format without `--format` (default: the first of `formats`). */
  defaultFormat?: string;
}

type ValueOf<R extends OptionRow> = R['type'] extends 'boolean' ? boolean : R['multiple'] extends true ? string[] : string;
type Required<O extends Record<string, OptionRow>> = { [K in keyof O as O[K]['required'] extends string ? K : never]: string };

export interface ParsedCommand<O extends Record<string, OptionRow>> {
  /** The options given; the required ones always. */
  values: { [K in keyof O]?: ValueOf<O[K]> } & Required<O>;
  positionals: string[];
  format: string;
  /** Writes a usage problem (each argument a line) to stderr; returns exit status 2. */
  fail(...lines: string[]): 2;
}

/** "a, b or c" (`and`: "a, b and c"). */
export function wordList(words: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

/** The usage-problem writer of a command, for problems found before or without `parseCommand`. */
export function usageWriter(io: CliIO, name: string): (...lines: string[]) => 2 {
  return (...lines) => {
    io.stderr(`fabled-star ${name}: ${lines.map((l) => escapeControls(l)).join('\n  ')}\n`);
    return 2;
  };
}

/**
 * `--seed -1` as `--seed=-1`: a negative number after an option that takes a value is that value,
 * which the option's own check then refuses with what it allows (node:util calls it ambiguous).
 */
function joinNegatives(argv: string[], spec: CommandSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return [...out, ...argv.slice(i)];
    const name = /^--([\w-]+)$/.exec(a)?.[1];
    const next = argv[i + 1];
    if (name && spec.options[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * Parses `argv` against the command's option table. Returns the parsed command, or the exit status
 * when there is nothing more to do: 0 after printing the help, 2 after a usage problem (an unknown
 * option, a missing value, a stray path, an unknown format).
 */
export function parseCommand<O extends Record<string, OptionRow>>(spec: CommandSpec<O>, argv: string[], io: CliIO): ParsedCommand<O> | number {
  const fail = usageWriter(io, spec.name);
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let positionals: string[];
  let tokens: { kind: string; name?: string }[];
  try {
    ({ values, positionals, tokens } = parseArgs({
      args: joinNegatives(argv, spec),
      strict: true,
      tokens: true,
      allowPositionals: spec.positionals ?? false,
      options: {
        ...Object.fromEntries(Object.entries(spec.options).map(([name, row]) => [name, { type: row.type, multiple: row.multiple ?? false }])),
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    // node:util's messages run to a second line of advice ("To specify a positional argument...").
    return fail(`${(e as Error).message.split('\n')[0]} (run "fabled-star ${spec.name} --help" for the options)`);
  }
  if (values.help) {
    io.stdout(spec.help);
    return 0;
  }
  // An option that does not repeat, given twice, would silently keep the last (`--fleet A --fleet B`).
  for (const [name, row] of Object.entries(spec.options)) {
    if (row.multiple) continue;
    const n = tokens.filter((t) => t.kind === 'option' && t.name === name).length;
    if (n > 1) return fail(`--${name} is given ${n === 2 ? 'twice' : `${n} times`}; give it once.`);
  }
  const format = (values.format as string | undefined) ?? spec.defaultFormat ?? spec.formats[0];
  if (!spec.formats.includes(format)) return fail(`--format must be ${wordList(spec.formats)}, not "${format.slice(0, 40)}".`);
  const required = Object.entries(spec.options).filter(([, row]) => row.required !== undefined);
  if (required.some(([name]) => !values[name])) {
    const words = required.map(([name, row]) => `--${name} ${row.required}`);
    return fail(words.length === 1 ? `${words[0]} is needed.` : `${words.length === 2 ? 'both ' : ''}${wordList(words, 'and')} are needed.`);
  }
  return { values: values as ParsedCommand<O>['values'], positionals, format, fail };
}

/**
 * A command: its option table and what it does with the parsed options. The returned function
 * reads `argv` (answering `--help` and usage problems itself) and runs the command.
 */
export function command<O extends Record<string, OptionRow>, R extends number | Promise<number>>(
  spec: CommandSpec<O>,
  run: (cmd: ParsedCommand<O>, io: CliIO) => R,
): Command<R> {
  const runCommand = (argv: string[], io: CliIO): R | number => {
    const cmd = parseCommand(spec, argv, io);
    return typeof cmd === 'number' ? cmd : run(cmd, io);
  };
  return Object.assign(runCommand, { spec });
}

/** A command as the CLI runs it, with its option table (the CLI reference in docs/ is generated from it). */
export type Command<R extends number | Promise<number> = number | Promise<number>> = ((argv: string[], io: CliIO) => R | number) & {
  spec: CommandSpec;
};
