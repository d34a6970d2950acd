/**
 * `fabled-star roster FLEET [--cards PATH]... [--format markdown|html|json|text|short]`: the
 * fleet's roster for the table, a forum post or a tournament organiser (FORMATS.md).
 */
import * as path from 'node:path';
import { createFabledService, FabledService, LIMITS } from '../core/service';
import { expandPaths, fileUri } from './io';
import { escapeControls } from './terminal';
import { CARDS_OPTION, command, type CommandSpec } from './args';

export const ROSTER_HELP = `Usage: fabled-star roster FLEET [--cards PATH]... [--format markdown|html|json|text|short]

Writes the roster of a fleet list (*.fleet.yaml) to stdout: its name, faction, game size and
points limit, every entry with its card's class, stat line, weapons, orders and abilities, points
per entry and in total, embarked units, points by class, what is left under the limit, the
faction's Command Board when its *.faction.yaml is among the cards, and every problem the checker
finds in the fleet or in the cards it uses. A roster with errors says so at the top. With a
collection (*.collection.yaml) among the cards, it says what to buy to field the list.

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

const ROSTER_COMMAND = {
  name: 'roster',
  help: ROSTER_HELP,
  options: { cards: CARDS_OPTION },
  positionals: true,
  formats: FabledService.ROSTER_FORMATS,
  defaultFormat: 'text',
} as const satisfies CommandSpec;

export const runRoster = command(ROSTER_COMMAND, ({ values, positionals, format, fail }, io) => {
  if (positionals.length !== 1)
    return fail(`give exactly one fleet file (*.fleet.yaml)${positionals.length ? `, not ${positionals.length} paths` : ''}; see --help`);
  const fleet = positionals[0]!;
  // Paths go into one-line messages (fail escapes them): a line break or an escape in them must not break out.
  const { kindOfPath } = FabledService;
  if (kindOfPath(fleet) !== 'fleet') return fail(`${fleet}: not a fleet list (name it *.fleet.yaml)`);
  if (!io.exists(fleet) || io.isDirectory(fleet)) return fail(`${fleet}: no such file`);
  const cards = expandPaths(io, values.cards?.length ? values.cards : [io.cwd]);
  if (cards.missing.length) return fail(`${cards.missing[0]!}: no such file or folder`);
  // A faction without a card here is the bundled example one, as in the editor (a pasted example fleet resolves).
  const service = createFabledService({ examplesFallback: true });
  const ws = service.workspace;
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
  if (fleetText instanceof Error) return fail(`${fleet}: ${fleetText.message}`);
  for (const file of cards.files) {
    const kind = kindOfPath(file);
    // A collection among the cards' folders says what to buy to field the list.
    if (kind !== 'unit' && kind !== 'faction' && kind !== 'collection') continue;
    const uri = fileUri(path.resolve(io.cwd, file));
    const text = read(file);
    // One unreadable card file among many should not stop the roster: its cards are simply
    // missing, which the roster reports as unknown cards.
    if (text instanceof Error) io.stderr(`fabled-star roster: ${escapeControls(file)}: ${escapeControls(text.message)} (skipped)\n`);
    else ws.set(uri, text);
  }
  const doc = ws.set(fleetUri, fleetText);
  if (!doc || doc.kind !== 'fleet') return fail(`${fleet}: not a fleet list`);
  const { roster } = service.roster(doc);
  const relative = (uri: string) => {
    let p = uri;
    try {
      p = decodeURIComponent(uri.replace(/^file:\/\//, ''));
    } catch {
      /* keep the uri */
    }
    return path.relative(io.cwd, p).split(path.sep).join('/') || p;
  };
  io.stdout(FabledService.renderRoster(roster, format as (typeof FabledService.ROSTER_FORMATS)[number], { file: relative }));
  return roster.legal ? 0 : 1;
});
