/**
 * The actions of an activation (section 9): entering the table, moving, Fire (by an exact kernel or
 * by rolled dice), Board, Ram, Shields Back Online and Brace, and what damage does to a unit (lost
 * bases, destruction, the points it gives its enemies). `activate` runs one unit's activation as
 * the policy (policy.ts) chooses it.
 */
import { ACTION_POINTS_PER_ACTIVATION, DICE, RAMMING, SHIELD_RECHARGE } from '../../rules/data';
import type { UnitProfile } from '../types';
import { rollSucceeds } from '../dice';
import type { Dice } from '../dice';
import { basesLeft } from '../fire';
import { sampleCost, sampleVolley } from '../volley-sample';
import { BOARD_RANGE, RAM_RANGE } from './engine';
import type { Engine } from './engine';
import { NO_DECISION, bestBoard, chooseTarget, decide, wantedDistance } from './policy';
import type { Decision, SecondAction } from './types';

// Hot-path aliases (see engagement.ts): imported bindings can be getters under some loaders.
const RECHARGE_DICE = SHIELD_RECHARGE.dice;
const RECHARGE_TARGET = SHIELD_RECHARGE.target;
const succeeds = rollSucceeds;
const basesOf = basesLeft;
const volleyBySampling = sampleVolley;
const NATURAL_CRITICAL = DICE.critical;

/** A sampled Fire action costs this many ops per unit of `sampleCost` (binomial draws are dear). */
const DICE_FIRE_WEIGHT = 3;

/** Draws the defender's next state from kernel k (its index in the engine's store). */
function drawKernel(e: Engine, k: number, tgt: number, dice: Dice): void {
  const u = dice.uniform();
  const store = e.store;
  const draw = store.draw;
  const at = 2 * store.start[k]!;
  const n = store.size[k]!;
  let lo = 0;
  let hi = n - 1;
  // The first state whose cumulative probability is above u (the last if none is).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (draw[at + 2 * mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  const key = draw[at + 2 * lo + 1]!;
  const stride = e.strideOf[tgt]!;
  const h = Math.floor(key / stride);
  e.hull[tgt] = h;
  e.setSh(tgt, key - h * stride);
  dice.tabletop += store.dice[k]! - 1;
  // Whole numbers only, so that work adds up the same whichever way the trials are grouped.
  e.ops += 4 + (31 - Math.clz32(n + 1));
}

/**
 * Points destroyed: each base lost is worth the card's points divided by its bases (a destroyed
 * unit is worth its whole card). `credit[u]` is what unit u has already given its enemies.
 */
function credit(e: Engine, u: number, pts: [number, number]): void {
  const hp = e.hpOf[u]!;
  const start = basesOf(e.startHull[u]!, hp);
  const now = e.alive[u] ? basesOf(e.hull[u]!, hp) : 0;
  const c = Math.max(0, start - now) * e.pointsPerBase(u);
  pts[1 - e.side[u]!]! += c - e.credit[u]!;
  e.credit[u] = c;
}

/** Marks unit u destroyed (with whatever it still carries, section 6). */
function destroy(e: Engine, u: number, lost: [number, number], pts: [number, number]): void {
  e.left(u);
  e.alive[u] = 0;
  e.hull[u] = 0;
  lost[e.side[u]!]!++;
  credit(e, u, pts);
  // What it carries by card name then copy: the points add up in one order.
  if (e.carries[u] === 0) return;
  const mine = e.byName[e.side[u]!]!;
  for (let k = 0; k < mine.length; k++) {
    const i = mine[k]!;
    if (e.host[i] === u && e.alive[i] && !e.onTable[i]) {
      e.alive[i] = 0;
      e.goneRound[i] = e.round;
      lost[e.side[i]!]!++;
      credit(e, i, pts);
    }
  }
}

/** After damage to unit u: destruction or lost bases are recorded; the Combined Shields pool shrinks with its bases. */
function afterDamage(e: Engine, u: number, lost: [number, number], pts: [number, number]): void {
  if (e.hull[u]! <= 0) {
    destroy(e, u, lost, pts);
    return;
  }
  credit(e, u, pts);
  const max = e.maxSh(u, e.hull[u]!);
  if (e.sh[u]! > max) e.setSh(u, max);
}

/**
 * Measures u's enemies from where u stands, in one pass: those alive and on the table into
 * `e.enemyList` and those of them that can fire at u into `e.threatList` (what Shields Back Online
 * and Brace protect against), each with its distance, by card name then copy (`Engine.byName`):
 * every choice made by scanning them (a target, whom to Board or Ram) keeps the first of equals it
 * meets, so each of its ties ends by card name, then copy (BATTLE.md). Returns whether an enemy
 * with CR stands within boarding range (whether Board may replace a second action).
 */
function measure(e: Engine, u: number): boolean {
  const enemies = e.enemyList;
  const threats = e.threatList;
  enemies.length = 0;
  threats.length = 0;
  // The enemies alive on the table, by card name then copy (Engine.field).
  const s = 1 - e.side[u]!;
  const them = e.field[s]!;
  const count = e.fieldCount[s]!;
  const reach = e.maxReachOf;
  let boardNear = false;
  for (let k = 0; k < count; k++) {
    const i = them[k]!;
    const d = e.distTo(u, e.pos[i]!);
    enemies.push(i, d);
    if (d <= reach[i]!) threats.push(i, d);
    if (e.hasCr[i] === 1 && d <= BOARD_RANGE) boardNear = true;
  }
  return boardNear;
}

/**
 * Moves u toward the nearest enemy by at most `stick` inches, stopping at its wanted distance. The
 * nearest stands on the enemy's front line (`Engine.front`), so its distance needs no scan; which
 * unit it is matters only to a unit without weapons (whether it could Board it), and only then is
 * it looked for.
 */
function moveToward(e: Engine, u: number, stick: number): void {
  const front = e.frontOf(1 - e.side[u]!);
  // No enemy on the table yet (front -1): head for their edge (place 0).
  const best = e.distTo(u, Math.max(0, front));
  const nearest = front >= 0 && e.maxReachOf[u]! < 0 ? nearestAt(e, u, best) : undefined;
  const step = Math.min(stick, Math.max(0, best - wantedDistance(e, u, nearest)));
  e.pos[u]! += step;
  e.moved[u]! += step;
  e.advanced(u);
}

/** The first enemy of u on the table, by card name then copy, standing `best` away (the nearest: BATTLE.md's ties). */
function nearestAt(e: Engine, u: number, best: number): number {
  const s = 1 - e.side[u]!;
  const them = e.field[s]!;
  const count = e.fieldCount[s]!;
  for (let k = 0; k < count; k++) {
    const i = them[k]!;
    if (e.dist(u, i) === best) return i;
  }
  return -1;
}

/**
 * Whether unit u, on the table, can Fire, Board or Ram from where it stands, given where the enemy's
 * front line and Board front line stand (`Engine.front`, -1: nobody): the nearest enemy and the
 * nearest it could board decide it.
 */
export function canActNow(e: Engine, u: number, front: number, frontBoard: number): boolean {
  const d = e.distTo(u, front);
  if (d <= e.maxReachOf[u]!) return true;
  if (e.canRamOf[u] === 1 && d <= RAM_RANGE) return true;
  if (e.hasCr[u] === 1 && frontBoard >= 0 && e.distTo(u, frontBoard) <= BOARD_RANGE) return true;
  return false;
}

/**
 * One activation of unit u (2 AP, section 9): enter or move, then Fire with a second action, or
 * Board, Ram or protect when nothing is in reach. Returns false when the exact kernels ran out of work.
 */
export function activate(e: Engine, u: number, dice: Dice, lost: [number, number], pts: [number, number]): boolean {
  e.braced[u] = 0;
  e.activated[u] = 1;
  const sticks = e.moveCount[u]!;
  let ap = ACTION_POINTS_PER_ACTIVATION;
  let moves = 0;
  // The scans over the units below cost about one op per unit.
  e.ops += 6 + e.n;
  // Enter or launch: the entry is the unit's Move action (sections 6, 18).
  if (!e.onTable[u]) {
    enter(e, u);
    ap--;
    moves++;
  }
  // Out of reach of everything: move toward the nearest enemy (a second move with the B stick).
  // The enemy's front line says whether anything is in reach (their units stay put meanwhile).
  const them = 1 - e.side[u]!;
  if (!e.fixed)
    while (ap > 0 && moves < sticks) {
      const front = e.frontOf(them);
      if (front >= 0 && canActNow(e, u, front, e.frontBoard[them]!)) break;
      moveToward(e, u, e.moveStick[moves]![u]!);
      ap--;
      moves++;
    }
  if (ap === 0 || e.frontOf(them) < 0) return true;
  // A unit with CR closes on the nearest enemy with CR to Board it (giving up its second action).
  if (!e.fixed && ap === 2 && moves < sticks && e.hasCr[u] === 1 && closeToBoard(e, u, e.moveStick[moves]![u]!)) ap--;
  // Where u stands now for the rest of its activation: the distance to each enemy, measured once.
  const boardNear = measure(e, u);
  const enemies = e.enemyList;
  const myBases = basesOf(e.hull[u]!, e.hpOf[u]!);
  if (!chooseTarget(e, u, enemies, myBases)) return false;
  // The enemies and threats the actions below weigh are the engine's two lists, filled above.
  if (e.target.t >= 0) return fireWithSecond(e, u, e.target.t, e.target.ri, myBases, ap, boardNear && e.hasCr[u] === 1, dice, lost, pts);
  return withoutTarget(e, u, ap, dice, lost, pts);
}

/** Enter the table (from the unit's edge) or launch (from its host): its first Move action. */
function enter(e: Engine, u: number): void {
  e.onTable[u] = 1;
  const h = e.host[u]!;
  e.pos[u] = h >= 0 ? e.pos[h]! : 0;
  e.entered(u);
  if (!e.fixed) moveToward(e, u, e.moveStick[0][u]!);
}

/**
 * Moves u by up to `stick` toward the nearest enemy with CR, to boarding range; false when none is
 * farther than that.
 */
function closeToBoard(e: Engine, u: number, stick: number): boolean {
  // The nearest enemy and the nearest with CR stand on their front lines (Engine.front, frontCr).
  const s = 1 - e.side[u]!;
  const front = e.frontOf(s);
  const frontCr = e.frontCr[s]!;
  if (front < 0 || frontCr < 0) return false;
  const nearest = e.distTo(u, front);
  const nearestCr = e.distTo(u, frontCr);
  if (!(nearestCr > BOARD_RANGE)) return false;
  const step = Math.min(stick, nearestCr - BOARD_RANGE, nearest);
  e.pos[u]! += step;
  e.moved[u]! += step;
  e.advanced(u);
  return true;
}

/**
 * A Fire action at tgt with the second action that goes with it (when u has 2 AP left). With
 * `board` (u has CR and so has an enemy within boarding range), Board replaces the second action,
 * whichever it is, when it is worth more.
 */
function fireWithSecond(
  e: Engine,
  u: number,
  tgt: number,
  ri: number,
  myBases: number,
  ap: number,
  board: boolean,
  dice: Dice,
  lost: [number, number],
  pts: [number, number],
): boolean {
  const enemies = e.enemyList;
  const threats = e.threatList;
  let second: Decision = NO_DECISION;
  if (ap >= 2) {
    const d = decide(e, u, tgt, ri, threats);
    if (!d) return false;
    second = d;
  }
  // Aim must come before the Fire action, so it is weighed against boarding as things stand now;
  // without Aim the unit fires unaimed and then weighs Board against Shields Back Online or Brace.
  if (board && second.action === 'aim') {
    const b = bestBoard(e, u, enemies);
    if (b >= 0 && e.bestBoardHull > second.value) {
      const d = decide(e, u, -1, -1, threats);
      if (!d) return false;
      second = d;
    }
  }
  const aim = second.action === 'aim' ? second.aim : undefined;
  // Without boarding in reach the second action comes first, as in the duel (Aim must precede Fire).
  if (!board && second.action !== 'aim' && second !== NO_DECISION) protect(e, u, second.action, dice);
  if (second.action === 'aim') e.tally.aim[u]!++;
  if (!fire(e, u, tgt, ri, myBases, aim, dice, lost, pts)) return false;
  if (board && second !== NO_DECISION && second.action !== 'aim') {
    // After the Fire action: Board if a target's shields are down and that is worth more.
    const b = bestBoard(e, u, enemies);
    if (b >= 0 && e.bestBoardHull > second.value) boardAction(e, u, b, dice, lost, pts);
    else protect(e, u, second.action, dice);
  }
  return true;
}

/** Nothing to fire at: Board, else Ram as a last resort, then protect with what is left. */
function withoutTarget(e: Engine, u: number, ap: number, dice: Dice, lost: [number, number], pts: [number, number]): boolean {
  const enemies = e.enemyList;
  const threats = e.threatList;
  const b = bestBoard(e, u, enemies);
  if (b >= 0) {
    boardAction(e, u, b, dice, lost, pts);
    ap--;
  } else {
    let r = -1;
    for (let k = 0; k < enemies.length; k++) {
      const t = enemies.at[k]!;
      if (e.canRamAt(u, enemies.d[k]!) && (r < 0 || e.hull[t]! < e.hull[r]!)) r = t;
    }
    if (r >= 0) {
      ramAction(e, u, r, dice, lost, pts);
      ap--;
    }
  }
  if (ap > 0 && e.alive[u]) {
    const d = decide(e, u, -1, -1, threats);
    if (!d) return false;
    protect(e, u, d.action, dice);
  }
  return true;
}

/** Shields Back Online or Brace. */
export function protect(e: Engine, u: number, action: SecondAction, dice: Dice): void {
  if (action === 'shields') {
    let restored = 0;
    for (let i = 0; i < RECHARGE_DICE; i++) if (succeeds(dice.d10(), RECHARGE_TARGET)) restored++;
    e.setSh(u, Math.min(e.maxSh(u, e.hull[u]!), e.sh[u]! + restored));
    e.tally.shields[u]!++;
    e.ops += RECHARGE_DICE;
  } else if (action === 'brace') {
    e.braced[u] = 1;
    e.tally.brace[u]!++;
  }
}

export function fire(
  e: Engine,
  u: number,
  tgt: number,
  ri: number,
  myBases: number,
  aim: number | undefined,
  dice: Dice,
  lost: [number, number],
  pts: [number, number],
): boolean {
  const hullBefore = e.hull[tgt]!;
  const braced = e.braced[tgt] === 1;
  e.tally.fired[u]!++;
  if (e.mode === 'kernel') {
    // Unaimed at the target chooseTarget weighed (nothing has changed it since): the kernel
    // chooseTarget read, already listed by this run.
    const listed = e.target.k;
    const k = aim === undefined && listed >= 0 && tgt === e.target.t ? listed : e.kernel(u, tgt, ri, myBases, aim, e.sh[tgt]!, hullBefore, braced);
    if (k < 0) return false;
    drawKernel(e, k, tgt, dice);
  } else {
    const ctx = e.plan(u, tgt, ri, myBases, aim, braced);
    const s = { sh: e.sh[tgt]!, hull: hullBefore };
    volleyBySampling(ctx, s, dice);
    e.ops += DICE_FIRE_WEIGHT * sampleCost(ctx, basesOf(hullBefore, ctx.hp));
    e.setSh(tgt, s.sh);
    e.hull[tgt] = s.hull;
  }
  if (e.hull[tgt]! !== hullBefore) afterDamage(e, tgt, lost, pts);
  return true;
}

/** Board (section 13): both roll CR; the attacker's successes above the defender's are HP damage, 1 HP at a time. */
function boardAction(e: Engine, u: number, t: number, dice: Dice, lost: [number, number], pts: [number, number]): void {
  const a = e.units[u]!.profile.cr!;
  const d = e.units[t]!.profile.cr!;
  let x = 0;
  let y = 0;
  for (let i = 0; i < a.dice; i++) if (succeeds(dice.d10(), a.target)) x++;
  for (let i = 0; i < d.dice; i++) if (succeeds(dice.d10(), d.target)) y++;
  e.ops += a.dice + d.dice;
  e.tally.boarded[u]!++;
  if (x <= y) return;
  const before = e.hull[t]!;
  e.hull[t] = e.allocate(before, x - y, 1, e.hpOf[t]!);
  if (e.hull[t] !== before) afterDamage(e, t, lost, pts);
}

/**
 * Ram (section 13): Tonnage dice, each 5+ a hit (4+ if the target moved 3" or more this round);
 * the target dodges each hit if it has D, except a natural 10 (a Critical Hit, section 2); each
 * hit left deals 1 HP to both units, ignoring shields, each unit saving with its own armour (no
 * Piercing).
 */
function ramAction(e: Engine, u: number, t: number, dice: Dice, lost: [number, number], pts: [number, number]): void {
  const tons = e.units[u]!.profile.tonnage!;
  const need = e.moved[t]! >= RAMMING.movedAtLeast ? RAMMING.hitTargetMoved : RAMMING.hitTarget;
  let hits = 0;
  let crits = 0;
  for (let i = 0; i < tons; i++) {
    const roll = dice.d10();
    if (roll >= NATURAL_CRITICAL) crits++;
    else if (succeeds(roll, need)) hits++;
  }
  const tp = e.units[t]!.profile;
  // A natural 10 is a Critical Hit: it cannot be Dodged (section 2); the other hits can.
  if (tp.dodge !== undefined) {
    let left = 0;
    for (let i = 0; i < hits; i++) if (!succeeds(dice.d10(), tp.dodge)) left++;
    hits = left;
  }
  hits += crits;
  e.ops += tons + 2 * hits;
  e.tally.rammed[u]!++;
  const unsaved = (p: UnitProfile, braced: boolean) => {
    if (p.armour === undefined) return hits;
    let n = 0;
    for (let i = 0; i < hits; i++) if (!succeeds(dice.d10(), p.armour - (braced ? 1 : 0))) n++;
    return n;
  };
  const toTarget = unsaved(tp, e.braced[t] === 1);
  const toRammer = unsaved(e.units[u]!.profile, e.braced[u] === 1);
  for (const [x, n] of [
    [t, toTarget],
    [u, toRammer],
  ] as const) {
    if (n === 0 || !e.alive[x]) continue;
    const before = e.hull[x]!;
    e.hull[x] = e.allocate(before, n, RAMMING.damage, e.hpOf[x]!);
    if (e.hull[x] !== before) afterDamage(e, x, lost, pts);
  }
}
