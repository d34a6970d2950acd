/**
 * The points estimate's shipped fit (server/src/core/balance/bundled-fit.json, made by
 * scripts/build-bundled-fit.ts): what the estimate reads instead of fitting the bundled field when it
 * starts. It must be the fit the code makes now, and be the one the bundled field uses.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workspace } from '../../server/src/core/workspace';
import { BUNDLED_FIT_JSON, bundledFitNow } from '../../scripts/build-bundled-fit';
import { bundledCards, clearEstimateMemo, estimateCard, fieldFor, newEstimates } from '../../server/src/core/balance/index';
import { fitInputsKey } from '../../server/src/core/balance/prices';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

const REGENERATE = 'run node --import=tsx scripts/build-bundled-fit.ts';

/** JSON's view of a value: undefined in arrays as null, undefined members gone. */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('points estimate: the shipped fit of the bundled field', function () {
  this.timeout(60_000);
  const shipped = JSON.parse(readFileSync(BUNDLED_FIT_JSON, 'utf8')) as { key: string; battle: unknown; loo: unknown };

  it(`is the fit the code makes now (${REGENERATE} if not)`, () => {
    const now = bundledFitNow();
    assert.equal(shipped.key, now.key, `the field, its battle prices or the training set changed: ${REGENERATE}`);
    assert.deepEqual(shipped.battle, asJson(now.battle), `the estimate's features or fit changed: ${REGENERATE}`);
    assert.deepEqual(shipped.loo, asJson(now.loo), REGENERATE);
  });

  it('is read for the bundled field, and every estimate is the one fitting gives', () => {
    clearEstimateMemo(estimates);
    const field = fieldFor([], estimates);
    assert.equal(fitInputsKey(field, field.members.map((m) => m.key).join('\u0001')), shipped.key);
    // The bundled cards (their measured prices) and homebrew ones the model predicts.
    const ws = new Workspace();
    ws.set('file:///homebrew.unit.yaml', readFileSync(join(__dirname, '..', '..', 'bench', 'homebrew', 'homebrew-holdout.unit.yaml'), 'utf8'), 'unit');
    const cards = [...bundledCards(), ...ws.allCards()];
    assert.ok(cards.length > 30);
    const read = cards.map((c) => estimateCard(c.card, c.faction, field));
    assert.ok(read.filter((e) => e.estimate !== undefined && !e.measured).length >= 15, 'homebrew cards are predicted');
    estimates.useShippedFit(false);
    try {
      const fitted = fieldFor([], estimates);
      assert.equal(fitted.spreadLog, field.spreadLog);
      assert.deepEqual(
        cards.map((c) => estimateCard(c.card, c.faction, fitted)),
        read,
      );
    } finally {
      estimates.useShippedFit(true);
      clearEstimateMemo(estimates);
    }
  });
});
