/**
 * The simulator's public face: one Fire action (`simulateVolley`), the quick engagement
 * (`simulateEngagement`), both with their assumptions (`simulate`), option checking for the CLI and
 * the server (`validateOptions`) and card conversion (`profileFromCard`). Pure: no I/O, and the only
 * randomness is the seeded generator (pure-rand xoroshiro128+) made from the options' seed or
 * handed in.
 */
import type { EngagementOptions, EngagementResult, SimulationResult, UnitProfile } from './types';
import type { VariantChoice } from './variants/index';
import { comparedDone, comparedProgress, engagementDifference, engagementSummary, stepCompared, type RunProgress } from './variants/compare';
import { simulateVolley } from './volley';
import { shotsToKill } from './shots-to-kill';
import { ENGAGEMENT_ASSUMPTIONS, EngagementRun } from './engagement';
import { FIRE_ASSUMPTIONS, weaponReach } from './fire';
import { resolveOptions } from './options';
import { sanitizeProfile } from './profile';
import { ENGAGEMENT_DEFAULTS } from '../rules/data';

export { simulateVolley } from './volley';
export { shotsToKill, SHOTS_TO_KILL_MAX_ACTIONS, SHOTS_TO_KILL_TOLERANCE } from './shots-to-kill';
export { simulateEngagement, initiativeOdds, POLICY_EXPECTED, POLICY_RULE, EngagementRun } from './engagement';
export { BattleSession, simulateBattle, validateBattleOptions, gameSizeFor, BATTLE_POLICY, withComparison } from './fleet-battle';
export { VARIANTS, VARIANT_NAMES, VARIANT_CONFLICTS, parseVariants, composeVariants, variantHelp } from './variants/index';
export type { VariantChoice, VariantInfo, VariantDefinition } from './variants/index';
export { validateOptions, resolveOptions, OPTION_LIMITS, OPTION_SPECS } from './options';
export { profileFromCard, profileProblems, sanitizeProfile } from './profile';
export { renderReport, renderHistogram } from './report';
export { makeRng } from './dice';
export type * from './types';

/** The assumptions behind every result, in words (shown beside the numbers). */
export const ASSUMPTIONS: readonly string[] = [...FIRE_ASSUMPTIONS, ...ENGAGEMENT_ASSUMPTIONS];

/**
 * The volley and the engagement of `att` against `def`, run a slice of work at a time: `step(ops)`
 * returns true when the engagement's sampling has ended (the volley is bounded and computed at
 * once), `result()` gives the whole result of what has run. A server steps it between turns of its
 * event loop and stops when the request is cancelled; `simulate` runs it to the end.
 */
export class SimulationRun {
  private readonly att: UnitProfile;
  private readonly def: UnitProfile;
  private readonly opts: EngagementOptions;
  private readonly engagement: EngagementRun;
  private volley: SimulationResult['volley'] | undefined;
  private shots: SimulationResult['shotsToKill'] | undefined;

  private readonly variants: readonly VariantChoice[];
  /** With `compare` and variants: the standard rules' engagement, run after the variant one. */
  private readonly standard: EngagementRun | undefined;

  constructor(
    attacker: UnitProfile,
    defender: UnitProfile,
    opts: EngagementOptions = {},
    tuning: { workLimit?: number; variants?: readonly VariantChoice[]; compare?: boolean } = {},
  ) {
    this.att = sanitizeProfile(attacker);
    this.def = sanitizeProfile(defender);
    this.opts = opts && typeof opts === 'object' ? opts : {};
    this.variants = tuning.variants ?? [];
    this.engagement = new EngagementRun(this.att, this.def, this.opts, undefined, tuning);
    if (tuning.compare && this.variants.length)
      this.standard = new EngagementRun(this.att, this.def, this.opts, undefined, {
        ...(tuning.workLimit !== undefined ? { workLimit: tuning.workLimit } : {}),
      });
  }

  step(ops?: number): boolean {
    this.volley ??= simulateVolley(this.att, this.def, this.opts);
    this.shots ??= shotsToKill(this.att, this.def, this.opts);
    return stepCompared(this.engagement, this.standard, ops);
  }

  get done(): boolean {
    return comparedDone(this.engagement, this.standard);
  }

  /** Trials run so far, and asked for (both engagements with `compare`). */
  get progress(): RunProgress {
    return comparedProgress(this.engagement, this.standard);
  }

  result(): SimulationResult {
    const att = this.att;
    const r = resolveOptions(att, this.def, this.opts);
    this.volley ??= simulateVolley(att, this.def, this.opts);
    this.shots ??= shotsToKill(att, this.def, this.opts);
    let engagement = this.engagement.result();
    if (this.standard?.done) engagement = engagementWithComparison(this.standard.result(), engagement, [att.name, this.def.name]);
    const assumptions = [...ASSUMPTIONS];
    if (r.volleyRange === undefined)
      assumptions.unshift(`No range given: every weapon fires in the volley; the engagement is fought at ${ENGAGEMENT_DEFAULTS.range}".`);
    assumptions.push(
      'Shots to kill: the volley above (without Aim or Brace) is fired again and again; the defender takes no action between them, so its shields never come back. Computed exactly until less than 1e-9 of the chance is left, or 1,000 Fire actions.',
    );
    if (this.variants.length)
      assumptions.push(
        'Variants: the engagement is played as a fleet battle of two one-unit fleets at the fixed range, by seeded sampling (the exact chain knows only the standard rules); the single volley above is one Fire action under the standard rules.',
      );
    if (engagement.cutShort)
      assumptions.push(
        // Cut to the trials the standard rules' run played before its own limit (so that both play the same duels), or by its own.
        this.engagement.battle.outcome().matched.trials
          ? `Cut short: ${engagement.trials} of ${engagement.requestedTrials} trials, as many as the standard rules' engagement beside it played before its work limit, so that both play the same duels; its figures and standard errors are from those trials.`
          : `Cut short: the engagement reached its work limit after ${engagement.trials} of ${engagement.requestedTrials} trials; its figures and standard errors are from those trials.`,
      );
    return {
      attacker: att.name,
      defender: this.def.name,
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
      volley: this.volley,
      shotsToKill: this.shots,
      engagement,
      assumptions,
      reach: { attacker: longestReach(att), defender: longestReach(this.def) },
    };
  }
}

/**
 * The volley and the engagement of `att` against `def`, with the options as resolved and the
 * assumptions. With variants the engagement plays them; with `compare` too, the standard rules'
 * engagement from the same seed is carried beside it (`engagement.compare`).
 */
export function simulate(
  attacker: UnitProfile,
  defender: UnitProfile,
  opts: EngagementOptions = {},
  tuning: { variants?: readonly VariantChoice[]; compare?: boolean } = {},
): SimulationResult {
  const run = new SimulationRun(attacker, defender, opts, tuning);
  run.step();
  return run.result();
}

/** The variant engagement with the standard one beside it (the view's host uses this too). */
export function engagementWithComparison(standard: EngagementResult, variant: EngagementResult, names: [string, string]): EngagementResult {
  return {
    ...variant,
    compare: { standard, difference: engagementDifference(standard, variant), summary: engagementSummary(standard, variant, names) },
  };
}

function longestReach(p: UnitProfile): number {
  return Math.max(0, ...p.weapons.map((w) => weaponReach(p, w)));
}
