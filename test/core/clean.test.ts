/**
 * `clean` (every roster renderer and the digest read names through it) takes a short way for a
 * name that needs nothing but a trim: it must give what its definition, every replacement made,
 * gives, for any text.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { clean, slowClean } from '../../server/src/core/roster/clean';

/** Characters the replacements touch, the whitespace `trim` removes, and plain ones, mixed. */
const tricky = fc.constantFrom(
  ...['\r\n', '\r', '\n', '\t', '\v', '\f', '\u2028', '\u2029', '\u0085', '\u0000', '\u001b', '\u007f', '\u009f', '\u202a', '\u202e', '\u2066', '\u2069'],
  ...[' ', '  ', '\u00a0', '\ufeff', '\u3000', '\u2003', 'a', 'Z', 'é', '–', '"', '0'],
);
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.array(tricky, { maxLength: 12 }).map((a) => a.join('')),
);

describe('clean', () => {
  it('gives what every replacement of its definition gives, for any text', () => {
    fc.assert(
      fc.property(text, (s) => assert.equal(clean(s), slowClean(s), JSON.stringify(s))),
      { numRuns: 5000 },
    );
  });

  it('keeps a plain name as it is, trimmed, and mends the ones that need it', () => {
    assert.equal(clean('  Lumen Cruiser '), 'Lumen Cruiser');
    assert.equal(clean('Lumen\u202eCruiser'), 'Lumen\uFFFDCruiser');
    assert.equal(clean('Lumen\r\n  Cruiser'), 'Lumen Cruiser');
  });
});
