/**
 * The messages between the extension host and the fleet battle view, declared once and imported by
 * both (client/src/battlePanel.ts and ./main.ts), with valibot parsers: every message and every
 * restored state is checked before it is used, on both sides.
 */
import * as v from 'valibot';
import { OPTION_LIMITS, type BattleRequestOptions, type BattleResult, type VariantChoice } from '../../../protocol/simulation';
import { finite, int, nonNegative, parser, probability, runOptionBounds, runOptionEntries, text } from '../schema';
import { signedChance, summarySchema, variantChoiceSchema, variantListSchema, variantNamesSchema } from '../variant-messages';

/** The options the view asks for: a request's, each variant `{name, parameters}`. */
export type BattleOptions = Omit<BattleRequestOptions, 'variants'> & { variants?: VariantChoice[] };
export type { BattleResult };

/** Host -> view. `partial`: a result of the trials run so far, while the run goes on. */
export type BattleHostMessage =
  | { type: 'result'; result: BattleResult; partial: boolean }
  | { type: 'progress'; done: number; total: number }
  | { type: 'busy' }
  | { type: 'cancelled' }
  | { type: 'error'; message: string }
  /** The two fleets' names, for the heading before any result (while the first run loads, or when it fails). */
  | { type: 'fleets'; fleet: string; vs: string }
  /** What-if: the fleet is played beside another version of it, named so ("Saved version"); empty: no longer. */
  | { type: 'compareWith'; label: string; another?: boolean }
  /** A fleet or a card either fleet uses was edited: the figures are for the lists before (a run follows). */
  | { type: 'fleetsEdited' }
  /** A fleet cannot fight as it now stands: the sentence says why (nothing runs until it can). */
  | { type: 'cannotFight'; message: string }
  /** After `cannotFight`: the lists are back to what the figures were played with. */
  | { type: 'fleetsCurrent' };

/** View -> host. */
export type BattleViewMessage = { type: 'ready' } | { type: 'rerun'; options: BattleOptions } | { type: 'cancel' };

/** What the view's controls offer, and the parsers accept: the simulator's own request limits. */
export const BATTLE_LIMITS = runOptionBounds('battle') as Record<'range' | 'rounds' | 'trials' | 'seed', { min: number; max: number }>;

const chance = v.object({ p: probability, se: nonNegative });

const unitSchema = v.object({
  name: text,
  copy: int(1, 1_000_000),
  points: nonNegative,
  alive: v.pipe(v.array(probability), v.maxLength(OPTION_LIMITS.roundsMax)),
  fired: nonNegative,
  boarded: nonNegative,
  rammed: nonNegative,
  routed: v.optional(v.pipe(v.array(probability), v.maxLength(OPTION_LIMITS.roundsMax))),
});

const sideSchema = v.object({
  fleet: text,
  faction: text,
  points: nonNegative,
  annihilation: chance,
  pointsVictory: chance,
  pointsDestroyed: v.object({ mean: finite, p10: finite, p50: finite, p90: finite }),
  units: v.pipe(v.array(unitSchema), v.maxLength(1000)),
  retreated: v.optional(chance),
  variantVictory: v.optional(chance),
});

const resultEntries = {
  method: v.literal('sampled'),
  trials: nonNegative,
  seed: nonNegative,
  rounds: int(1, OPTION_LIMITS.roundsMax),
  mode: v.picklist(['approach', 'fixed']),
  variants: variantNamesSchema,
  variantRules: v.optional(variantListSchema),
  sides: v.tuple([sideSchema, sideSchema]),
  bothDestroyed: chance,
  draw: chance,
  meanRounds: nonNegative,
  policy: text,
  assumptions: v.pipe(v.array(text), v.maxLength(100)),
  cutShort: v.optional(v.literal(true)),
  requestedTrials: v.optional(nonNegative),
  cutTrials: v.optional(nonNegative),
  stopped: v.optional(v.picklist(['precision', 'cap'])),
  precision: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
};

const sideDifference = v.object({
  annihilation: signedChance,
  pointsVictory: signedChance,
  pointsDestroyedMean: finite,
  units: v.pipe(v.array(v.object({ name: text, copy: int(1, 1_000_000), survival: signedChance })), v.maxLength(1000)),
});

/** A paired difference (FORMATS.md `compareFleets.difference`): the other version's figure minus the fleet's, and its paired standard error. */
const paired = v.object({ delta: signedChance, se: nonNegative });
const pairedSide = v.object({ annihilation: paired, pointsVictory: paired });

/** A result, with the standard rules' result beside it when variants were compared. */
export const battleResultSchema = v.object({
  ...resultEntries,
  compare: v.optional(
    v.object({
      standard: v.object(resultEntries),
      difference: v.object({ sides: v.tuple([sideDifference, sideDifference]), draw: signedChance, meanRounds: finite }),
      summary: summarySchema,
    }),
  ),
  // What-if: another version of the fleet against the same opponent, on the same dice.
  compareFleets: v.optional(
    v.object({
      fleet: text,
      result: v.object(resultEntries),
      difference: v.object({ sides: v.tuple([pairedSide, pairedSide]), draw: paired }),
      summary: summarySchema,
    }),
  ),
});

// The battle's options are the option table's rows for it (OPTION_SPECS), with the rule variants.
const optionsSchema = v.object({
  ...runOptionEntries('battle'),
  variants: v.optional(variantChoiceSchema),
  compare: v.optional(v.boolean()),
});

const hostSchema = v.variant('type', [
  v.object({ type: v.literal('result'), result: battleResultSchema, partial: v.boolean() }),
  v.object({ type: v.literal('progress'), done: nonNegative, total: nonNegative }),
  v.object({ type: v.literal('busy') }),
  v.object({ type: v.literal('cancelled') }),
  v.object({ type: v.literal('error'), message: text }),
  v.object({ type: v.literal('fleets'), fleet: text, vs: text }),
  v.object({ type: v.literal('compareWith'), label: text, another: v.optional(v.boolean()) }),
  v.object({ type: v.literal('fleetsEdited') }),
  v.object({ type: v.literal('cannotFight'), message: text }),
  v.object({ type: v.literal('fleetsCurrent') }),
]);

const viewSchema = v.variant('type', [
  v.object({ type: v.literal('ready') }),
  v.object({ type: v.literal('rerun'), options: v.strictObject(optionsSchema.entries) }),
  v.object({ type: v.literal('cancel') }),
]);

export const parseBattleResult = parser(battleResultSchema) as (x: unknown) => BattleResult | undefined;
export const parseBattleHostMessage = parser(hostSchema) as (x: unknown) => BattleHostMessage | undefined;
export const parseBattleViewMessage: (x: unknown) => BattleViewMessage | undefined = parser(viewSchema);
