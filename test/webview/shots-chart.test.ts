/**
 * Shots to kill in the engagement view (Chromium): the cumulative chart is drawn, and the rows
 * "destroyed within N Fire actions" under it are the CLI's rows for the same input, figure for
 * figure (`fabled-star sim` text and JSON from the bundled examples).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { IDS } from '../../client/webview/engagement/html';
import type { SimulationResult } from '../../server/src/core/sim/types';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO, type CliIO } from '../../server/src/cli/io';
import { buildView, serveView, THEMES, viewSuite, type ViewPage } from './harness';
import { EXAMPLES } from '../exampleFleets';

async function sim(args: string[], format: 'json' | 'text'): Promise<string> {
  let out = '';
  const io: CliIO = { ...nodeIO(), stdout: (s) => void (out += s), stderr: () => {} };
  assert.equal(await runSim(['--cards', EXAMPLES, ...args, '--trials', '400', '--seed', '3', '--format', format], io), 0);
  return out;
}

describe('engagement view: shots to kill (Chromium)', function () {
  this.timeout(60_000);
  const suite = viewSuite(
    async () => serveView(await buildView()),
    (v) => {
      assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view');
    },
  );

  async function show(v: ViewPage, result: SimulationResult): Promise<void> {
    await v.send({ type: 'result', result });
    await v.page.waitForFunction(([id, name]) => document.getElementById(id as string)?.textContent === name, [IDS.defender, result.defender] as const);
  }

  for (const pair of [
    ['Lumen Destroyer', 'Consumed Maw Frigate', '9'],
    ['Radiant Court', 'Lumen Cruiser', '18'],
  ] as const) {
    it(`shows the CLI's rows and draws the chart: ${pair[0]} vs ${pair[1]} at ${pair[2]}"`, async () => {
      const args = ['--attacker', pair[0], '--defender', pair[1], '--range', pair[2]];
      const result = JSON.parse(await sim(args, 'json')) as SimulationResult;
      const text = await sim(args, 'text');
      const cliRows = [...text.matchAll(/destroyed within\s+(\d+) Fire actions?\s+(\S+)/g)].map((m) => [m[1]!, m[2]!]);
      assert.ok(cliRows.length >= 2, text);
      const mean = /Mean ([\d.]+) Fire actions; half the time within (\S+), 90% of the time within (\S+)/.exec(text);
      assert.ok(mean, text);

      const v = await suite.view(THEMES.dark);
      await show(v, result);
      assert.equal(await v.page.isHidden(`#${IDS.shotsSection}`), false);
      const rows = await v.page.$$eval(`#${IDS.shotsTable} tbody tr`, (trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent ?? '')));
      assert.deepEqual(
        rows.map(([n, p]) => [/^(\d+)/.exec(n!)![1]!, p]),
        cliRows,
      );
      const sentence = await v.text(IDS.shotsSentence);
      assert.ok(sentence.includes(`${mean[1]} Fire actions on average`), sentence);
      assert.ok(sentence.includes(`half the time within ${mean[2]}, 9 times in 10 within ${mean[3]}`), sentence);

      // Drawn in the theme's red once Chart.js has sized the canvas (after layout: waited for).
      const red = THEMES.dark.vars['charts-red']!;
      const shows = ([id, h]: readonly [string, string]) => {
        const canvas = document.getElementById(id) as HTMLCanvasElement;
        if (!canvas.width || !canvas.height) return false;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        const want = [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
        for (let i = 0; i < data.length; i += 4)
          if (data[i] === want[0] && data[i + 1] === want[1] && data[i + 2] === want[2] && data[i + 3] === 255) return true;
        return false;
      };
      await v.page.waitForFunction(shows, [IDS.shotsChart, red] as const, { timeout: 10_000 });
      const label = (await v.page.getAttribute(`#${IDS.shotsChart}`, 'aria-label')) ?? '';
      assert.ok(label.includes(`${cliRows[0]![1]} within 1`), label);
      await v.page
        .locator(`#${IDS.shotsSection}`)
        .screenshot({ path: join(__dirname, '..', '..', 'test-output', 'webview', `shots-${pair[0].replace(/\W+/g, '-')}.png`) });
    });
  }

  it('says in words when the defender can never be destroyed, with no chart', async () => {
    const args = ['--attacker', 'Lumen Destroyer', '--defender', 'Consumed Maw Frigate', '--range', '9'];
    const result = JSON.parse(await sim(args, 'json')) as SimulationResult;
    result.shotsToKill = { mean: null, p50: null, p90: null, cdf: [], converged: true };
    const v = await suite.view();
    await show(v, result);
    assert.match(await v.text(IDS.shotsSentence), /can never destroy Consumed Maw Frigate by firing alone/);
    assert.equal(await v.page.isHidden(`#${IDS.shotsChart}`), true);
    assert.equal(await v.page.locator(`#${IDS.shotsTable} tbody tr`).count(), 0);
  });
});
