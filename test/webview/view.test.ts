/**
 * The engagement view in headless Chromium, under the CSP that VS Code will apply: what it shows,
 * what it posts, what it refuses, and how it looks (screenshots in test-output/webview/).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDS } from '../../client/webview/engagement/html';
import type { SimulationResult } from '../../server/src/core/sim/types';
import type { VariantChoice } from '../../server/src/core/sim/variants/index';
import { formatNumber, formatPercent, formatPercentError } from '../../client/webview/format';
import { simulate } from '../../server/src/core/sim/index';
import { inFormWords, plainAssumptions, verdict, volleySentence } from '../../client/webview/engagement/words';
import { CONSUMED_MAW_FRIGATE, destroyerVsFrigates, HOSTILE_NAMES, hostileResult, hugeDefender, LUMEN_DESTROYER, sampledVolley, simulated } from './fixtures';
import { buildView, OUTPUT, serveView, setTheme, THEMES, viewSuite, type ViewPage } from './harness';

describe('engagement view (Chromium)', function () {
  this.timeout(60_000);
  let bundle: { js: string; css: string };
  // Whatever a test did, the page must not have thrown or opened a dialog.
  const suite = viewSuite(
    async () => serveView((bundle = await buildView())),
    (v) => {
      assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view');
      assert.deepEqual(v.dialogs, [], 'the view opened a dialog');
    },
  );
  const view = (theme = THEMES.dark) => suite.view(theme);

  /** The text of each item of a list, closed <details> or not (innerText skips what is not rendered). */
  function items(v: ViewPage, id: string): Promise<string[]> {
    return v.page.$$eval(`#${id} li`, (lis) => lis.map((li) => li.textContent ?? ''));
  }

  async function showResult(v: ViewPage, result: SimulationResult): Promise<void> {
    await v.send({ type: 'result', result });
    await v.page.waitForFunction(([id, name]) => document.getElementById(id as string)?.textContent === name, [IDS.defender, result.defender] as const);
  }

  describe('shows the numbers it is given', () => {
    const cases: { name: string; result: () => SimulationResult; expect: Record<string, string>; method: RegExp }[] = [
      {
        name: 'an exact volley and a sampled engagement',
        result: destroyerVsFrigates,
        expect: {
          [IDS.attacker]: 'Lumen Destroyer',
          [IDS.defender]: 'Maw Frigate Pack',
          [IDS.kill]: '7.12%',
          [IDS.hull]: '2.31 HP',
          [IDS.shieldsStripped]: '1.84 SH',
          [IDS.bases]: '0.44',
          [IDS.attackerWins]: '41.05%',
          [IDS.defenderWins]: '37.12%',
          [IDS.neither]: '21.83%',
          [IDS.meanRounds]: '4.3',
        },
        method: /volley exact.*engagement sampled \(20,000 trials, seed 1\)/,
      },
      {
        name: 'a sampled volley, never rounding a near-certainty to 100%',
        result: sampledVolley,
        expect: {
          [IDS.kill]: '>99.99%',
          [IDS.hull]: '4.00 HP',
          [IDS.attackerWins]: '100%',
          [IDS.defenderWins]: '0%',
        },
        method: /volley sampled \(50,000 trials, seed 9\)/,
      },
      {
        name: 'a defender with hundreds of HP (grouped bars)',
        result: hugeDefender,
        expect: { [IDS.kill]: '0%', [IDS.defender]: 'Absurd Dreadnought' },
        method: /volley exact/,
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const v = await view();
        const result = c.result();
        await showResult(v, result);
        for (const [id, text] of Object.entries(c.expect)) assert.equal(await v.text(id), text, `#${id}`);
        assert.equal(await v.text(IDS.verdict), verdict(result));
        assert.equal(await v.text(IDS.volleySentence), volleySentence(result));
        // The method, standard errors, trials and seed are there, under Advanced.
        await v.page.click(`#${IDS.advanced} > summary`);
        assert.match(await v.text(IDS.method), c.method);
        assert.match(await v.text(IDS.engagementMeta), / ± \d+\.\d\d% .*one standard error/);
        // Every weapon gets a row, every assumption an item, the policy its paragraph.
        assert.equal(await v.page.locator(`#${IDS.weapons} tbody tr`).count(), result.volley.weapons.length);
        assert.deepEqual(await items(v, IDS.assumptions), result.assumptions.map(inFormWords));
        assert.deepEqual(await items(v, IDS.plainAssumptions), plainAssumptions(result));
        assert.equal(await v.text(IDS.policy), result.engagement.policy);
        assert.equal(await v.page.locator(`#${IDS.hullTable} tbody tr`).count(), result.volley.hullDamage.length);
        assert.equal(await v.page.locator(`#${IDS.shieldsTable} tbody tr`).count(), result.volley.shieldsRemoved.length);
        assert.equal(await v.page.locator(`#${IDS.survivalTable} tbody tr`).count(), result.engagement.survival.length);
      });
    }

    it('a result computed by the simulator, with its exact check and action counts', async () => {
      const v = await view();
      const result = simulated({ range: 9, trials: 4000, seed: 3 });
      await showResult(v, result);
      const e = result.engagement;
      assert.equal(await v.text(IDS.kill), formatPercent(result.volley.killProbability));
      assert.equal(await v.text(IDS.hull), `${formatNumber(result.volley.expectedHullDamage)} HP`);
      assert.equal(await v.text(IDS.attackerWins), formatPercent(e.attackerWins));
      await v.page.click(`#${IDS.advanced} > summary`);
      assert.ok(
        (await v.text(IDS.engagementMeta)).includes(`Attacker wins ${formatPercent(e.attackerWins)} ${formatPercentError(e.standardError.attackerWins)}`),
      );
      assert.deepEqual(await items(v, IDS.assumptions), result.assumptions.map(inFormWords));
      assert.ok(
        (await items(v, IDS.assumptions)).every((t) => !/--[a-z]/.test(t)),
        'no CLI flags under Advanced either',
      );
      assert.ok(e.exact && e.actions && e.roundsTaken, 'this engagement is small enough for the exact check');
      assert.match(await v.text(IDS.engagementExact), new RegExp(`attacker wins ${formatPercent(e.exact.attackerWins).replace('.', '\\.')}`));
      assert.match(await v.text(IDS.actions), /^Second actions per engagement, on average: attacker Aim \d+\.\d\d, /);
      assert.equal(await v.page.locator(`#${IDS.roundsTable} tbody tr`).count(), e.roundsTaken.length);
      assert.match(await v.text(IDS.method), /checked by an exact computation/);
    });

    it('marks the weapon out of range and the aimed one in the breakdown', async () => {
      const v = await view();
      const result = destroyerVsFrigates();
      result.volley.weapons[0]!.aimed = true;
      await showResult(v, result);
      const rows = await v.page.locator(`#${IDS.weapons} tbody tr`).allInnerTexts();
      assert.match(rows[0]!, /^Lumen Lance aimed\tEnergy\tyes\t3\t1\.62\t0\.30\t1\.20\t1\.71$/);
      assert.match(rows[1]!, /^Pulse Laser\tIon\tout of range\t4\t/);
      assert.equal(await v.page.locator(`#${IDS.weapons} tbody tr.out-of-range`).count(), 1);
    });

    it('draws the hull damage bars in the theme colour and follows a theme change', async () => {
      const v = await view(THEMES.dark);
      await showResult(v, destroyerVsFrigates());
      // Whether the chart shows a colour now (false while Chart.js has not sized its canvas yet).
      const shows = ([id, h]: readonly [string, string]) => {
        const canvas = document.getElementById(id) as HTMLCanvasElement;
        if (!canvas.width || !canvas.height) return false;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        const want = [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
        for (let i = 0; i < data.length; i += 4) {
          if (data[i] === want[0] && data[i + 1] === want[1] && data[i + 2] === want[2] && data[i + 3] === 255) return true;
        }
        return false;
      };
      // Drawn after layout (the chart sizes itself to the view): waited for, not read once.
      const drawn = async (hex: string, what: string) => {
        try {
          await v.page.waitForFunction(shows, [IDS.hullChart, hex] as const, { timeout: 10000 });
        } catch {
          assert.fail(`${what}: no bar in ${hex} within 10 s`);
        }
      };
      await drawn(THEMES.dark.vars['charts-blue']!, 'dark theme blue bars');
      await setTheme(v.page, THEMES.light);
      await v.page.waitForFunction(() => document.body.classList.contains('vscode-light'));
      await drawn(THEMES.light.vars['charts-blue']!, 'light theme blue bars after the switch');
      assert.equal(await v.page.evaluate(shows, [IDS.hullChart, THEMES.dark.vars['charts-blue']!] as const), false, 'no dark theme bars left');
    });
    it("redraws both charts with the next result's figures, and the same figures as before the same way", async () => {
      const v = await view();
      // Read once Chart.js has sized both canvases (it does so after layout, not with the result).
      const pictures = async () => {
        const ids = [IDS.hullChart, IDS.survivalChart];
        await v.page.waitForFunction((list) => list.every((id) => (document.getElementById(id) as HTMLCanvasElement).width > 0), ids);
        return v.page.evaluate((list) => list.map((id) => (document.getElementById(id) as HTMLCanvasElement).toDataURL()), ids);
      };
      await showResult(v, destroyerVsFrigates());
      const first = await pictures();
      await showResult(v, simulated({ range: 9, trials: 500, seed: 1 }));
      const second = await pictures();
      assert.notEqual(second[0], first[0], 'new hull damage bars');
      assert.notEqual(second[1], first[1], 'new survival lines');
      await showResult(v, destroyerVsFrigates());
      assert.deepEqual(await pictures(), first, 'the first figures drawn again as they were');
    });
  });

  describe('controls', () => {
    it('post a rerun with the chosen options, from the keyboard', async () => {
      const v = await view();
      await showResult(v, destroyerVsFrigates());
      const p = v.page;
      await p.selectOption(`#${IDS.range}`, '18');
      await p.selectOption(`#${IDS.aim}`, { label: 'Lumen Lance (Energy)' });
      await p.focus(`#${IDS.cover}`);
      await p.keyboard.press('Space');
      await p.focus(`#${IDS.brace}`);
      await p.keyboard.press('Space');
      await p.fill(`#${IDS.shields}`, '2');
      await p.fill(`#${IDS.rounds}`, '4');
      await p.click(`#${IDS.advancedOptions} > summary`);
      await p.fill(`#${IDS.trials}`, '5000');
      await p.fill(`#${IDS.seed}`, '7');
      await p.keyboard.press('Enter');
      const message = await v.waitForPosted('rerun');
      assert.deepEqual(message, {
        type: 'rerun',
        options: { range: 18, cover: true, brace: true, aim: 'Lumen Lance', defenderShields: 2, rounds: 4, trials: 5000, seed: 7 },
      });
    });

    it('start from the options the result was computed with, keep its bases, and leave out shields when empty', async () => {
      const v = await view();
      const result = destroyerVsFrigates();
      result.options = { range: 6, cover: true, aim: 'Point Defence', rounds: 3, trials: 1000, seed: 42, defenderBases: 1 };
      await showResult(v, result);
      await v.page.click(`#${IDS.run}`);
      const message = await v.waitForPosted('rerun');
      assert.deepEqual(message, {
        type: 'rerun',
        options: { range: 6, cover: true, brace: false, aim: 'Point Defence', rounds: 3, trials: 1000, seed: 42, defenderBases: 1 },
      });
    });

    it('refuse numbers out of bounds, say why, and post nothing', async () => {
      const v = await view();
      await showResult(v, destroyerVsFrigates());
      await v.page.click(`#${IDS.advancedOptions} > summary`);
      const cases: [field: string, value: string][] = [
        [IDS.trials, '0'],
        [IDS.rounds, '2.5'],
        [IDS.seed, '-1'],
        [IDS.shields, '1.5'],
        [IDS.rounds, ''],
      ];
      for (const [field, value] of cases) {
        await v.page.fill(`#${IDS.rounds}`, '6');
        await v.page.fill(`#${IDS.trials}`, '20000');
        await v.page.fill(`#${IDS.seed}`, '1');
        await v.page.fill(`#${IDS.shields}`, '');
        await v.page.fill(`#${field}`, value);
        await v.page.click(`#${IDS.run}`);
        // Bad values are never sent, by the button or by the automatic run after an edit.
        await v.page.waitForFunction((id) => !document.getElementById(id)!.hidden, IDS.error);
        assert.match(await v.text(IDS.error), /Use whole numbers/, `${field}=${value}`);
        assert.equal(await v.page.getAttribute(`#${field}`, 'aria-invalid'), 'true', `${field}=${value} marked invalid`);
      }
      assert.deepEqual(
        (await v.posted()).filter((m) => m.type === 'rerun'),
        [],
      );
    });

    it('are reached in a sensible order with Tab, each with a visible focus ring', async () => {
      const v = await view();
      await showResult(v, destroyerVsFrigates());
      await v.page.evaluate((id) => ((document.getElementById(id) as HTMLDetailsElement).open = true), IDS.advancedOptions);
      // The rule-variant picker comes before Run (as in the battle view): one checkbox per variant, then "beside the standard rules".
      const variants = ['sustained-damage', 'break-tests', 'retreat', 'morale', 'compare'].map((n) => `engagement-variant-${n}`);
      const order = [
        IDS.range,
        IDS.aim,
        IDS.cover,
        IDS.brace,
        IDS.shields,
        IDS.rounds,
        ...variants,
        IDS.run,
        `${IDS.advancedOptions}-summary`,
        IDS.trials,
        IDS.seed,
      ];
      await v.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      for (const id of order) {
        await v.page.keyboard.press('Tab');
        const focused = await v.page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const style = getComputedStyle(el);
          return { id: el.id, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
        });
        assert.equal(focused.id, id);
        assert.notEqual(focused.outline, 'none', `${id} shows focus`);
        assert.ok(focused.width >= 1, `${id} focus ring is at least 1px`);
      }
      // Every control has a label a screen reader reads.
      for (const id of order.filter((x) => x !== IDS.run && !x.endsWith('-summary'))) {
        assert.equal(await v.page.locator(`label[for="${id}"]`).count(), 1, `label for ${id}`);
      }
    });
  });

  describe('what the figures were computed with', () => {
    it('opens with "any range" when the Fire action had every weapon firing, and a rerun unchanged gives the same figures', async () => {
      const v = await view();
      // As the CLI without --range: no range option, every weapon fires, the duel at the default distance.
      const result = simulated({ trials: 4000, seed: 3 });
      assert.equal(result.options.range, undefined);
      await showResult(v, result);
      assert.equal(await v.page.inputValue(`#${IDS.range}`), '');
      assert.equal(await v.page.locator(`#${IDS.range} option:checked`).innerText(), 'Any range (every weapon fires)');
      assert.equal(await v.page.isHidden(`#${IDS.stale}`), true);
      assert.equal(await v.text(IDS.status), 'Figures up to date with the options.');
      await v.page.click(`#${IDS.run}`);
      const message = await v.waitForPosted('rerun');
      assert.ok(message.type === 'rerun');
      assert.equal('range' in message.options, false, 'no range sent: still every weapon firing');
      // What the host would compute for that message: exactly the figures on show.
      const again = simulate(LUMEN_DESTROYER, CONSUMED_MAW_FRIGATE, message.options);
      assert.deepEqual(again.volley, result.volley);
      assert.deepEqual(again.engagement, result.engagement);
      assert.equal(await v.text(IDS.kill), formatPercent(again.volley.killProbability));
    });

    it('marks the figures stale as soon as an option changes, asks once for new ones after a pause, and clears the mark when they come', async () => {
      const v = await view();
      const result = simulated({ range: 12, trials: 4000, seed: 3 });
      await showResult(v, result);
      // A burst of edits as a user makes them, inside one task so that a slow machine cannot space them out.
      await v.page.evaluate(
        ([range, rounds]) => {
          const select = document.getElementById(range) as HTMLSelectElement;
          select.value = '18';
          select.dispatchEvent(new Event('change', { bubbles: true }));
          const input = document.getElementById(rounds) as HTMLInputElement;
          for (const value of ['', '3', '4']) {
            input.value = value;
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }
        },
        [IDS.range, IDS.rounds] as const,
      );
      assert.equal(await v.page.isVisible(`#${IDS.stale}`), true);
      assert.match(await v.text(IDS.stale), /still for the previous options/);
      assert.equal(await v.page.evaluate((id) => document.getElementById(id)!.classList.contains('stale'), IDS.results), true);
      assert.equal(await v.page.evaluate((id) => document.getElementById(id)!.classList.contains('stale'), IDS.verdict), true, 'the old verdict is dimmed too');
      assert.notEqual(await v.text(IDS.status), 'Figures up to date with the options.');
      const message = await v.waitForPosted('rerun');
      await v.page.waitForTimeout(1000);
      const reruns = (await v.posted()).filter((m) => m.type === 'rerun');
      assert.equal(reruns.length, 1, 'one run for a burst of edits');
      assert.ok(message.type === 'rerun');
      assert.deepEqual(message, { type: 'rerun', options: { ...message.options, range: 18, rounds: 4 } });
      await v.send({ type: 'busy' });
      await showResult(v, simulate(LUMEN_DESTROYER, CONSUMED_MAW_FRIGATE, message.options));
      await v.page.waitForFunction((id) => document.getElementById(id)!.hidden, IDS.stale);
      assert.equal(await v.page.evaluate((id) => document.getElementById(id)!.classList.contains('stale'), IDS.results), false);
      assert.equal(await v.text(IDS.status), 'Figures up to date with the options.');
      assert.equal(await v.page.inputValue(`#${IDS.range}`), '18');
    });

    it('changing an option back to what the figures were computed with clears the mark and asks for nothing', async () => {
      const v = await view();
      await showResult(v, simulated({ range: 12, trials: 4000, seed: 3 }));
      // Both edits inside one task, so that a slow machine cannot let the pause run out between them.
      const staleBetween = await v.page.evaluate(
        ([range, stale]) => {
          const select = document.getElementById(range) as HTMLSelectElement;
          const seen: boolean[] = [];
          for (const value of ['18', '12']) {
            select.value = value;
            select.dispatchEvent(new Event('change', { bubbles: true }));
            seen.push(!document.getElementById(stale)!.hidden);
          }
          return seen[0];
        },
        [IDS.range, IDS.stale] as const,
      );
      assert.equal(staleBetween, true, 'marked stale while 18" was chosen');
      assert.equal(await v.page.isHidden(`#${IDS.stale}`), true);
      await v.page.waitForTimeout(1200);
      assert.deepEqual(
        (await v.posted()).filter((m) => m.type === 'rerun'),
        [],
      );
    });

    it('keeps what the user is typing when figures for earlier options arrive', async () => {
      const v = await view();
      const result = simulated({ range: 12, trials: 4000, seed: 3 });
      await showResult(v, result);
      await v.page.fill(`#${IDS.rounds}`, '5');
      // A result the host had under way arrives before the pause is over.
      await showResult(v, { ...result, defender: 'Late Result' });
      assert.equal(await v.page.inputValue(`#${IDS.rounds}`), '5');
      assert.equal(await v.page.isVisible(`#${IDS.stale}`), true);
      const message = await v.waitForPosted('rerun');
      assert.equal(message.type === 'rerun' && message.options.rounds, 5);
    });
  });

  describe('words for players', () => {
    it('leads with one sentence, and keeps standard errors, trials and seed under Advanced', async () => {
      const v = await view();
      const result = simulated({ range: 9, trials: 4000, seed: 3 });
      await showResult(v, result);
      const lead = await v.text(IDS.verdict);
      assert.match(lead, /^Lumen Destroyer wins \d+% of 6-round duels at 9", usually by round \d\./);
      assert.equal(lead, verdict(result));
      // What is on screen before anything is opened: no statistician's words.
      const visible = await v.page.locator('#app').innerText();
      for (const word of ['±', 'standard error', 'trial', 'seed', 'sampled', 'exact', '--']) {
        assert.equal(visible.toLowerCase().includes(word), false, `"${word}" on screen before Advanced is opened`);
      }
      assert.equal(await v.page.isHidden(`#${IDS.method}`), true);
      assert.equal(await v.page.isHidden(`#${IDS.trials}`), true);
      await v.page.click(`#${IDS.advanced} > summary`);
      assert.equal(await v.page.isVisible(`#${IDS.method}`), true);
      assert.match(await v.text(IDS.engagementMeta), /4,000 trials, seed 3/);
      // The assumptions speak of the form's controls, not of the CLI's flags.
      const plain = await items(v, IDS.plainAssumptions);
      assert.ok(plain.some((t) => t.startsWith('Range 9": the units stay this far apart')));
      assert.ok(
        plain.every((t) => !/--[a-z]/.test(t)),
        'no CLI flags',
      );
    });

    it('says plainly when nothing can happen, without a big figure', async () => {
      const v = await view();
      // Lumen Destroyer reaches 18", the Maw Frigate 12": at 24" neither can fire.
      const result = simulated({ range: 24, trials: 500, seed: 1 });
      await showResult(v, result);
      assert.equal(
        await v.text(IDS.verdict),
        'At 24" neither unit can fire (Lumen Destroyer reaches 18", Consumed Maw Frigate 12"): nothing happens in the duel.',
      );
      assert.equal(await v.text(IDS.volleySentence), 'At 24" none of Lumen Destroyer\'s weapons reach Consumed Maw Frigate: its Fire action does nothing.');
      assert.equal(await v.page.evaluate((id) => document.getElementById(id)!.classList.contains('quiet'), IDS.results), true);
      const size = (id: string) => v.page.evaluate((x) => parseFloat(getComputedStyle(document.getElementById(x)!).fontSize), id);
      assert.ok((await size(IDS.neither)) <= 13 * 1.15, 'the 100% "both still in the fight" is not drawn large');
      assert.equal(await v.page.isHidden(`#${IDS.hullChart}`), true, 'no chart of a single bar at 0 HP');
      assert.equal(await v.page.isHidden(`#${IDS.survivalChart}`), true, 'no chart of two flat lines');
      await v.page.screenshot({ path: join(OUTPUT, 'engagement-nothing-happens.png'), fullPage: true });
      // A real result afterwards is drawn as one again.
      await showResult(v, { ...simulated({ range: 9, trials: 500, seed: 1 }), defender: 'Back In Range' });
      assert.equal(await v.page.evaluate((id) => document.getElementById(id)!.classList.contains('quiet'), IDS.results), false);
      // Shown again, the canvases take their size when Chart.js next lays them out: wait for it.
      for (const id of [IDS.hullChart, IDS.survivalChart]) await v.page.waitForSelector(`#${id}`, { state: 'visible', timeout: 10_000 });
    });

    it('shows each card\u2019s faction, class and points, and labels an example card', async () => {
      const v = await view();
      await v.send({
        type: 'units',
        attacker: { name: 'Lumen Destroyer', faction: 'Myr-Valari', class: 'Destroyer', points: 145 },
        defender: { name: 'Maw Frigate', faction: 'Consumed', class: 'Frigate', example: true },
      });
      await showResult(v, destroyerVsFrigates());
      assert.equal(await v.text(IDS.attackerFacts), 'Myr-Valari · Destroyer');
      assert.equal(await v.text(IDS.attackerPoints), '145 pts');
      assert.equal(await v.text(IDS.defenderFacts), 'Consumed · Frigate Example card');
      assert.equal(await v.page.isHidden(`#${IDS.defenderPoints}`), true, 'no points slot without points');
      await v.page.reload();
      await v.waitForPosted('ready');
      await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === '145 pts', IDS.attackerPoints);
    });
  });

  describe('state', () => {
    it('comes back after a reload, including edits not yet run', async () => {
      const v = await view();
      await showResult(v, destroyerVsFrigates());
      await v.page.click(`#${IDS.advancedOptions} > summary`);
      await v.page.fill(`#${IDS.trials}`, '777');
      await v.page.locator(`#${IDS.trials}`).dispatchEvent('change');
      await v.page.reload();
      await v.waitForPosted('ready');
      await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === '7.12%', IDS.kill);
      assert.equal(await v.text(IDS.defender), 'Maw Frigate Pack');
      assert.equal(await v.page.inputValue(`#${IDS.trials}`), '777');
      assert.equal(await v.page.isVisible(`#${IDS.results}`), true);
      // The figures are not for 777 trials: marked so, and the edit is run now.
      assert.equal(await v.page.isVisible(`#${IDS.stale}`), true);
      const rerun = await v.waitForPosted('rerun');
      assert.equal(rerun.type === 'rerun' && rerun.options.trials, 777);
    });

    it('shows both cards\u2019 points beside their estimates, as text, and keeps them over a reload', async () => {
      const v = await view();
      // A real result (full options, so the figures are not marked stale) under names that are markup.
      const hostile = { ...simulated({ range: 9, trials: 20000, seed: 1 }), attacker: HOSTILE_NAMES.attacker, defender: HOSTILE_NAMES.defender };
      await v.send({
        type: 'units',
        attacker: { name: hostile.attacker, faction: 'Consumed', class: 'Destroyer', points: 190 },
        defender: { name: hostile.defender, faction: 'Myr-Valari', class: 'Frigate', points: 110 },
      });
      const estimates = {
        attacker: { points: 190, estimate: 537, ratio: 0.35, verdict: 'far too cheap', spreadPct: 22 },
        defender: { points: 110, reason: 'it deals no damage to the reference field.', spreadPct: 22 },
      };
      await v.send({ type: 'result', result: hostile, estimates });
      await v.page.waitForFunction((id) => /worth about/.test(document.getElementById(id)?.textContent ?? ''), IDS.attackerPoints);
      assert.equal(await v.text(IDS.attackerPoints), '190 pts · worth about 537 (far too cheap)');
      assert.equal(await v.text(IDS.defenderPoints), '110 pts · no estimate');
      // The figures behind the words: in the tooltip, and under Advanced.
      const tip = await v.page.$eval(`#${IDS.attackerPoints} .estimate`, (e) => (e as HTMLElement).title);
      assert.match(tip, /Printed points ÷ estimate = 0\.35/);
      assert.match(tip, /±22%/);
      assert.equal(
        await v.page.$eval(`#${IDS.defenderPoints} .estimate`, (e) => (e as HTMLElement).title),
        'No points estimate: it deals no damage to the reference field.',
      );
      const detail = await v.page.$eval(`#${IDS.estimateDetail}`, (e) => e.textContent ?? '');
      assert.ok(detail.includes(`${HOSTILE_NAMES.attacker}: 190 pts printed, estimated 537, ratio 0.35, far too cheap`), detail);
      assert.match(detail, /110 pts printed, no estimate \(it deals no damage to the reference field\)/);
      assert.match(detail, /typical error is ±22%/);
      // Names and reasons are text: nothing in them became markup.
      assert.equal(await v.page.locator('img, b, script:not([src])').count(), 0);
      await v.page.click(`#${IDS.advanced} > summary`);
      assert.equal(await v.page.isVisible(`#${IDS.estimateDetail}`), true);
      await v.page.screenshot({ path: join(OUTPUT, 'engagement-estimates.png'), fullPage: true });
      await v.page.reload();
      await v.waitForPosted('ready');
      await v.page.waitForFunction((id) => /worth about 537/.test(document.getElementById(id)?.textContent ?? ''), IDS.attackerPoints);
      assert.equal(await v.text(IDS.defenderPoints), '110 pts · no estimate');
      // A result without estimates (an older server) leaves the printed points alone.
      await showResult(v, destroyerVsFrigates());
      await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === '190 pts', IDS.attackerPoints);
      assert.equal(await v.page.isVisible(`#${IDS.estimateDetail}`), false);
    });

    it('shows an estimate on the card\u2019s line even before the host sent the cards', async () => {
      const v = await view();
      await v.send({
        type: 'result',
        result: destroyerVsFrigates(),
        estimates: { attacker: { points: 145, estimate: 150, ratio: 0.97, spreadPct: 22 }, defender: { reason: 'no points printed.' } },
      });
      await v.page.waitForFunction((id) => !document.getElementById(id)!.hidden, IDS.unitLines);
      assert.equal(await v.text(IDS.attackerPoints), '145 pts · worth about 150');
      assert.equal(await v.text(IDS.defenderPoints), 'no estimate');
      assert.equal(await v.page.$eval(`#${IDS.attackerPoints} .estimate`, (e) => e.classList.contains('off')), false);
    });

    it('ignores saved state of the wrong shape', async () => {
      const v = await view();
      await v.page.evaluate(() => sessionStorage.setItem('__fabledViewState', JSON.stringify({ version: 1, result: { attacker: 1 }, draft: { trials: -5 } })));
      await v.page.reload();
      await v.waitForPosted('ready');
      assert.equal(await v.page.isVisible(`#${IDS.empty}`), true);
      assert.equal(await v.page.isVisible(`#${IDS.results}`), false);
    });
  });

  describe('security', () => {
    it('shows HTML in names as text and runs none of it', async () => {
      const v = await view();
      await showResult(v, hostileResult());
      assert.equal(await v.text(IDS.attacker), HOSTILE_NAMES.attacker);
      assert.equal(await v.text(IDS.defender), HOSTILE_NAMES.defender);
      assert.match(await v.page.locator(`#${IDS.weapons} tbody tr`).first().innerText(), /<b onmouseover=alert\(3\)>"Lance"<\/b> & 'Co'/);
      assert.equal(await v.page.$eval(`#${IDS.policy}`, (p) => p.textContent), HOSTILE_NAMES.policy);
      assert.deepEqual(await items(v, IDS.assumptions), [HOSTILE_NAMES.assumption]);
      assert.ok((await v.text(IDS.verdict)).startsWith(HOSTILE_NAMES.defender) || (await v.text(IDS.verdict)).startsWith(HOSTILE_NAMES.attacker));
      await v.page.hover(`#${IDS.weapons} tbody tr th`);
      const injected = await v.page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        elements: document.querySelectorAll('img, iframe, svg, b, script:not([src])').length,
        title: document.title,
      }));
      assert.equal(injected.pwned, undefined);
      assert.equal(injected.elements, 0);
      assert.equal(injected.title, `Engagement: ${HOSTILE_NAMES.attacker} vs ${HOSTILE_NAMES.defender}`);
      assert.deepEqual(await v.cspViolations(), []);
    });

    it('shows an error message with HTML in it as text', async () => {
      const v = await view();
      await v.send({ type: 'error', message: '<img src=x onerror=alert(6)> No card named "X"' });
      await v.page.waitForFunction((id) => !document.getElementById(id)!.hidden, IDS.error);
      assert.equal(await v.text(IDS.error), '<img src=x onerror=alert(6)> No card named "X"');
      assert.equal(await v.page.locator('img').count(), 0);
    });

    it('ignores malformed messages and keeps working', async () => {
      const v = await view();
      await showResult(v, destroyerVsFrigates());
      const good = destroyerVsFrigates();
      const bad: unknown[] = [
        null,
        'result',
        42,
        [],
        { type: 'result' },
        { type: 'result', result: null },
        { type: 'result', result: { ...good, volley: { ...good.volley, killProbability: 'high' } } },
        { type: 'result', result: { ...good, volley: { ...good.volley, killProbability: 7 } } },
        { type: 'result', result: { ...good, attacker: undefined } },
        { type: 'result', result: { ...good, volley: { ...good.volley, method: 'guessed' } } },
        { type: 'result', result: { ...good, volley: { ...good.volley, hullDamage: [{ value: 'a', p: 0.1 }] } } },
        { type: 'result', result: { ...good, volley: { ...good.volley, weapons: [{ name: 'x' }] } } },
        { type: 'result', result: { ...good, engagement: { ...good.engagement, survival: 'all' } } },
        { type: 'result', result: { ...good, assumptions: [1, 2] } },
        { type: 'error' },
        { type: 'error', message: { html: '<b>' } },
        { type: 'rerun', options: {} },
        { type: 'unknown' },
        { type: { toString: 'result' } },
      ];
      for (const message of bad) await v.send(message);
      // Built inside the page: nested too deep for the test's own serialiser to carry.
      await v.page.evaluate(() => {
        const deep: Record<string, unknown> = { type: 'result' };
        let cursor = deep;
        for (let i = 0; i < 2000; i++) cursor = cursor['result'] = {};
        window.postMessage(deep, '*');
      });
      await v.send({ type: 'result', result: { ...good, defender: 'After The Noise' } });
      await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === 'After The Noise', IDS.defender);
      assert.equal(await v.text(IDS.kill), '7.12%');
      assert.equal(await v.page.isHidden(`#${IDS.error}`), true, 'no malformed message reached the error box');
    });

    it('carries a strict CSP, no inline handlers, no eval and no remote resources', async () => {
      const html = suite.server.html;
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
      assert.ok(csp, 'CSP meta tag present');
      const nonce = suite.server.nonce;
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, new RegExp(`script-src 'nonce-${nonce.replace(/[+/]/g, '\\$&')}'(;|$)`));
      assert.match(csp, new RegExp(`style-src ${suite.server.origin} 'nonce-`));
      assert.match(csp, new RegExp(`img-src ${suite.server.origin} data:`));
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
      assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handler attributes');
      assert.doesNotMatch(html, /style="/, 'no inline style attributes');
      assert.equal((html.match(/<script\b/g) ?? []).length, 1, 'one script element');
      assert.match(html, new RegExp(`<script nonce="[^"]+" src="${suite.server.origin}/engagement.js"></script>`));
      const js = readFileSync(bundle.js, 'utf8');
      assert.doesNotMatch(js, /\beval\(|new Function\(/, 'the bundle never evaluates strings');
      assert.doesNotMatch(js, /https?:\/\/(?!www\.w3\.org)[a-z]/i, 'the bundle names no remote URL to load');

      const v = await view();
      await showResult(v, simulated({ range: 9, trials: 500, seed: 1 }));
      await showResult(v, destroyerVsFrigates());
      assert.deepEqual(await v.cspViolations(), [], 'Chart.js drew both charts without breaking the CSP');
      assert.deepEqual(
        // Chromium asks for /favicon.ico by itself; VS Code's webview frame does not.
        [...new Set(suite.server.requests.filter((r) => r !== '/favicon.ico'))].sort(),
        ['/', '/engagement.css', '/engagement.js'],
        'the page loaded nothing but its own script and style',
      );
      // The CSP is really enforced: an inline script added now is blocked and reported.
      await v.page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__pwned = 9';
        document.body.append(s);
      });
      await v.page.waitForFunction(() => (window as unknown as { __csp: unknown[] }).__csp.length > 0);
      assert.equal(await v.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      await v.page.evaluate(() => ((window as unknown as { __csp: unknown[] }).__csp.length = 0));
    });
  });

  describe('busy and error messages', () => {
    it('names both cards in the heading while the first run loads, and when it fails', async () => {
      const v = await view();
      await v.send({ type: 'busy' });
      await v.send({
        type: 'units',
        attacker: { name: 'Lumen Destroyer', faction: 'Myr-Valari', class: 'Destroyer', points: 145 },
        defender: { name: 'Maw <b>Frigate</b>', faction: 'Consumed', class: 'Frigate', example: true },
      });
      await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === 'Lumen Destroyer', IDS.attacker);
      assert.equal(await v.text(IDS.title), 'Engagement: Lumen Destroyer vs Maw <b>Frigate</b>');
      assert.equal(await v.page.title(), 'Engagement: Lumen Destroyer vs Maw <b>Frigate</b>');
      await v.send({ type: 'error', message: 'The simulation failed.' });
      await v.page.waitForFunction((id) => !document.getElementById(id)!.hidden, IDS.error);
      assert.equal(await v.text(IDS.title), 'Engagement: Lumen Destroyer vs Maw <b>Frigate</b>', 'still named after a failure');
      assert.match(await v.text(IDS.empty), /^No result/, 'no "Waiting for a result" once it failed');
      await v.page.screenshot({ path: join(OUTPUT, 'engagement-failed-first-run.png') });
    });

    it('marks the view busy until the result arrives, and keeps old results beside an error', async () => {
      const v = await view();
      await showResult(v, destroyerVsFrigates());
      await v.send({ type: 'busy' });
      await v.page.waitForFunction(() => document.getElementById('app')?.getAttribute('aria-busy') === 'true');
      assert.equal(await v.text(IDS.status), 'Computing…');
      assert.equal(await v.page.getAttribute(`#${IDS.run}`, 'aria-disabled'), 'true');
      // A second run cannot be asked for while one is computing.
      await v.page.focus(`#${IDS.run}`);
      await v.page.keyboard.press('Enter');
      await v.send({ type: 'error', message: 'The simulation failed: no card named "Ghost".' });
      await v.page.waitForFunction(() => document.getElementById('app')?.getAttribute('aria-busy') === 'false');
      assert.equal(await v.text(IDS.error), 'The simulation failed: no card named "Ghost".');
      assert.equal(await v.text(IDS.kill), '7.12%', 'the previous result stays');
      assert.deepEqual(
        (await v.posted()).filter((m) => m.type === 'rerun'),
        [],
        'nothing posted by the button while busy',
      );
      // Options that failed to run: the old figures stay, said to be for the previous options.
      await v.page.fill(`#${IDS.rounds}`, '5');
      await v.waitForPosted('rerun');
      await v.send({ type: 'error', message: 'defenderShields 9 is more than the 6 of Maw Frigate Pack.' });
      await v.page.waitForFunction((id) => /could not be computed/.test(document.getElementById(id)!.textContent ?? ''), IDS.stale);
    });
  });

  describe('screenshots', () => {
    it('in a narrow editor column, with nothing wider than the view', async () => {
      const v = await view(THEMES.dark);
      await v.page.setViewportSize({ width: 440, height: 900 });
      await showResult(v, simulated({ range: 9, trials: 20000, seed: 1 }));
      await v.page.screenshot({ path: join(OUTPUT, 'engagement-narrow-dark.png'), fullPage: true });
      const overflow = await v.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, 'no horizontal scrolling of the page');
    });

    for (const theme of [THEMES.light, THEMES.dark, THEMES.highContrast]) {
      it(`in the ${theme.name} theme`, async () => {
        const v = await view(theme);
        await showResult(v, simulated({ range: 9, trials: 20000, seed: 1 }));
        const path = join(OUTPUT, `engagement-${theme.name}.png`);
        await v.page.screenshot({ path, fullPage: true });
        // A themed page: the background is the theme's editor background, not the browser's white.
        const background = await v.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const hex = theme.vars['editor-background']!;
        const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ');
        assert.equal(background, `rgb(${rgb})`);
      });
    }
  });
});

describe('engagement view: rule variants (Chromium)', function () {
  this.timeout(60_000);
  const suite = viewSuite(
    async () => serveView(await buildView()),
    (v) => assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view'),
  );

  /** The duel of the two example cards under one variant, beside the standard rules, shown in the view. */
  async function showDuel(v: ViewPage, variant: VariantChoice, trials: number): Promise<SimulationResult> {
    const result = simulate(LUMEN_DESTROYER, CONSUMED_MAW_FRIGATE, { range: 12, trials, seed: 3 }, { variants: [variant], compare: true });
    await v.send({ type: 'result', result });
    await v.page.waitForSelector(`#${IDS.variantSection}:not([hidden])`);
    return result;
  }

  it('shows the duel under a variant beside the standard rules, and posts the picked rules with a rerun', async () => {
    const v = await suite.view(THEMES.dark);
    const result = await showDuel(v, { name: 'morale', parameters: {} }, 4000);
    const section = await v.text(IDS.variantSection);
    assert.match(section, /With morale/);
    assert.ok(section.includes(result.engagement.compare!.summary[0]!), section);
    assert.ok(section.includes(formatPercent(result.engagement.compare!.standard.attackerWins)), section);
    // Morale ends every duel with a winner: "both still in the fight" falls to 0.
    const same = await v.page.locator(`#${IDS.variantSection} td.change`).evaluateAll((cells) => cells.map((c) => c.className));
    assert.ok(
      same.some((c) => /\b(up|down)\b/.test(c)),
      same.join(' '),
    );
    assert.equal(await v.page.isChecked('#engagement-variant-morale'), true);
    assert.equal(await v.page.locator('#engagement-variant-morale').isVisible(), true);
    await v.page.screenshot({ path: join(OUTPUT, 'engagement-variants.png'), fullPage: true });
    await v.page.check('#engagement-variant-sustained-damage');
    await v.page.click(`#${IDS.run}`);
    const message = (await v.waitForPosted('rerun')) as unknown as { rules: unknown };
    assert.deepEqual(message.rules, {
      variants: [
        { name: 'sustained-damage', parameters: {} },
        { name: 'morale', parameters: {} },
      ],
      compare: true,
    });
    // A conflicting pair: a message, and nothing posted.
    await v.page.check('#engagement-variant-retreat');
    await v.page.click(`#${IDS.run}`);
    assert.match(await v.page.locator(`#${IDS.variants} .variant-note`).innerText(), /cannot be played together: untick one of them/);
    assert.equal(await v.page.locator(`#${IDS.error}`).isVisible(), false, 'said once, under the boxes');
    assert.equal((await v.posted()).filter((m) => m.type === 'rerun').length, 1);
  });

  it('under morale shows the Rounds field at its 3 rounds, locked and saying why, and gives the rounds asked for back once unticked', async () => {
    const v = await suite.view(THEMES.dark);
    const result = await showDuel(v, { name: 'morale', parameters: {} }, 2000);
    // The headline speaks of the 3 rounds played: "of 3-round duels", or, when morale rather than
    // destruction decides every duel, "Neither unit destroys the other ... in 3 rounds".
    const headline = await v.text(IDS.verdict);
    assert.match(headline, /\b3-round duels\b|\bin 3 rounds\b/);
    assert.doesNotMatch(headline, /\b6[- ]rounds?\b/, 'not the 6 rounds asked for');
    assert.equal(await v.page.inputValue(`#${IDS.rounds}`), '3', 'not "Rounds 6" beside 3-round duels');
    assert.equal(await v.page.isDisabled(`#${IDS.rounds}`), true);
    assert.equal(await v.page.locator(`#${IDS.rounds}-fixed`).innerText(), '(morale: 3)');
    assert.equal(await v.page.locator(`#${IDS.stale}`).isVisible(), false, "the figures are the form's: not stale");
    // The Advanced text speaks of the view's own field, not of a command-line flag.
    assert.doesNotMatch(await v.page.locator('body').innerText(), /--rounds/);
    await v.page.screenshot({ path: join(OUTPUT, 'engagement-morale-rounds.png'), fullPage: true });
    await v.page.uncheck('#engagement-variant-morale');
    assert.equal(await v.page.isDisabled(`#${IDS.rounds}`), false);
    assert.equal(await v.page.inputValue(`#${IDS.rounds}`), String(result.options.rounds ?? 6));
    const message = (await v.waitForPosted('rerun')) as unknown as { options: { rounds: number } };
    assert.equal(message.options.rounds, result.options.rounds ?? 6);
  });

  it('shows every column of the comparison and the whole chart legends at half and at narrow widths', async () => {
    const v = await suite.view(THEMES.dark);
    for (const width of [1100, 960, 860, 700, 560, 440]) {
      await v.page.setViewportSize({ width, height: 900 });
      await showDuel(v, { name: 'morale', parameters: {} }, 1000);
      await v.page.waitForTimeout(150);
      // Every cell of every table fits inside the view and inside its table's box (nothing hidden by a scroll box).
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
      await v.page.screenshot({ path: join(OUTPUT, `engagement-variants-${width}.png`), fullPage: true });
    }
  });

  it("shows a result played with retreat's threshold as current, and asks for new figures when the threshold changes", async () => {
    const v = await suite.view(THEMES.light);
    await showDuel(v, { name: 'retreat', parameters: { threshold: 0.3 } }, 2000);
    assert.equal(await v.page.inputValue('#engagement-variant-retreat-threshold'), '0.3');
    assert.equal(await v.page.locator(`#${IDS.stale}`).isVisible(), false, 'the figures match the form: not marked stale');
    await v.page.fill('#engagement-variant-retreat-threshold', '0.6');
    const message = (await v.waitForPosted('rerun')) as unknown as { rules: unknown };
    assert.deepEqual(message.rules, { variants: [{ name: 'retreat', parameters: { threshold: 0.6 } }], compare: true });
    assert.equal(await v.page.locator(`#${IDS.stale}`).isVisible(), true, 'until the new figures come, the old ones are marked');
  });
});
