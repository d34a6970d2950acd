/**
 * Print Unit Cards in real VS Code (code-server) with the packaged extension, from a folder with
 * nothing but one fleet list of a bundled example faction: the command opens the sheet in a view
 * beside the editor, a card per unit fielded and per embarked craft, with a Print button and the
 * fleet's QR code; Copy Roster as Link is offered.
 *
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/cards.test.ts
 *   (FABLED_E2E_VSIX=path tests that VSIX instead of packaging one)
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { installVsix, makeSandbox, poll, removeSandbox, requireCodeServer, startCodeServer, type CodeServer, type Sandbox } from './codeServer';
import { E2E_SETTINGS, workbenchUrl } from './fixture';
import { ROOT } from './oracle';
import { launchBrowser, Workbench } from './workbench';

const OUT = join(ROOT, 'test-output', 'e2e');

const FLEET = `name: Night Watch
faction: Myr-Valari
points: 1000
units:
  - unit: Dawnhold Carrier
    embark: [Veilwing Fighter Wing, Lumen Bomber Wing]
  - unit: Shardlight Escort
    count: 2
`;

describe('Print Unit Cards (code-server)', function () {
  this.retries(1);
  let sandbox: Sandbox;
  let server: CodeServer;
  let browser: Browser;
  let wb: Workbench;

  before(async function () {
    requireCodeServer();
    mkdirSync(OUT, { recursive: true });
    let vsix = process.env.FABLED_E2E_VSIX;
    if (!vsix) {
      execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'inherit' });
      vsix = join(ROOT, 'fabled-star-tools.vsix');
    }
    assert.ok(existsSync(vsix), `${vsix} was not built`);
    const source = mkdtempSync(join(tmpdir(), 'fabled-cards-'));
    writeFileSync(join(source, 'night.fleet.yaml'), FLEET);
    sandbox = makeSandbox(source, E2E_SETTINGS);
    rmSync(source, { recursive: true, force: true });
    await installVsix(sandbox, vsix);
    server = await startCodeServer(sandbox);
    browser = await launchBrowser();
    // A machine under load loads the workbench slowly: more than the default 30 s to its load event.
    wb = await Workbench.open(browser, workbenchUrl(server), async (page) => page.setDefaultNavigationTimeout(180_000));
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
    if (sandbox && !process.env.FABLED_E2E_KEEP) removeSandbox(sandbox);
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (test && test.state !== 'passed' && wb) await wb.screenshot(join(OUT, 'failed-cards.png')).catch(() => undefined);
  });

  it("opens the open fleet's cards as fielded beside it, with a Print button and the fleet's QR code", async () => {
    await wb.openFile('night.fleet.yaml');
    await wb.runCommand('Fabled Star: Print Unit Cards');
    const frame = await wb.frameWith('article.card', 60_000);
    const names = await poll('the cards to be drawn', async () => {
      const n = await frame.locator('article.card').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card ?? ''));
      return n.length >= 5 ? n : undefined;
    });
    assert.deepEqual(names, ['Dawnhold Carrier', 'Veilwing Fighter Wing', 'Lumen Bomber Wing', 'Shardlight Escort', 'Shardlight Escort']);
    assert.equal(await frame.locator('#fs-print').innerText(), 'Print…');
    assert.equal(await frame.locator('svg.qr').count(), 1);
    assert.equal(await frame.locator('article.card').first().locator('[data-track="bay"]').count(), 3);
    await wb.screenshot(join(OUT, 'print-unit-cards.png'));
  });

  it('Copy Roster as Link is a command of the open fleet', async () => {
    await wb.openFile('night.fleet.yaml');
    await wb.runCommand('Fabled Star: Copy Roster as Link');
    await poll('the status bar to say the link was copied', async () => ((await wb.statusBarText()) ?? '').includes('Copied the roster as a link'), 30_000);
  });
});
