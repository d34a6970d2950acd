/**
 * The battle prices measurement: how well instant estimates predict battle prices on homebrew cards that
 * are neither in the reference field nor in the estimate's training set: two sets (HOMEBREW_SETS,
 * bench/homebrew/, all ten classes, some mis-costed on purpose, some near fair), never fitted on.
 *
 *   npx tsx bench/battle-prices.ts [--reprice] [--raw]
 *
 * Battle prices (BATTLE.md "Points from battles") are cached beside each set (battle-prices.json,
 * holdout-prices.json, with the field's fingerprint: a changed field or setting prices them again,
 * on the price pool's threads); --reprice prices them again anyway. Then, per set and estimator,
 * the Spearman rank correlation between its verdict (printed / estimate) and the battle verdict
 * (printed / battle price), over every card and over the near-fair ones (battle verdict within
 * x/÷1.5), how many mis-costed cards it flags (and fair cards), and its error; then the
 * cross-validated error on the synthetic variants (each bundled card left out with its variants),
 * with each candidate term added or taken away (how the terms were chosen), and the leave-one-out
 * error on the bundled field.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { Workspace } from '../server/src/core/workspace';
import { bundledBattleField } from '../server/src/core/balance/fitted';
import { priceCard, pricedCardOf, pricingFingerprint } from '../server/src/core/balance/battles';
import { pricePool } from '../server/src/cli/price-pool';
import type { PricedCard } from '../server/src/core/balance/battles';
import { computeShare, estimateCard, fieldFor, newEstimates } from '../server/src/core/balance/index';
import type { ReferenceField } from '../server/src/core/balance/index';
import { BATTLE_MODEL_TERMS, bestEstimate, fitBattleModel, modelEstimate } from '../server/src/core/balance/model';
import { fitMatrix } from '../server/src/core/balance/fit';
import { trainingRows } from '../server/src/core/balance/prices';
import type { TrainingRow } from '../server/src/core/balance/prices';
import { BATTLE_TERMS, type BattleTerm } from '../server/src/core/balance/shapes';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

const DIR = path.join(__dirname, 'homebrew');

/**
 * The held-out sets: the first (30 cards) was written while the estimate's terms were chosen; the
 * second (20 cards) was written from the rulebook afterwards and never looked at while fitting.
 */
export const HOMEBREW_SETS = [
  { name: 'first homebrew set', file: 'homebrew-test.unit.yaml', cache: 'battle-prices.json' },
  { name: 'second homebrew set', file: 'homebrew-holdout.unit.yaml', cache: 'holdout-prices.json' },
] as const;
export type HomebrewSet = (typeof HOMEBREW_SETS)[number];

export interface HomebrewCard {
  file: string;
  ref: ReturnType<Workspace['allCards']>[number];
  priced: PricedCard;
}

export function homebrewCards(set: HomebrewSet = HOMEBREW_SETS[0]): { ws: Workspace; cards: HomebrewCard[] } {
  const ws = new Workspace();
  ws.set(`file://${path.join(DIR, set.file)}`, fs.readFileSync(path.join(DIR, set.file), 'utf8'));
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

export async function homebrewPrices(reprice = false, set: HomebrewSet = HOMEBREW_SETS[0]): Promise<CachedPrice[]> {
  const CACHE = path.join(DIR, set.cache);
  const field = bundledBattleField();
  const fp = pricingFingerprint({ cards: [...field.cards, ...homebrewCards(set).cards.map((c) => c.priced)] });
  if (!reprice && fs.existsSync(CACHE)) {
    const cached = JSON.parse(fs.readFileSync(CACHE, 'utf8')) as { fingerprint: string; cards: CachedPrice[] };
    if (cached.fingerprint === fp) return cached.cards;
  }
  const t0 = process.cpuUsage();
  const started = Date.now();
  const { cards } = homebrewCards(set);
  // On the price pool's threads (the same prices on any number of threads), in process without a build.
  const pool = pricePool();
  let done = 0;
  const prices = await Promise.all(
    cards.map(async (c) => {
      const r = await priceCard(c.priced, field, pool.play);
      console.error(`${++done}/${cards.length} ${r.name}: ${r.price?.toFixed(0) ?? r.reason}`);
      return r;
    }),
  ).finally(() => pool.close());
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
  const options = (await prettier.resolveConfig(CACHE)) ?? {};
  fs.writeFileSync(CACHE, await prettier.format(JSON.stringify({ fingerprint: fp, cards: out }), { ...options, filepath: CACHE }));
  return out;
}

/** Spearman's rank correlation (ties get their mean rank). */
export function spearman(a: readonly number[], b: readonly number[]): number {
  const rank = (v: readonly number[]) => {
    const idx = v.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(v.length);
    for (let i = 0; i < idx.length;) {
      let j = i;
      while (j + 1 < idx.length && idx[j + 1]![0] === idx[i]![0]) j++;
      for (let k = i; k <= j; k++) r[idx[k]![1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const ra = rank(a);
  const rb = rank(b);
  const n = a.length;
  const m = (n - 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (ra[i]! - m) * (rb[i]! - m);
    da += (ra[i]! - m) ** 2;
    db += (rb[i]! - m) ** 2;
  }
  return num / Math.sqrt(da * db);
}

export interface Measured {
  name: string;
  points: number;
  battle: number;
  /** printed / estimate: the shipped estimate, the first model (k x sqrt(F x H) on printed points), points per hull point. */
  estimate: number;
  flagged: boolean;
  first: number;
  perHull: number;
}

/** The first model's estimate of field member i with it left out (k x sqrt(F x H), k fitted to the others' printed points). */
function firstLooEstimate(f: ReferenceField, i: number): number {
  const m = f.members.map((a) => f.members.map((d) => computeShare(a.profile, d.profile).sequential));
  return fitMatrix(f.members, m).loo[i]!.predicted!;
}

/**
 * Each homebrew card's verdicts against the bundled field. The battle verdict is on the estimate's
 * yardstick (`yardstick`, the default): printed / (battle price x the field's fair scale), so that
 * "fair" means trading as the field's cards do on average; without it, printed / battle price.
 */
export async function measure(reprice = false, set: HomebrewSet = HOMEBREW_SETS[0], yardstick = true): Promise<Measured[]> {
  const prices = await homebrewPrices(reprice, set);
  const field = fieldFor([], estimates);
  const fair = yardstick ? field.battle!.fair : 1;
  // The first model: k x sqrt(F x H) fitted to printed points, before the estimate was fitted to battle prices.
  const first = fieldFor([], estimates);
  const hullPrice = Math.exp(field.members.reduce((t, m) => t + Math.log(m.points / (m.profile.hp * m.profile.bases)), 0) / field.members.length);
  const out: Measured[] = [];
  for (const c of homebrewCards(set).cards) {
    const bp = prices.find((p) => p.name === c.priced.name);
    if (!bp?.price) continue;
    const e = estimateCard(c.ref.card, c.ref.faction, field);
    if (e.estimate === undefined || e.firepower === undefined || e.durability === undefined) continue;
    out.push({
      name: c.priced.name,
      points: c.priced.points,
      battle: c.priced.points / (bp.price * fair),
      estimate: c.priced.points / e.estimate,
      flagged: e.farOff,
      first: c.priced.points / (first.k * Math.sqrt(e.firepower * e.durability)),
      perHull: c.priced.points / (hullPrice * c.priced.profile.hp * c.priced.profile.bases),
    });
  }
  return out;
}

if (require.main === module)
  void (async () => {
    for (const set of HOMEBREW_SETS) await report(set);
    leaveOneOut();
  })();

/** One set's table and figures (`--raw`: the battle verdict as printed / battle price, off the estimate's yardstick). */
async function report(set: HomebrewSet): Promise<void> {
  const raw = process.argv.includes('--raw');
  const rows = await measure(process.argv.includes('--reprice'), set, !raw);
  const prices = await homebrewPrices(false, set);
  console.log(
    `\n${set.name} (bench/homebrew/${set.file}); battle verdict = printed / ${raw ? 'battle price' : `(battle price x ${fieldFor([], estimates).battle!.fair.toFixed(3)}, the field's fair scale)`}`,
  );
  console.log('card                       battle  estimate  first  per-HP  battle price [95%]');
  for (const r of rows) {
    const p = prices.find((x) => x.name === r.name)!;
    console.log(
      `${r.name.padEnd(26)} ${r.battle.toFixed(2).padStart(6)}  ${r.estimate.toFixed(2).padStart(8)}${r.flagged ? '*' : ' '} ${r.first.toFixed(2).padStart(5)}  ${r.perHull.toFixed(2).padStart(6)}  ${p.price!.toFixed(0)} [${p.low!.toFixed(0)}, ${p.high!.toFixed(0)}]`,
    );
  }
  const fair = rows.filter((r) => Math.abs(Math.log(r.battle)) <= Math.log(1.5));
  const mis = rows.filter((r) => Math.abs(Math.log(r.battle)) > Math.log(1.5));
  const rho = (rs: Measured[], k: 'estimate' | 'first' | 'perHull') =>
    spearman(
      rs.map((r) => r.battle),
      rs.map((r) => r[k]),
    ).toFixed(2);
  console.log(`\n${rows.length} cards, ${fair.length} near fair (battle verdict within x/÷1.5), ${mis.length} mis-costed.`);
  for (const k of ['estimate', 'first', 'perHull'] as const) console.log(`Spearman ${k.padEnd(8)}: all ${rho(rows, k)}, near fair ${rho(fair, k)}`);
  const right = mis.filter((r) => r.flagged && Math.sign(Math.log(r.estimate)) === Math.sign(Math.log(r.battle))).length;
  console.log(`Flagged (*): ${right} of ${mis.length} mis-costed cards (the right way), ${fair.filter((r) => r.flagged).length} of ${fair.length} fair cards.`);
  // On the homebrew cards (none of them fitted on): root mean square of log(battle price / estimate); per hull point
  // and the first model scaled to the bundled field's battle prices (their best constant), so only their shape is judged.
  const rms = (xs: number[]) => Math.sqrt(xs.reduce((t, x) => t + x * x, 0) / xs.length);
  const centred = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return xs.map((x) => x - m);
  };
  const err = (k: 'estimate' | 'first' | 'perHull') => rows.map((r) => Math.log(r.battle / r[k]));
  console.log(
    `Error against battle prices on the ${rows.length} homebrew cards: the estimate ±${((Math.exp(rms(err('estimate'))) - 1) * 100).toFixed(0)}%, ` +
      `the first model ±${((Math.exp(rms(centred(err('first')))) - 1) * 100).toFixed(0)}% and points per hull point ±${((Math.exp(rms(centred(err('perHull')))) - 1) * 100).toFixed(0)}% (each with its best scale).`,
  );
}

/** The leave-one-out error on the bundled field. */
function leaveOneOut(): void {
  const f = fieldFor([], estimates);
  // Points per hull point on the bundled field, each card left out: c = the others' mean log(price / HP).
  const hp = f.members.map((m) => m.profile.hp * m.profile.bases);
  const price = f.loo.map((r) => r.price!);
  const perHullLoo = Math.sqrt(
    price.reduce((t, p, i) => {
      const others = price.map((q, j) => (j === i ? NaN : Math.log(q / hp[j]!))).filter((x) => Number.isFinite(x));
      const c = Math.exp(others.reduce((a, b) => a + b, 0) / others.length);
      return t + Math.log(p / (c * hp[i]!)) ** 2;
    }, 0) / price.length,
  );
  const firstLoo = Math.sqrt(f.loo.reduce((t, r, i) => t + Math.log(r.price! / firstLooEstimate(f, i)) ** 2, 0) / f.loo.length);
  const pc = (x: number, digits = 0) => `±${((Math.exp(x) - 1) * 100).toFixed(digits)}%`;
  // Cross-validation on the synthetic variants, by bundled card: each bundled card and its variants left out together,
  // the variants predicted by each estimator fitted on the rest (points per hull point and k x sqrt(F x H): their scale).
  const rows = trainingRows(f, f.battle!.measured);
  const groups = [...new Set(rows.map((r) => r.group))];
  const cv = (fit: (rs: TrainingRow[]) => (r: TrainingRow) => number) => {
    const errs: number[] = [];
    for (const g of groups) {
      const predict = fit(rows.filter((r) => r.group !== g));
      for (const r of rows.filter((o) => o.group === g && o.synthetic)) errs.push(Math.log(r.price / predict(r)));
    }
    return Math.sqrt(errs.reduce((t, e) => t + e * e, 0) / errs.length);
  };
  const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const withTerms = (terms: readonly BattleTerm[]) =>
    cv((rs) => {
      const m = fitBattleModel(
        rs.map((r) => r.x),
        rs.map((r) => r.price),
        terms,
      )!;
      return (r) => modelEstimate(m, r.x);
    });
  const cvFirst = cv((rs) => {
    const k = meanOf(rs.map((r) => Math.log(r.price) - 0.5 * (r.x.logF + r.x.logH)));
    return (r) => Math.exp(k + 0.5 * (r.x.logF + r.x.logH));
  });
  const cvHull = cv((rs) => {
    const k = meanOf(rs.map((r) => Math.log(r.price / r.hull)));
    return (r) => Math.exp(k) * r.hull;
  });
  // The shipped estimate: the model on the engine's stopping distance, the estimate the best stopping distance (bestEstimate).
  const shipped = cv((rs) => {
    const m = fitBattleModel(
      rs.map((r) => r.x),
      rs.map((r) => r.price),
    )!;
    return (r) => bestEstimate(m, r.profile, r.x, f);
  });
  console.log(
    `\nCross-validated error on the ${rows.filter((r) => r.synthetic).length} synthetic variants (by bundled card: ${groups.length} folds, each bundled card and its variants left out): ` +
      `the estimate ${pc(shipped, 1)} (${pc(withTerms(BATTLE_MODEL_TERMS), 1)} at the engine's stopping distance), k x sqrt(F x H) ${pc(cvFirst)}, points per hull point ${pc(cvHull)}.`,
  );
  // How the terms were chosen: on the variants alone, each other term added to the shipped ones, and each shipped one taken away.
  const others = BATTLE_TERMS.filter((t) => !BATTLE_MODEL_TERMS.includes(t));
  console.log(
    `Terms (cross-validated on the variants): ${others.map((t) => `+${t} ${pc(withTerms([...BATTLE_MODEL_TERMS, t]), 1)}`).join(', ')}; ` +
      `${BATTLE_MODEL_TERMS.map((t) => `-${t} ${pc(withTerms(BATTLE_MODEL_TERMS.filter((x) => x !== t)), 1)}`).join(', ')}.`,
  );
  const m = f.battle!.model;
  console.log(`The model: a ${m.a.toFixed(3)}, b ${m.b.toFixed(3)}, ${BATTLE_MODEL_TERMS.map((t) => `${t} ${m.weights[t].toFixed(3)}`).join(', ')}.`);
  console.log(
    `\nLeave-one-out error on the bundled field, against its battle prices: the estimate ${pc(f.spreadLog)}, the first model ${pc(firstLoo)}, points per hull point ${pc(perHullLoo)}.`,
  );
}
