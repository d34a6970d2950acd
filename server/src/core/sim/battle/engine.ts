/**
 * The battle's engine (BATTLE.md): the unit types, the per-trial state of every unit, and the
 * caches of Fire plans and exact kernels that the policy (policy.ts) and the actions (actions.ts)
 * read. One instance runs one battle (`BattleRun`, run.ts, drives it).
 */
import { BOARDING, RAMMING, SHIELD_RECHARGE } from '../../rules/data';
import type { UnitProfile } from '../types';
import { binomialPmf, pSuccess } from '../dice';
import type { Dice } from '../dice';
import { applyHits, basesLeft, maxShields, planFire, weaponReach } from '../fire';
import type { FireContext } from '../fire';
import { exactVolleyFrom, newBudget, VolleySums } from '../volley-exact';
import type { Budget, WeaponTally } from '../volley-exact';
import type { BattleHooks, BattleSetup, BattleUnit, Decision, DuelKernel, Fleet, Tally, UnitType } from './types';

// Hot-path aliases (see engagement.ts): imported bindings can be getters under some loaders.
const RECHARGE_DICE = SHIELD_RECHARGE.dice;
const RECHARGE_TARGET = SHIELD_RECHARGE.target;
const basesOf = basesLeft;

/**
 * What a lookup of an expected figure gives when the exact kernels ran out of work (no figure is
 * ever this): a number, not undefined (see `Engine.basesLost`).
 */
export const OUT_OF_WORK = -Infinity;

/** Exact kernels stop (and the run restarts with dice) beyond this much work. */
export const KERNEL_WORK_LIMIT = 4e7;
/**
 * Sampling work limit of one trial of a fleet battle, in the units of `ops` (about a table lookup
 * or a die each; a binomial draw of the sampled volley counts several; each activation counts the
 * units on the table): about a third of a second. A trial of the two 2,000-point example fleets
 * takes about 3,000 (4,500 at most, even over 100 rounds), one of 500 units a side about a million
 * a round. A trial that reaches it (absurd cards: hundreds of weapons, huge HP, a hundred rounds)
 * ends there, is scored as it stands, and the result says how many trials were ended so. A run
 * plays every trial asked, however many.
 */
export const TRIAL_WORK_LIMIT = 1e7;
/**
 * Sampling work limit of a whole duel's run (`sim`'s engagement: a duel's trial costs little, so a
 * run of 200,000 ordinary duels stays far below it); two absurd cards or a million trials of a
 * hundred rounds reach it and stop with fewer trials, saying so.
 */
export const SAMPLING_WORK_LIMIT = 1e8;
/**
 * A run split over threads (sim/chunked.ts) plays its trials in chunks of this many, whatever the
 * number of threads. Each chunk says which exact kernels it used (`ChunkOutcome.used`), so that the
 * kernels' work can be added up as one run adds it, whichever engine computed them.
 */
export const CHUNK_TRIALS = 1000;

/** P(side A activates first): LD successes, ties to the lower target, then more dice, then a re-roll. */
export function initiativeOdds(a: UnitProfile['ld'], b: UnitProfile['ld']): number {
  const da = a ? binomialPmf(a.dice, pSuccess(a.target)) : Float64Array.of(1);
  const db = b ? binomialPmf(b.dice, pSuccess(b.target)) : Float64Array.of(1);
  let more = 0;
  let less = 0;
  let tie = 0;
  for (let i = 0; i < da.length; i++)
    for (let j = 0; j < db.length; j++) {
      const p = da[i]! * db[j]!;
      if (i > j) more += p;
      else if (i < j) less += p;
      else tie += p;
    }
  // A unit without LD rolls nothing: it has no target number and no dice for the tie-breakers.
  let tieToA: boolean | undefined;
  if (a && !b) tieToA = true;
  else if (!a && b) tieToA = false;
  else if (a && b) {
    if (a.target !== b.target) tieToA = a.target < b.target;
    else if (a.dice !== b.dice) tieToA = a.dice > b.dice;
  }
  if (tieToA === true) return more + tie;
  if (tieToA === false) return more;
  return more + less === 0 ? 0.5 : more / (more + less);
}

/** The distribution of max(0, X - Y), X and Y the successes of two CR rolls (boarding damage). */
export function boardingPmf(a: { target: number; dice: number }, d: { target: number; dice: number }): Float64Array {
  const x = binomialPmf(a.dice, pSuccess(a.target));
  const y = binomialPmf(d.dice, pSuccess(d.target));
  const out = new Float64Array(a.dice + 1);
  for (let i = 0; i < x.length; i++) for (let j = 0; j < y.length; j++) out[Math.max(0, i - j)]! += x[i]! * y[j]!;
  return out;
}

export const BOARD_RANGE = BOARDING.range;
export const RAM_RANGE = RAMMING.range;

/**
 * The card name of a battle unit: its name without the " #2" the battle adds to copies of a card
 * (fleet-battle.ts `namedApart`).
 */
function cardName(u: BattleUnit): string {
  const suffix = ` #${u.copy}`;
  return u.name.endsWith(suffix) ? u.name.slice(0, -suffix.length) : u.name;
}

/**
 * Two units by card name (character codes, the same on every machine), then copy: how every tie of
 * the battle ends (BATTLE.md), never by the order the fleet list is written in. 0 only for two
 * units of one name and copy (a caller's fleet that numbers no copies); the engine then keeps
 * their order in the fleet.
 */
export function byCardName(a: BattleUnit, b: BattleUnit): number {
  const x = cardName(a);
  const y = cardName(b);
  if (x !== y) return x < y ? -1 : 1;
  return a.copy - b.copy;
}

/** The smallest weapon reach of type t that is at least d (the same weapons fire), or -1. */
export function reachOf(t: UnitType, d: number): number {
  const r = t.reaches;
  for (let i = 0; i < r.length; i++) if (r[i]! >= d) return i;
  return -1;
}

/**
 * The engine: unit types, caches of plans, kernels and decisions, and the per-trial state. One
 * instance runs one battle (`BattleRun`, run.ts, drives it).
 */
/**
 * A list of units, filled again at every activation (the enemies on the table, those that can
 * fire at a unit). A JavaScript array emptied with \`length = 0\` gives up its storage and
 * allocates it again on the next push: a third of what a trial allocated. Read it by index below
 * \`length\`.
 */
export class UnitList {
  readonly at: Int32Array;
  /**
   * Each unit's distance from the unit whose activation filled the list, where the filler knows it
   * (`push`'s second argument; actions.ts `measure` fills the enemies' once the unit has moved):
   * an activation reads each distance several times (its target, its threats, Board, Ram).
   */
  readonly d: Float64Array;
  length = 0;
  constructor(capacity: number) {
    this.at = new Int32Array(capacity);
    this.d = new Float64Array(capacity);
  }
  push(u: number, d = 0): void {
    this.d[this.length] = d;
    this.at[this.length++] = u;
  }
}

/**
 * A whole-number map key as a small integer when it is one (the same key: a Map compares numbers by
 * value), so that looking it up neither boxes a double nor hashes one. The engine's states live in
 * Float64Arrays, so the keys it computes from them are doubles otherwise.
 */
export function smallInt(k: number): number {
  return k >= 0 && k < 0x40000000 ? k | 0 : k;
}

/**
 * The most states (hull x stride) a card may have for the caches in arrays below; larger cards use
 * Maps. Read when an engine is made; a test sets it to 0 (Maps only) to show that where a key is
 * kept never changes a number.
 */
export const DENSE_CACHES = { maxStates: 512 };

/**
 * The rows of a cache keyed by two cards (`pair`: the first's type times the number of types plus
 * the second's), a small whole number whose meaning depends on the first card (`sub`, below
 * `subSize[pair]`) and the second unit's state (`state`, hull times stride plus SH, below
 * `stateSize[pair]`): `width` numbers per key, every key's in one growing typed array (`pool`, in
 * the two kinds below). A lookup neither hashes nor boxes a key, and reads numbers that lie
 * together rather than an object of their own somewhere in the heap: the battle's lookups are
 * bound by memory more than by arithmetic. A key outside those bounds (or a card with too many
 * states) is not held here (`holds`): its caller keeps it in a Map, so that each key has exactly
 * one place.
 */
abstract class PairRows {
  /** Per pair, per sub (pair after pair, from `subBase`): where its row starts in `pool`, or -1 when none is made yet. */
  private readonly rowOf: Int32Array;
  private readonly subBase: Float64Array;
  protected used = 0;
  constructor(
    readonly subSize: Int32Array,
    readonly stateSize: Int32Array,
    readonly width: number,
  ) {
    this.subBase = subBases(subSize);
    this.rowOf = new Int32Array(subSize.reduce((a, b) => a + b, 0)).fill(-1);
  }
  /** Whether (pair, sub, state) is held here (whole numbers in bounds). */
  holds(pair: number, sub: number, state: number): boolean {
    return sub >>> 0 === sub && sub < this.subSize[pair]! && state >>> 0 === state && state < this.stateSize[pair]!;
  }
  /** Where the numbers of (pair, sub, state) are in `pool` (nothing kept there yet: see the kinds below), or -1 when its row is not made; only for keys it `holds`. */
  at(pair: number, sub: number, state: number): number {
    const r = this.rowOf[this.subBase[pair]! + sub]!;
    return r < 0 ? -1 : r + this.width * state;
  }
  /** Where to write the numbers of (pair, sub, state) in `pool`, its row made if need be (`pool` may be a new array after this). */
  place(pair: number, sub: number, state: number): number {
    const i = this.subBase[pair]! + sub;
    let r = this.rowOf[i]!;
    if (r < 0) {
      const size = this.width * this.stateSize[pair]!;
      this.reserve(this.used + size);
      this.rowOf[i] = r = this.used;
      this.used += size;
    }
    return r + this.width * state;
  }
  /** Room in `pool` for n numbers, the new ones empty. */
  protected abstract reserve(n: number): void;
}

/** Rows of numbers (see PairRows), NaN where nothing is kept yet (the first number of a kept key is never NaN). */
export class PairTable extends PairRows {
  pool = new Float64Array(1024).fill(NaN);
  protected reserve(n: number): void {
    if (n <= this.pool.length) return;
    const grown = new Float64Array(Math.max(2 * this.pool.length, n)).fill(NaN);
    grown.set(this.pool.subarray(0, this.used));
    this.pool = grown;
  }
  /** Forgets every key (the rows stay made, their numbers NaN). */
  clear(): void {
    this.pool.fill(NaN, 0, this.used);
  }
}

/**
 * The kernels' rows (see PairRows): two numbers a key, the kernel (its index in the engine's
 * store) and the expected bases it removes, NaN where none is kept. The kernel is written as it
 * is (k) once the run being played has listed it (`Engine.newChunk`), and as -(k + 2) while it has
 * not: the battle's most frequent lookup (choosing a target) then reads one place, not the store's
 * arrays too.
 */
export class KernelTable extends PairTable {
  constructor(subSize: Int32Array, stateSize: Int32Array) {
    super(subSize, stateSize, 2);
  }
  /** Another run starts: no kernel is listed by it yet. */
  unlistAll(): void {
    const pool = this.pool;
    for (let i = 0; i < this.used; i += 2) if (pool[i]! >= 0) pool[i] = -pool[i]! - 2;
  }
}

/** Where each pair's rows start when the rows of all pairs are laid end to end (the sum of the sizes before it). */
function subBases(subSize: Int32Array): Float64Array {
  const base = new Float64Array(subSize.length);
  let at = 0;
  for (let p = 0; p < subSize.length; p++) {
    base[p] = at;
    at += subSize[p]!;
  }
  return base;
}

/**
 * An engine's exact kernels, each a whole number (its index) with its numbers in typed arrays: the
 * outcome distribution as cumulative probabilities and states interleaved in one pool (`draw`, what
 * a sampled Fire action searches), the probabilities in another, and per kernel where they start,
 * how many states, the expected hull and bases it removes, its tabletop dice, its work, the last
 * chunk that listed it and its name. A Fire action then reads two small arrays and one stretch of
 * the pool instead of following an object, its arrays and their storage around the heap.
 */
export class KernelStore {
  count = 0;
  draw = new Float64Array(1 << 14);
  probs = new Float64Array(1 << 13);
  /** States stored so far (pairs in `draw`, numbers in `probs`). */
  private states = 0;
  start = new Int32Array(1024);
  size = new Int32Array(1024);
  hull = new Float64Array(1024);
  lost = new Float64Array(1024);
  dice = new Float64Array(1024);
  cost = new Float64Array(1024);
  chunk = new Float64Array(1024);
  readonly ids: string[] = [];
  /** The kernels as objects, made when the duel's exact chain asks for one (`Engine.kernelObject`). */
  readonly objects: (DuelKernel | undefined)[] = [];

  /** Stores a kernel: the first `n` of `keys` and `probs` its states and their chances (in that order), the rest its numbers. */
  add(
    keys: ArrayLike<number>,
    probs: ArrayLike<number>,
    o: { hull: number; lost: number; dice: number; cost: number; chunk: number; id: string },
    n = keys.length,
  ): number {
    if (this.count === this.start.length) this.growIndex();
    while (this.states + n > this.probs.length) this.growPool();
    const k = this.count++;
    const at = this.states;
    let acc = 0;
    for (let i = 0; i < n; i++) {
      const p = probs[i]!;
      acc += p;
      this.draw[2 * (at + i)] = acc;
      this.draw[2 * (at + i) + 1] = keys[i]!;
      this.probs[at + i] = p;
    }
    this.states += n;
    this.start[k] = at;
    this.size[k] = n;
    this.hull[k] = o.hull;
    this.lost[k] = o.lost;
    this.dice[k] = o.dice;
    this.cost[k] = o.cost;
    this.chunk[k] = o.chunk;
    this.ids.push(o.id);
    return k;
  }

  private growIndex(): void {
    const m = 2 * this.start.length;
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(m);
      b.set(a);
      return b;
    };
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(m);
      b.set(a);
      return b;
    };
    this.start = i32(this.start);
    this.size = i32(this.size);
    this.hull = f64(this.hull);
    this.lost = f64(this.lost);
    this.dice = f64(this.dice);
    this.cost = f64(this.cost);
    this.chunk = f64(this.chunk);
  }

  private growPool(): void {
    const draw = new Float64Array(2 * this.draw.length);
    draw.set(this.draw);
    this.draw = draw;
    const probs = new Float64Array(2 * this.probs.length);
    probs.set(this.probs);
    this.probs = probs;
  }
}

/**
 * The cards of a battle's units: each unit's side, its card (units of one card share a `UnitType`,
 * by the card's numbers) and the unit it starts embarked in (-1: none; a host that is itself
 * embarked, or out of its fleet, is ignored).
 */
function cardsOf(units: readonly BattleUnit[], offset: number): { side: Int8Array; typeOf: Int32Array; host: Int32Array; types: UnitType[] } {
  const n = units.length;
  const side = new Int8Array(n);
  const typeOf = new Int32Array(n);
  const host = new Int32Array(n).fill(-1);
  const types: UnitType[] = [];
  const typeKeys = new Map<string, number>();
  units.forEach((u, i) => {
    const s = i < offset ? 0 : 1;
    side[i] = s;
    const key = JSON.stringify(u.profile);
    let t = typeKeys.get(key);
    if (t === undefined) {
      t = types.length;
      typeKeys.set(key, t);
      const p = u.profile;
      const reaches = [...new Set(p.weapons.filter((w) => w.attacks > 0).map((w) => weaponReach(p, w)))].sort((a, b) => a - b);
      types.push({
        p,
        hp: p.hp,
        bases: p.bases,
        stride: maxShields(p, p.bases * p.hp) + 1,
        fullHull: p.bases * p.hp,
        reaches,
        maxReach: reaches.length ? reaches[reaches.length - 1]! : -1,
        canBrace: p.armour !== undefined,
        ldExpected: p.ld ? p.ld.dice * pSuccess(p.ld.target) : 0,
      });
    }
    typeOf[i] = t;
    const h = u.host;
    const base = s === 0 ? 0 : offset;
    const size = s === 0 ? offset : n - offset;
    if (h !== undefined && Number.isInteger(h) && h >= 0 && h < size && h !== i - base && units[base + h]!.host === undefined) host[i] = base + h;
  });
  return { side, typeOf, host, types };
}

/**
 * The sizes of a PairCache over the cards' pairs: per pair (a, b), the sub-key's size `sub(a)` and
 * b's number of states, or 0 and 0 (nothing held in arrays) when b has more states than
 * DENSE_CACHES allows or the sub-key is too large.
 */
function pairSizes(types: readonly UnitType[], sub: (a: UnitType) => number): [Int32Array, Int32Array] {
  const T = types.length;
  const subs = new Int32Array(T * T);
  const states = new Int32Array(T * T);
  for (let a = 0; a < T; a++)
    for (let b = 0; b < T; b++) {
      const tb = types[b]!;
      const n = (tb.fullHull + 1) * tb.stride;
      const k = sub(types[a]!);
      if (n <= DENSE_CACHES.maxStates && Number.isSafeInteger(k) && k <= 0x7fffffff) {
        subs[a * T + b] = k;
        states[a * T + b] = n;
      }
    }
  return [subs, states];
}

export class Engine {
  readonly n: number;
  readonly units: BattleUnit[];
  readonly side: Int8Array;
  readonly typeOf: Int32Array;
  readonly types: UnitType[];
  readonly fixed: boolean;
  readonly range: number;
  readonly depth: number;
  readonly budget: Budget = newBudget(KERNEL_WORK_LIMIT);
  mode: 'kernel' | 'dice' = 'kernel';
  /** Whether the cards allow exact kernels at all (their states are exact integers as keys). */
  private readonly kernelsAllowed: boolean;
  readonly rechargePmf: Float64Array;
  /** hooks.allocateDamage, or the standard rule. */
  readonly allocate: (hull: number, hits: number, damage: number, hp: number) => number;
  private plans = new Map<number, FireContext>();
  /** The exact kernels (see KernelStore); those whose keys the table below does not hold, by pair, plan key and state in Maps. */
  readonly store = new KernelStore();
  private kernels: Map<number, Map<number, number>>[] = [];
  private readonly slotPk: Float64Array;
  private readonly slotState: Float64Array;
  /** The slot's kernel (its index in `store`). */
  private readonly slotKernel: Int32Array;
  /**
   * The last protection values (policy.ts protectValues) of each shooter at each unit, three a
   * pair, with what they were found for (the shooter's hull and reach index as one number, and the
   * unit's state): most lookups end here, before the table key is even worked out.
   */
  readonly protectSlotSub: Float64Array;
  readonly protectSlotState: Float64Array;
  readonly protectSlotValues: Float64Array;
  /** Per pair of cards with CR (boarder's type times the number of types plus the boarded's): the boarding damage's distribution, made once. */
  private readonly boardPmfs: (Float64Array | undefined)[];
  private initiative: Float64Array;
  /** The policy's caches (policy.ts): second actions, protection values and Aims, keyed by state (see `pack`). */
  readonly decisions = new Map<number | string, Decision>();
  readonly protects = new Map<number | string, Float64Array>();
  readonly aims = new Map<number | string, { aim?: number; value: number }>();
  /**
   * The hot loop's scratch, one set per engine (never per call, never per module): the target
   * policy.ts `chooseTarget` picked (-1: none in reach), its reach index and its unaimed kernel
   * when `basesLost` found it listed by this run (-1: not found so; see `lostKernel`); what `protectValues`
   * found ([as it is, if braced, after Shields Back Online]); the parts and sizes of a key being
   * packed (`pack`); the decision of a lookup that is not cached; and the unit run.ts `waiting`
   * found its side activates next. Each is read before it is written again.
   */
  readonly target = { t: -1, ri: -1, k: -1 };
  readonly protectOut = new Float64Array(3);
  readonly keyParts = new Float64Array(8);
  readonly keySizes = new Float64Array(8);
  readonly decisionOut: Decision = { action: 'none', aim: undefined, value: 0 };
  /** What policy.ts `bestAim` found in its table (read before it is asked again). */
  readonly aimOut: { aim: number | undefined; value: number } = { aim: undefined, value: 0 };
  firstWaiting = -1;
  /**
   * What policy.ts `bestBoard` found its enemy's Board worth (`boardValue`; read before it is asked
   * again): a number handed back from a call that is not inlined is boxed, a small allocation at
   * every weighing of Board against a second action.
   */
  bestBoardHull = 0;
  /**
   * The kernel the last `basesLost` read its answer from when this run had listed it already, -1
   * when it had not: the Fire action at the target `chooseTarget` chose, unaimed and with the target
   * as it was weighed, fires it without looking its key up again.
   */
  lostKernel = -1;
  /**
   * The same caches in arrays (see PairRows), for the keys that fit: the kernels (see KernelTable)
   * by the pair of cards, the plan key and the target's state (the numbers the Maps use); the protection values (three) by (shooter's bases, reach index, cover) and Aims (the weapon, -1
   * for none, and the value) by (bases, reach index, cover, braced).
   */
  private readonly kernelTable: KernelTable;
  readonly protectTable: PairTable;
  readonly aimTable: PairTable;
  /** Per card: bases + 1 and weapons + 1 (the plan key's radices). */
  private readonly basesRadix: Int32Array;
  private readonly weaponsRadix: Int32Array;
  /** Per unit: shots at it get the cover modifier (1) or not (0). */
  readonly coverOf: Uint8Array;
  /**
   * Per unit, read from its card once (the card's numbers never change during a battle): it has CR
   * (can Board and be boarded), it has Tonnage (can Ram), its points per base, its HP per base,
   * how many Move sticks it has and their lengths.
   */
  readonly hasCr: Uint8Array;
  readonly canRamOf: Uint8Array;
  readonly pointsPerBaseOf: Float64Array;
  readonly hpOf: Float64Array;
  /** Per unit, its card's SH and whether they are Combined Shields (1), for `maxSh`. */
  readonly shieldsOf: Float64Array;
  readonly combinedOf: Uint8Array;
  /** Each unit's card's longest reach (-1: no weapon), read per enemy by every activation's threat scan. */
  readonly maxReachOf: Float64Array;
  /** Each unit's card's state stride (a state key is hull * stride + SH), read by every kernel lookup and draw. */
  readonly strideOf: Float64Array;
  readonly moveCount: Int32Array;
  readonly moveStick: [Float64Array, Float64Array];
  /** Each unit's hull, SH and place at the start of every trial (from its card and `start`). */
  readonly initHull: Float64Array;
  readonly initSh: Float64Array;
  readonly initOnTable: Uint8Array;
  /** The round being played (0 the first), and per unit the round it left the battle in (read for the units not alive; see run.ts `tallyRounds`). */
  round = 0;
  readonly goneRound: Int32Array;
  /** `order` as arrays of unit indices, for the scans of every activation. */
  readonly orderOf: [Int32Array, Int32Array];
  /**
   * Each side's units by card name, then copy (`byName`): the order every scan over the enemies
   * goes in, so that a tie the policy breaks by taking the first it met ends by card name, then
   * copy, never by the order the fleet list is written in (BATTLE.md), and sums over units add up
   * in one order.
   */
  readonly byName: [Int32Array, Int32Array];
  /**
   * Per side, its units alive on the table in `byName` order (the first `fieldCount[s]`): what
   * every activation's scan of the enemies reads, without the units that are not there (gone,
   * embarked, not yet entered). Kept as units enter (`entered`) and leave (`left`), made again at
   * the start of a trial.
   */
  readonly field: [Int32Array, Int32Array];
  readonly fieldCount = new Int32Array(2);
  /** Each unit's place in its side's `byName` order. */
  private readonly rankOf: Int32Array;

  // Per-trial state, indexed by unit.
  readonly sh: Float64Array;
  readonly hull: Float64Array;
  readonly braced: Uint8Array;
  readonly alive: Uint8Array;
  readonly routed: Uint8Array;
  /** On the table (entered or launched); embarked and not-yet-entered units are not. */
  readonly onTable: Uint8Array;
  /** Distance from its own board edge (approach model). */
  readonly pos: Float64Array;
  readonly moved: Float64Array;
  readonly activated: Uint8Array;
  readonly startHull: Float64Array;
  readonly credit: Float64Array;
  readonly host: Int32Array;
  /** Per unit, 1 when a unit starts embarked in it (what its destruction takes with it). */
  readonly carries: Uint8Array;
  /**
   * Units of each side in the order a side activates them when they are alike (BATTLE.md "The
   * round"): the most points first, then by card name, then copy. `waiting` (run.ts) takes the first
   * that can Fire, Board or Ram now, else the first that must move.
   */
  readonly order: [number[], number[]];
  /** Global index of the first unit of side 1. */
  readonly offset: number;
  /** The lists an activation fills (see UnitList). */
  readonly enemyList: UnitList;
  /** Whether the Initiative rollers are to be found again (see `initiativeRollers`), and where their chance is kept in `initiative`. */
  private initiativeStale = 1;
  private initiativeSlot = 0;
  /** The unit of each side that rolls for Initiative (-1: none). */
  private readonly rollers = Int32Array.of(-1, -1);
  /** The LD dice both sides roll for this round's Initiative (set by initiativeWinner; the tabletop count, see Dice.tabletop). */
  initiativeDice = 0;
  readonly threatList: UnitList;
  /**
   * Each side's front line: the place (distance from its own edge; 0 at a fixed range) of its
   * unit nearest the enemy among those alive on the table, -1 when none is, and the same among
   * those an enemy could Board (CR, SH 0) and among those with CR. On one line the enemy nearest a
   * unit is the one standing farthest from its own edge, so these numbers decide whether a unit can
   * Fire, Board or Ram from where it stands (run.ts `waiting`, actions.ts `activate`) and how far
   * it closes to Board, without measuring every enemy.
   * Kept up to date as units enter and move (`advanced`) and as SH goes down to 0 (`setSh`); made
   * again (`frontOf`) only when a unit that stood on a line leaves it (`left`, `setSh`).
   */
  readonly front = new Float64Array(2);
  readonly frontBoard = new Float64Array(2);
  readonly frontCr = new Float64Array(2);
  private readonly frontStale = Uint8Array.of(1, 1);
  ops = 0;
  /**
   * The work budget inside a trial: a trial that takes `ops` past it stops at the next activation
   * (`overBudget` says why it stopped), so that no one trial can run for minutes. With `scoreCut`
   * (a fleet battle's per-trial limit) the trial then ends there and counts as it stands
   * (`trialCut` says so); without (a duel's run-wide limit) it is not counted and the run stops.
   */
  stopAt = Infinity;
  overBudget = false;
  scoreCut = false;
  trialCut = false;
  /**
   * The run being played (see `forgetRun`), and the kernels the chunk being played listed: [id,
   * cost], each kernel once a run on this engine (see `newChunk`).
   */
  private chunk = 0;
  used: [string, number][] = [];
  /** The sums every exact kernel this engine builds is worked out in (made once, see `VolleySums`). */
  private readonly volleySums = new VolleySums();
  /** Kernels another run already paid for (a chunk played again exactly, sim/chunked.ts): computed, not charged. */
  prepaid: ReadonlySet<string> | undefined;
  /** What a trial that goes past its budget must give back (see playTrial). */
  readonly snapshot: Tally;
  /** Counters of the current run (reset with the totals). */
  tally!: Tally;

  constructor(
    fleets: [Fleet, Fleet],
    setup: BattleSetup,
    readonly hooks: BattleHooks,
  ) {
    this.units = [...fleets[0].units, ...fleets[1].units];
    this.offset = fleets[0].units.length;
    this.n = this.units.length;
    const cards = cardsOf(this.units, this.offset);
    this.side = cards.side;
    this.typeOf = cards.typeOf;
    this.host = cards.host;
    this.carries = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) if (this.host[i]! >= 0) this.carries[this.host[i]!] = 1;
    this.types = cards.types;
    for (let t = 0; t < this.types.length * this.types.length; t++) this.kernels.push(new Map());
    this.basesRadix = Int32Array.from(this.types, (t) => t.p.bases + 1);
    this.weaponsRadix = Int32Array.from(this.types, (t) => t.p.weapons.length + 1);
    this.coverOf = Uint8Array.from(this.units, (u) => (u.cover ? 1 : 0));
    this.hasCr = Uint8Array.from(this.units, (u) => (u.profile.cr !== undefined ? 1 : 0));
    this.canRamOf = Uint8Array.from(this.units, (u) => ((u.profile.tonnage ?? 0) > 0 ? 1 : 0));
    this.pointsPerBaseOf = Float64Array.from(this.units, (u) => u.points / u.profile.bases);
    this.hpOf = Float64Array.from(this.units, (u) => u.profile.hp);
    this.shieldsOf = Float64Array.from(this.units, (u) => u.profile.sh ?? 0);
    this.combinedOf = Uint8Array.from(this.units, (u) => (u.profile.combinedShields ? 1 : 0));
    this.maxReachOf = Float64Array.from(this.typeOf, (t) => this.types[t]!.maxReach);
    this.strideOf = Float64Array.from(this.typeOf, (t) => this.types[t]!.stride);
    this.moveCount = Int32Array.from(this.units, (u) => u.profile.move?.length ?? 0);
    this.moveStick = [Float64Array.from(this.units, (u) => u.profile.move?.[0] ?? 0), Float64Array.from(this.units, (u) => u.profile.move?.[1] ?? 0)];
    const pairs = (sub: (a: UnitType) => number) => pairSizes(this.types, sub);
    // A plan key below these sizes when its digits are in range (see planKey; cover doubles it).
    this.kernelTable = new KernelTable(...pairs((a) => a.reaches.length * (a.p.bases + 1) * (a.p.weapons.length + 1) * 2 * 2));
    this.protectTable = new PairTable(...pairs((a) => (a.p.bases + 1) * a.reaches.length * 2), 3);
    this.aimTable = new PairTable(...pairs((a) => (a.p.bases + 1) * a.reaches.length * 2 * 2), 2);
    this.enemyList = new UnitList(this.n);
    this.threatList = new UnitList(this.n);
    const sides = [0, 1].map((s) => Array.from({ length: s === 0 ? this.offset : this.n - this.offset }, (_, k) => (s === 0 ? 0 : this.offset) + k));
    const byName = (a: number, b: number) => byCardName(this.units[a]!, this.units[b]!) || a - b;
    this.byName = [Int32Array.from([...sides[0]!].sort(byName)), Int32Array.from([...sides[1]!].sort(byName))];
    this.rankOf = new Int32Array(this.n);
    for (const list of this.byName) list.forEach((u, k) => (this.rankOf[u] = k));
    this.field = [new Int32Array(this.byName[0].length), new Int32Array(this.byName[1].length)];
    const byPoints = (a: number, b: number) => this.units[b]!.points - this.units[a]!.points || byName(a, b);
    this.order = [[...sides[0]!].sort(byPoints), [...sides[1]!].sort(byPoints)];
    this.orderOf = [Int32Array.from(this.order[0]), Int32Array.from(this.order[1])];
    this.fixed = setup.range !== undefined;
    this.range = setup.range ?? 0;
    this.depth = setup.depth;
    this.rechargePmf = binomialPmf(RECHARGE_DICE, pSuccess(RECHARGE_TARGET));
    this.allocate = hooks.allocateDamage ?? applyHits;
    // DuelKernel keys must stay exact integers.
    for (const t of this.types) if ((t.fullHull + 1) * t.stride > Number.MAX_SAFE_INTEGER / 4) this.mode = 'dice';
    this.kernelsAllowed = this.mode === 'kernel';
    this.sh = new Float64Array(this.n);
    this.hull = new Float64Array(this.n);
    this.braced = new Uint8Array(this.n);
    this.alive = new Uint8Array(this.n);
    this.routed = new Uint8Array(this.n);
    this.onTable = new Uint8Array(this.n);
    this.pos = new Float64Array(this.n);
    this.moved = new Float64Array(this.n);
    this.activated = new Uint8Array(this.n);
    this.startHull = new Float64Array(this.n);
    this.initiative = new Float64Array((this.n + 1) * (this.n + 1)).fill(NaN);
    this.slotPk = new Float64Array(this.n * this.n * 2).fill(-1);
    this.slotState = new Float64Array(this.n * this.n * 2).fill(-1);
    this.slotKernel = new Int32Array(this.n * this.n * 2).fill(-1);
    this.protectSlotSub = new Float64Array(this.n * this.n).fill(-1);
    this.protectSlotState = new Float64Array(this.n * this.n).fill(-1);
    this.protectSlotValues = new Float64Array(this.n * this.n * 3);
    this.credit = new Float64Array(this.n);
    this.initHull = Float64Array.from(this.units, (u) => u.start?.hull ?? u.profile.bases * u.profile.hp);
    this.initSh = Float64Array.from(this.units, (u, i) => u.start?.sh ?? maxShields(u.profile, this.initHull[i]!));
    // With a fixed range every unit stands on the table; embarked units still launch first.
    this.initOnTable = Uint8Array.from(this.units, (_, i) => (this.fixed && this.host[i]! < 0 ? 1 : 0));
    const z = () => new Float64Array(this.n);
    this.snapshot = {
      fired: z(),
      boarded: z(),
      rammed: z(),
      aim: z(),
      shields: z(),
      brace: z(),
    };
    this.goneRound = new Int32Array(this.n);
    this.boardPmfs = this.types.flatMap((a) => this.types.map((b) => (a.p.cr && b.p.cr ? boardingPmf(a.p.cr, b.p.cr) : undefined)));
  }

  /**
   * Starts a chunk of trials: `used` lists each kernel the chunk uses that no earlier chunk of this
   * run on this engine listed, once, from its first lookup (computed now or before). Any later use
   * on this engine, through the maps or the caches built on kernels (the last-kernel slots,
   * decisions, Aim and protection values), found what an earlier chunk listed. An engine plays a
   * run's chunks in the order they are numbered (sim/chunked.ts hands them out so), so the kernels
   * listed by chunks 0..k together are those one run uses in its trials of chunks 0..k, whichever
   * engines played them: their work is one run's kernel work (sim/chunked.ts adds it up). Listing
   * each kernel once a run, not once a chunk, keeps a chunk's list to the kernels new to its
   * engine: a few dozen, not two thousand, to send to the thread that merges the chunks. Sampling
   * work (\`ops\`) never depends on the caches at all.
   */
  newChunk(): void {
    this.used = [];
  }

  /**
   * Starts another run on this engine (another battle of the same fleets and options, with other
   * dice: sim/chunked.ts `SessionCache`). The plans and kernels stay, which are the dear part and
   * depend on the cards alone; what answers a lookup without listing the kernel it stands on (the
   * last-kernel slots, the decisions, the Aim and protection values) is forgotten, so that the
   * chunks of the new run list every kernel they use (see `newChunk`), as a fresh engine's would.
   * The mode goes back to kernels unless the cards never allowed them.
   */
  forgetRun(): void {
    this.kernelTable.unlistAll();
    this.slotPk.fill(-1);
    this.slotState.fill(-1);
    this.slotKernel.fill(-1);
    this.protectSlotSub.fill(-1);
    this.protectSlotState.fill(-1);
    this.decisions.clear();
    this.protects.clear();
    this.aims.clear();
    this.protectTable.clear();
    this.aimTable.clear();
    this.chunk++;
    this.mode = this.kernelsAllowed ? 'kernel' : 'dice';
  }

  /** Every unit as at the start of a trial (its card and `start`), nothing tallied yet. */
  startTrial(): void {
    // One loop, not a builtin call (fill, set) per array: the arrays are a few dozen units long,
    // and a call costs more than it writes.
    for (let i = 0; i < this.n; i++) {
      this.hull[i] = this.startHull[i] = this.initHull[i]!;
      this.credit[i] = 0;
      this.sh[i] = this.initSh[i]!;
      this.braced[i] = 0;
      this.alive[i] = 1;
      this.routed[i] = 0;
      this.pos[i] = 0;
      this.onTable[i] = this.initOnTable[i]!;
    }
    this.touchedAll();
    for (let s = 0; s < 2; s++) {
      const all = this.byName[s]!;
      const field = this.field[s]!;
      let count = 0;
      for (let k = 0; k < all.length; k++) if (this.onTable[all[k]!]) field[count++] = all[k]!;
      this.fieldCount[s] = count;
    }
  }

  /** Side s's front line (see `front`), made again first if something changed it; returns `front[s]`. */
  frontOf(s: number): number {
    if (this.frontStale[s] === 0) return this.front[s]!;
    const field = this.field[s]!;
    const count = this.fieldCount[s]!;
    let front = -1;
    let board = -1;
    let cr = -1;
    for (let k = 0; k < count; k++) {
      const t = field[k]!;
      const p = this.fixed ? 0 : this.pos[t]!;
      if (p > front) front = p;
      if (this.hasCr[t] === 1 && p > cr) cr = p;
      if (this.hasCr[t] === 1 && this.sh[t] === 0 && p > board) board = p;
    }
    this.front[s] = front;
    this.frontBoard[s] = board;
    this.frontCr[s] = cr;
    this.frontStale[s] = 0;
    return front;
  }

  /**
   * Unit u left the battle (destroyed or routed) in this round: its side's front lines are made
   * again if it stood on one, and who rolls for Initiative is found again if it was its side's roller.
   */
  left(u: number): void {
    this.goneRound[u] = this.round;
    if (this.onTable[u]) this.leaveField(u);
    // Only a side's roller leaving changes who rolls: the best of the others stays the best.
    // Every test made each time, with | and & (see policy.ts bestBoard), its arrays read first.
    const rollers = this.rollers;
    this.initiativeStale |= (u === rollers[0] ? 1 : 0) | (u === rollers[1] ? 1 : 0);
    const s = this.side[u]!;
    const front = this.front[s]!;
    const frontCr = this.frontCr[s]!;
    const frontBoard = this.frontBoard[s]!;
    if (this.frontStale[s] === 1 || !this.onTable[u]) return;
    const p = this.fixed ? 0 : this.pos[u]!;
    const cr = this.hasCr[u] === 1 ? 1 : 0;
    const shDown = this.sh[u] === 0 ? 1 : 0;
    // It stood on a front line: in front, or with CR on the CR line, or with CR and SH 0 on the Board line.
    if ((p >= front ? 1 : 0) | (cr & ((p >= frontCr ? 1 : 0) | (shDown & (p >= frontBoard ? 1 : 0))))) this.frontStale[s] = 1;
  }

  /** Unit u entered the table or launched: its side's front lines move up to it if it is ahead, and a launched unit may roll for Initiative. */
  entered(u: number): void {
    this.initiativeStale = 1;
    this.joinField(u);
    this.advanced(u);
  }

  /** Puts u (now on the table) into its side's `field`, in its place by name. */
  private joinField(u: number): void {
    const s = this.side[u]!;
    const field = this.field[s]!;
    let k = this.fieldCount[s]!++;
    for (; k > 0 && this.rankOf[field[k - 1]!]! > this.rankOf[u]!; k--) field[k] = field[k - 1]!;
    field[k] = u;
  }

  /** Takes u out of its side's `field` (it leaves the battle). */
  private leaveField(u: number): void {
    const s = this.side[u]!;
    const field = this.field[s]!;
    const count = this.fieldCount[s]!;
    let k = 0;
    while (k < count && field[k] !== u) k++;
    if (k === count) return;
    for (; k < count - 1; k++) field[k] = field[k + 1]!;
    this.fieldCount[s] = count - 1;
  }

  /** Both front lines and the Initiative rollers are to be found again (a new trial, or states set from outside). */
  touchedAll(): void {
    this.initiativeStale = 1;
    this.frontStale[0] = 1;
    this.frontStale[1] = 1;
  }

  /** Unit u (alive, on the table) entered or moved forward: its side's front lines move with it if it is ahead. */
  advanced(u: number): void {
    const s = this.side[u]!;
    if (this.frontStale[s] === 1) return;
    const p = this.fixed ? 0 : this.pos[u]!;
    if (p > this.front[s]!) this.front[s] = p;
    if (this.hasCr[u] === 1 && p > this.frontCr[s]!) this.frontCr[s] = p;
    if (this.hasCr[u] === 1 && this.sh[u] === 0 && p > this.frontBoard[s]!) this.frontBoard[s] = p;
  }

  /**
   * Sets unit u's SH to v. On a unit with CR (alive, on the table) whose SH becomes 0 the Board
   * front line moves up to it if it is ahead; when its SH stops being 0 and it stood on that line,
   * the line is made again.
   */
  setSh(u: number, v: number): void {
    const s = this.side[u]!;
    if (this.hasCr[u] === 1 && (this.sh[u] === 0) !== (v === 0) && this.frontStale[s] === 0 && this.alive[u] && this.onTable[u]) {
      const p = this.fixed ? 0 : this.pos[u]!;
      if (v === 0) {
        if (p > this.frontBoard[s]!) this.frontBoard[s] = p;
      } else if (p >= this.frontBoard[s]!) this.frontStale[s] = 1;
    }
    this.sh[u] = v;
  }

  /** Distance between two units on the table. */
  dist(a: number, b: number): number {
    return this.distTo(a, this.pos[b]!);
  }

  /**
   * Distance from unit u, on the table, to a place of the other side's (a distance from their own
   * edge: an enemy's `pos`, or a front line, see `front`): the one formula of every distance in
   * the battle.
   */
  distTo(u: number, place: number): number {
    if (this.fixed) return this.range;
    return Math.max(0, this.depth - this.pos[u]! - place);
  }

  private planKey(f: number, tgt: number, ri: number, attBases: number, aim: number | undefined, braced: boolean): number {
    const ft = this.typeOf[f]!;
    // The Aim digit: 0 unaimed, else the weapon + 1 (no `?? -1` then + 1: the battle's most frequent key, unaimed).
    return ((ri * this.basesRadix[ft]! + attBases) * this.weaponsRadix[ft]! + (aim === undefined ? 0 : aim + 1)) * 2 + (braced ? 1 : 0);
  }

  /** The Fire plan of unit f at unit tgt: reach index ri, attacker bases, aim, target braced. */
  plan(f: number, tgt: number, ri: number, attBases: number, aim: number | undefined, braced: boolean): FireContext {
    const ft = this.typeOf[f]!;
    const tt = this.typeOf[tgt]!;
    // Cover is per unit (two units of one card may differ), so it is part of the key; the cards
    // are the lowest digits because planKey's sizes depend on the shooter's card.
    const key = ((this.planKey(f, tgt, ri, attBases, aim, braced) * 2 + (this.units[tgt]!.cover ? 1 : 0)) * this.types.length + ft) * this.types.length + tt;
    let ctx = this.plans.get(key);
    if (!ctx) {
      const st = this.types[ft]!;
      ctx = planFire(st.p, this.types[tt]!.p, {
        attackerBases: attBases,
        cover: this.units[tgt]!.cover === true,
        brace: braced,
        aim,
        range: st.reaches[ri] ?? Infinity,
      });
      if (this.hooks.allocateDamage) ctx.allocate = this.hooks.allocateDamage;
      this.plans.set(key, ctx);
    }
    return ctx;
  }

  /**
   * The exact kernel of a Fire action of f at tgt (in state sh/hull/braced): its index in `store`,
   * or -1 when the work limit is reached.
   */
  kernel(f: number, tgt: number, ri: number, attBases: number, aim: number | undefined, sh: number, hull: number, braced: boolean): number {
    // Cover is per unit, so it is part of the key.
    const pk = smallInt(this.planKey(f, tgt, ri, attBases, aim, braced) * 2 + this.coverOf[tgt]!);
    const stateKey = smallInt(hull * this.strideOf[tgt]! + sh);
    const pair = this.typeOf[f]! * this.types.length + this.typeOf[tgt]!;
    // Each key lives in the table when it fits, else in the Maps: one place either way.
    const dense = this.kernelTable.holds(pair, pk, stateKey);
    // A key in the Maps is first looked for in the last kernel of this shooter at this target
    // (unaimed, aimed): a unit's state changes only when it is hit, and two Map lookups cost more
    // than this test. A key in the table is read there: testing and filling the slot cost more than
    // it saved.
    const slot = (f * this.n + tgt) * 2 + (aim === undefined ? 0 : 1);
    if (!dense && this.slotPk[slot] === pk && this.slotState[slot] === stateKey) return this.slotKernel[slot]!;
    let byState: Map<number, number> | undefined;
    let hit = -1;
    let at = -1;
    if (dense) {
      at = this.kernelTable.at(pair, pk, stateKey);
      if (at >= 0) {
        // Listed by this run (k), or not yet (-(k + 2)); NaN: none.
        const x = this.kernelTable.pool[at]!;
        if (x >= 0) hit = x;
        else if (x <= -2) hit = -x - 2;
      }
    } else {
      const byPair = this.kernels[pair]!;
      byState = byPair.get(pk);
      if (!byState) byPair.set(pk, (byState = new Map()));
      hit = byState.get(stateKey) ?? -1;
    }
    const store = this.store;
    if (hit >= 0) {
      if (store.chunk[hit] !== this.chunk) {
        store.chunk[hit] = this.chunk;
        this.used.push([store.ids[hit]!, store.cost[hit]!]);
        if (dense) this.kernelTable.pool[at] = hit;
      }
      if (!dense) this.fillSlot(slot, pk, stateKey, hit);
      return hit;
    }
    const id = `${pair}:${pk}:${stateKey}`;
    // Paid for by the run this chunk is played again for: computed, not counted again.
    const budget = this.prepaid?.has(id) ? newBudget(Infinity) : this.budget;
    const paid = budget.ops;
    const tt = this.types[this.typeOf[tgt]!]!;
    const tallies: WeaponTally[] = [];
    // The outcome straight into the engine's scratch (no Map made and read per kernel), then the store.
    const n = exactVolleyFrom(this.plan(f, tgt, ri, attBases, aim, braced), stateKey, tt.stride, budget, this.volleySums, tallies);
    if (n < 0) return -1;
    const { keys, probs } = this.volleySums.out;
    let expectedHull = 0;
    let expectedBasesLost = 0;
    const b0 = basesOf(hull, tt.hp);
    for (let i = 0; i < n; i++) {
      const p = probs[i]!;
      const h = Math.floor(keys[i]! / tt.stride);
      expectedHull += p * (hull - h);
      expectedBasesLost += p * (b0 - basesOf(h, tt.hp));
    }
    let rolled = 0;
    for (const t of tallies) rolled += t.expectedDice ?? 0;
    const cost = budget.ops - paid;
    const k = store.add(keys, probs, { hull: expectedHull, lost: expectedBasesLost, dice: rolled, cost, chunk: this.chunk, id }, n);
    this.used.push([id, cost]);
    if (dense) {
      // Placed first: placing may grow the pool into a new array.
      const at = this.kernelTable.place(pair, pk, stateKey);
      this.kernelTable.pool[at] = k;
      this.kernelTable.pool[at + 1] = expectedBasesLost;
    } else {
      byState!.set(stateKey, k);
      this.fillSlot(slot, pk, stateKey, k);
    }
    return k;
  }

  private fillSlot(slot: number, pk: number, stateKey: number, k: number): void {
    this.slotPk[slot] = pk;
    this.slotState[slot] = stateKey;
    this.slotKernel[slot] = k;
  }

  /** Kernel k as an object (what the duel's exact chain reads), made once. */
  kernelObject(k: number): DuelKernel {
    const s = this.store;
    let o = s.objects[k];
    if (!o) {
      const at = s.start[k]!;
      const n = s.size[k]!;
      const keys = new Float64Array(n);
      for (let i = 0; i < n; i++) keys[i] = s.draw[2 * (at + i) + 1]!;
      o = s.objects[k] = { keys, probs: s.probs.slice(at, at + n) };
    }
    return o;
  }

  /**
   * The expected bases f's unaimed Fire action at tgt removes (`store.lost` of its `kernel`), read
   * through the table when this run has listed that kernel already (as `kernel` would find it,
   * without its bookkeeping; the last-kernel slot is not worth its test here: a target's state has mostly
   * changed since this shooter last weighed it); OUT_OF_WORK when the work limit is reached. A number
   * either way, never undefined: a result that may be either is a boxed number, a small allocation
   * at every one of the battle's most frequent lookups.
   */
  basesLost(f: number, tgt: number, ri: number, attBases: number, sh: number, hull: number, braced: boolean): number {
    // The table's key as numbers (`kernel` makes them small integers for its Maps).
    const pk = this.planKey(f, tgt, ri, attBases, undefined, braced) * 2 + this.coverOf[tgt]!;
    const stateKey = hull * this.strideOf[tgt]! + sh;
    const pair = this.typeOf[f]! * this.types.length + this.typeOf[tgt]!;
    if (this.kernelTable.holds(pair, pk, stateKey)) {
      const at = this.kernelTable.at(pair, pk, stateKey);
      const pool = this.kernelTable.pool;
      // Listed by this run (see KernelTable): a whole number, not NaN or below 0.
      if (at >= 0 && pool[at]! >= 0) {
        this.lostKernel = pool[at]!;
        return pool[at + 1]!;
      }
    }
    this.lostKernel = -1;
    const k = this.kernel(f, tgt, ri, attBases, undefined, sh, hull, braced);
    return k < 0 ? OUT_OF_WORK : this.store.lost[k]!;
  }

  /**
   * The side that activates first this round, from a uniform roll against P(side 0 first): each side
   * rolls the LD of its unit with the most expected successes. The roll is drawn here, not passed
   * in, and a side returned, not the chance: a fractional number handed between functions is
   * boxed, a small allocation every round.
   */
  initiativeWinner(dice: Dice): 0 | 1 {
    const roll = dice.uniform();
    if (this.initiativeStale === 1) this.initiativeRollers();
    const p = this.initiative[this.initiativeSlot]!;
    return roll < p ? 0 : 1;
  }

  /**
   * Which unit of each side rolls for Initiative (the most expected LD successes) and the chance
   * that side 0 wins it: what `initiativeWinner` reads, made again only after a roller left the
   * battle or launched (`initiativeStale`), not every round.
   */
  private initiativeRollers(): void {
    this.initiativeStale = 0;
    // Two locals a side, not arrays: this runs every round of every trial.
    let best0 = -1;
    let best1 = -1;
    let score0 = -1;
    let score1 = -1;
    for (let i = 0; i < this.n; i++) {
      // Embarked units do not count for Initiative (section 6).
      if (!this.alive[i] || (this.host[i]! >= 0 && !this.onTable[i])) continue;
      const t = this.types[this.typeOf[i]!]!;
      const ld = t.p.ld;
      if (!ld) continue;
      const s = this.side[i]!;
      const e = t.ldExpected;
      const bi = s === 0 ? best0 : best1;
      const score = s === 0 ? score0 : score1;
      const b = bi >= 0 ? this.types[this.typeOf[bi]!]!.p.ld! : undefined;
      if (e > score || (e === score && b && (ld.target < b.target || (ld.target === b.target && ld.dice > b.dice)))) {
        if (s === 0) {
          score0 = e;
          best0 = i;
        } else {
          score1 = e;
          best1 = i;
        }
      }
    }
    this.initiativeDice = (best0 >= 0 ? this.types[this.typeOf[best0]!]!.p.ld!.dice : 0) + (best1 >= 0 ? this.types[this.typeOf[best1]!]!.p.ld!.dice : 0);
    this.rollers[0] = best0;
    this.rollers[1] = best1;
    const slot = (this.initiativeSlot = (best0 + 1) * (this.n + 1) + best1 + 1);
    if (Number.isNaN(this.initiative[slot]!)) {
      const ld = (i: number) => (i >= 0 ? this.types[this.typeOf[i]!]!.p.ld : undefined);
      this.initiative[slot] = initiativeOdds(ld(best0), ld(best1));
    }
  }

  boardPmf(u: number, e: number): Float64Array {
    const key = this.typeOf[u]! * this.types.length + this.typeOf[e]!;
    return this.boardPmfs[key]!;
  }

  /** Expected hull points a Board action of u at e removes. */
  boardValue(u: number, e: number): number {
    const pmf = this.boardPmf(u, e);
    const cap = this.hull[e]!;
    let v = 0;
    for (let d = 1; d < pmf.length; d++) v += pmf[d]! * Math.min(d, cap);
    return v;
  }

  /** Whether u can Board e standing d away: both have CR, e's SH is down, d within boarding range. */
  canBoardAt(u: number, e: number, d: number): boolean {
    return this.hasCr[u] === 1 && this.hasCr[e] === 1 && this.sh[e] === 0 && d <= BOARD_RANGE;
  }

  /** Whether u can Ram a unit standing d away: it has Tonnage and d is within ramming range. */
  canRamAt(u: number, d: number): boolean {
    return this.canRamOf[u] === 1 && d <= RAM_RANGE;
  }

  /** Unit u's most SH with `hull` hull points left: fire.ts `maxShields` of its card, from the arrays above. */
  maxSh(u: number, hull: number): number {
    const sh = this.shieldsOf[u]!;
    if (this.combinedOf[u] === 0) return hull > 0 ? sh : 0;
    return sh * basesOf(hull, this.hpOf[u]!);
  }

  pointsPerBase(u: number): number {
    return this.pointsPerBaseOf[u]!;
  }
}
