/**
 * Simulation options: validation of untrusted input (CLI flags, a server request) into
 * `EngagementOptions`, and their resolution against two profiles into the numbers the engine uses.
 */
import { ENGAGEMENT_DEFAULTS } from '../rules/data';
import type { EngagementOptions, UnitProfile } from './types';
import { maxShields } from './fire';
import { OPTION_LIMITS, OPTION_SPECS, type OptionSpec } from './limits';
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

/**
 * Checks options from outside against OPTION_SPECS. Unknown keys, wrong types and out-of-range
 * values are errors, each a sentence naming the option and what is allowed; `name` says how the
 * caller's user knows an option (the CLI: its flag). With the two profiles it also checks what
 * depends on them: the aimed weapon exists, bases do not exceed the class's, shields not the maximum.
 */
export function validateOptions(
  raw: unknown,
  att?: UnitProfile,
  def?: UnitProfile,
  name: (spec: OptionSpec) => string = (spec) => spec.key,
): { options?: EngagementOptions; errors: string[] } {
  const errors: string[] = [];
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return { errors: [`Options must be an object, not ${describeValue(raw)}.`] };
  const src = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(src)) {
    if (!OPTION_SPECS.some((o) => o.key === key)) errors.push(`Unknown option "${key}"; the options are ${OPTION_SPECS.map(name).join(', ')}.`);
  }
  for (const spec of OPTION_SPECS) {
    const v = src[spec.key];
    if (v === undefined) continue;
    const bad = () => errors.push(`${name(spec)} must be ${spec.what}, not ${describeValue(v)}.`);
    switch (spec.kind) {
      case 'boolean': {
        const b = asBoolean(v);
        if (b === undefined) bad();
        else out[spec.key] = b;
        break;
      }
      case 'weapon':
        if (typeof v === 'string' && v.trim() !== '') out[spec.key] = v;
        else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) out[spec.key] = String(v);
        else bad();
        break;
      case 'distance':
      case 'count': {
        const n = asNumber(v);
        if (n === undefined || n < spec.min || n > spec.max || (spec.kind === 'count' && !Number.isInteger(n))) bad();
        else out[spec.key] = n;
        break;
      }
    }
  }
  const opts = out as EngagementOptions;
  const named = (key: string) => name(OPTION_SPECS.find((o) => o.key === key)!);

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

function clampInt(v: number | undefined, min: number, max: number, dflt: number): number {
  if (v === undefined || !Number.isFinite(v)) return dflt;
  return Math.min(max, Math.max(min, Math.round(v)));
}

/**
 * Fills defaults and holds values in range, so that the engine never sees nonsense even when a
 * caller skipped `validateOptions` (the core never throws on bad input).
 */
export function resolveOptions(att: UnitProfile, def: UnitProfile, options: EngagementOptions): Resolved {
  const o: EngagementOptions = options && typeof options === 'object' ? options : {};
  const attackerBases = clampInt(o.attackerBases, 1, att.bases, att.bases);
  const defenderBases = clampInt(o.defenderBases, 1, def.bases, def.bases);
  const defenderHull = defenderBases * def.hp;
  const max = maxShields(def, defenderHull);
  const range = o.range !== undefined && Number.isFinite(o.range) && o.range >= 0 ? o.range : undefined;
  return {
    [RESOLVED]: true,
    attackerBases,
    defenderBases,
    defenderShields: clampInt(o.defenderShields, 0, max, max),
    defenderHull,
    cover: o.cover === true,
    brace: o.brace === true,
    aim: resolveAim(att, o.aim),
    volleyRange: range,
    range: range ?? ENGAGEMENT_DEFAULTS.range,
    rounds: clampInt(o.rounds, 1, OPTION_LIMITS.roundsMax, ENGAGEMENT_DEFAULTS.rounds),
    trials: clampInt(o.trials, 1, OPTION_LIMITS.trialsMax, ENGAGEMENT_DEFAULTS.trials),
    seed: clampInt(o.seed, 0, OPTION_LIMITS.seedMax, ENGAGEMENT_DEFAULTS.seed),
  };
}

/** Options as a caller gave them, or as `simulate` already resolved them for the same two profiles. */
export function asResolved(att: UnitProfile, def: UnitProfile, options: EngagementOptions | Resolved): Resolved {
  return options && typeof options === 'object' && RESOLVED in options ? options : resolveOptions(att, def, options);
}
