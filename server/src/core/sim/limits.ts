/**
 * The simulation options of both runs, the duel (`fabledStar/simulate`, `sim`) and the fleet battle
 * (`fabledStar/battle`, `battle`), declared once: each option's key (as requests and results name
 * it), its CLI flag, its kind, its bounds, its default per run, and the words an error gives. The
 * core's one validator (options.ts `checkOptions`) and one clamp (`optionValue`), the CLI's flags,
 * the client's settings and both views' controls and message parsers all read this table. Upper
 * bounds keep one simulation request within about a second; beyond them the input is an error.
 * Imports only the rules pack's figures: the webview bundles this file (through
 * protocol/simulation) without the simulator.
 */
import { BATTLE_DEFAULTS, ENGAGEMENT_DEFAULTS } from '../rules/data';

export const OPTION_LIMITS = {
  rangeMax: 1000,
  roundsMax: 100,
  trialsMax: 1_000_000,
  seedMax: 0xffffffff,
} as const;

export type OptionKey = 'range' | 'cover' | 'aim' | 'brace' | 'defenderShields' | 'attackerBases' | 'defenderBases' | 'rounds' | 'trials' | 'seed';

/** The two runs that take options: the duel of two cards and the battle of two fleets. */
export type OptionRun = 'duel' | 'battle';

interface SpecBase {
  key: OptionKey;
  flag: string;
  /** The runs that take it. */
  runs: readonly OptionRun[];
  /** What a valid value is, in words (an error says "<name> must be <what>, not ..."). */
  what: string;
}

/** A number within bounds; `default` per run where the run has one (the duel's range; absent: "not given" means something else). */
type NumberSpec = SpecBase & { min: number; max: number; default: Partial<Record<OptionRun, number>> };

export type OptionSpec =
  /** A distance in inches (not necessarily whole). */
  | (NumberSpec & { kind: 'distance' })
  /** A whole number. */
  | (NumberSpec & { kind: 'count' })
  | (SpecBase & { kind: 'boolean' })
  /** One of the attacker's weapons, by name or 0-based index. */
  | (SpecBase & { kind: 'weapon' });

const MAX = Number.MAX_SAFE_INTEGER;
const BOTH: readonly OptionRun[] = ['duel', 'battle'];
const DUEL: readonly OptionRun[] = ['duel'];
const whole = (min: number, max: number, what: string) => `a whole number${what} from ${min} to ${max}`;

export const OPTION_SPECS: readonly OptionSpec[] = [
  {
    key: 'range',
    flag: 'range',
    kind: 'distance',
    runs: BOTH,
    min: 0,
    max: OPTION_LIMITS.rangeMax,
    default: { duel: ENGAGEMENT_DEFAULTS.range },
    what: `a distance in inches from 0 to ${OPTION_LIMITS.rangeMax}`,
  },
  { key: 'cover', flag: 'cover', kind: 'boolean', runs: DUEL, what: 'true or false' },
  { key: 'aim', flag: 'aim', kind: 'weapon', runs: DUEL, what: "one of the attacker's weapons (or its 0-based index)" },
  { key: 'brace', flag: 'brace', kind: 'boolean', runs: DUEL, what: 'true or false' },
  { key: 'defenderShields', flag: 'defender-shields', kind: 'count', runs: DUEL, min: 0, max: MAX, default: {}, what: 'a whole number of shields, 0 or more' },
  { key: 'attackerBases', flag: 'attacker-bases', kind: 'count', runs: DUEL, min: 1, max: MAX, default: {}, what: 'a whole number of bases, 1 or more' },
  { key: 'defenderBases', flag: 'defender-bases', kind: 'count', runs: DUEL, min: 1, max: MAX, default: {}, what: 'a whole number of bases, 1 or more' },
  {
    key: 'rounds',
    flag: 'rounds',
    kind: 'count',
    runs: BOTH,
    min: 1,
    max: OPTION_LIMITS.roundsMax,
    default: { duel: ENGAGEMENT_DEFAULTS.rounds, battle: BATTLE_DEFAULTS.rounds },
    what: whole(1, OPTION_LIMITS.roundsMax, ' of rounds'),
  },
  {
    key: 'trials',
    flag: 'trials',
    kind: 'count',
    runs: BOTH,
    min: 1,
    max: OPTION_LIMITS.trialsMax,
    default: { duel: ENGAGEMENT_DEFAULTS.trials, battle: BATTLE_DEFAULTS.trials },
    what: whole(1, OPTION_LIMITS.trialsMax, ' of trials'),
  },
  {
    key: 'seed',
    flag: 'seed',
    kind: 'count',
    runs: BOTH,
    min: 0,
    max: OPTION_LIMITS.seedMax,
    default: { duel: ENGAGEMENT_DEFAULTS.seed, battle: BATTLE_DEFAULTS.seed },
    what: whole(0, OPTION_LIMITS.seedMax, ''),
  },
];

/** The options a run takes, in the table's order. */
export function optionsOf(run: OptionRun): readonly OptionSpec[] {
  return OPTION_SPECS.filter((s) => s.runs.includes(run));
}

/** The spec of a key. */
export function optionSpec(key: OptionKey): OptionSpec {
  return OPTION_SPECS.find((o) => o.key === key)!;
}

/** The bounds of a numeric option. */
export function optionBounds(key: OptionKey): { min: number; max: number } {
  const s = optionSpec(key);
  return s.kind === 'count' || s.kind === 'distance' ? { min: s.min, max: s.max } : { min: -MAX, max: MAX };
}

/** `v` held within [min, max]. */
export function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}

/** The one clamp of a whole number from outside: `fallback` unless it is a finite number, else rounded and held within [min, max]. */
export function clampWhole<F>(v: unknown, min: number, max: number, fallback: F): number | F {
  return typeof v === 'number' && Number.isFinite(v) ? clamp(Math.round(v), min, max) : fallback;
}

/**
 * A whole-number option of a run as the engine uses it: the value held within the table's bounds
 * (rounded), or the run's default when it is not a number. For callers that skipped the validator.
 */
export function optionValue(run: OptionRun, key: 'rounds' | 'trials' | 'seed', v: unknown): number {
  const s = optionSpec(key) as NumberSpec;
  return clampWhole(v, s.min, s.max, s.default[run] ?? s.min);
}
