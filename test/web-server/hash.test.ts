/** The core's SHA-256 (plain JavaScript, for the browser) gives node:crypto's digests: exports and cache keys stay as they were. */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { sha256Base64, sha256Hex } from '../../server/src/core/model/hash';

describe('core SHA-256 without node:crypto', () => {
  it("matches node:crypto's hex and base64 digests, past ASCII too", () => {
    for (const text of ['', 'fs1', 'Maw Escort Pack \u00a7 12 \u2014 \ud83d\ude80', 'x'.repeat(100_000)]) {
      assert.equal(sha256Hex(text), createHash('sha256').update(text, 'utf8').digest('hex'));
      assert.equal(sha256Base64(text), createHash('sha256').update(text, 'utf8').digest('base64'));
    }
  });
});
