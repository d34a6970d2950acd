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
 * weapon whose reach the distance is within; a unit with CR that has not moved closes on an enemy
 * with CR to boarding range first (one AP). Who activates first in a round is the initiative roll:
 * both orders are played and weighed alike. Tables: every game size's depth (section 17).
 * `approachDuel` plays two units alone; `approachFleet` the card's fleet against the whole field as
 * one fleet (every unit closing on its nearest enemy, on one line).
 */
import { ACTION_POINTS_PER_ACTIVATION, BOARDING, GAME_SIZES, RANGE_BANDS } from '../rules/data';
import { weaponReach } from '../sim/fire';
import type { UnitProfile } from '../sim/types';

/** One unit as the approach reads it: its Move sticks and its weapons' reaches. */
export interface Mover {
  move: readonly number[];
  /** Reach of each weapon (in the profile's weapon order). */
  reaches: readonly number[];
  /** The longest reach (-1: no weapon). */
  maxReach: number;
  /** It has CR: with both AP left and a move unused, it closes on an enemy with CR to boarding range. */
  cr: boolean;
  /** The distance it closes to before it fires (the engine's policy: its longest reach). */
  stopAt: number;
  /** What its approach depends on, as a key. */
  key: string;
}

/** A unit as the engine's policy moves it, or closing to `stopAt` (at most its longest reach) before it fires. */
export function moverOf(p: UnitProfile, stopAt?: number): Mover {
  const reaches = p.weapons.map((w) => (w.attacks > 0 ? weaponReach(p, w) : -1));
  const maxReach = reaches.reduce((m, r) => Math.max(m, r), -1);
  const move = p.move ?? [];
  const cr = p.cr !== undefined;
  const stop = Math.min(stopAt ?? maxReach, maxReach);
  return { move, reaches, maxReach, cr, stopAt: stop, key: `${move.join('/')};${maxReach};${stop};${cr ? 1 : 0}` };
}

/** A unit's Fire actions by distance: its weapons that reach each distance, nested (the longest reach first), with their volley keys. */
export interface InReach {
  /** Distinct reaches, longest first; `subsets[i]` is the unit with the weapons of reach at least `reaches[i]`. */
  reaches: number[];
  subsets: { profile: UnitProfile; key: string }[];
}

export function inReachOf(p: UnitProfile, key: (p: UnitProfile) => string): InReach {
  const m = moverOf(p);
  const reaches = [...new Set(m.reaches.filter((r) => r >= 0))].sort((a, b) => b - a);
  return {
    reaches,
    subsets: reaches.map((r) => {
      const sub = inReachAt(p, m, r);
      return { profile: sub, key: key(sub) };
    }),
  };
}

/** The unit with the weapons that reach `d` (undefined: none does). */
export function subsetAt(r: InReach, d: number): { profile: UnitProfile; key: string } | undefined {
  const k = subsetIndex(r, d);
  return k >= 0 ? r.subsets[k] : undefined;
}

/** The index in `r.subsets` of the weapons that reach `d` (-1: none does). */
export function subsetIndex(r: InReach, d: number): number {
  let k = -1;
  for (let i = 0; i < r.reaches.length && r.reaches[i]! >= d; i++) k = i;
  return k;
}

/**
 * The distances a unit could close to before it fires: each range band (section 12) up to its
 * longest reach, and each of its reaches. The engine's policy takes the longest; the estimate takes
 * the best of them, so that a longer gun never lowers it (with the same stopping distance, every
 * weapon that fired still fires, and the other side's fire is unchanged; a weapon's range is a band,
 * so the shorter gun's stopping distance is still among the longer one's).
 */
export function stoppingDistances(p: UnitProfile): number[] {
  const m = moverOf(p);
  const out = new Set<number>(m.reaches.filter((r) => r >= 0));
  for (const b of RANGE_BANDS) if (b <= m.maxReach) out.add(b);
  return [...out].sort((a, b) => b - a);
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
  // Plain loops (no closures per activation: this runs for every pair of movers the estimate meets).
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < 2; i++) {
      const u = aFirst ? i : 1 - i;
      const me = units[u]!;
      const other = 1 - u;
      let ap = ACTION_POINTS_PER_ACTIVATION;
      let moves = 0;
      if (!on[u]) {
        on[u] = true;
        pos[u] = 0;
        pos[u] += moveStep(me, me.move[0] ?? 0, on[other] ? Math.max(0, depth - pos[0]! - pos[1]!) : depth);
        ap--;
        moves++;
      }
      while (ap > 0 && moves < me.move.length) {
        const d = Math.max(0, depth - pos[0]! - pos[1]!);
        if (on[other] && me.maxReach >= 0 && d <= me.stopAt) break;
        pos[u]! += moveStep(me, me.move[moves]!, on[other] ? d : Math.max(0, depth - pos[u]!));
        ap--;
        moves++;
      }
      // A unit with CR closes on an enemy with CR to board it, giving up its second action.
      const d = Math.max(0, depth - pos[0]! - pos[1]!);
      if (on[other] && ap === ACTION_POINTS_PER_ACTIVATION && moves < me.move.length && me.cr && units[other]!.cr && d > BOARDING.range) {
        pos[u]! += Math.min(me.move[moves]!, d - BOARDING.range);
        ap--;
      }
      const now = Math.max(0, depth - pos[0]! - pos[1]!);
      fires[u]![r] = ap > 0 && on[other] && me.maxReach >= 0 && now <= me.maxReach ? now : undefined;
    }
  }
  return fires;
}

/** How far a unit moves with one stick toward an enemy `best` inches away (or its edge): up to its stopping distance. */
function moveStep(me: Mover, stick: number, best: number): number {
  return Math.min(stick, Math.max(0, best - Math.max(0, me.stopAt)));
}

/**
 * How often each of `a`'s weapon subsets fires at `b`, over every game size's table and both
 * initiative orders: a map from the distance `a` fired at (a key for the weapons in reach) to
 * the expected Fire actions at that distance per battle (of `rounds` rounds), and the same for `b`
 * at `a`.
 */
export function approachFires(a: Mover, b: Mover, rounds: number): [Map<number, number>, Map<number, number>] {
  const [mine, theirs] = approachFiresFlat(a, b, rounds);
  const map = (f: Float64Array) => {
    const m = new Map<number, number>();
    for (let i = 0; i < f.length; i += 2) m.set(f[i]!, f[i + 1]!);
    return m;
  };
  return [map(mine), map(theirs)];
}

/**
 * A unit's Fire actions by distance as distance, count, distance, count...: the estimate reads
 * each approach some thirty times (every card's stopping distances against every member), and
 * walking a Map's entries allocated each time.
 */
export function flatFires(m: Map<number, number>): Float64Array {
  const f = new Float64Array(m.size * 2);
  let i = 0;
  for (const [d, n] of m) {
    f[i++] = d;
    f[i++] = n;
  }
  return f;
}

/** `approachFires` as flat arrays (`flatFires`): what the memo keeps and the estimate reads. */
export function approachFiresFlat(a: Mover, b: Mover, rounds: number): Fires {
  const maps: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];
  const weight = 1 / (GAME_SIZES.length * 2);
  for (const g of GAME_SIZES)
    for (const aFirst of [true, false]) {
      const f = approachDuel(a, b, g.depth, rounds, aFirst);
      for (let s = 0; s < 2; s++) for (const d of f[s]!) if (d !== undefined) maps[s]!.set(d, (maps[s]!.get(d) ?? 0) + weight);
    }
  return [flatFires(maps[0]), flatFires(maps[1])];
}

type Fires = [Float64Array, Float64Array];

const FIRES_MAX = 50_000;

/** The approaches already played by one points-estimate state (an `Estimates` instance owns one). */
export class Approaches {
  /** By the two movers (the same moves, reaches and CR give the same approach) and the rounds. */
  private readonly fires = new Map<string, Map<number, Map<string, Fires>>>();
  private count = 0;

  /** Forgets the approaches played (the benchmark's cold start; tests). */
  clear(): void {
    this.fires.clear();
    this.count = 0;
  }

  /** `approachFiresFlat`, kept. */
  firesOf(a: Mover, b: Mover, rounds: number): Fires {
    // By the movers' keys as they are (a string made here would be hashed again at every call: the
    // estimate asks some 200,000 times for 2,000 cards), then the rounds.
    let row = this.fires.get(a.key)?.get(rounds);
    const hit = row?.get(b.key);
    if (hit) return hit;
    const out = approachFiresFlat(a, b, rounds);
    if (this.count >= FIRES_MAX) {
      this.fires.clear();
      this.count = 0;
      row = undefined;
    }
    if (!row) {
      let byRounds = this.fires.get(a.key);
      if (!byRounds) this.fires.set(a.key, (byRounds = new Map()));
      byRounds.set(rounds, (row = new Map()));
    }
    row.set(b.key, out);
    this.count++;
    return out;
  }
}

/** The weapons of `p` that reach `d` (the Fire action at that distance). */
export function inReachAt(p: UnitProfile, m: Mover, d: number): UnitProfile {
  return { ...p, weapons: p.weapons.filter((_, i) => m.reaches[i]! >= d) };
}

/**
 * The approach of a card's fleet against the whole field as one fleet (the card's copies move as
 * one): every unit moves toward the nearest enemy, so the card closes on the field's front-most
 * unit and, positions being on one line, comes as close to every unit as far forward. Per field
 * member: the card's Fire actions at it by distance (each Fire action shared among the members in
 * reach, as one target among them), and its Fire actions at the card by distance; over every game
 * size's table and both initiative orders, per battle of `rounds` rounds.
 */
export function approachFleet(card: Mover, field: readonly Mover[], rounds: number): { mine: Map<number, number>[]; theirs: Map<number, number>[] } {
  const mine = field.map(() => new Map<number, number>());
  const theirs = field.map(() => new Map<number, number>());
  const weight = 1 / (GAME_SIZES.length * 2);
  const add = (m: Map<number, number>, d: number, w: number) => m.set(d, (m.get(d) ?? 0) + w);
  for (const g of GAME_SIZES)
    for (const cardFirst of [true, false]) {
      const depth = g.depth;
      let pos = 0;
      let on = false;
      const fpos = field.map(() => 0);
      const fon = field.map(() => false);
      const dist = (j: number) => Math.max(0, depth - pos - fpos[j]!);
      /** The nearest field unit on the table (the front-most), or -1. */
      const nearest = (cr: boolean) => {
        let best = -1;
        for (let j = 0; j < field.length; j++) if (fon[j] && (!cr || field[j]!.cr) && (best < 0 || fpos[j]! > fpos[best]!)) best = j;
        return best;
      };
      const activateCard = (r: number) => {
        let ap = ACTION_POINTS_PER_ACTIVATION;
        let moves = 0;
        const near = () => {
          const j = nearest(false);
          return j < 0 ? Infinity : dist(j);
        };
        const closeEnough = () => card.maxReach >= 0 && near() <= card.stopAt;
        const moveToward = (stick: number) => {
          const best = nearest(false) < 0 ? Math.max(0, depth - pos) : near();
          pos += Math.min(stick, Math.max(0, best - Math.max(0, card.stopAt)));
        };
        if (!on) {
          on = true;
          pos = 0;
          moveToward(card.move[0] ?? 0);
          ap--;
          moves++;
        }
        while (ap > 0 && moves < card.move.length && !closeEnough()) {
          moveToward(card.move[moves]!);
          ap--;
          moves++;
        }
        const jc = card.cr ? nearest(true) : -1;
        if (jc >= 0 && ap === ACTION_POINTS_PER_ACTIVATION && moves < card.move.length && dist(jc) > BOARDING.range) {
          pos += Math.min(card.move[moves]!, dist(jc) - BOARDING.range, near());
          ap--;
        }
        if (ap === 0 || card.maxReach < 0) return;
        const inReach: number[] = [];
        for (let j = 0; j < field.length; j++) if (fon[j] && dist(j) <= card.maxReach) inReach.push(j);
        for (const j of inReach) add(mine[j]!, dist(j), weight / inReach.length);
        void r;
      };
      const activateMember = (j: number) => {
        const me = field[j]!;
        let ap = ACTION_POINTS_PER_ACTIVATION;
        let moves = 0;
        const closeEnough = () => on && me.maxReach >= 0 && dist(j) <= me.stopAt;
        const moveToward = (stick: number) => {
          const best = on ? dist(j) : Math.max(0, depth - fpos[j]!);
          fpos[j]! += Math.min(stick, Math.max(0, best - Math.max(0, me.stopAt)));
        };
        if (!fon[j]) {
          fon[j] = true;
          fpos[j] = 0;
          moveToward(me.move[0] ?? 0);
          ap--;
          moves++;
        }
        while (ap > 0 && moves < me.move.length && !closeEnough()) {
          moveToward(me.move[moves]!);
          ap--;
          moves++;
        }
        if (on && me.cr && card.cr && ap === ACTION_POINTS_PER_ACTIVATION && moves < me.move.length && dist(j) > BOARDING.range) {
          fpos[j]! += Math.min(me.move[moves]!, dist(j) - BOARDING.range);
          ap--;
        }
        if (ap > 0 && on && me.maxReach >= 0 && dist(j) <= me.maxReach) add(theirs[j]!, dist(j), weight);
      };
      for (let r = 0; r < rounds; r++) {
        if (cardFirst) activateCard(r);
        for (let j = 0; j < field.length; j++) activateMember(j);
        if (!cardFirst) activateCard(r);
      }
    }
  return { mine, theirs };
}
