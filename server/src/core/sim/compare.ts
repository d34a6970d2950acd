/**
 * What-if on the same dice (BATTLE.md "What-if"): a fleet and its changed copy against the same
 * opponent, trial i of both from the same dice (the jump-ahead streams, battle.ts `lanes`, paired
 * up as a rule variant and the standard rules are: variants/compare.ts `pairRuns`), and the
 * difference of each figure with its paired standard error, from the two runs' trial-by-trial
 * outcomes (`BattleTotals.outcomes`). Identical fleets give differences of exactly 0.
 *
 * Two ways to run it, with the same numbers: `FleetComparisonSession` a slice at a time in one
 * thread (the language server's worker, a view that sharpens), and `compareInChunks` with the
 * trials in chunks over threads (`battle --compare-with --threads N`). Pure: no I/O.
 */
import { formatPercent } from '../rules/words';
import { reachedPrecision, trialEnd, type BattleOutcome } from './battle';
import { battleInChunks, type BattleJob, type ChunkExecutor, type ChunkHooks } from './chunked';
import type { ChangedFleet } from './runner';
import { BattleSession } from './fleet-battle';
import type { BattleOptions, BattleResult, FleetComparison, PairedDelta } from './types';
import { comparedDone, comparedProgress, stepCompared, type RunProgress } from './variants/compare';

/** The changed fleet of a comparison, with its points limit (the table's size comes from the limits). */
export type { ChangedFleet };

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The changed fleet's battle: the same opponent and options, without a variant comparison of its own. */
export function changedJob(job: BattleJob, changed: ChangedFleet): BattleJob {
  const options: BattleOptions = { ...job.options, compare: false };
  return {
    fleets: [changed.fleet, job.fleets[1]],
    options,
    limits: [changed.limit, job.limits?.[1]],
    ...(job.workLimit !== undefined ? { workLimit: job.workLimit } : {}),
  };
}

/**
 * The paired difference of an indicator over two runs' trials: `delta` is the second run's share
 * minus the first's (as their results give them, so that it is exactly A2's figure minus A's), `se`
 * the standard error of the mean of the trial-by-trial differences. Runs of different lengths (which
 * pairing prevents) fall back to the unpaired error.
 */
export function pairedDelta(before: readonly number[], after: readonly number[], pBefore: number, pAfter: number, hit: (code: number) => boolean): PairedDelta {
  const n = before.length;
  const delta = round6(pAfter - pBefore);
  if (n !== after.length) {
    const v = (p: number, m: number) => (m > 1 ? (p * (1 - p)) / m : 0);
    return { delta, se: round6(Math.sqrt(v(pBefore, n) + v(pAfter, after.length))) };
  }
  if (n < 2) return { delta, se: 0 };
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = (hit(after[i]!) ? 1 : 0) - (hit(before[i]!) ? 1 : 0);
    sum += d;
    squares += d * d;
  }
  const variance = Math.max(0, (squares - (sum * sum) / n) / (n - 1));
  return { delta, se: round6(Math.sqrt(variance / n)) };
}

/** Chances as every figure shown writes them. */
const pct = formatPercent;
const points = (d: number) => `${d >= 0 ? '+' : '\u2212'}${(100 * Math.abs(d)).toFixed(1)}`;

/** A change told apart from the dice's noise: beyond two paired standard errors, and visible in whole percents. */
export function clearChange(d: PairedDelta, now: number, was: number): boolean {
  return Math.abs(d.delta) > 2 * d.se && Math.round(100 * now) !== Math.round(100 * was);
}

function change(what: string, d: PairedDelta, now: number, was: number): string {
  return clearChange(d, now, was) ? `${what} ${pct(now)} instead of ${pct(was)}` : `${what} about as often as before (${pct(now)}, was ${pct(was)})`;
}

/**
 * The comparison of the fleet's result `base` (its trials' `baseOutcome`) with the changed fleet's
 * `changed` on the same dice: the paired differences, and the change in player words.
 */
export function fleetComparison(base: BattleResult, baseOutcome: BattleOutcome, changed: BattleResult, changedOutcome: BattleOutcome): FleetComparison {
  const x = baseOutcome.totals.outcomes;
  const y = changedOutcome.totals.outcomes;
  const sides = ([0, 1] as const).map((s) => ({
    annihilation: pairedDelta(x, y, base.sides[s].annihilation.p, changed.sides[s].annihilation.p, (c) => trialEnd(c).annihilated[s]),
    pointsVictory: pairedDelta(x, y, base.sides[s].pointsVictory.p, changed.sides[s].pointsVictory.p, (c) => trialEnd(c).winner === s),
  }));
  const draw = pairedDelta(x, y, base.draw.p, changed.draw.p, (c) => trialEnd(c).winner === undefined);
  const name = base.sides[0].fleet || 'The fleet';
  const rival = base.sides[1].fleet || 'The opponent';
  const [a, b] = [base.sides[0], changed.sides[0]];
  // Another list, not this one changed: its figures are given under its own name.
  const lead = b.fleet && b.fleet !== a.fleet ? `With ${b.fleet} in place of ${name}:` : `With the change: ${name}`;
  const summary = [
    `${lead} ${change('wins', sides[0]!.pointsVictory, b.pointsVictory.p, a.pointsVictory.p)}; ${change(
      'destroys the whole other fleet',
      sides[0]!.annihilation,
      b.annihilation.p,
      a.annihilation.p,
    )}.`,
  ];
  const [o, p] = [base.sides[1], changed.sides[1]];
  if (clearChange(sides[1]!.pointsVictory, p.pointsVictory.p, o.pointsVictory.p) || clearChange(sides[1]!.annihilation, p.annihilation.p, o.annihilation.p))
    summary.push(
      `${rival} ${change('wins', sides[1]!.pointsVictory, p.pointsVictory.p, o.pointsVictory.p)}; ${change(
        'destroys the whole other fleet',
        sides[1]!.annihilation,
        p.annihilation.p,
        o.annihilation.p,
      )}.`,
    );
  const same = x.length === y.length && x.every((c, i) => c === y[i]);
  summary.push(
    same
      ? `On these dice the change makes no difference: each of the ${x.length.toLocaleString('en-US')} battles against ${rival} ends as before.`
      : `The difference in wins is ${points(sides[0]!.pointsVictory.delta)} \u00b1 ${(100 * sides[0]!.pointsVictory.se).toFixed(1)} percentage points (paired standard error: battle i of both was played with the same dice against ${rival}).`,
  );
  return { fleet: changed.sides[0].fleet, result: changed, difference: { sides, draw }, summary };
}

/**
 * A fleet and its changed copy against the same opponent, a slice of work at a time: the fleet's
 * battle first, then the changed one's, then paired (the same trials, the same way of resolving
 * Fire actions). `result()` is the fleet's result, with `compareFleets` once both have run.
 */
export class FleetComparisonSession {
  readonly base: BattleSession;
  readonly changed: BattleSession;

  /** With `precision`, the fleet's battle stops when sure (`BattleSetup.precision`) and the changed one plays as many trials. */
  constructor(job: BattleJob, changed: ChangedFleet, precision?: number) {
    const context = (j: BattleJob) => ({ ...(j.limits ? { limits: j.limits } : {}), ...(j.workLimit !== undefined ? { workLimit: j.workLimit } : {}) });
    this.base = new BattleSession(job.fleets, job.options, { ...context(job), ...(precision !== undefined ? { precision } : {}) });
    const other = changedJob(job, changed);
    this.changed = new BattleSession(other.fleets, other.options, context(other));
  }

  /** Runs about `ops` units of work; true when both battles are done and paired. */
  step(ops?: number): boolean {
    return stepCompared(this.base, this.changed, ops);
  }

  get done(): boolean {
    return comparedDone(this.base, this.changed);
  }

  get progress(): RunProgress {
    return comparedProgress(this.base.progress, this.changed.progress);
  }

  result(): BattleResult {
    const r = this.base.result();
    if (!this.done) return r;
    const c = this.changed.result();
    return { ...r, compareFleets: fleetComparison(r, this.base.run.outcome(), c, this.changed.run.outcome()) };
  }
}

/**
 * The comparison with the trials in chunks over `exec` (sim/chunked.ts): the numbers of
 * `FleetComparisonSession` for the same seed, whatever the number of threads. When one battle fell
 * back to dice or was cut short by its work limit, the other is played again in dice or for as many
 * trials, as `pairRuns` restarts a run.
 */
export async function compareInChunks(
  job: BattleJob,
  changed: ChangedFleet,
  exec: ChunkExecutor,
  parallel: number,
  hooks: Pick<ChunkHooks, 'onProgress' | 'signal' | 'precision' | 'onPartial'> = {},
): Promise<BattleResult> {
  const other = changedJob(job, changed);
  interface Played {
    result: BattleResult;
    outcome: BattleOutcome;
    pair: { dice?: boolean; trials?: number; sure?: boolean };
  }
  let requested = 0;
  let done = [0, 0];
  const play = async (which: 0 | 1, pair: Played['pair']): Promise<Played> => {
    let outcome: BattleOutcome | undefined;
    const result = await battleInChunks(which === 0 ? job : other, exec, parallel, {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      onProgress: (trials, asked) => {
        requested = Math.max(requested, asked);
        done[which] = trials;
        hooks.onProgress?.(done[0]! + done[1]!, 2 * requested);
      },
      onOutcome: (o) => (outcome = o),
      pair,
      // What the comparison shows before it is done: the fleet's own battle so far (as FleetComparisonSession.result).
      ...(which === 0 && hooks.onPartial && !pair.trials && !pair.dice ? { onPartial: hooks.onPartial } : {}),
      // With a precision, the fleet's battle stops when sure and the changed one plays as many trials.
      ...(which === 0 && hooks.precision !== undefined && pair.trials === undefined ? { precision: hooks.precision } : {}),
    });
    return { result, outcome: outcome!, pair };
  };
  const first = await play(0, {});
  const sure = first.result.stopped === 'precision';
  const runs: [Played, Played] = [first, await play(1, sure ? { trials: first.outcome.totals.trials, sure } : {})];
  for (;;) {
    const dice = runs[0].outcome.mode !== runs[1].outcome.mode;
    const trials = Math.min(runs[0].outcome.totals.trials, runs[1].outcome.totals.trials);
    let again = false;
    for (const which of [0, 1] as const) {
      const p = runs[which];
      const toDice = dice && p.outcome.mode === 'kernel';
      if (!toDice && p.outcome.totals.trials <= trials) continue;
      done = [0, 0];
      runs[which] = await play(which, { ...p.pair, ...(toDice ? { dice: true } : {}), trials });
      again = true;
    }
    if (!again) break;
  }
  const [a, b] = runs;
  // Why the fleet's battle stopped, even when the pairing played it again for a count of trials (as the stepped session says it).
  const stopped =
    hooks.precision === undefined
      ? {}
      : { requestedTrials: a.outcome.requested, stopped: sure ? ('precision' as const) : ('cap' as const), precision: reachedPrecision(a.outcome.totals) };
  return { ...a.result, ...stopped, compareFleets: fleetComparison(a.result, a.outcome, b.result, b.outcome) };
}
