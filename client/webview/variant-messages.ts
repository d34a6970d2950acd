/**
 * The rule variants' part of the messages between the hosts and the engagement and battle views
 * (BATTLE.md "Rule variants"): the choice a view sends (names from the catalogue only, no
 * conflicting pair, and whether to compare), and the variants and differences a result carries.
 * Shared by both views and both hosts; DOM-free (the hosts import it).
 */
import * as v from 'valibot';
import { VARIANT_NAMES, variantConflict } from '../../protocol/simulation';
import { finite, text } from './schema';

/** Differences of chances lie in [-1, 1] (with rounding noise). */
export const signedChance = v.pipe(v.number(), v.finite(), v.minValue(-1 - 1e-6), v.maxValue(1 + 1e-6));

/** The variants a view asks for: known names, each once, no conflicting pair. */
export const variantChoiceSchema = v.pipe(
  v.array(v.picklist(VARIANT_NAMES as [string, ...string[]])),
  v.maxLength(VARIANT_NAMES.length),
  v.check((names) => new Set(names).size === names.length && !variantConflict(names), 'A variant twice, or two that cannot be combined.'),
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
