/**
 * Builds server/src/core/balance/synthetic-prices.json: the training set of the points estimate
 * (BATTLE.md "The points estimate"). The 20 bundled cards alone are too few to fit the estimate's
 * weights so that they hold on cards nobody has seen, so this script makes `SYNTHETIC.count`
 * variants of them (deterministic, from `SYNTHETIC.seed`): each a bundled card with two to four
 * mutations drawn from weapon dice, damage, range, type and hit value (BS), hull, armour, dodge,
 * shields, movement, CR, launch bays (and so what they carry), a weapon added or taken away, and
 * points, kept within the rulebook's limits (stat limits, range bands, weapon systems by class, a
 * class's bases, small craft's range); and prices each by battle against the bundled field, exactly as
 * `balance --battles` does (scripts/build-battle-prices.ts's settings). The estimate is fitted to
 * these prices and the bundled field's. Then `SYNTHETIC.reach.count` reach variants of the small
 * hulls (a weapon's range, the movement or both changed; `reachCards`): the random ones change
 * reach on small hulls too seldom. A few minutes of CPU on the price pool's worker threads
 * (after `npm run build`; in process without the bundle); a variant already in the file with the
 * same fingerprint, priced against the same field, keeps its price (the pricing is deterministic),
 * so adding variants prices only the new ones (64 in 54 s on 2 threads); --reprice prices all
 * again (--check with it checks every price); then scripts/build-bundled-fit.ts (the fit the
 * estimate ships). A test fails while the field's fingerprint or the
 * variants the seeds make differ from the file's.
 *
 *   node --import=tsx scripts/build-synthetic-prices.ts [--check] [--reprice] [--threads N] [--features]
 *
 * --features: only each variant's features against the bundled field again (the estimate reads
 * them, so as not to compute some 160 cards' volleys when it starts), keeping the prices.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as prettier from 'prettier';
import { writeOrCheck } from './generated-files';
import { bundledBattleField } from '../server/src/core/balance/fitted';
import { cardFingerprint, playInProcess, priceCard, pricingFingerprint } from '../server/src/core/balance/battles';
import type { BattlePrice, PricedCard, PricingField, PlayBattles } from '../server/src/core/balance/battles';
import { cores } from '../server/src/node/sim-pool';
import { pricePool } from '../server/src/cli/price-pool';
import { CLASSES, LAUNCH_BAY, RANGE_BANDS, SMALL_CRAFT_MAX_RANGE, SYNTHETIC, WEAPON_TYPES } from '../server/src/core/rules/data';
import type { UnitProfile, WeaponProfile } from '../server/src/core/sim/types';
import { PROFILE_LIMITS, sanitizeProfile } from '../server/src/core/sim/profile';
import { fieldFor, newEstimates } from '../server/src/core/balance/index';
import { syntheticFeatures } from '../server/src/core/balance/prices';
import { mulberry32 } from './seeded';
import type { PriceFields } from './build-battle-prices';
import { type BattleFeatures } from '../server/src/core/balance/shapes';

/** The points-estimate state these figures are made with (its fits and prices). */
const estimates = newEstimates();

export const SYNTHETIC_PRICES_JSON = resolve(__dirname, '..', 'server', 'src', 'core', 'balance', 'synthetic-prices.json');

export interface SyntheticCard extends PricedCard {
  /** The bundled card it is a variant of. */
  parent: string;
  /** What was changed, in words. */
  mutations: string[];
}

export interface SyntheticPricesFile {
  fingerprint: string;
  note: string;
  seed: number;
  cards: (SyntheticCard & PriceFields & { features?: BattleFeatures | null })[];
}

/** Each variant's features against the bundled field (the estimate reads them instead of computing some 160 cards' volleys). */
export function withFeatures(file: SyntheticPricesFile): SyntheticPricesFile {
  const field = fieldFor([], estimates);
  return { ...file, cards: file.cards.map((c) => ({ ...c, features: syntheticFeatures(c, field) ?? null })) };
}

const clampInt = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(x)));

/** The rulebook's stat limits (section 1): target numbers 3+ to 10+, Movement 3 to 12, Shields at most 20. */
const LIMITS = { best: 3, worst: 10, moveMin: 3, moveMax: 12, shields: 20 } as const;

/** The legal range band nearest to `inches` (section 12), small craft at most theirs (sections 4 and 5). */
function legalRange(p: UnitProfile, inches: number): number {
  const bands = RANGE_BANDS.filter((b) => !CLASSES[p.class].smallCraft || b <= SMALL_CRAFT_MAX_RANGE);
  return bands.reduce((best, b) => (Math.abs(b - inches) < Math.abs(best - inches) ? b : best), bands[0]!);
}

type Mutation = (p: UnitProfile, c: SyntheticCard, r: () => number) => string | undefined;

const pickWeapon = (p: UnitProfile, r: () => number) => (p.weapons.length ? Math.floor(r() * p.weapons.length) : -1);
const step = (r: () => number, n: number) => (r() < 0.5 ? -1 : 1) * (1 + Math.floor(r() * n));

/** A weapon's range moved to another legal band. */
const rangeMutation: Mutation = (p, _c, r) => {
  const i = pickWeapon(p, r);
  if (i < 0) return undefined;
  const w = p.weapons[i]!;
  const to = legalRange(p, w.range * (0.4 + r() * 1.8));
  if (to === w.range) return undefined;
  p.weapons[i] = { ...w, range: to };
  return `${w.name} range ${w.range} -> ${to}`;
};

/** Movement: the first stick by 3", the second half of it or the same. */
const moveMutation: Mutation = (p, _c, r) => {
  const from = p.move ?? [6, 3];
  const a = clampInt(from[0]! + 3 * step(r, 1), LIMITS.moveMin, LIMITS.moveMax);
  const to = [a, clampInt(r() < 0.5 ? a / 2 : a, LIMITS.moveMin, a)];
  if (to.join('/') === from.join('/')) return undefined;
  p.move = to;
  return `M ${from.join('/')} -> ${to.join('/')}`;
};

/** CR: its target and dice moved, or taken away one time in four (small craft have none). */
const crMutation: Mutation = (p, _c, r) => {
  if (CLASSES[p.class].smallCraft) return undefined;
  const from = p.cr;
  const to =
    r() < 0.25
      ? undefined
      : { target: clampInt((from?.target ?? 6) + step(r, 2), LIMITS.best, LIMITS.worst), dice: clampInt((from?.dice ?? 3) + step(r, 2), 1, 10) };
  if (!from && !to) return undefined;
  if (to) p.cr = to;
  else delete p.cr;
  return `CR ${from ? `${from.target}/${from.dice}` : '-'} -> ${to ? `${to.target}/${to.dice}` : '-'}`;
};

/** The mutations, each a small edit a designer might make; undefined: it does not apply to this card. */
const MUTATIONS: Mutation[] = [
  (p, _c, r) => {
    const i = pickWeapon(p, r);
    if (i < 0) return undefined;
    const w = p.weapons[i]!;
    const to = clampInt(w.attacks * (0.4 + r() * 1.4) + step(r, 1), 1, 12);
    if (to === w.attacks) return undefined;
    p.weapons[i] = { ...w, attacks: to };
    return `${w.name} attacks ${w.attacks} -> ${to}`;
  },
  (p, _c, r) => {
    const i = pickWeapon(p, r);
    if (i < 0) return undefined;
    const w = p.weapons[i]!;
    const to = clampInt(w.damage + step(r, 2), 1, 5);
    if (to === w.damage) return undefined;
    p.weapons[i] = { ...w, damage: to };
    return `${w.name} damage ${w.damage} -> ${to}`;
  },
  rangeMutation,
  (p, _c, r) => {
    const to = clampInt(p.bs + step(r, 2), LIMITS.best, LIMITS.worst);
    if (to === p.bs) return undefined;
    const from = p.bs;
    p.bs = to;
    return `BS ${from}+ -> ${to}+`;
  },
  (p, _c, r) => {
    const to = clampInt(p.hp * (0.45 + r() * 1.3), 1, PROFILE_LIMITS.hpMax);
    if (to === p.hp) return undefined;
    const from = p.hp;
    p.hp = to;
    return `HP ${from} -> ${to}`;
  },
  (p, _c, r) => {
    const from = p.armour;
    const to = from === undefined ? clampInt(4 + r() * 4, LIMITS.best, 8) : r() < 0.2 ? undefined : clampInt(from + step(r, 2), LIMITS.best, LIMITS.worst);
    if (to === from) return undefined;
    if (to === undefined) delete p.armour;
    else p.armour = to;
    return `AC ${from ?? '-'} -> ${to ?? '-'}`;
  },
  (p, _c, r) => {
    const from = p.dodge;
    const to = clampInt((from ?? 7) + step(r, 2), LIMITS.best, LIMITS.worst);
    if (to === from) return undefined;
    p.dodge = to;
    return `D ${from ?? '-'}+ -> ${to}+`;
  },
  (p, _c, r) => {
    const from = p.sh ?? 0;
    const to = clampInt(from * (0.3 + r() * 1.5) + step(r, 2), 0, Math.floor(LIMITS.shields / (p.combinedShields ? p.bases : 1)));
    if (to === from) return undefined;
    if (to === 0) delete p.sh;
    else p.sh = to;
    return `SH ${from} -> ${to}`;
  },
  moveMutation,
  crMutation,
  (_p, c, r) => {
    // Launch Bay Tier N on a single-base ship (a Carrier's reserves are its class's, not a stat).
    if (CLASSES[c.class].bases > 1 || c.class === LAUNCH_BAY.carrierClass) return undefined;
    const from = c.bays ?? { tierFighters: 0, reserves: 0 };
    const to = { ...from, tierFighters: clampInt(from.tierFighters + (r() < 0.7 ? 1 + Math.floor(r() * 2) : -1), 0, 2) };
    if (to.tierFighters === from.tierFighters) return undefined;
    if (to.reserves || to.tierFighters) c.bays = to;
    else delete c.bays;
    return `bays ${from.tierFighters}/${from.reserves} -> ${to.tierFighters}/${to.reserves}`;
  },
  (p, _c, r) => {
    if (p.weapons.length >= CLASSES[p.class].weapons) return undefined;
    const w: WeaponProfile = {
      name: `Extra ${p.weapons.length + 1}`,
      type: WEAPON_TYPES[Math.floor(r() * WEAPON_TYPES.length)]!,
      range: legalRange(p, 6 + r() * 24),
      damage: clampInt(1 + r() * 2.5, 1, 4),
      attacks: clampInt(1 + r() * 4, 1, 6),
    };
    p.weapons.push(w);
    return `+ ${w.type} ${w.range}" ${w.damage}x${w.attacks}`;
  },
  (p, _c, r) => {
    if (p.weapons.length < 2) return undefined;
    const i = pickWeapon(p, r);
    const [w] = p.weapons.splice(i, 1);
    return `- ${w!.name}`;
  },
  (p, _c, r) => {
    const i = pickWeapon(p, r);
    if (i < 0) return undefined;
    const w = p.weapons[i]!;
    const to = WEAPON_TYPES[Math.floor(r() * WEAPON_TYPES.length)]!;
    if (to === w.type) return undefined;
    p.weapons[i] = { ...w, type: to };
    return `${w.name} ${w.type} -> ${to}`;
  },
];

/** The variants the seed makes of the field's cards: round-robin over the field, two to four mutations each, points moved too. */
export function syntheticCards(field: PricingField, count: number = SYNTHETIC.count, seed: number = SYNTHETIC.seed): SyntheticCard[] {
  const r = mulberry32(seed);
  return variantsOf(field.cards, count, r, (p, c) => {
    const want = 2 + Math.floor(r() * 3);
    for (let tries = 0; c.mutations.length < want && tries < 20; tries++) {
      const m = MUTATIONS[Math.floor(r() * MUTATIONS.length)]!(p, c, r);
      if (m) c.mutations.push(m);
    }
  });
}

/** One mutation drawn from `from` that applies to the card (up to 20 draws), recorded in its mutations. */
function oneMutation(p: UnitProfile, c: SyntheticCard, r: () => number, from: readonly Mutation[] = MUTATIONS): void {
  for (let tries = 0; tries < 20; tries++) {
    const m = from[Math.floor(r() * from.length)]!(p, c, r);
    if (m) {
      c.mutations.push(m);
      return;
    }
  }
}

/** Small hulls: squadrons and small craft (a class of more than one base, or small craft). */
export function smallHull(cls: PricedCard['class']): boolean {
  return CLASSES[cls].bases > 1 || CLASSES[cls].smallCraft;
}

/**
 * The reach variants (`SYNTHETIC.reach`): the field's small hulls (squadrons and small craft), each
 * with a weapon's range changed, its movement, or both, and, one time in two, one other mutation;
 * points moved too. The random variants change reach on small hulls too seldom for the fit
 * to learn what reach and speed are worth to them (a handful among 160).
 */
export function reachCards(field: PricingField, count: number = SYNTHETIC.reach.count, seed: number = SYNTHETIC.reach.seed): SyntheticCard[] {
  const r = mulberry32(seed);
  const small = field.cards.filter((c) => smallHull(c.class));
  return variantsOf(
    small,
    count,
    r,
    (p, c) => {
      // Range, movement or both (each once, so that no change undoes another).
      const first = r() < 0.5 ? [rangeMutation, moveMutation] : [moveMutation, rangeMutation];
      const kinds = r() < 0.5 ? first : first.slice(0, 1);
      for (const kind of kinds)
        for (let tries = 0; tries < 20; tries++) {
          const m = kind(p, c, r);
          if (m) {
            c.mutations.push(m);
            break;
          }
        }
      if (r() < 0.5) oneMutation(p, c, r);
    },
    'r',
  );
}

/**
 * The boarding variants (`SYNTHETIC.cr`): the field's ships that may have CR (not small craft),
 * each with its CR set anew (from a boarding specialist's 3+/10 dice to a token 8+/1) or, one time
 * in five, taken away, and, one time in two, one other mutation; points moved too. Among the random
 * variants CR changes a handful of times, too few for the fit to learn what boarding is worth.
 */
export function crCards(field: PricingField, count: number = SYNTHETIC.cr.count, seed: number = SYNTHETIC.cr.seed): SyntheticCard[] {
  const r = mulberry32(seed);
  const ships = field.cards.filter((c) => !CLASSES[c.class].smallCraft);
  return variantsOf(
    ships,
    count,
    r,
    (p, c) => {
      const from = p.cr;
      const same = (a?: { target: number; dice: number }, b?: { target: number; dice: number }) => a?.target === b?.target && a?.dice === b?.dice;
      let to = from;
      for (let tries = 0; tries < 20 && same(to, from); tries++)
        to = r() < 0.2 ? undefined : { target: clampInt(3 + r() * 5.99, LIMITS.best, 8), dice: clampInt(1 + r() * 9.99, 1, 10) };
      if (to) p.cr = to;
      else delete p.cr;
      if (!same(to, from)) c.mutations.push(`CR ${from ? `${from.target}/${from.dice}` : '-'} -> ${to ? `${to.target}/${to.dice}` : '-'}`);
      // One other mutation, not of CR again.
      if (r() < 0.5)
        oneMutation(
          p,
          c,
          r,
          MUTATIONS.filter((m) => m !== crMutation),
        );
    },
    'b',
  );
}

/** Every variant the file holds: the random ones, the reach variants, then the boarding variants. */
export function allSyntheticCards(field: PricingField): SyntheticCard[] {
  return [...syntheticCards(field), ...reachCards(field), ...crCards(field)];
}

/** `count` variants of `parents` in turn, each mutated by `mutate`, with its points moved; named `<parent> <tag><n>`. */
function variantsOf(
  parents: readonly PricedCard[],
  count: number,
  r: () => number,
  mutate: (p: UnitProfile, c: SyntheticCard) => void,
  tag = 'v',
): SyntheticCard[] {
  const out: SyntheticCard[] = [];
  if (!parents.length) return out;
  for (let i = 0; out.length < count && i < count * 4; i++) {
    const parent = parents[i % parents.length]!;
    const p: UnitProfile = JSON.parse(JSON.stringify(parent.profile)) as UnitProfile;
    const c: SyntheticCard = { ...parent, profile: p, parent: parent.name, mutations: [], name: '' };
    if (parent.bays) c.bays = { ...parent.bays };
    mutate(p, c);
    // Points: around the class's, so that the search starts from all sides of the price.
    c.points = Math.max(5, Math.round((parent.points * (0.6 + r() * 0.9)) / 5) * 5);
    c.name = `${parent.name} ${tag}${out.length + 1}`;
    p.name = c.name;
    c.profile = sanitizeProfile(p);
    out.push(c);
  }
  return out;
}

/** `limit` calls at a time of `f` over `items`, results in order. */
async function pooled<T, R>(items: readonly T[], limit: number, f: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]!, i);
      }
    }),
  );
  return out;
}

const r1 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? null : Math.round(v * 10) / 10);

/** What the file keeps of a variant's battle price. */
type Priced = Pick<BattlePrice, 'price' | 'low' | 'high' | 'trials' | 'fleets'>;

/**
 * The variants' battle prices against the field, as the file holds them (`parallel` cards priced at
 * once); those in `kept` (by name and fingerprint, priced against this field) keep their price.
 */
export async function syntheticPricesOf(
  field: PricingField,
  cards: readonly SyntheticCard[],
  play: PlayBattles = playInProcess(),
  parallel = 1,
  log?: (s: string) => void,
  kept: ReadonlyMap<string, SyntheticPricesFile['cards'][number]> = new Map(),
): Promise<SyntheticPricesFile> {
  let done = 0;
  const prices: Priced[] = await pooled(cards, parallel, async (c): Promise<Priced> => {
    const old = kept.get(`${c.name}\u0000${cardFingerprint(c)}`);
    if (old) {
      done++;
      return { price: old.price ?? undefined, low: old.low ?? undefined, high: old.high ?? undefined, trials: old.trials, fleets: old.fleets };
    }
    const p = await priceCard(c, field, play);
    log?.(`${++done}/${cards.length} ${c.name} (${c.mutations.join('; ')}): ${p.price?.toFixed(0) ?? p.reason}`);
    return p;
  });
  return {
    fingerprint: pricingFingerprint(field),
    note: 'Generated by scripts/build-synthetic-prices.ts: variants of the bundled cards and their battle prices against the bundled field, the points estimate\u2019s training set (BATTLE.md "The points estimate"). Do not edit.',
    seed: SYNTHETIC.seed,
    cards: cards.map((c, i) => {
      const p = prices[i]!;
      return {
        ...c,
        price: r1(p.price),
        low: r1(p.low),
        high: r1(p.high),
        trials: p.trials,
        fleets: p.fleets,
        fingerprint: cardFingerprint(c),
      };
    }),
  };
}

async function write(file: SyntheticPricesFile): Promise<void> {
  const options = (await prettier.resolveConfig(SYNTHETIC_PRICES_JSON)) ?? {};
  const text = await prettier.format(JSON.stringify(withFeatures(file)), { ...options, filepath: SYNTHETIC_PRICES_JSON });
  writeOrCheck([{ path: SYNTHETIC_PRICES_JSON, text }], 'scripts/build-synthetic-prices.ts');
}

async function main(): Promise<void> {
  if (process.argv.includes('--features')) {
    // Only the features again (after a change to the estimate's features; the prices stay).
    await write(JSON.parse(readFileSync(SYNTHETIC_PRICES_JSON, 'utf8')) as SyntheticPricesFile);
    return;
  }
  const field = bundledBattleField();
  const cards = allSyntheticCards(field);
  // A variant already in the file, priced against this field with these settings, keeps its price
  // (the pricing is deterministic: the same card gives the same price); --reprice prices them all again.
  const kept = new Map<string, SyntheticPricesFile['cards'][number]>();
  if (!process.argv.includes('--reprice') && existsSync(SYNTHETIC_PRICES_JSON)) {
    const old = JSON.parse(readFileSync(SYNTHETIC_PRICES_JSON, 'utf8')) as SyntheticPricesFile;
    if (old.fingerprint === pricingFingerprint(field)) for (const c of old.cards) kept.set(`${c.name}\u0000${c.fingerprint}`, c);
  }
  const at = process.argv.indexOf('--threads');
  const pool = pricePool(at > 0 ? Number(process.argv[at + 1]) : cores());
  const t0 = process.cpuUsage();
  const started = Date.now();
  try {
    const file = await syntheticPricesOf(field, cards, pool.play, Math.max(2, pool.threads * 2), (s) => console.error(s), kept);
    const cpu = process.cpuUsage(t0);
    console.error(
      `priced ${cards.length} variants in ${((Date.now() - started) / 1000).toFixed(0)} s on ${pool.threads} thread(s) (${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU on this thread)`,
    );
    await write(file);
  } finally {
    await pool.close();
  }
}

if (require.main === module) void main();
