/**
 * `fabled-star cards PATHS... [--cards PATH]... [--fleet FILE] [--paper a4|letter] [--format html|pdf]`:
 * a printable sheet of card-sized unit cards with damage tracks (FORMATS.md; the sheet is
 * core/roster/cards.ts, the PDF cli/pdf.ts).
 */
import * as path from 'node:path';
import { FabledService, type FleetDocument } from '../core/service';
import { expandPaths, fileUri, loadCards } from './io';
import { CARDS_OPTION, command, wordList, type CommandSpec } from './args';
import { escapeControls } from './terminal';
import { htmlToPdf } from './pdf';

export const CARDS_HELP = `Usage: fabled-star cards PATHS... [--cards PATH]... [--fleet FILE] [--paper a4|letter] [--format html|pdf]

Writes a sheet of unit cards to print and play from: each card the size of a playing card
(63 x 88 mm), nine to an A4 page or eight to a US Letter page (landscape), with the card's name,
faction, class, points, base size, stat line, weapons, orders with their LD Difficulty, abilities
(a text that does not fit is cut at a word and names the rulebook section that has it in full),
and damage tracks to tick off: one box per HP per base, one per SH point (a squadron's Combined
Shields pool), one per unit its Launch Bays carry.

PATHS are *.unit.yaml / *.faction.yaml files or folders searched recursively: every card in them
gets a card. With --fleet, the fleet's units get one card per copy fielded, each followed by the
cards of the units it carries, and every page carries the fleet's one-line roster with its digest
as a QR code, which "fabled-star import" reads back into the fleet.

Options:
  --fleet FILE     a fleet list (*.fleet.yaml): print its cards as fielded
  --cards PATH     where the fleet's cards are: a file or a folder; may repeat (default: PATHS,
                   else the current folder; the bundled example factions are known too)
  --paper P        a4 (default: 3 x 3 cards) or letter (4 x 2 cards, landscape)
  --format FMT     html (default: one self-contained page, print CSS only, no script; print it
                   from any browser at 100% scale) or pdf (printed by Chromium, which must be
                   installed, with the playwright-core package; write it to a file: > cards.pdf)
  -h, --help       show this help

Exit status: 0 the sheet was written, 1 it was written but a fleet entry names no card (left
out, listed on stderr), 2 usage or I/O problem, or no Chromium for a PDF (nothing is written).
`;

const CARDS_COMMAND = {
  name: 'cards',
  help: CARDS_HELP,
  options: { cards: CARDS_OPTION, fleet: { type: 'string' }, paper: { type: 'string' } },
  positionals: true,
  formats: ['html', 'pdf'],
} as const satisfies CommandSpec;

export const runCards = command(CARDS_COMMAND, async ({ values, positionals, format, fail }, io) => {
  const { kindOfPath, PAPER_NAMES } = FabledService;
  const paper = (values.paper ?? 'a4').toLowerCase();
  if (!(PAPER_NAMES as string[]).includes(paper)) return fail(`--paper must be ${wordList(PAPER_NAMES)}, not "${paper.slice(0, 40)}".`);
  if (!positionals.length && values.fleet === undefined) return fail('give card files or folders (PATHS), or --fleet FILE; see --help');
  const fleetPaths = positionals.filter((p) => kindOfPath(p) === 'fleet');
  if (fleetPaths.length) return fail(`${fleetPaths[0]!}: a fleet list; give it as --fleet ${fleetPaths[0]!}`);
  if (format === 'pdf' && io.stdoutIsTerminal?.()) return fail('a PDF is binary: write it to a file (fabled-star cards ... --format pdf > cards.pdf)');
  const sources = [...positionals, ...(values.cards ?? [])];
  const { service, ws, problems } = loadCards(io, sources.length ? sources : [io.cwd]);
  if (problems.length) return fail(...problems);
  const printed = new Set(expandPaths(io, positionals).files.map((f) => fileUri(path.resolve(io.cwd, f))));
  let fleet: FleetDocument | undefined;
  if (values.fleet !== undefined) {
    const f = values.fleet;
    if (kindOfPath(f) !== 'fleet') return fail(`${f}: not a fleet list (name it *.fleet.yaml)`);
    if (!io.exists(f) || io.isDirectory(f)) return fail(`${f}: no such file`);
    let text: string;
    try {
      text = io.readFile(f);
    } catch (e) {
      return fail(`${f}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const doc = ws.set(fileUri(path.resolve(io.cwd, f)), text);
    if (!doc || doc.kind !== 'fleet') return fail(`${f}: not a fleet list`);
    fleet = doc;
  }
  const sheet = service.cardSheet({ cardsOf: (uri) => printed.has(uri), fleet, paper: paper as (typeof PAPER_NAMES)[number] });
  for (const name of sheet.unknown) io.stderr(`fabled-star cards: no card named "${escapeControls(name)}" in the fleet's faction (left out)\n`);
  if (format === 'html') io.stdout(sheet.html);
  else {
    const pdf = await htmlToPdf(sheet.html);
    if (typeof pdf === 'string') return fail(pdf);
    if (!io.stdoutBytes) return fail('a PDF cannot be written here');
    io.stdoutBytes(pdf);
  }
  return sheet.unknown.length ? 1 : 0;
});
