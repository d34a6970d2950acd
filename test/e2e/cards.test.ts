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
import { join } from 'node:path';
import { poll } from './codeServer';
import { codeServerSession, OUT } from './session';

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
  const s = codeServerSession({ name: 'cards', workspace: { 'night.fleet.yaml': FLEET } });

  it("opens the open fleet's cards as fielded beside it, with a Print button and the fleet's QR code", async () => {
    await s.wb.openFile('night.fleet.yaml');
    await s.wb.runCommand('Fabled Star: Print Unit Cards');
    const frame = await s.wb.frameWith('article.card', 60_000);
    const names = await poll('the cards to be drawn', async () => {
      const n = await frame.locator('article.card').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card ?? ''));
      return n.length >= 5 ? n : undefined;
    });
    assert.deepEqual(names, ['Dawnhold Carrier', 'Veilwing Fighter Wing', 'Lumen Bomber Wing', 'Shardlight Escort', 'Shardlight Escort']);
    assert.equal(await frame.locator('#fs-print').innerText(), 'Print…');
    assert.equal(await frame.locator('svg.qr').count(), 1);
    assert.equal(await frame.locator('article.card').first().locator('[data-track="bay"]').count(), 3);
    await s.wb.screenshot(join(OUT, 'print-unit-cards.png'));
  });

  it('Copy Roster as Link is a command of the open fleet', async () => {
    await s.wb.openFile('night.fleet.yaml');
    await s.wb.runCommand('Fabled Star: Copy Roster as Link');
    await poll('the status bar to say the link was copied', async () => ((await s.wb.statusBarText()) ?? '').includes('Copied the roster as a link'), 30_000);
  });
});
