/**
 * The example factions' cards that ship inside the bundle (examples.json, generated from examples/
 * by scripts/build-examples.ts): opponents to simulate against in a workspace that holds only the
 * user's own cards. They live in a workspace of their own, under `fabled-example:` URIs, so they
 * never count in the user's fleets, validation or navigation; a card of the user's with the same
 * name and faction hides its example twin.
 */
import { Workspace, type CardRef } from '../workspace';
import type { FleetDocument } from '../model/types';
import examplesJson from './examples.json';
import { getMemo, memo, setMemo } from '../model/memo';

export const EXAMPLE_SCHEME = 'fabled-example';

export function exampleUri(path: string): string {
  return `${EXAMPLE_SCHEME}:/${path}`;
}

export function isExampleUri(uri: string): boolean {
  return uri.startsWith(`${EXAMPLE_SCHEME}:`);
}

/** The example cards' workspace, kept with the bundled files it is parsed from (a constant parsed on first use). */
const EXAMPLES = memo<Workspace>('example workspace');

/** The bundled example files (paths relative to examples/, and their text). */
export function exampleFiles(): readonly { path: string; text: string }[] {
  return examplesJson.files;
}

/** The example cards' own workspace, parsed once on first use. */
export function exampleWorkspace(): Workspace {
  let examples = getMemo(examplesJson, EXAMPLES);
  if (!examples) {
    examples = new Workspace();
    for (const f of exampleFiles()) examples.set(exampleUri(f.path), f.text);
    setMemo(examplesJson, EXAMPLES, examples);
  }
  return examples;
}

/** The text of an example file, for turning its offsets into positions. */
export function exampleText(uri: string): string | undefined {
  return exampleWorkspace().get(uri)?.text;
}

/**
 * Example cards, sorted by faction then name, without those that a card of `own` hides (same name
 * and faction: the user has the examples in the workspace already, or edited a copy).
 */
export function exampleCards(own?: Workspace): CardRef[] {
  return exampleWorkspace()
    .allCards()
    .filter((r) => r.name && !own?.findCards(r.name, r.faction).length)
    .sort((a, b) => a.faction.localeCompare(b.faction) || a.name.localeCompare(b.name));
}

/** An example card by name (its faction first when given). */
export function findExampleCard(name: string, faction?: string): CardRef | undefined {
  const ws = exampleWorkspace();
  const own = faction !== undefined ? ws.findCards(name, faction) : [];
  return own[0] ?? ws.findCards(name)[0];
}

/** The bundled example fleet lists (examples/fleets/), by name: opponents for a fleet battle in any workspace. */
export function exampleFleets(): FleetDocument[] {
  return exampleWorkspace()
    .fleets()
    .filter((d) => d.name.value)
    .sort((a, b) => (a.points.value ?? 0) - (b.points.value ?? 0) || (a.name.value ?? '').localeCompare(b.name.value ?? ''));
}

/** `ws` with the example cards to fall back on for a faction it has no card of (see `Workspace.fallback`). */
export function exampleFallback(ws: Workspace): Workspace {
  ws.fallback = exampleWorkspace;
  return ws;
}
