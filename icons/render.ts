/**
 * Renders icons/fabled-star.svg to icons/fabled-star.png (128x128, transparent corners), the extension icon the
 * Marketplace and the Extensions view show; they take only PNG. Uses the same Chromium as the
 * webview tests (Debian's `chromium`), so no image tool is needed:
 *
 *   node --import=tsx icons/render.ts
 *
 * Also writes a preview of every icon at its real size on a light and a dark background to
 * test-output/icons/preview.png, to look at before committing.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, ROOT } from '../test/webview/harness';

const SIZE = 128;

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    const svg = readFileSync(join(__dirname, 'fabled-star.svg'), 'utf8');
    await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: join(__dirname, 'fabled-star.png'), omitBackground: true });

    const out = join(ROOT, 'test-output', 'icons');
    mkdirSync(out, { recursive: true });
    const files = ['fabled-unit.svg', 'fabled-faction.svg', 'fabled-fleet.svg'];
    const tiles = (bg: string, fg: string) =>
      `<div style="background:${bg};color:${fg};padding:12px;display:flex;gap:18px;align-items:center;font:13px sans-serif">` +
      files
        .map(
          (f) =>
            `<span style="display:flex;gap:6px;align-items:center"><img src="data:image/svg+xml;base64,${readFileSync(join(__dirname, f)).toString('base64')}" width="16" height="16">${f.replace('.svg', '')}</span>`,
        )
        .join('') +
      `<img src="data:image/png;base64,${readFileSync(join(__dirname, 'fabled-star.png')).toString('base64')}" width="128" height="128"></div>`;
    const preview = await browser.newPage({ viewport: { width: 640, height: 340 }, deviceScaleFactor: 2 });
    await preview.setContent(`<!DOCTYPE html><html><body style="margin:0">${tiles('#ffffff', '#3b3b3b')}${tiles('#1f1f1f', '#cccccc')}</body></html>`);
    await preview.screenshot({ path: join(out, 'preview.png'), fullPage: true });
    console.log(`wrote ${join(__dirname, 'fabled-star.png')} and ${join(out, 'preview.png')}`);
  } finally {
    await browser.close();
  }
}

void main();
