/**
 * The packaged extension in real VS Code (code-server 4.139 = VS Code 1.139, its real workbench and
 * Node extension host), driven through Chromium like a user: install the VSIX, open the examples
 * workspace, read the Problems panel, hover, watch the status bar, run Simulate Engagement from the
 * command palette, read the numbers in the webview, reload, crash the server.
 *
 * Expected values come from the CLI and the core model (oracle.ts), never from literals, so the
 * test keeps working as the examples change. Every wait polls for a state; nothing sleeps.
 *
 *   sh scripts/setup-code-server.sh --apt   # once: Node 24 + code-server into a cache, chromium
 *   npm run test:e2e
 *
 * FABLED_E2E_VSIX=path skips `npm run package` and tests that VSIX instead.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { RANGE_BANDS, WEAPON_TYPE_SECTION } from '../../server/src/core/rules/data';
import { section, sectionTitle } from '../../server/src/core/rules/text';
import type { FleetDocument } from '../../server/src/core/model/types';
import { IDS } from '../../client/webview/engagement/html';
import { BATTLE_IDS } from '../../client/webview/battle/html';
import { FIELD_IDS } from '../../client/webview/field/html';
import type { VsFieldResult } from '../../protocol';
import { formatPercent } from '../../client/webview/format';
import { halfWidthWords } from '../../protocol/simulation';
import { findFiles, poll } from './codeServer';
import { cliViewBattle, cliCheck, cliSim, fleetPoints, loadWorkspace, relativeTo, ROOT, type CliDiagnostic } from './oracle';
import { codeServerSession, OUT } from './session';

/** "a b\n c" and "a b c" are the same text once rendered. */
function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** 1-based line and column of the first match of `re` in `text` (column of the match's first group when it has one). */
function positionOf(text: string, re: RegExp): { line: number; column: number } {
  const m = re.exec(text);
  assert.ok(m, `${re} not found`);
  const offset = m.index + (m[1] !== undefined ? m[0].indexOf(m[1]) : 0);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

describe('the packaged extension in VS Code (code-server)', function () {
  // A real workbench on a shared, noisy machine: a test whose first attempt fails runs once more, and
  // the first attempt's failure is printed (retryReporter.cjs) so that a flaky test is seen, not hidden.
  this.retries(1);
  let diagnostics: CliDiagnostic[];
  const s = codeServerSession({
    name: 'e2e',
    workspace: join(ROOT, 'examples'),
    prepare: (sandbox) => void (diagnostics = cliCheck(sandbox.folder).diagnostics),
  });

  it('installs from the VSIX with the bundles and without sources or node_modules', () => {
    for (const f of ['package.json', 'dist/client.js', 'dist/server.js', 'dist/engagement.js', 'language-configuration.json']) {
      assert.ok(existsSync(join(s.extensionDir, f)), `the installed extension lacks ${f}`);
    }
    for (const f of ['node_modules', 'server/src', 'client/src', 'test', 'examples']) {
      assert.ok(!existsSync(join(s.extensionDir, f)), `the installed extension carries ${f}`);
    }
  });

  const brokenFile = 'showcase/homebrew-mistakes.unit.yaml';

  it('activates on a unit card file and starts the language server', async () => {
    await s.wb.openFile(brokenFile);
    await poll('the language mode "Fabled Star Unit Cards"', async () => (await s.wb.statusBarText()).includes('Fabled Star Unit Cards'));
    const log = await poll('the extension log to say the server is ready', () => {
      const file = findFiles(join(s.sandbox.userDataDir, 'logs'), (n) => n === 'Fabled Star.log')[0];
      const text = file ? readFileSync(file, 'utf8') : '';
      return /Language server ready/.test(text) ? text : undefined;
    });
    const activate = Number(/Activated in ([\d.]+) ms/.exec(log)?.[1]);
    const ready = Number(/Language server ready ([\d.]+) ms/.exec(log)?.[1]);
    assert.ok(activate >= 0 && ready >= activate, `unexpected log:\n${log}`);
    // VS Code's own measurement (Developer: Show Running Extensions): code loading plus activate().
    await s.wb.runCommand('Developer: Show Running Extensions');
    const row = s.wb.page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'Fabled Star Tools' });
    const rowText = await poll('our row in Running Extensions with an activation time', async () => {
      const t = await row
        .first()
        .innerText()
        .catch(() => '');
      return /\d+\s*ms/.test(t) ? t : undefined;
    });
    await s.wb.page.keyboard.press('Control+W');
    const vscodeActivation = Number(/Activation:\s*([\d.]+)\s*ms/.exec(rowText)?.[1]);
    const figures = { activateMs: activate, serverReadyMs: ready, vscodeActivationMs: vscodeActivation, runningExtensions: squash(rowText) };
    writeFileSync(join(OUT, 'activation.json'), JSON.stringify(figures, null, 2) + '\n');
    console.log(`      activation: ${JSON.stringify(figures)}`);
  });

  it('lists the same problems for the broken card file as the CLI does', async () => {
    const expected = diagnostics.filter((d) => d.file === brokenFile);
    assert.ok(expected.length >= 5, `the CLI finds only ${expected.length} problems in ${brokenFile}`);
    await s.wb.openFile(brokenFile);
    await s.wb.runCommand('View: Focus Problems');
    await s.wb.filterProblems('homebrew-mistakes');
    await s.wb.maximizePanel();
    const rows = await poll(
      `all ${expected.length} problems of ${brokenFile} in the Problems panel`,
      async () => {
        const texts = (await s.wb.page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map(squash);
        const missing = expected.filter((d) => !texts.some((t) => t.includes(squash(d.message)) && t.includes(`[Ln ${d.line}, Col ${d.column}]`)));
        return missing.length === 0 ? texts : undefined;
      },
      60_000,
      250,
    );
    for (const d of expected) {
      const row = rows.find((t) => t.includes(squash(d.message)))!;
      assert.ok(row.includes(d.code), `the row for "${d.message}" does not show ${d.code}: ${row}`);
    }
    await s.wb.screenshot(join(OUT, 'problems.png'));
    await s.wb.maximizePanel(false);
    await s.wb.filterProblems('');
  });

  it('shows the rulebook text of the weapons section on hover', async () => {
    const file = 'myr-valari/myr-valari.unit.yaml';
    const text = readFileSync(join(s.sandbox.folder, file), 'utf8');
    await s.wb.closePanel();
    await s.wb.openFile(file);
    // A weapon's type quotes the weapons section (the `weapons:` key quotes the slot counts by class, section 3).
    const at = positionOf(text, /^\s+type: (Piercing)/m);
    await s.wb.goTo(at.line, at.column + 1);
    const title = sectionTitle(WEAPON_TYPE_SECTION)!;
    const firstSentence = squash(section(WEAPON_TYPE_SECTION)!.rule).split(/(?<=\.)\s/)[0]!;
    const hover = await s.wb.hoverAtCursor((t) => squash(t).includes(title) && squash(t).includes(firstSentence));
    assert.ok(squash(hover).includes(firstSentence));
    await s.wb.screenshot(join(OUT, 'hover.png'));
    await s.wb.page.keyboard.press('Escape');
  });

  it('shows each card\u2019s points estimate as a code lens and in the hover of its points', async () => {
    const file = 'myr-valari/myr-valari.unit.yaml';
    const text = readFileSync(join(s.sandbox.folder, file), 'utf8');
    await s.wb.closePanel();
    await s.wb.openFile(file);
    const lenses = await poll('"≈ N pts" code lenses', async () => {
      const t = (await s.wb.page.locator('.contentWidgets .codelens-decoration').allInnerTexts()).map(squash);
      return t.some((x) => /≈ \d+ pts/.test(x)) ? t : undefined;
    });
    assert.ok(
      lenses.some((x) => /≈ \d+ pts/.test(x)),
      lenses.join(' | '),
    );
    assert.ok(
      lenses.some((x) => x.includes('Price by battle')),
      lenses.join(' | '),
    );
    const at = positionOf(text, /name: Lumen Cruiser\n\s+class: Cruiser\n\s+(points): 190/);
    await s.wb.goTo(at.line, at.column + 1);
    const hover = await s.wb.hoverAtCursor((t) => /Points estimate: ≈ \d+ pts/.test(squash(t)));
    assert.match(squash(hover), /Not priced: LD/);
    assert.match(squash(hover), /its battle price, measured/);
    await s.wb.screenshot(join(OUT, 'points-estimate.png'));
    await s.wb.page.keyboard.press('Escape');
  });

  it('sets a card against the field from its "vs the field" lens: the view lists the rows of sim --vs-field', async () => {
    const file = 'myr-valari/myr-valari.unit.yaml';
    const text = readFileSync(join(s.sandbox.folder, file), 'utf8');
    const first = /^\s+- name: (.+)$/m.exec(text)![1]!.trim();
    await s.wb.closePanel();
    await s.wb.openFile(file);
    // The test before left this editor scrolled to a card further down, whose lens would be the one
    // in view: the top of the file brings the first card's lens into view, the topmost one.
    await s.wb.goTo(1, 1);
    await (await s.wb.topLens('vs the field')).click();
    const tab = s.wb.page.locator(`.tabs-container .tab[aria-label*="${first} vs the field"]`);
    await tab.waitFor({ state: 'visible', timeout: 60_000 });
    const frame = await s.wb.frameWith(`#${FIELD_IDS.table} tbody tr`, 60_000);
    const cli = JSON.parse(
      execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'sim', '--format', 'json', '--cards', '.', '--attacker', first, '--vs-field'], {
        cwd: s.sandbox.folder,
        encoding: 'utf8',
      }),
    ) as VsFieldResult;
    const rows = await frame
      .locator(`#${FIELD_IDS.table} tbody tr`)
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent ?? '')));
    assert.deepEqual(
      rows.map((r) => [r[0], r[4]]),
      cli.field.map((f) => [f.defender, formatPercent(f.killProbability)]),
    );
    await s.wb.screenshot(join(OUT, 'vs-the-field.png'));
    // The view opened beside the card: closing it leaves one editor group, as the tests after expect.
    await s.wb.runCommand('View: Close Editor');
    await tab.waitFor({ state: 'detached' });
    await poll('one editor group', async () => (await s.wb.page.locator('.editor-group-container').count()) === 1);
  });

  /** Writes a card file of `lines` under lab/, opens it and clicks its "Price by battle" lens; the lens. */
  async function priceFromLens(file: string, lines: string[]) {
    mkdirSync(join(s.sandbox.folder, 'lab'), { recursive: true });
    writeFileSync(join(s.sandbox.folder, file), ['faction: Lab', 'units:', ...lines, ''].join('\n'));
    await s.wb.closePanel();
    await s.wb.openFile(file);
    const lens = await s.wb.topLens('Price by battle');
    await lens.click();
    return lens;
  }

  it('cancels Price by battle from its notification: it says nothing was measured, and the lens still offers the run', async () => {
    const file = 'lab/cancelled.unit.yaml';
    // A Dreadnought with every weapon system it may carry: its battles take seconds, time to cancel them.
    const lens = await priceFromLens(file, [
      '  - name: Lab Dreadnought',
      '    class: Dreadnought',
      '    points: 480',
      '    stats: "6/3 4+ 10+ 20 3+ 16 4/5 5/5 10"',
      '    weapons:',
      '      - Spinal Lance — Energy, 30", 4, 3',
      '      - Broadside — Auto, 18", 2, 8',
      '      - Ion Battery — Ion, 24", 1, 6',
      '      - Flak — Auto, 9", 1, 8',
    ]);
    const toast = s.wb.page.locator('.notification-toast', { hasText: 'Price by battle: Lab Dreadnought' });
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    await toast.locator('a.monaco-button, .monaco-button', { hasText: 'Cancel' }).first().click();
    await poll('the status bar to say the run was cancelled', async () =>
      (await s.wb.statusBarText()).includes('Price by battle of Lab Dreadnought cancelled: nothing measured') ? true : undefined,
    );
    await s.wb.screenshot(join(OUT, 'price-by-battle-cancelled.png'));
    assert.equal(await s.wb.page.locator('.notification-toast', { hasText: 'Lab Dreadnought: battle price' }).count(), 0, 'no price offered');
    assert.ok((await lens.count()) > 0, 'the lens still offers the run');
    await s.wb.runCommand('View: Close Editor');
    unlinkSync(join(s.sandbox.folder, file));
  });

  it('prices a homebrew card by battle from its lens, shows the price converging, and sets its points on request', async () => {
    // A designer's walk: a new card, its "Price by battle" lens, the notification, "Set points to N".
    const file = 'lab/priced.unit.yaml';
    await priceFromLens(file, [
      '  - name: Lab Frigate',
      '    class: Frigate',
      '    points: 70',
      '    stats: "9/3 5+ 7+ 3 7+ 3 6/2 8/2 2"',
      '    weapons:',
      '      - Lance — Energy, 12", 2, 2',
      '      - Battery — Auto, 9", 1, 3',
    ]);
    const toast = s.wb.page.locator('.notification-toast', { hasText: 'Lab Frigate: battle price' });
    const text = await poll(
      'the price in a notification',
      async () => {
        const t = (await toast.allInnerTexts())
          .map(squash)
          .find((x) => /battle price ≈ \d+ pts \(likely \d+–\d+\)\. Printed 70 pts/.test(x) && x.includes('Set points to'));
        return t;
      },
      180_000,
    );
    const n = /Set points to (\d+)/.exec(text)![1]!;
    await s.wb.screenshot(join(OUT, 'price-by-battle.png'));
    await toast
      .locator('a.monaco-button, .monaco-button', { hasText: `Set points to ${n}` })
      .first()
      .click();
    await poll('the points set to the battle price', async () => {
      const lines = await s.wb.page.locator('.view-lines').innerText();
      return squash(lines).includes(`points: ${n}`) ? true : undefined;
    });
    assert.ok(Number(n) > 70, `a 70-point Frigate like the bundled 110-point one is worth more: ${n}`);
    // The lens now says the measured price (kept with the new points: the same card against the same field).
    const measured = s.wb.page.locator('.contentWidgets .codelens-decoration a', { hasText: /Battle price \d+ pts \(likely \d+–\d+\)/ });
    const said = await poll('the lens to show the measured price', async () =>
      (await measured.count()) > 0 ? squash(await measured.first().innerText()) : undefined,
    );
    assert.match(said, new RegExp(`^Battle price ${n} pts`), `the lens and the notification give the same price: ${said}`);
    await s.wb.screenshot(join(OUT, 'price-by-battle-lens.png'));
    // Leave the workspace as the other tests expect it: the edit reverted, the editor closed, the file gone.
    await s.wb.runCommand('File: Revert File');
    await s.wb.runCommand('View: Close Editor');
    unlinkSync(join(s.sandbox.folder, file));
  });

  describe('the fleet points status bar item', () => {
    const ws = () => loadWorkspace(s.sandbox.folder);
    const fleetFiles = findFiles(join(ROOT, 'examples'), (n) => n.endsWith('.fleet.yaml')).map((f) => relativeTo(join(ROOT, 'examples'), f));
    it('has fleets to show', () => assert.ok(fleetFiles.length >= 3, `only ${fleetFiles.length} fleet files`));
    for (const file of fleetFiles) {
      it(`shows the total of ${file} against its limit`, async () => {
        const w = ws();
        const doc = w.get(`file://${join(s.sandbox.folder, file)}`) as FleetDocument;
        const { total, limit } = fleetPoints(w, doc);
        assert.ok(limit !== undefined, `${file} has no points limit`);
        await s.wb.openFile(file);
        const item = s.wb.page.locator('[id$="fabledStar.fleetPoints"]');
        await poll(`the status bar to show "${total} / ${limit} pts"`, async () =>
          (await item.innerText().catch(() => '')).includes(`${total} / ${limit} pts`),
        );
        // The theme's colours are CSS variables on the workbench element, so the probe goes beside
        // the item; the colour may sit on the item or on its label, so both are looked at.
        const painted = await item.evaluate((el) => {
          const probe = document.createElement('div');
          probe.style.background = 'var(--vscode-statusBarItem-errorBackground)';
          el.parentElement!.append(probe);
          const error = getComputedStyle(probe).backgroundColor;
          probe.remove();
          if (error === 'rgba(0, 0, 0, 0)') throw new Error('the theme has no statusBarItem.errorBackground here');
          return [el, ...Array.from(el.querySelectorAll('*'))].some((x) => getComputedStyle(x).backgroundColor === error);
        });
        if (total > limit) {
          assert.ok(painted, 'an over-limit fleet is not shown in the error colour');
          await s.wb.screenshot(join(OUT, 'status-over-limit.png'));
        } else {
          assert.ok(!painted, 'a fleet within its limit is shown in the error colour');
        }
      });
    }
  });

  describe('Simulate Engagement', () => {
    const attacker = 'Lumen Destroyer';
    // The defender is the first enemy card against which the CLI gives a kill chance strictly
    // between 0 and 1, so that the figure the view must show is not a trivial "0%" or "100%".
    let defender = '';
    let view: Frame;

    async function text(id: string): Promise<string> {
      return squash(await view.locator(`#${id}`).innerText());
    }

    before(() => {
      const ws = loadWorkspace(s.sandbox.folder);
      const own = ws.findCards(attacker)[0];
      assert.ok(own, `no card ${attacker} in the examples`);
      for (const ref of ws.allCards().filter((c) => c.faction !== own.faction)) {
        const p = cliSim(s.sandbox.folder, attacker, ref.card.name.value!).volley.killProbability;
        if (p > 0.001 && p < 0.999) {
          defender = ref.card.name.value!;
          break;
        }
      }
      assert.ok(defender, `no enemy card that ${attacker} can kill only sometimes`);
    });

    it('simulates the card at the cursor against a defender picked from the quick pick, as the CLI does', async () => {
      const file = 'myr-valari/myr-valari.unit.yaml';
      const source = readFileSync(join(s.sandbox.folder, file), 'utf8');
      await s.wb.openFile(file);
      const at = positionOf(source, new RegExp(`name:\\s*(${attacker})\\s*$`, 'm'));
      await s.wb.goTo(at.line, at.column + 1);
      await s.wb.runCommand('Fabled Star: Simulate Engagement');
      await s.wb.pickQuick(defender, `Defender for ${attacker}`);
      await s.wb.page.locator(`.tabs-container .tab[aria-label*="Engagement: ${attacker} vs ${defender}"]`).waitFor({ state: 'visible' });
      const cli = cliSim(s.sandbox.folder, attacker, defender);
      view = await s.wb.frameWith(`#${IDS.kill}`);
      await poll(
        `the view to show the CLI's kill probability ${formatPercent(cli.volley.killProbability)}`,
        async () => (await text(IDS.kill)).includes(formatPercent(cli.volley.killProbability)),
        60_000,
      );
      assert.ok((await text(IDS.attackerWins)).includes(formatPercent(cli.engagement.attackerWins)));
      assert.ok((await text(IDS.defenderWins)).includes(formatPercent(cli.engagement.defenderWins)));
      assert.ok(await view.locator(`#${IDS.hullChart}`).isVisible(), 'no hull damage chart');
      // The form shows what was computed: no range given, so "any range" (every weapon fires).
      assert.equal(await view.locator(`#${IDS.range}`).inputValue(), '');
      assert.match(await text(IDS.verdict), new RegExp(`(${attacker}|${defender}) wins|Neither unit`));
      await s.wb.closePanel();
      await s.wb.screenshot(join(OUT, 'engagement-top.png'));
      // Scroll the view to the figures and the chart, which is what the screenshot is for.
      await view.locator(`#${IDS.kill}`).evaluate((el) => el.closest('section')?.scrollIntoView({ block: 'start' }) ?? el.scrollIntoView());
      await s.wb.screenshot(join(OUT, 'engagement.png'));
    });

    it('reruns at another range from the view and matches the CLI at that range', async () => {
      const before = await text(IDS.kill);
      // A range band at which the CLI's figure differs from the one shown, so the rerun must change it.
      const pick = RANGE_BANDS.map((range) => ({ range, cli: cliSim(s.sandbox.folder, attacker, defender, ['--range', String(range)]) })).find(
        (x) => formatPercent(x.cli.volley.killProbability) !== before,
      );
      assert.ok(pick, `the kill probability is ${before} at every range band`);
      const expected = formatPercent(pick.cli.volley.killProbability);
      await view.locator(`#${IDS.range}`).selectOption(String(pick.range));
      await view.locator(`#${IDS.run}`).click();
      await poll(`the kill probability at ${pick.range}" (${expected})`, async () => (await text(IDS.kill)).includes(expected), 60_000);
      assert.ok((await text(IDS.attackerWins)).includes(formatPercent(pick.cli.engagement.attackerWins)));
      console.log(`      kill probability with every weapon firing: ${before}; at ${pick.range}": ${expected}`);
    });

    it('plays a rule variant picked in the view and shows the standard rules beside it, as the CLI does', async () => {
      const range = await view.locator(`#${IDS.range}`).inputValue();
      const cli = cliSim(s.sandbox.folder, attacker, defender, [...(range ? ['--range', range] : []), '--variant', 'morale', '--compare']);
      const summary = cli.engagement.compare?.summary[0];
      assert.ok(summary, 'the CLI gave no comparison in words');
      await view.locator('#engagement-variant-morale').check();
      assert.ok(await view.locator('#engagement-variant-compare').isChecked(), 'the standard rules are not shown beside the variant by default');
      await view.locator(`#${IDS.run}`).click();
      const section = view.locator(`#${IDS.variantSection}`);
      await poll(`the comparison to say "${summary}"`, async () => squash(await section.innerText().catch(() => '')).includes(squash(summary)), 60_000);
      assert.ok((await text(IDS.attackerWins)).includes(formatPercent(cli.engagement.attackerWins)));
      assert.match(squash(await section.innerText()), /Standard rules/);
      await section.scrollIntoViewIfNeeded();
      await s.wb.screenshot(join(OUT, 'engagement-variant.png'));
      // Back to the standard rules, as the later tests expect.
      await view.locator('#engagement-variant-morale').uncheck();
      await view.locator(`#${IDS.run}`).click();
      await poll('the comparison to go away with the variant', async () => !(await section.isVisible()), 60_000);
    });

    it('comes back after a window reload with its last result', async () => {
      const shown = await text(IDS.kill);
      // VS Code's own reload, which saves the views' state on the way out as a user's reload does.
      const reloaded = s.wb.page.waitForEvent('load', { timeout: 60_000 });
      await s.wb.runCommand('Developer: Reload Window');
      await reloaded;
      await s.wb.page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60_000 });
      view = await s.wb.frameWith(`#${IDS.kill}`, 60_000);
      await poll('the restored view to show the same kill probability', async () => (await text(IDS.kill)) === shown);
    });

    it('simulates the card of the fleet entry under the cursor as the attacker', async () => {
      const file = 'fleets/standard-1000.fleet.yaml';
      const source = readFileSync(join(s.sandbox.folder, file), 'utf8');
      const entry = /unit:\s*(Gnawing Cruiser)\s*$/m;
      await s.wb.openFile(file);
      const at = positionOf(source, entry);
      await s.wb.goTo(at.line, at.column + 2);
      await s.wb.runCommand('Fabled Star: Simulate Engagement');
      // Straight to the defender: the attacker is the entry's card.
      await s.wb.pickQuick(attacker, 'Defender for Gnawing Cruiser');
      await s.wb.page.locator(`.tabs-container .tab[aria-label*="Engagement: Gnawing Cruiser vs ${attacker}"]`).waitFor({ state: 'visible' });
      // Its figures arrive (nothing is left computing for the tests after this one), then it closes.
      const fleetView = await s.wb.frameWith(`#${IDS.attacker}:has-text("Gnawing Cruiser")`, 60_000);
      await poll("the fleet entry's engagement figures", async () => /\d/.test(await fleetView.locator(`#${IDS.kill}`).innerText()), 60_000);
      await s.wb.screenshot(join(OUT, 'engagement-from-fleet.png'));
      await s.wb.runCommand('View: Close Editor');
    });
  });

  describe('Simulate Fleet Battle', () => {
    it("battles the open fleet against one picked from the quick pick, and shows the CLI's figures from the same seed", async () => {
      const fleet = 'fleets/standard-1000.fleet.yaml';
      const vs = 'fleets/standard-1000-myr-valari.fleet.yaml';
      const cli = cliViewBattle(s.sandbox.folder, fleet, vs);
      const [a, b] = cli.sides;
      await s.wb.openFile(fleet);
      await s.wb.runCommand('Fabled Star: Simulate Fleet Battle');
      await s.wb.pickQuick(b.fleet, 'The opponent');
      await s.wb.page.locator(`.tabs-container .tab[aria-label*="Battle: ${a.fleet} vs ${b.fleet}"]`).waitFor({ state: 'visible', timeout: 120_000 });
      const view = await s.wb.frameWith(`#${BATTLE_IDS.verdict}`, 60_000);
      const text = async (id: string) => squash(await view.locator(`#${id}`).innerText());
      await poll(
        "the view to finish and show the CLI's figures",
        async () => {
          const method = await text(BATTLE_IDS.method);
          return method.startsWith(cli.trials.toLocaleString('en-US')) && !method.includes('still running');
        },
        180_000,
      );
      const outcome = await text(BATTLE_IDS.outcomeTable);
      for (const side of cli.sides) {
        assert.ok(outcome.includes(formatPercent(side.pointsVictory.p)), `${outcome} lacks ${formatPercent(side.pointsVictory.p)}`);
        assert.ok(outcome.includes(formatPercent(side.annihilation.p)), `${outcome} lacks ${formatPercent(side.annihilation.p)}`);
      }
      const points = await text(BATTLE_IDS.pointsTable);
      assert.ok(points.includes(a.pointsDestroyed.mean.toFixed(0)), points);
      assert.equal(await view.locator(`#${BATTLE_IDS.survivalCharts} canvas`).count(), 2);
      // The most battles asked for: the view stopped once every chance was sure to ±1%, and says so.
      assert.equal(await view.locator(`#${BATTLE_IDS.trials}`).inputValue(), String(cli.requestedTrials));
      assert.equal(cli.stopped, 'precision');
      assert.equal(
        await text(BATTLE_IDS.status),
        `Done: ${cli.trials.toLocaleString('en-US')} battles, enough to be sure to ${halfWidthWords(cli.precision!)} on every chance.`,
      );
      await s.wb.closePanel();
      await s.wb.screenshot(join(OUT, 'battle.png'));
    });
  });

  it('shows a rulebook section from Show Rule', async () => {
    const title = sectionTitle(WEAPON_TYPE_SECTION)!;
    await s.wb.runCommand('Fabled Star: Show Rule');
    await s.wb.pickQuick(title);
    const firstSentence = squash(section(WEAPON_TYPE_SECTION)!.rule).split(/(?<=\.)\s/)[0]!;
    // The Markdown preview is a webview too: look for the section's first sentence in any frame.
    await poll('the rule preview with the section text', async () => {
      for (const f of s.wb.page.frames()) {
        const body = await f
          .locator('body')
          .innerText({ timeout: 500 })
          .catch(() => '');
        if (squash(body).includes(firstSentence)) return true;
      }
      return false;
    });
    await s.wb.screenshot(join(OUT, 'show-rule.png'));
  });

  describe('the Fleet view', () => {
    const file = 'fleets/skirmish-500.fleet.yaml';
    const added = 'Shardlight Escort';
    const pane = () => s.wb.page.locator('.pane', { has: s.wb.page.locator('.pane-header', { hasText: /^\s*Fleet/ }) });
    const rows = async () => (await pane().locator('.monaco-list-row').allInnerTexts()).map(squash);

    it('shows the open fleet: points against the limit, entries with points and embarked units', async () => {
      const w = loadWorkspace(s.sandbox.folder);
      const doc = w.get(`file://${join(s.sandbox.folder, file)}`) as FleetDocument;
      const { total, limit } = fleetPoints(w, doc);
      await s.wb.closePanel();
      await s.wb.openFile(file);
      await s.wb.runCommand('Explorer: Focus on Fleet View');
      // Give the view the side bar, as a player building a list would: the other sections folded,
      // the side bar wide enough for names and points.
      const others = s.wb.page.locator('.part.sidebar .pane-header.expanded').filter({ hasNotText: /^\s*Fleet/ });
      for (let i = 0; i < 6 && (await others.count()) > 0; i++) await others.first().click();
      const bar = await s.wb.page.locator('.part.sidebar').boundingBox();
      if (bar && bar.width < 420) {
        await s.wb.page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
        await s.wb.page.mouse.down();
        await s.wb.page.mouse.move(bar.x + 440, bar.y + bar.height / 2, { steps: 5 });
        await s.wb.page.mouse.up();
      }
      const shown = await poll(
        `the Fleet view to show ${total} / ${limit} pts and the fleet's entries`,
        async () => {
          const r = await rows();
          return r.some((t) => t.includes(`${total} / ${limit} pts`)) &&
            r.some((t) => /Lumen Cruiser\s*250 pts · Cruiser/.test(t)) &&
            r.some((t) => t.includes('Veilwing Fighter Wing'))
            ? r
            : undefined;
        },
        60_000,
      );
      assert.equal(
        shown.filter((t) => !t.includes('embarked') && /pts · (Cruiser|Frigate|Escort|Fighter)/.test(t)).length,
        doc.units!.items.length,
        shown.join('\n'),
      );
      await pane().screenshot({ path: join(OUT, 'fleet-view-pane.png') });
      await s.wb.screenshot(join(OUT, 'fleet-view.png'));
    });

    it('goes to an entry in the YAML when it is clicked', async () => {
      const text = readFileSync(join(s.sandbox.folder, file), 'utf8');
      const at = positionOf(text, /- unit: (Prism Frigate Squadron)/);
      await pane().locator('.monaco-list-row', { hasText: 'Prism Frigate Squadron' }).first().click();
      await poll(`the cursor on line ${at.line}`, async () => (await s.wb.statusBarText()).includes(`Ln ${at.line}, Col ${at.column - 'unit: '.length}`));
    });

    it('copies the short roster line', async () => {
      await s.wb.openFile(file);
      await s.wb.runCommand('Fabled Star: Copy Roster as Text');
      await poll('the status bar to say what was copied', async () =>
        (await s.wb.statusBarText()).includes('Copied: Veil Patrol (Myr-Valari): Lumen Cruiser + Veilwing Fighter Wing 250'),
      );
    });

    it('adds a unit from the quick pick: a card the fleet fields alone gets one more copy, and the view follows', async () => {
      await s.wb.openFile(file);
      await s.wb.runCommand('Fabled Star: Add Unit…');
      await s.wb.pickQuick(added, 'Myr-Valari card');
      const editor = s.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
      // The fleet already has one Shardlight Escort: its entry gets a count, not a second entry.
      await poll('the fleet list to get a second copy', async () => squash(await editor.innerText()).includes('count: 2'));
      const w = loadWorkspace(s.sandbox.folder);
      const card = w.findCards(added)[0]!;
      const doc = w.get(`file://${join(s.sandbox.folder, file)}`) as FleetDocument;
      const { total, limit } = fleetPoints(w, doc);
      const now = total + card.card.points.value!;
      await poll(`the view to show ${now} / ${limit} pts and 2× ${added}`, async () => {
        const r = await rows();
        return (
          r.some((t) => t.includes(`${now} / ${limit} pts`)) &&
          r.some((t) => t.startsWith(`2× ${added}`) && t.includes(`${2 * card.card.points.value!} pts · Escort`)) &&
          !r.some((t) => t.startsWith(added))
        );
      });
      await s.wb.screenshot(join(OUT, 'fleet-view-added.png'));
    });

    /** Runs a row's inline action (shown on hover), as a user clicks the icon. */
    async function rowAction(label: string, nth: number, action: string): Promise<void> {
      const row = pane().locator('.monaco-list-row', { hasText: label }).nth(nth);
      await row.hover();
      await row.locator(`.action-label[aria-label="${action}"]`).click();
    }

    it('disembarks and embarks through the entries’ Remove and Embark… actions', async () => {
      await s.wb.openFile(file);
      const editor = s.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
      // The Lumen Cruiser's bay is full: take its Veilwing out (the embarked row comes right after it).
      await rowAction('Veilwing Fighter Wing', 0, 'Remove');
      await poll('the Cruiser at 190 pts', async () => (await rows()).some((t) => /Lumen Cruiser\s*190 pts · Cruiser/.test(t)));
      await rowAction('Lumen Cruiser', 0, 'Embark…');
      await s.wb.pickQuick('Veilwing Fighter Wing', 'launch bays can carry');
      await poll('the Cruiser at 250 pts again', async () => (await rows()).some((t) => /Lumen Cruiser\s*250 pts · Cruiser/.test(t)));
      // Monaco's lines are not in document order in the page: save, and read the file.
      await editor.click();
      await s.wb.page.keyboard.press('Control+S');
      // The file on disk names the unit from the start: wait for the save, which has its second copy.
      const saved = await poll('the fleet saved with the unit added and embarked again', () => {
        const t = readFileSync(join(s.sandbox.folder, file), 'utf8');
        return new RegExp(`- unit: ${added}\\n {4}count: 2\\n`).test(t) ? t : undefined;
      });
      assert.match(saved, /\n {2}- unit: Lumen Cruiser\n {4}embark:\n {6}- Veilwing Fighter Wing\n {2}- unit: Prism Frigate Squadron\n/);
      assert.deepEqual(
        cliCheck(s.sandbox.folder)
          .diagnostics.filter((d) => d.file === file && d.severity === 'error')
          .map((d) => d.code),
        ['FS-FLEET-OVER'],
        `the only error is the unit added over the limit, in:\n${saved}`,
      );
    });

    it('takes one copy off through Remove One, and the whole entry through Remove All', async () => {
      const editor = s.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
      const listed = async (label: string) => (await rows()).some((t) => t.startsWith(label));
      await rowAction(`2× ${added}`, 0, 'Remove One');
      await poll(`one ${added} left`, async () => (await listed(added)) && !(await listed(`2× ${added}`)));
      await editor.click();
      await s.wb.page.keyboard.press('Control+Z');
      await poll(`2× ${added} again`, async () => listed(`2× ${added}`));
      await rowAction(`2× ${added}`, 0, 'Remove All');
      await poll(`no ${added}`, async () => !(await listed(added)) && !(await listed(`2× ${added}`)));
      // Put it back, so the export below is of the fleet with the added unit.
      await editor.click();
      await s.wb.page.keyboard.press('Control+Z');
      await poll(`2× ${added} listed again`, async () => listed(`2× ${added}`));
    });

    it('exports the roster as printable HTML that names the new unit and says it is over the limit', async () => {
      await s.wb.openFile(file);
      await s.wb.runCommand('Fabled Star: Export Fleet Roster');
      await s.wb.pickQuick('HTML (printable)');
      // code-server's save dialog is VS Code's simple one: a path in a quick input.
      const input = s.wb.page.locator('.quick-input-widget input[type="text"]');
      await poll('the save dialog to offer skirmish-500.roster.html', async () =>
        ((await input.inputValue().catch(() => '')) ?? '').endsWith('skirmish-500.roster.html'),
      );
      await s.wb.page.keyboard.press('Enter');
      const out = join(s.sandbox.folder, 'fleets', 'skirmish-500.roster.html');
      const html = await poll('the roster file', () => (existsSync(out) ? readFileSync(out, 'utf8') : undefined));
      assert.match(html, /<h1>Veil Patrol<\/h1>/);
      assert.ok(html.includes(`<strong>${added}</strong>`), 'the added unit is not in the export');
      assert.match(html, /Not legal as written: 1 error/);
      assert.doesNotMatch(html, /<script/i);
      await poll(
        'the notification saying where the roster went',
        async () => (await s.wb.page.locator('.notification-toast', { hasText: 'Roster written to fleets/skirmish-500.roster.html' }).count()) > 0,
      );
    });
  });

  describe('when the language server crashes', () => {
    /**
     * The server processes of this installation, newest first. A reloaded window leaves its old
     * extension host (and server) alive for a while in case it reconnects, so there may be several.
     */
    function serverPids(): number[] {
      const script = join(s.extensionDir, 'dist', 'server.js');
      const started = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]);
      const pids: number[] = [];
      for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
        try {
          if (readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').includes(script)) pids.push(Number(p));
        } catch {
          // The process ended while we looked.
        }
      }
      return pids.sort((a, b) => started(b) - started(a));
    }

    /** Kills the current window's server and waits for it to be gone (and, if `restarts`, replaced). */
    async function crash(restarts: boolean): Promise<void> {
      const before = serverPids();
      assert.ok(before.length > 0, 'no language server process');
      process.kill(before[0]!, 'SIGKILL');
      if (restarts) {
        await poll('a new language server process', () => serverPids().some((p) => !before.includes(p)));
      }
    }

    async function notifications(text: string): Promise<number> {
      await s.wb.runCommand('Notifications: Show Notifications');
      const items = s.wb.page.locator('.notifications-center .notification-list-item', { hasText: text });
      return items.count();
    }

    it('restarts it, says so once, and keeps validating, even when it dies while the editor writes to it', async () => {
      await s.wb.openFile(brokenFile);
      await poll('the server to run', () => serverPids().length > 0);
      // Typing goes on as the server dies: the client's writes to the dead process fail before it
      // hears the process end, and it must still restart it (a comment at the end changes no problem).
      const editor = s.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
      await editor.click();
      await s.wb.page.keyboard.press('Control+End');
      await s.wb.page.keyboard.press('Enter');
      const typing = s.wb.page.keyboard.type('# a note typed while the server dies', { delay: 15 });
      await new Promise((r) => setTimeout(r, 150));
      await crash(true);
      await typing;
      await poll('one notification about the restart', async () => (await notifications('stopped unexpectedly and was restarted')) === 1);
      await s.wb.screenshot(join(OUT, 'crash-restarted.png'));
      await s.wb.runCommand('Notifications: Clear All Notifications');
      // The Problems panel lists errors first, so the first error is a row that is surely rendered.
      const first = diagnostics.find((d) => d.file === brokenFile && d.severity === 'error')!;
      await s.wb.runCommand('View: Focus Problems');
      await poll('the problems to be reported again by the new server', async () => {
        const texts = (await s.wb.page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map(squash);
        return texts.some((t) => t.includes(squash(first.message)));
      });
    });

    it('gives up after four crashes in three minutes and offers a restart that works', async () => {
      // One crash is already counted by the previous test.
      await crash(true);
      await crash(true);
      await crash(false);
      const message = 'will not be restarted';
      await poll('the give-up notification', async () => (await notifications(message)) === 1);
      const item = s.wb.page.locator('.notifications-center .notification-list-item', { hasText: message });
      const restartsBefore = serverPids();
      await item.getByRole('button', { name: 'Restart' }).click();
      await poll('a language server started from the notification', () => serverPids().some((p) => !restartsBefore.includes(p)));
      await poll('fleet points in the status bar again', async () => {
        await s.wb.openFile('fleets/standard-1000.fleet.yaml');
        return /\d+ \/ \d+ pts/.test(
          await s.wb.page
            .locator('[id$="fabledStar.fleetPoints"]')
            .innerText()
            .catch(() => ''),
        );
      });
    });
  });
});
