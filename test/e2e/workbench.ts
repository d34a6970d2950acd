/**
 * Drives VS Code's workbench (served by code-server) the way a user does: keyboard shortcuts, the
 * command palette, Quick Open, the Problems panel. Every wait polls the page for a state; none sleeps.
 */
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { poll } from './codeServer';
import { launchChromium } from '../chromium';

export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

export class Workbench {
  constructor(readonly page: Page) {}

  /** Opens the workbench at `url` (see fixture.ts workbenchUrl) and waits for the explorer to list the folder. */
  static async open(browser: Browser, url: string, beforeLoad?: (page: Page) => Promise<void>): Promise<Workbench> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    if (beforeLoad) await beforeLoad(page);
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // The explorer lists the folder once the workbench has restored the workspace.
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60_000 });
    return new Workbench(page);
  }

  /** Runs a command by its palette title, like a user typing it after Ctrl+Shift+P. */
  async runCommand(title: string): Promise<void> {
    await this.closeQuickInput();
    await this.page.keyboard.press('Control+Shift+P');
    const input = this.page.locator('.quick-input-widget input[type="text"]');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ state: 'visible' });
    // Pick the exact entry (a fuzzy match could put another command first).
    await poll(`the palette to highlight "${title}"`, async () => {
      const focused = this.page.locator('.quick-input-list .monaco-list-row.focused');
      if ((await focused.count()) && (await focused.first().innerText()).includes(title)) return true;
      await this.page.keyboard.press('ArrowDown');
      return false;
    });
    await this.page.keyboard.press('Enter');
  }

  async closeQuickInput(): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    if (await widget.isVisible()) {
      await this.page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden' });
    }
  }

  /** Opens a workspace file by its path through Quick Open and waits for its editor to be the active one. */
  async openFile(relativePath: string): Promise<void> {
    const base = relativePath.split('/').pop()!;
    // The active tab of the active editor group: with several groups, each has an active tab.
    const active = this.page.locator(`.editor-group-container.active .tabs-container .tab.active[aria-label*="${base}"]`);
    if (await active.isVisible().catch(() => false)) return;
    await poll(
      `${relativePath} to open from Quick Open`,
      async () => {
        await this.closeQuickInput();
        await this.page.keyboard.press('Control+P');
        const input = this.page.locator('.quick-input-widget input[type="text"]');
        await input.waitFor({ state: 'visible', timeout: 5000 });
        await input.fill(relativePath);
        // The row whose label is the file name and whose description is its folder: click it rather
        // than pressing Enter, which picks whatever row happens to be first while results load.
        const folder = relativePath.split('/').slice(0, -1).join('/');
        const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: base }).filter({ hasText: folder }).first();
        await row.click({ timeout: 5000 });
        await active.waitFor({ state: 'visible', timeout: 5000 });
        return true;
      },
      30_000,
      200,
    );
    await this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().waitFor({ state: 'visible' });
  }

  /** Moves the cursor with "Go to Line/Column" (1-based line and column). */
  async goTo(line: number, column: number): Promise<void> {
    await this.closeQuickInput();
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input[type="text"]');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await poll(`the cursor at ${line}:${column}`, async () => {
      const text = await this.statusBarText();
      return text.includes(`Ln ${line}, Col ${column}`);
    });
  }

  async statusBarText(): Promise<string> {
    return this.page.locator('#workbench\\.parts\\.statusbar').innerText();
  }

  /** The text of every row of the Problems panel, once it has at least `atLeast` rows. */
  async problems(atLeast = 1): Promise<string[]> {
    await this.runCommand('View: Focus Problems');
    return poll(`the Problems panel to list ${atLeast}+ problems`, async () => {
      const rows = this.page.locator('.markers-panel .monaco-list-row');
      const texts = await rows.allInnerTexts();
      return texts.length >= atLeast ? texts : undefined;
    });
  }

  /** Closes the bottom panel (Problems, Output...) so that screenshots show the editors. */
  async closePanel(): Promise<void> {
    const panel = this.page.locator('#workbench\\.parts\\.panel');
    if (!(await panel.isVisible().catch(() => false))) return;
    await this.runCommand('View: Hide Panel');
    await panel.waitFor({ state: 'hidden' });
  }

  /** Types into the Problems panel's filter box (the panel must be open). */
  async filterProblems(text: string): Promise<void> {
    const input = this.page.locator('.panel .viewpane-filter input, .panel .markers-panel-action-filter input').first();
    await input.waitFor({ state: 'visible' });
    await input.fill(text);
    await poll(`the Problems filter to read "${text}"`, async () => (await input.inputValue()) === text);
  }

  /** Maximizes (or restores) the bottom panel, so that more Problems rows are rendered at once. */
  async maximizePanel(on = true): Promise<void> {
    const isMax = async (): Promise<boolean> => {
      const panel = await this.page.locator('#workbench\\.parts\\.panel').boundingBox();
      const all = await this.page.locator('.monaco-workbench').boundingBox();
      return !!panel && !!all && panel.height > all.height * 0.6;
    };
    if ((await isMax()) === on) return;
    await this.runCommand('View: Toggle Maximized Panel');
    await poll(`the panel to be ${on ? 'maximized' : 'restored'}`, async () => (await isMax()) === on);
  }

  /**
   * Shows the hover at the cursor (the "Show or Focus Hover" command) and returns its text. Any
   * other hover on the page (a breadcrumb's or a tab's tooltip under the mouse) is passed over: the
   * editor's hover is the visible one with the expected text.
   */
  async hoverAtCursor(expect: (text: string) => boolean): Promise<string> {
    const shown = async (): Promise<string | undefined> => {
      for (const hover of await this.page.locator('.monaco-hover-content').all()) {
        if (!(await hover.isVisible().catch(() => false))) continue;
        const text = await hover.innerText().catch(() => '');
        // Wait out the fade-in too, so a screenshot shows the hover as a user reads it.
        const opaque = await hover.evaluate((el) => getComputedStyle(el.closest('.monaco-hover') ?? el).opacity === '1').catch(() => false);
        if (expect(text) && opaque) return text;
      }
      return undefined;
    };
    return poll(
      'a hover with the expected text',
      async () => {
        const text = await shown();
        if (text !== undefined) return text;
        await this.page.keyboard.press('Control+K');
        await this.page.keyboard.press('Control+I');
        await this.page
          .locator('.monaco-editor .monaco-hover-content')
          .first()
          .waitFor({ state: 'visible', timeout: 3000 })
          .catch(() => undefined);
        return shown();
      },
      30_000,
      250,
    );
  }

  /**
   * The link `text` of the topmost code lens in view in the editor in front. Monaco keeps every
   * lens of an editor in the page: those scrolled out of view, those of the editor of another group
   * and those of an editor behind a webview are there too, hidden, and may come first in the page's
   * order; so the lens is looked for among the visible ones of the active group, by its place on screen.
   */
  async topLens(text: string | RegExp, timeoutMs = 30_000): Promise<Locator> {
    const links = this.page.locator('.editor-group-container.active .contentWidgets .codelens-decoration a:visible', { hasText: text });
    const index = await poll(
      `a "${text}" code lens in view in the editor in front`,
      async () => {
        const tops = await links.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
        if (tops.length === 0) return undefined;
        return tops.indexOf(Math.min(...tops));
      },
      timeoutMs,
      200,
    );
    return links.nth(index);
  }

  /** The frame (webview iframes are nested) in which `selector` exists. */
  async frameWith(selector: string, timeoutMs = 30_000): Promise<Frame> {
    return poll(
      `a webview frame with ${selector}`,
      async () => {
        for (const frame of this.page.frames()) {
          if (frame === this.page.mainFrame()) continue;
          const found = await frame.$(selector).catch(() => null);
          if (found) return frame;
        }
        return undefined;
      },
      timeoutMs,
      200,
    );
  }

  /** Picks an item of an open quick pick by typing and choosing the row that contains `label`. */
  async pickQuick(label: string, placeholderIncludes?: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input[type="text"]');
    await input.waitFor({ state: 'visible' });
    if (placeholderIncludes) {
      await poll(`a quick pick asking for "${placeholderIncludes}"`, async () =>
        ((await input.getAttribute('placeholder')) ?? '').includes(placeholderIncludes),
      );
    }
    await input.fill(label);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible' });
    await row.click();
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path });
  }
}
