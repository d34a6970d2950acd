/** The `fabledStar/simulate` request's core: two cards and raw options -> the CLI's result object, or an error in words. */
import type { UnitCard } from '../model/types';
import { parseVariants, profileFromCard, validateOptions, SimulationRun } from '../sim/index';
import type { EngagementOptions, UnitProfile, VariantChoice } from '../sim/index';

/** A simulation checked and ready to run, as plain data (it may cross to a worker thread). */
export interface SimulationInput {
  attacker: UnitProfile;
  defender: UnitProfile;
  options: EngagementOptions;
  variants: VariantChoice[];
  compare: boolean;
}

/** Checks the cards, options and rule variants of a simulation request: its input, or an error in words. */
export function checkSimulation(
  attacker: UnitCard,
  defender: UnitCard,
  rawOptions: unknown,
  rules: { variants?: unknown; compare?: unknown } = {},
): { input: SimulationInput } | { error: string } {
  const a = profileFromCard(attacker);
  if (!a.profile) return { error: a.error ?? 'The attacker cannot be simulated.' };
  const d = profileFromCard(defender);
  if (!d.profile) return { error: d.error ?? 'The defender cannot be simulated.' };
  const v = validateOptions(rawOptions ?? {}, a.profile, d.profile);
  if (!v.options || v.errors.length) return { error: v.errors.join(' ') || 'Invalid options.' };
  const vs = parseVariants(rules.variants);
  if (!vs.choices) return { error: vs.errors.join(' ') };
  return { input: { attacker: a.profile, defender: d.profile, options: v.options, variants: vs.choices, compare: rules.compare === true } };
}

/** The run of a checked simulation, to be stepped a slice at a time (in a worker thread, or between turns of a loop). */
export function simulationRun(input: SimulationInput): SimulationRun {
  return new SimulationRun(input.attacker, input.defender, input.options, { variants: input.variants, compare: input.compare });
}

/**
 * Checks the cards and options, and returns a run the caller steps a slice at a time. `rules` names
 * rule variants (BATTLE.md) and whether to compare them with the standard rules.
 */
export function prepareSimulation(
  attacker: UnitCard,
  defender: UnitCard,
  rawOptions: unknown,
  rules: { variants?: unknown; compare?: unknown } = {},
): { run: SimulationRun } | { error: string } {
  const c = checkSimulation(attacker, defender, rawOptions, rules);
  return 'error' in c ? c : { run: simulationRun(c.input) };
}
