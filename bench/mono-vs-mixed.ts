/**
 * Do fleets of copies of one card trade better per point than mixed fleets? (docs/points.md, "What
 * fair is measured against".) A card's battle price is where fleets of its copies break even with
 * the mixed reference fleets built from the field; most of the bundled field's cards price above
 * their printed points, which reads the field's own cards as cheap. If a mixed fleet were worth the
 * sum of its cards, fleets of copies of the cards in it would, weighed by their share of its points,
 * break even with it at their printed points on average. This prices every bundled field card
 * against each reference fleet (the battle engine, the pricing's settings, on the price pool's
 * threads) and, per reference fleet, reports that weighed mean of log(price / printed points) over
 * the cards the fleet is made of: above 0, fleets of copies of its own cards beat it point for point.
 *
 *   npx tsx bench/mono-vs-mixed.ts
 */
import { bundledBattleField } from '../server/src/core/balance/fitted';
import { priceCard, referenceFleets } from '../server/src/core/balance/battles';
import { pricePool } from '../server/src/cli/price-pool';
import { GAME_SIZES } from '../server/src/core/rules/data';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${((Math.exp(x) - 1) * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const field = bundledBattleField();
  const started = Date.now();
  const t0 = process.cpuUsage();
  const pool = pricePool();
  const prices = await Promise.all(field.cards.map((c) => priceCard(c, field, pool.play))).finally(() => pool.close());
  const cpu = process.cpuUsage(t0);
  // price of card X against fleet M (by the fleet's name, which carries its size).
  const against = new Map<string, Map<string, number>>();
  for (const p of prices) against.set(p.name, new Map(p.against.filter((a) => a.price !== undefined).map((a) => [a.fleet, a.price!])));
  const all: number[] = [];
  const cardsAll: number[] = [];
  console.log(`Fleets of copies of each card against the mixed reference fleets made of the field's cards (${field.cards.length} cards).`);
  console.log('reference fleet        points  units  cards  fleets of copies of its own cards vs it (weighed by points)  cards whose copies beat it');
  for (const size of GAME_SIZES.map((g) => g.points))
    for (const m of referenceFleets(field, size)) {
      const byCard = new Map<string, number>();
      for (const u of m.units) byCard.set(u.name, (byCard.get(u.name) ?? 0) + u.points);
      let sum = 0;
      let weight = 0;
      let beat = 0;
      let priced = 0;
      for (const [name, points] of byCard) {
        const card = field.cards.find((c) => c.name === name)!;
        const price = against.get(name)?.get(m.name);
        if (price === undefined) continue;
        // The package's price (a host with its bays filled) against its printed points with what it carries.
        const x = Math.log(price / card.points);
        sum += points * x;
        weight += points;
        priced++;
        if (x > 0) beat++;
        cardsAll.push(x);
      }
      const w = sum / weight;
      all.push(w);
      console.log(
        `${m.name.padEnd(22)} ${String(m.points).padStart(6)}  ${String(m.units.length).padStart(5)}  ${String(byCard.size).padStart(5)}  ${pct(w).padStart(58)}  ${beat} of ${priced}`,
      );
    }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `\nMean over the ${all.length} reference fleets: fleets of copies of a fleet's own cards are worth ${pct(mean(all))} per point against it ` +
      `(each card against each fleet it is in: ${cardsAll.filter((x) => x > 0).length} of ${cardsAll.length} above their printed points).`,
  );
  const fieldMean = mean(prices.filter((p) => p.price !== undefined).map((p) => Math.log(p.price! / p.points)));
  console.log(
    `Over all reference fleets, the field's battle prices are ${pct(fieldMean)} over printed points (geometric mean; the fair scale is ${Math.exp(-fieldMean).toFixed(3)}).`,
  );
  console.log(`Priced in ${((Date.now() - started) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU in this thread.`);
}

void main();
