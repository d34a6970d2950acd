/**
 * The settings the client itself reads, read and defaulted in this one place, per resource (the
 * server reads its own share, `Settings` in server/src/protocol.ts, through workspace/configuration).
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
  return {
    trials: wholeNumber(c.get('trials'), ENGAGEMENT_DEFAULTS.trials, trials.min, trials.max),
    seed: wholeNumber(c.get('seed'), ENGAGEMENT_DEFAULTS.seed, seed.min, seed.max),
    range: wholeNumber(c.get('range'), ENGAGEMENT_DEFAULTS.range, 0, Math.max(...RANGE_BANDS)),
    rounds: wholeNumber(c.get('rounds'), ENGAGEMENT_DEFAULTS.rounds, rounds.min, rounds.max),
  };
}
