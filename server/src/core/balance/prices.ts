/**
 * The battle prices the model is fitted to: the bundled cards' measured prices and their generated
 * variants (battle-prices.json, synthetic-prices.json), a workspace field's prices measured in the
 * background, the shipped fit of the bundled field (bundled-fit.json), and the field's model with
 * its leave-one-out rows and the "fair" yardstick.
 */
import battlePrices from './battle-prices.json';
import syntheticPrices from './synthetic-prices.json';
import bundledFit from './bundled-fit.json';
import { sha256Hex } from '../model/hash';
import { cardFingerprint } from './battles';
import type { PricedCard } from './battles';
import { getMemo, memo, setMemo } from '../model/memo';
import type { UnitProfile } from '../sim/types';
import { type FieldMember, type LooRow, type ReferenceField, fitKeyOf, pricedMember } from './field';
import { type Estimates, ownerOf } from './state';
import { mean } from './fit';
import { battleFeatures } from './features';
import { bestEstimate, modelEstimate, fitBattleModel } from './model';
import { BATTLE_TERMS, type BattleFeatures, type BattleModel, type FieldModel } from './shapes';

/**
 * The bundled field's fit as scripts/build-bundled-fit.ts made it (bundled-fit.json): the same
 * figures `fieldModel` and `looRows` give (a test), kept because fitting them (the model, and the
 * model again without each of the 20 cards) was a third of the estimate's first second in a
 * process. Used only for the field its key was made from: these members, priced as they are, and
 * the same training set.
 */
export interface ShippedFit {
  key: string;
  battle: FieldModel;
  loo: LooRow[];
}

/** What the bundled field's fit depends on beside the code: its members, their battle prices and the training set. */
export function fitInputsKey(field: ReferenceField, fitKey: string): string {
  const measured = field.members.map((m) => measuredPrice(m) ?? null);
  return sha256Hex(`${fitKey}\u0003${JSON.stringify(measured)}\u0003${ownerOf(field).syntheticKey()}`).slice(0, 32);
}

export function shippedFit(st: Estimates, field: ReferenceField, fitKey: string): { battle: FieldModel; loo: LooRow[] } | undefined {
  const f = bundledFit as unknown as Partial<ShippedFit>;
  if (!st.shipped || !f.key || !f.battle || !f.loo || f.key !== fitInputsKey(field, fitKey)) return undefined;
  // JSON has no undefined: a member without a measured price or a leave-one-out model was written as null.
  const battle: FieldModel = {
    ...f.battle,
    loo: f.battle.loo.map((m) => m ?? undefined),
    measured: f.battle.measured.map((x) => x ?? undefined),
  };
  return { battle, loo: f.loo };
}

/** The bundled field's fit as the code makes it now (what bundled-fit.json holds). */
export function computeBundledFit(field: ReferenceField): ShippedFit | undefined {
  const battle = fieldModel(ownerOf(field), field);
  if (!battle) return undefined;
  return { key: fitInputsKey(field, field.members.map((m) => m.key).join('\u0001')), battle, loo: looRows(field, battle) };
}

const BATTLE_PRICES = new Map<string, { price: number; low: number | null; high: number | null; fingerprint: string }>(
  (battlePrices.cards as { name: string; faction: string; price: number | null; low: number | null; high: number | null; fingerprint: string }[])
    .filter((c) => c.price !== null)
    .map((c) => [
      `${c.faction.trim().toLowerCase()}\u0000${c.name.trim().toLowerCase()}`,
      { price: c.price!, low: c.low, high: c.high, fingerprint: c.fingerprint },
    ]),
);

/** A member's measured battle price's 95% interval (the generated data), when it was priced as it is now. */
export function measuredInterval(m: FieldMember): { low: number; high: number } | undefined {
  const hit = BATTLE_PRICES.get(m.id);
  return hit && hit.low !== null && hit.high !== null && hit.fingerprint === cardFingerprint(pricedMember(m)) ? { low: hit.low, high: hit.high } : undefined;
}

/** Whether the field's estimate would be fitted to battle prices once its members are priced (a workspace field not priced yet). */
export function fieldNeedsPrices(field: ReferenceField): boolean {
  return (
    field.source === 'workspace' &&
    field.battle?.fittedTo !== 'battle prices' &&
    field.members.length > 0 &&
    !ownerOf(field).fieldPrices(fitKeyOf(field.members))
  );
}

/** The battle prices of a field's members (by member key), measured against it, told to the instance that made the field. */
export function setFieldPrices(field: ReferenceField, prices: ReadonlyMap<string, number>): void {
  ownerOf(field).setFieldPrices(field, prices);
}

/** A member's measured battle price (the generated data), when it was priced as it is now. */
export function measuredPrice(m: FieldMember): number | undefined {
  const hit = BATTLE_PRICES.get(m.id);
  return hit && hit.fingerprint === cardFingerprint(pricedMember(m)) ? hit.price : undefined;
}

/** Refits only the scale `a` of a model to prices (the shape kept). */
function refitScale(m: BattleModel, xs: readonly BattleFeatures[], prices: readonly number[]): BattleModel | undefined {
  const ds: number[] = [];
  xs.forEach((x, i) => {
    const rest = prices[i]! - m.b * x.carried;
    const core = modelEstimate({ ...m, a: 0, b: 0 }, x);
    if (rest > 0 && core > 0) ds.push(Math.log(rest / core));
  });
  return ds.length ? { ...m, a: mean(ds) } : undefined;
}

/** The field's leave-one-out rows under its model: each member predicted by the model fitted without it. */
export function looRows(field: ReferenceField, fm: FieldModel): LooRow[] {
  return field.members.map((m, i) => {
    const row: LooRow = { name: m.name, faction: m.faction, class: m.class, points: m.points };
    const x = battleFeatures(m.profile, m.bays, field);
    const model = fm.loo[i];
    const pred = x && model ? bestEstimate(model, m.profile, x, field) : NaN;
    const target = fm.fittedTo === 'battle prices' ? fm.measured[i] : m.points;
    if (fm.fittedTo === 'battle prices' && target !== undefined) row.price = target;
    if (Number.isFinite(pred) && pred > 0 && target !== undefined) {
      row.predicted = pred;
      row.errorPct = ((target - pred) / pred) * 100;
    }
    return row;
  });
}

/** A training row: a card's features, its battle price and the bundled card it is (a variant of). */
export interface TrainingRow {
  x: BattleFeatures;
  price: number;
  /** The bundled card's name: a card and its variants are left out together. */
  group: string;
  synthetic: boolean;
  /** Hull points (HP x bases): points per hull point, the benchmark's yardstick, rests on them. */
  hull: number;
  /** The card's profile (the estimate's best stopping distance reads it). */
  profile: UnitProfile;
}

interface SyntheticRow {
  card: PricedCard;
  parent: string;
  price: number | null;
  fingerprint: string;
  /** Its features against the bundled field, as the generator computed them (a test checks they are what `battleFeatures` gives now). */
  features?: BattleFeatures;
}

/** The generated variants of the bundled cards with their battle prices (scripts/build-synthetic-prices.ts), those priced as the settings are now. */
export function syntheticTraining(): { card: PricedCard; parent: string; price: number; features?: BattleFeatures }[] {
  const out: { card: PricedCard; parent: string; price: number; features?: BattleFeatures }[] = [];
  for (const r of syntheticPrices.cards as unknown as (PricedCard & SyntheticRow)[]) {
    if (r.price === null) continue;
    const card: PricedCard = {
      name: r.name,
      faction: r.faction,
      class: r.class,
      points: r.points,
      profile: r.profile,
      ...(r.bays ? { bays: r.bays } : {}),
    };
    if (cardFingerprint(card) === r.fingerprint) out.push({ card, parent: r.parent, price: r.price, ...(r.features ? { features: r.features } : {}) });
  }
  return out;
}

/** The generated variants' training rows, kept with the field's figure memo they were made against. */
const SYNTHETIC = memo<TrainingRow[]>('synthetic rows');

/** A variant's features against the field (what the generator stores). */
export function syntheticFeatures(card: PricedCard, field: ReferenceField): BattleFeatures | undefined {
  return battleFeatures(card.profile, card.bays ?? { tierFighters: 0, reserves: 0 }, field);
}

/**
 * The estimate's training set on the bundled field: the bundled cards' battle prices and their
 * variants' (`measured`: the bundled members' prices, in member order). Features against `field`.
 */
export function trainingRows(field: ReferenceField, measured: readonly (number | undefined)[]): TrainingRow[] {
  const rows: TrainingRow[] = [];
  field.members.forEach((m, i) => {
    const x = battleFeatures(m.profile, m.bays, field);
    const y = measured[i];
    if (x && y !== undefined && y > 0) rows.push({ x, price: y, group: m.name, synthetic: false, hull: m.profile.hp * m.profile.bases, profile: m.profile });
  });
  let synthetic = getMemo(field.memo, SYNTHETIC);
  if (!synthetic) {
    const syn: TrainingRow[] = [];
    for (const s of syntheticTraining()) {
      // The generated features (computing them is some 160 cards' volleys at the field: a third of a second cold).
      const x = s.features && BATTLE_TERMS.every((t) => typeof s.features![t] === 'number') ? s.features : syntheticFeatures(s.card, field);
      if (x && s.price > 0)
        syn.push({ x, price: s.price, group: s.parent, synthetic: true, hull: s.card.profile.hp * s.card.profile.bases, profile: s.card.profile });
    }
    setMemo(field.memo, SYNTHETIC, (synthetic = syn));
  }
  return [...rows, ...synthetic];
}

export function fieldModel(st: Estimates, field: ReferenceField): FieldModel | undefined {
  // Fitted to battle prices where they were measured against this field: the bundled cards, wherever they are read from
  // (each as it was priced, and all of them), with their generated variants; any other field keeps the bundled fit's
  // shape, its scale fitted to the battle prices measured against it (priced in the background) or else to its points.
  const all = field.members.map((m) => measuredPrice(m));
  const known = st.fieldPrices(fitKeyOf(field.members));
  const bundledAll = all.length === BATTLE_PRICES.size && all.every((x) => x !== undefined);
  // Or priced in the background against this very field (the language server's FieldPricing).
  const ownPrices = !bundledAll && known ? field.members.map((m) => known.get(m.key)) : undefined;
  const fromBattles = bundledAll || (!!ownPrices && ownPrices.filter((x) => x !== undefined).length >= 3);
  const measured = bundledAll ? all : fromBattles ? ownPrices! : field.members.map(() => undefined);
  const loo: (BattleModel | undefined)[] = field.members.map(() => undefined);
  const residuals: number[] = [];
  let model: BattleModel | undefined;
  let variants = 0;
  if (bundledAll) {
    // The bundled field and the variants: each bundled card is left out with its variants.
    const rows = trainingRows(field, measured);
    variants = rows.filter((r) => r.synthetic).length;
    const fit = (rs: TrainingRow[]) =>
      fitBattleModel(
        rs.map((r) => r.x),
        rs.map((r) => r.price),
      );
    model = fit(rows);
    if (!model) return undefined;
    if (field.source === 'examples') st.bundledShape = model;
    field.members.forEach((m, i) => {
      const own = rows.find((r) => !r.synthetic && r.group === m.name);
      if (!own) return;
      const lm = fit(rows.filter((r) => r.group !== m.name));
      loo[i] = lm;
      const e = lm ? bestEstimate(lm, m.profile, own.x, field) : NaN;
      if (e > 0) residuals.push(Math.log(own.price / e));
    });
  } else {
    const shape = st.bundledShape;
    if (!shape) return undefined;
    const rows: { i: number; x: BattleFeatures; y: number }[] = [];
    field.members.forEach((m, i) => {
      const x = battleFeatures(m.profile, m.bays, field);
      const y = fromBattles ? measured[i] : m.points;
      if (x && y !== undefined && y > 0) rows.push({ i, x, y });
    });
    const fit = (rs: typeof rows) =>
      refitScale(
        shape,
        rs.map((r) => r.x),
        rs.map((r) => r.y),
      );
    model = fit(rows);
    if (!model) return undefined;
    for (const r of rows) {
      const m = fit(rows.filter((o) => o !== r));
      loo[r.i] = m;
      const e = m ? bestEstimate(m, field.members[r.i]!.profile, r.x, field) : NaN;
      if (e > 0) residuals.push(Math.log(r.y / e));
    }
  }
  return {
    fittedTo: fromBattles ? 'battle prices' : 'printed points',
    model,
    loo,
    measured,
    spreadLog: residuals.length ? Math.sqrt(mean(residuals.map((v) => v * v))) : NaN,
    variants,
    fair: fairScale(field.members, measured, fromBattles),
  };
}

/** The geometric mean of printed points / battle price over the members with a price (1 when the fit is to printed points). */
function fairScale(members: readonly FieldMember[], measured: readonly (number | undefined)[], fromBattles: boolean): number {
  if (!fromBattles) return 1;
  const logs: number[] = [];
  members.forEach((m, i) => {
    const price = measured[i];
    if (price !== undefined && price > 0 && m.points > 0) logs.push(Math.log(m.points / price));
  });
  return logs.length ? Math.exp(mean(logs)) : 1;
}
