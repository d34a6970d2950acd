/**
 * The rule variants' part of the messages between the hosts and the engagement and battle views
 * (BATTLE.md "Rule variants"): the choice a view sends (variants from the catalogue only, their
 * parameters within bounds, no conflicting pair, and whether to compare), and the variants and
 * differences a result carries. Shared by both views and both hosts; DOM-free (the hosts import it).
 */
import * as v from 'valibot';
import { readVariantSpec, VARIANT_NAMES, variantConflict, variantSpec, type VariantInfo } from '../../protocol/simulation';
import { finite, text } from './schema';

/** The rule variants a rerun asks for (BATTLE.md "Rule variants"), and whether to compare them with the standard rules. */
export interface RulesChoice {
  variants: string[];
  compare: boolean;
}

/** Differences of chances lie in [-1, 1] (with rounding noise). */
export const signedChance = v.pipe(v.number(), v.finite(), v.minValue(-1 - 1e-6), v.maxValue(1 + 1e-6));

/** The name of a variant as a view writes it (`retreat:threshold=0.3`), if it reads without error. */
function specName(spec: string): string | undefined {
  const r = readVariantSpec(spec);
  return r.errors.length ? undefined : r.name;
}

/**
 * The variants a view asks for: known names, each with its parameters within their bounds
 * (`retreat:threshold=0.3`, or the name alone for the defaults), each once, no conflicting pair.
 */
export const variantChoiceSchema = v.pipe(
  v.array(
    v.pipe(
      v.string(),
      v.maxLength(200),
      v.check((s) => specName(s) !== undefined, 'An unknown variant, or a parameter out of its bounds.'),
    ),
  ),
  v.maxLength(VARIANT_NAMES.length),
  v.check((specs) => {
    const names = specs.map((s) => specName(s)!);
    return new Set(names).size === names.length && !variantConflict(names);
  }, 'A variant twice, or two that cannot be combined.'),
);

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
 * The variants a result was played with, each as a view's choice writes it (`variantSpec`, with its
 * parameters): what a rerun of it asks for, and what the picker compares its choice with.
 */
export function playedRules(result: { variants?: readonly string[]; variantRules?: readonly VariantInfo[] }): string[] {
  if (result.variantRules?.length) return result.variantRules.map((r) => variantSpec(r.name, r.parameters));
  return (result.variants ?? []).map((n) => variantSpec(n));
}
