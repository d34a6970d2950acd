/**
 * The settings the client itself reads, read and defaulted in this one place, per resource (the
 * server reads its own share, `Settings` in server/src/protocol.ts, through workspace/configuration).
 */
import * as vscode from 'vscode';
import type { EngagementOptions } from '../../server/src/core/sim/types';
import { ENGAGEMENT_DEFAULTS, RANGE_BANDS } from '../../server/src/core/rules/data';

export const SECTION = 'fabledStar';

function wholeNumber(v: unknown, fallback: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback;
}

/** Options for `fabledStar/simulate` from `fabledStar.simulation.*`, defaults from the rules pack. */
export function simulationOptions(resource?: vscode.Uri): EngagementOptions {
  const c = vscode.workspace.getConfiguration(`${SECTION}.simulation`, resource);
  return {
    trials: wholeNumber(c.get('trials'), ENGAGEMENT_DEFAULTS.trials, 100, 1_000_000),
    seed: wholeNumber(c.get('seed'), ENGAGEMENT_DEFAULTS.seed, 0, 2 ** 31 - 1),
    range: wholeNumber(c.get('range'), ENGAGEMENT_DEFAULTS.range, 0, Math.max(...RANGE_BANDS)),
    rounds: wholeNumber(c.get('rounds'), ENGAGEMENT_DEFAULTS.rounds, 1, 50),
  };
}
