/**
 * The messages between the extension host and the engagement view, declared once and imported by
 * both sides (ARCHITECTURE.md habit 4). Every message that crosses the boundary is untrusted on
 * arrival: the view checks what the host sends, the host checks what the view sends, with the
 * parsers below. Unit names and effects inside a result come from the user's files and are shown
 * as text only.
 *
 * Directions:
 * - host -> view: `{type:'result', result, estimates?}` (estimates: both cards' points estimates,
 *   shown beside their points), `{type:'error', message}`, `{type:'busy'}`,
 *   `{type:'units', attacker, defender}` (the two cards' faction, class and points)
 * - view -> host: `{type:'ready'}` once the view listens, `{type:'rerun', options}` when the user
 *   asks for another run with changed options (a `range` left out means "any range": every weapon
 *   fires in the single Fire action, as the CLI without --range).
 *
 * Validation uses valibot (small, tree-shaken, no code generation, so it runs under the view's
 * Content-Security-Policy, unlike ajv's compiled validators).
 */
import * as v from 'valibot';
import { optionBounds, WEAPON_TYPES, type ActionCounts, type CardEstimate, type EngagementOptions, type SimulationResult } from '../../../protocol/simulation';
import { finite, MAX_TEXT, nonNegative, numberOption, parser, probability, text } from '../schema';
import { signedChance, summarySchema, variantChoiceSchema, variantListSchema, variantNamesSchema, type RulesChoice } from '../variant-messages';

export type { RulesChoice } from '../variant-messages';

/** A card's points estimate (BATTLE.md "The points estimate"), shown beside its points. */
export type { CardEstimate, EngagementOptions, SimulationResult } from '../../../protocol/simulation';

/**
 * What the host knows about a card beyond the simulation: shown on the card's line under the title.
 * `points` is the card's printed cost; the line has room for more (a points estimate beside it).
 */
export interface UnitFacts {
  name: string;
  faction?: string;
  class?: string;
  points?: number;
  /** One of the bundled example cards rather than the user's own. */
  example?: boolean;
}

/** Host -> view. */
export type HostMessage =
  | { type: 'result'; result: SimulationResult; estimates?: { attacker: CardEstimate; defender: CardEstimate } }
  | { type: 'error'; message: string }
  | { type: 'busy' }
  | { type: 'units'; attacker: UnitFacts; defender: UnitFacts };

/** View -> host. */
export type ViewMessage = { type: 'ready' } | { type: 'rerun'; options: EngagementOptions; rules?: RulesChoice };

/**
 * Bounds the view's controls offer and the parsers accept for a rerun: the simulator's own option
 * table (OPTION_SPECS), so the view never offers what the host would refuse. Shields and bases are
 * bounded by the units themselves, which only the host knows; it checks them and answers with an
 * error message.
 */
export const RERUN_LIMITS = {
  range: optionBounds('range'),
  rounds: optionBounds('rounds'),
  trials: optionBounds('trials'),
  seed: optionBounds('seed'),
  defenderShields: optionBounds('defenderShields'),
  bases: optionBounds('attackerBases'),
} as const;

/** Most points a distribution may hold; a result with more is refused rather than drawn slowly. */
const MAX_POINTS = 100_000;

const pointSchema = v.object({ value: finite, p: probability });
const distribution = v.pipe(v.array(pointSchema), v.maxLength(MAX_POINTS));

// The keys are listed so that the compile-time check below can prove they are EngagementOptions';
// kinds and bounds come from the option table.
const optionsSchema = v.object({
  range: v.optional(numberOption('range')),
  cover: v.optional(v.boolean()),
  aim: v.optional(text),
  brace: v.optional(v.boolean()),
  defenderShields: v.optional(numberOption('defenderShields')),
  attackerBases: v.optional(numberOption('attackerBases')),
  defenderBases: v.optional(numberOption('defenderBases')),
  rounds: v.optional(numberOption('rounds')),
  trials: v.optional(numberOption('trials')),
  seed: v.optional(numberOption('seed')),
});

/**
 * Options echoed inside a result are looser than a rerun request: the CLI or a setting may have
 * asked for more trials than the view offers, and the view must still show that result.
 */
const resultOptionsSchema = v.object({
  range: v.optional(nonNegative),
  cover: v.optional(v.boolean()),
  aim: v.optional(text),
  brace: v.optional(v.boolean()),
  defenderShields: v.optional(nonNegative),
  attackerBases: v.optional(nonNegative),
  defenderBases: v.optional(nonNegative),
  rounds: v.optional(nonNegative),
  trials: v.optional(nonNegative),
  seed: v.optional(finite),
});

const weaponSchema = v.object({
  name: text,
  type: v.picklist(WEAPON_TYPES),
  inRange: v.boolean(),
  attacks: nonNegative,
  aimed: v.boolean(),
  expectedHits: nonNegative,
  expectedCrits: nonNegative,
  expectedShieldsRemoved: nonNegative,
  expectedHullDamage: nonNegative,
});

const method = v.picklist(['exact', 'sampled']);

const volleySchema = v.object({
  method,
  expectedShieldsRemoved: nonNegative,
  expectedHullDamage: nonNegative,
  expectedBasesDestroyed: nonNegative,
  killProbability: probability,
  hullDamage: distribution,
  hullDamageAtLeast: v.optional(distribution),
  shieldsRemoved: distribution,
  basesDestroyed: distribution,
  weapons: v.pipe(v.array(weaponSchema), v.maxLength(1000)),
  trials: v.optional(nonNegative),
  seed: v.optional(finite),
  standardError: v.optional(v.object({ expectedHullDamage: nonNegative, killProbability: nonNegative, expectedShieldsRemoved: nonNegative })),
  note: v.optional(text),
});

const survivalSchema = v.pipe(v.array(v.object({ round: nonNegative, attacker: probability, defender: probability })), v.maxLength(MAX_POINTS));

const actionCountsSchema = v.object({ aim: nonNegative, shields: nonNegative, brace: nonNegative });

const engagementEntries = {
  method,
  rounds: nonNegative,
  trials: nonNegative,
  seed: finite,
  range: nonNegative,
  attackerWins: probability,
  defenderWins: probability,
  neither: probability,
  standardError: v.object({ attackerWins: nonNegative, defenderWins: nonNegative, neither: nonNegative }),
  meanRounds: nonNegative,
  survival: survivalSchema,
  policy: text,
  roundsTaken: v.optional(distribution),
  actions: v.optional(v.object({ attacker: actionCountsSchema, defender: actionCountsSchema })),
  closeCombat: v.optional(
    v.object({ attacker: v.object({ boarded: nonNegative, rammed: nonNegative }), defender: v.object({ boarded: nonNegative, rammed: nonNegative }) }),
  ),
  cutShort: v.optional(v.boolean()),
  requestedTrials: v.optional(nonNegative),
  exact: v.optional(
    v.object({
      attackerWins: probability,
      defenderWins: probability,
      neither: probability,
      meanRounds: nonNegative,
      survival: survivalSchema,
    }),
  ),
  variants: v.optional(variantNamesSchema),
  variantRules: v.optional(variantListSchema),
  routed: v.optional(v.object({ attacker: probability, defender: probability })),
  retreated: v.optional(v.object({ attacker: probability, defender: probability })),
  variantVictory: v.optional(v.object({ attacker: probability, defender: probability })),
  bothDestroyed: v.optional(probability),
};

/** The duel, with the standard rules' duel beside it when variants were compared. */
const engagementSchema = v.object({
  ...engagementEntries,
  compare: v.optional(
    v.object({
      standard: v.object(engagementEntries),
      difference: v.object({
        attackerWins: signedChance,
        defenderWins: signedChance,
        neither: signedChance,
        meanRounds: finite,
        survival: v.object({ attacker: signedChance, defender: signedChance }),
      }),
      summary: summarySchema,
    }),
  ),
});

/** Shots to kill (FORMATS.md): nulls when the attacker can never destroy the defender. */
const shotsToKillSchema = v.object({
  mean: v.nullable(nonNegative),
  p50: v.nullable(nonNegative),
  p90: v.nullable(nonNegative),
  cdf: v.pipe(v.array(probability), v.maxLength(1000)),
  converged: v.boolean(),
  note: v.optional(text),
});

export const simulationResultSchema = v.object({
  attacker: text,
  defender: text,
  options: resultOptionsSchema,
  volley: volleySchema,
  shotsToKill: v.optional(shotsToKillSchema),
  engagement: engagementSchema,
  assumptions: v.pipe(v.array(text), v.maxLength(1000)),
  reach: v.optional(v.object({ attacker: nonNegative, defender: nonNegative })),
});

const unitFactsSchema = v.object({
  name: text,
  faction: v.optional(text),
  class: v.optional(text),
  points: v.optional(finite),
  example: v.optional(v.boolean()),
});

const estimateSchema = v.object({
  points: v.optional(finite),
  estimate: v.optional(nonNegative),
  ratio: v.optional(nonNegative),
  verdict: v.optional(v.picklist(['far too cheap', 'far too dear'])),
  reason: v.optional(text),
  spreadPct: v.optional(nonNegative),
});

const hostMessageSchema = v.variant('type', [
  v.object({
    type: v.literal('result'),
    result: simulationResultSchema,
    estimates: v.optional(v.object({ attacker: estimateSchema, defender: estimateSchema })),
  }),
  v.object({ type: v.literal('error'), message: v.string() }),
  v.object({ type: v.literal('busy') }),
  v.object({ type: v.literal('units'), attacker: unitFactsSchema, defender: unitFactsSchema }),
]);

const viewMessageSchema = v.variant('type', [
  v.object({ type: v.literal('ready') }),
  v.object({ type: v.literal('rerun'), options: optionsSchema, rules: v.optional(v.object({ variants: variantChoiceSchema, compare: v.boolean() })) }),
]);

const parseHost = parser(hostMessageSchema);

/** A host message in the expected shape (unknown keys dropped), or `undefined` for anything else. */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  const m = parseHost(data);
  // An error text is shown, so it is cut to a readable length rather than refused.
  return m?.type === 'error' ? { type: 'error', message: m.message.slice(0, MAX_TEXT) } : m;
}

/** A view message in the expected shape (unknown keys dropped), or `undefined` for anything else. */
export const parseViewMessage: (data: unknown) => ViewMessage | undefined = parser(viewMessageSchema);

/** A simulation result in the expected shape, or `undefined` (used for restored view state too). */
export const parseSimulationResult: (data: unknown) => SimulationResult | undefined = parser(simulationResultSchema);

// Compile-time proof that the schemas describe exactly the shared types: if someone adds a field
// to SimulationResult or EngagementOptions, type-checking fails here until the schema follows.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Out<S extends v.GenericSchema> = v.InferOutput<S>;
// Mutual assignability misses an optional field present on one side only, so keys are compared too.
const shapeChecks: [
  Same<Out<typeof simulationResultSchema>, SimulationResult>,
  Same<Out<typeof optionsSchema>, EngagementOptions>,
  Same<keyof Out<typeof optionsSchema>, keyof EngagementOptions>,
  Same<keyof Out<typeof resultOptionsSchema>, keyof EngagementOptions>,
  Same<keyof Out<typeof volleySchema>, keyof SimulationResult['volley']>,
  Same<keyof Out<typeof engagementSchema>, keyof SimulationResult['engagement']>,
  Same<keyof Out<typeof weaponSchema>, keyof SimulationResult['volley']['weapons'][number]>,
  Same<keyof Out<typeof simulationResultSchema>, keyof SimulationResult>,
  Same<keyof Out<typeof shotsToKillSchema>, keyof NonNullable<SimulationResult['shotsToKill']>>,
  Same<keyof NonNullable<Out<typeof engagementSchema>['exact']>, keyof NonNullable<SimulationResult['engagement']['exact']>>,
  Same<keyof NonNullable<Out<typeof engagementSchema>['actions']>['attacker'], keyof ActionCounts>,
  Same<Out<typeof unitFactsSchema>, UnitFacts>,
  Same<keyof Out<typeof unitFactsSchema>, keyof UnitFacts>,
  Same<Out<typeof estimateSchema>, CardEstimate>,
  Same<keyof Out<typeof estimateSchema>, keyof CardEstimate>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void shapeChecks;
