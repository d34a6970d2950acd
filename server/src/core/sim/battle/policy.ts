/**
 * The policy (BATTLE.md "The fleet battle", "The project's policy"): which enemy a unit fires at,
 * which second action goes with it (Aim, Shields Back Online, Brace) and whom it boards. In kernel
 * mode the choices weigh exact expectations, cached on the engine by everything they depend on; in
 * dice mode a fixed rule decides. A choice depends on the battle's state only, never on which
 * states the run met before (see `lanes` in run.ts).
 */
import { attacksAgainst, basesLeft, weaponReach } from '../fire';
import { BOARD_RANGE, OUT_OF_WORK, RAM_RANGE, reachOf, smallInt } from './engine';
import type { Engine, UnitList } from './engine';
import type { Decision, SecondAction } from './types';

// Hot-path aliases (see engagement.ts): imported bindings can be getters under some loaders.
const basesOf = basesLeft;

export const NO_DECISION: Decision = { action: 'none', value: -Infinity };

/** Into `e.protectOut`, what protectValues found: [as it is, if braced, after Shields Back Online] (read before it is asked again). */
function found(e: Engine, v: Float64Array, at: number): true {
  const out = e.protectOut;
  out[0] = v[at]!;
  out[1] = v[at + 1]!;
  out[2] = v[at + 2]!;
  return true;
}

/**
 * Packs small whole numbers into one exact number key (mixed radix: part i is a digit below
 * sizes[i]), or a string when they would not fit. The key must never be shared by two different
 * lists of parts: callers whose sizes depend on some parts (a card's bases, strides) put those
 * parts last, with fixed sizes, so that the low digits say which sizes the high digits used.
 * A part outside its size (a state no card allows) falls back to the string too.
 */
function pack(e: Engine, n: number): number | string {
  const parts = e.keyParts;
  const sizes = e.keySizes;
  let space = 1;
  for (let i = 0; i < n; i++) space *= sizes[i]!;
  if (space >= Number.MAX_SAFE_INTEGER) return partsText(e, n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const x = parts[i]!;
    if (!Number.isInteger(x) || x < 0 || x >= sizes[i]!) return partsText(e, n);
    k = k * sizes[i]! + x;
  }
  return smallInt(k);
}

function partsText(e: Engine, n: number): string {
  return Array.from(e.keyParts.subarray(0, n)).join(',');
}

/**
 * Sets part i of the key being packed, and its size: the parts and sizes live on the engine,
 * filled in place (two arrays made for every lookup were a third of what a trial allocated).
 */
function part(e: Engine, i: number, x: number, size: number): void {
  e.keyParts[i] = x;
  e.keySizes[i] = size;
}

/**
 * The expected hull points f's Fire action at u removes (`Engine.kernel`'s), or OUT_OF_WORK when the work
 * limit is reached (a number either way: see `Engine.basesLost`).
 */
function hullTaken(e: Engine, f: number, u: number, ri: number, bases: number, aim: number | undefined, sh: number, hull: number, braced: boolean): number {
  const k = e.kernel(f, u, ri, bases, aim, sh, hull, braced);
  return k < 0 ? OUT_OF_WORK : e.store.hull[k]!;
}

/** Keeps the three values at `at` in `v` in the slot of f at u, for this key and state, and gives them as found. */
function toSlot(e: Engine, slot: number, key: number, state: number, v: Float64Array, at: number): true {
  e.protectSlotSub[slot] = key;
  e.protectSlotState[slot] = state;
  const vals = e.protectSlotValues;
  const prot = e.protectOut;
  // Three stores, not TypedArray.prototype.set: a builtin call costs more than it copies here.
  vals[3 * slot] = prot[0] = v[at]!;
  vals[3 * slot + 1] = prot[1] = v[at + 1]!;
  vals[3 * slot + 2] = prot[2] = v[at + 2]!;
  return true;
}

/**
 * What enemy f's next unaimed Fire action (at reach index ri) is expected to take from u as u
 * stands: [as it is, if u braced, after u's Shields Back Online roll (an expectation over the
 * roll)]. Cached by everything it depends on: the two cards, f's bases and reach, u's cover and
 * state. Its caller has looked in the slot of f at u first (`threatSums`).
 */
function protectValues(e: Engine, f: number, u: number, ri: number): boolean {
  const ft = e.types[e.typeOf[f]!]!;
  const sh = e.sh[u]!;
  const hull = e.hull[u]!;
  const hf = e.hull[f]!;
  const slot = f * e.n + u;
  const slotKey = hf * ft.reaches.length + ri;
  const ut = e.types[e.typeOf[u]!]!;
  const fb = basesOf(hf, ft.hp);
  const T = e.types.length;
  // In the table when every part is a whole number in range (each tuple has one place: the
  // table, or the Map below).
  const pair = e.typeOf[f]! * T + e.typeOf[u]!;
  const sub = (fb * ft.reaches.length + ri) * 2 + e.coverOf[u]!;
  const state = hull * ut.stride + sh;
  const dense =
    fb >>> 0 === fb &&
    fb <= ft.bases &&
    ri < ft.reaches.length &&
    sh >>> 0 === sh &&
    sh < ut.stride &&
    hull >>> 0 === hull &&
    e.protectTable.holds(pair, sub, state);
  let key: number | string = 0;
  // The slot keeps whole-number keys only: a shooter's hull that is not one could make the same
  // key as another hull and reach.
  const slotted = dense && hf >>> 0 === hf;
  if (dense) {
    const at = e.protectTable.at(pair, sub, state);
    const pool = e.protectTable.pool;
    if (at >= 0 && pool[at] === pool[at]) return slotted ? toSlot(e, slot, slotKey, state, pool, at) : found(e, pool, at);
  } else {
    // The two cards last: the sizes before them depend on them (see pack).
    part(e, 0, fb, ft.bases + 1);
    part(e, 1, ri, ft.reaches.length);
    part(e, 2, e.coverOf[u]!, 2);
    part(e, 3, sh, ut.stride);
    part(e, 4, hull, ut.fullHull + 1);
    part(e, 5, e.typeOf[f]!, T);
    part(e, 6, e.typeOf[u]!, T);
    key = pack(e, 7);
    const hit = e.protects.get(key);
    if (hit) return found(e, hit, 0);
  }
  const plain = hullTaken(e, f, u, ri, fb, undefined, sh, hull, false);
  if (plain === OUT_OF_WORK) return false;
  let braced = plain;
  if (ut.canBrace) {
    const x = hullTaken(e, f, u, ri, fb, undefined, sh, hull, true);
    if (x === OUT_OF_WORK) return false;
    braced = x;
  }
  const max = e.maxSh(u, hull);
  let after = plain;
  if (sh < max) {
    after = 0;
    for (let k = 0; k < e.rechargePmf.length; k++) {
      const y = hullTaken(e, f, u, ri, fb, undefined, Math.min(max, sh + k), hull, false);
      if (y === OUT_OF_WORK) return false;
      after += e.rechargePmf[k]! * y;
    }
  }
  if (dense) {
    // Straight into the table (placing may make its pool a new array): no array of its own.
    const at = e.protectTable.place(pair, sub, state);
    const pool = e.protectTable.pool;
    pool[at] = plain;
    pool[at + 1] = braced;
    pool[at + 2] = after;
    return slotted ? toSlot(e, slot, slotKey, state, pool, at) : found(e, pool, at);
  }
  const v = Float64Array.of(plain, braced, after);
  e.protects.set(key, v);
  return found(e, v, 0);
}

/** The best Aim of u at tgt: the weapon whose aimed Fire action adds the most expected hull damage (cached by state). */
function bestAim(e: Engine, u: number, tgt: number, ri: number): { aim?: number; value: number } | undefined {
  const ut = e.types[e.typeOf[u]!]!;
  const tt = e.types[e.typeOf[tgt]!]!;
  const myBases = basesOf(e.hull[u]!, ut.hp);
  const fsh = e.sh[tgt]!;
  const fhull = e.hull[tgt]!;
  const fbr = e.braced[tgt] === 1;
  const T = e.types.length;
  // In the table when every part is a whole number in range (one place per tuple, as above).
  const pair = e.typeOf[u]! * T + e.typeOf[tgt]!;
  const sub = ((myBases * ut.reaches.length + ri) * 2 + e.coverOf[tgt]!) * 2 + (fbr ? 1 : 0);
  const state = fhull * tt.stride + fsh;
  const dense =
    myBases >>> 0 === myBases &&
    myBases <= ut.bases &&
    ri >>> 0 === ri &&
    ri < ut.reaches.length &&
    fsh >>> 0 === fsh &&
    fsh < tt.stride &&
    fhull >>> 0 === fhull &&
    e.aimTable.holds(pair, sub, state);
  let key: number | string = 0;
  if (dense) {
    const at = e.aimTable.at(pair, sub, state);
    const pool = e.aimTable.pool;
    if (at >= 0 && pool[at] === pool[at]) {
      // Into the engine's one answer, reused: the caller reads it before it asks again.
      const out = e.aimOut;
      out.aim = pool[at]! < 0 ? undefined : pool[at];
      out.value = pool[at + 1]!;
      return out;
    }
  } else {
    // The two cards last: the sizes before them depend on them (see pack).
    part(e, 0, myBases, ut.bases + 1);
    part(e, 1, ri, ut.reaches.length);
    part(e, 2, e.coverOf[tgt]!, 2);
    part(e, 3, fbr ? 1 : 0, 2);
    part(e, 4, fsh, tt.stride);
    part(e, 5, fhull, tt.fullHull + 1);
    part(e, 6, e.typeOf[u]!, T);
    part(e, 7, e.typeOf[tgt]!, T);
    key = pack(e, 8);
    const hit = e.aims.get(key);
    if (hit) return hit;
  }
  const foeBases = basesOf(fhull, tt.hp);
  const plain = hullTaken(e, u, tgt, ri, myBases, undefined, fsh, fhull, fbr);
  if (plain === OUT_OF_WORK) return undefined;
  let value = -Infinity;
  let aim: number | undefined;
  const ctx = e.plan(u, tgt, ri, myBases, undefined, fbr);
  for (const plan of ctx.plans) {
    if (attacksAgainst(plan, foeBases) === 0) continue;
    const x = hullTaken(e, u, tgt, ri, myBases, plan.index, fsh, fhull, fbr);
    if (x === OUT_OF_WORK) return undefined;
    if (x - plain > value) {
      value = x - plain;
      aim = plan.index;
    }
  }
  if (dense) {
    const at = e.aimTable.place(pair, sub, state);
    e.aimTable.pool[at] = aim ?? -1;
    e.aimTable.pool[at + 1] = value;
    // Into the engine's one answer, as a hit gives it: no object of its own.
    const out = e.aimOut;
    out.aim = aim;
    out.value = value;
    return out;
  }
  const r = { aim, value };
  e.aims.set(key, r);
  return r;
}

/**
 * The second action of unit u (its own brace cleared) that goes with a Fire action at `tgt` (or
 * no Fire action), given the enemies that can fire at it: Aim is worth the extra expected hull
 * damage it adds; Shields Back Online and Brace the expected hull damage they avert from those
 * enemies' next unaimed Fire actions. The highest wins; ties to Aim, then Shields, then Brace.
 */
function decideExpected(e: Engine, u: number, tgt: number, ri: number, threats: UnitList, out: Decision): Decision | undefined {
  const ut = e.types[e.typeOf[u]!]!;
  let action: SecondAction = 'none';
  let aim: number | undefined;
  let value = -Infinity;
  if (tgt >= 0) {
    const a = bestAim(e, u, tgt, ri);
    if (!a) return undefined;
    if (a.aim !== undefined) {
      value = a.value;
      action = 'aim';
      aim = a.aim;
    }
  }
  const prot = e.protectOut;
  const canShield = e.sh[u]! < e.maxSh(u, e.hull[u]!);
  // What the threats would take is weighed only when u has a way to avert some of it (fighters
  // and bombers, with no armour and no shields to restore, have none: a good part of the units).
  let threat = 0;
  let braced = 0;
  let after = 0;
  if (canShield || ut.canBrace) {
    if (!threatSums(e, u, threats)) return undefined;
    threat = prot[0]!;
    braced = prot[1]!;
    after = prot[2]!;
  }
  if (canShield && threat - after > value) {
    value = threat - after;
    action = 'shields';
    aim = undefined;
  }
  if (ut.canBrace && threat - braced > value) {
    value = threat - braced;
    action = 'brace';
    aim = undefined;
  }
  out.action = action;
  out.aim = aim;
  out.value = value;
  return out;
}

/**
 * Into `e.protectOut`, the sums over the threats of what each one's next unaimed Fire action is
 * expected to take from u [as it is, if braced, after Shields Back Online]; false when the exact
 * kernels ran out of work. The last values of each threat f at u are in a slot, kept for f's hull
 * (its bases follow from it), the reach and u's state: looked at before anything else is worked
 * out, as most lookups end there. Only whole numbers are kept there (see protectValues), and only
 * whole numbers (SH below the stride) match, so the key's two numbers say which hull, reach and
 * state. u's side of that test is the same for every threat, so it is worked out once.
 */
function threatSums(e: Engine, u: number, threats: UnitList): boolean {
  const sh = e.sh[u]!;
  const hull = e.hull[u]!;
  const stride = e.strideOf[u]!;
  const whole = hull >>> 0 === hull && sh >>> 0 === sh && sh < stride;
  const state = hull * stride + sh;
  const subs = e.protectSlotSub;
  const states = e.protectSlotState;
  const vals = e.protectSlotValues;
  const prot = e.protectOut;
  let threat = 0;
  let braced = 0;
  let after = 0;
  for (let k = 0; k < threats.length; k++) {
    const f = threats.at[k]!;
    const ft = e.types[e.typeOf[f]!]!;
    const ri = reachOf(ft, threats.d[k]!);
    // Out of reach: it takes nothing.
    if (ri < 0) continue;
    const hf = e.hull[f]!;
    const slot = f * e.n + u;
    if (whole && hf >>> 0 === hf && subs[slot] === hf * ft.reaches.length + ri && states[slot] === state) {
      threat += vals[3 * slot]!;
      braced += vals[3 * slot + 1]!;
      after += vals[3 * slot + 2]!;
      continue;
    }
    if (!protectValues(e, f, u, ri)) return false;
    threat += prot[0]!;
    braced += prot[1]!;
    after += prot[2]!;
  }
  prot[0] = threat;
  prot[1] = braced;
  prot[2] = after;
  return true;
}

/** The fixed rule of dice mode: Shields if missing; else Aim the in-reach weapon with most attacks x damage; else Brace. */
function decideRule(e: Engine, u: number, d: number | undefined): Decision {
  const ut = e.types[e.typeOf[u]!]!;
  if (e.sh[u]! < e.maxSh(u, e.hull[u]!)) return { action: 'shields', value: 0 };
  let best = -1;
  let bestValue = 0;
  if (d !== undefined)
    ut.p.weapons.forEach((w, i) => {
      if (weaponReach(ut.p, w) >= d && w.attacks * w.damage > bestValue) {
        best = i;
        bestValue = w.attacks * w.damage;
      }
    });
  if (best >= 0) return { action: 'aim', aim: best, value: 0 };
  return ut.canBrace ? { action: 'brace', value: 0 } : { action: 'none', value: 0 };
}

/**
 * The second action, cached by the joint state when the only enemy that can fire at u is its
 * target (always so in a duel): then it depends on nothing else.
 */
export function decide(e: Engine, u: number, tgt: number, ri: number, threats: UnitList): Decision | undefined {
  if (e.mode === 'dice') return decideRule(e, u, tgt >= 0 ? e.dist(u, tgt) : undefined);
  const solo = threats.length === 0 || (threats.length === 1 && threats.at[0] === tgt);
  if (!solo || tgt < 0)
    // A lookup that is not cached into the engine's one decision, reused: the caller reads it before
    // it asks again (an object made for every activation was a good part of what a trial allocated).
    return decideExpected(e, u, tgt, ri, threats, e.decisionOut);
  const ut = e.types[e.typeOf[u]!]!;
  const tt = e.types[e.typeOf[tgt]!]!;
  const et = reachOf(tt, e.dist(tgt, u));
  // One exact number when it fits (no allocation on the hot path), else a string. The sizes of
  // the digits depend on the two units' cards, so the two units are the lowest digits (with the
  // fixed size n): two pairs of units never share a key (see pack).
  const S1 = ut.stride;
  const H1 = ut.fullHull + 1;
  const S2 = tt.stride;
  const H2 = tt.fullHull + 1;
  const R1 = ut.reaches.length;
  const R2 = tt.reaches.length + 1;
  const space = e.n * e.n * R1 * R2 * 2 * S1 * H1 * S2 * H2 * 2;
  const shU = e.sh[u]!;
  const hullU = e.hull[u]!;
  const shT = e.sh[tgt]!;
  const hullT = e.hull[tgt]!;
  let key: number | string;
  if (space < Number.MAX_SAFE_INTEGER && ri < R1 && shU < S1 && hullU < H1 && shT < S2 && hullT < H2) {
    key = ((((((((ri * R2 + et + 1) * 2 + threats.length) * S1 + shU) * H1 + hullU) * S2 + shT) * H2 + hullT) * 2 + e.braced[tgt]!) * e.n + u) * e.n + tgt;
  } else key = [u, tgt, ri, et, threats.length, shU, hullU, shT, hullT, e.braced[tgt]].join(',');
  if (typeof key === 'number') key = smallInt(key);
  const hit = e.decisions.get(key);
  if (hit) return hit;
  const d = decideExpected(e, u, tgt, ri, threats, { action: 'none', aim: undefined, value: 0 });
  if (d) e.decisions.set(key, d);
  return d;
}

/**
 * How far unit u would like to stand from enemy t: its longest weapon's reach; without weapons,
 * the boarding range when it could board t, else base contact when it has Tonnage.
 */
export function wantedDistance(e: Engine, u: number, t: number | undefined): number {
  const ut = e.types[e.typeOf[u]!]!;
  if (ut.maxReach >= 0) return ut.maxReach;
  const me = e.units[u]!.profile;
  if (me.cr && t !== undefined && e.units[t]!.profile.cr && e.sh[t] === 0) return BOARD_RANGE;
  if (me.tonnage) return RAM_RANGE;
  if (me.cr) return BOARD_RANGE;
  return 0;
}

/**
 * The enemy in reach whose expected points removed by u's Fire action are highest (ties to the
 * nearer, then to the one with less hull left), into `e.target` (reused: no allocation per activation). False when the exact kernels ran
 * out of work.
 */
export function chooseTarget(e: Engine, u: number, enemies: UnitList, myBases: number): boolean {
  const ut = e.types[e.typeOf[u]!]!;
  let tgt = -1;
  let tgtRi = -1;
  let tgtValue = -Infinity;
  let tgtDist = 0;
  let tgtKernel = -1;
  for (let k = 0; k < enemies.length; k++) {
    const t = enemies.at[k]!;
    const d = enemies.d[k]!;
    const ri = reachOf(ut, d);
    if (ri < 0) continue;
    let value: number;
    let listed = -1;
    if (enemies.length === 1) value = 0;
    else if (e.mode === 'kernel') {
      const lost = e.basesLost(u, t, ri, myBases, e.sh[t]!, e.hull[t]!, e.braced[t] === 1);
      if (lost === OUT_OF_WORK) return false;
      listed = e.lostKernel;
      value = lost * e.pointsPerBase(t);
      e.ops += 2;
    } else value = 0;
    if (tgt < 0 || value > tgtValue || (value === tgtValue && (d < tgtDist || (d === tgtDist && e.hull[t]! < e.hull[tgt]!)))) {
      tgt = t;
      tgtRi = ri;
      tgtValue = value;
      tgtDist = d;
      tgtKernel = listed;
    }
  }
  e.target.t = tgt;
  e.target.ri = tgtRi;
  e.target.k = tgtKernel;
  return true;
}

/**
 * The enemy u boards: among those it can board and would damage, the one whose expected hull points
 * removed are worth the most points (then the most hull points; the duel's units carry no points).
 * Its expected hull points removed (`Engine.boardValue`, 0 when none) go into `e.bestBoardHull`.
 */
export function bestBoard(e: Engine, u: number, enemies: UnitList): number {
  let best = -1;
  let value = 0;
  let hull = 0;
  for (let k = 0; k < enemies.length; k++) {
    const t = enemies.at[k]!;
    if (!e.alive[t] || !e.canBoardAt(u, t, enemies.d[k]!)) continue;
    const h = e.boardValue(u, t);
    if (!(h > 0)) continue;
    const v = h * (e.pointsPerBase(t) / e.hpOf[t]!);
    // Every comparison made each time (| and &, not || and &&): one the optimised code has never
    // seen made (a tie, met late in a run) throws it away, and the battle's hottest functions with it.
    if ((best < 0 ? 1 : 0) | (v > value ? 1 : 0) | ((v === value ? 1 : 0) & (h > hull ? 1 : 0))) {
      value = v;
      hull = h;
      best = t;
    }
  }
  e.bestBoardHull = hull;
  return best;
}
