/**
 * The rule variants' part of the messages between the hosts and the engagement and battle views
 * (BATTLE.md "Rule variants"): the choice a view sends (variants from the catalogue only, their
 * parameters within bounds, no conflicting pair, and whether to compare), and the variants and
 * differences a result carries. Shared by both views and both hosts; DOM-free (the hosts import it).
 */
import * as v from 'valibot';
import { readVariantChoice, VARIANT_NAMES, variantConflict, variantSpec, type VariantChoice, type VariantInfo } from '../../protocol/simulation';
import { finite, text } from './schema';

/** The rule variants a rerun asks for (BATTLE.md "Rule variants"), and whether to compare them with the standard rules. */
export interface RulesChoice {
  /** Each `{name, parameters}`, as the request carries it. */
  variants: VariantChoice[];
  compare: boolean;
}

/** Differences of chances lie in [-1, 1] (with rounding noise). */
export const signedChance = v.pipe(v.number(), v.finite(), v.minValue(-1 - 1e-6), v.maxValue(1 + 1e-6));

/**
 * The variants a view asks for, each `{name, parameters}` as the requests carry them: known names,
 * each parameter one the variant has and within its bounds, each variant once, no conflicting pair.
 */
export const variantChoiceSchema = v.pipe(
  v.array(
    v.pipe(
      v.object({ name: v.picklist(VARIANT_NAMES), parameters: v.record(v.pipe(v.string(), v.maxLength(100)), finite) }),
      v.check((c) => readVariantChoice(c).errors.length === 0, 'An unknown variant, or a parameter out of its bounds.'),
    ),
  ),
  v.maxLength(VARIANT_NAMES.length),
  v.check((choices) => {
    const names = choices.map((c) => c.name);
    return new Set(names).size === names.length && !variantConflict(names);
  }, 'A variant twice, or two that cannot be combined.'),
) as v.GenericSchema<VariantChoice[]>;

/** The names of the variants a result was played with. */
export const variantNamesSchema = v.pipe(v.array(text), v.maxLength(20));

/** A variant as a result carries it in full: name, title, parameters, assumptions. */
export const variantListSchema = v.pipe(
  v.array(
    v.object({
      name: text,
      title: text,
      parameters: v.record(v.pipe(v.string(), v.maxLength(100)), finite),
      assumptions: v.pipe(v.array(text), v.maxLength(100)),
    }),
  ),
  v.maxLength(20),
);

/** The difference in words, a sentence a line. */
export const summarySchema = v.pipe(v.array(text), v.maxLength(50));

/**
 * The variants a result was played with, each `{name, parameters}` with every parameter (the
 * defaults where the result names a variant only): what a rerun of it asks for, and what the picker
 * compares its choice with.
 */
export function playedRules(result: { variants?: readonly string[]; variantRules?: readonly VariantInfo[] }): VariantChoice[] {
  if (result.variantRules?.length) return result.variantRules.map((r) => ({ name: r.name, parameters: { ...r.parameters } }));
  return (result.variants ?? []).map((name) => ({ name, parameters: readVariantChoice({ name }).parameters }));
}

/** A choice as one string (`retreat:threshold=0.3`), for comparing two choices. */
export function choiceKey(choices: readonly VariantChoice[]): string {
  return choices.map((c) => variantSpec(c.name, c.parameters)).join('+');
}
