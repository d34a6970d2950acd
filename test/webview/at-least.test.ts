/**
 * Cumulative odds in the engagement view (Chromium): the table of "at least N HP" beside the
 * histogram shows the numbers `fabled-star sim --format json` gives for the same duel.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { IDS } from '../../client/webview/engagement/html';
import type { SimulationResult } from '../../server/src/core/sim/types';
import { formatPercent } from '../../client/webview/format';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO } from '../../server/src/cli/io';
import { destroyerVsFrigates } from './fixtures';
import { buildView, ROOT, serveView, viewSuite } from './harness';

async function cliResult(): Promise<SimulationResult> {
  let out = '';
  const code = await runSim(
    ['--attacker', 'Lumen Destroyer', '--defender', 'Consumed Maw Frigate', '--cards', join(ROOT, 'examples'), '--trials', '2000', '--format', 'json'],
    { ...nodeIO(), cwd: ROOT, stdout: (s) => (out += s), stderr: () => undefined },
  );
  assert.equal(code, 0);
  return JSON.parse(out) as SimulationResult;
}

describe('engagement view: cumulative odds (Chromium)', function () {
  this.timeout(60_000);
  const suite = viewSuite(
    async () => serveView(await buildView()),
    (v) => assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view'),
  );

  it('shows P(at least N HP lost) as the CLI computes it, in player words, with how it is read under Advanced', async () => {
    const result = await cliResult();
    const want = result.volley.hullDamageAtLeast!;
    assert.ok(want.length >= 2, 'the duel can deal several HP');
    const v = await suite.view();
    await v.send({ type: 'result', result });
    await v.page.waitForFunction((id) => (document.getElementById(id) as HTMLTableElement | null)?.tBodies[0]?.rows.length, IDS.hullAtLeast);
    const rows = await v.page.$$eval(`#${IDS.hullAtLeast} tbody tr`, (trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent ?? '')));
    assert.deepEqual(
      rows,
      want.map((pt) => [`${pt.value} HP`, formatPercent(pt.p)]),
    );
    assert.equal(await v.page.isVisible(`#${IDS.hullAtLeast}`), true);
    assert.match(await v.page.locator(`#${IDS.hullAtLeast} caption`).innerText(), /Chance of dealing at least this much hull damage/);
    // The first row is the chance of any hull damage: 1 - P(0) from the histogram the chart draws.
    const p0 = result.volley.hullDamage.find((pt) => pt.value === 0)?.p ?? 0;
    assert.ok(Math.abs(want[0]!.p - (1 - p0)) < 1e-12);
    assert.match(
      await v.page
        .locator(`#${IDS.hullAtLeastNote}`)
        .textContent()
        .then((t) => t ?? ''),
      /Chance of at least N HP/,
    );
  });

  it('a result without the list (an older server) shows no empty table', async () => {
    const v = await suite.view();
    const result = destroyerVsFrigates();
    delete result.volley.hullDamageAtLeast;
    await v.send({ type: 'result', result });
    await v.page.waitForFunction((id) => document.getElementById(id)?.textContent === 'Maw Frigate Pack', IDS.defender);
    assert.equal(await v.page.isVisible(`#${IDS.hullAtLeast}`), false);
  });
});
