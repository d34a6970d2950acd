/**
 * A variant's result beside the standard rules' (BATTLE.md: "shown beside the standard rules'
 * result"): the difference in numbers, and in player words ("with break tests: Vanguard wins 61%
 * instead of 48%"). A difference within the sampling noise (two standard errors of the difference)
 * is said to be about the same.
 */
import { formatPercent } from '../../rules/words';
import type { BattleDifference, BattleResult, EngagementDifference, EngagementResult } from '../types';
import { clearlyDifferent, variantTitles } from './catalog';
import type { BattleRun } from '../battle';

export { clearlyDifferent, variantTitles };

/** A run that goes a slice of work at a time (a battle, an engagement). */
export interface SteppedRun {
  readonly done: boolean;
  step(ops?: number): unknown;
  /** The battle run underneath (what `pairRuns` restarts). */
  readonly battle?: BattleRun;
}

/**
 * Makes the variant's run and the standard one play the same trials in the same way, so that trial
 * i of both rolls the same dice (common random numbers, battle/run.ts `lanes`) and a variant changes a
 * battle only where its rules do: when one run fell back to dice (its exact kernels ran out of
 * work) the other starts again in dice too, and when one was cut short by its work limit the other
 * starts again for that many trials. True when a run was restarted (step again until both are done).
 */
export function pairRuns(a: BattleRun | undefined, b: BattleRun | undefined): boolean {
  if (!a || !b || !a.done || !b.done) return false;
  const dice = a.mode !== b.mode;
  const trials = Math.min(a.trials, b.trials);
  let restarted = false;
  for (const r of [a, b]) {
    const again = (dice && r.mode === 'kernel') || r.trials > trials;
    if (!again) continue;
    r.restart({ ...(dice && r.mode === 'kernel' ? { dice: true } : {}), trials });
    restarted = true;
  }
  return restarted;
}

/** Trials run so far, and asked for. */
export interface RunProgress {
  trials: number;
  requested: number;
}

/**
 * Steps a variant's run and then, with `compare`, the standard rules' run beside it: a slice of
 * `ops` goes to the variant run until it is done, then to the standard one; without `ops` both run
 * to the end. Once both are done they are paired up (`pairRuns`), which may start one again. True
 * when both are done.
 */
export function stepCompared(run: SteppedRun, standard: SteppedRun | undefined, ops?: number): boolean {
  // A run stopped because it was sure: the run beside it plays as many trials (the same battles).
  const follow = () => {
    if (run.battle && standard?.battle && standard.battle.trials === 0) standard.battle.followSure(run.battle);
  };
  for (;;) {
    if (!run.done) run.step(ops);
    else {
      follow();
      standard?.step(ops);
    }
    if (run.done && standard && !standard.done && ops === undefined) {
      follow();
      standard.step();
    }
    // Both done: pair them up; a restarted run goes on here (to the end) or at the next slice.
    if (!standard || !comparedDone(run, standard) || !pairRuns(run.battle, standard.battle) || ops !== undefined) break;
  }
  return comparedDone(run, standard);
}

/** Whether the variant's run and the standard one (when there is one) are both done. */
export function comparedDone(run: SteppedRun, standard: SteppedRun | undefined): boolean {
  return run.done && (!standard || standard.done);
}

/** The progress of the variant's run and the standard one together. */
export function comparedProgress(run: RunProgress, standard: RunProgress | undefined): RunProgress {
  return standard ? { trials: run.trials + standard.trials, requested: run.requested + standard.requested } : { trials: run.trials, requested: run.requested };
}

/** Chances as every figure shown writes them. */
const pct = formatPercent;

function change(what: string, now: number, was: number, n1: number, n2: number): string {
  return clearlyDifferent(now, was, n1, n2) ? `${what} ${pct(now)} instead of ${pct(was)}` : `${what} about as often as before (${pct(now)}, was ${pct(was)})`;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function battleDifference(standard: BattleResult, variant: BattleResult): BattleDifference {
  return {
    sides: variant.sides.map((s, i) => {
      const o = standard.sides[i]!;
      return {
        annihilation: round6(s.annihilation.p - o.annihilation.p),
        pointsVictory: round6(s.pointsVictory.p - o.pointsVictory.p),
        pointsDestroyedMean: round6(s.pointsDestroyed.mean - o.pointsDestroyed.mean),
        units: s.units.map((u, k) => ({
          name: u.name,
          copy: u.copy,
          survival: round6((u.alive[u.alive.length - 1] ?? 1) - (o.units[k]?.alive[o.units[k].alive.length - 1] ?? 1)),
        })),
      };
    }),
    draw: round6(variant.draw.p - standard.draw.p),
    meanRounds: round6(variant.meanRounds - standard.meanRounds),
  };
}

/** The battle's difference in player words, one sentence a line; names are the fleets' (plain text). */
export function battleSummary(standard: BattleResult, variant: BattleResult): string[] {
  const n1 = variant.trials;
  const n2 = standard.trials;
  const with_ = `With ${variantTitles(variant.variantRules ?? [])}`;
  const out: string[] = [];
  for (const [i, s] of variant.sides.entries()) {
    const o = standard.sides[i]!;
    const name = s.fleet || `Fleet ${i + 1}`;
    out.push(
      `${with_}: ${name} ${change('wins', s.pointsVictory.p, o.pointsVictory.p, n1, n2)}; ${change('destroys the whole other fleet', s.annihilation.p, o.annihilation.p, n1, n2)}.`,
    );
    if (s.retreated) out.push(`${name} retreats in ${pct(s.retreated.p)} of battles.`);
    if (s.variantVictory) out.push(`${name} wins on morale in ${pct(s.variantVictory.p)} of battles (its points victory above is by points destroyed).`);
  }
  out.push(`Battles last ${variant.meanRounds.toFixed(1)} rounds on average instead of ${standard.meanRounds.toFixed(1)}.`);
  return out;
}

function finalSurvival(r: EngagementResult): { attacker: number; defender: number } {
  const last = r.survival[r.survival.length - 1];
  return { attacker: last?.attacker ?? 1, defender: last?.defender ?? 1 };
}

export function engagementDifference(standard: EngagementResult, variant: EngagementResult): EngagementDifference {
  const a = finalSurvival(variant);
  const b = finalSurvival(standard);
  return {
    attackerWins: round6(variant.attackerWins - standard.attackerWins),
    defenderWins: round6(variant.defenderWins - standard.defenderWins),
    neither: round6(variant.neither - standard.neither),
    meanRounds: round6(variant.meanRounds - standard.meanRounds),
    survival: { attacker: round6(a.attacker - b.attacker), defender: round6(a.defender - b.defender) },
  };
}

/** The duel's difference in player words; `names` are the two cards' (plain text). */
/** The retreat threshold a result was played with, as a share ("50%"). */
function retreatShare(r: EngagementResult): string {
  const t = r.variantRules?.find((v) => v.name === 'retreat')?.parameters['threshold'];
  return t === undefined ? 'the threshold' : `${Math.round(100 * t)}%`;
}

export function engagementSummary(standard: EngagementResult, variant: EngagementResult, names: [string, string]): string[] {
  const n1 = variant.trials;
  const n2 = standard.trials;
  const with_ = `With ${variantTitles(variant.variantRules ?? [])}`;
  const out = [
    `${with_}: ${names[0]} ${change('wins', variant.attackerWins, standard.attackerWins, n1, n2)}; ${names[1]} ${change('wins', variant.defenderWins, standard.defenderWins, n1, n2)}.`,
  ];
  if (variant.retreated)
    out.push(
      variant.retreated.attacker === 0 && variant.retreated.defender === 0
        ? `Nobody retreats: neither side's points fell below ${retreatShare(variant)} of the other's at the start of a round (a single-base unit keeps all its points until it is destroyed).`
        : `${names[0]} retreats in ${pct(variant.retreated.attacker)} of engagements, ${names[1]} in ${pct(variant.retreated.defender)}.`,
    );
  if (variant.routed) out.push(`${names[0]} flees in ${pct(variant.routed.attacker)} of engagements, ${names[1]} in ${pct(variant.routed.defender)}.`);
  if (variant.variantVictory)
    out.push(
      `${names[0]} wins on morale in ${pct(variant.variantVictory.attacker)} of engagements, ${names[1]} in ${pct(variant.variantVictory.defender)} (the wins above are destructions; a unit that fled was not destroyed).`,
    );
  out.push(`Engagements last ${variant.meanRounds.toFixed(1)} rounds on average instead of ${standard.meanRounds.toFixed(1)}.`);
  return out;
}
