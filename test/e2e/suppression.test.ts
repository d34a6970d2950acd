/**
 * A suppression comment in real VS Code (code-server) with the packaged extension: a card with two
 * problems, the player takes the quick fix "Ignore FS-RANGE-BAND on this line" from the light bulb
 * menu (Ctrl+.), and that problem leaves the Problems panel while the other one, not suppressed,
 * stays; saved, the file holds the comment above the weapon and every other line as it was. The
 * code of the problem left, clicked in the panel, opens its page from the package in the editor.
 *
 *   npx mocha --config test/e2e/.mocharc.json test/e2e/suppression.test.ts
 *   (FABLED_E2E_VSIX=path tests that VSIX instead of packaging one)
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { poll } from './codeServer';
import { cliCheck } from './oracle';
import { codeServerSession, OUT } from './session';

const FILE = 'hush.unit.yaml';

// Two errors: a Destroyer on 2 bases (FS-BASES, line 6) and a 10" range (FS-RANGE-BAND, line 10).
const CARD = `faction: Hush
units:
  - name: Quiet Destroyer
    class: Destroyer
    points: 145
    bases: 2
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Hush Lance — Energy, 18", 2, 3
      - Hush Battery — Auto, 10", 1, 4
`;

/** "a b\n c" and "a b c" are the same text once rendered. */
function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

describe('a suppression comment in VS Code (code-server)', function () {
  this.retries(1);
  const s = codeServerSession({ name: 'suppression', workspace: { [FILE]: CARD } });

  it('"Ignore FS-RANGE-BAND on this line" takes that problem out of the Problems panel and leaves the other', async () => {
    // What the CLI reports for the file as it is: the two problems the panel must show first.
    const before = cliCheck(s.sandbox.folder).diagnostics.filter((d) => d.file === FILE);
    assert.deepEqual(before.map((d) => d.code).sort(), ['FS-BASES', 'FS-RANGE-BAND']);
    const band = before.find((d) => d.code === 'FS-RANGE-BAND')!;
    const bases = before.find((d) => d.code === 'FS-BASES')!;
    const row = (d: { message: string; line: number; column: number }) => (t: string) =>
      t.includes(squash(d.message)) && t.includes(`[Ln ${d.line}, Col ${d.column}]`);

    await s.wb.openFile(FILE);
    await s.wb.runCommand('View: Focus Problems');
    await poll(
      'both problems in the Problems panel',
      async () => {
        const texts = (await s.wb.page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map(squash);
        return texts.some(row(band)) && texts.some(row(bases));
      },
      90_000,
      250,
    );

    // The player puts the cursor on the range and opens the light bulb menu, as with Ctrl+. .
    await s.wb.openFile(FILE);
    await s.wb.goTo(band.line, band.column);
    const title = 'Ignore FS-RANGE-BAND on this line';
    const item = s.wb.page.locator('.action-widget .monaco-list-row', { hasText: title }).first();
    await poll(
      `the quick fix menu to offer "${title}"`,
      async () => {
        if (!(await item.isVisible().catch(() => false))) {
          await s.wb.page.keyboard.press('Escape');
          await s.wb.page.keyboard.press('Control+.');
          await item.waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
        }
        return item.isVisible();
      },
      60_000,
      250,
    );
    const offered = await s.wb.page.locator('.action-widget .monaco-list-row').allInnerTexts();
    await s.wb.screenshot(join(OUT, 'suppression-quick-fix.png'));
    await item.click();

    await s.wb.runCommand('View: Focus Problems');
    const after = await poll(
      'FS-RANGE-BAND to leave the Problems panel while FS-BASES stays',
      async () => {
        const texts = (await s.wb.page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map(squash);
        return !texts.some((t) => t.includes('FS-RANGE-BAND')) && texts.some(row(bases)) ? texts : undefined;
      },
      60_000,
      250,
    );
    assert.ok(!after.some((t) => t.includes('FS-DISABLE-UNUSED') || t.includes('FS-DISABLE-UNKNOWN')), `the new comment is reported: ${after.join(' | ')}`);
    await s.wb.screenshot(join(OUT, 'suppression-problems.png'));

    // Saved, the file carries the comment above the weapon's line and nothing else changed.
    await s.wb.openFile(FILE);
    await s.wb.page.keyboard.press('Control+S');
    const expected = CARD.replace('      - Hush Battery', '      # fabled-star-disable-next-line FS-RANGE-BAND\n      - Hush Battery');
    await poll('the file to be saved with the comment', () => readFileSync(join(s.sandbox.folder, FILE), 'utf8') === expected, 30_000, 200);
    // The CLI reads the saved file the same way: the suppressed problem is gone there too.
    const cli = cliCheck(s.sandbox.folder).diagnostics.filter((d) => d.file === FILE);
    assert.deepEqual(
      cli.map((d) => d.code),
      ['FS-BASES'],
      `offered: ${offered.join(' | ')}`,
    );
  });

  it("the problem's code in the Problems panel opens its page, shipped in the package, inside the editor", async () => {
    await s.wb.runCommand('View: Focus Problems');
    const link = s.wb.page.locator('.markers-panel .monaco-list-row a', { hasText: 'FS-BASES' }).first();
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    await link.click();
    // VS Code's Markdown preview of the shipped docs/codes/FS-BASES.md, in a tab of this window.
    await s.wb.page.locator('.tabs-container .tab[aria-label*="FS-BASES.md"]').first().waitFor({ state: 'visible', timeout: 60_000 });
    const frame = await s.wb.frameWith('h1', 60_000);
    const title = await poll('the page to show its title', async () => {
      const t = await frame
        .locator('h1')
        .first()
        .innerText()
        .catch(() => '');
      return t.startsWith('FS-BASES') ? t : undefined;
    });
    assert.match(title, /^FS-BASES: /);
    await s.wb.screenshot(join(OUT, 'suppression-code-page.png'));
  });
});
