/**
 * `fabled-star import [FILE|-] [--cards PATH]... [--faction NAME] [--name NAME] [--points N]`: a
 * roster written as text into a fleet list on stdout (FORMATS.md; the reading is core/roster/import.ts).
 */
import type { ImportResult } from '../core/service';
import { loadCards, readProblem } from './io';
import { CARDS_OPTION, command, type CommandSpec } from './args';
import type { CliIO } from './io';
import { escapeControls } from './terminal';

/** A line of a roster that names no card, and why. */
type ImportProblem = ImportResult['problems'][number];
/** A line read as the card closest to the name it gives. */
type ImportGuess = ImportResult['guesses'][number];

export const IMPORT_HELP = `Usage: fabled-star import [FILE|-] [--cards PATH]... [--faction NAME] [--name NAME] [--points N]

Reads a roster written as text and writes a fleet list (*.fleet.yaml) to stdout. It reads every
roster this tool exports (text, markdown, the one line or its fabledstar: link, JSON, printable
HTML; the QR code on a printed roster or card sheet holds the one line), and lists as
players post them: "2x Name", "2 x Name", "Name x2", "- Name", "1. Name", "Name (250)",
"Name [145]", "Name - 250 pts", an embarked unit as an indented "+ Name" or as "Name + Name" on the
entry's line; headings, totals and notes are passed over. Names match the cards case-insensitively.

A name no card has that is clearly one card's (a typo, a plural, a name cut short) is read as that
card: listed on stderr as "LINE: text (read as CARD, the closest card to "NAME"; other candidates:
...)" and said in a comment on its entry. A line that names no card (or is close to several) is
listed on stderr as "LINE: text (why, closest card)" and kept in the fleet as a comment with the
cards it may mean; the rest is still written.

Options:
  FILE             the roster (default, or "-": standard input)
  --cards PATH     a *.unit.yaml / *.faction.yaml file or a folder searched recursively; may
                   repeat (default: the current folder; the bundled example factions are known too)
  --faction NAME   the faction when the text names none (else: the faction of most of its cards)
  --name NAME      the fleet's name when the text gives none (else "Imported fleet")
  --points N       the points limit when the text gives none (else the smallest game size that
                   holds the units)
  -h, --help       show this help

Exit status: 0 every line was read (names read as the closest card included), 1 some lines could
not be read (listed on stderr; the fleet is still written), 2 usage or I/O problem (nothing is
written to stdout).
`;

const IMPORT_COMMAND = {
  name: 'import',
  help: IMPORT_HELP,
  options: { cards: CARDS_OPTION, faction: { type: 'string' }, name: { type: 'string' }, points: { type: 'string' } },
  positionals: true,
  formats: ['yaml'],
} as const satisfies CommandSpec;

/** "7: 2x Lumin Destroyer (no card named "Lumin Destroyer", closest card: Lumen Destroyer)"; several: "closest cards: A, B". */
export function importProblemLine(p: ImportProblem): string {
  const near = p.candidates && p.candidates.length > 1 ? `, closest cards: ${p.candidates.join(', ')}` : p.closest ? `, closest card: ${p.closest}` : '';
  return `${p.line}: ${p.text} (${p.why}${near})`;
}

/** "2: 1x Celestial Batleship (280) (read as Celestial Battleship, the closest card to "Celestial Batleship")". */
export function importGuessLine(g: ImportGuess): string {
  return `${g.line}: ${g.text} (read as ${g.unit}, the closest card to "${g.written}"${g.others.length ? `; other candidates: ${g.others.join(', ')}` : ''})`;
}

/** The roster's text from FILE or standard input, or the usage problem's exit status. */
export function readRosterText(io: CliIO, file: string | undefined, fail: (...lines: string[]) => 2): string | 2 {
  if (file === undefined || file === '-') {
    if (!io.readStdin) return fail('standard input cannot be read here; give a FILE');
    try {
      return io.readStdin();
    } catch (e) {
      return fail(readProblem('standard input', e));
    }
  }
  if (!io.exists(file) || io.isDirectory(file)) return fail(`${file}: no such file`);
  try {
    return io.readFile(file);
  } catch (e) {
    return fail(readProblem(file, e));
  }
}

export const runImport = command(IMPORT_COMMAND, ({ values, positionals, fail }, io) => {
  if (positionals.length > 1) return fail(`give one roster FILE (or - for standard input), not ${positionals.length} paths; see --help`);
  let points: number | undefined;
  if (values.points !== undefined) {
    points = Number(values.points);
    if (!/^\s*\d+\s*$/.test(values.points) || !Number.isSafeInteger(points) || points <= 0)
      return fail(`--points must be a positive whole number, not "${values.points.slice(0, 40)}".`);
  }
  const { service, problems } = loadCards(io, values.cards?.length ? values.cards : [io.cwd]);
  if (problems.length) return fail(...problems);
  const text = readRosterText(io, positionals[0], fail);
  if (text === 2) return 2;
  const r = service.importRoster(text, {
    ...(values.faction !== undefined ? { faction: values.faction } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(points !== undefined ? { points } : {}),
  });
  // One report in line order: what was guessed and what could not be read.
  const said = [
    ...r.guesses.map((g) => ({ line: g.line, text: importGuessLine(g) })),
    ...r.problems.map((p) => ({ line: p.line, text: importProblemLine(p) })),
  ];
  for (const s of said.sort((a, b) => a.line - b.line)) io.stderr(`${escapeControls(s.text)}\n`);
  io.stdout(r.fleet);
  return r.problems.length ? 1 : 0;
});
