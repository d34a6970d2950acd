/**
 * What the client and the engagement view need to know about a simulation: the options and result
 * shapes of the `fabledStar/simulate` request, and the few figures their controls show (range
 * bands, weapon types, defaults and bounds). No runtime dependency: the webview bundles this file.
 * The figures are the rules pack's own (written once, in server/src/core/rules/data.ts), passed on
 * here so that nothing outside the server reaches into the server's tree.
 */
export { BATTLE_DEFAULTS, BATTLE_PRECISION, ENGAGEMENT_DEFAULTS, RANGE_BANDS, WEAPON_TYPES } from '../server/src/core/rules/data';
export { formatPercent, formatPercentError, halfWidthWords, shotsToKillRows, stoppedWords } from '../server/src/core/rules/words';
export {
  OPTION_LIMITS,
  OPTION_SPECS,
  optionBounds,
  optionSpec,
  optionsOf,
  clampWhole,
  type OptionKey,
  type OptionRun,
  type OptionSpec,
} from '../server/src/core/sim/limits';
export type { ActionCounts, EngagementOptions, Point, ShotsToKill, SimulationResult } from '../server/src/core/sim/types';
export type { BattleOptions, BattleRequestOptions, BattleResult, BattleSideResult, BattleUnitResult, Chance } from '../server/src/core/sim/types';
export {
  VARIANT_CATALOG,
  VARIANT_NAMES,
  VARIANT_CONFLICTS,
  variantConflict,
  readVariantSpec,
  readVariantChoice,
  variantSpec,
  clearlyDifferent,
  variantTitles,
  variantEffects,
  type VariantEntry,
} from '../server/src/core/sim/variants/catalog';
export type { VariantInfo } from '../server/src/core/sim/variants/types';
export type { VariantChoice } from '../server/src/core/sim/variants/catalog';
export type { BattleDifference, EngagementDifference, EngagementResult } from '../server/src/core/sim/types';
export type { CardEstimate } from '../server/src/core/api';
export type { FieldRow, VsFieldResult } from '../server/src/core/sim/vs-field';
