/**
 * The fleet battle (BATTLE.md): two fleets play the game's round (sections 9, 13, 14, 15, 18) for
 * up to `rounds` rounds, sampled over seeded trials. This is the one round engine of the simulator:
 * the duel (`simulateEngagement`) is the case of two one-unit fleets at a fixed range.
 *
 * A Fire action is resolved as in the duel: in kernel mode it jumps to a defender state drawn from
 * that action's exact distribution (computed once per state by the exact volley and cached); when
 * the exact kernels would cost too much (absurd cards) the whole run restarts in dice mode, where
 * every Fire action is rolled by the sampled volley and the policy uses a fixed rule.
 *
 * Work is counted, not timed: every activation adds its cost to `ops`, a run stops after the trial
 * that crosses its work limit (the result says it was cut short and how many trials ran), and
 * `BattleRun.step` runs a slice of work at a time so that a caller can yield between slices and
 * cancel. The same seed and options always give the same numbers.
 *
 * Hooks (`BattleHooks`) are the named points where rule variants plug in without copying the round:
 * how hits become hull damage, the end of each round, and the outcome of a trial.
 *
 * The folder, each module importing only those before it: types.ts (the shapes, imported by the
 * variants too), engine.ts (unit types, per-trial state, plans and exact kernels), policy.ts (what a
 * unit chooses), actions.ts (an activation and its actions), run.ts (trials, rounds, hooks, `BattleRun`).
 */
export { CHUNK_TRIALS, KERNEL_WORK_LIMIT, SAMPLING_WORK_LIMIT, TRIAL_WORK_LIMIT, initiativeOdds } from './engine';
export { BattleRun, PRECISION_MIN_TRIALS, emptyTotals, headlineHalfWidth, reachedPrecision, sureTo, trialCode, trialEnd } from './run';
export type {
  BattleActions,
  BattleHooks,
  BattleOutcome,
  BattleSetup,
  BattleTotals,
  BattleUnit,
  BattleView,
  ChunkOutcome,
  DuelAccess,
  DuelKernel,
  Fleet,
  SecondAction,
} from './types';
