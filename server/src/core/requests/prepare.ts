/**
 * The fleet battle and the duel set up, once for the language server, the CLI and the benchmarks:
 * checked and made plain data (a runner's task), or refused in the sentences a user reads. The
 * facade (../service.ts) and the simulator's requests (./sims.ts) build on these.
 */
import type { FleetDocument, Problem, UnitCard } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { cardErrors, checkDocument } from '../check/index';
import { fleetForBattle } from '../features/battle';
import { profileFromCard, simulate } from '../sim/index';
import { validateOptions, type OptionName } from '../sim/options';
import { parseVariants } from '../sim/variants/index';
import type { SimulationInput } from '../features/simulate';
import { prepareVsField as prepareVsFieldWith } from '../features/vsField';
import type { VsFieldInput } from '../sim/vs-field';
import type { BattleJob } from '../sim/chunked';
import type { BattleOptions, SimulationResult } from '../sim/types';

/** How the checks of a document are had (the facade's `Checks`): afresh by default. */
type Checks = (doc: FleetDocument, ws: Workspace) => Problem[];

const runChecks: Checks = (doc, ws) => checkDocument(doc, ws);

/** One side of a battle: a fleet list and the workspace its cards are in (a bundled example fleet fights with the example cards). */
export interface BattleSide {
  doc: FleetDocument;
  ws: Workspace;
}

/**
 * A battle ready to play: plain data (structured-clone-able), so that a worker thread can take it.
 * It is the job sim/chunked.ts plays in chunks.
 */
export type PreparedBattle = BattleJob;

/** Why a side cannot fight: which side, and the sentences (each naming its line). */
export interface BattleRefusal {
  side: 0 | 1;
  doc: FleetDocument;
  errors: string[];
}

/** The two fleets as the battle's units, with checked options (`validateBattleOptions`); or why a side cannot fight. */
export function prepareBattle(
  sides: readonly [BattleSide, BattleSide],
  options: BattleOptions,
  checks: Checks = runChecks,
): { battle: PreparedBattle } | { refused: BattleRefusal } {
  const built = [];
  for (const [i, { doc, ws }] of sides.entries()) {
    const b = fleetForBattle(doc, ws, checks(doc, ws), cardErrors);
    if (!b.fleet) return { refused: { side: i as 0 | 1, doc, errors: b.errors } };
    built.push({ fleet: b.fleet, limit: b.limit });
  }
  return { battle: { fleets: [built[0]!.fleet, built[1]!.fleet], options, limits: built.map((b) => b.limit) } };
}

/** Why a duel cannot be simulated: a card the simulator cannot use (the reason), or options or variants in error (sentences). */
export type SimulationRefusal = { problem: 'attacker' | 'defender'; reason: string | undefined } | { problem: 'options' | 'variants'; errors: string[] };

/**
 * The duel of two cards checked and ready to run, as plain data (it may cross to a worker thread):
 * the profiles, the options (`name` says how the caller's user knows them, the CLI: its flags) and
 * the rule variants (`{name, parameters}` or their text, read once).
 */
export function prepareSimulation(
  attacker: UnitCard,
  defender: UnitCard,
  rawOptions: unknown,
  rules: { variants?: unknown; compare?: unknown } = {},
  name?: OptionName,
): { simulation: SimulationInput } | { refused: SimulationRefusal } {
  const a = profileFromCard(attacker);
  if (!a.profile) return { refused: { problem: 'attacker', reason: a.error } };
  const d = profileFromCard(defender);
  if (!d.profile) return { refused: { problem: 'defender', reason: d.error } };
  const v = validateOptions(rawOptions ?? {}, a.profile, d.profile, name);
  if (!v.options || v.errors.length) return { refused: { problem: 'options', errors: v.errors } };
  const vs = parseVariants(rules.variants);
  if (!vs.choices) return { refused: { problem: 'variants', errors: vs.errors } };
  return { simulation: { attacker: a.profile, defender: d.profile, options: v.options, variants: vs.choices, compare: rules.compare === true } };
}

/** A refused duel in one sentence (the language server's answer). */
export function simulationRefusal(r: SimulationRefusal): string {
  if ('errors' in r) return r.errors.join(' ') || 'Invalid options.';
  return r.reason ?? `The ${r.problem} cannot be simulated.`;
}

/** A prepared duel run to the end, here (the CLI; the server runs it on a worker thread). */
export function runSimulation(s: SimulationInput): SimulationResult {
  return simulate(s.attacker, s.defender, s.options, { variants: s.variants, compare: s.compare });
}

/**
 * A card against every card of the field (the workspace's cards without an error, else the bundled
 * examples), checked and ready to run as plain data; or why not (the card cannot be simulated, or
 * the range is not a distance: sentences naming the option as `name` says).
 */
export function prepareVsField(
  ws: Workspace,
  ref: CardRef,
  side: 'attacker' | 'defender',
  rawRange: unknown,
  name?: OptionName,
): { input: VsFieldInput } | { refused: string[] } {
  const p = profileFromCard(ref.card);
  if (!p.profile) return { refused: [p.error ?? `${ref.name} cannot be simulated.`] };
  const v = validateOptions(rawRange === undefined ? {} : { range: rawRange }, p.profile, p.profile, name);
  if (!v.options || v.errors.length) return { refused: v.errors };
  const r = prepareVsFieldWith(ws, ref, side, v.options.range, cardErrors);
  return 'refused' in r ? { refused: [r.refused] } : r;
}

/**
 * "X cannot fight: the first reason (and N more)": the one sentence a battle's refusal is told in,
 * by the language server, the live odds lens and the CLI (`hint` goes inside the parentheses: the
 * CLI's "run fabled-star check FILE").
 */
export function cannotFight(who: string, errors: readonly string[], hint = '', verb = 'cannot fight'): string {
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more${hint})` : '';
  return `${who} ${verb}: ${errors[0] ?? 'it has errors'}${more}`;
}

/** A refusal a request answers with: the sentence the user reads. */
export class Refused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Refused';
  }
}
