/**
 * The approach on the table, as the fleet battle plays it (BATTLE.md "The fleet battle",
 * approach), for two units alone: where each stands when it may fire, round by round. The points
 * estimate weighs each Fire action by it (estimate.ts `battleFeatures`, the approach terms): a unit
 * with longer guns, or one that closes faster, fires in more rounds than the unit it fights, and a
 * short-ranged one is fired at while it closes (the rounds a unit fires before the other side can
 * reply). Exact and deterministic: no dice, one line of positions.
 *
 * The moves are the engine's policy (sim/battle/actions.ts `activate`): a unit enters from its edge
 * on its first activation with its first Move stick (one AP); while no enemy is within its longest
 * weapon's reach it moves toward the enemy with its next stick (one AP each, as many sticks as its
 * Move has), stopping at that reach; with an AP left and the enemy within reach, it fires every
 * weapon whose reach the distance is within. Who activates first in a round is the initiative roll:
 * both orders are played and weighed alike. Tables: every game size's depth (section 17).
 */
import { ACTION_POINTS_PER_ACTIVATION, GAME_SIZES } from '../rules/data';
import { weaponReach } from '../sim/fire';
import type { UnitProfile } from '../sim/types';

/** One unit as the approach reads it: its Move sticks and its weapons' reaches. */
export interface Mover {
  move: readonly number[];
  /** Reach of each weapon (in the profile's weapon order). */
  reaches: readonly number[];
  /** The longest reach (-1: no weapon). */
  maxReach: number;
}

export function moverOf(p: UnitProfile): Mover {
  const reaches = p.weapons.map((w) => (w.attacks > 0 ? weaponReach(p, w) : -1));
  return { move: p.move ?? [], reaches, maxReach: reaches.reduce((m, r) => Math.max(m, r), -1) };
}

/**
 * Per round, the distance at which each unit fires (undefined: it does not fire that round), when
 * `a` and `b` approach on a table `depth` deep for `rounds` rounds, `a` activating first when `aFirst`.
 */
export function approachDuel(a: Mover, b: Mover, depth: number, rounds: number, aFirst: boolean): [(number | undefined)[], (number | undefined)[]] {
  const units = [a, b];
  const pos = [0, 0];
  const on = [false, false];
  const fires: [(number | undefined)[], (number | undefined)[]] = [[], []];
  const dist = () => Math.max(0, depth - pos[0]! - pos[1]!);
  for (let r = 0; r < rounds; r++) {
    for (const u of aFirst ? [0, 1] : [1, 0]) {
      const me = units[u]!;
      const other = 1 - u;
      let ap = ACTION_POINTS_PER_ACTIVATION;
      let moves = 0;
      const inReach = () => on[other]! && me.maxReach >= 0 && dist() <= me.maxReach;
      const moveToward = (stick: number) => {
        const best = on[other] ? dist() : Math.max(0, depth - pos[u]!);
        pos[u]! += Math.min(stick, Math.max(0, best - Math.max(0, me.maxReach)));
      };
      if (!on[u]) {
        on[u] = true;
        pos[u] = 0;
        moveToward(me.move[0] ?? 0);
        ap--;
        moves++;
      }
      while (ap > 0 && moves < me.move.length && !inReach()) {
        moveToward(me.move[moves]!);
        ap--;
        moves++;
      }
      fires[u]![r] = ap > 0 && inReach() ? dist() : undefined;
    }
  }
  return fires;
}

/**
 * How often each of `a`'s weapon subsets fires at `b`, over every game size's table and both
 * initiative orders: a map from the distance `a` fired at (a key for the weapons in reach) to
 * the expected Fire actions at that distance per battle (of `rounds` rounds), and the same for `b`
 * at `a`.
 */
export function approachFires(a: Mover, b: Mover, rounds: number): [Map<number, number>, Map<number, number>] {
  const out: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];
  const weight = 1 / (GAME_SIZES.length * 2);
  for (const g of GAME_SIZES)
    for (const aFirst of [true, false]) {
      const f = approachDuel(a, b, g.depth, rounds, aFirst);
      for (let s = 0; s < 2; s++)
        for (const d of f[s]!) if (d !== undefined) out[s]!.set(d, (out[s]!.get(d) ?? 0) + weight);
    }
  return out;
}

/** The weapons of `p` that reach `d` (the Fire action at that distance). */
export function inReachAt(p: UnitProfile, m: Mover, d: number): UnitProfile {
  return { ...p, weapons: p.weapons.filter((_, i) => m.reaches[i]! >= d) };
}
