/**
 * `fabled-star roster FLEET [--cards PATH]... [--format markdown|html|json|text|short]`: the
 * fleet's roster for the table, a forum post or a tournament organiser (FORMATS.md).
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Workspace } from '../core/workspace';
import { kindOfUri } from '../core/model/parse';
import { LIMITS } from '../core/model/limits';
import { buildRoster } from '../core/roster/model';
import { renderRoster, ROSTER_FORMATS, type RosterFormat } from '../core/roster/render';
import { expandPaths, fileUri, type CliIO } from './io';
import { escapeControls } from './terminal';

export const ROSTER_HELP = `Usage: fabled-star roster FLEET [--cards PATH]... [--format markdown|html|json|text|short]

Writes the roster of a fleet list (*.fleet.yaml) to stdout: its name, faction, game size and
points limit, every entry with its card's class, stat line, weapons, orders and abilities, points
per entry and in total, embarked units, points by class, what is left under the limit, the
faction's Command Board when its *.faction.yaml is among the cards, and every problem the checker
finds in the fleet or in the cards it uses. A roster with errors says so at the top.

Options:
  --cards PATH     a *.unit.yaml / *.faction.yaml file or a folder searched recursively; may
                   repeat (default: the current folder)
  --format FMT     text (default), markdown (for forums and chats: headings, bold and lists
                   only), html (one self-contained printable page), json, or short (the one line
                   players post: "Radiant Court 340, ...; 970/1000")
  -h, --help       show this help

Exit status: 0 the fleet is legal, 1 the fleet or a card it uses has errors (the roster is still
written, and says so at the top), 2 usage or I/O problem (nothing is written to stdout).
`;

export function runRoster(argv: string[], io: CliIO): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { cards: { type: 'string', multiple: true }, format: { type: 'string', default: 'text' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    io.stderr(`fabled-star roster: ${(e as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(ROSTER_HELP);
    return 0;
  }
  const format = values.format ?? 'text';
  if (!(ROSTER_FORMATS as readonly string[]).includes(format)) {
    io.stderr(`fabled-star roster: --format must be ${ROSTER_FORMATS.slice(0, -1).join(', ')} or ${ROSTER_FORMATS.at(-1)}, not "${escapeControls(format)}"\n`);
    return 2;
  }
  if (positionals.length !== 1) {
    io.stderr(`fabled-star roster: give exactly one fleet file (*.fleet.yaml)${positionals.length ? `, not ${positionals.length} paths` : ''}; see --help\n`);
    return 2;
  }
  const fleet = positionals[0]!;
  // Paths and flags go into one-line messages: a line break or an escape in them must not break out.
  const shown = escapeControls(fleet);
  if (kindOfUri(fleet) !== 'fleet') {
    io.stderr(`fabled-star roster: ${shown}: not a fleet list (name it *.fleet.yaml)\n`);
    return 2;
  }
  if (!io.exists(fleet) || io.isDirectory(fleet)) {
    io.stderr(`fabled-star roster: ${shown}: no such file\n`);
    return 2;
  }
  const cards = expandPaths(io, values.cards?.length ? values.cards : [io.cwd]);
  if (cards.missing.length) {
    io.stderr(`fabled-star roster: ${escapeControls(cards.missing[0]!)}: no such file or folder\n`);
    return 2;
  }
  const ws = new Workspace();
  const fleetUri = fileUri(path.resolve(io.cwd, fleet));
  const read = (file: string): string | Error => {
    const bytes = io.fileSize?.(file);
    // A file far over the checker's limit is not read at all (it would not be parsed anyway).
    if (bytes !== undefined && bytes > 3 * LIMITS.fileChars) return new Error(`too large (${bytes} bytes)`);
    try {
      return io.readFile(file);
    } catch (e) {
      return new Error((e as NodeJS.ErrnoException).code ?? (e as Error).message);
    }
  };
  const fleetText = read(fleet);
  if (fleetText instanceof Error) {
    io.stderr(`fabled-star roster: ${shown}: ${escapeControls(fleetText.message)}\n`);
    return 2;
  }
  for (const file of cards.files) {
    const kind = kindOfUri(file);
    if (kind !== 'unit' && kind !== 'faction') continue;
    const uri = fileUri(path.resolve(io.cwd, file));
    const text = read(file);
    // One unreadable card file among many should not stop the roster: its cards are simply
    // missing, which the roster reports as unknown cards.
    if (text instanceof Error) io.stderr(`fabled-star roster: ${escapeControls(file)}: ${escapeControls(text.message)} (skipped)\n`);
    else ws.set(uri, text);
  }
  const doc = ws.set(fleetUri, fleetText);
  if (!doc || doc.kind !== 'fleet') {
    io.stderr(`fabled-star roster: ${shown}: not a fleet list\n`);
    return 2;
  }
  const roster = buildRoster(doc, ws);
  const relative = (uri: string) => {
    let p = uri;
    try {
      p = decodeURIComponent(uri.replace(/^file:\/\//, ''));
    } catch {
      /* keep the uri */
    }
    return path.relative(io.cwd, p).split(path.sep).join('/') || p;
  };
  io.stdout(renderRoster(roster, format as RosterFormat, { file: relative }));
  return roster.legal ? 0 : 1;
}
