/**
 * Issue 31's measurement: how well instant estimates predict battle prices on homebrew cards that
 * are not in the reference field (bench/homebrew/*.unit.yaml, all ten classes, some mis-costed on
 * purpose, some near fair).
 *
 *   npx tsx bench/battle-prices.ts [--reprice]
 *
 * Battle prices (BATTLE.md "Points from battles") are cached in bench/homebrew/battle-prices.json
 * (with the field's fingerprint: a changed field or setting prices them again); --reprice prices
 * them again anyway. Then, for each estimator, the Spearman rank correlation between its verdict
 * (printed / estimate) and the battle verdict (printed / battle price), over every card and over
 * the near-fair ones (battle verdict within x/÷1.5), and how many mis-costed cards it flags (and
 * fair cards).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace } from '../server/src/core/workspace';
import { bundledBattleField } from '../server/src/core/balance/fitted';
import { playInProcess, priceCards, pricedCardOf, pricingFingerprint } from '../server/src/core/balance/battles';
import type { PricedCard } from '../server/src/core/balance/battles';

const DIR = path.join(__dirname, 'homebrew');
const CACHE = path.join(DIR, 'battle-prices.json');

export interface HomebrewCard {
  file: string;
  ref: ReturnType<Workspace['allCards']>[number];
  priced: PricedCard;
}

export function homebrewCards(): { ws: Workspace; cards: HomebrewCard[] } {
  const ws = new Workspace();
  for (const f of fs.readdirSync(DIR).filter((f) => f.endsWith('.unit.yaml')).sort()) ws.set(`file://${path.join(DIR, f)}`, fs.readFileSync(path.join(DIR, f), 'utf8'));
  const cards: HomebrewCard[] = [];
  for (const ref of ws.allCards()) {
    const priced = pricedCardOf(ref.card, ref.faction);
    if (priced) cards.push({ file: ref.uri, ref, priced });
  }
  return { ws, cards };
}

export interface CachedPrice {
  name: string;
  class: string;
  points: number;
  price: number | null;
  low: number | null;
  high: number | null;
  trials: number;
}

export async function homebrewPrices(reprice = false): Promise<CachedPrice[]> {
  const field = bundledBattleField();
  const fp = pricingFingerprint({ cards: [...field.cards, ...homebrewCards().cards.map((c) => c.priced)] });
  if (!reprice && fs.existsSync(CACHE)) {
    const cached = JSON.parse(fs.readFileSync(CACHE, 'utf8')) as { fingerprint: string; cards: CachedPrice[] };
    if (cached.fingerprint === fp) return cached.cards;
  }
  const t0 = process.cpuUsage();
  const started = Date.now();
  const { cards } = homebrewCards();
  const prices = await priceCards(
    cards.map((c) => c.priced),
    field,
    playInProcess(),
    { each: (r, i) => console.error(`${i + 1}/${cards.length} ${r.name}: ${r.price?.toFixed(0) ?? r.reason}`) },
  );
  const cpu = process.cpuUsage(t0);
  console.error(`priced ${cards.length} cards in ${((Date.now() - started) / 1000).toFixed(1)} s (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU)`);
  const out: CachedPrice[] = prices.map((p) => ({
    name: p.name,
    class: p.class,
    points: p.points,
    price: p.price ?? null,
    low: p.low ?? null,
    high: p.high ?? null,
    trials: p.trials,
  }));
  fs.writeFileSync(CACHE, JSON.stringify({ fingerprint: fp, cards: out }, null, 2) + '\n');
  return out;
}

if (require.main === module)
  void (async () => {
    const prices = await homebrewPrices(process.argv.includes('--reprice'));
    for (const p of prices) console.log(`${p.name.padEnd(26)} ${p.class.padEnd(12)} ${String(p.points).padStart(4)}  battle ${p.price?.toFixed(0) ?? '-'} [${p.low?.toFixed(0)}, ${p.high?.toFixed(0)}]  ratio ${p.price ? (p.points / p.price).toFixed(2) : '-'}`);
  })();
