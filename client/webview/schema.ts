/**
 * The building blocks of every view's message schemas (valibot: small, tree-shaken, no code
 * generation, so it runs under the views' Content-Security-Policy), and the one way a schema
 * becomes a parser. Every message and every restored state crosses the boundary as untrusted data.
 */
import * as v from 'valibot';
import { optionSpec, optionsOf, type OptionKey, type OptionRun } from '../../protocol/simulation';

/** Longest text a view accepts in a single string field. */
export const MAX_TEXT = 10_000;
/** Probabilities are sums of floating-point terms: allow rounding noise just outside [0, 1]. */
const EPS = 1e-6;

export const finite = v.pipe(v.number(), v.finite());
export const nonNegative = v.pipe(v.number(), v.finite(), v.minValue(0));
export const probability = v.pipe(v.number(), v.finite(), v.minValue(-EPS), v.maxValue(1 + EPS));
export const text = v.pipe(v.string(), v.maxLength(MAX_TEXT));
export const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

/**
 * A numeric option as the simulator's option table (OPTION_SPECS) declares it: a whole number
 * (count) or any distance, within its bounds. The views' controls and parsers accept what the
 * server accepts, from the one table.
 */
export function numberOption(key: OptionKey): v.GenericSchema<number> {
  const spec = optionSpec(key);
  if (spec.kind === 'count') return int(spec.min, spec.max);
  if (spec.kind === 'distance') return v.pipe(v.number(), v.finite(), v.minValue(spec.min), v.maxValue(spec.max));
  return v.never();
}

/** Any option as the table declares it: a number within bounds, a boolean, or a weapon's name. */
function optionSchema(key: OptionKey): v.GenericSchema<number | boolean | string> {
  const kind = optionSpec(key).kind;
  return kind === 'boolean' ? v.boolean() : kind === 'weapon' ? text : numberOption(key);
}

/** Every option of a run (the table's rows for it), each optional: what a rerun may ask for. */
export function runOptionEntries(run: OptionRun): Record<string, v.OptionalSchema<v.GenericSchema<number | boolean | string>, undefined>> {
  return Object.fromEntries(optionsOf(run).map((s) => [s.key, v.optional(optionSchema(s.key))]));
}

/** The bounds of a run's numeric options, for the views' number fields. */
export function runOptionBounds(run: OptionRun): Record<string, { min: number; max: number }> {
  return Object.fromEntries(optionsOf(run).flatMap((s) => (s.kind === 'count' || s.kind === 'distance' ? [[s.key, { min: s.min, max: s.max }]] : [])));
}

/**
 * A message with every string cut to MAX_TEXT (the host applies it before posting): a fleet or a
 * card named with more characters than a view takes must not cost the view its whole result, or
 * the error that names it. Plain data only (what postMessage carries).
 */
export function fitText<T>(x: T): T {
  if (typeof x === 'string') return (x.length > MAX_TEXT ? `${x.slice(0, MAX_TEXT - 1)}\u2026` : x) as T;
  if (Array.isArray(x)) return x.map(fitText) as T;
  if (x && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype)
    return Object.fromEntries(Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, fitText(v)])) as T;
  return x;
}

/** The parser of a schema: the value in the schema's shape (unknown keys dropped), or `undefined` for anything else. */
export function parser<S extends v.GenericSchema>(schema: S): (data: unknown) => v.InferOutput<S> | undefined {
  return (data) => {
    const r = v.safeParse(schema, data);
    return r.success ? r.output : undefined;
  };
}
