/**
 * The quick engagement (RULES.md "The engagement (duel) model"): two units at a fixed range play
 * rounds until one is destroyed or the round limit passes. It is the fleet battle (battle/) of two
 * one-unit fleets at a fixed range: the same round, activations, policy, Board and Ram, and the
 * same numbers from the same seed. What this file adds is the duel's own result shape and, when the
 * joint state space fits, the exact Markov chain over both units' states (SH, hull, braced), built
 * from the same kernels and decisions as the sampled run, as a cross-check.
 *
 * Interpretations (also in `ENGAGEMENT_ASSUMPTIONS`): Brace lasts until the bracing unit's next
 * activation; Shields Back Online may be taken only with SH missing and restores at most up to the
 * current maximum (Combined Shields: per-base SH x bases left); the attacker starts with full
 * shields, the defender with `defenderShields`; cover protects the defender only; the volley's aim
 * and brace options do not apply, the policy chooses those.
 */
import { ACTION_POINTS_PER_ACTIVATION, BOARDING, ENGAGEMENT_DEFAULTS, RAMMING } from '../rules/data';
import type { ActionCounts, EngagementOptions, EngagementResult, Point, UnitProfile } from './types';
import { makeRng } from './dice';
import type { RandomGenerator } from './dice';
import { maxShields } from './fire';
import { asResolved, type Resolved } from './options';
import { sanitizeProfile } from './profile';
import { BattleRun, KERNEL_WORK_LIMIT, SAMPLING_WORK_LIMIT, initiativeOdds } from './battle';
import type { BattleHooks, BattleOutcome, DuelAccess, DuelKernel, SecondAction } from './battle';
import { composeVariants } from './variants/index';
import { variantEffects } from './variants/catalog';
import type { VariantChoice, VariantInfo } from './variants/index';

export { KERNEL_WORK_LIMIT, initiativeOdds };
export type { SecondAction };

const maxShieldsOf = maxShields;

/** Work limit of the exact chain on top of the kernels. */
export const MARKOV_WORK_LIMIT = 2e7;

export const POLICY_EXPECTED =
  `Each activation spends ${ACTION_POINTS_PER_ACTIVATION} AP: Fire with every weapon in range, and one second action chosen greedily by expected hull points: ` +
  'Aim is worth the extra expected hull damage it adds to this Fire action (aiming the weapon that adds the most); ' +
  "Shields Back Online (only with SH missing) and Brace (only with AC) are worth the expected hull damage they avert from the opponent's next (unaimed) Fire action. " +
  "The highest value wins; ties go to Aim, then Shields Back Online, then Brace. Brace lasts until the unit's next activation. " +
  `For a unit with CR within ${BOARDING.range}" of an enemy with CR whose SH is 0, Board replaces the second action, whichever it would be (Aim, Shields Back Online or Brace), when boarding is expected to remove more hull points: ` +
  'it comes after the Fire action (weighed against Aim before firing, since Aim comes first; then the Fire action is unaimed); ' +
  `a unit with nothing in range Boards if it can, else Rams (Tonnage, at ${RAMMING.range}") as a last resort.`;

export const POLICY_RULE =
  `Each activation spends ${ACTION_POINTS_PER_ACTIVATION} AP: Fire with every weapon in range, and one second action by a fixed rule (used because exact expectations would be too costly for these cards): ` +
  'Shields Back Online if SH is missing; else Aim the in-range weapon with the most attacks x damage; else Brace if the unit has AC. ' +
  `Board replaces it whenever the unit has CR and the other unit, within ${BOARDING.range}" with CR, has SH 0; a unit with nothing in range Boards if it can, else Rams (Tonnage, at ${RAMMING.range}") as a last resort.`;

interface UnitState {
  sh: number;
  hull: number;
  braced: boolean;
}

interface DuelSide {
  p: UnitProfile;
  stride: number;
  fullHull: number;
}

interface RunTotals {
  wins: [number, number];
  /** ended[r]: engagements that ended (a unit destroyed) in round r + 1. */
  ended: Float64Array;
  /** Deaths by round, per side. */
  deaths: [Float64Array, Float64Array];
  actions: [ActionCounts, ActionCounts];
}

function emptyTotals(rounds: number): RunTotals {
  return {
    wins: [0, 0],
    ended: new Float64Array(rounds),
    deaths: [new Float64Array(rounds), new Float64Array(rounds)],
    actions: [
      { aim: 0, shields: 0, brace: 0 },
      { aim: 0, shields: 0, brace: 0 },
    ],
  };
}

/** The exact chain is tried only up to this many joint states (dense arrays of this length). */
export const MARKOV_MAX_STATES = 1_000_000;

/**
 * A sparse probability vector over joint states: dense values plus the list of indices that hold
 * mass, so that a pass visits only live states and clearing costs only what was touched.
 */
class Bag {
  readonly val: Float64Array;
  readonly idx: Int32Array;
  n = 0;
  constructor(size: number) {
    this.val = new Float64Array(size);
    this.idx = new Int32Array(size);
  }
  add(j: number, p: number): void {
    if (p === 0) return;
    if (this.val[j] === 0) this.idx[this.n++] = j;
    this.val[j]! += p;
  }
  clear(): void {
    for (let i = 0; i < this.n; i++) this.val[this.idx[i]!] = 0;
    this.n = 0;
  }
}

/** Decoding tables of each side's unit index: its SH and hull, and the most SH a hull may hold. */
function decodingTables(sides: [DuelSide, DuelSide], size: [number, number]) {
  const tables = sides.map((side, f) => {
    const sh = new Float64Array(size[f as 0 | 1]);
    const hull = new Float64Array(size[f as 0 | 1]);
    for (let i = 0; i < sh.length; i++) {
      const j = i >> 1;
      sh[i] = j % side.stride;
      hull[i] = (j - sh[i]!) / side.stride;
    }
    return { sh, hull };
  });
  const maxSh = sides.map((side, f) => {
    const m = new Float64Array(side.fullHull + 1);
    for (let h = 0; h <= side.fullHull; h++) m[h] = maxShieldsOf(sides[f]!.p, h);
    return m;
  });
  return { tables, maxSh };
}

/** Spreads the parked mass of side f over its Shields Back Online roll (`pmf`), into `out`; returns the work done. */
function spreadRecharge(
  f: 0 | 1,
  parked: Bag,
  out: Bag,
  pmf: ArrayLike<number>,
  size: [number, number],
  tables: { sh: Float64Array; hull: Float64Array }[],
  maxSh: Float64Array[],
): number {
  let work = 0;
  for (let k = 0; k < parked.n; k++) {
    const idx = parked.idx[k]!;
    const w = parked.val[idx]!;
    const iA = Math.floor(idx / size[1]);
    const iB = idx - iA * size[1];
    const iMe = f === 0 ? iA : iB;
    const sh = tables[f]!.sh[iMe]!;
    const max = maxSh[f]![tables[f]!.hull[iMe]!]!;
    for (let r = 0; r < pmf.length; r++) {
      const idxMe = iMe + 2 * (Math.min(max, sh + r) - sh);
      out.add(f === 0 ? idxMe * size[1] + iB : iA * size[1] + idxMe, w * pmf[r]!);
    }
    work += pmf.length;
  }
  parked.clear();
  return work;
}

/**
 * The exact chain over joint states (SH, hull, braced of both units), indexed
 * `unitIndexA * NB + unitIndexB`, one activation at a time. An activation is applied in two passes:
 * first the Fire kernel moves the foe (and the activating unit's brace flag is set), with the mass
 * of units that chose Shields Back Online parked apart; then that mass is spread over the recharge
 * roll. The two transitions are independent, and doing them apart costs |kernel| + |recharge| per
 * state instead of their product. Undefined when it does not fit the state or work limits.
 */
function markovRun(e: DuelAccess, sides: [DuelSide, DuelSide], pFirst: number, start: [UnitState, UnitState], rounds: number): RunTotals | undefined {
  const size = sides.map((s) => (s.fullHull + 1) * s.stride * 2) as [number, number];
  const N = size[0] * size[1];
  if (N > MARKOV_MAX_STATES) return undefined;
  const unitIndex = (f: 0 | 1, u: UnitState) => (u.hull * sides[f].stride + u.sh) * 2 + (u.braced ? 1 : 0);
  const { tables, maxSh } = decodingTables(sides, size);
  let work = 0;
  const totals = emptyTotals(rounds);
  // Per side and joint state (own brace flag cleared): 1 + the index of its step in `kernels`/`actions`.
  const stepOf: [Int32Array, Int32Array] = [new Int32Array(N), new Int32Array(N)];
  const kernels: DuelKernel[] = [];
  const actions: number[] = [];
  const me: UnitState = { sh: 0, hull: 0, braced: false };
  const foe: UnitState = { sh: 0, hull: 0, braced: false };
  /** Pass one for side f at joint index idx: the kernel into `out` (or `parked`); returns the mass of kills. */
  const fire = (f: 0 | 1, idx: number, w: number, out: Bag, parked: Bag): number | undefined => {
    const o: 0 | 1 = f === 0 ? 1 : 0;
    const iA = Math.floor(idx / size[1]);
    const iB = idx - iA * size[1];
    const iMe = f === 0 ? iA : iB;
    const iFoe = f === 0 ? iB : iA;
    // The decision and its kernel depend on the joint state only (own brace flag cleared), so they
    // are looked up once per state and reused in later rounds.
    const slot = f === 0 ? (iMe & ~1) * size[1] + iFoe : iFoe * size[1] + (iMe & ~1);
    let id = stepOf[f][slot]!;
    if (id === 0) {
      me.sh = tables[f]!.sh[iMe]!;
      me.hull = tables[f]!.hull[iMe]!;
      me.braced = false;
      foe.sh = tables[o]!.sh[iFoe]!;
      foe.hull = tables[o]!.hull[iFoe]!;
      foe.braced = (iFoe & 1) === 1;
      const d = e.decide(f, me, foe);
      if (!d) return undefined;
      const kern = d.kernel;
      kernels.push(kern);
      actions.push(d.action === 'shields' ? 1 : d.action === 'brace' ? 2 : 0);
      id = stepOf[f][slot] = kernels.length;
    }
    const kern = kernels[id - 1]!;
    const action = actions[id - 1]!;
    work += kern.keys.length + 10;
    const dst = action === 1 ? parked : out;
    const selfIdx = (iMe & ~1) + (action === 2 ? 1 : 0);
    const br = iFoe & 1;
    const stride = sides[o].stride;
    let killed = 0;
    for (let i = 0; i < kern.keys.length; i++) {
      const fk = kern.keys[i]!;
      const pk = w * kern.probs[i]!;
      if (fk < stride) {
        killed += pk; // hull 0: the foe is destroyed
        continue;
      }
      const foeIdx = fk * 2 + br;
      dst.add(f === 0 ? selfIdx * size[1] + foeIdx : foeIdx * size[1] + selfIdx, pk);
    }
    return killed;
  };
  /** Pass two: spread the parked mass of side f over its Shields Back Online roll, into `out`. */
  const recharge = (f: 0 | 1, parked: Bag, out: Bag) => {
    work += spreadRecharge(f, parked, out, e.rechargePmf, size, tables, maxSh);
  };
  const parked = new Bag(N);
  /** Side f's activation in round r over the mass in `from` (times `w`), into `out`; false when it does not fit. */
  const sweep = (f: 0 | 1, r: number, from: Bag, w: number, out: Bag): boolean => {
    const o: 0 | 1 = f === 0 ? 1 : 0;
    for (let k = 0; k < from.n; k++) {
      const idx = from.idx[k]!;
      const killed = fire(f, idx, from.val[idx]! * w, out, parked);
      if (killed === undefined) return false;
      totals.wins[f] += killed;
      totals.ended[r]! += killed;
      totals.deaths[o][r]! += killed;
    }
    return true;
  };
  let alive = new Bag(N);
  let next = new Bag(N);
  const mid = new Bag(N);
  alive.add(unitIndex(0, start[0]) * size[1] + unitIndex(1, start[1]), 1);
  for (let r = 0; r < rounds; r++) {
    for (const first of [0, 1] as const) {
      const pf = first === 0 ? pFirst : 1 - pFirst;
      if (pf === 0) continue;
      const second: 0 | 1 = first === 0 ? 1 : 0;
      if (!sweep(first, r, alive, pf, mid)) return undefined;
      recharge(first, parked, mid);
      if (!sweep(second, r, mid, 1, next)) return undefined;
      mid.clear();
      recharge(second, parked, next);
      if (work > MARKOV_WORK_LIMIT) return undefined;
    }
    alive.clear();
    [alive, next] = [next, alive];
  }
  return totals;
}

function summarise(ended: Float64Array, wins: [number, number], alive: [(r: number) => number, (r: number) => number], n: number, rounds: number) {
  const attackerWins = wins[0] / n;
  const defenderWins = wins[1] / n;
  // From the counts, so that a duel that always ends in a destruction gives exactly 0, not 1 - p - q's rounding.
  const neither = Math.max(0, n - wins[0] - wins[1]) / n;
  let meanRounds = 0;
  const roundsTaken: Point[] = [];
  let endedSum = 0;
  for (let r = 0; r < rounds; r++) endedSum += ended[r]!;
  const unended = Math.max(0, 1 - endedSum / n);
  for (let r = 0; r < rounds; r++) {
    const p = ended[r]! / n + (r === rounds - 1 ? unended : 0);
    meanRounds += (r + 1) * p;
    if (p > 0) roundsTaken.push({ value: r + 1, p });
  }
  const survival: { round: number; attacker: number; defender: number }[] = [];
  for (let r = 0; r < rounds; r++) survival.push({ round: r + 1, attacker: alive[0](r), defender: alive[1](r) });
  return { attackerWins, defenderWins, neither, meanRounds, roundsTaken, survival };
}

/** The duel as a fleet battle: two one-unit fleets, the defender with its starting state and cover. */
function duelRun(
  att: UnitProfile,
  def: UnitProfile,
  opts: EngagementOptions | Resolved,
  rng: RandomGenerator | undefined,
  workLimit?: number,
  variants: { hooks?: BattleHooks; rounds?: number } = {},
) {
  let r = asResolved(att, def, opts);
  // A variant that fixes the battle's length (morale) fixes the duel's too.
  if (variants.rounds !== undefined) r = { ...r, rounds: variants.rounds };
  const aHull = r.attackerBases * att.hp;
  const run = new BattleRun(
    [
      { name: att.name, faction: '', units: [{ name: att.name, copy: 1, points: 0, profile: att, start: { sh: maxShields(att, aHull), hull: aHull } }] },
      {
        name: def.name,
        faction: '',
        units: [{ name: def.name, copy: 1, points: 0, profile: def, start: { sh: r.defenderShields, hull: r.defenderHull }, cover: r.cover }],
      },
    ],
    // The duel's limit is its whole run's (SAMPLING_WORK_LIMIT): a duel's trial costs little.
    { range: r.range, depth: 0, rounds: r.rounds, trials: r.trials, seed: r.seed, runWorkLimit: workLimit ?? SAMPLING_WORK_LIMIT },
    rng ?? makeRng(r.seed),
    variants.hooks,
  );
  return { run, resolved: r, aHull };
}

/** Board or Ram can happen in this duel (so the exact chain, which knows only Fire, does not apply). */
function closeCombat(att: UnitProfile, def: UnitProfile, range: number): boolean {
  const board = range <= BOARDING.range && att.cr !== undefined && def.cr !== undefined;
  const ram = range <= RAMMING.range && ((att.tonnage ?? 0) > 0 || (def.tonnage ?? 0) > 0);
  return board || ram;
}

/** The duel's result from the battle's sampled outcome (and the exact chain when it fits). */
function engagementResult(
  out: BattleOutcome,
  run: BattleRun,
  att: UnitProfile,
  def: UnitProfile,
  r: Resolved,
  aHull: number,
  exact: boolean,
  variants: VariantInfo[] = [],
): EngagementResult {
  const t = out.totals;
  const n = Math.max(1, t.trials);
  const s = summarise(t.ended, t.annihilation, [(k) => t.alive[0]![k]! / n, (k) => t.alive[1]![k]! / n], n, r.rounds);
  const se = (p: number) => Math.sqrt((p * (1 - p)) / n);
  const per = (u: number): ActionCounts => ({ aim: t.tally.aim[u]! / n, shields: t.tally.shields[u]! / n, brace: t.tally.brace[u]! / n });
  const result: EngagementResult = {
    method: 'sampled',
    rounds: r.rounds,
    trials: t.trials,
    seed: r.seed,
    range: r.range,
    attackerWins: s.attackerWins,
    defenderWins: s.defenderWins,
    neither: s.neither,
    standardError: { attackerWins: se(s.attackerWins), defenderWins: se(s.defenderWins), neither: se(s.neither) },
    meanRounds: s.meanRounds,
    survival: s.survival,
    policy: out.mode === 'kernel' ? POLICY_EXPECTED : POLICY_RULE,
    roundsTaken: s.roundsTaken,
    actions: { attacker: per(0), defender: per(1) },
    ...(t.tally.boarded[0]! + t.tally.boarded[1]! + t.tally.rammed[0]! + t.tally.rammed[1]! > 0
      ? {
          closeCombat: {
            attacker: { boarded: t.tally.boarded[0]! / n, rammed: t.tally.rammed[0]! / n },
            defender: { boarded: t.tally.boarded[1]! / n, rammed: t.tally.rammed[1]! / n },
          },
        }
      : {}),
  };
  // Both destroyed by one Ram: part of `neither` (nobody wins), said apart.
  if (t.bothDestroyed > 0) result.bothDestroyed = t.bothDestroyed / n;
  if (out.cutShort) {
    result.cutShort = true;
    result.requestedTrials = out.requested;
  }
  if (variants.length) {
    result.variants = variants.map((v) => v.name);
    result.variantRules = variants;
    const effects = variantEffects(variants.map((v) => v.name));
    if (effects.routs) result.routed = { attacker: t.routed[0]! / n, defender: t.routed[1]! / n };
    if (effects.withdraws) result.retreated = { attacker: t.withdrew[0] / n, defender: t.withdrew[1] / n };
    // Morale's win is its own figure; the wins above are destructions (a routed unit was not destroyed).
    if (effects.victory) result.variantVictory = { attacker: t.variantVictory[0] / n, defender: t.variantVictory[1] / n };
  }
  // The exact chain knows the standard rules only: with a variant the duel is sampled.
  if (out.mode === 'kernel' && exact && !variants.length && !closeCombat(att, def, r.range)) {
    const access = run.engine;
    access.budget.limit = access.budget.ops + MARKOV_WORK_LIMIT;
    const side = (p: UnitProfile, f: 0 | 1): DuelSide => ({ p, stride: access.stride(f), fullHull: p.bases * p.hp });
    const start: [UnitState, UnitState] = [
      { sh: maxShields(att, aHull), hull: aHull, braced: false },
      { sh: r.defenderShields, hull: r.defenderHull, braced: false },
    ];
    const x = markovRun(access, [side(att, 0), side(def, 1)], initiativeOdds(att.ld, def.ld), start, r.rounds);
    if (x) {
      let dead0 = 0;
      let dead1 = 0;
      const alive0: number[] = [];
      const alive1: number[] = [];
      for (let k = 0; k < r.rounds; k++) {
        dead0 += x.deaths[0][k]!;
        dead1 += x.deaths[1][k]!;
        alive0.push(1 - dead0);
        alive1.push(1 - dead1);
      }
      const m = summarise(x.ended, x.wins, [(k) => alive0[k]!, (k) => alive1[k]!], 1, r.rounds);
      result.exact = { attackerWins: m.attackerWins, defenderWins: m.defenderWins, neither: m.neither, meanRounds: m.meanRounds, survival: m.survival };
    }
  }
  return result;
}

/**
 * A duel that runs a slice of work at a time (for a server that must keep answering): `step(ops)`
 * returns true when sampling has ended; `result()` gives the figures of the trials run so far
 * (with the exact chain once sampling has ended).
 */
export class EngagementRun {
  private readonly att: UnitProfile;
  private readonly def: UnitProfile;
  private readonly d: ReturnType<typeof duelRun>;
  private readonly variants: VariantInfo[];
  constructor(
    att: UnitProfile,
    def: UnitProfile,
    opts: EngagementOptions | Resolved = {},
    rng?: RandomGenerator,
    private readonly tuning: { exact?: boolean; workLimit?: number; variants?: readonly VariantChoice[] } = {},
  ) {
    this.att = sanitizeProfile(att);
    this.def = sanitizeProfile(def);
    const composed = composeVariants(tuning.variants ?? []);
    this.variants = composed.info;
    this.d = duelRun(this.att, this.def, opts, rng, tuning.workLimit, composed);
  }
  step(ops?: number): boolean {
    return this.d.run.step(ops);
  }
  get done(): boolean {
    return this.d.run.done;
  }
  /** The battle run underneath (a comparison pairs it with the standard one). */
  get battle(): BattleRun {
    return this.d.run;
  }
  get trials(): number {
    return this.d.run.trials;
  }
  get requested(): number {
    return this.d.resolved.trials;
  }
  result(): EngagementResult {
    const out = this.d.run.outcome();
    return engagementResult(out, this.d.run, this.att, this.def, this.d.resolved, this.d.aHull, this.d.run.done && this.tuning.exact !== false, this.variants);
  }
}

/**
 * The engagement between attacker and defender. Sampled with `trials` seeded trials (the same seed
 * gives the same numbers; fewer when the work limit stops it, and then it says so); when the joint
 * state space fits, also exact (`exact`).
 */
export function simulateEngagement(
  att: UnitProfile,
  def: UnitProfile,
  opts: EngagementOptions | Resolved = {},
  rng?: RandomGenerator,
  tuning: { exact?: boolean; workLimit?: number; variants?: readonly VariantChoice[] } = {},
): EngagementResult {
  const run = new EngagementRun(att, def, opts, rng, tuning);
  run.step();
  return run.result();
}

export const ENGAGEMENT_ASSUMPTIONS: readonly string[] = [
  `Engagement: the units stand at the given range (default ${ENGAGEMENT_DEFAULTS.range}") for every round; weapons that do not reach it never fire.`,
  'Engagement: the attacker starts with full shields, the defender with --defender-shields (default full); both start with the given bases.',
  'Engagement: cover protects the defender only; --aim and --brace apply to the single volley, while in the engagement the policy chooses them.',
  "Engagement: Brace lasts until the bracing unit's next activation; Shields Back Online needs missing SH and never restores beyond the current maximum.",
  'Initiative: each side rolls its LD dice; ties go to the lower LD target, then to more dice, then re-roll. A unit without LD rolls nothing and loses every tie-break; two units without LD each go first half the time.',
  `Engagement: it is the fleet battle of two one-unit fleets at a fixed range: within ${BOARDING.range}" units with CR may Board (target SH 0), at ${RAMMING.range}" units with Tonnage Ram as a last resort; the exact chain is computed only when neither can happen.`,
];
