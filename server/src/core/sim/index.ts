/**
 * The simulator's public face: one Fire action (`simulateVolley`), the quick engagement
 * (`simulateEngagement`), both with their assumptions (`simulate`), option checking for the CLI and
 * the server (`validateOptions`) and card conversion (`profileFromCard`). Pure: no I/O, and the only
 * randomness is the seeded generator (pure-rand xoroshiro128+) made from the options' seed or
 * handed in.
 */
import type { EngagementOptions, SimulationResult, UnitProfile } from './types';
import { simulateVolley } from './volley';
import { ENGAGEMENT_ASSUMPTIONS, simulateEngagement } from './engagement';
import { FIRE_ASSUMPTIONS } from './fire';
import { resolveOptions } from './options';
import { sanitizeProfile } from './profile';
import { ENGAGEMENT_DEFAULTS } from '../rules/data';

export { simulateVolley } from './volley';
export { simulateEngagement, initiativeOdds, POLICY_EXPECTED, POLICY_RULE } from './engagement';
export { validateOptions, resolveOptions, OPTION_LIMITS, OPTION_SPECS } from './options';
export { profileFromCard, profileProblems, sanitizeProfile } from './profile';
export { renderReport, renderHistogram } from './report';
export { makeRng } from './dice';
export type * from './types';

/** The assumptions behind every result, in words (shown beside the numbers). */
export const ASSUMPTIONS: readonly string[] = [...FIRE_ASSUMPTIONS, ...ENGAGEMENT_ASSUMPTIONS];

/** The volley and the engagement of `att` against `def`, with the options as resolved and the assumptions. */
export function simulate(attacker: UnitProfile, defender: UnitProfile, opts: EngagementOptions = {}): SimulationResult {
  const att = sanitizeProfile(attacker);
  const def = sanitizeProfile(defender);
  // Resolved once for the volley and the engagement.
  const r = resolveOptions(att, def, opts);
  const volley = simulateVolley(att, def, r);
  const engagement = simulateEngagement(att, def, r);
  const assumptions = [...ASSUMPTIONS];
  if (r.volleyRange === undefined)
    assumptions.unshift(`No range given: every weapon fires in the volley; the engagement is fought at ${ENGAGEMENT_DEFAULTS.range}".`);
  return {
    attacker: att.name,
    defender: def.name,
    options: {
      ...(r.volleyRange !== undefined ? { range: r.volleyRange } : {}),
      cover: r.cover,
      ...(r.aim !== undefined ? { aim: att.weapons[r.aim]!.name } : {}),
      brace: r.brace,
      defenderShields: r.defenderShields,
      attackerBases: r.attackerBases,
      defenderBases: r.defenderBases,
      rounds: r.rounds,
      trials: r.trials,
      seed: r.seed,
    },
    volley,
    engagement,
    assumptions,
  };
}
