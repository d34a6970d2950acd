/**
 * The open fleets' diagnostics before a big workspace is indexed (issue 14). The first scan reads
 * every file, then parses them all in slices; a fleet names a few cards among thousands, so the
 * files that can define them (../core/features/nameFilter, a superset found without parsing) are
 * parsed first into a scratch workspace, with the open documents, and the fleet is checked there.
 *
 * Published only when that is exactly what the whole workspace will say: every name resolved (a
 * fleet's checks then read only the cards of those names, all of which the scratch workspace holds,
 * in the same order) and the fleet's faction has cards. Otherwise nothing is sent early, and the
 * fleet's diagnostics come after the scan as before. Push clients only; the re-validation after
 * the scan publishes the open fleets again, first.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Workspace } from '../core/workspace';
import { checkDocument } from '../core/check/index';
import { cardNameFilter } from '../core/features/nameFilter';
import { LANGUAGE_IDS, kindOfUri } from '../core/model/parse';
import type { Problem } from '../core/model/types';
import { toDiagnostics } from './convert';
import type { ServerState } from './state';

/** At most this many open fleets are checked early (more: they wait for the scan). */
const EARLY_FLEETS = 16;

/** Problems that read more of the workspace than the cards a fleet names: never published early. */
const WHOLE_WORKSPACE: ReadonlySet<string> = new Set(['FS-UNIT-UNKNOWN', 'FS-FACTION-UNKNOWN']);

/**
 * `read`: the files the scan read, in the order they will be indexed. Returns the fleets published.
 * Call only when the workspace holds nothing but open documents (the first scan): the scratch
 * workspace must hold every card of the names, and it holds only these files and the open ones.
 */
export function publishOpenFleets(state: ServerState, read: readonly { uri: string; text: string }[]): string[] {
  if (state.client.pull || !state.initialised) return [];
  state.ensureAllOpen();
  const open = state.documents.all().filter((td) => state.kindOf(td.uri));
  const fleets = open.filter((td) => state.ws.get(td.uri)?.kind === 'fleet').slice(0, EARLY_FLEETS);
  if (!fleets.length) return [];
  const names: string[] = [];
  for (const td of fleets) {
    const doc = state.ws.get(td.uri);
    if (doc?.kind !== 'fleet') continue;
    for (const e of doc.units?.items ?? []) {
      if (e.unit.value) names.push(e.unit.value);
      for (const x of e.embark?.items ?? []) if (x.value) names.push(x.value);
    }
  }
  const may = cardNameFilter(names);
  if (!may) return [];
  // The open card documents first (they were indexed first), then the files in the scan's order.
  const scratch = new Workspace();
  const texts = new Map<string, string>();
  try {
    for (const uri of state.ws.uris()) {
      const doc = state.ws.get(uri);
      if (doc && doc.kind !== 'fleet') scratch.set(uri, doc.text, doc.kind);
    }
    for (const { uri, text } of read) {
      if (state.documents.get(uri) || !may(text)) continue;
      texts.set(uri, text);
      scratch.set(uri, text);
    }
  } catch (e) {
    state.logError('Checking the open fleets early failed', e);
    return [];
  }
  const textOf = (uri: string) => {
    const known = state.textDoc(uri);
    if (known) return known;
    const text = texts.get(uri);
    const kind = kindOfUri(uri);
    return text !== undefined && kind ? TextDocument.create(uri, LANGUAGE_IDS[kind], 0, text) : undefined;
  };
  const sent: string[] = [];
  for (const td of fleets) {
    const doc = state.ws.get(td.uri);
    if (doc?.kind !== 'fleet') continue;
    let problems: Problem[];
    try {
      const fleet = scratch.set(td.uri, doc.text, 'fleet');
      if (!fleet) continue;
      problems = checkDocument(fleet, scratch);
    } catch (e) {
      state.logError(`Checking ${td.uri} early failed`, e);
      continue;
    }
    const faction = doc.faction.value;
    if (problems.some((p) => WHOLE_WORKSPACE.has(p.code)) || (faction !== undefined && !scratch.hasCards(faction))) continue;
    const related = state.client.relatedInfo ? textOf : undefined;
    void state.connection.sendDiagnostics({ uri: td.uri, version: td.version, diagnostics: toDiagnostics(problems, td, related) });
    sent.push(td.uri);
  }
  return sent;
}
