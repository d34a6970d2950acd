/**
 * The points estimate's training set: variants of the bundled cards priced by battle
 * (scripts/build-synthetic-prices.ts, server/src/core/balance/synthetic-prices.json). The shipped
 * file is what the seed makes and what the pricing's settings give (a cheap fingerprint test); the
 * variants span every class and every kind of mutation; the estimate is fitted to them, and predicts
 * variants of bundled cards it was not fitted on (cross-validation by bundled card) better than the
 * first model's shape does.
 */
import { strict as assert } from 'node:assert';
import syntheticPrices from '../../server/src/core/balance/synthetic-prices.json';
import { cardFingerprint, playInProcess, pricingFingerprint } from '../../server/src/core/balance/battles';
import { bundledBattleField } from '../../server/src/core/balance/fitted';
import { CLASSES, CLASS_NAMES, SYNTHETIC } from '../../server/src/core/rules/data';
import { fieldFor, newEstimates } from '../../server/src/core/balance/index';
import { fitBattleModel, modelEstimate } from '../../server/src/core/balance/model';
import { syntheticFeatures, syntheticTraining, trainingRows } from '../../server/src/core/balance/prices';
import type { TrainingRow } from '../../server/src/core/balance/prices';
import { allSyntheticCards, crCards, reachCards, smallHull, syntheticCards, syntheticPricesOf } from '../../scripts/build-synthetic-prices';
import { BATTLE_TERMS } from '../../server/src/core/balance/shapes';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

const REGENERATE = 'run node --import=tsx scripts/build-synthetic-prices.ts (after npm run build, for the worker threads)';

describe('the estimate\u2019s training set (synthetic variants priced by battle)', () => {
  const field = bundledBattleField();

  it('ships the variants the seed makes, priced with the current settings against the current field', () => {
    assert.equal(syntheticPrices.fingerprint, pricingFingerprint(field), REGENERATE);
    assert.equal(syntheticPrices.seed, SYNTHETIC.seed, REGENERATE);
    const made = allSyntheticCards(field);
    assert.equal(made.length, SYNTHETIC.count + SYNTHETIC.reach.count + SYNTHETIC.cr.count);
    assert.deepEqual(made.slice(0, SYNTHETIC.count), syntheticCards(field), 'the random variants first, the same as before the reach variants came');
    assert.equal(syntheticPrices.cards.length, made.length, REGENERATE);
    for (const [i, c] of made.entries()) {
      const row = syntheticPrices.cards[i]!;
      assert.equal(row.name, c.name, REGENERATE);
      assert.equal(row.fingerprint, cardFingerprint(c), `${c.name}: ${REGENERATE}`);
      if (row.price !== null) assert.ok(row.low! <= row.price && row.price <= row.high!, c.name);
    }
  });

  it('ships each variant\u2019s features as the estimate computes them now', () => {
    const f = fieldFor([], estimates);
    for (const s of syntheticTraining()) {
      const now = syntheticFeatures(s.card, f)!;
      assert.ok(s.features, `${s.card.name}: node --import=tsx scripts/build-synthetic-prices.ts --features`);
      for (const t of [...BATTLE_TERMS, 'carried'] as const)
        assert.ok(Math.abs(now[t] - s.features[t]) < 1e-9, `${s.card.name} ${t}: node --import=tsx scripts/build-synthetic-prices.ts --features`);
    }
  });

  it('spans every class and every kind of mutation, and most variants have a price', () => {
    const cards = syntheticPrices.cards;
    for (const cls of CLASS_NAMES) assert.ok(cards.filter((c) => c.class === cls).length >= 8, cls);
    const said = cards.flatMap((c) => c.mutations).join('\n');
    for (const kind of [/attacks/, /damage/, /range/, /BS /, /HP /, /AC /, /D /, /SH /, /M /, /CR /, /bays /, /^\+ /m, /^- /m]) assert.match(said, kind);
    assert.ok(cards.filter((c) => c.price !== null).length >= 0.9 * cards.length, 'at least 90% priced');
    // Prices spread widely: the variants are not copies of the bundled cards.
    const ratios = cards.filter((c) => c.price !== null).map((c) => c.price! / field.cards.find((p) => p.name === c.parent)!.points);
    assert.ok(Math.min(...ratios) < 0.7 && Math.max(...ratios) > 1.6, `${Math.min(...ratios)} .. ${Math.max(...ratios)}`);
  });

  it('the reach variants are small hulls with a weapon\u2019s range or their movement changed, spread over every small hull of the field', () => {
    const reach = reachCards(field);
    assert.equal(reach.length, SYNTHETIC.reach.count);
    const small = field.cards.filter((c) => smallHull(c.class));
    assert.ok(small.length >= 4 && small.every((c) => c.class !== 'Cruiser'));
    for (const c of reach) {
      assert.ok(smallHull(c.class), c.name);
      assert.match(c.mutations[0]!, /range|^M /, c.name);
      const parent = small.find((p) => p.name === c.parent)!;
      const moved = JSON.stringify(c.profile.move) !== JSON.stringify(parent.profile.move);
      const ranged = c.profile.weapons.some((w) => !parent.profile.weapons.some((p) => p.name === w.name && p.range === w.range));
      assert.ok(moved || ranged || c.profile.weapons.length < parent.profile.weapons.length, `${c.name}: ${c.mutations.join('; ')}`);
    }
    for (const p of small) assert.ok(reach.filter((c) => c.parent === p.name).length >= SYNTHETIC.reach.count / small.length - 1, p.name);
  });

  it('the boarding variants are ships (not small craft) with their CR changed or taken away, spread over every such card of the field', () => {
    const boarding = crCards(field);
    assert.equal(boarding.length, SYNTHETIC.cr.count);
    const ships = field.cards.filter((c) => !CLASSES[c.class].smallCraft);
    for (const c of boarding) {
      const parent = ships.find((p) => p.name === c.parent)!;
      assert.ok(parent, c.name);
      assert.match(c.mutations[0]!, /^CR /, c.name);
      assert.notDeepEqual(c.profile.cr, parent.profile.cr, `${c.name}: ${c.mutations.join('; ')}`);
      assert.equal(c.mutations.filter((m) => m.startsWith('CR ')).length, 1, `${c.name}: one CR change`);
    }
    assert.ok(boarding.some((c) => !c.profile.cr) && boarding.some((c) => (c.profile.cr?.dice ?? 0) >= 8), 'CR taken away, and boarding specialists');
    for (const p of ships) assert.ok(boarding.filter((c) => c.parent === p.name).length >= Math.floor(SYNTHETIC.cr.count / ships.length), p.name);
  });

  it('the same seed makes the same variants; another seed others', () => {
    assert.deepEqual(syntheticCards(field, 10), syntheticCards(field, 10));
    assert.notDeepEqual(
      syntheticCards(field, 10, 7).map((c) => c.profile),
      syntheticCards(field, 10).map((c) => c.profile),
    );
  });

  it('the generator writes each variant with its parent, mutations, price and fingerprint', async () => {
    const tiny = { cards: field.cards.filter((c) => c.faction === 'Myr-Valari') };
    const [one] = syntheticCards(tiny, 1);
    const file = await syntheticPricesOf(tiny, [one!], playInProcess());
    assert.equal(file.fingerprint, pricingFingerprint(tiny));
    const row = file.cards[0]!;
    assert.equal(row.parent, tiny.cards[0]!.name);
    assert.ok(row.mutations.length >= 2);
    assert.equal(row.fingerprint, cardFingerprint(one!));
    assert.ok(row.price !== null && row.price > 0);
  });

  it('cross-validated by bundled card, the estimate predicts unseen variants better than k x sqrt(F x H) refitted the same way', () => {
    const f = fieldFor([], estimates);
    const rows = trainingRows(f, f.battle!.measured);
    assert.ok(rows.length >= 20 + 0.9 * (SYNTHETIC.count + SYNTHETIC.reach.count + SYNTHETIC.cr.count));
    const groups = [...new Set(rows.map((r) => r.group))];
    const cv = (fit: (rs: TrainingRow[]) => ((r: TrainingRow) => number) | undefined) => {
      const errs: number[] = [];
      for (const g of groups) {
        const predict = fit(rows.filter((r) => r.group !== g));
        assert.ok(predict, g);
        for (const r of rows.filter((o) => o.group === g && o.synthetic)) errs.push(Math.log(r.price / predict(r)));
      }
      return Math.sqrt(errs.reduce((t, e) => t + e * e, 0) / errs.length);
    };
    const model = cv((rs) => {
      const m = fitBattleModel(
        rs.map((r) => r.x),
        rs.map((r) => r.price),
      );
      return m && ((r) => modelEstimate(m, r.x));
    });
    // The first model's shape: log price = log k + 0.5 * log(F x H), k fitted on the same rows.
    const first = cv((rs) => {
      const k = rs.reduce((t, r) => t + Math.log(r.price) - 0.5 * (r.x.logF + r.x.logH), 0) / rs.length;
      return (r) => Math.exp(k + 0.5 * (r.x.logF + r.x.logH));
    });
    console.log(
      `      cross-validated error on the variants: the estimate ±${((Math.exp(model) - 1) * 100).toFixed(0)}%, k x sqrt(F x H) ±${((Math.exp(first) - 1) * 100).toFixed(0)}%`,
    );
    assert.ok(model < 0.7 * first, `${model} vs ${first}`);
    assert.ok(model < Math.log(1.25), `±${((Math.exp(model) - 1) * 100).toFixed(0)}%`);
  });
});
