/**
 * In place of ../lsp/liveOdds.ts in the browser version (esbuild.mjs `webSwaps`): the live odds
 * lens plays its battles in a background process at the lowest priority, which a browser has not.
 * With `fabledStar.liveOdds.opponent` set, the lens says so and where the figure is to be had.
 */
import type { Settings } from '../core/api';
import { FabledService, type FleetDocument, type Lens } from '../core/service';
import type { SimulationQueue } from '../lsp/pool';
import type { ServerState } from '../lsp/state';

export const STALL_NOTES = { waiting: 'waiting for a free core', restarted: 'restarted: the simulation had stalled' } as const;

/** What the lens says in the browser. */
export const LIVE_ODDS_IN_BROWSER = 'live odds: not in the browser version (run Simulate Fleet Battle)';

export class LiveOdds {
  constructor(_state: ServerState, _queue: () => SimulationQueue, _refresh: () => void, _checks: FabledService['checks']) {}

  lens(doc: FleetDocument, settings: Settings): Lens | undefined {
    return settings.liveOdds.opponent ? FabledService.liveOddsLens(doc, undefined, LIVE_ODDS_IN_BROWSER) : undefined;
  }

  stop(_uri: string): void {}
}
