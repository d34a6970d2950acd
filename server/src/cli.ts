/** CLI wiring only: `fabled-star check ...`, `fabled-star sim ...` and `fabled-star balance ...`. */
import { nodeIO, type CliIO } from './cli/io';
import { runCheck } from './cli/check';
import { runSim } from './cli/sim';
import { runBalance } from './cli/balance';
import { runRoster } from './cli/roster';
import { runBattle } from './cli/battle';
import { runImport } from './cli/import';
import { runVerify } from './cli/verify';
import { runCards } from './cli/cards';
import { escapeControls } from './cli/terminal';
import type { Command } from './cli/args';

export const HELP = `Usage: fabled-star <command> [options]

Commands:
  check PATHS...   check unit cards, Command Boards and fleet lists against the rulebook
  sim              compute the odds of one Fire action and of a short engagement
  balance PATHS... estimate what each card would cost, costed like the cards around it
  roster FLEET     write a fleet's roster (text, markdown, printable HTML, JSON or one line)
  battle           play two fleet lists against each other and report who wins and how often
  import [FILE|-]  read a roster or a list as players post it into a fleet list
  verify ROSTER    say whether an exported roster still matches the card files (its digest)
  cards PATHS...   write printable unit cards with damage tracks (HTML or PDF)

Run "fabled-star <command> --help" for a command's options.
`;

/** The commands, by their word; each reads its own options (cli/args.ts). */
export const COMMANDS: Record<string, Command> = {
  check: runCheck,
  sim: runSim,
  balance: runBalance,
  roster: runRoster,
  battle: runBattle,
  import: runImport,
  verify: runVerify,
  cards: runCards,
};

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && Object.hasOwn(COMMANDS, command)) return COMMANDS[command]!(rest, io);
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.stdout(HELP);
      return command === undefined ? 2 : 0;
    case '--version':
      io.stdout(`${process.env.FABLED_STAR_VERSION ?? '0.1.0'}\n`);
      return 0;
    default:
      io.stderr(`fabled-star: unknown command "${escapeControls(command)}"\n\n${HELP}`);
      return 2;
  }
}

/**
 * A reader that has gone (`fabled-star check … | head -1`): what is left to write goes nowhere, and
 * the command runs on to its own exit status, without Node's EPIPE stack on stderr.
 */
export function quietWhenClosed(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
    throw e;
  });
}

if (require.main === module || process.argv[1]?.match(/fabled-star(\.js)?$/)) {
  quietWhenClosed(process.stdout);
  quietWhenClosed(process.stderr);
  main(process.argv.slice(2), nodeIO()).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`fabled-star: internal error: ${escapeControls(String((e as Error)?.stack ?? e), true)}\n`);
      process.exitCode = 2;
    },
  );
}
