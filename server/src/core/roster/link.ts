/**
 * The roster as a link: `fabledstar:` and the one line (render.ts `rosterShort`, with its digest)
 * percent-encoded, which Copy Roster as Link gives, and which `import`, `verify` and Paste Roster
 * as Fleet read back as the one line. The QR codes carry the one line itself.
 */
export const LINK_SCHEME = 'fabledstar:';

/** `fabledstar:Veil%20Patrol%20(Myr-Valari)%3A%20…`. */
export function rosterLink(short: string): string {
  return LINK_SCHEME + encodeURIComponent(short);
}

/** The one line a `fabledstar:` link carries; any other text as it is (so is a link that does not decode). */
export function linkText(text: string): string {
  const t = text.trim();
  if (!t.toLowerCase().startsWith(LINK_SCHEME) || /\s/.test(t)) return text;
  try {
    return decodeURIComponent(t.slice(LINK_SCHEME.length));
  } catch {
    return text;
  }
}
