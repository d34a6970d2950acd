/**
 * Simulation options: validation of untrusted input (CLI flags, a server request) into
 * `EngagementOptions`, and their resolution against two profiles into the numbers the engine uses.
 */
import { ENGAGEMENT_DEFAULTS } from '../rules/data';
import type { EngagementOptions, UnitProfile } from './types';
import { maxShields } from './fire';
import { clampWhole, OPTION_LIMITS, OPTION_SPECS, optionSpec, optionsOf, optionValue, type OptionKey, type OptionRun } from './limits';
import { count } from '../rules/words';
import { clip } from '../model/limits';

export { OPTION_LIMITS, OPTION_SPECS };

/** A value from outside as an error message shows it: a string quoted and cut short, else its kind. */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(clip(v));
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  return Array.isArray(v) ? 'a list' : 'an object';
}

/** A number from a JSON number or from the text of one (CLI flags are text). */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(v)) return Number(v);
  return undefined;
}

/**
 * A battle's precision from outside (`battle --precision`, a request's `precision`): a 95%
 * half-width above 0 and below 0.5, or the sentence that says what is wrong, naming it as `name`.
 * Undefined given: none asked.
 */
export function checkPrecision(v: unknown, name: string): { precision?: number; error?: string } {
  if (v === undefined) return {};
  const p = asNumber(v);
  if (p !== undefined && p > 0 && p < 0.5) return { precision: p };
  return { error: `${name} must be a half-width above 0 and below 0.5 (0.01 is \u00b11%), not ${describeValue(v)}.` };
}

function asBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** The weapon index an aim option names: a weapon name (case-insensitive) or a 0-based index. */
export function resolveAim(att: UnitProfile, aimOption: unknown): number | undefined {
  if (typeof aimOption !== 'string' && typeof aimOption !== 'number') return undefined;
  const aim = String(aimOption);
  const byName = att.weapons.findIndex((w) => w.name.trim().toLowerCase() === aim.trim().toLowerCase());
  if (byName >= 0) return byName;
  if (/^\d+$/.test(aim.trim())) {
    const i = Number(aim.trim());
    if (i < att.weapons.length) return i;
  }
  return undefined;
}

/** How the caller's user knows an option: a request's key (the default) or the CLI's flag. */
export type OptionName = (spec: { key: string; flag: string }) => string;

const byKey: OptionName = (spec) => spec.key;

/**
 * The one validator of options from outside (CLI flags, a request), for either run, against the
 * run's rows of OPTION_SPECS: unknown keys (other than `extra`, which the caller reads), wrong types
 * and out-of-range values are errors, each a sentence naming the option (`name`) and what is allowed.
 * `undefined` when `raw` is not an object at all.
 */
export function checkOptions(
  run: OptionRun,
  raw: unknown,
  name: OptionName = byKey,
  extra: readonly string[] = [],
): { values: Record<string, unknown>; src: Record<string, unknown>; errors: string[] } | { errors: string[]; values?: undefined } {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return { errors: [`Options must be an object, not ${describeValue(raw)}.`] };
  const specs = optionsOf(run);
  const src = raw as Record<string, unknown>;
  const errors: string[] = [];
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(src)) {
    if (!specs.some((o) => o.key === key) && !extra.includes(key))
      errors.push(`Unknown option "${clip(key, 40)}"; the options are ${[...specs.map(name), ...extra.map((k) => name({ key: k, flag: k }))].join(', ')}.`);
  }
  for (const spec of specs) {
    const v = src[spec.key];
    if (v === undefined) continue;
    const bad = () => errors.push(`${name(spec)} must be ${spec.what}, not ${describeValue(v)}.`);
    switch (spec.kind) {
      case 'boolean': {
        const b = asBoolean(v);
        if (b === undefined) bad();
        else values[spec.key] = b;
        break;
      }
      case 'weapon':
        if (typeof v === 'string' && v.trim() !== '') values[spec.key] = v;
        else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) values[spec.key] = String(v);
        else bad();
        break;
      case 'distance':
      case 'count': {
        const n = asNumber(v);
        if (n === undefined || n < spec.min || n > spec.max || (spec.kind === 'count' && !Number.isInteger(n))) bad();
        else values[spec.key] = n;
        break;
      }
    }
  }
  return { values, src, errors };
}

/**
 * Checks the duel's options (`checkOptions`); with the two profiles it also checks what depends on
 * them: the aimed weapon exists, bases do not exceed the class's, shields not the maximum.
 */
export function validateOptions(
  raw: unknown,
  att?: UnitProfile,
  def?: UnitProfile,
  name: OptionName = byKey,
): { options?: EngagementOptions; errors: string[] } {
  const checked = checkOptions('duel', raw, name);
  if (!checked.values) return { errors: checked.errors };
  const { values: out, errors } = checked;
  const opts = out as EngagementOptions;
  const named = (key: OptionKey) => name(optionSpec(key));

  if (att) {
    if (opts.aim !== undefined && resolveAim(att, opts.aim) === undefined) {
      // Every piece is cut short: the aim, the names and the list can each be 100,000 characters.
      const names = clip(att.weapons.map((w, i) => `${i}: ${clip(w.name, 40)}`).join(', '), 400);
      errors.push(`${named('aim')} "${clip(opts.aim)}" is not a weapon of ${clip(att.name)}; its weapons are ${names || 'none'}.`);
    }
    if (opts.attackerBases !== undefined && opts.attackerBases > att.bases)
      errors.push(`${named('attackerBases')} ${opts.attackerBases} is more than the ${count(att.bases, 'base')} of ${att.name}.`);
  }
  if (def) {
    if (opts.defenderBases !== undefined && opts.defenderBases > def.bases)
      errors.push(`${named('defenderBases')} ${opts.defenderBases} is more than the ${count(def.bases, 'base')} of ${def.name}.`);
    const bases = Math.min(opts.defenderBases ?? def.bases, def.bases);
    const max = maxShields(def, bases * def.hp);
    if (opts.defenderShields !== undefined && opts.defenderShields > max) {
      errors.push(
        `${named('defenderShields')} ${opts.defenderShields} is more than ${def.name} can hold (${max}${def.combinedShields ? ` = ${def.sh ?? 0} per base x ${bases}` : ''}).`,
      );
    }
  }
  return errors.length ? { errors } : { options: opts, errors };
}

/** Marks options that are already resolved, so that the volley and the engagement of one run resolve them once. */
const RESOLVED: unique symbol = Symbol('resolved options');

/** Options resolved against two profiles: every default filled in and every value held in range. */
export interface Resolved {
  readonly [RESOLVED]: true;
  attackerBases: number;
  defenderBases: number;
  /** Defender's starting SH and hull points. */
  defenderShields: number;
  defenderHull: number;
  cover: boolean;
  brace: boolean;
  aim?: number;
  /** Volley range (undefined: every weapon fires). */
  volleyRange?: number;
  /** Engagement range. */
  range: number;
  rounds: number;
  trials: number;
  seed: number;
}

/**
 * Fills defaults and holds values in range, so that the engine never sees nonsense even when a
 * caller skipped `validateOptions` (the core never throws on bad input).
 */
export function resolveOptions(att: UnitProfile, def: UnitProfile, options: EngagementOptions): Resolved {
  const o: EngagementOptions = options && typeof options === 'object' ? options : {};
  const attackerBases = clampWhole(o.attackerBases, 1, att.bases, att.bases);
  const defenderBases = clampWhole(o.defenderBases, 1, def.bases, def.bases);
  const defenderHull = defenderBases * def.hp;
  const max = maxShields(def, defenderHull);
  const range = o.range !== undefined && Number.isFinite(o.range) && o.range >= 0 ? o.range : undefined;
  return {
    [RESOLVED]: true,
    attackerBases,
    defenderBases,
    defenderShields: clampWhole(o.defenderShields, 0, max, max),
    defenderHull,
    cover: o.cover === true,
    brace: o.brace === true,
    aim: resolveAim(att, o.aim),
    volleyRange: range,
    range: range ?? ENGAGEMENT_DEFAULTS.range,
    rounds: optionValue('duel', 'rounds', o.rounds),
    trials: optionValue('duel', 'trials', o.trials),
    seed: optionValue('duel', 'seed', o.seed),
  };
}

/** Options as a caller gave them, or as `simulate` already resolved them for the same two profiles. */
export function asResolved(att: UnitProfile, def: UnitProfile, options: EngagementOptions | Resolved): Resolved {
  return options && typeof options === 'object' && RESOLVED in options ? options : resolveOptions(att, def, options);
}
