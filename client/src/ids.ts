/**
 * Random identifiers the client makes, the same on the desktop and in the browser (Web Crypto is in
 * both), kept apart from ./platform.ts so that a module needing one does not load the language
 * client with it.
 */

/** Random bytes as base64. */
function randomBase64(n: number): string {
  const bytes = new Uint8Array(n);
  globalThis.crypto.getRandomValues(bytes);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** A nonce for a view's content security policy. */
export function nonce(): string {
  return randomBase64(16);
}

/** Tells this window's progress tokens from another's (another window's server hears only its own, but a log mixes them). */
export const TOKEN_TAG = randomBase64(6).replace(/[^A-Za-z0-9]/g, '');
