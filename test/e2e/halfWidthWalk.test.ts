/**
 * A player at half the window's width (two editor groups side by side, the Explorer open), from a
 * folder with one fleet list. The live odds lens, watched while editing: every lens of the fleet
 * shows whole inside the editor (none runs past its right edge, where VS Code cuts it off unseen),
 * and the lens's tooltip carries the whole text (the opponent's full name and the battle count).
 * A list pasted from a forum with a misspelt card: the message says what Ctrl+. on the entry's
 * warning offers, and it offers that.
 *
 *   FABLED_E2E_VSIX=path npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/halfWidthWalk.test.ts
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { poll } from './codeServer';
import { codeServerSession, OUT } from './session';

// A player's list against a bundled example of a long name, the case the lens was cut off in.
const FLEET = [
  'name: Dawn Tide',
  'faction: Myr-Valari',
  'points: 1000 # Standard',
  'units:',
  '  - unit: Celestial Battleship',
  '  - unit: Lumen Cruiser',
  '    embark: [Veilwing Fighter Wing]',
  '  - unit: Lumen Destroyer',
  '  - unit: Shardlight Escort',
  '    count: 2',
  '  - unit: Prism Frigate Squadron',
  '',
].join('\n');
const OPPONENT = 'The Hunger Within';

describe('a player at half the editor width (code-server)', function () {
  this.retries(1);
  const s = codeServerSession({
    name: 'half-width',
    workspace: {
      'dawn-tide.fleet.yaml': FLEET,
      '.vscode/settings.json': JSON.stringify({ 'fabledStar.liveOdds.opponent': OPPONENT }, null, 2),
    },
    clipboard: true,
  });

  it('shows every lens of the fleet whole, the figure among them, with the whole text in its tooltip', async () => {
    await s.wb.openFile('dawn-tide.fleet.yaml');
    await s.wb.runCommand('View: Split Editor Right');
    await s.wb.runCommand('View: Focus First Editor Group');
    await s.wb.goTo(1, 1);
    const group = s.wb.page.locator('.editor-group-container').first();
    const editorBox = (await group.locator('.monaco-editor').first().boundingBox())!;
    const window = s.wb.page.viewportSize()!;
    assert.ok(editorBox.width < window.width / 2, `the editor is ${editorBox.width}px of a ${window.width}px window`);
    const live = group.locator('.codelens-decoration a', { hasText: /^wins / }).first();
    // The final figure: its tooltip ends in the battle count and why the lens stopped there
    // ("(3,000 battles, sure to ±1.9%)"); while battles run it says "N of at most M battles".
    const tooltip = await poll(
      'the live odds figure',
      async () => {
        const t = (await live.getAttribute('title').catch(() => null)) ?? '';
        return / \([\d,]+ battles, [^)]+\)$/.test(t) ? t : undefined;
      },
      240_000,
      500,
    );
    assert.match(
      tooltip,
      new RegExp(`^wins [\\d.]+% \u00b1 [\\d.]+%(, draws \\d+%)? vs ${OPPONENT} \\([\\d,]+ battles, (sure to|stopped at the cap:) \u00b1[\\d.]+%\\)$`),
    );
    assert.match(squash(await live.innerText()), /^wins [\d.]+% \u00b1 [\d.]+%/);
    // Past the text area's right edge (the vertical scrollbar's left) a lens is cut off unseen.
    const scrollbar = await group.locator('.monaco-editor .scrollbar.vertical').first().boundingBox();
    const right = scrollbar ? scrollbar.x : editorBox.x + editorBox.width;
    // Each lens: a link, or a span where it runs nothing (the points).
    const links = group.locator('.codelens-decoration > a, .codelens-decoration > span');
    const shown: string[] = [];
    for (let i = 0; i < (await links.count()); i++) {
      const a = links.nth(i);
      const box = (await a.boundingBox())!;
      const text = squash(await a.innerText());
      if (!text.replace(/\|/g, '').trim()) continue;
      shown.push(`${text} [${Math.round(box.x)}..${Math.round(box.x + box.width)}]`);
      assert.ok(
        box.x + box.width <= right,
        `"${text}" runs past the editor's edge (${Math.round(box.x + box.width)} > ${Math.round(right)}): ${shown.join(' | ')}`,
      );
    }
    assert.ok(
      shown.some((s) => s.startsWith('Battle vs')),
      shown.join(' | '),
    );
    assert.ok(
      shown.some((s) => /^\d+ \/ 1000 pts/.test(s)),
      shown.join(' | '),
    );
    await s.wb.screenshot(join(OUT, 'live-odds-half-width.png'));
  });

  it('pastes a forum post with a misspelt card: the message says what Ctrl+. on its warning offers, and it offers that', async () => {
    // One clear misspelling, no other card close to it: the only fix keeps the card.
    const post = ['Dawn Tide - Myr-Valari 1000', '1x Lumen Cruiser (190)', '3 x Shardlite Escort @ 80', ''].join('\n');
    await s.wb.page.evaluate((t) => navigator.clipboard.writeText(t), post);
    await s.wb.runCommand('Fabled Star: Paste Roster as Fleet');
    const toast = s.wb.page.locator('.notification-toast', { hasText: 'into a new fleet list' }).first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    const message = squash(await toast.innerText());
    assert.match(message, /line 3: Shardlite Escort read as Shardlight Escort/, message);
    await poll('the new fleet list in the editor', async () => (await s.wb.statusBarText()).includes('Fabled Star Fleet List'));
    const text = await poll('the entry with its note', async () => {
      const t = squash(await s.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText());
      return /unit: Shardlight Escort # import:/.test(t) ? t : undefined;
    });
    assert.ok(text.includes('unit: Lumen Cruiser'), text);
    // The entry's line (the editor shows every line of this short list, numbered from 1).
    const lines = (await s.wb.page.locator('.editor-group-container.active .monaco-editor .view-line').allInnerTexts()).map(squash);
    const tops = await s.wb.page
      .locator('.editor-group-container.active .monaco-editor .view-line')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).offsetTop));
    const order = lines
      .map((l, i) => [tops[i]!, l] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, l]) => l);
    const line = order.findIndex((l) => /unit: Shardlight Escort/.test(l)) + 1;
    assert.ok(line > 0, order.join('\n'));
    await s.wb.goTo(line, order[line - 1]!.indexOf('Shardlight') + 3);
    const fixes = await poll(
      'the quick fixes on the entry',
      async () => {
        const menu = s.wb.page.locator('.action-widget').first();
        if (!(await menu.isVisible().catch(() => false))) {
          await s.wb.page.keyboard.press('Control+.');
          return undefined;
        }
        const t = (await menu.locator('.monaco-list-row').allInnerTexts()).map(squash);
        return t.some((x) => x.startsWith('Keep')) ? t : undefined;
      },
      30_000,
      500,
    );
    await s.wb.screenshot(join(OUT, 'paste-roster-guess-fixes.png'));
    await s.wb.page.keyboard.press('Escape');
    assert.ok(fixes.includes("Keep Shardlight Escort (remove the import's note)"), fixes.join(' | '));
    const others = fixes.filter((f) => /^Change to /.test(f));
    // What the message promises is what the menu holds.
    assert.match(message, /Ctrl\+\. on its warning keeps it/, message);
    if (others.length) assert.match(message, /picks another/, `${message}\n${fixes.join(' | ')}`);
    else assert.doesNotMatch(message, /pick(s)? another/, `${message}\n${fixes.join(' | ')}`);
    await s.wb.runCommand('View: Revert and Close Editor');
  });
});

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
