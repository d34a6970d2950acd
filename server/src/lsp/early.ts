/**
 * The open fleets first while a big workspace is read. A scan reads every file
 * (cheap), then parses them; a fleet names a few cards among thousands, so the files that can
 * define them (../core/features/nameFilter, a superset found without parsing) are indexed first,
 * wherever they are in the workspace, and the fleets are checked as soon as they are in.
 *
 * The workspace keeps the order the files would have had read one after the other (the scan
 * reserves their places, see `Workspace.reserveOrder`), so which of two same-named cards comes
 * first does not depend on this.
 *
 * Published early (push clients) only when that is exactly what the whole workspace will say: every
 * name resolved (a fleet's checks then read only the cards of those names, all of which are in) and
 * the fleet's faction has cards. Otherwise nothing is sent early, and the fleet's diagnostics come
 * after the scan as before. A pulling client is asked to pull again instead. The re-validation after
 * the scan publishes the open fleets again, first.
 */
import { FabledService, type Problem } from '../core/service';
import type { Diagnostics } from './diagnostics';
import type { ServerState } from './state';

/** At most this many open fleets are checked early (more: they wait for the scan). */
const EARLY_FLEETS = 16;

/** Problems that read more of the workspace than the cards a fleet names: never published early. */
const WHOLE_WORKSPACE: ReadonlySet<string> = new Set(['FS-UNIT-UNKNOWN', 'FS-FACTION-UNKNOWN']);

/** The open fleets (the first EARLY_FLEETS), brought up to date. */
function openFleets(state: ServerState): string[] {
  state.ensureAllOpen();
  return state.documents
    .all()
    .filter((td) => state.kindOf(td.uri) && state.ws.get(td.uri)?.kind === 'fleet')
    .slice(0, EARLY_FLEETS)
    .map((td) => td.uri);
}

/** Which fleets are open (a scan brings a fleet's files forward when one opens while it indexes). */
export function openFleetKey(state: ServerState): string {
  let key = '';
  for (const td of state.documents.all()) if (state.kindOf(td.uri) === 'fleet') key += td.uri + '\n';
  return key;
}

/**
 * A test true for every file text that may define a card the open fleets name (entries and
 * embarked units); undefined when there is no open fleet or no cheap test (then nothing goes first).
 */
export function openFleetFilter(state: ServerState): ((text: string) => boolean) | undefined {
  const names: string[] = [];
  for (const uri of openFleets(state)) {
    const doc = state.ws.get(uri);
    if (doc?.kind !== 'fleet') continue;
    for (const e of doc.units?.items ?? []) {
      if (e.unit.value) names.push(e.unit.value);
      for (const x of e.embark?.items ?? []) if (x.value) names.push(x.value);
    }
  }
  return names.length ? FabledService.cardNameFilter(names) : undefined;
}

/**
 * Publishes the open fleets whose diagnostics are already what the whole workspace will say. Call
 * only once every file that `openFleetFilter` takes is indexed, and no other read is under way.
 * Returns the fleets published.
 */
export function publishOpenFleets(state: ServerState, diagnostics: Diagnostics): string[] {
  if (state.client.pull || !state.initialised) return [];
  const sent: string[] = [];
  for (const uri of openFleets(state)) {
    const doc = state.ws.get(uri);
    if (doc?.kind !== 'fleet') continue;
    let problems: Problem[] | undefined;
    try {
      problems = diagnostics.problemsOf(uri)?.problems;
    } catch (e) {
      state.logError(`Checking ${uri} early failed`, e);
      continue;
    }
    if (!problems) continue;
    const faction = doc.faction.value;
    if (problems.some((p) => WHOLE_WORKSPACE.has(p.code)) || (faction !== undefined && !state.ws.hasCards(faction))) continue;
    diagnostics.publish(uri);
    sent.push(uri);
  }
  return sent;
}
