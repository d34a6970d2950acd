/**
 * The settings the client itself reads, read and defaulted in this one place, per resource (the
 * server reads its own share, `Settings` in protocol/, through workspace/configuration).
 */
import * as vscode from 'vscode';
import type { EngagementOptions } from '../../server/src/core/sim/types';
import { ENGAGEMENT_DEFAULTS, RANGE_BANDS } from '../../server/src/core/rules/data';
import { RERUN_LIMITS } from '../webview/messages';

export const SECTION = 'fabledStar';

function wholeNumber(v: unknown, fallback: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback;
}

/** Options for `fabledStar/simulate` from `fabledStar.simulation.*`, defaults from the rules pack. */
export function simulationOptions(resource?: vscode.Uri): EngagementOptions {
  const c = vscode.workspace.getConfiguration(`${SECTION}.simulation`, resource);
  // The same bounds as the view's rerun controls, so a value from settings is one the view accepts.
  const { trials, seed, rounds } = RERUN_LIMITS;
  const options: EngagementOptions = {
    trials: wholeNumber(c.get('trials'), ENGAGEMENT_DEFAULTS.trials, trials.min, trials.max),
    seed: wholeNumber(c.get('seed'), ENGAGEMENT_DEFAULTS.seed, seed.min, seed.max),
    rounds: wholeNumber(c.get('rounds'), ENGAGEMENT_DEFAULTS.rounds, rounds.min, rounds.max),
  };
  // No range (null, the default) means what the CLI means without --range: every weapon fires in
  // the volley and the engagement starts at the rules' default distance.
  const range = c.get<unknown>('range');
  if (typeof range === 'number') options.range = wholeNumber(range, 0, 0, Math.max(...RANGE_BANDS));
  return options;
}
