/**
 * `fabled-star verify ROSTER [--cards PATH]... [--format text|json]`: whether an exported roster
 * still matches the card files (a tournament organiser's check; core/roster/verify.ts).
 */
import { FabledService } from '../core/service';
import { loadCards } from './io';
import { CARDS_OPTION, command, type CommandSpec } from './args';
import { escapeControls } from './terminal';
import { importProblemLine, readRosterText } from './import';

export const VERIFY_HELP = `Usage: fabled-star verify ROSTER [--cards PATH]... [--format text|json]

Says whether a roster (any export of "fabled-star roster": text, markdown, the one line, JSON or
HTML; "-" reads standard input) still matches the card files: the fleet is read back from the
roster, and the digest of that fleet and of the cards it uses, taken from the files given, is
compared with the digest the roster carries. The digest is over what the files say, not their
bytes: comments, quoting, spacing, entry order and letter case do not change it; a unit, a count,
a points value, a stat, a weapon or an ability's text does. Also says when the roster was exported
under another rules version, and whether the fleet is legal with these cards.

Options:
  --cards PATH     a *.unit.yaml / *.faction.yaml file or a folder searched recursively; may
                   repeat (default: the current folder)
  --format FMT     text (default) or json
  -h, --help       show this help

Exit status: 0 the roster matches, 1 it does not (or carries no digest), 2 usage or I/O problem.
`;

const VERIFY_COMMAND = {
  name: 'verify',
  help: VERIFY_HELP,
  options: { cards: CARDS_OPTION },
  positionals: true,
  formats: ['text', 'json'],
} as const satisfies CommandSpec;

export const runVerify = command(VERIFY_COMMAND, ({ values, positionals, format, fail }, io) => {
  if (positionals.length !== 1)
    return fail(`give exactly one ROSTER file (or - for standard input)${positionals.length ? `, not ${positionals.length} paths` : ''}; see --help`);
  const { service, problems } = loadCards(io, values.cards?.length ? values.cards : [io.cwd]);
  if (problems.length) return fail(...problems);
  const text = readRosterText(io, positionals[0], fail);
  if (text === 2) return 2;
  const v = service.verifyRoster(text);
  if (format === 'json') io.stdout(`${JSON.stringify(v, null, 2)}\n`);
  else {
    const out = [escapeControls(v.summary)];
    out.push(`  roster: ${v.claimed ?? '(no digest)'}${v.claimedRules ? `, rules ${escapeControls(v.claimedRules)}` : ''}`);
    out.push(`  files:  ${v.actual}, rules ${FabledService.rulesVersionText(v.rules)}`);
    if (v.printed) out.push(`  sheet:  ${v.printed.line ? `line ${v.printed.line} differs from what the files give` : 'ends before what the files give'}`);
    for (const p of v.problems) out.push(`  line ${escapeControls(importProblemLine(p))}`);
    io.stdout(out.join('\n') + '\n');
  }
  return v.status === 'match' ? 0 : 1;
});
