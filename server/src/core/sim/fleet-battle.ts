/**
 * The fleet battle's public face: options from outside checked and resolved, the table depth of
 * the game size, a run that can be driven in slices (`BattleSession`), and the result in the JSON
 * shape of FORMATS.md with the policy and assumptions in words. Pure: no I/O.
 */
import { BOARDING, GAME_SIZES, RAMMING, SHIELD_RECHARGE, type GameSize } from '../rules/data';
import type { BattleOptions, BattleRequestOptions, BattleResult, BattleSideResult, Chance } from './types';
import { makeRng } from './dice';
import { BattleRun, TRIAL_WORK_LIMIT, reachedPrecision } from './battle';
import type { BattleHooks, BattleOutcome, Fleet } from './battle';
import { OPTION_LIMITS, optionsOf, optionValue } from './limits';
import { checkOptions, describeValue, type OptionName } from './options';
import { sanitizeProfile } from './profile';
import { composeVariants, parseVariants } from './variants/index';
import { variantEffects } from './variants/catalog';
import { battleDifference, battleSummary, comparedDone, comparedProgress, stepCompared, type RunProgress } from './variants/compare';
import type { VariantInfo } from './variants/index';

export type { Fleet, BattleUnit, BattleHooks } from './battle';

/** The battle's options, by the names a request gives them and the CLI's flags (OPTION_SPECS' rows for the battle). */
export const BATTLE_OPTION_KEYS = optionsOf('battle').map((s) => s.key);

/**
 * Checks battle options from outside (CLI flags, a request) with the one validator (options.ts
 * `checkOptions`), and the rule variants with their comparison: each problem a sentence naming the
 * option as `name` says the caller's user knows it (the CLI: its flag). Options left undefined are
 * not given.
 */
export function validateBattleOptions(raw: unknown, name?: OptionName): { options?: BattleOptions; errors: string[] } {
  const checked = checkOptions('battle', raw, name, ['variants', 'compare']);
  if (!checked.values) return { errors: checked.errors };
  const { values, src, errors } = checked;
  const out = values as BattleOptions;
  const named = (key: string) => (name ?? ((s) => s.key))({ key, flag: key });
  if (src.compare !== undefined) {
    if (src.compare === true || src.compare === 'true') out.compare = true;
    else if (src.compare === false || src.compare === 'false') out.compare = false;
    else errors.push(`${named('compare')} must be true or false, not ${describeValue(src.compare)}.`);
  }
  if (src.variants !== undefined) {
    const v = parseVariants(src.variants);
    if (v.choices) out.variants = v.choices;
    else errors.push(...v.errors);
  }
  return errors.length ? { errors } : { options: out, errors };
}

/**
 * The game size whose table the fleets approach on: the named size of the larger points limit, or
 * for another limit the smallest named size that holds it (the largest when none does).
 */
export function gameSizeFor(limits: (number | undefined)[]): GameSize {
  const pts = Math.max(0, ...limits.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)));
  return GAME_SIZES.find((g) => g.points === pts) ?? GAME_SIZES.find((g) => g.points >= pts) ?? GAME_SIZES[GAME_SIZES.length - 1]!;
}

/**
 * Names the two sides and the copies of a card apart (BATTLE.md): a fleet against itself becomes
 * "Lantern Watch" and "Lantern Watch (2)", and a card that appears more than once in a fleet is
 * "Lumen Destroyer #1", "Lumen Destroyer #2", ... in every table, legend and sentence.
 */
export function namedApart(fleets: [Fleet, Fleet]): void {
  if (fleets[0].name !== '' && fleets[0].name === fleets[1].name) fleets[1] = { ...fleets[1], name: `${fleets[1].name} (2)` };
  for (const f of fleets) {
    const count = new Map<string, number>();
    for (const u of f.units) count.set(u.name, (count.get(u.name) ?? 0) + 1);
    const seen = new Map<string, number>();
    f.units = f.units.map((u) => {
      if ((count.get(u.name) ?? 0) < 2) return u;
      const k = (seen.get(u.name) ?? 0) + 1;
      seen.set(u.name, k);
      return { ...u, name: `${u.name} #${k}` };
    });
  }
}

export const BATTLE_POLICY =
  'Each activation spends 2 AP. A unit that is not on the table enters (or launches from its host) with its first Move. ' +
  "A unit with no enemy it can Fire at, Board or Ram moves toward the nearest enemy (1 AP, then the B stick if it is still out of reach), stopping at its longest weapon's range " +
  `(a unit without weapons closes to ${BOARDING.range}" to Board, or to base contact to Ram). ` +
  'It fires at the enemy in range whose expected points removed by this Fire action is highest (kill chance x card points for a single-base unit, expected bases lost x points per base for a squadron; ties to the nearer, then to fewer HP left, then by card name, then copy), ' +
  'and spends its other AP as the duel does: Aim, Shields Back Online or Brace, whichever is worth the most expected hull points ' +
  '(Shields and Brace against the Fire actions of every enemy that can reach it). ' +
  `Board replaces that second action, whichever it would be (Aim, Shields Back Online or Brace), when an enemy with CR within ${BOARDING.range}" has SH 0 and boarding is expected to remove more hull points: ` +
  'Board comes after the Fire action, so it is weighed against Aim before firing (the Fire action is then unaimed) and against Shields Back Online or Brace after it; it boards the enemy whose expected hull points removed are worth the most points. ' +
  `A unit with CR that is in range but more than ${BOARDING.range}" from an enemy with CR spends its first AP closing on it (to Board once its shields are down) and fires with the other. ` +
  'A unit that can neither fire nor board Rams as a last resort. ' +
  'A side activates first a unit that can Fire, Board or Ram now, then the units that must move to reach an enemy (or enter, or launch); within each, the most points first, ties by card name, then copy: never the order the fleet list is written in. ' +
  'Every other tie (whom to Board or Ram, the enemy to close on) ends by card name, then copy. ' +
  'A side spends an Action Token instead of activating while the other side has more units waiting.';

export const BATTLE_POLICY_DICE =
  ' (These cards are too costly for exact expectations: the second action follows a fixed rule — Shields Back Online if SH is missing, else Aim the weapon with the most attacks x damage, else Brace — ' +
  `Board replaces it whenever an enemy within ${BOARDING.range}" can be boarded, and the target is the nearest enemy, then the one with fewer HP left, then by card name, then copy.)`;

function assumptions(mode: 'approach' | 'fixed', range: number | undefined, size: GameSize, out: BattleOutcome, trialLimit: number): string[] {
  const a: string[] = [];
  if (mode === 'fixed')
    a.push(
      `Fixed range: every unit stands ${range}" from every enemy all battle; nobody moves, weapons that do not reach never fire; embarked units spend their first Move launching.`,
    );
  else
    a.push(
      `Approach: the fleets enter from opposite edges of a ${size.name} table (${size.points} points), ${size.depth}" deep; positions are on one line, the distance between two units is the depth minus both units' distances from their own edges (never below 0).`,
    );
  a.push(
    'Initiative: each side rolls the LD of its unit (on the table or waiting to enter, not embarked) with the most expected successes; ties go to the lower target number, then more dice, then a re-roll; the winner activates first.',
    'Action Tokens: at the start of each round the side that has lost more units gains the difference, for that round.',
    mode === 'fixed'
      ? "Embarked units launch at their first chance: their own activation in round 1, from their host's position, spending their first Move on it (so they fire with their other AP only and take no second action that round); a host destroyed with units still embarked destroys them, and their points count as destroyed."
      : "Embarked units launch at their first chance: their own activation in the round their host enters (once the host is on the table, in the side's order of activation, a side's activations alternating with the enemy's), from their host's position, which is their table edge (section 6), moving on with their own Move. So they start their approach as far forward as the host stands, reach the enemy (and are reached) a round or so sooner than the same craft entering from the table edge, and die with the host if it is destroyed first; their points count as destroyed.",
    `Board: both roll CR; the attacker's successes above the defender's are HP damage dealt 1 HP at a time (none lost); at most once per activation. Ram: Tonnage dice hit on ${RAMMING.hitTarget}+ (${RAMMING.hitTargetMoved}+ if the target moved ${RAMMING.movedAtLeast}" or more this round), the target dodges each hit with D except a natural 10 (a Critical Hit cannot be Dodged, section 2), and each hit left deals 1 HP to both units (shields ignored), each unit saving with its own AC.`,
    'A Ram that destroys the last units of both fleets at once is its own outcome (both fleets destroyed): neither side annihilates the other. Annihilation is destroying every unit of the other fleet; a fleet whose units fled (rule variants) was not destroyed.',
    'A fleet against itself names its second side "(2)"; a card that appears more than once in a fleet is numbered (#1, #2, ...).',
    `Shields Back Online rolls ${SHIELD_RECHARGE.dice} dice, each ${SHIELD_RECHARGE.target}+ restores 1 SH; Brace lasts until the unit's next activation. No terrain: nobody is in cover. Orders, command abilities and faction abilities are not played.`,
    'Points destroyed: each base lost is worth the card points divided by its bases; points victory needs strictly more points destroyed than the opponent (equal is a draw).',
  );
  if (out.mode === 'dice')
    a.push(
      out.matched.dice
        ? 'Every Fire action is rolled with dice, as in the run beside this one (whose exact Fire-action kernels would cost too much), so that both runs play the same battles.'
        : 'The exact Fire-action kernels would cost too much for these cards: every Fire action is rolled with dice.',
    );
  const n = out.totals.trials;
  const k = out.totals.cutTrials;
  if (k > 0)
    a.push(
      `Cut short: ${count(k)} of ${count(n)} trials reached the work limit of one battle (${count(trialLimit)} steps of work) and were ended there, each scored as it stood (points destroyed so far; a fleet not destroyed was not annihilated); ${k === n ? 'no trial was played to its end' : `the other ${count(n - k)} were played to the end`}. Fewer units, rounds or weapons would fit.`,
    );
  if (out.cutShort && n < out.requested)
    a.push(
      `Cut short: ${count(n)} of ${count(out.requested)} trials, as many as the run beside this one played, so that both runs play the same battles; the figures and their standard errors are from those ${count(n)} trials.`,
    );
  return a;
}

/** A whole number as the reports write it (20,000). */
function count(x: number): string {
  return x.toLocaleString('en-US');
}

function chance(k: number, n: number): Chance {
  const p = n > 0 ? k / n : 0;
  return { p, se: n > 1 ? Math.sqrt((p * (1 - p)) / n) : 0 };
}

function quantiles(values: number[]): { mean: number; p10: number; p50: number; p90: number } {
  if (values.length === 0) return { mean: 0, p10: 0, p50: 0, p90: 0 };
  const s = Float64Array.from(values).sort();
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  let sum = 0;
  for (const x of s) sum += x;
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return { mean: round(sum / s.length), p10: round(at(0.1)), p50: round(at(0.5)), p90: round(at(0.9)) };
}

/**
 * A fleet battle that runs a slice of work at a time: `step(ops)` returns true when it has ended,
 * `result()` gives the figures of the trials run so far (a view can show them while it sharpens).
 */
export class BattleSession {
  readonly run: BattleRun;
  readonly mode: 'approach' | 'fixed';
  readonly size: GameSize;
  private readonly fleets: [Fleet, Fleet];
  private readonly range: number | undefined;
  /** The rule variants played (none when the options named none or named them wrongly: validate first). */
  readonly variants: VariantInfo[];
  /** With `compare` and variants: the standard rules' battle, run after this one from the same seed. */
  private readonly standard: BattleSession | undefined;

  constructor(
    fleets: [Fleet, Fleet],
    options: BattleRequestOptions = {},
    context: { limits?: (number | undefined)[]; workLimit?: number; hooks?: BattleHooks; precision?: number } = {},
  ) {
    const o: BattleRequestOptions = options && typeof options === 'object' ? options : {};
    // Profiles held to what the engine can run, so that nonsense never throws.
    this.fleets = fleets.map((f) => ({
      name: String(f?.name ?? ''),
      faction: String(f?.faction ?? ''),
      units: (Array.isArray(f?.units) ? f.units : []).map((u) => ({
        ...u,
        points: typeof u.points === 'number' && Number.isFinite(u.points) && u.points > 0 ? u.points : 0,
        profile: sanitizeProfile(u.profile),
      })),
    })) as [Fleet, Fleet];
    namedApart(this.fleets);
    this.range = o.range !== undefined && Number.isFinite(o.range) && o.range >= 0 ? Math.min(o.range, OPTION_LIMITS.rangeMax) : undefined;
    this.mode = this.range === undefined ? 'approach' : 'fixed';
    this.size = gameSizeFor(context.limits ?? this.fleets.map((f) => f.units.reduce((t, u) => t + u.points, 0)));
    const seed = optionValue('battle', 'seed', o.seed);
    // Checked choices pass as they are; anything else a caller put there is read as a request's would be, or dropped.
    const composed = composeVariants(parseVariants(o.variants).choices ?? []);
    this.variants = composed.info;
    this.run = new BattleRun(
      this.fleets,
      {
        range: this.range,
        depth: this.size.depth,
        rounds: composed.rounds ?? optionValue('battle', 'rounds', o.rounds),
        trials: optionValue('battle', 'trials', o.trials),
        seed,
        ...(context.workLimit !== undefined ? { workLimit: context.workLimit } : {}),
        ...(context.precision !== undefined ? { precision: context.precision } : {}),
      },
      makeRng(seed),
      context.hooks ?? composed.hooks,
    );
    if (o.compare && this.variants.length && !context.hooks)
      // The standard rules' twin plays as many trials as this run (`BattleRun.followSure`), not a precision of its own.
      this.standard = new BattleSession(fleets, { ...o, variants: [], compare: false }, { ...context, hooks: undefined, precision: undefined });
  }

  /** Runs about `ops` units of work: the variant battle first, then the standard one beside it. */
  step(ops?: number): boolean {
    return stepCompared(this.run, this.standard, ops);
  }

  get done(): boolean {
    return comparedDone(this.run, this.standard);
  }

  /** The battle run underneath (a comparison pairs it with the standard one). */
  get battle(): BattleRun {
    return this.run;
  }

  /** Battles run so far, and asked for (both runs with `compare`). */
  get progress(): RunProgress {
    return comparedProgress({ trials: this.run.trials, requested: this.run.setup.trials }, this.standard?.progress);
  }

  /** The figures so far; with `compare`, the standard result beside them once it has run. */
  result(): BattleResult {
    const own = this.ownResult();
    const r = this.standard?.done ? withComparison(this.standard.result(), own) : own;
    // With a precision, a finished run says why it stopped, as `battle --precision` does (sim/chunked.ts).
    const precision = this.run.setup.precision;
    if (precision === undefined || !this.done) return r;
    const out = this.run.outcome();
    return { ...r, requestedTrials: out.requested, stopped: out.sure ? 'precision' : 'cap', precision: reachedPrecision(out.totals) };
  }

  /** The comparison's standard-rules session (with `compare` and variants), whose run this one is paired with. */
  get comparison(): BattleSession | undefined {
    return this.standard;
  }

  /**
   * The figures of an outcome played elsewhere, for these fleets and options: what sim/chunked.ts
   * merged from chunks of trials run on other threads. `result()` is this of the run's own.
   */
  resultOf(out: BattleOutcome, standard?: BattleOutcome): BattleResult {
    const r = this.ownResult(out);
    return standard && this.standard ? withComparison(this.standard.ownResult(standard), r) : r;
  }

  private ownResult(out: BattleOutcome = this.run.outcome()): BattleResult {
    const t = out.totals;
    const n = t.trials;
    const setup = this.run.setup;
    let offset = 0;
    const { routs, withdraws: retreat, victory } = variantEffects(this.variants.map((v) => v.name));
    const sides = this.fleets.map((f, s): BattleSideResult => {
      const units = f.units.map((u, i) => {
        const g = offset + i;
        return {
          name: u.name,
          copy: u.copy,
          points: u.points,
          alive: Array.from(t.alive[g]!, (x) => (n > 0 ? x / n : 1)),
          fired: n > 0 ? t.tally.fired[g]! / n : 0,
          boarded: n > 0 ? t.tally.boarded[g]! / n : 0,
          rammed: n > 0 ? t.tally.rammed[g]! / n : 0,
          ...(routs ? { routed: Array.from(t.routedBy[g]!, (x) => (n > 0 ? x / n : 0)) } : {}),
        };
      });
      offset += f.units.length;
      return {
        fleet: f.name,
        faction: f.faction,
        points: f.units.reduce((a, u) => a + u.points, 0),
        annihilation: chance(t.annihilation[s]!, n),
        pointsVictory: chance(t.pointsVictory[s]!, n),
        pointsDestroyed: quantiles(t.pointsDestroyed[s]!),
        units,
        ...(retreat ? { retreated: chance(t.withdrew[s]!, n) } : {}),
        ...(victory ? { variantVictory: chance(t.variantVictory[s]!, n) } : {}),
      };
    }) as [BattleSideResult, BattleSideResult];
    return {
      method: 'sampled',
      trials: n,
      seed: setup.seed,
      rounds: setup.rounds,
      mode: this.mode,
      variants: this.variants.map((v) => v.name),
      // Only when variants are played: without them the result is exactly FORMATS.md's shape.
      ...(this.variants.length ? { variantRules: this.variants } : {}),
      sides,
      bothDestroyed: chance(t.bothDestroyed, n),
      draw: chance(t.draws, n),
      meanRounds: n > 0 ? t.roundsSum / n : 0,
      policy: BATTLE_POLICY + (out.mode === 'dice' ? BATTLE_POLICY_DICE : ''),
      assumptions: assumptions(this.mode, this.range, this.size, out, setup.workLimit ?? TRIAL_WORK_LIMIT),
      ...(out.cutShort
        ? { cutShort: true as const, requestedTrials: out.requested, ...(out.totals.cutTrials > 0 ? { cutTrials: out.totals.cutTrials } : {}) }
        : {}),
    };
  }
}

/**
 * The fleet battle of `fleets[0]` against `fleets[1]`, run to the end (or to its work limit). With
 * the `compare` option and variants, the standard rules' battle from the same seed is run too and
 * carried in `compare` beside the variant result, with the difference in numbers and in words.
 */
export function simulateBattle(
  fleets: [Fleet, Fleet],
  options: BattleRequestOptions = {},
  context: { limits?: (number | undefined)[]; workLimit?: number; hooks?: BattleHooks } = {},
): BattleResult {
  const s = new BattleSession(fleets, options, context);
  s.step();
  return s.result();
}

/** The variant result with the standard one beside it (the view's host uses this too). */
export function withComparison(standard: BattleResult, variant: BattleResult): BattleResult {
  return { ...variant, compare: { standard, difference: battleDifference(standard, variant), summary: battleSummary(standard, variant) } };
}
