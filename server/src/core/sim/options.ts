/**
 * Simulation options: validation of untrusted input (CLI flags, a server request) into
 * `EngagementOptions`, and their resolution against two profiles into the numbers the engine uses.
 */
import { ENGAGEMENT_DEFAULTS } from '../rules/data';
import type { EngagementOptions, UnitProfile } from './types';
import { maxShields } from './fire';
import { OPTION_LIMITS } from './limits';
import { count } from '../rules/words';
import { clip } from '../model/limits';

export { OPTION_LIMITS };

const KEYS = ['range', 'cover', 'aim', 'brace', 'defenderShields', 'attackerBases', 'defenderBases', 'rounds', 'trials', 'seed'] as const;

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(clip(v));
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  return Array.isArray(v) ? 'a list' : 'an object';
}

/** A number from a JSON number or from the text of one (CLI flags are text). */
function asNumber(v: unknown): number | undefined {
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
 * Checks options from outside. Unknown keys, wrong types and out-of-range values are errors, each
 * a sentence naming the option and what is allowed. With the two profiles it also checks what
 * depends on them: the aimed weapon exists, bases do not exceed the class's, shields not the maximum.
 */
export function validateOptions(raw: unknown, att?: UnitProfile, def?: UnitProfile): { options?: EngagementOptions; errors: string[] } {
  const errors: string[] = [];
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return { errors: [`Options must be an object, not ${describe(raw)}.`] };
  const src = raw as Record<string, unknown>;
  const out: EngagementOptions = {};
  for (const key of Object.keys(src)) {
    if (!(KEYS as readonly string[]).includes(key)) errors.push(`Unknown option "${key}"; the options are ${KEYS.join(', ')}.`);
  }
  const int = (key: (typeof KEYS)[number], min: number, max: number, what: string): number | undefined => {
    const v = src[key];
    if (v === undefined) return undefined;
    const n = asNumber(v);
    if (n === undefined || !Number.isInteger(n) || n < min || n > max) {
      errors.push(`${key} must be ${what}, not ${describe(v)}.`);
      return undefined;
    }
    return n;
  };
  const bool = (key: (typeof KEYS)[number]): boolean | undefined => {
    const v = src[key];
    if (v === undefined) return undefined;
    const b = asBoolean(v);
    if (b === undefined) errors.push(`${key} must be true or false, not ${describe(v)}.`);
    return b;
  };

  if (src.range !== undefined) {
    const n = asNumber(src.range);
    if (n === undefined || n < 0 || n > OPTION_LIMITS.rangeMax)
      errors.push(`range must be a distance in inches from 0 to ${OPTION_LIMITS.rangeMax}, not ${describe(src.range)}.`);
    else out.range = n;
  }
  const cover = bool('cover');
  if (cover !== undefined) out.cover = cover;
  const brace = bool('brace');
  if (brace !== undefined) out.brace = brace;
  if (src.aim !== undefined) {
    if (typeof src.aim === 'string' && src.aim.trim() !== '') out.aim = src.aim;
    else if (typeof src.aim === 'number' && Number.isInteger(src.aim) && src.aim >= 0) out.aim = String(src.aim);
    else errors.push(`aim must name one of the attacker's weapons (or give its 0-based index), not ${describe(src.aim)}.`);
  }
  const shields = int('defenderShields', 0, Number.MAX_SAFE_INTEGER, 'a whole number of shields, 0 or more');
  if (shields !== undefined) out.defenderShields = shields;
  const ab = int('attackerBases', 1, Number.MAX_SAFE_INTEGER, 'a whole number of bases, 1 or more');
  if (ab !== undefined) out.attackerBases = ab;
  const db = int('defenderBases', 1, Number.MAX_SAFE_INTEGER, 'a whole number of bases, 1 or more');
  if (db !== undefined) out.defenderBases = db;
  const rounds = int('rounds', 1, OPTION_LIMITS.roundsMax, `a whole number of rounds from 1 to ${OPTION_LIMITS.roundsMax}`);
  if (rounds !== undefined) out.rounds = rounds;
  const trials = int('trials', 1, OPTION_LIMITS.trialsMax, `a whole number of trials from 1 to ${OPTION_LIMITS.trialsMax}`);
  if (trials !== undefined) out.trials = trials;
  const seed = int('seed', 0, OPTION_LIMITS.seedMax, `a whole number from 0 to ${OPTION_LIMITS.seedMax}`);
  if (seed !== undefined) out.seed = seed;

  if (att) {
    if (out.aim !== undefined && resolveAim(att, out.aim) === undefined) {
      // Every piece is cut short: the aim, the names and the list can each be 100,000 characters.
      const names = clip(att.weapons.map((w, i) => `${i}: ${clip(w.name, 40)}`).join(', '), 400);
      errors.push(`aim "${clip(out.aim)}" is not a weapon of ${clip(att.name)}; its weapons are ${names || 'none'}.`);
    }
    if (out.attackerBases !== undefined && out.attackerBases > att.bases)
      errors.push(`attackerBases ${out.attackerBases} is more than the ${count(att.bases, 'base')} of ${att.name}.`);
  }
  if (def) {
    if (out.defenderBases !== undefined && out.defenderBases > def.bases)
      errors.push(`defenderBases ${out.defenderBases} is more than the ${count(def.bases, 'base')} of ${def.name}.`);
    const bases = Math.min(out.defenderBases ?? def.bases, def.bases);
    const max = maxShields(def, bases * def.hp);
    if (out.defenderShields !== undefined && out.defenderShields > max) {
      errors.push(
        `defenderShields ${out.defenderShields} is more than ${def.name} can hold (${max}${def.combinedShields ? ` = ${def.sh ?? 0} per base x ${bases}` : ''}).`,
      );
    }
  }
  return errors.length ? { errors } : { options: out, errors };
}

/** Options resolved against two profiles: every default filled in and every value held in range. */
export interface Resolved {
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
