/**
 * A battle run (BATTLE.md): trials played one after another from the seed's jumped streams, a
 * slice of work at a time (`BattleRun.step`) or a chunk apart (`BattleRun.runChunk`, for threads),
 * each trial a sequence of rounds of activations with the rule variants' hooks at their named points.
 */
import { BATTLE_PRECISION } from '../../rules/data';
import { Dice } from '../dice';
import type { RandomGenerator } from '../dice';
import { basesLeft } from '../fire';
import { activate, canActNow } from './actions';
import { CHUNK_TRIALS, Engine, TRIAL_WORK_LIMIT, UnitList, reachOf } from './engine';
import { decide } from './policy';
import type { BattleActions, BattleHooks, BattleOutcome, BattleSetup, BattleTotals, BattleView, ChunkOutcome, DuelAccess, DuelKernel, Fleet } from './types';

// Hot-path aliases (see engagement.ts): imported bindings can be getters under some loaders.
const basesOf = basesLeft;

/**
 * Trial i rolls from the seed's generator jumped i times (xoroshiro128+'s jump: 2^64 draws apart),
 * not from where trial i - 1 stopped. So two runs from one seed play trial i with the same dice for
 * as long as they play it alike, whatever the trials before consumed: a rule variant compared with
 * the standard rules changes a battle only where the variant does (common random numbers). A
 * retreat then never costs the retreating side a unit it would have kept, battle by battle, and
 * the comparison's differences are far less noisy than two independent samples'.
 *
 * "Alike" needs two more things. The policy's choices depend on the battle's state only, never on
 * which states the run met before: its caches (plans, kernels, decisions, Aim and protection
 * values) are keyed by everything a choice depends on, and no two keys coincide (see `pack`).
 * And both runs resolve Fire actions the same way and play the same trials: a comparison pairs
 * them up (variants/compare.ts `pairRuns`, with `BattleRun.restart`) when one fell back to dice
 * or was cut short by its work limit.
 */
function lanes(source: RandomGenerator): (() => RandomGenerator) | undefined {
  const base = source.clone() as RandomGenerator & { jump?: () => void };
  if (typeof base.jump !== 'function') return undefined;
  return () => {
    const stream = base.clone();
    base.jump!();
    return stream;
  };
}

/**
 * One trial's end as a small number: bit 0 side 0 annihilated side 1, bit 1 side 1 annihilated
 * side 0, bits 2-3 the points victory (0 or 1 the winner, 2 a draw). Read with `trialEnd`.
 */
export function trialCode(annihilated0: boolean, annihilated1: boolean, winner: 0 | 1 | undefined): number {
  return (annihilated0 ? 1 : 0) | (annihilated1 ? 2 : 0) | ((winner ?? 2) << 2);
}

/** A trial code read back (see `trialCode`). */
export function trialEnd(code: number): { annihilated: [boolean, boolean]; winner: 0 | 1 | undefined } {
  const w = (code >> 2) & 3;
  return { annihilated: [(code & 1) !== 0, (code & 2) !== 0], winner: w === 2 ? undefined : (w as 0 | 1) };
}

/** The fewest trials a run stopped by its precision plays (`BattleSetup.precision`). */
export const PRECISION_MIN_TRIALS = BATTLE_PRECISION.minTrials;

/** The 95% half-width of the widest headline figure (each side's annihilation and points victory, the draw). */
export function headlineHalfWidth(t: BattleTotals): number {
  const n = t.trials;
  if (n <= 0) return Infinity;
  const counts = [t.annihilation[0], t.annihilation[1], t.pointsVictory[0], t.pointsVictory[1], t.draws];
  return Math.max(...counts.map((k) => 1.96 * Math.sqrt(((k / n) * (1 - k / n)) / n)));
}

/** Whether the trials so far are enough for `precision` (`BattleSetup.precision`): at least the minimum, every headline figure that sure. */
export function sureTo(t: BattleTotals, precision: number | undefined): boolean {
  return precision !== undefined && t.trials >= PRECISION_MIN_TRIALS && headlineHalfWidth(t) <= precision;
}

/** The half-width a run reached, as results give it (four decimals). */
export function reachedPrecision(t: BattleTotals): number {
  return Math.round(headlineHalfWidth(t) * 1e4) / 1e4;
}

/**
 * An empty list of numbers that V8 already keeps as doubles: the points a side destroys are
 * whole numbers until the first fraction of a card's points, and that first fraction pushed into a
 * list of small integers changed its representation under the optimised trial loop, which was
 * thrown away and compiled again.
 */
function doubles(): number[] {
  const a = [0.5];
  a.pop();
  return a;
}

export function emptyTotals(n: number, rounds: number): BattleTotals {
  const z = () => new Float64Array(n);
  return {
    trials: 0,
    annihilation: [0, 0],
    pointsVictory: [0, 0],
    draws: 0,
    pointsDestroyed: [doubles(), doubles()],
    outcomes: [],
    roundsSum: 0,
    ended: new Float64Array(rounds),
    alive: Array.from({ length: n }, () => new Float64Array(rounds)),
    tally: { fired: z(), boarded: z(), rammed: z(), aim: z(), shields: z(), brace: z() },
    routed: z(),
    routedBy: Array.from({ length: n }, () => new Float64Array(rounds)),
    bothDestroyed: 0,
    variantVictory: [0, 0],
    withdrew: [0, 0],
    cutTrials: 0,
  };
}

/**
 * A battle run that can be driven a slice at a time: `step(ops)` runs whole trials until about
 * `ops` units of work are done (or the run ends) and returns whether it has ended; `outcome()`
 * summarises the trials run so far. The same fleets, setup and seed always give the same numbers,
 * however the work is sliced.
 */
export class BattleRun {
  private readonly e: Engine;
  private readonly source: RandomGenerator;
  private dice: Dice;
  /** The next trial's stream (see `lanes`), or undefined for a generator that cannot jump. */
  private lane: (() => RandomGenerator) | undefined;
  private totals: BattleTotals;
  /** The work limit of one trial (ended there and counted as it stands), or undefined with `runLimit`. */
  private readonly trialWorkLimit: number;
  /** The whole run's work limit (a duel's), or Infinity: a fleet battle's run plays every trial. */
  private readonly runLimit: number;
  /** Trials to run: the setup's, or fewer after `restart` (a paired comparison's runs match in count). */
  private trialLimit: number;
  private readonly matched = { dice: false, trials: false };
  private stopped = false;
  private cut = false;
  /** Stop when sure to this (`BattleSetup.precision`); off after `restart`, which plays a count of trials. */
  private precision: number | undefined;
  /** Stopped because sure (`precision`), or paired with a run that was (`followSure`, `restart`): fewer trials than asked is not a cut. */
  private sure = false;

  constructor(
    fleets: [Fleet, Fleet],
    readonly setup: BattleSetup,
    rng: RandomGenerator,
    readonly hooks: BattleHooks = {},
  ) {
    this.e = new Engine(fleets, setup, hooks);
    this.source = rng;
    this.dice = new Dice(rng.clone());
    this.lane = lanes(rng);
    this.totals = emptyTotals(this.e.n, setup.rounds);
    this.e.tally = this.totals.tally;
    this.runLimit = setup.runWorkLimit ?? Infinity;
    this.trialWorkLimit = setup.runWorkLimit !== undefined ? Infinity : (setup.workLimit ?? TRIAL_WORK_LIMIT);
    this.e.scoreCut = setup.runWorkLimit === undefined;
    this.trialLimit = setup.trials;
    this.precision = setup.precision;
  }

  /** How Fire actions are resolved: exact kernels, or dice after the kernels ran out of work. */
  get mode(): 'kernel' | 'dice' {
    return this.e.mode;
  }

  /**
   * Starts the run again from its seed, in dice mode (`dice`) and/or for at most `trials` trials:
   * what a comparison does so that its two runs play the same trials in the same mode (see
   * `pairRuns`). The caches stay (in kernel mode the trials it plays again need nothing new), and
   * so does the work done so far, except that the trials played again are not counted twice: the
   * run may use its work limit afresh.
   */
  restart(o: { dice?: boolean; trials?: number }): void {
    const e = this.e;
    // A run played again plays a count of trials (its partner's): whether it was sure stays as it was.
    this.precision = undefined;
    if (o.dice && e.mode !== 'dice') {
      e.mode = 'dice';
      this.matched.dice = true;
    }
    if (o.trials !== undefined && o.trials < this.trialLimit) {
      this.trialLimit = Math.max(0, o.trials);
      this.matched.trials = true;
    }
    this.totals = emptyTotals(e.n, this.setup.rounds);
    e.tally = this.totals.tally;
    e.ops = 0;
    this.dice = new Dice(this.source.clone());
    this.lane = lanes(this.source);
    this.stopped = false;
    this.cut = false;
  }

  get done(): boolean {
    return this.stopped;
  }

  /**
   * Plays as many trials as `other`, which stopped because its figures were sure: the standard
   * rules' twin of a variant's run, or a what-if's changed fleet, so that both play the same
   * battles. Called before this run starts.
   */
  followSure(other: BattleRun): void {
    if (!other.done || !other.sure) return;
    this.precision = undefined;
    this.trialLimit = Math.min(this.trialLimit, other.trials);
    this.sure = true;
  }

  /**
   * Plays on to `n` trials in all, or fewer when the run ends first (all its trials, a cut): what a
   * caller that judges a figure of its own between chunks steps by (a pricing battle, ../run-here.ts),
   * then `settle` ends the run where it stands. Returns whether the run has ended.
   */
  playTo(n: number): boolean {
    const limit = this.trialLimit;
    this.trialLimit = Math.min(limit, n);
    this.step();
    this.trialLimit = limit;
    if (!this.cut && this.totals.trials < limit) this.stopped = false;
    return this.stopped;
  }

  /** Ends the run where it stands, its caller's figure sure: fewer trials than asked is not a cut. */
  settle(): void {
    this.stopped = this.sure = true;
  }

  /** This run (what a comparison pairs up, see variants/compare.ts `SteppedRun`). */
  get battle(): BattleRun {
    return this;
  }

  /** Numbers drawn from the generator since the run (re)started (what the benchmark's floor draws). */
  get diceDrawn(): number {
    return this.dice.draws;
  }

  /**
   * The d10s the trials so far would have rolled at the table (every attack, dodge, armour, LD,
   * recharge, Board and Ram die), counting an exact Fire action by its expected dice: the
   * benchmark's second floor. In dice mode a volley of more than LITERAL_DICE attacks is drawn by
   * binomial counts, which count as the numbers they draw.
   */
  get tabletopDice(): number {
    return this.dice.draws + this.dice.tabletop;
  }

  /** Trials finished so far. */
  get trials(): number {
    return this.totals.trials;
  }

  /** Runs about `slice` units of work (whole trials); returns true when the run has ended. */
  step(slice = Infinity): boolean {
    const e = this.e;
    const until = e.ops + slice;
    while (!this.stopped && e.ops < until) {
      if (this.totals.trials >= this.trialLimit) {
        this.stopped = true;
        break;
      }
      if (e.ops >= this.runLimit) {
        this.stopped = true;
        this.cut = true;
        break;
      }
      if (this.lane) this.dice.rng = this.lane();
      e.stopAt = Math.min(this.runLimit, e.ops + this.trialWorkLimit);
      const ok = playTrial(e, this.totals, this.setup.rounds, this.dice);
      // Where a chunk of trials would end (as sim/chunked.ts checks): sure enough to stop?
      const n = this.totals.trials;
      if (ok && this.precision !== undefined && (n % CHUNK_TRIALS === 0 || n >= this.trialLimit) && sureTo(this.totals, this.precision)) {
        this.stopped = this.sure = true;
        break;
      }
      if (!ok && e.overBudget) {
        // Past the run's work limit inside a trial: that trial is not counted.
        this.stopped = true;
        this.cut = true;
        break;
      }
      if (!ok) {
        // The exact kernels ran out of work: start again, rolling every Fire action.
        e.mode = 'dice';
        this.totals = emptyTotals(e.n, this.setup.rounds);
        e.tally = this.totals.tally;
        this.dice = new Dice(this.source.clone());
        this.lane = lanes(this.source);
      }
    }
    return this.stopped;
  }

  /**
   * Plays one chunk of trials apart from this run's own totals (sim/chunked.ts spreads chunks over
   * threads): `count` trials, trial i rolling from \`start\` jumped i times (as trial c + i of the
   * whole run does when \`start\` is the seed's generator jumped c times), in dice mode with \`dice\`,
   * its work counted from 0, each trial ended at \`workLimit\` (the work limit of one trial) as
   * \`step\` ends it, so that a chunk plays all its trials. The engine's kernels
   * stay between chunks. Played again exactly (\`prepaid\`, on a fresh run), the kernels named
   * there are not charged and the kernel budget starts at \`kernelWork\`, so that the chunk stops
   * where one run would.
   */
  runChunk(
    start: RandomGenerator,
    count: number,
    o: { dice?: boolean; workLimit?: number; prepaid?: readonly string[]; kernelWork?: number } = {},
  ): ChunkOutcome {
    const e = this.e;
    if (o.dice) e.mode = 'dice';
    const mode = e.mode;
    e.newChunk();
    if (o.prepaid) {
      e.prepaid = new Set(o.prepaid);
      e.budget.ops = o.kernelWork ?? 0;
    }
    e.ops = 0;
    const totals = emptyTotals(e.n, this.setup.rounds);
    const lane = lanes(start);
    const dice = new Dice(start.clone());
    const limit = o.workLimit ?? this.trialWorkLimit;
    const scoreCut = e.scoreCut;
    // A chunk is a fleet battle's: each trial has its own limit and the chunk plays them all.
    e.scoreCut = true;
    let cut = false;
    let fallback = false;
    for (let i = 0; i < count; i++) {
      if (lane) dice.rng = lane();
      e.stopAt = e.ops + limit;
      if (!playTrial(e, totals, this.setup.rounds, dice)) {
        if (e.overBudget) cut = true;
        else fallback = true;
        break;
      }
    }
    e.tally = this.totals.tally;
    e.prepaid = undefined;
    e.scoreCut = scoreCut;
    return { totals, ops: e.ops, cut, fallback, mode, used: e.used };
  }

  /**
   * Makes the engine ready for the chunks of another run of this battle (other dice, the same
   * fleets and options): its kernels are kept, see `Engine.forgetRun`.
   */
  forgetRun(): void {
    this.e.forgetRun();
  }

  outcome(): BattleOutcome {
    // Fewer trials after a restart for a comparison: cut short too (its partner was).
    const cutShort = this.cut || this.totals.cutTrials > 0 || (this.stopped && !this.sure && this.totals.trials < this.setup.trials);
    return {
      ...{ totals: this.totals, mode: this.e.mode, cutShort, matched: { ...this.matched }, requested: this.setup.trials, ops: this.e.ops },
      ...(this.sure ? { sure: true } : {}),
    };
  }

  /** The engine, for the duel's exact chain (decisions and kernels shared with the sampled run). */
  get engine(): DuelAccess {
    const e = this.e;
    return {
      mode: () => e.mode,
      budget: e.budget,
      rechargePmf: e.rechargePmf,
      decide: (f, me, foe) => {
        const u = f === 0 ? 0 : 1;
        const t = 1 - u;
        const ut = e.types[e.typeOf[u]!]!;
        e.sh[u] = me.sh;
        e.hull[u] = me.hull;
        e.braced[u] = 0;
        e.sh[t] = foe.sh;
        e.hull[t] = foe.hull;
        e.braced[t] = foe.braced ? 1 : 0;
        e.touchedAll();
        const ri = e.hull[u] > 0 ? reachOf(ut, e.range) : -1;
        const tt = e.types[e.typeOf[t]!]!;
        const threats = new UnitList(1);
        if (reachOf(tt, e.range) >= 0) threats.push(t, e.dist(t, u));
        const d = decide(e, u, ri >= 0 ? t : -1, ri, threats);
        if (!d) return undefined;
        if (ri < 0) return { action: d.action, kernel: identityKernel(foe.hull, foe.sh, tt.stride) };
        const k = e.kernel(u, t, ri, basesOf(me.hull, ut.hp), d.aim, foe.sh, foe.hull, foe.braced);
        return k < 0 ? undefined : { action: d.action, kernel: e.kernelObject(k) };
      },
      stride: (f) => e.types[e.typeOf[f]!]!.stride,
    };
  }
}

function identityKernel(hull: number, sh: number, stride: number): DuelKernel {
  return { keys: Float64Array.of(hull * stride + sh), probs: Float64Array.of(1) };
}

function sideAlive(e: Engine, s: number): boolean {
  const lo = s === 0 ? 0 : e.offset;
  const hi = s === 0 ? e.offset : e.n;
  for (let i = lo; i < hi; i++) if (e.alive[i]) return true;
  return false;
}

function sideRouted(e: Engine, s: number): boolean {
  const lo = s === 0 ? 0 : e.offset;
  const hi = s === 0 ? e.offset : e.n;
  for (let i = lo; i < hi; i++) if (e.routed[i]) return true;
  return false;
}

/**
 * Units of side s that may still activate this round; with `pick`, the one it activates next into
 * `e.firstWaiting` (BATTLE.md "The round"): first a unit that can Fire, Board or Ram now, then the
 * units that must move to reach an enemy (or enter, or launch); within each group the most points
 * first, ties by card name, then copy (`order`). Never the order of the fleet list. Without
 * `count` it stops once its answer is settled and returns at least 1 when any unit waits: most
 * callers only ask whether anyone does (the whole count is read only to spend a token).
 */
function waiting(e: Engine, s: number, pick: boolean, count: boolean): number {
  const order = e.orderOf[s]!;
  const alive = e.alive;
  const activated = e.activated;
  const host = e.host;
  const onTable = e.onTable;
  // What "can act now" needs of the enemies: their front line, the nearest one on the table and
  // the nearest with CR and SH 0 (Board), kept by the engine (Engine.front).
  const front = pick ? e.frontOf(1 - s) : -1;
  const frontBoard = e.frontBoard[1 - s]!;
  let n = 0;
  let first = -1;
  let firstActs = -1;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (alive[i] && !activated[i] && (host[i]! < 0 || onTable[i] || onTable[host[i]!])) {
      if (n === 0) first = i;
      n++;
      if (pick && firstActs < 0 && onTable[i] && front >= 0 && canActNow(e, i, front, frontBoard)) firstActs = i;
      if (!count && (firstActs >= 0 || !pick || front < 0)) break;
    }
  }
  e.firstWaiting = firstActs >= 0 ? firstActs : first;
  return n;
}

/** The per-unit action counts a trial adds to, which an over-budget trial puts back. */
const TALLY_ARRAYS = ['fired', 'boarded', 'rammed', 'aim', 'shields', 'brace'] as const;

/**
 * One trial within the work budget: false when the exact kernels ran out of work, or when the trial
 * went past `e.stopAt` without `e.scoreCut` (then `e.overBudget` is set and the totals are as they
 * were before it). With `e.scoreCut`, a trial past `e.stopAt` ends there, is scored as it stands
 * (`totals.cutTrials` counts it) and this returns true: the run moves on to the next trial.
 */
function playTrial(e: Engine, totals: BattleTotals, rounds: number, dice: Dice): boolean {
  e.overBudget = false;
  e.trialCut = false;
  const t = totals.tally;
  const snap = e.snapshot;
  // Only a trial that can go over budget uncounted (a run-wide limit, not scoreCut) is put back:
  // a fleet battle's trials are all counted, and need no copy of the counts before each.
  const keep = !e.scoreCut;
  if (keep) for (const k of TALLY_ARRAYS) snap[k].set(t[k]);
  const w0 = totals.withdrew[0];
  const w1 = totals.withdrew[1];
  e.tally = t;
  if (runTrial(e, totals, rounds, dice)) return true;
  if (keep && e.overBudget) {
    // The alive and routed counts are added only when a trial ends (runTrial): nothing to take back.
    for (const k of TALLY_ARRAYS) t[k].set(snap[k]);
    totals.withdrew[0] = w0;
    totals.withdrew[1] = w1;
  }
  return false;
}

/** One trial; false when the exact kernels ran out of work (or it went past its work budget). */
function runTrial(e: Engine, totals: BattleTotals, rounds: number, dice: Dice): boolean {
  e.startTrial();
  const lost: [number, number] = [0, 0];
  const pts: [number, number] = [0, 0];
  let played = 0;
  let over = false;
  const h = e.hooks;
  const act = h.startOfRound || h.endOfRound || h.endOfBattle ? hookActions(e, dice, lost, pts, totals, () => (over = true)) : undefined;
  for (let r = 0; r < rounds && !over; r++) {
    played = r + 1;
    e.round = r;
    // A loop, not two fill calls: see Engine.startTrial.
    for (let i = 0; i < e.n; i++) e.moved[i] = e.activated[i] = 0;
    h.startOfRound?.(view(e, r + 1, pts), act!);
    // Action Tokens (section 15): the side that has lost more units gains the difference.
    let tokens0 = Math.max(0, lost[0] - lost[1]);
    let tokens1 = Math.max(0, lost[1] - lost[0]);
    const first = e.initiativeWinner(dice);
    dice.tabletop += e.initiativeDice - 1;
    e.ops += 2;
    let turn: number = first;
    for (;;) {
      const tokens = turn === 0 ? tokens0 : tokens1;
      const w0 = waiting(e, turn, true, tokens > 0);
      // This side's next unit, read before the other side is counted (which sets it again).
      const u = e.firstWaiting;
      // The other side's count matters only when this side has nobody left or a token to spend.
      if (w0 === 0) {
        if (waiting(e, 1 - turn, false, false) === 0) break;
        turn = 1 - turn;
        continue;
      }
      if (tokens > 0 && waiting(e, 1 - turn, false, true) > w0) {
        if (turn === 0) tokens0--;
        else tokens1--;
        e.hooks.onToken?.(turn as 0 | 1, view(e, r + 1, pts));
        turn = 1 - turn;
        continue;
      }
      if (!activate(e, u, dice, lost, pts)) return false;
      // The work budget holds inside a trial (Engine.stopAt): its own limit (scoreCut) ends it here, scored as it stands; a run's leaves it uncounted.
      if (e.ops > e.stopAt) {
        if (!e.scoreCut) return !(e.overBudget = true);
        e.trialCut = over = true;
        break;
      }
      e.hooks.onActivation?.(u, view(e, r + 1, pts));
      // A side is gone when it has lost every unit: each unit that dies or routs is counted once
      // in `lost` (actions.ts `destroy`, the hooks' `rout`), so no scan of the units is needed.
      if (lost[0] === e.offset || lost[1] === e.n - e.offset) {
        over = true;
        break;
      }
      turn = 1 - turn;
    }
    if (!over && h.endOfRound?.(view(e, r + 1, pts), act!)) over = true;
    // A side whose last units fled at the end of this round: the battle lasted this round.
    if (!over && (!sideAlive(e, 0) || !sideAlive(e, 1))) over = true;
    if ((over || r === rounds - 1) && h.endOfBattle) h.endOfBattle(view(e, r + 1, pts), act!);
  }
  tallyRounds(e, totals, rounds);
  const a0 = sideAlive(e, 0);
  const a1 = sideAlive(e, 1);
  // Annihilation is destroying the whole other fleet: a fleet driven off (a unit routed) was not.
  // Both sides looked at every trial, not only once a side is gone: a call the optimised code has
  // never seen made (a fleet wiped out, late in a run) throws it away.
  const routed0 = sideRouted(e, 0);
  const routed1 = sideRouted(e, 1);
  const gone0 = !a0 && !routed0;
  const gone1 = !a1 && !routed1;
  // The counts below are added to every trial (0 or 1), not only when they happen, for the same
  // reason: the first annihilation, draw or cut trial met late would throw the optimised loop away.
  totals.annihilation[0] += a0 && gone1 ? 1 : 0;
  totals.annihilation[1] += a1 && gone0 ? 1 : 0;
  // Both fleets destroyed at once (a Ram that kills the last rammer and its target): nobody's win.
  totals.bothDestroyed += gone0 && gone1 ? 1 : 0;
  if (h.variantVictory) {
    const w = h.variantVictory(view(e, played, pts));
    if (w === 0 || w === 1) totals.variantVictory[w]++;
  }
  // Ended before the round limit: a side gone, or a hook ended it (a retreat, a rout of the last unit).
  totals.ended[played - 1]! += !a0 || !a1 || played < rounds ? 1 : 0;
  const winner = e.hooks.victory ? e.hooks.victory(view(e, played, pts)) : pts[0] > pts[1] + 1e-9 ? 0 : pts[1] > pts[0] + 1e-9 ? 1 : undefined;
  totals.draws += winner === undefined ? 1 : 0;
  if (winner !== undefined) totals.pointsVictory[winner]++;
  totals.pointsDestroyed[0].push(pts[0]);
  totals.pointsDestroyed[1].push(pts[1]);
  totals.outcomes.push(trialCode(a0 && gone1, a1 && gone0, winner));
  totals.roundsSum += played;
  for (let i = 0; i < e.n; i++) if (e.routed[i]) totals.routed[i]!++;
  totals.cutTrials += e.trialCut ? 1 : 0;
  totals.trials++;
  return true;
}

/**
 * The alive and routed counts of a trial that ended, every round's at once: a unit is alive at the
 * end of each round before the one it left in (`Engine.goneRound`), routed at the end of that round
 * and each after, and the rounds never played count as the last (whole numbers: the order they are
 * added in changes nothing). Counting them round by round cost a pass over the units every round.
 */
function tallyRounds(e: Engine, totals: BattleTotals, rounds: number): void {
  for (let i = 0; i < e.n; i++) {
    const left = e.alive[i] ? rounds : e.goneRound[i]!;
    const alive = totals.alive[i]!;
    for (let r = 0; r < left; r++) alive[r]!++;
    if (!e.routed[i]) continue;
    const routed = totals.routedBy[i]!;
    for (let r = left; r < rounds; r++) routed[r]!++;
  }
}

/** What hooks may do in one trial (BattleActions). */
function hookActions(e: Engine, dice: Dice, lost: [number, number], pts: [number, number], totals: BattleTotals, end: () => void): BattleActions {
  const rout = (u: number) => {
    if (!e.alive[u]) return;
    e.left(u);
    e.alive[u] = 0;
    e.routed[u] = 1;
    lost[e.side[u]!]!++;
    // Its whole card counts as lost (BATTLE.md: routed, not destroyed, its points count as lost).
    pts[1 - e.side[u]!]! += e.units[u]!.points - e.credit[u]!;
    e.credit[u] = e.units[u]!.points;
  };
  return {
    roll: () => {
      e.ops += 1;
      return dice.d10();
    },
    rout: (u) => {
      if (!Number.isInteger(u) || u < 0 || u >= e.n || !e.alive[u]) return;
      rout(u);
      // What it carries by card name then copy (Engine.byName): the points add up in one order.
      const mine = e.byName[e.side[u]!]!;
      for (let k = 0; k < mine.length; k++) if (e.host[mine[k]!] === u && !e.onTable[mine[k]!]) rout(mine[k]!);
    },
    withdraw: (side) => {
      totals.withdrew[side]++;
      end();
    },
  };
}

function view(e: Engine, round: number, pts: [number, number]): BattleView {
  return {
    round,
    side: e.side,
    alive: e.alive,
    hull: e.hull,
    sh: e.sh,
    pos: e.pos,
    onTable: e.onTable,
    units: e.units,
    pointsDestroyed: pts,
    routed: e.routed,
    host: e.host,
  };
}
