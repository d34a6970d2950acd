/**
 * The fleet battle view in headless Chromium, under the CSP VS Code applies: a real result of the
 * simulator shown as a player reads it (partial, then final), names from files shown as text, bad
 * messages ignored, the controls posting only what the host accepts, Cancel, keyboard, reload, and
 * the three themes (screenshots in test-output/webview/battle-*.png).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { BATTLE_IDS as I, renderBattleHtml } from '../../client/webview/battle/html';
import type { BattleResult } from '../../client/webview/battle/messages';
import { formatPercent } from '../../client/webview/format';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import { FleetComparisonSession } from '../../server/src/core/sim/compare';
import type { Fleet } from '../../server/src/core/sim/battle';
import type { UnitProfile } from '../../server/src/core/sim/types';
import { OUTPUT, ROOT, THEMES, viewSuite, type ViewPage, type ViewServer } from './harness';

const BUILD = join(OUTPUT, 'battle-build');

async function buildBattleView(): Promise<{ js: string; css: string }> {
  mkdirSync(BUILD, { recursive: true });
  await esbuild.build({
    entryPoints: [join(ROOT, 'client/webview/battle/main.ts')],
    outfile: join(BUILD, 'battle.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  return { js: join(BUILD, 'battle.js'), css: join(BUILD, 'battle.css') };
}

async function serveBattle(files: { js: string; css: string }): Promise<ViewServer> {
  const nonce = randomBytes(16).toString('base64');
  const requests: string[] = [];
  let html = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push(path);
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === '/') send('text/html; charset=utf-8', html);
    else if (path === '/battle.js') send('text/javascript; charset=utf-8', readFileSync(files.js));
    else if (path === '/battle.css') send('text/css; charset=utf-8', readFileSync(files.css));
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  html = renderBattleHtml(origin, nonce, `${origin}/battle.js`, `${origin}/battle.css`);
  return { origin, nonce, html, requests, close: () => new Promise((r) => server.close(() => r())) };
}

const HOSTILE = '<img src=x onerror=alert(1)>Raiders';

function unit(name: string, p: Partial<UnitProfile>): UnitProfile {
  return {
    name,
    class: 'Destroyer',
    bases: 1,
    baseMm: 60,
    bs: 5,
    hp: 6,
    sh: 2,
    armour: 6,
    combinedShields: false,
    move: [9, 6],
    weapons: [{ name: 'Gun', type: 'Energy', range: 12, damage: 2, attacks: 3 }],
    ...p,
  };
}

function fleets(): [Fleet, Fleet] {
  return [
    {
      name: 'Lantern Watch',
      faction: 'Myr-Valari',
      units: [
        { name: 'Lumen Cruiser', copy: 1, points: 190, profile: unit('Lumen Cruiser', { hp: 8, ld: { target: 5, dice: 3 } }) },
        { name: 'Lumen Destroyer', copy: 1, points: 145, profile: unit('Lumen Destroyer', {}) },
        { name: 'Lumen Destroyer', copy: 2, points: 145, profile: unit('Lumen Destroyer', {}) },
      ],
    },
    {
      name: HOSTILE,
      faction: 'Consumed',
      units: [
        { name: 'Maw <b>Cruiser</b>', copy: 1, points: 190, profile: unit('Maw Cruiser', { hp: 9, cr: { target: 5, dice: 4 } }) },
        { name: 'Maw Escort', copy: 1, points: 80, profile: unit('Maw Escort', { hp: 3 }) },
      ],
    },
  ];
}

describe('fleet battle view (Chromium)', function () {
  this.timeout(90_000);
  let final: BattleResult;
  let partial: BattleResult;

  before(() => {
    final = simulateBattle(fleets(), { trials: 4000, seed: 9 });
    partial = simulateBattle(fleets(), { trials: 200, seed: 9 });
  });
  const suite = viewSuite(
    async () => serveBattle(await buildBattleView()),
    async (v) => {
      assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view');
      assert.deepEqual(v.dialogs, [], 'the view opened a dialog');
      assert.deepEqual(await v.cspViolations(), [], 'CSP violations');
    },
  );
  const view = (theme = THEMES.dark) => suite.view(theme);

  async function show(v: ViewPage, result: BattleResult, isPartial = false): Promise<void> {
    await v.send({ type: 'result', result, partial: isPartial });
    await v.page.waitForFunction(([id, n]) => (document.getElementById(id as string)?.textContent ?? '').includes(String(n)), [
      I.method,
      result.trials.toLocaleString('en-US'),
    ] as const);
  }

  it('shows who wins, the points destroyed, survival by round and what each unit did, with names as text', async () => {
    const v = await view();
    await v.send({ type: 'busy' });
    assert.equal(await v.page.locator(`#${I.cancel}`).isVisible(), true);
    await show(v, partial, true);
    assert.match(await v.text(I.method), /200 battles .*\(still running/);
    assert.equal(await v.page.inputValue(`#${I.trials}`), '', 'a partial result does not set the number of battles asked for');
    await v.send({ type: 'progress', done: 2000, total: 4000 });
    await v.page
      .waitForFunction((id: string) => /2,000 of/.test(document.getElementById(id)!.textContent ?? ''), I.status, { timeout: 10_000 })
      .catch(() => undefined);
    assert.match(await v.text(I.status), /2,000 of at most 4,000 battles played, until every chance is sure to ±1%/);
    await show(v, final);
    assert.doesNotMatch(await v.text(I.method), /still running/);
    assert.equal(await v.page.inputValue(`#${I.trials}`), '4000');
    assert.equal(await v.text(I.fleet), 'Lantern Watch');
    assert.equal(await v.text(I.vs), HOSTILE, 'a name with HTML is shown as text');
    assert.equal(await v.page.locator('img').count(), 0);
    const [a, b] = final.sides;
    const verdict = await v.text(I.verdict);
    const lead = a.pointsVictory.p >= b.pointsVictory.p ? a : b;
    assert.ok(verdict.includes(`${lead.fleet} comes out ahead in ${formatPercent(lead.pointsVictory.p)}`), verdict);
    assert.ok(verdict.includes(formatPercent(a.annihilation.p)));
    const points = await v.text(I.pointsTable);
    assert.ok(points.includes(a.pointsDestroyed.mean.toFixed(0)) && points.includes(String(b.pointsDestroyed.p90)), points);
    const survival = await v.page.locator(`#${I.survivalTables}`).textContent();
    assert.ok(survival!.includes('Lumen Destroyer #2') && survival!.includes('Maw <b>Cruiser</b>'), survival!);
    assert.ok(survival!.includes(formatPercent(a.units[0]!.alive[5]!)));
    assert.equal(await v.page.locator(`#${I.survivalCharts} canvas`).count(), 2, 'a chart per fleet');
    const label = await v.page.locator(`#${I.survivalCharts} canvas`).first().getAttribute('aria-label');
    assert.match(label!, /Line chart of Lantern Watch's units alive by round/);
    const actions = await v.text(I.actionsTable);
    assert.ok(actions.includes(a.units[0]!.fired.toFixed(2)), actions);
    assert.equal(await v.page.locator(`#${I.cancel}`).isVisible(), false);
  });

  it('says a run until sure played fewer battles than the most asked for, and why, keeping the most in the form', async () => {
    const v = await view();
    const sure = simulateBattle(fleets(), { trials: 4000, seed: 9 });
    const stopped: BattleResult = { ...sure, trials: 2000, requestedTrials: 4000, stopped: 'precision', precision: 0.0093 };
    await v.send({ type: 'busy' });
    await show(v, stopped);
    await v.page.waitForFunction((id: string) => /^Done/.test(document.getElementById(id)!.textContent ?? ''), I.status);
    assert.equal(await v.text(I.status), 'Done: 2,000 battles, enough to be sure to ±0.9% on every chance.');
    assert.equal(await v.page.inputValue(`#${I.trials}`), '4000', 'the form keeps the most asked for, so the figures are current');
    assert.equal(await v.page.locator(`#${I.stale}`).isVisible(), false);
    assert.match(
      (await v.page.locator(`#${I.howSure}`).textContent()) ?? '',
      /within ±1% of these figures, 95 times in 100: 2,000 battles at least.*This run: 2,000 battles, sure to ±0.9%\./,
    );
    await v.send({ type: 'busy' });
    await show(v, { ...sure, requestedTrials: 4000, stopped: 'cap', precision: 0.0142 });
    await v.page.waitForFunction((id: string) => /^Done/.test(document.getElementById(id)!.textContent ?? ''), I.status);
    assert.equal(await v.text(I.status), 'Done: 4,000 battles, the most asked for: sure to ±1.4%.');
    assert.equal((await v.posted()).filter((m) => m.type === ('rerun' as string)).length, 0, 'no rerun: the figures are the options');
  });

  it('names both fleets in the heading while the first run loads, and when it fails', async () => {
    const v = await view();
    await v.send({ type: 'fleets', fleet: 'Ember Vanguard', vs: 'The <i>Hunger</i> Within' });
    await v.send({ type: 'busy' });
    await v.page.waitForFunction((id: string) => document.getElementById(id)?.textContent === 'Ember Vanguard', I.fleet);
    assert.equal(await v.text(I.title), 'Battle: Ember Vanguard vs The <i>Hunger</i> Within');
    assert.equal(await v.page.title(), 'Battle: Ember Vanguard vs The <i>Hunger</i> Within');
    await v.send({ type: 'error', message: 'The opponent\'s fleet "The Hunger Within" cannot fight: line 3: no card named "X"' });
    await v.page.waitForFunction((id: string) => !document.getElementById(id)!.hidden, I.error);
    assert.equal(await v.text(I.title), 'Battle: Ember Vanguard vs The <i>Hunger</i> Within', 'still named after a failure');
    // The refused run's options stay in the form (never empty fields), ready to run again once the list is fixed.
    assert.deepEqual(await Promise.all([I.rounds, I.trials, I.seed].map((id) => v.page.inputValue(`#${id}`))), ['6', '20000', '1']);
    assert.equal(await v.page.inputValue(`#${I.mode}`), 'approach');
    await v.page.click(`#${I.run}`);
    await v.waitForPosted('rerun');
    const rerun = (await v.posted()).find((m) => m.type === ('rerun' as string)) as unknown as { options: unknown };
    assert.deepEqual(rerun.options, { rounds: 6, trials: 20000, seed: 1 });
    mkdirSync(OUTPUT, { recursive: true });
    await v.page.screenshot({ path: join(OUTPUT, 'battle-failed-first-run.png') });
    // A result names the sides itself; a late names message does not overwrite it.
    await show(v, final);
    await v.send({ type: 'fleets', fleet: 'Other', vs: 'Names' });
    await v.send({ type: 'progress', done: 1, total: 2 });
    assert.equal(await v.text(I.fleet), 'Lantern Watch');
  });

  it('never counts fewer battles played than the figures shown already hold', async () => {
    const v = await view();
    await v.send({ type: 'busy' });
    await show(v, partial, true);
    assert.match(await v.text(I.method), /^200 battles/);
    // A progress report a little behind the partial result (the percentage is coarse): the count says 200, not 100.
    await v.send({ type: 'progress', done: 100, total: 4000 });
    await v.page.waitForFunction((id: string) => /of at most 4,000 battles played/.test(document.getElementById(id)!.textContent ?? ''), I.status);
    assert.equal(await v.text(I.status), '200 of at most 4,000 battles played, until every chance is sure to ±1%');
    await v.send({ type: 'progress', done: 2400, total: 4000 });
    await v.page.waitForFunction((id: string) => /^2,400 of at most 4,000/.test(document.getElementById(id)!.textContent ?? ''), I.status);
  });

  it('ignores malformed and foreign messages', async () => {
    const v = await view();
    await show(v, final);
    const before = await v.text(I.verdict);
    for (const bad of [
      { type: 'result', result: { ...final, sides: [final.sides[0]] }, partial: false },
      { type: 'result', result: { ...final, draw: { p: 7, se: 0 } }, partial: false },
      { type: 'result', result: final },
      { type: 'progress', done: 'x' },
      { type: 'error', message: 42 },
      'hello',
      null,
      { type: 'eval', code: 'alert(1)' },
    ])
      await v.send(bad);
    await v.send({ type: 'progress', done: 1, total: 2 });
    assert.equal(await v.text(I.verdict), before);
    assert.equal(await v.page.locator(`#${I.error}`).isVisible(), false);
  });

  it('posts a rerun only with options in bounds, from the mouse or the keyboard, and a cancel', async () => {
    const v = await view();
    await show(v, final);
    await v.page.fill(`#${I.trials}`, '0');
    await v.page.click(`#${I.run}`);
    assert.equal(await v.page.getAttribute(`#${I.trials}`, 'aria-invalid'), 'true');
    assert.equal(await v.page.locator(`#${I.error}`).isVisible(), true);
    assert.equal((await v.posted()).filter((m) => m.type === ('rerun' as string)).length, 0);
    await v.page.fill(`#${I.trials}`, '5000');
    await v.page.selectOption(`#${I.mode}`, 'fixed');
    await v.page.fill(`#${I.range}`, '9');
    await v.page.focus(`#${I.seed}`);
    // (A pause between two edits may post a run of its own: Enter and Run post at once, so the last run is theirs.)
    const lastRerun = async () => ((await v.posted()).filter((m) => m.type === ('rerun' as string)).pop() as unknown as { options: unknown }).options;
    await v.page.keyboard.press('Enter');
    await v.waitForPosted('rerun');
    assert.deepEqual(await lastRerun(), { range: 9, rounds: 6, trials: 5000, seed: 9 });
    await v.page.selectOption(`#${I.mode}`, 'approach');
    assert.equal(await v.page.isDisabled(`#${I.range}`), true);
    await v.page.click(`#${I.run}`);
    await v.waitForPosted('rerun', 2);
    assert.deepEqual(await lastRerun(), { rounds: 6, trials: 5000, seed: 9 });
    await v.send({ type: 'busy' });
    await v.page.click(`#${I.cancel}`);
    await v.waitForPosted('cancel' as never);
    await v.send({ type: 'cancelled' });
    // window.postMessage is delivered in a later task: wait for the view to take it in (read at
    // once, a loaded machine still showed "Simulating the battle…").
    await v.page
      .waitForFunction((id: string) => /^Cancelled/.test(document.getElementById(id)!.textContent ?? ''), I.status, { timeout: 10_000 })
      .catch(() => undefined);
    assert.match(await v.text(I.status), /Cancelled: showing the 4,000 battles/);
  });

  it('marks the figures out of date when a fleet is edited, says why a fleet cannot fight, and takes the new figures', async () => {
    const v = await view();
    await show(v, final);
    await v.page.waitForFunction((id: string) => /Done: 4,000 battles/.test(document.getElementById(id)!.textContent ?? ''), I.status);
    const note = v.page.locator(`#${I.stale}`);
    const dimmed = () => v.page.evaluate((id: string) => document.getElementById(id)!.classList.contains('stale'), I.results);
    const settled = (id: string, re: RegExp) =>
      v.page
        .waitForFunction(([el, src]) => new RegExp(src as string).test(document.getElementById(el as string)!.textContent ?? ''), [id, re.source] as const, {
          timeout: 10_000,
        })
        .catch(() => undefined);
    // The host saw an edit that changes the battle: the figures say they are the old lists', then the run begins.
    await v.send({ type: 'fleetsEdited' });
    await settled(I.stale, /A fleet changed/);
    assert.match(await v.text(I.stale), /A fleet changed since these figures: they are for the lists before the edit\. New figures follow/);
    assert.equal(await dimmed(), true);
    assert.doesNotMatch(await v.text(I.status), /Done|up to date/);
    await v.send({ type: 'busy' });
    await settled(I.status, /Simulating/);
    assert.match(await v.text(I.stale), /A fleet changed/, 'the run keeps saying why the figures are old');
    // Editing the options meanwhile never says "up to date" over the old lists' figures.
    await v.page.fill(`#${I.seed}`, '9');
    assert.doesNotMatch(await v.text(I.status), /up to date/);
    // Edited again, over its points: the run stops, the fleet's sentence is shown, the figures stay marked.
    const sentence = 'The fleet "Lantern Watch" cannot fight: line 4: The fleet costs 1230 pts, 230 over its 1000 pts limit';
    await v.send({ type: 'cannotFight', message: sentence });
    await settled(I.error, /cannot fight/);
    assert.equal(await v.text(I.error), sentence);
    assert.equal(await v.page.locator(`#${I.error}`).isVisible(), true);
    assert.match(await v.text(I.stale), /cannot fight as it stands now .* the figures below are for the lists before the edit/);
    assert.equal(await v.page.locator(`#${I.cancel}`).isVisible(), false, 'no run goes on');
    assert.doesNotMatch(await v.text(I.status), /Simulating|up to date|Done/);
    assert.equal(await dimmed(), true);
    await v.page.screenshot({ path: join(OUTPUT, 'battle-fleet-cannot-fight.png') });
    await v.page.fill(`#${I.seed}`, '9');
    assert.doesNotMatch(await v.text(I.status), /up to date/, 'options as played, the lists not');
    // The edit undone: the figures are the lists' again.
    await v.send({ type: 'fleetsCurrent' });
    await settled(I.status, /up to date/);
    assert.equal(await note.isVisible(), false);
    assert.equal(await v.page.locator(`#${I.error}`).isVisible(), false);
    assert.match(await v.text(I.status), /Figures up to date with the fleets and the options/);
    // Fixed otherwise: the host reruns, and the new lists' figures replace the marked ones.
    await v.send({ type: 'fleetsEdited' });
    await v.send({ type: 'busy' });
    // The same options, one Lumen Destroyer fewer.
    const [mine, theirs] = fleets();
    const edited = simulateBattle([{ ...mine, units: mine.units.slice(0, 2) }, theirs], { trials: 4000, seed: 9 });
    await v.send({ type: 'result', result: edited, partial: false });
    await settled(I.status, /Done/);
    assert.equal(await note.isVisible(), false);
    assert.equal(await dimmed(), false);
    assert.match(await v.text(I.status), /Done: 4,000 battles/);
    const units = (await v.page.locator(`#${I.actionsTable}`).textContent()) ?? '';
    assert.ok(units.includes('Lumen Destroyer') && !units.includes('Lumen Destroyer #2'), `the new lists\u2019 figures: ${units}`);
    await v.page.screenshot({ path: join(OUTPUT, 'battle-fleet-rerun.png') });
  });

  it('marks the figures stale as soon as an option changes, and plays the new options after a pause, as the engagement view does', async () => {
    const v = await view();
    await show(v, final);
    await v.page.waitForFunction((id: string) => /Done: 4,000 battles/.test(document.getElementById(id)!.textContent ?? ''), I.status);
    const note = v.page.locator(`#${I.stale}`);
    const dimmed = () => v.page.evaluate((id: string) => document.getElementById(id)!.classList.contains('stale'), I.results);
    const reruns = async () => (await v.posted()).filter((m) => m.type === ('rerun' as string)) as unknown as { options: unknown }[];
    // A seed typed and typed back before the pause: marked meanwhile, then up to date again, nothing run.
    await v.page.fill(`#${I.seed}`, '10');
    assert.match(await v.text(I.stale), /Options changed: the figures below are still for the previous options\. New figures follow/);
    assert.equal(await dimmed(), true);
    assert.doesNotMatch(await v.text(I.status), /Done/, 'no "Done" under options the figures were not played with');
    await v.page.fill(`#${I.seed}`, '9');
    assert.equal(await note.isVisible(), false);
    assert.equal(await dimmed(), false);
    await new Promise((r) => setTimeout(r, 900));
    assert.equal((await reruns()).length, 0, "the options are the figures' again: nothing to run");
    // A new seed: run after the pause, with every option the form shows.
    await v.page.fill(`#${I.seed}`, '10');
    await v.waitForPosted('rerun');
    assert.deepEqual((await reruns())[0]!.options, { rounds: 6, trials: 4000, seed: 10 });
    await v.send({ type: 'busy' });
    await v.page
      .waitForFunction((id: string) => /new ones follow/.test(document.getElementById(id)!.textContent ?? ''), I.stale, { timeout: 10_000 })
      .catch(() => undefined);
    assert.match(await v.text(I.stale), /new ones follow/);
    const reseeded = simulateBattle(fleets(), { trials: 4000, seed: 10 });
    await v.send({ type: 'result', result: reseeded, partial: false });
    await v.page.waitForFunction((id: string) => /seed 10/.test(document.getElementById(id)!.textContent ?? ''), I.method);
    assert.equal(await note.isVisible(), false);
    assert.match(await v.text(I.status), /Done: 4,000 battles/);
    // A fixed range and a variant ticked: the same.
    await v.page.selectOption(`#${I.mode}`, 'fixed');
    assert.equal(await dimmed(), true);
    await v.page.check('#battle-variant-morale');
    await v.waitForPosted('rerun', 2);
    const second = (await reruns())[1]!.options as { range?: number; variants?: string[] };
    assert.equal(second.range, 12);
    assert.deepEqual(second.variants, [{ name: 'morale', parameters: {} }]);
    // Edited again while that run goes on: its figures, once they come, are marked as not the form's.
    await v.send({ type: 'busy' });
    await v.page.fill(`#${I.seed}`, '11');
    await v.send({ type: 'result', result: simulateBattle(fleets(), { trials: 400, seed: 10, range: 12 }), partial: false });
    await v.page.waitForFunction((id: string) => /400 battles/.test(document.getElementById(id)!.textContent ?? ''), I.method);
    assert.match(await v.text(I.stale), /Options changed/);
    mkdirSync(OUTPUT, { recursive: true });
    await v.page.screenshot({ path: join(OUTPUT, 'battle-options-changed.png'), fullPage: true });
    await v.waitForPosted('rerun', 3);
  });

  it('shows the last result again after a reload, before the host answers', async () => {
    const v = await view();
    await show(v, final);
    await v.page.reload();
    await v.page.waitForFunction((id) => (document.getElementById(id)?.textContent ?? '').length > 0, I.verdict);
    assert.equal(await v.text(I.fleet), 'Lantern Watch');
  });

  it('fits a narrow editor panel without scrolling sideways', async () => {
    const v = await view();
    await v.page.setViewportSize({ width: 520, height: 900 });
    await show(v, final);
    // Once the charts have sized themselves to the panel (Chart.js does it on the next frames).
    await v.page
      .waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth, undefined, { timeout: 5000 })
      .catch(() => undefined);
    const widths = await v.page.evaluate(() => {
      const wide = Array.from(document.querySelectorAll<HTMLElement>('body *'))
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`);
      return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, wide: wide.slice(0, 8) };
    });
    assert.ok(widths.scroll <= widths.client, `page ${widths.scroll}px wide in a ${widths.client}px panel: ${widths.wide.join(', ')}`);
    // The choice of where the fleets stand reads whole, not "Enter from the table edges and close i".
    const select = await v.page.evaluate((id: string) => {
      const el = document.getElementById(id) as HTMLSelectElement;
      const probe = document.createElement('span');
      const css = getComputedStyle(el);
      probe.style.font = css.font;
      probe.style.whiteSpace = 'pre';
      probe.style.position = 'absolute';
      probe.textContent = el.options[el.selectedIndex]!.text;
      document.body.appendChild(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      const room = el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 18; // the arrow
      return { text, room, option: probe.textContent };
    }, I.mode);
    assert.ok(select.text <= select.room, `"${select.option}" needs ${select.text.toFixed(0)}px in a ${select.room.toFixed(0)}px choice`);
    mkdirSync(OUTPUT, { recursive: true });
    await v.page.screenshot({ path: join(OUTPUT, 'battle-narrow.png'), fullPage: true });
  });

  for (const theme of [THEMES.light, THEMES.dark, THEMES.highContrast])
    it(`draws in the ${theme.name} theme`, async () => {
      const v = await view(theme);
      await show(v, final);
      const color = await v.page.evaluate(() => getComputedStyle(document.body).color);
      assert.ok(color.length > 0);
      mkdirSync(OUTPUT, { recursive: true });
      await v.page.screenshot({ path: join(OUTPUT, `battle-${theme.name}.png`), fullPage: true });
    });
});

describe('fleet battle view: rule variants (Chromium)', function () {
  this.timeout(90_000);
  let compared: BattleResult;

  before(() => {
    compared = simulateBattle(fleets(), { trials: 3000, seed: 9, variants: ['morale', 'break-tests'], compare: true });
  });
  const suite = viewSuite(
    async () => serveBattle(await buildBattleView()),
    async (v) => {
      assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view');
      assert.deepEqual(await v.cspViolations(), [], 'CSP violations');
    },
  );

  it('shows the variants beside the standard rules with the differences highlighted, names as text', async () => {
    const v = await suite.view(THEMES.dark);
    await v.send({ type: 'result', result: compared, partial: false });
    await v.page.waitForSelector(`#${I.variantSection}:not([hidden])`);
    const section = await v.text(I.variantSection);
    assert.match(section, /With break tests and morale/);
    assert.ok(section.includes(compared.compare!.summary[0]!), section);
    assert.ok(section.includes(HOSTILE), 'the hostile fleet name is shown as text');
    assert.equal(await v.page.locator('img').count(), 0);
    const a = compared.sides[0];
    const s = compared.compare!.standard.sides[0];
    assert.ok(section.includes(formatPercent(a.pointsVictory.p)) && section.includes(formatPercent(s.pointsVictory.p)), section);
    // Morale always has a winner: the draw falls to 0, a change well beyond the noise.
    const changes = await v.page.locator(`#${I.variantSection} td.change`).evaluateAll((cells) => cells.map((c) => c.className));
    assert.ok(
      changes.some((c) => /\b(up|down)\b/.test(c)),
      changes.join(' '),
    );
    assert.equal(await v.page.isChecked('#battle-variant-morale'), true, 'the picker shows the rules of the result');
    assert.equal(await v.page.isChecked('#battle-variant-break-tests'), true);
    assert.equal(await v.page.isChecked('#battle-variant-compare'), true);
    const details = await v.page.locator(`#${I.variantSection} details`).textContent();
    assert.match(details!, /Morale: the battle lasts 3 rounds/);
    // Units that fled are shown apart from those destroyed, and morale's win apart from points.
    const fled = compared.sides[1].units[0]!;
    assert.ok(fled.routed!.at(-1)! > 0, 'the example has a unit that flees');
    const survival = (await v.page.locator(`#${I.survivalTables}`).textContent())!;
    assert.ok(survival.includes(`(fled ${formatPercent(fled.routed![2]!)})`), survival);
    const actions = await v.text(I.actionsTable);
    assert.match(actions, /Fled \(intact\)\s*Destroyed/);
    const alive = fled.alive[2]!;
    assert.ok(actions.includes(formatPercent(Math.max(0, 1 - alive - fled.routed![2]!))), actions);
    const outcome = await v.text(I.outcomeTable);
    assert.match(outcome, /Wins on morale/);
    assert.ok(outcome.includes(formatPercent(compared.sides[0].variantVictory!.p)), outcome);
    assert.match(await v.text(I.verdict), /wins on morale in .*comes out ahead in .*fled are off the table intact/);
    const label = await v.page.locator(`#${I.survivalCharts} canvas`).last().getAttribute('aria-label');
    assert.match(label!, /fled intact/);
    mkdirSync(OUTPUT, { recursive: true });
    await v.page.screenshot({ path: join(OUTPUT, 'battle-variants.png'), fullPage: true });
  });

  it('says "destroyed or routed" where units flee, with each apart, one name for destroying the whole fleet, and why two figures are the same', async () => {
    const v = await suite.view(THEMES.dark);
    await v.send({ type: 'result', result: compared, partial: false });
    await v.page.waitForSelector(`#${I.variantSection}:not([hidden])`);
    assert.equal(await v.text(I.pointsHeading), 'Points destroyed or routed');
    const heads = await v.page.locator(`#${I.pointsTable} thead th`).allTextContents();
    assert.deepEqual(heads.slice(0, 4), ['Fleet', 'Destroys or routs on average', 'Of which destroyed', 'Of which routed']);
    // Each apart, from the other fleet's units: its points times its chance to end destroyed, or fled.
    const [a, b] = compared.sides;
    const lost = (how: 'destroyed' | 'routed') =>
      b.units.reduce((t, u) => {
        const fled = u.routed!.at(-1)!;
        return t + u.points * (how === 'routed' ? fled : Math.max(0, 1 - u.alive.at(-1)! - fled));
      }, 0);
    const row = (await v.page.locator(`#${I.pointsTable} tbody tr`).first().locator('th, td').allTextContents()).map((x) => x.trim());
    assert.deepEqual(row.slice(0, 4), [a.fleet, a.pointsDestroyed.mean.toFixed(0), lost('destroyed').toFixed(0), lost('routed').toFixed(0)]);
    assert.ok(Math.abs(lost('destroyed') + lost('routed') - a.pointsDestroyed.mean) < 1, 'destroyed and routed add up to the points lost');
    assert.match(await v.text(I.verdict), /more points destroyed or routed when the battle ends/);
    // Destroying the whole other fleet has one name in the whole view.
    const all = (await v.page.locator('#app').textContent()) ?? '';
    assert.doesNotMatch(all, /wipes out|sweeps the/);
    assert.match(all, /destroys the whole other fleet/);
    // A fleet that destroys everything in most battles: its typical and good battles are the same, and the view says why.
    const sweep: BattleResult = {
      ...compared,
      sides: [
        { ...a, pointsDestroyed: { mean: 250, p10: 80, p50: b.points, p90: b.points } },
        { ...b, pointsDestroyed: { mean: 100, p10: 10, p50: 90, p90: 200 } },
      ],
    };
    await v.send({ type: 'result', result: sweep, partial: false });
    await v.page.waitForFunction((id: string) => /whole unit at a time/.test(document.getElementById(id)!.textContent ?? ''), I.pointsSteps);
    assert.equal(
      await v.text(I.pointsSteps),
      `Points fall a whole unit at a time, so many battles end on the same points. ${a.fleet} destroys or routs all ${b.points} points in at least half of the battles, so its typical and good battles are the same.`,
    );
    await v.page.locator(`#${I.pointsTable}`).scrollIntoViewIfNeeded();
    await v.page.screenshot({ path: join(OUTPUT, 'battle-points-routed.png') });
    await v.send({
      type: 'result',
      result: {
        ...compared,
        sides: [
          { ...a, pointsDestroyed: { mean: 100, p10: 10, p50: 90, p90: 200 } },
          { ...b, pointsDestroyed: { mean: 100, p10: 10, p50: 90, p90: 200 } },
        ],
      },
      partial: false,
    });
    await v.page.waitForFunction((id: string) => (document.getElementById(id)!.textContent ?? '') === '', I.pointsSteps);
  });

  it('posts the picked variants with a rerun, and refuses a conflicting pair with a message', async () => {
    const v = await suite.view(THEMES.light);
    await v.send({ type: 'result', result: compared, partial: false });
    await v.page.waitForSelector(`#${I.variantSection}:not([hidden])`);
    await v.page.check('#battle-variant-retreat');
    await v.page.click(`#${I.run}`);
    // Said once, under the boxes, with what to do; not again above the form.
    assert.match(
      await v.page.locator(`#${I.variants} .variant-note`).innerText(),
      /^(Retreat and morale|Morale and retreat) cannot be played together: untick one of them\./,
    );
    assert.equal(await v.page.locator(`#${I.error}`).isVisible(), false);
    assert.equal(await v.page.getAttribute('#battle-variant-retreat', 'aria-invalid'), 'true');
    assert.equal((await v.posted()).filter((m) => m.type === ('rerun' as string)).length, 0);
    await v.page.uncheck('#battle-variant-morale');
    await v.page.uncheck('#battle-variant-compare');
    await v.page.click(`#${I.run}`);
    const rerun = (await v.waitForPosted('rerun')) as unknown as { options: Record<string, unknown> };
    assert.deepEqual(
      rerun.options['variants'],
      [
        { name: 'break-tests', parameters: {} },
        { name: 'retreat', parameters: { threshold: 0.5 } },
      ],
      'retreat with its threshold (the default)',
    );
    assert.equal(rerun.options['compare'], undefined);
    await v.page.uncheck('#battle-variant-retreat');
    await v.page.uncheck('#battle-variant-break-tests');
    await v.page.click(`#${I.run}`);
    const plain = (await v.waitForPosted('rerun', 2)) as unknown as { options: Record<string, unknown> };
    assert.equal(plain.options['variants'], undefined, 'no variant: the standard rules');
  });

  it("sets retreat's threshold in its own field, refuses one out of bounds, and shows a result's own", async () => {
    const v = await suite.view(THEMES.light);
    const threshold = '#battle-variant-retreat-threshold';
    const played = simulateBattle(fleets(), { trials: 400, seed: 9, variants: ['retreat:threshold=0.3'] });
    await v.send({ type: 'result', result: played, partial: false });
    await v.page.waitForFunction((id: string) => !document.getElementById(id)!.hidden, I.results);
    assert.equal(await v.page.isChecked('#battle-variant-retreat'), true);
    assert.equal(await v.page.inputValue(threshold), '0.3', "the result's own threshold");
    assert.equal(await v.page.isEnabled(threshold), true);
    await v.page.fill(threshold, '1.5');
    await v.page.click(`#${I.run}`);
    assert.match(await v.page.locator(`#${I.variants} .variant-note`).innerText(), /With retreat, the threshold is the share .* \(0\.01 to 1\)/);
    assert.equal(await v.page.getAttribute(threshold, 'aria-invalid'), 'true');
    assert.equal((await v.posted()).filter((m) => m.type === ('rerun' as string)).length, 0);
    await v.page.fill(threshold, '0.75');
    await v.page.click(`#${I.run}`);
    const rerun = (await v.waitForPosted('rerun')) as unknown as { options: Record<string, unknown> };
    assert.deepEqual(rerun.options['variants'], [{ name: 'retreat', parameters: { threshold: 0.75 } }]);
    // Not picked: its field is off.
    await v.page.uncheck('#battle-variant-retreat');
    assert.equal(await v.page.isEnabled(threshold), false);
  });

  it('under morale shows the Rounds field at its 3 rounds, locked, and the figures as current', async () => {
    const v = await suite.view(THEMES.dark);
    await v.send({ type: 'result', result: compared, partial: false });
    await v.page.waitForSelector(`#${I.variantSection}:not([hidden])`);
    assert.equal(await v.page.inputValue(`#${I.rounds}`), '3');
    assert.equal(await v.page.isDisabled(`#${I.rounds}`), true);
    assert.equal(await v.page.locator(`#${I.rounds}-fixed`).innerText(), '(morale: 3)');
    assert.equal(await v.page.locator(`#${I.stale}`).isVisible(), false);
    assert.doesNotMatch(await v.page.locator('body').innerText(), /--rounds/);
    // Unticked: the field is the user's again, and the run asks for the standard rules.
    await v.page.uncheck('#battle-variant-morale');
    assert.equal(await v.page.isDisabled(`#${I.rounds}`), false);
    const rerun = (await v.waitForPosted('rerun')) as unknown as { options: { rounds: number; variants?: string[] } };
    assert.deepEqual(rerun.options.variants, [{ name: 'break-tests', parameters: {} }]);
    assert.equal(rerun.options.rounds, 6, 'the rounds asked for (the default), not the 3 morale played');
  });

  it('shows every column of its tables at half and at narrow widths, and the chart legends below the charts', async () => {
    const v = await suite.view(THEMES.dark);
    for (const width of [1100, 700, 520, 440]) {
      await v.page.setViewportSize({ width, height: 900 });
      await v.send({ type: 'result', result: compared, partial: false });
      await v.page.waitForSelector(`#${I.variantSection}:not([hidden])`);
      await v.page.waitForTimeout(200);
      const clipped = await v.page.evaluate(() => {
        const out: string[] = [];
        const view = document.documentElement.clientWidth;
        for (const cell of Array.from(document.querySelectorAll('table th, table td'))) {
          const r = cell.getBoundingClientRect();
          if (r.width === 0) continue; // in a closed <details>
          let box: HTMLElement | null = cell.parentElement;
          while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
          const limit = box ? box.getBoundingClientRect() : { left: 0, right: view };
          if (r.right > Math.min(view, limit.right) + 1 || r.left < Math.max(0, limit.left) - 1)
            out.push(`${cell.textContent} (${Math.round(r.left)}-${Math.round(r.right)})`);
        }
        return out;
      });
      assert.deepEqual(clipped, [], `at ${width}px`);
      await v.page.screenshot({ path: join(OUTPUT, `battle-variants-${width}.png`), fullPage: true });
    }
  });

  it('says the figures shown are from the previous run when a new run is refused or fails, until new figures come', async () => {
    const v = await suite.view(THEMES.light);
    const show = async () => {
      await v.send({ type: 'result', result: compared, partial: false });
      await v.page.waitForSelector(`#${I.variantSection}:not([hidden])`);
    };
    await show();
    const note = v.page.locator(`#${I.stale}`);
    const dimmed = () => v.page.evaluate((id: string) => document.getElementById(id)!.classList.contains('stale'), I.results);
    assert.equal(await note.isVisible(), false);
    assert.equal(await dimmed(), false);
    // A pair of variants the picker refuses (retreat beside the result's morale): no run, and the old figures are marked.
    await v.page.check('#battle-variant-retreat');
    await v.page.click(`#${I.run}`);
    assert.match(await v.text(I.stale), /still from the previous run: fix the options above/);
    assert.equal(await dimmed(), true);
    // Fixing the options takes the refusal away at once; the figures are still the old options' (a new run follows).
    await v.page.uncheck('#battle-variant-morale');
    assert.match(await v.text(I.stale), /Options changed: the figures below are still for the previous options/, 'no "fix the options" note');
    assert.equal(await dimmed(), true);
    // The same for a field out of bounds: refused above the form, and gone once it is fixed.
    await v.page.fill(`#${I.rounds}`, '0');
    await v.page.click(`#${I.run}`);
    assert.match(await v.text(I.error), /Check the highlighted fields/);
    await v.page.fill(`#${I.rounds}`, '3');
    assert.equal(await v.page.locator(`#${I.error}`).isVisible(), false, 'the refusal goes once the field is fixed');
    // A run that is sent; once it is under way the figures are again the previous run's.
    await v.page.click(`#${I.run}`);
    await v.waitForPosted('rerun');
    assert.equal(await note.isVisible(), false, 'a run that was sent clears the note');
    assert.equal((await v.posted()).filter((m) => m.type === ('rerun' as string)).length, 1, 'Run sends it at once, no second run after the pause');
    await v.send({ type: 'busy' });
    await v.page.waitForFunction((id: string) => !document.getElementById(id)!.hidden, I.stale);
    assert.match(await v.text(I.stale), /new ones follow/);
    // Both runs' battles are counted, and the count says so.
    await v.send({ type: 'progress', done: 500, total: 6000 });
    await v.page.waitForFunction(
      (id: string) =>
        /500 of at most 6,000 battles played: with the rules above until every chance is sure to ±1%, then as many under the standard rules/.test(
          document.getElementById(id)!.textContent ?? '',
        ),
      I.status,
    );
    // A first partial result, the standard rules not played yet: no "tick the box" while it is ticked.
    await v.send({ type: 'result', result: { ...compared, compare: undefined }, partial: true });
    await v.page.waitForFunction((id: string) => /The standard rules are played next/.test(document.getElementById(id)!.textContent ?? ''), I.variantSection);
    assert.doesNotMatch(await v.text(I.variantSection), /Tick "Show the standard rules/);
    // The host cannot play it: still marked, and saying why.
    await v.send({ type: 'error', message: 'The battle could not be played: <b>no</b> unit can fire.' });
    await v.page.waitForFunction((id: string) => /could not be played \(see the message above\)/.test(document.getElementById(id)!.textContent ?? ''), I.stale);
    assert.equal(await dimmed(), true);
    mkdirSync(OUTPUT, { recursive: true });
    await v.page.screenshot({ path: join(OUTPUT, 'battle-stale.png'), fullPage: true });
    // New figures: the "previous run" note goes; these are the earlier options' (morale), not the form's, and say so.
    await show();
    assert.match(await v.text(I.stale), /Options changed/);
    // The form set back to the figures' options: nothing stale.
    await v.page.uncheck('#battle-variant-retreat');
    await v.page.check('#battle-variant-morale');
    // (Morale locks the Rounds field at its 3 rounds: the 3 typed above are what it plays anyway.)
    assert.equal(await v.page.isDisabled(`#${I.rounds}`), true);
    assert.equal(await note.isVisible(), false);
    assert.equal(await dimmed(), false);
  });
});

describe('fleet battle view: what-if beside another version of the list (Chromium)', function () {
  this.timeout(90_000);
  let edited: BattleResult;
  let unchanged: BattleResult;

  before(() => {
    // The list as it is now (two destroyers) beside the saved version, which had a third.
    const [now, vs] = fleets();
    const saved: Fleet = { ...now, units: [...now.units, { ...now.units[1]!, copy: 3 }] };
    const play = (other: Fleet) => {
      const s = new FleetComparisonSession({ fleets: [now, vs], options: { trials: 3000, seed: 9 } }, { fleet: other });
      s.step();
      return s.result();
    };
    edited = play(saved);
    unchanged = play(now);
  });
  const suite = viewSuite(
    async () => serveBattle(await buildBattleView()),
    async (v) => {
      assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view');
      assert.deepEqual(await v.cspViolations(), [], 'CSP violations');
    },
  );

  it('shows the list beside the saved version, the change read as the edit made and marked by its paired error, names as text', async () => {
    const v = await suite.view(THEMES.dark);
    await v.send({ type: 'compareWith', label: 'the saved version' });
    await v.send({ type: 'result', result: { ...edited, compareFleets: undefined }, partial: true });
    await v.page.waitForFunction((id: string) => /The saved version is played next/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    await v.send({ type: 'result', result: edited, partial: false });
    await v.page.waitForFunction((id: string) => /With your change/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    const section = await v.text(I.fleetCompare);
    assert.match(section, /Compared with the saved version/);
    const now = edited.sides[0].pointsVictory.p;
    const then = edited.compareFleets!.result.sides[0].pointsVictory.p;
    assert.ok(now < then, 'dropping a destroyer loses battles');
    const theirs = [edited.sides[1].pointsVictory.p, edited.compareFleets!.result.sides[1].pointsVictory.p] as const;
    assert.ok(
      section.includes(
        `With your change: Lantern Watch wins ${formatPercent(now)} instead of ${formatPercent(then)}; ${HOSTILE} wins ${formatPercent(theirs[0])} instead of ${formatPercent(theirs[1])}.`,
      ),
      section,
    );
    assert.ok(section.includes(HOSTILE), 'the hostile fleet name is shown as text');
    // Player words in the sentence: no "battle i", no standard errors (those are under Advanced).
    const summary = (await v.page.locator(`#${I.fleetCompare} .compare-summary`).textContent()) ?? '';
    assert.doesNotMatch(summary, /battle i\b|standard error/, summary);
    assert.match(summary, /same dice, battle for battle/);
    const advanced = await v.page.locator(`#${I.fleetCompare} details.advanced`).textContent();
    assert.match(advanced ?? '', /paired standard error/);
    assert.equal(await v.page.locator('img').count(), 0);
    const cells = await v.page.locator(`#${I.fleetCompare} td.change`).evaluateAll((cs) => cs.map((c) => [c.className, c.textContent]));
    // The first row is the fleet's wins: down, by the paired difference turned round, with its error.
    const d = edited.compareFleets!.difference.sides[0]!.pointsVictory;
    assert.equal(cells[0]![0], 'change down bad');
    assert.equal(cells[0]![1], `\u2212${formatPercent(d.delta)} \u00b1 ${formatPercent(d.se)}`);
    // The opponent winning more is bad news for the player: marked up, but in the colour of a loss
    // (green for the opponent's gain read as "good" beside the fleet's own red drop).
    const opponentWins = await v.page
      .locator(`#${I.fleetCompare} tbody tr`, { hasText: `${edited.sides[1].fleet} comes out ahead` })
      .locator('td.change')
      .evaluate((c) => [c.className, getComputedStyle(c).color]);
    assert.equal(opponentWins[0], 'change up bad', 'the opponent wins more');
    const ownColour = await v.page
      .locator(`#${I.fleetCompare} td.change`)
      .first()
      .evaluate((c) => getComputedStyle(c).color);
    assert.equal(opponentWins[1], ownColour, 'the opponent\u2019s gain is coloured as the fleet\u2019s own loss');
    mkdirSync(OUTPUT, { recursive: true });
    await v.page.screenshot({ path: join(OUTPUT, 'battle-what-if.png'), fullPage: true });
  });

  it('shows the comparison first: above the options form, in a narrow panel too', async () => {
    const v = await suite.view(THEMES.dark);
    await v.page.setViewportSize({ width: 420, height: 900 });
    await v.send({ type: 'compareWith', label: 'the saved version' });
    await v.send({ type: 'result', result: edited, partial: false });
    await v.page.waitForFunction((id: string) => /With your change/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    const order = await v.page.evaluate(
      ([compare, form]) => {
        const c = document.getElementById(compare)!;
        const f = document.getElementById(form)!;
        return {
          before: Boolean(c.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING),
          compareBottom: c.getBoundingClientRect().bottom,
          formTop: f.getBoundingClientRect().top,
        };
      },
      [I.fleetCompare, I.form] as const,
    );
    assert.ok(order.before, 'the comparison comes before the options form');
    assert.ok(order.compareBottom <= order.formTop, `the comparison (bottom ${order.compareBottom}) is above the form (top ${order.formTop})`);
    // Once an option changes, the comparison is dimmed as out of date, as the figures under the form are.
    const seed = await v.page.inputValue(`#${I.seed}`);
    await v.page.fill(`#${I.seed}`, String(Number(seed) + 1));
    assert.equal(await v.page.evaluate((id: string) => document.getElementById(id)!.classList.contains('stale'), I.answers), true);
    assert.equal(await v.page.evaluate((id: string) => getComputedStyle(document.getElementById(id)!).opacity, I.fleetCompare), '0.55');
  });

  it('writes a change too small to show in hundredths of a percent as within the noise, without "−<0.01%"', async () => {
    const v = await suite.view(THEMES.dark);
    // A sweep that got a hair more likely (as a real run shows it: 0% beside <0.01%).
    const c = edited.compareFleets!;
    const sides = c.difference.sides.map((d, i) => (i === 0 ? { ...d, annihilation: { delta: 0.00005, se: 0.00005 } } : d));
    const tiny: BattleResult = { ...edited, compareFleets: { ...c, difference: { ...c.difference, sides } } };
    await v.send({ type: 'compareWith', label: 'the saved version' });
    await v.send({ type: 'result', result: tiny, partial: false });
    await v.page.waitForFunction((id: string) => /With your change/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    const row = v.page.locator(`#${I.fleetCompare} tbody tr`, { hasText: 'destroys the whole other fleet' }).first();
    const cell = await row.locator('td.change').textContent();
    assert.equal(cell, 'within the noise (under 0.01%)');
    const all = (await v.page.locator(`#${I.fleetCompare} td.change`).allTextContents()).join(' | ');
    assert.doesNotMatch(all, /[+\u2212]</, all);
  });

  it('names every way a battle ends that moved: lost wins that became draws, the opponent\u2019s wins unmoved', async () => {
    const v = await suite.view(THEMES.dark);
    const c = edited.compareFleets!;
    const chance = (p: number, se = 0.004) => ({ p, se });
    // Now: 41.30% wins, 23.20% draws, 35.50% for the opponent; the saved version: 64.50%, 0%, 35.50%.
    const sides = [
      { ...edited.sides[0], pointsVictory: chance(0.413) },
      { ...edited.sides[1], pointsVictory: chance(0.355) },
    ] as BattleResult['sides'];
    const thenSides = [
      { ...c.result.sides[0], pointsVictory: chance(0.645) },
      { ...c.result.sides[1], pointsVictory: chance(0.355) },
    ] as BattleResult['sides'];
    const moved: BattleResult = {
      ...edited,
      sides,
      draw: chance(0.232),
      compareFleets: {
        ...c,
        result: { ...c.result, sides: thenSides, draw: chance(0) },
        difference: {
          sides: [
            { ...c.difference.sides[0], pointsVictory: { delta: 0.232, se: 0.005 }, annihilation: { delta: 0, se: 0 } },
            { ...c.difference.sides[1], pointsVictory: { delta: 0, se: 0.002 }, annihilation: { delta: 0, se: 0 } },
          ],
          draw: { delta: -0.232, se: 0.005 },
        },
      },
    };
    await v.send({ type: 'compareWith', label: 'the saved version' });
    await v.send({ type: 'result', result: moved, partial: false });
    await v.page.waitForFunction((id: string) => /With your change/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    const lead = (await v.page.locator(`#${I.fleetCompare} .compare-summary li`).first().textContent()) ?? '';
    assert.equal(
      lead,
      `With your change: Lantern Watch wins 41.30% instead of 64.50%; 23.20% of battles are drawn instead of 0%. Within the dice\u2019s noise: ${HOSTILE}\u2019s wins (35.50%).`,
    );
    // The line that promises to mark only what is beyond the noise, and the cells that are not: no "about the same" under it.
    const summary = (await v.page.locator(`#${I.fleetCompare} .compare-summary`).textContent()) ?? '';
    assert.match(summary, /a smaller one reads \u201cwithin the noise\u201d/);
    const cells = await v.page.locator(`#${I.fleetCompare} td.change`).allTextContents();
    assert.ok(!cells.some((t) => /about the same/.test(t)), cells.join(' | '));
    const draw = await v.page.locator(`#${I.fleetCompare} tbody tr`, { hasText: 'Draw on points' }).locator('td.change').getAttribute('class');
    assert.equal(draw, 'change up neutral');
    const theirs = await v.page
      .locator(`#${I.fleetCompare} tbody tr`, { hasText: `${HOSTILE} comes out ahead` })
      .locator('td.change')
      .textContent();
    assert.match(theirs ?? '', /within the noise/);
    await v.page.screenshot({ path: join(OUTPUT, 'battle-what-if-draws.png'), fullPage: true });
  });

  it('says when the change makes no difference, and hides the section without a comparison', async () => {
    const v = await suite.view(THEMES.light);
    await v.send({ type: 'compareWith', label: 'the last commit' });
    await v.send({ type: 'result', result: unchanged, partial: false });
    await v.page.waitForFunction((id: string) => /makes no difference/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    const cells = await v.page.locator(`#${I.fleetCompare} td.change`).evaluateAll((cs) => cs.map((c) => c.className));
    assert.ok(
      cells.every((c) => c === 'change same'),
      cells.join(' '),
    );
    // The same battles on the same dice: no "+0% ± 0%" to decode, the cell says so.
    const texts = await v.page.locator(`#${I.fleetCompare} td.change`).allTextContents();
    assert.deepEqual(new Set(texts), new Set(['no change']), texts.join(' | '));
    await v.send({ type: 'compareWith', label: '' });
    await v.send({ type: 'result', result: { ...unchanged, compareFleets: undefined }, partial: false });
    await v.page.waitForSelector(`#${I.fleetCompare}[hidden]`, { state: 'attached' });
  });

  it('reads a saved version of another name (the edit renamed the list) as this list changed', async () => {
    const v = await suite.view(THEMES.dark);
    const c = edited.compareFleets!;
    const renamed: BattleResult = {
      ...edited,
      compareFleets: { ...c, result: { ...c.result, sides: [{ ...c.result.sides[0], fleet: 'Lantern Watch (old)' }, c.result.sides[1]] } },
    };
    await v.send({ type: 'compareWith', label: 'the saved version' });
    await v.send({ type: 'result', result: renamed, partial: false });
    await v.page.waitForFunction((id: string) => /With your change/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    const heads = await v.page.locator(`#${I.fleetCompare} thead th`).allTextContents();
    assert.deepEqual(heads, ['', 'Now', 'The saved version', 'Change']);
  });

  it('sets a different fleet list ("Compare with…") beside this one as two lists, never as "your change"', async () => {
    const v = await suite.view(THEMES.dark);
    await v.send({ type: 'compareWith', label: '"Veil Patrol"', another: true });
    await v.send({ type: 'result', result: { ...edited, compareFleets: undefined }, partial: true });
    await v.page.waitForFunction((id: string) => /how the two lists compare/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    await v.send({ type: 'result', result: edited, partial: false });
    await v.page.waitForFunction((id: string) => /in its place wins/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    const summary = (await v.page.locator(`#${I.fleetCompare} .compare-summary`).textContent()) ?? '';
    const now = edited.sides[0].pointsVictory.p;
    const then = edited.compareFleets!.result.sides[0].pointsVictory.p;
    assert.ok(summary.includes(`This list (Lantern Watch) wins ${formatPercent(now)}; "Veil Patrol" in its place wins ${formatPercent(then)}.`), summary);
    assert.doesNotMatch(summary, /your change|instead of/i, summary);
    const heads = await v.page.locator(`#${I.fleetCompare} thead th`).allTextContents();
    assert.deepEqual(heads, ['', 'This list', '"Veil Patrol"', 'Difference']);
    // The same list compared as another file: the two lists do the same, said so.
    await v.send({ type: 'result', result: unchanged, partial: false });
    await v.page.waitForFunction((id: string) => /the two lists do the same/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
    // Switched back to a version of the list: the change words again.
    await v.send({ type: 'compareWith', label: 'the saved version' });
    await v.send({ type: 'result', result: edited, partial: false });
    await v.page.waitForFunction((id: string) => /With your change/.test(document.getElementById(id)!.textContent ?? ''), I.fleetCompare);
  });
});
