/**
 * SHA-256 of a text (UTF-8), as hex or base64: the digests the exports carry and the fit's cache
 * keys. From @noble/hashes (plain JavaScript, synchronous) rather than node:crypto, so that the
 * core runs unchanged in a browser (the browser version's web worker); the same bytes, the same
 * digests as node:crypto's.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function sha256Base64(text: string): string {
  let binary = '';
  for (const b of sha256(utf8ToBytes(text))) binary += String.fromCharCode(b);
  return btoa(binary);
}
