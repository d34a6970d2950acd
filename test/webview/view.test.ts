/**
 * The engagement view in headless Chromium, under the CSP that VS Code will apply: what it shows,
 * what it posts, what it refuses, and how it looks (screenshots in test-output/webview/).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { IDS } from '../../client/webview/html';
import type { SimulationResult } from '../../server/src/core/sim/types';
import { formatNumber, formatPercent, formatPercentError } from '../../client/webview/format';
import { destroyerVsFrigates, HOSTILE_NAMES, hostileResult, hugeDefender, sampledVolley, simulated } from './fixtures';
import { buildView, launch, openView, OUTPUT, serveView, setTheme, THEMES, type ViewPage, type ViewServer } from './harness';

describe('engagement view (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: ViewServer;
  let bundle: { js: string; css: string };
  const open: ViewPage[] = [];

  before(async () => {
    bundle = await buildView();
    server = await serveView(bundle);
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function view(theme = THEMES.dark): Promise<ViewPage> {
    const v = await openView(browser, server, theme);
    open.push(v);
    await v.waitForPosted('ready');
    return v;
  }

  async function showResult(v: ViewPage, result: SimulationResult): Promise<void> {
    await v.send({ type: 'result', result });
    await v.page.waitForFunction(([id, name]) => document.getElementById(id as string)?.textContent === name, [IDS.defender, result.defender] as const);
  }

  afterEach(async () => {
    for (const v of open.splice(0)) {
      // Whatever a test did, the page must not have thrown, opened a dialog or broken its CSP.
      assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view');
      assert.deepEqual(v.dialogs, [], 'the view opened a dialog');
      await v.page.context().close();
    }
  });

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
          [IDS.attackerWins]: '41.05% ± 0.35%',
          [IDS.defenderWins]: '37.12% ± 0.34%',
          [IDS.neither]: '21.83% ± 0.29%',
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
          [IDS.attackerWins]: '100% ± 0.00%',
          [IDS.defenderWins]: '0% ± 0.00%',
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
        assert.match(await v.text(IDS.method), c.method);
        // Every weapon gets a row, every assumption an item, the policy its paragraph.
        assert.equal(await v.page.locator(`#${IDS.weapons} tbody tr`).count(), result.volley.weapons.length);
        assert.deepEqual(await v.page.locator(`#${IDS.assumptions} li`).allInnerTexts(), result.assumptions);
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
      assert.equal(await v.text(IDS.attackerWins), `${formatPercent(e.attackerWins)} ${formatPercentError(e.standardError.attackerWins)}`);
      assert.deepEqual(await v.page.locator(`#${IDS.assumptions} li`).allInnerTexts(), result.assumptions);
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
      const hasColour = (hex: string) =>
        v.page.evaluate(
          ([id, h]) => {
            const canvas = document.getElementById(id as string) as HTMLCanvasElement;
            const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
            const want = [1, 3, 5].map((i) => parseInt((h as string).slice(i, i + 2), 16));
            for (let i = 0; i < data.length; i += 4) {
              if (data[i] === want[0] && data[i + 1] === want[1] && data[i + 2] === want[2] && data[i + 3] === 255) return true;
            }
            return false;
          },
          [IDS.hullChart, hex] as const,
        );
      assert.equal(await hasColour(THEMES.dark.vars['charts-blue']!), true, 'dark theme blue bars');
      await setTheme(v.page, THEMES.light);
      await v.page.waitForFunction(() => document.body.classList.contains('vscode-light'));
      assert.equal(await hasColour(THEMES.light.vars['charts-blue']!), true, 'light theme blue bars after the switch');
      assert.equal(await hasColour(THEMES.dark.vars['charts-blue']!), false, 'no dark theme bars left');
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
      const order = [IDS.range, IDS.aim, IDS.cover, IDS.brace, IDS.shields, IDS.rounds, IDS.trials, IDS.seed, IDS.run];
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
      for (const id of order.slice(0, -1)) {
        assert.equal(await v.page.locator(`label[for="${id}"]`).count(), 1, `label for ${id}`);
      }
    });
  });

  describe('state', () => {
    it('comes back after a reload, including edits not yet run', async () => {
      const v = await view();
      await showResult(v, destroyerVsFrigates());
      await v.page.fill(`#${IDS.trials}`, '777');
      await v.page.locator(`#${IDS.trials}`).dispatchEvent('change');
      await v.page.reload();
      await v.waitForPosted('ready');
      await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === '7.12%', IDS.kill);
      assert.equal(await v.text(IDS.defender), 'Maw Frigate Pack');
      assert.equal(await v.page.inputValue(`#${IDS.trials}`), '777');
      assert.equal(await v.page.isVisible(`#${IDS.results}`), true);
    });

    it('shows both cards\u2019 points beside their estimates, as text, and keeps them over a reload', async () => {
      const v = await view();
      const hostile = hostileResult();
      const estimates = {
        attacker: { points: 190, estimate: 537, ratio: 0.35, verdict: 'far too cheap', spreadPct: 22 },
        defender: { points: 110, reason: 'it deals no damage to the reference field.', spreadPct: 22 },
      };
      await v.send({ type: 'result', result: hostile, estimates });
      await v.page.waitForFunction((id) => !document.getElementById(id)!.hidden, IDS.estimates);
      assert.equal(
        await v.text(IDS.estimates),
        `Points estimate: ${HOSTILE_NAMES.attacker}: 190 pts, worth about 537 (far too cheap) · ${HOSTILE_NAMES.defender}: 110 pts, no estimate (typical error ±22%)`,
      );
      assert.equal(await v.page.locator('img, b, script:not([src])').count(), 0);
      await v.page.reload();
      await v.waitForPosted('ready');
      await v.page.waitForFunction((id) => /worth about 537/.test(document.getElementById(id)?.textContent ?? ''), IDS.estimates);
      // A result without estimates (an older server) hides the line.
      await showResult(v, destroyerVsFrigates());
      assert.equal(await v.page.isVisible(`#${IDS.estimates}`), false);
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
      assert.equal(await v.text(IDS.policy), HOSTILE_NAMES.policy);
      assert.deepEqual(await v.page.locator(`#${IDS.assumptions} li`).allInnerTexts(), [HOSTILE_NAMES.assumption]);
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
        for (let i = 0; i < 2000; i++) cursor = (cursor['result'] = {}) as Record<string, unknown>;
        window.postMessage(deep, '*');
      });
      await v.send({ type: 'result', result: { ...good, defender: 'After The Noise' } });
      await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === 'After The Noise', IDS.defender);
      assert.equal(await v.text(IDS.kill), '7.12%');
      assert.equal(await v.page.isHidden(`#${IDS.error}`), true, 'no malformed message reached the error box');
    });

    it('carries a strict CSP, no inline handlers, no eval and no remote resources', async () => {
      const html = server.html;
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
      assert.ok(csp, 'CSP meta tag present');
      const nonce = server.nonce;
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, new RegExp(`script-src 'nonce-${nonce.replace(/[+/]/g, '\\$&')}'(;|$)`));
      assert.match(csp, new RegExp(`style-src ${server.origin} 'nonce-`));
      assert.match(csp, new RegExp(`img-src ${server.origin} data:`));
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
      assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handler attributes');
      assert.doesNotMatch(html, /style="/, 'no inline style attributes');
      assert.equal((html.match(/<script\b/g) ?? []).length, 1, 'one script element');
      assert.match(html, new RegExp(`<script nonce="[^"]+" src="${server.origin}/webview.js"></script>`));
      const js = readFileSync(bundle.js, 'utf8');
      assert.doesNotMatch(js, /\beval\(|new Function\(/, 'the bundle never evaluates strings');
      assert.doesNotMatch(js, /https?:\/\/(?!www\.w3\.org)[a-z]/i, 'the bundle names no remote URL to load');

      const v = await view();
      await showResult(v, hugeDefender());
      await showResult(v, destroyerVsFrigates());
      assert.deepEqual(await v.cspViolations(), [], 'Chart.js drew both charts without breaking the CSP');
      assert.deepEqual(
        // Chromium asks for /favicon.ico by itself; VS Code's webview frame does not.
        [...new Set(server.requests.filter((r) => r !== '/favicon.ico'))].sort(),
        ['/', '/webview.css', '/webview.js'],
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
      );
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
