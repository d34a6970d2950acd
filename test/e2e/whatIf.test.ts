/**
 * What-if and live odds in real VS Code (code-server) with the packaged extension, as a
 * player uses them: edit a fleet without saving, run "Compare with Saved Version", pick the
 * opponent, and read the battle view's comparison (the list as it is now beside its saved text,
 * the change marked); then name an opponent in the workspace settings and watch the live odds
 * lens on the fleet, before and after an edit.
 *
 * Expected figures come from the CLI (`battle --compare-with`, `battle --trials N`) on the same
 * files and seed, never from literals.
 *
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 --reporter test/e2e/retryReporter.cjs test/e2e/whatIf.test.ts
 *   (this file alone: `--config test/e2e/.mocharc.json --spec F` adds F to the config's list, it
 *   does not replace it; FABLED_E2E_VSIX=path tests that VSIX instead of packaging one)
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { BATTLE_IDS } from '../../client/webview/battle/html';
import { IDS } from '../../client/webview/engagement/html';
import { formatPercent } from '../../client/webview/format';
import { liveOddsTitle } from '../../server/src/core/features/liveOdds';
import { poll } from './codeServer';
import { CLI, cliBattle, cliSim, cliViewBattle, loadWorkspace, ROOT } from './oracle';
import { codeServerSession, OUT } from './session';

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

describe('what-if and live odds on a fleet (code-server)', function () {
  this.retries(1);
  const s = codeServerSession({
    name: 'what-if',
    workspace: join(ROOT, 'examples'),
    prepare: (sandbox) => {
      saved = readFileSync(join(sandbox.folder, fleet), 'utf8');
      const lines = saved.split('\n');
      countLine = lines.findIndex((l) => /^\s+count: 2\s*$/.test(l)) + 1;
      assert.ok(countLine > 0, `${fleet} has no "count: 2" line to edit`);
      edited = saved.replace(/^(\s+count: )2(\s*)$/m, '$11$2');
      // The edited list for the CLI, outside the workspace (the extension must not see it as a fleet).
      editedFile = join(sandbox.root, 'edited.fleet.yaml');
      writeFileSync(editedFile, edited);
    },
    // The clipboard is the player's: Paste Roster as Fleet reads it, and a test reads an editor through it.
    clipboard: true,
  });

  // The Hunger Within (Consumed) against Lantern Watch (Myr-Valari), both bundled examples; the edit
  // takes one Maw Escort Pack out (count 2 -> 1), which keeps the list within its points.
  const fleet = 'fleets/standard-1000.fleet.yaml';
  const vs = 'fleets/standard-1000-myr-valari.fleet.yaml';
  let saved: string;
  let edited: string;
  let editedFile: string;
  let countLine: number;

  /** The active editor's rendered lines, as the player sees them. */
  const editorText = async () => squash(await s.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText());

  /** Changes the count on `countLine` from 2 to 1 in the editor, as a player does, without saving. */
  async function takeOneOut(): Promise<void> {
    await s.wb.openFile(fleet);
    const column = saved.split('\n')[countLine - 1]!.indexOf('2') + 1;
    await s.wb.goTo(countLine, column);
    await s.wb.page.keyboard.press('Shift+ArrowRight');
    await s.wb.page.keyboard.type('1');
    await poll('the edit in the editor', async () => (await editorText()).includes('count: 1'));
    await poll(`the tab of ${fleet} to show unsaved changes`, async () =>
      s.wb.page
        .locator('.tabs-container .tab.active.dirty')
        .isVisible()
        .catch(() => false),
    );
  }

  it('compares the edited fleet with its saved version in the battle view, with the CLI’s figures and the change marked', async () => {
    const cli = cliViewBattle(s.sandbox.folder, editedFile, vs, ['--compare-with', fleet]);
    const c = cli.compareFleets;
    assert.ok(c, 'the CLI gave no compareFleets');
    const [a, b] = cli.sides;
    await takeOneOut();
    await s.wb.runCommand('Fabled Star: Compare with Saved Version');
    await s.wb.pickQuick(b.fleet);
    await s.wb.page.locator(`.tabs-container .tab[aria-label*="Battle: ${a.fleet} vs ${b.fleet}"]`).waitFor({ state: 'visible', timeout: 120_000 });
    const view: Frame = await s.wb.frameWith(`#${BATTLE_IDS.fleetCompare}`, 60_000);
    const text = async (id: string) =>
      squash(
        await view
          .locator(`#${id}`)
          .innerText()
          .catch(() => ''),
      );
    await poll(
      'the view to finish both versions',
      async () => {
        const method = await text(BATTLE_IDS.method);
        const compare = await text(BATTLE_IDS.fleetCompare);
        return method.startsWith(cli.trials.toLocaleString('en-US')) && !method.includes('still running') && compare.includes('Now') ? true : undefined;
      },
      240_000,
    );
    const section = view.locator(`#${BATTLE_IDS.fleetCompare}`);
    const compare = await text(BATTLE_IDS.fleetCompare);
    assert.match(compare, /Compared with the saved version/, compare);
    // Both lists: the one in the editor ("Now") and the saved one, each with the CLI's figure.
    const headers = (await section.locator('thead th').allInnerTexts()).map(squash);
    assert.deepEqual(headers.slice(1), ['Now', 'The saved version', 'Change'], `columns: ${headers.join(' | ')}`);
    const winsRow = section.locator('tbody tr', { hasText: `${a.fleet} comes out ahead` });
    const cells = (await winsRow.locator('td').allInnerTexts()).map(squash);
    assert.equal(cells[0], formatPercent(a.pointsVictory.p), `now: ${cells.join(' | ')}`);
    assert.equal(cells[1], formatPercent(c.result.sides[0].pointsVictory.p), `saved: ${cells.join(' | ')}`);
    // Fewer escorts lose more often than the saved list: the change is marked down, beyond its error.
    assert.ok(a.pointsVictory.p < c.result.sides[0].pointsVictory.p, 'the CLI says the edit does not weaken the fleet');
    const change = winsRow.locator('td.change');
    assert.deepEqual(await change.evaluate((el) => Array.from(el.classList).sort()), ['bad', 'change', 'down'], `the change cell: ${cells[2]}`);
    // The opponent winning more is marked up, in the colour of bad news (never green).
    const theirs = section.locator('tbody tr', { hasText: `${b.fleet} comes out ahead` }).locator('td.change');
    assert.deepEqual(await theirs.evaluate((el) => Array.from(el.classList).sort()), ['bad', 'change', 'up']);
    assert.match(cells[2]!, /^−\d/, cells[2]);
    // Every change cell in words a player reads: no "+0% ± 0%", no "−<0.01%".
    const changes = (await section.locator('td.change').allInnerTexts()).map(squash);
    assert.ok(!changes.some((t) => /[+−]<|[+−]0% ± 0%/.test(t)), changes.join(' | '));
    assert.ok(
      compare.includes(`With your change: ${a.fleet} wins ${formatPercent(a.pointsVictory.p)} instead of ${formatPercent(c.result.sides[0].pointsVictory.p)}`),
      compare,
    );
    // The opponent's wins, named in the headline too when they moved beyond the noise (as the CLI's paired difference says).
    const theirWins = c.difference.sides[1]!.pointsVictory;
    if (Math.abs(theirWins.delta) > 2 * theirWins.se && Math.round(100 * b.pointsVictory.p) !== Math.round(100 * c.result.sides[1].pointsVictory.p))
      assert.ok(
        compare.includes(`; ${b.fleet} wins ${formatPercent(b.pointsVictory.p)} instead of ${formatPercent(c.result.sides[1].pointsVictory.p)}`),
        compare,
      );
    await s.wb.closePanel();
    // The choice of where the fleets stand reads whole in the panel, not "... and close i".
    const select = await view.evaluate((id: string) => {
      const el = document.getElementById(id) as HTMLSelectElement;
      const css = getComputedStyle(el);
      const probe = document.createElement('span');
      probe.style.font = css.font;
      probe.style.whiteSpace = 'pre';
      probe.style.position = 'absolute';
      probe.textContent = el.options[el.selectedIndex]!.text;
      document.body.appendChild(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      return { text, room: el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 18, option: probe.textContent };
    }, BATTLE_IDS.mode);
    assert.ok(select.text <= select.room, `"${select.option}" needs ${select.text.toFixed(0)}px in a ${select.room.toFixed(0)}px choice`);
    await view.locator(`#${BATTLE_IDS.title}`).scrollIntoViewIfNeeded();
    await s.wb.screenshot(join(OUT, 'what-if-compare-saved-top.png'));
    await section.scrollIntoViewIfNeeded();
    await s.wb.screenshot(join(OUT, 'what-if-compare-saved.png'));
    // The view does not save the list: the edit is still unsaved, the file on disk as it was.
    assert.equal(readFileSync(join(s.sandbox.folder, fleet), 'utf8'), saved);
    await s.wb.runCommand('View: Close Editor');
    await s.wb.openFile(fleet);
    await s.wb.runCommand('File: Revert File');
    await poll('the edit reverted', async () => (await editorText()).includes('count: 2'));
  });

  it('after a save, still compares the list with the version it had when it was opened, with the CLI’s figures', async () => {
    const original = join(s.sandbox.root, 'original.fleet.yaml');
    writeFileSync(original, saved);
    const cli = cliViewBattle(s.sandbox.folder, editedFile, vs, ['--compare-with', original]);
    const c = cli.compareFleets;
    assert.ok(c, 'the CLI gave no compareFleets');
    const [a, b] = cli.sides;
    await s.wb.openFile(fleet);
    await takeOneOut();
    await s.wb.runCommand('File: Save');
    await poll('the edit saved', async () => readFileSync(join(s.sandbox.folder, fleet), 'utf8') === edited);
    await s.wb.runCommand('Fabled Star: Compare with Saved Version');
    // Nothing unsaved, no git here: the version when the file was opened is the one to compare with.
    await s.wb.pickQuick(b.fleet);
    const view: Frame = await s.wb.frameWith(`#${BATTLE_IDS.fleetCompare}`, 60_000);
    const text = async (id: string) =>
      squash(
        await view
          .locator(`#${id}`)
          .innerText()
          .catch(() => ''),
      );
    await poll(
      'the view to finish both versions',
      async () => {
        const method = await text(BATTLE_IDS.method);
        const compare = await text(BATTLE_IDS.fleetCompare);
        return method.startsWith(cli.trials.toLocaleString('en-US')) && !method.includes('still running') && compare.includes('Now') ? true : undefined;
      },
      240_000,
    );
    const compare = await text(BATTLE_IDS.fleetCompare);
    assert.match(compare, /Compared with the version when you opened it/, compare);
    assert.ok(
      compare.includes(`With your change: ${a.fleet} wins ${formatPercent(a.pointsVictory.p)} instead of ${formatPercent(c.result.sides[0].pointsVictory.p)}`),
      compare,
    );
    await view.locator(`#${BATTLE_IDS.fleetCompare}`).scrollIntoViewIfNeeded();
    await s.wb.screenshot(join(OUT, 'what-if-compare-opened.png'));
    await s.wb.runCommand('View: Close All Editor Groups');
    writeFileSync(join(s.sandbox.folder, fleet), saved);
  });

  it('marks the battle view out of date when the fleet is edited and plays it again, with the CLI’s figures; a fleet that cannot fight says why', async () => {
    const before = cliViewBattle(s.sandbox.folder, fleet, vs);
    const after = cliViewBattle(s.sandbox.folder, editedFile, vs);
    const [a, b] = before.sides;
    assert.notEqual(after.sides[0].pointsVictory.p, a.pointsVictory.p, 'the edit changes the figures');
    await s.wb.openFile(fleet);
    await s.wb.runCommand('Fabled Star: Simulate Fleet Battle');
    await s.wb.pickQuick(b.fleet, 'The opponent');
    await s.wb.page.locator(`.tabs-container .tab[aria-label*="Battle: ${a.fleet} vs ${b.fleet}"]`).waitFor({ state: 'visible', timeout: 120_000 });
    const view: Frame = await s.wb.frameWith(`#${BATTLE_IDS.verdict}`, 60_000);
    const text = async (id: string) =>
      squash(
        await view
          .locator(`#${id}`)
          .innerText()
          .catch(() => ''),
      );
    const aheadCell = async () => squash(await view.locator(`#${BATTLE_IDS.outcomeTable} tbody tr`).first().locator('td').first().innerText());
    /** Waits for the view to show a finished run whose fleet comes out ahead in `p` of battles. */
    const finished = (what: string, p: number) =>
      poll(
        what,
        async () => {
          const status = await text(BATTLE_IDS.status);
          return /^Done/.test(status) && !(await view.locator(`#${BATTLE_IDS.stale}`).isVisible()) && (await aheadCell()).startsWith(formatPercent(p));
        },
        240_000,
      );
    await finished('the first run, with the CLI’s figures', a.pointsVictory.p);
    // Back to the fleet's editor (the view opened beside it), one escort out, unsaved.
    await s.wb.runCommand('View: Focus First Editor Group');
    await takeOneOut();
    const note = await poll(
      'the figures marked as the list before the edit',
      async () => {
        const t = await text(BATTLE_IDS.stale);
        return /A fleet changed/.test(t) ? t : undefined;
      },
      60_000,
      25,
    );
    assert.match(note, /they are for the lists before the edit/);
    assert.doesNotMatch(await text(BATTLE_IDS.status), /up to date/);
    await s.wb.screenshot(join(OUT, 'battle-fleet-edited-stale.png'));
    await finished('the edited list’s figures, as the CLI gives them', after.sides[0].pointsVictory.p);
    await s.wb.screenshot(join(OUT, 'battle-fleet-edited-rerun.png'));
    // Nine escorts: over the points, the fleet cannot fight; the view says so, and keeps the figures marked.
    await s.wb.goTo(countLine, saved.split('\n')[countLine - 1]!.indexOf('2') + 1);
    await s.wb.page.keyboard.press('Shift+ArrowRight');
    await s.wb.page.keyboard.type('9');
    const error = await poll(
      'the view to say the fleet cannot fight',
      async () => {
        const t = await text(BATTLE_IDS.error);
        return /cannot fight/.test(t) ? t : undefined;
      },
      60_000,
    );
    assert.match(error, new RegExp(`^The fleet "${a.fleet}" cannot fight: line \\d+: .*over its 1000 pts limit`));
    assert.match(await text(BATTLE_IDS.stale), /cannot fight as it stands now/);
    await view.locator(`#${BATTLE_IDS.title}`).scrollIntoViewIfNeeded();
    await s.wb.screenshot(join(OUT, 'battle-fleet-cannot-fight.png'));
    await s.wb.openFile(fleet);
    await s.wb.runCommand('File: Revert File');
    await poll('the edit reverted', async () => (await editorText()).includes('count: 2'));
    await finished('the saved list’s figures again', a.pointsVictory.p);
    await s.wb.runCommand('View: Close All Editor Groups');
  });

  it('shows live odds against the opponent the settings name, and plays them again after an edit', async () => {
    const trials = 2000;
    const before = cliBattle(s.sandbox.folder, fleet, vs, ['--trials', String(trials)]);
    const after = cliBattle(s.sandbox.folder, editedFile, vs, ['--trials', String(trials)]);
    const opponent = before.sides[1].fleet;
    const own = before.sides[0];
    // The lens's short title (the battle count is in its tooltip).
    const expectBefore = liveOddsTitle(opponent, { kind: 'final', ...own.pointsVictory, draw: before.draw.p, trials, requested: trials });
    const expectAfter = liveOddsTitle(opponent, { kind: 'final', ...after.sides[0].pointsVictory, draw: after.draw.p, trials, requested: trials });
    assert.notEqual(expectBefore, expectAfter, 'the edit does not change the figure: the test could not see a refresh');
    // A player names the opponent in the workspace's settings while VS Code runs.
    mkdirSync(join(s.sandbox.folder, '.vscode'), { recursive: true });
    writeFileSync(
      join(s.sandbox.folder, '.vscode', 'settings.json'),
      JSON.stringify({ 'fabledStar.liveOdds.opponent': opponent, 'fabledStar.liveOdds.trials': trials }, null, 2),
    );
    await s.wb.openFile(fleet);
    const lenses = async () => (await s.wb.page.locator('.contentWidgets .codelens-decoration').allInnerTexts()).map(squash);
    const odds = (want: string) =>
      poll(
        `the live odds lens "${want}"`,
        async () => {
          // Lenses on one line read "a | b"; a partial figure ends in "…".
          const all = (await lenses()).flatMap((t) => t.split(/\s*\|\s*/));
          return all.find((t) => t === want);
        },
        180_000,
        300,
      ).catch(async (e: unknown) => {
        throw new Error(`${String(e)}; lenses: ${JSON.stringify(await lenses())}`);
      });
    const first = await odds(expectBefore);
    assert.match(first, /wins [\d.]+% ± [\d.]+%(, draws \d+%)? vs /);
    await s.wb.screenshot(join(OUT, 'live-odds-lens.png'));
    await takeOneOut();
    const second = await odds(expectAfter);
    assert.match(second, /wins [\d.]+% ± [\d.]+%(, draws \d+%)? vs /);
    await s.wb.screenshot(join(OUT, 'live-odds-lens-after-edit.png'));
    await s.wb.runCommand('File: Revert File');
    await poll('the edit reverted', async () => (await editorText()).includes('count: 2'));
  });
  it('compares the fleet with another fleet file picked in "Compare with…", with the CLI’s figures', async () => {
    const other = 'fleets/skirmish-500.fleet.yaml';
    const mine = vs; // Lantern Watch, beside Veil Patrol, against The Hunger Within
    const cli = cliViewBattle(s.sandbox.folder, mine, fleet, ['--compare-with', other]);
    const c = cli.compareFleets;
    assert.ok(c, 'the CLI gave no compareFleets');
    const [a, b] = cli.sides;
    const otherName = c.result.sides[0].fleet;
    assert.ok(otherName && otherName !== a.fleet, `the other list's name: ${otherName}`);
    await s.wb.openFile(mine);
    await s.wb.runCommand('Fabled Star: Compare with…');
    await s.wb.pickQuick(otherName, 'A fleet list to play beside this one');
    await s.wb.pickQuick(b.fleet, 'The opponent');
    await s.wb.page.locator(`.tabs-container .tab[aria-label*="Battle: ${a.fleet} vs ${b.fleet}"]`).waitFor({ state: 'visible', timeout: 120_000 });
    const view = await s.wb.frameWith(`#${BATTLE_IDS.fleetCompare}`, 60_000);
    const section = view.locator(`#${BATTLE_IDS.fleetCompare}`);
    const compare = await poll(
      'the comparison with the other file',
      async () => {
        const method = squash(
          await view
            .locator(`#${BATTLE_IDS.method}`)
            .innerText()
            .catch(() => ''),
        );
        const t = squash(await section.innerText().catch(() => ''));
        return method.startsWith(cli.trials.toLocaleString('en-US')) && !method.includes('still running') && t.includes('This list') ? t : undefined;
      },
      240_000,
    );
    assert.match(compare, new RegExp(`Compared with "${otherName}"`), compare);
    // Another list, not a version of this one: set side by side, never read as "your change".
    assert.doesNotMatch(compare, /your change/i, compare);
    const cells = (await section.locator('tbody tr', { hasText: 'The list comes out ahead' }).locator('td').allInnerTexts()).map(squash);
    assert.equal(cells[0], formatPercent(a.pointsVictory.p), cells.join(' | '));
    assert.equal(cells[1], formatPercent(c.result.sides[0].pointsVictory.p), cells.join(' | '));
    // Another list's figures are not given this list's name.
    assert.ok(
      compare.includes(
        `This list (${a.fleet}) wins ${formatPercent(a.pointsVictory.p)}; "${otherName}" in its place wins ${formatPercent(c.result.sides[0].pointsVictory.p)}.`,
      ),
      compare,
    );
    assert.ok(!compare.includes(`${a.fleet} comes out ahead`), compare);
    await s.wb.closePanel();
    await section.scrollIntoViewIfNeeded();
    await s.wb.screenshot(join(OUT, 'what-if-compare-with.png'));
    await s.wb.runCommand('View: Close Editor');
  });

  it('pastes a list as players post it into a new fleet list, as `fabled-star import` reads it, and names the misspelt card', async () => {
    const post = [
      'Lantern Watch - Myr-Valari 1000 pts',
      '',
      '1x Radiant Court',
      'Lumen Cruiser + Veilwing Fighter Wing',
      '2 x Prism Frigate Squadron',
      '- Lumin Destroyer (135)',
      '',
      'Total: 1000',
      '',
    ].join('\n');
    const postFile = join(s.sandbox.root, 'post.txt');
    writeFileSync(postFile, post);
    let expected = '';
    try {
      expected = execFileSync(process.execPath, [CLI, 'import', postFile, '--cards', '.'], { cwd: s.sandbox.folder, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      // Exit 1: some line named no card; the fleet is still written.
      expected = String((e as { stdout?: string }).stdout ?? '');
    }
    // A typo that names one card clearly is read as it, with a note on its entry.
    assert.match(expected, /^ {2}- unit: Lumen Destroyer # import: "Lumin Destroyer" read as the closest card$/m);
    await s.wb.page.evaluate((t) => navigator.clipboard.writeText(t), post);
    await s.wb.runCommand('Fabled Star: Paste Roster as Fleet');
    const toast = s.wb.page.locator('.notification-toast', { hasText: 'into a new fleet list' }).first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    const message = squash(await toast.innerText());
    assert.match(message, /line 6: Lumin Destroyer read as Lumen Destroyer/, message);
    // The tab names the fleet's file-to-be, not the comment on its first line.
    await s.wb.page
      .locator('.editor-group-container.active .tabs-container .tab.active[aria-label*="lantern-watch.fleet.yaml"]')
      .waitFor({ state: 'visible', timeout: 30_000 });
    await poll('the new fleet list in the editor', async () => (await s.wb.statusBarText()).includes('Fabled Star Fleet List'));
    await s.wb.screenshot(join(OUT, 'paste-roster.png'));
    // The editor's text, exactly: copied out of it as a player would.
    await s.wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await s.wb.page.keyboard.press('Control+A');
    await s.wb.page.keyboard.press('Control+C');
    const text = await poll('the editor text on the clipboard', async () => {
      const t = await s.wb.page.evaluate(() => navigator.clipboard.readText());
      return t !== post ? t : undefined;
    });
    assert.equal(text.replace(/\r\n/g, '\n'), expected);
    // The new list was never saved: "Compare with Saved Version" says so, not that it has no unsaved changes.
    await s.wb.runCommand('Fabled Star: Compare with Saved Version');
    const never = s.wb.page.locator('.notification-toast', { hasText: 'Compare with' }).last();
    await never.waitFor({ state: 'visible', timeout: 30_000 });
    const said = squash(await never.innerText());
    assert.match(said, /never been saved/, said);
    assert.doesNotMatch(said, /no unsaved changes/, said);
    await s.wb.runCommand('View: Revert and Close Editor');
  });

  it('shows the chance of at least N HP lost beside the histogram, as `fabled-star sim` gives it', async () => {
    const attacker = 'Lumen Destroyer';
    const ws = loadWorkspace(s.sandbox.folder);
    const own = ws.findCards(attacker)[0];
    assert.ok(own, `no card ${attacker}`);
    const defender = ws
      .allCards()
      .filter((r) => r.faction !== own.faction)
      .map((r) => r.card.name.value!)
      .find((d) => (cliSim(s.sandbox.folder, attacker, d).volley.hullDamageAtLeast?.length ?? 0) >= 3);
    assert.ok(defender, `no enemy card that ${attacker} can deal three or more outcomes of hull damage`);
    const cli = cliSim(s.sandbox.folder, attacker, defender);
    const file = 'myr-valari/myr-valari.unit.yaml';
    const source = readFileSync(join(s.sandbox.folder, file), 'utf8');
    const line = source.split('\n').findIndex((l) => new RegExp(`name:\\s*${attacker}\\s*$`).test(l)) + 1;
    await s.wb.openFile(file);
    await s.wb.goTo(line, source.split('\n')[line - 1]!.indexOf(attacker) + 2);
    await s.wb.runCommand('Fabled Star: Simulate Engagement');
    await s.wb.pickQuick(defender, `Defender for ${attacker}`);
    const view = await s.wb.frameWith(`#${IDS.hullAtLeast}`);
    const want = (cli.volley.hullDamageAtLeast ?? []).map((p) => `${p.value} HP ${formatPercent(p.p)}`);
    const rows = await poll('the "at least" table with the CLI\u2019s rows', async () => {
      const r = (await view.locator(`#${IDS.hullAtLeast} tbody tr`).allInnerTexts()).map(squash);
      return r.length === want.length && r.every((x, i) => x === want[i]) ? r : undefined;
    }).catch(async (e: unknown) => {
      const r = (await view.locator(`#${IDS.hullAtLeast} tbody tr`).allInnerTexts()).map(squash);
      throw new Error(`${String(e)}: shown ${JSON.stringify(r)}, the CLI ${JSON.stringify(want)}`);
    });
    assert.ok(rows.length >= 3);
    assert.ok(await view.locator(`#${IDS.hullAtLeast}`).isVisible(), 'the table is hidden');
    await s.wb.closePanel();
    await view.locator(`#${IDS.hullAtLeast}`).scrollIntoViewIfNeeded();
    await s.wb.screenshot(join(OUT, 'engagement-at-least.png'));
    await s.wb.runCommand('View: Close Editor');
  });
});
