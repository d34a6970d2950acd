/**
 * `fabledStar/priceByBattle` over stdio against the bundled server (BATTLE.md "Points from
 * battles"): the "Price by battle" lens above a card's points runs the client's command;
 * the request streams the price as it converges, answers other requests meanwhile, ends with the
 * price inside its 95% interval and where the card's points are written, stops when cancelled, and
 * fails with a sentence on an unknown card.
 */
import { strict as assert } from 'node:assert';
import { CancellationTokenSource, type CodeLens, type Hover } from 'vscode-languageserver-protocol/node';
import { startServer, type Client } from './harness';
import { PRICE_COMMAND, PriceByBattlePartial, type BattlePriceResult, type PriceByBattleResult } from '../../protocol';

const CARD = [
  'faction: Lab',
  'units:',
  '  - name: Lab Frigate',
  '    class: Frigate',
  '    points: 110',
  '    stats: "9/3 5+ 7+ 3 7+ 3 6/2 8/2 2"',
  '    weapons:',
  '      - Lance — Energy, 12", 2, 2',
  '      - Battery — Auto, 9", 1, 3',
  '',
].join('\n');

describe('fabledStar/priceByBattle over stdio', function () {
  this.timeout(180_000);
  let c: Client;
  before(async () => {
    c = await startServer({ files: { 'cards/lab.unit.yaml': CARD } });
  });
  after(async () => c?.stop());

  it('puts "Price by battle" above each card\u2019s points, running the client\u2019s command with the card', async () => {
    const uri = await c.open('cards/lab.unit.yaml', CARD);
    const lenses = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const lens = lenses.find((l) => l.command?.title === 'Price by battle');
    assert.ok(lens, lenses.map((l) => l.command?.title).join(', '));
    assert.equal(lens.command!.command, PRICE_COMMAND);
    assert.deepEqual(lens.command!.arguments, [{ card: { name: 'Lab Frigate', uri, faction: 'Lab' } }]);
    assert.equal(lens.range.start.line, 4);
  });

  it('streams the price as it converges, answers other requests meanwhile, and ends inside its interval', async () => {
    const uri = c.uri('cards/lab.unit.yaml');
    const partials: BattlePriceResult[] = [];
    const sub = c.conn.onProgress(PriceByBattlePartial, 'price-partial', (v) => {
      partials.push(v);
    });
    const p = c.conn.sendRequest<PriceByBattleResult>('fabledStar/priceByBattle', { card: { name: 'Lab Frigate' }, partialResultToken: 'price-partial' });
    const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri }, position: c.pos(uri, 'points: 1', 9) });
    assert.ok(h, 'a hover while it prices');
    const r = await p;
    sub.dispose();
    assert.ok(partials.length >= 2, `${partials.length} partial results`);
    assert.ok(partials.every((x) => !x.done));
    assert.ok(partials.some((x) => x.price !== undefined));
    assert.ok(r.done && r.price !== undefined, r.reason);
    assert.ok(r.low! < r.price! && r.price! < r.high!);
    assert.equal(r.points, 110);
    assert.ok(Math.abs(r.ratio! - 110 / r.price!) < 0.01);
    assert.ok(r.estimate! > 0);
    assert.equal(r.fleets, r.tried);
    assert.equal(r.uri, uri);
    assert.deepEqual(r.pointsRange, { start: { line: 4, character: 12 }, end: { line: 4, character: 15 } });
  });

  it('then shows the measured price on the lens and in the hover of points, kept when only the points change, gone when a stat does', async () => {
    const uri = c.uri('cards/lab.unit.yaml');
    const r = await c.request<PriceByBattleResult>('fabledStar/priceByBattle', { card: { name: 'Lab Frigate' } });
    const words = `Battle price ${Math.round(r.price!)} pts (likely ${Math.round(r.low!)}\u2013${Math.round(r.high!)})`;
    const priceLens = async () => {
      const lenses = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      return lenses.find((l) => l.command?.command === PRICE_COMMAND);
    };
    const lens = (await priceLens())!;
    assert.equal(lens.command!.title, words, 'the lens says the measured price');
    assert.deepEqual(lens.command!.arguments, [{ card: { name: 'Lab Frigate', uri, faction: 'Lab' } }], 'clicked, it measures again');
    const hoverText = async () => {
      const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri }, position: c.pos(uri, 'points: ', 9) });
      return (h?.contents as { value: string }).value;
    };
    const replaceAll = (text: string) => c.change(uri, [{ text }], text);
    let hover = await hoverText();
    assert.ok(hover.includes(`**${words}**, measured by Price by battle; printed points are ${(110 / r.price!).toFixed(2)} × it`), hover);
    // Only the points changed: the same card against the same field, the same price; the ratio is the new points'.
    const repriced = CARD.replace('points: 110', `points: ${Math.round(r.price!)}`);
    await replaceAll(repriced);
    assert.equal((await priceLens())!.command!.title, words);
    hover = await hoverText();
    assert.ok(hover.includes(`printed points are ${(Math.round(r.price!) / r.price!).toFixed(2)} × it`), hover);
    // A stat changed: another card, not measured yet.
    const stronger = repriced.replace('Lance — Energy, 12", 2, 2', 'Lance — Energy, 12", 2, 4');
    await replaceAll(stronger);
    assert.equal((await priceLens())!.command!.title, 'Price by battle');
    assert.ok(!(await hoverText()).includes('Battle price'));
    await replaceAll(CARD);
    assert.equal((await priceLens())!.command!.title, words, 'back to the measured card');
  });

  it('stops when cancelled, and fails with a sentence on an unknown card', async () => {
    const source = new CancellationTokenSource();
    let first!: () => void;
    const started = new Promise<void>((res) => (first = res));
    const sub = c.conn.onProgress(PriceByBattlePartial, 'price-cancel', () => first());
    const p = c.conn.sendRequest('fabledStar/priceByBattle', { card: { name: 'Lab Frigate' }, partialResultToken: 'price-cancel' }, source.token);
    await started;
    source.cancel();
    await p.then(
      () => assert.fail('the pricing ran to the end although it was cancelled'),
      (e: { code?: number }) => assert.equal(e.code, -32800),
    );
    sub.dispose();
    await assert.rejects(c.request('fabledStar/priceByBattle', { card: { name: 'No Such Card' } }), /No card "No Such Card"/);
  });
});
