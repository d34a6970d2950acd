/**
 * One spelling for every URI. Clients spell the same file differently: VS Code and the server's own
 * listing encode parentheses (`my%20cards%20%28copy%29.unit.yaml`), Neovim and Helix send them as
 * they are (`my%20cards%20(copy).unit.yaml`), Emacs may encode what others leave alone. Keyed by the
 * spelling it came in, one file would be two documents (an open buffer and its copy on disk), each
 * reporting the other as a duplicate card. Every `uri` that comes in is parsed and printed again by
 * vscode-uri (the library VS Code uses), which prints one spelling for all of them.
 */
import { URI } from 'vscode-uri';

/** Keys whose string values are URIs in the parameters clients send. */
const URI_KEYS = new Set(['uri', 'rootUri', 'scopeUri', 'targetUri']);

/** The one spelling of a URI; the text as it is when it is not a URI. */
export function canonicalUri(uri: string): string {
  if (!/^[a-zA-Z][\w+.-]*:/.test(uri)) return uri;
  try {
    return URI.parse(uri).toString();
  } catch {
    return uri;
  }
}

/** `params` with every URI in it (under the keys above, at any depth up to 8) in its one spelling. Changes `params` in place. */
export function normaliseUris<T>(params: T, depth = 0): T {
  if (depth > 8 || params === null || typeof params !== 'object') return params;
  if (Array.isArray(params)) {
    for (const item of params) normaliseUris(item, depth + 1);
    return params;
  }
  const o = params as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (typeof v === 'string') {
      if (URI_KEYS.has(k)) o[k] = canonicalUri(v);
    } else if (v && typeof v === 'object' && k !== 'contentChanges') normaliseUris(v, depth + 1);
  }
  return params;
}
