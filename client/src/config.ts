/**
 * The settings the client itself reads, read and defaulted in this one place, per resource (the
 * server reads its own share, `Settings` in protocol/, through workspace/configuration).
 */
import * as vscode from 'vscode';
import { clampWhole, ENGAGEMENT_DEFAULTS, RANGE_BANDS, optionBounds, type EngagementOptions } from '../../protocol/simulation';

export const SECTION = 'fabledStar';

/** A setting's whole number held within bounds (the simulator's one clamp), or the fallback when it is not a number. */
function wholeNumber(v: unknown, fallback: number, min: number, max: number): number {
  return clampWhole(v, min, max, fallback);
}

/** Options for `fabledStar/simulate` from `fabledStar.simulation.*`, defaults from the rules pack. */
export function simulationOptions(resource?: vscode.Uri): EngagementOptions {
  const c = vscode.workspace.getConfiguration(`${SECTION}.simulation`, resource);
  // The option table's bounds (the view's controls and the server's check use the same), so a value
  // from settings is one they accept.
  const [trials, seed, rounds] = [optionBounds('trials'), optionBounds('seed'), optionBounds('rounds')];
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
