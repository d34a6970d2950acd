/**
 * `fabled-star sim`: the odds of one Fire action and of a short engagement between two cards
 * (FORMATS.md "Simulation output"). Cards come from `--cards` files or folders (default: the
 * current folder); the numbers come from the pure simulator core.
 */
import { createFabledService, FabledService } from '../core/service';
import { loadCards, type CliIO } from './io';
import { escapeStrings } from './terminal';
import { CARDS_OPTION, command, type Command, type CommandSpec, type OptionRow } from './args';
import { readVariantFlags, twoSidedCommand, VARIANT_HELP } from './variants';

/** The cards `--cards` gave, and one of them found by name. */
type Workspace = ReturnType<typeof loadCards>['ws'];
type CardSelector = Parameters<Workspace['resolve']>[0];
type CardRef = NonNullable<ReturnType<Workspace['resolve']>['ref']>;

const { engagementDefaults: ENGAGEMENT_DEFAULTS, optionSpecs: OPTION_SPECS } = FabledService;

export const SIM_HELP = `Usage: fabled-star sim --attacker NAME --defender NAME [--cards PATH]... [options]
       fabled-star sim --attacker NAME --vs-field [--range INCHES] [--cards PATH]...
       fabled-star sim --defender NAME --vs-field [--range INCHES] [--cards PATH]...

Computes one Fire action of the attacker at the defender exactly (the distribution of hull damage,
shields removed, bases destroyed, the kill probability and a per-weapon breakdown), and the odds
of a short engagement between the two by seeded sampling (and exactly, when small enough).

Options:
  --attacker NAME          the firing unit's card name (Faction/Name when several factions share it)
  --defender NAME          the target's card name
  --cards PATH             a *.unit.yaml / *.faction.yaml file or a folder searched recursively;
                           may repeat (default: the current folder)
  --cover                  the defender is in cover (+1 to the attacker's BS target number)
  --aim WEAPON             the attacker aims this weapon (name or 0-based index) in the volley
  --brace                  the defender braced (-1 to its AC target number) in the volley
  --range INCHES           distance; only weapons that reach it fire (volley default: every
                           weapon fires; engagement default: ${ENGAGEMENT_DEFAULTS.range}")
  --defender-shields N     the defender's current SH (default: full)
  --attacker-bases N       bases the attacker has left (default: full strength)
  --defender-bases N       bases the defender has left (default: full strength)
  --rounds N               engagement round limit (default ${ENGAGEMENT_DEFAULTS.rounds})
  --trials N               engagement trials (default ${ENGAGEMENT_DEFAULTS.trials})
  --seed N                 random seed; the same seed gives the same numbers (default ${ENGAGEMENT_DEFAULTS.seed})
${VARIANT_HELP}
                           (with a variant the engagement is sampled through the fleet battle
                           engine, without the exact chain; the single Fire action is unchanged)
  --format text|json       a readable report (default) or one JSON object on stdout
  -h, --help               show this help

Against the field (--vs-field, with --attacker or --defender and only --range and --cards): one row
per card of the field (the cards of --cards without an error, else the bundled examples; the card
itself too), the figures of "sim" for that pair (expected hull damage and kill chance of one Fire
action, shots to kill) and the points destroyed per Fire action per 100 points of the attacker,
highest first. With --defender, each card of the field fires at the card.

Exit status: 0 success, 2 usage problem, unknown or unusable card, or unreadable file.
`;

/** Up to `n` card names closest to `name`: substring matches first, then by edit distance (bounded work, model/suggest.ts). */
export function closestNames(name: string, names: string[], n = 3): string[] {
  return FabledService.closestNames(name, names, n);
}

/** Finds a card by name, or by "Faction/Name"; explains what went wrong otherwise. */
function findCard(ws: Workspace, role: string, name: string): { ref?: CardRef; error?: string } {
  let sel: CardSelector = { name };
  let r = ws.resolve(sel, 'unique');
  if (r.candidates.length === 0 && name.includes('/')) {
    const cut = name.indexOf('/');
    sel = { name: name.slice(cut + 1), faction: name.slice(0, cut).trim() };
    r = ws.resolve(sel, 'unique');
  }
  if (r.ref) return { ref: r.ref };
  if (sel.faction === undefined && r.candidates.length) {
    const factions = [...new Set(r.candidates.map((f) => f.faction))];
    return { error: `${role} "${name}" names cards of several factions (${factions.join(', ')}); write it as Faction/Name, e.g. "${factions[0]}/${name}".` };
  }
  const all = ws
    .allCards()
    .map((c) => c.card.name.value ?? '')
    .filter(Boolean);
  if (all.length === 0) return { error: `${role} "${name}": no unit cards were found (give --cards PATH).` };
  const near = closestNames(name, all);
  return { error: `Unknown ${role.toLowerCase()} card "${name}".${near.length ? ` Did you mean: ${near.map((c) => `"${c}"`).join(', ')}?` : ''}` };
}

const SIM_COMMAND = twoSidedCommand({
  name: 'sim',
  help: SIM_HELP,
  sides: { attacker: 'NAME', defender: 'NAME' },
  // The simulation's flags are its option table's (OPTION_SPECS).
  flags: Object.fromEntries(OPTION_SPECS.map((o) => [o.flag, { type: o.kind === 'boolean' ? 'boolean' : 'string' } satisfies OptionRow])),
});

const VS_FIELD_COMMAND = {
  name: 'sim',
  help: SIM_HELP,
  options: {
    attacker: { type: 'string' },
    defender: { type: 'string' },
    'vs-field': { type: 'boolean' },
    range: { type: 'string' },
    cards: CARDS_OPTION,
  },
  formats: ['text', 'json'],
} as const satisfies CommandSpec;

const runVsField = command(VS_FIELD_COMMAND, ({ values, format, fail: usage }, io) => {
  const { attacker, defender } = values;
  if ((attacker === undefined) === (defender === undefined))
    return usage('--vs-field takes one card: --attacker NAME (it fires at the field) or --defender NAME (the field fires at it), not both.');
  const side = attacker !== undefined ? 'attacker' : 'defender';
  const { ws, problems } = loadCards(io, values.cards ?? [io.cwd]);
  if (problems.length) return usage(...problems);
  const found = findCard(ws, side === 'attacker' ? 'Attacker' : 'Defender', (attacker ?? defender)!);
  // A workspace without cards plays against the bundled examples: the card may be one of them.
  const ref =
    found.ref ??
    (ws.allCards().length === 0
      ? findCard(FabledService.fallbackWorkspace(), side === 'attacker' ? 'Attacker' : 'Defender', (attacker ?? defender)!).ref
      : undefined);
  if (!ref) return usage(found.error!);
  const played = createFabledService({ workspace: ws }).vsField(ref, side, values.range, (spec) => `--${spec.flag}`);
  if ('refused' in played) return usage(...played.refused);
  const result = played.result;
  io.stdout(format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : FabledService.renderVsField(escapeStrings(result)));
  return 0;
});

/**
 * `sim`: the duel of two cards, or, with --vs-field, one card against the field. Its option table
 * (for the CLI reference) is the duel's with --vs-field added.
 */
export const runSim: Command = Object.assign(
  (argv: string[], io: CliIO): number | Promise<number> => (argv.includes('--vs-field') ? runVsField(argv, io) : runDuel(argv, io)),
  { spec: { ...SIM_COMMAND, options: { ...SIM_COMMAND.options, 'vs-field': VS_FIELD_COMMAND.options['vs-field'] } } },
);

const runDuel = command(SIM_COMMAND, async ({ values, format, fail: usage }, io) => {
  const { attacker: attackerName, defender: defenderName } = values;
  const rules = readVariantFlags(values, usage);
  if (rules === 2) return 2;

  const { ws, problems } = loadCards(io, values.cards ?? [io.cwd]);
  if (problems.length) return usage(...problems);

  const att = findCard(ws, 'Attacker', attackerName);
  if (!att.ref) return usage(att.error!);
  const def = findCard(ws, 'Defender', defenderName);
  if (!def.ref) return usage(def.error!);
  // The flags are the option table's (OPTION_SPECS); errors name options as the flags the user typed.
  const raw: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS) {
    const v = (values as Record<string, unknown>)[spec.flag];
    if (spec.kind === 'boolean') {
      if (v) raw[spec.key] = true;
    } else if (v !== undefined) raw[spec.key] = v;
  }
  const prepared = FabledService.prepareSimulation(
    att.ref.card,
    def.ref.card,
    raw,
    { variants: rules.choices, compare: rules.compare },
    (spec) => `--${spec.flag}`,
  );
  if ('refused' in prepared) {
    const r = prepared.refused;
    return 'errors' in r ? usage(...r.errors) : usage(`the ${r.problem} cannot be simulated: ${r.reason}`);
  }
  const result = FabledService.runSimulation(prepared.simulation);
  // JSON escapes what it must; the text report is rendered from a copy whose strings are escaped.
  io.stdout(format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : FabledService.renderReport(escapeStrings(result)));
  return 0;
});
