/**
 * What a rule variant is (BATTLE.md "Rule variants from other games"): a named module that hooks the
 * battle engine's steps (damage allocation, start and end of round, end of battle, victory) without
 * copying the round, with its parameters as data and the mapping choices it made in words.
 */
import type { BattleHooks } from '../battle';
import type { VariantEntry } from './catalog';

export type { VariantParameter } from './catalog';

/** A catalogue entry with its hooks. */
export interface VariantDefinition extends VariantEntry {
  /**
   * Fresh hooks for one run (they may keep per-trial state) and the assumptions: the mapping
   * choices, with the parameter values used.
   */
  create(params: Readonly<Record<string, number>>): { hooks: BattleHooks; assumptions: string[] };
}

/** A variant as a result carries it: its name, the parameters used and its assumptions. */
export interface VariantInfo {
  name: string;
  title: string;
  parameters: Record<string, number>;
  assumptions: string[];
}
