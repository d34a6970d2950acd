/**
 * The "vs the field" view in Chromium, under the page's CSP: the rows it is given (the CLI's
 * `sim --vs-field` JSON for the bundled examples) in the CLI's order with the CLI's figures, names
 * from files as text, a row's "Simulate" posting the pair, and a change of options asking for rows.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIELD_IDS as I, renderFieldHtml } from '../../client/webview/field/html';
import type { VsFieldResult } from '../../protocol';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO, type CliIO } from '../../server/src/cli/io';
import { formatPercent } from '../../client/webview/format';
import { buildNamedView, OUTPUT, serveNamedView, THEMES, viewSuite, type ViewPage } from './harness';
import { EXAMPLES } from '../exampleFleets';

async function cliField(args: string[]): Promise<VsFieldResult> {
  let out = '';
  const io: CliIO = { ...nodeIO(), stdout: (s) => void (out += s), stderr: () => {} };
  assert.equal(await runSim(['--cards', EXAMPLES, ...args, '--vs-field', '--format', 'json'], io), 0);
  return JSON.parse(out) as VsFieldResult;
}

describe('vs the field view (Chromium)', function () {
  this.timeout(60_000);
  const suite = viewSuite(
    async () => serveNamedView('field', await buildNamedView('field'), renderFieldHtml),
    async (v) => {
      assert.deepEqual(v.pageErrors, [], 'uncaught errors in the view');
      assert.deepEqual(v.dialogs, [], 'the view opened a dialog');
      assert.deepEqual(await v.cspViolations(), [], 'CSP violations');
    },
  );

  async function show(v: ViewPage, result: VsFieldResult, options: { side: 'attacker' | 'defender'; range?: number }): Promise<void> {
    await v.send({ type: 'result', result, options });
    await v.page.waitForFunction((id) => !document.getElementById(id)!.hidden, I.results);
  }

  it("shows the CLI's rows in its order, each figure as the views write it", async () => {
    const result = await cliField(['--attacker', 'Lumen Destroyer', '--range', '9']);
    const v = await suite.view(THEMES.light);
    await show(v, result, { side: 'attacker', range: 9 });
    const rows = await v.page.$$eval(`#${I.table} tbody tr`, (trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent ?? '')));
    assert.equal(rows.length, result.field.length);
    result.field.forEach((f, i) => {
      const row = rows[i]!;
      assert.equal(row[0], f.defender);
      assert.equal(row[4], formatPercent(f.killProbability), f.defender);
      assert.equal(row[5], `${f.expectedHullDamage.toFixed(2)} HP`, f.defender);
      assert.equal(row[6], f.shotsToKill.mean === null ? 'never' : `${f.shotsToKill.mean.toFixed(2)}${f.shotsToKill.converged ? '' : '+'}`);
      assert.equal(row[8], f.pointsPerAction === null ? '—' : f.pointsPerAction.toFixed(2));
    });
    assert.match(await v.text(I.lead), new RegExp(`Lumen Destroyer fires once at each of ${result.field.length} cards at 9"`));
    // One Fire action's small hull damage beside a few Fire actions to destroy: said in words.
    assert.match(await v.text(I.sortNote), /Shields soak up the first Fire action, so its hull damage can be small; shields knocked down stay down/);
    assert.equal(await v.page.inputValue(`#${I.range}`), '9');
    await v.page.screenshot({ path: join(OUTPUT, 'field-view.png'), fullPage: true });

    // A row's "Simulate" asks for the duel of the pair, the card as it was picked.
    await v.page.locator(`#${I.table} tbody tr`).first().getByRole('button', { name: 'Simulate' }).click();
    const sim = await v.waitForPosted('simulate' as never);
    assert.deepEqual(sim, { type: 'simulate', other: { name: result.field[0]!.defender, faction: result.field[0]!.faction } });

    // Another side asks for new rows, and marks the ones shown as stale meanwhile.
    await v.page.selectOption(`#${I.side}`, 'defender');
    const rerun = await v.waitForPosted('rerun');
    assert.deepEqual(rerun, { type: 'rerun', options: { side: 'defender', range: 9 } });
    assert.equal(await v.page.isHidden(`#${I.stale}`), false);
  });

  it('says "the only card of the field" when the field holds one card, not "each of 1 card"', async () => {
    // A new player's folder with one card of their own: the field is that card.
    const attacking = await cliField(['--attacker', 'Lumen Destroyer', '--range', '9']);
    const v = await suite.view();
    await show(v, { ...attacking, field: attacking.field.slice(0, 1) }, { side: 'attacker', range: 9 });
    assert.equal(await v.text(I.lead), 'Lumen Destroyer fires once at the only card of the field at 9".');
    const defending = await cliField(['--defender', 'Lumen Destroyer', '--range', '9']);
    await show(v, { ...defending, field: defending.field.slice(0, 1) }, { side: 'defender', range: 9 });
    assert.equal(await v.text(I.lead), 'The only card of the field fires once at Lumen Destroyer at 9".');
  });

  it('puts names from files in as text, and ignores a message of the wrong shape', async () => {
    const result = await cliField(['--defender', 'Lumen Destroyer']);
    const hostile = '<img src=x onerror=alert(1)>Raider';
    result.field[0]!.attacker = hostile;
    const v = await suite.view();
    await v.send({ type: 'result', result: { ...result, field: 'no' }, options: { side: 'defender' } });
    await show(v, result, { side: 'defender' });
    assert.equal(await v.page.locator(`#${I.table} img`).count(), 0);
    assert.equal(await v.page.locator(`#${I.table} tbody tr`).first().locator('th').textContent(), hostile);
    assert.equal(await v.page.textContent(`#${I.otherHeading}`), 'Firing card');
  });
});
