/**
 * The messages between the extension host and the "vs the field" view, declared once and imported
 * by both (client/src/fieldPanel.ts and ./main.ts), with valibot parsers: every message and every
 * restored state is checked before it is used, on both sides.
 */
import * as v from 'valibot';
import type { VsFieldResult } from '../../../protocol/simulation';
import { finite, nonNegative, numberOption, parser, probability, text } from '../schema';

export type { VsFieldResult };
export type FieldRow = VsFieldResult['field'][number];

/** What the view asks for: which side the card takes, and the range (absent: every weapon fires). */
export interface FieldOptions {
  side: 'attacker' | 'defender';
  range?: number;
}

/** The card the view is about, as the host names it. */
export interface FieldCard {
  name: string;
  faction?: string;
}

/** Host -> view. */
export type FieldHostMessage =
  | { type: 'card'; card: FieldCard; options: FieldOptions }
  | { type: 'result'; result: VsFieldResult; options: FieldOptions }
  | { type: 'busy' }
  | { type: 'error'; message: string };

/** View -> host. `simulate`: open the engagement of the card and the row's card (the row's card by name). */
export type FieldViewMessage =
  { type: 'ready' } | { type: 'rerun'; options: FieldOptions } | { type: 'simulate'; other: { name: string; faction?: string; example?: boolean } };

const sideSchema = v.picklist(['attacker', 'defender']);
const optionsSchema = v.object({ side: sideSchema, range: v.optional(numberOption('range')) });

const shotsSchema = v.object({
  mean: v.nullable(nonNegative),
  p50: v.nullable(nonNegative),
  p90: v.nullable(nonNegative),
  cdf: v.pipe(v.array(probability), v.maxLength(1000)),
  converged: v.boolean(),
  note: v.optional(text),
});

const rowSchema = v.object({
  attacker: v.optional(text),
  defender: v.optional(text),
  faction: text,
  class: text,
  points: v.nullable(finite),
  expectedHullDamage: nonNegative,
  killProbability: probability,
  shotsToKill: shotsSchema,
  pointsPerAction: v.nullable(finite),
  note: v.optional(text),
});

/** The most rows a view takes: a workspace's field of many thousand cards is cut, not refused. */
export const MAX_ROWS = 5000;

const resultSchema = v.object({
  attacker: v.optional(text),
  defender: v.optional(text),
  range: v.nullable(finite),
  field: v.pipe(v.array(rowSchema), v.maxLength(MAX_ROWS)),
  source: v.picklist(['cards', 'examples']),
  left: v.pipe(v.array(v.object({ name: text, faction: text, reason: text })), v.maxLength(MAX_ROWS)),
});

const cardSchema = v.object({ name: text, faction: v.optional(text) });

const hostMessageSchema = v.variant('type', [
  v.object({ type: v.literal('card'), card: cardSchema, options: optionsSchema }),
  v.object({ type: v.literal('result'), result: resultSchema, options: optionsSchema }),
  v.object({ type: v.literal('busy') }),
  v.object({ type: v.literal('error'), message: v.string() }),
]);

const viewMessageSchema = v.variant('type', [
  v.object({ type: v.literal('ready') }),
  v.object({ type: v.literal('rerun'), options: optionsSchema }),
  v.object({ type: v.literal('simulate'), other: v.object({ name: text, faction: v.optional(text), example: v.optional(v.boolean()) }) }),
]);

export const parseFieldHostMessage: (raw: unknown) => FieldHostMessage | undefined = parser(hostMessageSchema);
export const parseFieldViewMessage: (raw: unknown) => FieldViewMessage | undefined = parser(viewMessageSchema);
