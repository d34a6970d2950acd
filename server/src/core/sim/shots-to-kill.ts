/**
 * Shots to kill: the exact distribution of the number of consecutive Fire actions of the attacker
 * until the defender is destroyed (FORMATS.md, `shotsToKill`). Each Fire action is `sim`'s volley
 * (every weapon system whose range reaches, the volley's cover, no Aim, no Brace); the defender
 * takes no action between them, so its shields never come back.
 *
 * The defender's state is its current SH and its remaining hull points (which give its bases left
 * and the damaged base's HP: fire.ts), keyed `hull * stride + sh` as in the exact volley. One Fire
 * action from one state is the exact volley kernel (`exactVolley`) from that state alone; that row
 * of the transition law is computed once per state, the first time the state carries probability,
 * and then the distribution over the living states is pushed through it one Fire action at a time.
 * Neither SH nor hull ever goes up, so the states a defender can reach are few: at most
 * (hull + 1) x (SH + 1).
 */
import type { ShotsToKill, UnitProfile, VolleyOptions } from './types';
import { volleySetup } from './volley';
import { exactVolley, EXACT_WORK_LIMIT, VolleySums, type Budget } from './volley-exact';

/** FORMATS.md: stop when less than this much probability is left alive ... */
export const SHOTS_TO_KILL_TOLERANCE = 1e-9;
/** ... or after this many Fire actions, whichever comes first. */
export const SHOTS_TO_KILL_MAX_ACTIONS = 1000;
/** Work (the kernel's ops plus one per transition pushed) before it gives up and says so. */
export const SHOTS_TO_KILL_WORK_LIMIT = EXACT_WORK_LIMIT;

interface Row {
  to: Int32Array;
  p: Float64Array;
}

/**
 * The shots-to-kill distribution of `attacker` firing at `defender` under the volley's options
 * (range, cover, defender's starting shields and bases, attacker's bases; aim and brace are left out:
 * they are actions, and neither side takes any but Fire).
 */
export function shotsToKill(attacker: UnitProfile, defender: UnitProfile, opts: VolleyOptions = {}, limit = SHOTS_TO_KILL_WORK_LIMIT): ShotsToKill {
  const { aim: _aim, brace: _brace, ...rest } = opts && typeof opts === 'object' ? opts : ({} as VolleyOptions);
  const v = volleySetup(attacker, defender, rest);
  const stride = v.resolved.defenderShields + 1;
  const hull0 = v.resolved.defenderHull;
  const budget: Budget = { ops: 0, limit };
  const never = (): ShotsToKill => ({ mean: null, p50: null, p90: null, cdf: [], converged: true });
  if ((hull0 + 1) * stride > Number.MAX_SAFE_INTEGER)
    return { ...never(), converged: false, note: 'The defender has too many hull points and shields for the exact programme.' };

  // Living states by index; rows[i] is the law of one Fire action from state i (undefined until needed).
  const index = new Map<number, number>();
  const keys: number[] = [];
  const rows: (Row | undefined)[] = [];
  const indexOf = (key: number): number => {
    let i = index.get(key);
    if (i === undefined) {
      i = keys.length;
      index.set(key, i);
      keys.push(key);
      rows.push(undefined);
    }
    return i;
  };
  /** The row of state i; undefined when the work limit is reached. Keys below `stride` (hull 0) are the kill, index -1. */
  const sums = new VolleySums();
  const rowOf = (i: number): Row | undefined => {
    const have = rows[i];
    if (have) return have;
    const ex = exactVolley(v.ctx, new Map([[keys[i]!, 1]]), stride, budget, sums);
    if (!ex) return undefined;
    const to = new Int32Array(ex.dist.size);
    const p = new Float64Array(ex.dist.size);
    let j = 0;
    for (const [key, q] of ex.dist) {
      to[j] = key < stride ? -1 : indexOf(key);
      p[j] = q;
      j++;
    }
    return (rows[i] = { to, p });
  };

  indexOf(hull0 * stride + v.resolved.defenderShields);
  // Two buffers, swapped each Fire action (grown when new states appear), so that a long chain allocates nothing per step.
  let mass = new Float64Array(16);
  let next = new Float64Array(16);
  mass[0] = 1;
  const cdf: number[] = [];
  let killed = 0;
  let alive = 1;
  let note: string | undefined;
  let stuck = false;
  while (alive >= SHOTS_TO_KILL_TOLERANCE && cdf.length < SHOTS_TO_KILL_MAX_ACTIONS) {
    const live = keys.length;
    next.fill(0, 0, live);
    let kill = 0;
    let moved = false;
    let stopped = false;
    for (let i = 0; i < live; i++) {
      const w = mass[i]!;
      if (w === 0) continue;
      const row = rowOf(i);
      if (!row || (budget.ops += row.to.length) > budget.limit) {
        stopped = true;
        break;
      }
      if (next.length < keys.length) {
        const size = 2 * keys.length;
        const grown = new Float64Array(size);
        grown.set(next);
        next = grown;
        const grownMass = new Float64Array(size);
        grownMass.set(mass);
        mass = grownMass;
      }
      const { to, p } = row;
      for (let j = 0; j < to.length; j++) {
        const t = to[j]!;
        if (t < 0) kill += w * p[j]!;
        else {
          next[t]! += w * p[j]!;
          if (t !== i) moved = true;
        }
      }
    }
    if (stopped) {
      note = `The exact programme reached its work limit after ${cdf.length} Fire actions; the figures cover those.`;
      break;
    }
    // Nothing changes any more (no weapon reaches, or none can hurt it): the rest is never destroyed.
    if (!moved && kill === 0) {
      stuck = true;
      break;
    }
    killed += kill;
    alive = 0;
    for (let i = 0; i < keys.length; i++) alive += next[i]!;
    cdf.push(Math.min(1, killed));
    [mass, next] = [next, mass];
  }
  if (killed === 0) return note ? { ...never(), converged: false, note } : never();
  return summary(cdf, killed, alive, stuck, note);
}

/**
 * The distribution's figures from its CDF (after n + 1 Fire actions, the chance it is destroyed),
 * the chance destroyed in all, the chance left alive, whether the chain stopped changing, and the
 * note of a work limit reached.
 */
function summary(cdf: number[], killed: number, alive: number, stuck: boolean, note: string | undefined): ShotsToKill {
  let sum = 0;
  let prev = 0;
  for (let n = 0; n < cdf.length; n++) {
    sum += (n + 1) * (cdf[n]! - prev);
    prev = cdf[n]!;
  }
  const quantile = (q: number): number | null => {
    const n = cdf.findIndex((c) => c >= q - 1e-12);
    return n < 0 ? null : n + 1;
  };
  const converged = note === undefined && (stuck || alive < SHOTS_TO_KILL_TOLERANCE);
  if (!note && stuck) note = `${pctText(alive)} of the time it is never destroyed; the mean is over the times it is.`;
  if (!note && !converged)
    note = `${pctText(alive)} of the time it is still not destroyed after ${SHOTS_TO_KILL_MAX_ACTIONS} Fire actions; the mean is over the times it is within them.`;
  return { mean: sum / killed, p50: quantile(0.5), p90: quantile(0.9), cdf, converged, ...(note ? { note } : {}) };
}

function pctText(p: number): string {
  return `${(100 * p).toPrecision(3)}%`;
}
