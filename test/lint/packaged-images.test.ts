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
import { PNG } from 'pngjs';

const ROOT = resolve(__dirname, '../..');
/** What the PNGs the VSIX takes may add up to (today 283 KB). */
const BUDGET = 400_000;

/** The PNG files .vscodeignore lets into the package (its lines `!path.png`). */
export function packagedPngs(ignore: string): string[] {
  return ignore
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('!') && l.endsWith('.png'))
    .map((l) => l.slice(1));
}

/** The colour type of a PNG file (3: a palette), as pngjs reads it from the file's header. */
function colourType(bytes: Buffer): number {
  return PNG.sync.read(bytes).colorType;
}

describe('the images the VSIX takes', () => {
  const files = packagedPngs(readFileSync(join(ROOT, '.vscodeignore'), 'utf8'));

  it('reads the allow-list: the walkthrough screenshots and the icon', () => {
    assert.deepEqual(packagedPngs('**\n!a.png\n# !b.png\n!dist/x.js\n  !c/d.png  \r\n'), ['a.png', 'c/d.png']);
    assert.ok(files.includes('docs/images/battle.png'), files.join(', '));
    assert.ok(files.length >= 5, files.join(', '));
  });

  it('tells a palette PNG from a true-colour one, as a screenshot comes', () => {
    assert.equal(colourType(PNG.sync.write(new PNG({ width: 2, height: 2 }))), 6);
    assert.equal(colourType(readFileSync(join(ROOT, 'docs/images/battle.png'))), 3);
  });

  it('each is a palette PNG (run `pngquant` on a new screenshot)', () => {
    const wrong = files.filter((f) => colourType(readFileSync(join(ROOT, f))) !== 3);
    assert.deepEqual(wrong, [], `not palette PNGs: ${wrong.join(', ')}`);
  });

  it(`together they stay within ${BUDGET.toLocaleString('en')} bytes`, () => {
    const total = files.reduce((sum, f) => sum + statSync(join(ROOT, f)).size, 0);
    assert.ok(total <= BUDGET, `${total} bytes`);
  });
});
