/**
 * What a rule variant is (BATTLE.md "Rule variants from other games"): a named module that hooks the
 * battle engine's steps (damage allocation, start and end of round, end of battle, victory) without
 * copying the round, with its parameters as data and the mapping choices it made in words.
 */
import type { BattleHooks } from '../battle/types';
import type { VariantEntry } from './catalog';

export type { VariantParameter } from './catalog';
/** Declared with the results that carry it (../types.ts, a leaf), so that the results import nothing of the variants. */
export type { VariantInfo } from '../types';

/** A catalogue entry with its hooks. */
export interface VariantDefinition extends VariantEntry {
  /**
   * Fresh hooks for one run (they may keep per-trial state) and the assumptions: the mapping
   * choices, with the parameter values used.
   */
  create(params: Readonly<Record<string, number>>): { hooks: BattleHooks; assumptions: string[] };
}
