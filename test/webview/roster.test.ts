/**
 * The printable HTML roster in headless Chromium, opened from disk as a user opens the exported
 * file: nothing from a file runs or loads, the verdict is on the first printed page, and it prints
 * (screenshots and PDFs in test-output/roster/, for the README and a look by eye).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../chromium';
import { Workspace } from '../../server/src/core/workspace';
import type { FleetDocument } from '../../server/src/core/model/types';
import { buildRoster } from '../../server/src/core/roster/model';
import { clean, rosterHtml } from '../../server/src/core/roster/render';
import { HOSTILE, hostileWorkspace } from '../core/roster-fixtures';

const ROOT = resolve(__dirname, '..', '..');
const OUT = join(ROOT, 'test-output', 'roster');

function exampleRoster(fleet: string): string {
  const ws = new Workspace();
  for (const f of [
    'examples/myr-valari/myr-valari.unit.yaml',
    'examples/myr-valari/myr-valari.faction.yaml',
    'examples/consumed/consumed.faction.yaml',
    'examples/consumed/maw-capitals.unit.yaml',
    'examples/consumed/maw-squadrons.unit.yaml',
    fleet,
  ])
    ws.set(pathToFileURL(join(ROOT, f)).href, readFileSync(join(ROOT, f), 'utf8'));
  const doc = ws.get(pathToFileURL(join(ROOT, fleet)).href) as FleetDocument;
  return rosterHtml(buildRoster(doc, ws));
}

/** Pages in a PDF Chromium wrote (each page object is one "/Type /Page" not followed by "s"). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
}

describe('printable roster (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  async function open(name: string, html: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const file = join(OUT, `${name}.html`);
    writeFileSync(file, html);
    const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(file).href);
    return { page, errors, requests };
  }

  it('a legal fleet: screenshot and a printed PDF of a few pages', async () => {
    const { page, errors } = await open('battle-2000', exampleRoster('examples/fleets/battle-2000.fleet.yaml'));
    assert.equal(await page.locator('.verdict').count(), 0);
    assert.match((await page.locator('.legal').textContent()) ?? '', /^Legal as written\.$/);
    assert.equal(await page.locator('.units tfoot').textContent(), 'Total · exactly on the limit2000 / 2000 pts');
    await page.screenshot({ path: join(OUT, 'battle-2000.png'), fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    writeFileSync(join(OUT, 'battle-2000.pdf'), pdf);
    const pages = pdfPages(pdf);
    assert.ok(pages >= 1 && pages <= 6, `${pages} pages`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a fleet with errors says so on the first printed page, above the units', async () => {
    const { page, errors } = await open('over-budget', exampleRoster('examples/showcase/over-budget.fleet.yaml'));
    await page.emulateMedia({ media: 'print' });
    const verdict = page.locator('.verdict');
    assert.match((await verdict.textContent()) ?? '', /Not legal as written: 5 errors, 1 warning/);
    const box = await verdict.boundingBox();
    const units = await page.locator('h2', { hasText: 'Units' }).boundingBox();
    // A4 printable height at 96 dpi with 12 mm margins: (297 − 24) mm ≈ 1032 px.
    assert.ok(box && units && box.y + box.height < 1032 && box.y < units.y, JSON.stringify({ box, units }));
    await page.screenshot({ path: join(OUT, 'over-budget-print.png'), fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    writeFileSync(join(OUT, 'over-budget.pdf'), pdf);
    assert.ok(pdfPages(pdf) >= 1);
    await page.emulateMedia({ media: 'screen' });
    await page.screenshot({ path: join(OUT, 'over-budget.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('hostile names: nothing runs, nothing loads, every name shows as its text', async () => {
    const { ws, fleet } = hostileWorkspace();
    const { page, errors, requests } = await open('hostile', rosterHtml(buildRoster(fleet, ws)));
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
    // The one svg is the roster's own QR code (render.ts), never markup from a name.
    assert.equal(await page.evaluate(() => document.querySelectorAll('script, img, svg:not(.qr), iframe, marquee, a, u, i, b').length), 0);
    assert.equal(await page.evaluate(() => document.querySelectorAll('svg.qr').length), 1);
    assert.equal(await page.locator('h1').textContent(), clean(HOSTILE.fleet));
    const names = await page.locator('.units tr.entry strong').allTextContents();
    assert.equal(names[0], clean(HOSTILE.script));
    assert.equal(names[1], clean(HOSTILE.quotes));
    assert.equal(names[2], clean(HOSTILE.pipe));
    assert.equal(names[6], clean(HOSTILE.newline));
    assert.ok(names[7]!.includes('\uFFFD') && !/[\u0000-\u001f\u202e]/.test(names[7]!));
    assert.equal(await page.locator('tr.embarked td').nth(1).textContent(), `↳ ${clean(HOSTILE.img)}`);
    await page.screenshot({ path: join(OUT, 'hostile.png'), fullPage: true });
    await page.close();
  });
});
