/**
 * The simulation options, declared once: each option's key (as requests and results name it), its
 * CLI flag, its kind and its bounds. The core's validateOptions, the CLI's flags, the client's
 * settings and the engagement view's controls and message parser all read this table. Upper bounds
 * keep one simulation request within about a second; beyond them the input is an error. No imports,
 * on purpose: the webview bundles this file (through protocol/simulation) without the simulator.
 */
export const OPTION_LIMITS = {
  rangeMax: 1000,
  roundsMax: 100,
  trialsMax: 1_000_000,
  seedMax: 0xffffffff,
} as const;

export type OptionKey = 'range' | 'cover' | 'aim' | 'brace' | 'defenderShields' | 'attackerBases' | 'defenderBases' | 'rounds' | 'trials' | 'seed';

export type OptionSpec =
  /** A distance in inches (not necessarily whole). */
  | { key: OptionKey; flag: string; kind: 'distance'; min: number; max: number; what: string }
  /** A whole number. */
  | { key: OptionKey; flag: string; kind: 'count'; min: number; max: number; what: string }
  | { key: OptionKey; flag: string; kind: 'boolean'; what: string }
  /** One of the attacker's weapons, by name or 0-based index. */
  | { key: OptionKey; flag: string; kind: 'weapon'; what: string };

const MAX = Number.MAX_SAFE_INTEGER;

export const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'range', flag: 'range', kind: 'distance', min: 0, max: OPTION_LIMITS.rangeMax, what: `a distance in inches from 0 to ${OPTION_LIMITS.rangeMax}` },
  { key: 'cover', flag: 'cover', kind: 'boolean', what: 'true or false' },
  { key: 'aim', flag: 'aim', kind: 'weapon', what: "one of the attacker's weapons (or its 0-based index)" },
  { key: 'brace', flag: 'brace', kind: 'boolean', what: 'true or false' },
  { key: 'defenderShields', flag: 'defender-shields', kind: 'count', min: 0, max: MAX, what: 'a whole number of shields, 0 or more' },
  { key: 'attackerBases', flag: 'attacker-bases', kind: 'count', min: 1, max: MAX, what: 'a whole number of bases, 1 or more' },
  { key: 'defenderBases', flag: 'defender-bases', kind: 'count', min: 1, max: MAX, what: 'a whole number of bases, 1 or more' },
  { key: 'rounds', flag: 'rounds', kind: 'count', min: 1, max: OPTION_LIMITS.roundsMax, what: `a whole number of rounds from 1 to ${OPTION_LIMITS.roundsMax}` },
  { key: 'trials', flag: 'trials', kind: 'count', min: 1, max: OPTION_LIMITS.trialsMax, what: `a whole number of trials from 1 to ${OPTION_LIMITS.trialsMax}` },
  { key: 'seed', flag: 'seed', kind: 'count', min: 0, max: OPTION_LIMITS.seedMax, what: `a whole number from 0 to ${OPTION_LIMITS.seedMax}` },
];

/** The bounds of a numeric option. */
export function optionBounds(key: OptionKey): { min: number; max: number } {
  const s = OPTION_SPECS.find((o) => o.key === key);
  return s && (s.kind === 'count' || s.kind === 'distance') ? { min: s.min, max: s.max } : { min: -MAX, max: MAX };
}
