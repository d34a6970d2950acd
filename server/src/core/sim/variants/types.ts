/**
 * What a rule variant is (BATTLE.md "Rule variants from other games"): a named module that hooks the
 * battle engine's steps (damage allocation, start and end of round, end of battle, victory) without
 * copying the round, with its parameters as data and the mapping choices it made in words.
 */
import type { BattleHooks } from '../battle';

/** One parameter of a variant: its documented default and bounds. */
export interface VariantParameter {
  default: number;
  min: number;
  max: number;
  /** What it means, in words (help text and errors). */
  what: string;
}

export interface VariantDefinition {
  /** The name given to `--variant`. */
  name: string;
  /** The name in player words ("break tests"). */
  title: string;
  /** The rule text it comes from (in shared/rules/other-games/). */
  source: string;
  /** One sentence: what it does. */
  summary: string;
  parameters: Readonly<Record<string, VariantParameter>>;
  /** A fixed battle length (rounds) the variant imposes, if any. */
  rounds?: number;
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
