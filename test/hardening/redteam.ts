/**
 * Hostile inputs from the red-team review that need more than one file, a file system or
 * a protocol exchange, so they do not fit the one-file corpus (./corpus.ts). Deterministic
 * generators, shared by redteam.test.ts and the measuring script (./redteam-measure.ts).
 */

import { mulberry32 } from '../../scripts/seeded';

/** A name of `length` letters and spaces, different for every seed. */
export function longName(length: number, seed: number): string {
  const r = mulberry32(seed);
  let s = '';
  while (s.length < length) s += r() < 0.15 ? ' ' : String.fromCharCode(97 + Math.floor(r() * 26));
  return 'N' + s.slice(1).replace(/ +$/, 'x');
}

/**
 * Card files holding `cards` cards whose names are `nameLength` characters long, `perFile` to a
 * file (so that no file passes the size limit): the pool every "did you mean" is looked up in.
 */
export function longNameCardFiles(
  cards = 2000,
  nameLength = 900,
  perFile = 500,
  faction = 'Hostile',
  name: (i: number) => string = (i) => longName(nameLength, i + 1),
): string[] {
  const files: string[] = [];
  for (let f = 0; f * perFile < cards; f++) {
    const out = [`faction: ${faction}`, 'units:'];
    for (let i = f * perFile; i < Math.min(cards, (f + 1) * perFile); i++) out.push(`  - name: ${name(i)}`, '    class: Fighter', '    points: 60');
    files.push(out.join('\n') + '\n');
  }
  return files;
}

/** A fleet of `entries` entries, each naming no card, with names `nameLength` characters long. */
export function unknownEntriesFleet(
  entries = 500,
  nameLength = 900,
  faction = 'Hostile',
  name: (i: number) => string = (i) => longName(nameLength, 100_000 + i),
): string {
  const out = ['name: Red Team', `faction: ${faction}`, 'points: 2000', 'units:'];
  for (let i = 0; i < entries; i++) out.push(`  - unit: ${name(i)}`);
  return out.join('\n') + '\n';
}

/** Names that all look alike (one long shared start, a different end): every cheap filter lets them through. */
export function alikeName(length: number, i: number): string {
  const tail = `-${i.toString(36)}`;
  return 'A'.repeat(length - tail.length) + tail;
}
