/**
 * The simulator's requests of a service instance: duels, a card against the field, fleet battles
 * (with the what-if and precision), the live odds lens, the points estimate and prices measured by
 * battle, all played on the instance's runner. What of the simulator needs no workspace (its tables,
 * the renderers the edges show the results with, the steps that take everything they need as
 * arguments) is here too, but handed to the edges on the static `FabledService` (./static.ts): the
 * CLI reads it while its modules load (option tables, help texts), before it has a workspace.
 */
import type { ServiceParts } from './parts';
import type { Estimates } from '../balance/index';
import type { Problem, UnitCard } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { BATTLE_DEFAULTS, BATTLE_PRECISION, ENGAGEMENT_DEFAULTS, POINTS_ESTIMATE } from '../rules/data';
import { formatPercent, formatPercentError, stoppedWords } from '../rules/words';
import { nearest, SuggestBudget, SUGGEST_LIMITS } from '../model/suggest';
import { OPTION_SPECS } from '../sim/limits';
import { asNumber, checkPrecision, describeValue, type OptionName } from '../sim/options';
import { BATTLE_OPTION_KEYS, BattleSession, validateBattleOptions } from '../sim/fleet-battle';
import { parseVariants, variantHelp } from '../sim/variants/index';
import { renderReport } from '../sim/index';
import { renderVsField, vsField } from '../sim/vs-field';
import { renderBattleVariants } from '../sim/variants/report';
import { textTable } from '../sim/report';
import { battleInChunks, chunksOn, PRECISION_MIN_TRIALS, type BattleJob } from '../sim/chunked';
import { compareInChunks, type ChangedFleet } from '../sim/compare';
import { renderFleetComparison } from '../sim/compare-report';
import { CHUNK_TRIALS } from '../sim/battle';
import type { SimPriority, SimRunner, SimToken } from '../sim/runner';
import type { BattleOptions, BattleResult, SimulationResult } from '../sim/types';
import type { VsFieldResult } from '../sim/vs-field';
import type { SimulationInput } from '../features/simulate';
import { liveOddsDetail, liveOddsLens, liveOddsTitle, namesFile } from '../features/liveOdds';
import { battleVerdict, cardEstimate, estimateWords, pointsEstimateProblems } from '../features/pointsEstimate';
import { checkDocument } from '../check/index';
import { priceByBattle, pricingFieldOf, shownBattlePrice } from '../features/priceByBattle';
import {
  bundledCards,
  estimateCard,
  fieldFor,
  fieldNeedsPrices,
  newEstimates,
  standardCards,
  pricedMember,
  type PointsEstimate,
  type ReferenceField,
} from '../balance/index';
import { playOn, priceCard, pricedCardOf, PricingCancelled, type PlayBattles, type PricedCard } from '../balance/battles';
import { exampleFiles, exampleFleets, exampleWorkspace } from '../examples/index';
import {
  cannotFight,
  prepareBattle,
  prepareSimulation,
  prepareVsField,
  runSimulation,
  simulationRefusal,
  Refused,
  type BattleSide,
  type SimulationRefusal,
} from './prepare';

/** The simulator's tables, read by the edges' help texts and option tables. */
export interface SimTables {
  /** The duel's options (`sim`'s flags). */
  readonly optionSpecs: typeof OPTION_SPECS;
  readonly engagementDefaults: typeof ENGAGEMENT_DEFAULTS;
  /** The battle's options (`battle`'s flags) and their defaults. */
  readonly battleOptionKeys: typeof BATTLE_OPTION_KEYS;
  readonly battleDefaults: typeof BATTLE_DEFAULTS;
  readonly pointsEstimate: typeof POINTS_ESTIMATE;
  /** The battles a `--precision` run plays at least, and the trials of one chunk. */
  readonly precisionMinTrials: number;
  /** How sure the editor's battles play until: the battle view's, the live odds lens's. */
  readonly battlePrecisionDefaults: typeof BATTLE_PRECISION;
  readonly chunkTrials: number;
}

/** How the edges write the simulator's figures (FORMATS.md). */
export interface SimWords {
  formatPercent: typeof formatPercent;
  /** Why a run until sure stopped ("sure to \u00b11%", "stopped at the cap: \u00b11.4%"). */
  stoppedWords: typeof stoppedWords;
  formatPercentError: typeof formatPercentError;
  textTable: typeof textTable;
  /** A value the user gave, read as a number (or undefined), and as a sentence shows it. */
  asNumber: typeof asNumber;
  describeValue: typeof describeValue;
  renderReport: typeof renderReport;
  renderVsField: typeof renderVsField;
  renderBattleVariants: typeof renderBattleVariants;
  renderFleetComparison: typeof renderFleetComparison;
  cannotFight: typeof cannotFight;
  /** Whether a setting names a file (a path) rather than a fleet by name. */
  namesFile: typeof namesFile;
  /** The live odds lens and its words. */
  liveOddsLens: typeof liveOddsLens;
  liveOddsTitle: typeof liveOddsTitle;
  liveOddsDetail: typeof liveOddsDetail;
  parseVariants: typeof parseVariants;
  variantHelp: typeof variantHelp;
  /** A refused duel in one sentence; whether an error is a refusal a request answers with (its message the user's sentence). */
  simulationRefusal: typeof simulationRefusal;
  isRefused(e: unknown): e is Error;
  /** The bundled example fleets (those with a name). */
  exampleFleets: typeof exampleFleets;
  /** Up to `n` card names closest to `name`: substring matches first, then by edit distance (bounded work). */
  closestNames(name: string, names: string[], n?: number): string[];
}

/** The points estimate and the prices by battle (`balance`). */
export interface PriceRequests {
  /**
   * The reference field of the instance's cards (the bundled examples when too few), built afresh
   * from every card on each call and described as "from the cards given": the CLI's `balance`, whose
   * workspace is the files it was given, read once and reported on once. Its members, fit and figures
   * are `field()`'s (the same estimates make both, and their prices are kept by members); only that
   * description differs, which `field()` words "from this workspace". Anything asked again as the
   * workspace changes (the editor's notes, hovers, the background pricing) reads `field()`, kept up
   * to date card by card.
   */
  referenceField(): ReferenceField;
  estimateCard(card: UnitCard, faction: string, field: ReferenceField): PointsEstimate;
  /** Pricing battles played on the instance's runner. */
  playBattles(priority: SimPriority, token?: SimToken): PlayBattles;
  /** Whether a reference field is still to be priced by battle (the workspace's own, not yet priced). */
  fieldNeedsPrices: typeof fieldNeedsPrices;
  /** Each member of `field` priced by battle against it on `runner` at the background priority, until `token` cancels (then rejects, `pricingCancelled`). */
  priceField(field: ReferenceField, runner: SimRunner, token: SimToken): Promise<Map<string, number>>;
  /** Whether a rejection is a pricing that was cancelled. */
  pricingCancelled(e: unknown): boolean;
  /**
   * The warm-up of a fresh server (lsp/warmup.ts), small steps in order, in the instance's
   * workspace: each example file parsed, then each checked; the bundled example cards' reference
   * field, its volleys a few at a time; then each example file's estimate notes. Some steps add the
   * steps that follow them. `estimates`: the state whose bundled field is fitted.
   */
  warmUpSteps(estimates?: Estimates): (() => void)[];
}

/**
 * What of the simulator needs no workspace, on the static `FabledService` (./static.ts): the tables,
 * the words, and the steps that take everything they work on as arguments.
 */
export interface SimStatic extends SimTables, SimWords {
  /** The points estimate's and the battle price's words. */
  estimateWords: typeof estimateWords;
  battleVerdict: typeof battleVerdict;
  shownBattlePrice: typeof shownBattlePrice;
  /** A card as the pricing battles take it (undefined: its class or stats cannot be read), and its price by battle against a field. */
  pricedCardOf(card: UnitCard, faction: string): PricedCard | undefined;
  priceCard: typeof priceCard;
  /** A battle's options checked (`name`: how the user knows them, the CLI: its flags). */
  battleOptions(raw: unknown, name?: OptionName): { options?: BattleOptions; errors: string[] };
  /** A battle's precision checked (`name`: how the user knows it), or why not in a sentence. */
  battlePrecision: typeof checkPrecision;
  /** The trials a prepared battle asks for. */
  battleTrials(job: BattleJob): number;
  /** The duel of two cards checked and ready to run, or why not. */
  prepareSimulation(
    attacker: UnitCard,
    defender: UnitCard,
    raw: unknown,
    rules?: { variants?: unknown; compare?: unknown },
    name?: OptionName,
  ): { simulation: SimulationInput } | { refused: SimulationRefusal };
  /** A prepared duel run here to its end. */
  runSimulation(s: SimulationInput): SimulationResult;
  /** The bundled example cards and fleets, as a workspace: what a duel or a battle falls back on when the user's workspace has no cards. */
  fallbackWorkspace(): Workspace;
}

export interface SimRequests extends PriceRequests {
  /** Two sides as the battle's units, from the instance's checks (or `checks`); or why a side cannot fight. */
  prepareFleets(sides: readonly [BattleSide, BattleSide], options: BattleOptions, checks?: ServiceParts['checks']): ReturnType<typeof prepareBattle>;
  /** A prepared battle played in chunks over the runner's threads (the same figures whatever their number); with a what-if's other version, or until `precision`. */
  playBattle(job: BattleJob, o?: { changed?: ChangedFleet | undefined; precision?: number | undefined }): Promise<BattleResult>;
  /** A card of the instance's workspace against its field, run here; or why not (sentences). */
  vsField(ref: CardRef, side: 'attacker' | 'defender', rawRange: unknown, name?: OptionName): { result: VsFieldResult } | { refused: string[] };
  /** A card of the instance's workspace against its field, checked and ready for a runner; or why not (sentences). */
  prepareVsField(ref: CardRef, side: 'attacker' | 'defender', rawRange: unknown, name?: OptionName): ReturnType<typeof prepareVsField>;
  /** A card's points estimate in the instance's workspace. */
  cardEstimate(card: UnitCard): ReturnType<typeof cardEstimate>;
  /** A card of the instance's workspace priced by battle on `runner` (`sofar`: the price as it narrows); rejects, `pricingCancelled`, when `token` cancels. */
  priceByBattle(card: UnitCard, runner: SimRunner, token: SimToken, sofar?: Parameters<typeof priceByBattle>[3]): ReturnType<typeof priceByBattle>;
}

const TABLES: SimTables = {
  optionSpecs: OPTION_SPECS,
  engagementDefaults: ENGAGEMENT_DEFAULTS,
  battleOptionKeys: BATTLE_OPTION_KEYS,
  battleDefaults: BATTLE_DEFAULTS,
  pointsEstimate: POINTS_ESTIMATE,
  precisionMinTrials: PRECISION_MIN_TRIALS,
  battlePrecisionDefaults: BATTLE_PRECISION,
  chunkTrials: CHUNK_TRIALS,
};

function closestNames(name: string, names: string[], n = 3): string[] {
  const sorted = [...new Set(names)].sort((a, b) => a.localeCompare(b));
  // A bonus larger than any compared length puts every substring match first.
  const bonus = 2 * SUGGEST_LIMITS.chars + 1;
  return nearest(name, sorted, {
    n,
    bonus,
    allowed: () => Math.max(3, Math.ceil(Math.min(name.trim().length, SUGGEST_LIMITS.chars) / 2)),
    budget: new SuggestBudget(),
  });
}

const WORDS: SimWords = {
  ...{ simulationRefusal, isRefused: (e: unknown): e is Error => e instanceof Refused, exampleFleets },
  ...{ formatPercent, formatPercentError, stoppedWords, textTable, asNumber, describeValue, renderReport, renderVsField },
  ...{
    renderBattleVariants,
    renderFleetComparison,
    cannotFight,
    namesFile,
    liveOddsLens,
    liveOddsTitle,
    liveOddsDetail,
    parseVariants,
    variantHelp,
    closestNames,
  },
};

export const SIM_STATIC: SimStatic = {
  ...TABLES,
  ...WORDS,
  ...{ estimateWords, battleVerdict, shownBattlePrice, pricedCardOf, priceCard },
  battleOptions: validateBattleOptions,
  battlePrecision: checkPrecision,
  battleTrials: (job) => new BattleSession(job.fleets, job.options).run.setup.trials,
  prepareSimulation,
  runSimulation,
  fallbackWorkspace: exampleWorkspace,
};

function runnerOf(parts: ServiceParts): SimRunner {
  if (!parts.runner) throw new Error('This service has no simulation runner.');
  return parts.runner;
}

/** Each member of `field` priced against it, one after another. */
async function priceField(field: ReferenceField, runner: SimRunner, token: SimToken): Promise<Map<string, number>> {
  const pricing = pricingFieldOf(field);
  const play = playOn(runner, 'background', token);
  const prices = new Map<string, number>();
  for (const m of field.members) {
    const p = await priceCard(pricedMember(m), pricing, play);
    if (p.price !== undefined) prices.set(m.key, p.price);
  }
  return prices;
}

/** Fire actions computed per warm-up step while the bundled field's volleys are worked out (a few ms each, cold). */
const PAIRS_PER_STEP = 16;

/** The steps that follow the bundled cards': their volleys, the field and the example files' notes. */
function fieldSteps(steps: (() => void)[], estimates: Estimates, notes: (() => void)[]): void {
  const members = standardCards(bundledCards());
  const pairs = members.flatMap((a) => members.map((d) => [a, d] as const));
  for (let from = 0; from < pairs.length; from += PAIRS_PER_STEP)
    steps.push(() => {
      for (const [a, d] of pairs.slice(from, from + PAIRS_PER_STEP)) estimates.volleys.shareOf(a.profile, d.profile, a.off, d.def);
    });
  steps.push(() => void fieldFor([], estimates));
  steps.push(...notes);
}

function warmUpSteps(ws: Workspace, estimates: Estimates = newEstimates()): (() => void)[] {
  const files = exampleFiles();
  const uri = (path: string) => `fabled-warmup:/${path}`;
  const checked = new Map<string, Problem[]>();
  const steps: (() => void)[] = files.map((f) => () => void ws.set(uri(f.path), f.text));
  for (const f of files)
    steps.push(() => {
      const doc = ws.get(uri(f.path));
      if (doc) checked.set(f.path, checkDocument(doc, ws));
    });
  const notes = files.map((f) => () => {
    const doc = ws.get(uri(f.path));
    if (doc) pointsEstimateProblems(doc, ws, checked.get(f.path) ?? []);
  });
  // The field of the bundled examples is what a workspace with fewer than ten standard-cost cards
  // is estimated against: worked out a few volleys at a time (memoized as any volley is), the
  // estimate's code is compiled and the field is ready when such a file is opened.
  steps.push(() => void bundledCards());
  // Once the members are known (this step runs), the steps behind it are added.
  steps.push(() => fieldSteps(steps, estimates, notes));
  return steps;
}

function priceRequests(parts: ServiceParts): PriceRequests {
  return {
    referenceField: () => fieldFor(parts.ws.allCards(), parts.estimates),
    estimateCard,
    playBattles: (priority, token) => playOn(runnerOf(parts), priority, token),
    ...{ fieldNeedsPrices, priceField },
    pricingCancelled: (e) => e instanceof PricingCancelled,
    warmUpSteps: (estimates) => warmUpSteps(parts.ws, estimates),
  };
}

/** A prepared battle in chunks on the instance's runner (core/sim/chunked.ts; the what-if: core/sim/compare.ts). */
async function playBattle(
  parts: ServiceParts,
  job: BattleJob,
  o: { changed?: ChangedFleet | undefined; precision?: number | undefined } = {},
): Promise<BattleResult> {
  const runner = runnerOf(parts);
  const hooks = o.precision === undefined ? {} : { precision: o.precision };
  return o.changed
    ? await compareInChunks(job, o.changed, chunksOn(runner), runner.threads, hooks)
    : await battleInChunks(job, chunksOn(runner), runner.threads, hooks);
}

function vsFieldOf(parts: ServiceParts, ref: CardRef, side: 'attacker' | 'defender', rawRange: unknown, name?: OptionName) {
  const prepared = prepareVsField(parts.ws, ref, side, rawRange, name);
  return 'refused' in prepared ? prepared : { result: vsField(prepared.input) };
}

export function simRequests(parts: ServiceParts): SimRequests {
  return {
    ...priceRequests(parts),
    prepareFleets: (sides, options, checks = parts.checks) => prepareBattle(sides, options, checks),
    playBattle: (job, o) => playBattle(parts, job, o),
    vsField: (ref, side, rawRange, name) => vsFieldOf(parts, ref, side, rawRange, name),
    prepareVsField: (ref, side, rawRange, name) => prepareVsField(parts.ws, ref, side, rawRange, name),
    cardEstimate: (card) => cardEstimate(card, parts.ws),
    priceByBattle: (card, runner, token, sofar) => priceByBattle(card, parts.ws, playOn(runner, 'request', token), sofar),
  };
}
