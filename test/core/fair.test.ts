/**
 * The yardstick "fair" (docs/points.md): a card is fair when it trades like the reference field's
 * cards do on average. Fleets of copies of one card trade better per point than the mixed fleets
 * they are priced against, so battle prices run above printed points; the estimate is scaled by the
 * field's fair scale (the geometric mean of printed points / battle price over the field, shipped
 * in bundled-fit.json) so that:
 * - the field's own cards are fair on average (computed here from the shipped data);
 * - a class template at its class's standard points reads fair (no note, within the flag's band);
 * - a workspace field priced by battle takes its own scale, one fitted to printed points none.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLASSES, CLASS_NAMES, POINTS_ESTIMATE } from '../../server/src/core/rules/data';
import { Workspace } from '../../server/src/core/workspace';
import type { UnitDocument } from '../../server/src/core/model/types';
import { templatesFor } from '../../server/src/core/features/templates';
import { battleVerdict, pointsEstimateParts } from '../../server/src/core/features/pointsEstimate';
import { plainSnippet } from '../../server/src/lsp/convert';
import { bundledCards, estimateCard, estimateInWorkspace, fieldFor, newEstimates, setFieldPrices, workspaceField } from '../../server/src/core/balance/index';

const BALANCE = join(__dirname, '..', '..', 'server', 'src', 'core', 'balance');
const shippedPrices = JSON.parse(readFileSync(join(BALANCE, 'battle-prices.json'), 'utf8')) as {
  cards: { name: string; points: number; price: number; low: number; high: number }[];
};
const shippedFit = JSON.parse(readFileSync(join(BALANCE, 'bundled-fit.json'), 'utf8')) as { battle: { fair: number } };

const geomean = (xs: number[]) => Math.exp(xs.reduce((t, x) => t + Math.log(x), 0) / xs.length);

/** Each card template of a new cards file, as a card in a workspace of its own. */
function templateCards() {
  return templatesFor('unitFile').map((t) => {
    const ws = new Workspace();
    ws.set('file:///t/template.unit.yaml', plainSnippet(t.body.join('\n')), 'unit');
    const card = (ws.get('file:///t/template.unit.yaml') as UnitDocument).units[0]!;
    return { t, ws, card, cls: card.class.value! };
  });
}

describe('points estimate: the yardstick "fair"', function () {
  this.timeout(60_000);

  it('the shipped fair scale is the field\u2019s geometric mean of printed points / battle price', () => {
    const fair = geomean(shippedPrices.cards.map((c) => c.points / c.price));
    assert.ok(Math.abs(shippedFit.battle.fair - fair) < 1e-12, `shipped ${shippedFit.battle.fair}, from the prices ${fair}`);
    // The skew it corrects: most of the field's cards price above their printed points by battle.
    assert.ok(shippedPrices.cards.filter((c) => c.price > c.points).length > shippedPrices.cards.length / 2);
  });

  it('the reference field\u2019s cards are fair on average: the geometric mean of printed / estimated points is 1', () => {
    const field = fieldFor([], newEstimates());
    const ratios = bundledCards()
      .map((c) => estimateCard(c.card, c.faction, field))
      .filter((e) => e.inField)
      .map((e) => e.points! / e.estimate!);
    assert.equal(ratios.length, shippedPrices.cards.length);
    const g = geomean(ratios);
    assert.ok(Math.abs(Math.log(g)) < 0.005, `geometric mean of printed / estimated over the field: ${g.toFixed(4)}`);
  });

  it('a field card is flagged as battles flag it: only when its whole 95% interval, on the yardstick, is beyond the band', () => {
    const field = fieldFor([], newEstimates());
    const fair = field.battle!.fair;
    let onTheLine = 0;
    for (const c of bundledCards()) {
      const e = estimateCard(c.card, c.faction, field);
      const p = shippedPrices.cards.find((x) => x.name === e.name)!;
      const v = battleVerdict(e.points, p.low * fair, p.high * fair);
      assert.equal(e.farOff, v === 'far too dear' || v === 'far too cheap', `${e.name}: ${v}`);
      if (v === 'on the line') onTheLine++;
    }
    // The Maw Fighter Swarm: 60 pts, about 40 on the yardstick (1.38 to 1.65 x it over its interval).
    assert.ok(onTheLine >= 1);
  });

  it('a class template at its class\u2019s standard points reads fair, within the flag\u2019s band, and its hover gives no verdict', () => {
    const field = fieldFor([], newEstimates());
    const band = Math.max(POINTS_ESTIMATE.flagSpreads * field.spreadLog, Math.log(POINTS_ESTIMATE.flagRatio));
    const seen: string[] = [];
    for (const { t, ws, card, cls } of templateCards()) {
      assert.equal(card.points.value, CLASSES[cls].points, t.label);
      const e = estimateInWorkspace(card, card.faction.value ?? '', ws);
      assert.equal(workspaceField(ws).source, 'examples');
      assert.ok(
        e.ratio !== undefined && Math.abs(Math.log(e.ratio)) < band,
        `${cls}: printed ${e.points} is ${e.ratio?.toFixed(2)} x the estimate ${e.estimate?.toFixed(0)}`,
      );
      assert.equal(e.farOff, false, cls);
      assert.doesNotMatch(pointsEstimateParts(card, ws).main, /far too (cheap|dear)/, cls);
      seen.push(cls);
    }
    assert.deepEqual([...seen].sort(), [...CLASS_NAMES].sort());
  });

  it('a class template is costed as its class card: near its points, on average fair', () => {
    const ratios: number[] = [];
    const seen: string[] = [];
    for (const { ws, card, cls } of templateCards()) {
      const ratio = estimateInWorkspace(card, card.faction.value ?? '', ws).ratio!;
      // The bundled class card of the same class at the same points, as the estimate reads it.
      const own = bundledCards().find((c) => c.faction === 'Myr-Valari' && c.card.class.value === cls && c.card.points.value === CLASSES[cls].points);
      assert.ok(own, cls);
      const ownRatio = estimateInWorkspace(own.card, own.faction, new Workspace()).ratio!;
      assert.ok(
        Math.abs(Math.log(ratio)) < Math.log(1.25) || Math.abs(Math.log(ratio / ownRatio)) < 0.1,
        `${cls}: printed ${card.points.value} is ${ratio.toFixed(2)} x the estimate (its class card ${ownRatio.toFixed(2)} x)`,
      );
      ratios.push(ratio);
      seen.push(cls);
    }
    assert.equal(seen.length, CLASS_NAMES.length);
    const mean = Math.exp(ratios.reduce((t, r) => t + Math.log(r), 0) / ratios.length);
    assert.ok(Math.abs(Math.log(mean)) < Math.log(1.1), `the templates' printed points are ${mean.toFixed(3)} x their estimates on average`);
  });

  it('a workspace field takes its own scale: 1 against its printed points, its battle prices\u2019 once priced', () => {
    const st = newEstimates();
    // The bundled cards under factions of their own: ten or more at standard points make a workspace field.
    const cards = bundledCards().map((c) => ({ ...c, faction: `${c.faction} Lab` }));
    const printed = fieldFor(cards, st);
    assert.equal(printed.source, 'workspace');
    assert.equal(printed.battle?.fittedTo, 'printed points');
    assert.equal(printed.battle?.fair, 1);
    // Priced by battle at 1.25 x their points: the scale is 0.8, and its cards read fair again.
    setFieldPrices(printed, new Map(printed.members.map((m) => [m.key, m.points * 1.25])));
    const priced = fieldFor(cards, st);
    assert.equal(priced.battle?.fittedTo, 'battle prices');
    assert.ok(Math.abs(priced.battle!.fair - 0.8) < 1e-12, String(priced.battle!.fair));
    for (const c of cards) {
      const e = estimateCard(c.card, c.faction, priced);
      if (e.inField) assert.ok(Math.abs(e.estimate! - e.points!) < 1e-9, `${e.name}: ${e.estimate}`);
    }
  });
});
