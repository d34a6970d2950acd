/**
 * What the points estimate keeps between calls, owned by one service: the `Estimates` instance
 * (fits, battle prices, the volley and approach memos) and which instance made a field.
 */
import syntheticPrices from './synthetic-prices.json';
import { sha256Hex } from '../model/hash';
import { getMemo, memo } from '../model/memo';
import { Volleys } from './volleys';
import { Approaches } from './approach';
import type { BattlePriceResult } from '../api';
import { type CardLike, type ReferenceField, fitKeyOf } from './field';
import { type BattleModel } from './shapes';

/** A field's fit, kept by its members' keys. */
type FieldFit = Omit<ReferenceField, 'id' | 'source' | 'description' | 'available'>;

/**
 * What the points estimate keeps between calls, owned by one service (the language server's, one
 * CLI run's, a test's): the fits by field, the battle prices measured against a workspace field,
 * the battle prices Price by battle measured, and whether the shipped fit is read. Two instances
 * never see each other's figures; a price arriving clears this instance's fits only.
 */
export class Estimates {
  /** Fits by their field's members' keys (a few). */
  private readonly fits = new Map<string, FieldFit>();
  /**
   * Battle prices of a workspace field's members, measured against that field (by the language
   * server, in the background): field (its members' keys) -> member key -> price. Kept for a few fields.
   */
  private readonly prices = new Map<string, Map<string, number>>();
  private pricesVersion = 0;
  /** The model fitted to the bundled field's battle prices (the shape a workspace field takes). */
  bundledShape: BattleModel | undefined;
  private readShipped = true;
  private syntheticDigest: string | undefined;
  /**
   * The battle prices "Price by battle" measured, by card and field (features/priceByBattle.ts):
   * the lens and the hover show the last one while the card's stats and the field stay as they were.
   */
  readonly measured = new Map<string, BattlePriceResult>();
  /** The Fire actions worked out (the volley and weapon-outcome memos). */
  readonly volleys: Volleys;
  /** The approaches played. */
  readonly approaches: Approaches;

  /**
   * `bundled`: the bundled example cards (the field when the given cards are too few). `sharing`:
   * an instance whose volley and approach memos this one uses too (they are keyed by content, so
   * sharing them changes no figure: the warm-up's own workspace fills the server's).
   */
  constructor(
    readonly bundled: () => readonly CardLike[],
    sharing?: Estimates,
  ) {
    this.volleys = sharing?.volleys ?? new Volleys();
    this.approaches = sharing?.approaches ?? new Approaches();
  }

  /** Bumped when a field's battle prices arrive: a field (or a card's note) made before is stale. */
  get version(): number {
    return this.pricesVersion;
  }

  /** Whether the shipped fit is read (off: the script that makes it, and the test that checks it). */
  get shipped(): boolean {
    return this.readShipped;
  }

  useShippedFit(on: boolean): void {
    this.readShipped = on;
    this.fits.clear();
    this.bundledShape = undefined;
  }

  fit(key: string): FieldFit | undefined {
    return this.fits.get(key);
  }

  keepFit(key: string, fit: FieldFit): void {
    if (this.fits.size > 16) this.fits.clear();
    this.fits.set(key, fit);
  }

  /** The battle prices measured against the field of these members' keys, if any. */
  fieldPrices(key: string): ReadonlyMap<string, number> | undefined {
    return this.prices.get(key);
  }

  /** The battle prices of a field's members (by member key), measured against it: its estimate is fitted to them from now on. */
  setFieldPrices(field: ReferenceField, prices: ReadonlyMap<string, number>): void {
    const key = fitKeyOf(field.members);
    if (this.prices.size >= 8) this.prices.delete(this.prices.keys().next().value!);
    this.prices.set(key, new Map(prices));
    this.fits.delete(key);
    this.pricesVersion++;
  }

  /** The digest of the generated training set (what the shipped fit was made from). */
  syntheticKey(): string {
    return (this.syntheticDigest ??= sha256Hex(JSON.stringify(syntheticPrices)));
  }

  /** Forgets every fit, price and measured price (the benchmark's cold start; tests). */
  clear(): void {
    this.fits.clear();
    this.prices.clear();
    this.measured.clear();
    this.bundledShape = undefined;
    this.volleys.clear();
    this.approaches.clear();
  }
}

/** The estimate state a field was made by (hidden on the field: comparisons and JSON do not see it). */
export const OWNER = memo<Estimates>('field owner');

/** The Estimates instance that made a field. */
export function ownerOf(field: ReferenceField): Estimates {
  const owner = getMemo(field, OWNER);
  if (!owner) throw new Error(`The reference field "${field.description}" was not made by an Estimates instance.`);
  return owner;
}

/** Forgets every fit, figure and volley of an instance (the benchmark's cold start; tests). */
export function clearEstimateMemo(st: Estimates): void {
  st.clear();
}
