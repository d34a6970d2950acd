/** The `fabledStar/simulate` request's core: two cards and raw options -> the CLI's result object, or an error in words. */
import type { UnitCard } from '../model/types';
import { parseVariants, profileFromCard, validateOptions, SimulationRun } from '../sim/index';

/**
 * Checks the cards and options, and returns a run the caller steps a slice at a time (the server,
 * between turns of its loop). `rules` names rule variants (BATTLE.md) and whether to compare them
 * with the standard rules.
 */
export function prepareSimulation(
  attacker: UnitCard,
  defender: UnitCard,
  rawOptions: unknown,
  rules: { variants?: unknown; compare?: unknown } = {},
): { run: SimulationRun } | { error: string } {
  const a = profileFromCard(attacker);
  if (!a.profile) return { error: a.error ?? 'The attacker cannot be simulated.' };
  const d = profileFromCard(defender);
  if (!d.profile) return { error: d.error ?? 'The defender cannot be simulated.' };
  const v = validateOptions(rawOptions ?? {}, a.profile, d.profile);
  if (!v.options || v.errors.length) return { error: v.errors.join(' ') || 'Invalid options.' };
  const vs = parseVariants(rules.variants);
  if (!vs.choices) return { error: vs.errors.join(' ') };
  return { run: new SimulationRun(a.profile, d.profile, v.options, { variants: vs.choices, compare: rules.compare === true }) };
}
