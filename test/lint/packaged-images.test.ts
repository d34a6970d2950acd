/**
 * The VSIX must stay under 2 MB (docs/performance.md). Its bundles are most of it; the rest is the
 * screenshots the walkthrough and the player's page show, which a screenshot taken again would
 * bring back at three times the size: every PNG the package takes (.vscodeignore's allow-list)
 * is stored with a palette (PNG colour type 3, as `pngquant` writes it), and together they stay
 * within a budget.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
/** What the PNGs the VSIX takes may add up to (today about 290 KB). */
const BUDGET = 400_000;

/** The PNG files .vscodeignore lets into the package (its lines `!path.png`). */
export function packagedPngs(ignore: string): string[] {
  return ignore
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('!') && l.endsWith('.png'))
    .map((l) => l.slice(1));
}

/** The colour type of a PNG file (byte 25: the IHDR chunk's), or undefined when it is not a PNG. */
export function pngColourType(bytes: Uint8Array): number | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 26 || signature.some((b, i) => bytes[i] !== b)) return undefined;
  return bytes[25];
}

describe('the images the VSIX takes', () => {
  const files = packagedPngs(readFileSync(join(ROOT, '.vscodeignore'), 'utf8'));

  it('reads the allow-list: the walkthrough screenshots and the icon', () => {
    assert.deepEqual(packagedPngs('**\n!a.png\n# !b.png\n!dist/x.js\n  !c/d.png  \r\n'), ['a.png', 'c/d.png']);
    assert.ok(files.includes('docs/images/battle.png'), files.join(', '));
    assert.ok(files.length >= 5, files.join(', '));
  });

  it('tells a palette PNG from a true-colour one', () => {
    const png = (type: number) => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(17).fill(0), type]);
    assert.equal(pngColourType(png(3)), 3);
    assert.equal(pngColourType(png(6)), 6);
    assert.equal(pngColourType(Uint8Array.from([1, 2, 3])), undefined);
  });

  it('each is a palette PNG (run `pngquant` on a new screenshot)', () => {
    const wrong = files.filter((f) => pngColourType(readFileSync(join(ROOT, f))) !== 3);
    assert.deepEqual(wrong, [], `not palette PNGs: ${wrong.join(', ')}`);
  });

  it(`together they stay within ${BUDGET.toLocaleString('en')} bytes`, () => {
    const total = files.reduce((sum, f) => sum + statSync(join(ROOT, f)).size, 0);
    assert.ok(total <= BUDGET, `${total} bytes`);
  });
});
