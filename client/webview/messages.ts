/**
 * The messages between the extension host and the engagement view, declared once and imported by
 * both sides (ARCHITECTURE.md habit 4). Every message that crosses the boundary is untrusted on
 * arrival: the view checks what the host sends, the host checks what the view sends, with the
 * parsers below. Unit names and effects inside a result come from the user's files and are shown
 * as text only.
 *
 * Directions:
 * - host -> view: `{type:'result', result, estimates?}` (estimates: both cards' points estimates), `{type:'error', message}`, `{type:'busy'}`
 * - view -> host: `{type:'ready'}` once the view listens, `{type:'rerun', options}` when the user
 *   asks for another run with changed options.
 *
 * Validation uses valibot (small, tree-shaken, no code generation, so it runs under the view's
 * Content-Security-Policy, unlike ajv's compiled validators).
 */
import * as v from 'valibot';
import {
  OPTION_SPECS,
  optionBounds,
  WEAPON_TYPES,
  type OptionKey,
  type ActionCounts,
  type EngagementOptions,
  type SimulationResult,
} from '../../protocol/simulation';

export type { EngagementOptions, SimulationResult } from '../../protocol/simulation';

/** Host -> view. */
/**
 * A card's points estimate (BATTLE.md "The points estimate"), shown beside its points: the server's
 * `CardEstimate` (server/src/core/api.ts), which the view may not import.
 */
export interface CardEstimate {
  points?: number;
  estimate?: number;
  ratio?: number;
  verdict?: 'far too cheap' | 'far too dear';
  reason?: string;
  spreadPct?: number;
}

export type HostMessage =
  | { type: 'result'; result: SimulationResult; estimates?: { attacker: CardEstimate; defender: CardEstimate } }
  | { type: 'error'; message: string }
  | { type: 'busy' };

/** View -> host. */
export type ViewMessage = { type: 'ready' } | { type: 'rerun'; options: EngagementOptions };

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

/** Longest text the view will display from a single string field; longer text is cut, not refused. */
const MAX_TEXT = 10_000;
/** Most points a distribution may hold; a result with more is refused rather than drawn slowly. */
const MAX_POINTS = 100_000;
/** Probabilities are sums of floating-point terms: allow rounding noise just outside [0, 1]. */
const EPS = 1e-6;

const finite = v.pipe(v.number(), v.finite());
const nonNegative = v.pipe(v.number(), v.finite(), v.minValue(0));
const probability = v.pipe(v.number(), v.finite(), v.minValue(-EPS), v.maxValue(1 + EPS));
const text = v.pipe(v.string(), v.maxLength(MAX_TEXT));
const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

const pointSchema = v.object({ value: finite, p: probability });
const distribution = v.pipe(v.array(pointSchema), v.maxLength(MAX_POINTS));

/** A numeric option as the table declares it: a whole number (count) or any distance, within its bounds. */
function numberOption(key: OptionKey) {
  const spec = OPTION_SPECS.find((o) => o.key === key);
  const { min, max } = optionBounds(key);
  return spec?.kind === 'count' ? int(min, max) : v.pipe(v.number(), v.finite(), v.minValue(min), v.maxValue(max));
}

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

const engagementSchema = v.object({
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
  exact: v.optional(
    v.object({
      attackerWins: probability,
      defenderWins: probability,
      neither: probability,
      meanRounds: nonNegative,
      survival: survivalSchema,
    }),
  ),
});

export const simulationResultSchema = v.object({
  attacker: text,
  defender: text,
  options: resultOptionsSchema,
  volley: volleySchema,
  engagement: engagementSchema,
  assumptions: v.pipe(v.array(text), v.maxLength(1000)),
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
]);

const viewMessageSchema = v.variant('type', [v.object({ type: v.literal('ready') }), v.object({ type: v.literal('rerun'), options: optionsSchema })]);

/** A host message in the expected shape (unknown keys dropped), or `undefined` for anything else. */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  const r = v.safeParse(hostMessageSchema, data);
  if (!r.success) return undefined;
  // An error text is shown, so it is cut to a readable length rather than refused.
  if (r.output.type === 'error') return { type: 'error', message: r.output.message.slice(0, MAX_TEXT) };
  return r.output;
}

/** A view message in the expected shape (unknown keys dropped), or `undefined` for anything else. */
export function parseViewMessage(data: unknown): ViewMessage | undefined {
  const r = v.safeParse(viewMessageSchema, data);
  return r.success ? r.output : undefined;
}

/** A simulation result in the expected shape, or `undefined` (used for restored view state too). */
export function parseSimulationResult(data: unknown): SimulationResult | undefined {
  const r = v.safeParse(simulationResultSchema, data);
  return r.success ? r.output : undefined;
}

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
  Same<keyof NonNullable<Out<typeof engagementSchema>['exact']>, keyof NonNullable<SimulationResult['engagement']['exact']>>,
  Same<keyof NonNullable<Out<typeof engagementSchema>['actions']>['attacker'], keyof ActionCounts>,
] = [true, true, true, true, true, true, true, true, true, true];
void shapeChecks;
