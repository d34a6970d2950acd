/**
 * The editor's requests of a service instance, bound to its workspace: hover, completion, code
 * actions, symbols, navigation, inlay hints, code lenses, the workspace's cards, the rules text,
 * the bundled examples, rosters and their edits, imports and the printable card sheet. Each is
 * short: it finds what the request is about and calls the pure feature.
 */
import type { ServiceParts } from './parts';

export interface EditorRequests {}

export function editorRequests(_parts: ServiceParts): EditorRequests {
  return {};
}
