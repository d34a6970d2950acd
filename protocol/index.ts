/**
 * The custom messages between the Fabled Star language server and its clients, and the settings
 * the server reads. Each message is declared once, here, with its direction, and imported by both
 * sides (the VS Code client in client/src, the server in server/src/lsp), in the manner of
 * vscode-eslint's customMessages.ts and rust-analyzer's lsp_ext.ts.
 *
 * Other editors (Neovim, Helix, Emacs) need none of these: the standard LSP features work without
 * them. They are what the VS Code extension builds its commands, status bar and engagement view on.
 */
import { NotificationType, ProgressType, RequestType } from 'vscode-languageserver-protocol';
import type { PartialResultParams, Position, Range, TextEdit, WorkDoneProgressParams } from 'vscode-languageserver-protocol';
import type { BattleRequestOptions, BattleResult } from '../server/src/core/sim/types';
import type { VariantChoice } from '../server/src/core/sim/variants/catalog';
import type { EngagementOptions, SimulationResult } from './simulation';
import type { FieldRow, VsFieldResult } from '../server/src/core/sim/vs-field';
import { settingValue, type SettingProblem } from './settings';
import type {
  BattleCommandArgs,
  BattlePriceResult,
  CardEstimate,
  CardName,
  FleetEntrySummary,
  FleetSummary,
  PriceCommandArgs,
  Settings,
  SimulateCommandArgs,
} from '../server/src/core/api';

// ---------------------------------------------------------------------------------------------
// Settings

/**
 * What the server reads from the `fabledStar` configuration section (workspace/configuration,
 * per resource), declared in the core (the features read it). Clients send any subset;
 * `resolveSettings` fills the rest with the defaults, so no other code ever checks for a missing
 * setting.
 */
export type { Settings };
export type { SettingProblem };
export { SETTING_DECLARATIONS } from './settings';

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  referenceTarget: '',
  inlayHints: Object.freeze({ points: true, combinedShields: true, weaponOdds: true }),
  codeLens: Object.freeze({ enabled: true }),
  diagnostics: Object.freeze({ delayMs: 150 }),
  workspace: Object.freeze({ maxFiles: 25000 }),
  pointsEstimate: Object.freeze({ enabled: true }),
  simulation: Object.freeze({ threads: 0 }),
  liveOdds: Object.freeze({ opponent: '', trials: 4000 }),
});

/** The configuration section the server asks for. */
export const SETTINGS_SECTION = 'fabledStar';

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * Settings as the client sent them (any shape, possibly null) -> complete, valid Settings, and what
 * could not be taken as given (a wrong type, a number out of the manifest's bounds), each in a
 * sentence naming the setting and the value used. The one place settings are defaulted; the
 * bounds and types are package.json's (protocol/settings.ts).
 */
export function readSettings(raw: unknown): { settings: Settings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const r = obj(raw);
  /** `fabledStar.a.b` from `{a: {b: ...}}`. */
  const get = (path: string): unknown => {
    let v: unknown = r;
    for (const part of path.split('.')) v = obj(v)[part];
    return v;
  };
  const value = <T>(path: string): T => settingValue(`${SETTINGS_SECTION}.${path}`, get(path), problems) as T;
  const settings: Settings = {
    referenceTarget: value<string>('referenceTarget').trim(),
    inlayHints: {
      points: value('inlayHints.points'),
      combinedShields: value('inlayHints.combinedShields'),
      weaponOdds: value('inlayHints.weaponOdds'),
    },
    codeLens: { enabled: value('codeLens.enabled') },
    diagnostics: { delayMs: value('diagnostics.delayMs') },
    workspace: { maxFiles: value('workspace.maxFiles') },
    pointsEstimate: { enabled: value('pointsEstimate.enabled') },
    simulation: { threads: value('simulation.threads') },
    liveOdds: { opponent: value<string>('liveOdds.opponent').trim(), trials: value('liveOdds.trials') },
  };
  return { settings, problems };
}

/** `readSettings` without the problems: for callers that only need the values. */
export function resolveSettings(raw: unknown): Settings {
  return readSettings(raw).settings;
}

// ---------------------------------------------------------------------------------------------
// Commands the server's code lenses invoke (executed by the client, not the server)

/** The client command a card's "Simulate vs ..." code lens runs. */
export const SIMULATE_COMMAND = 'fabledStar.simulateEngagement';

/**
 * A card named for a request or a command (`CardName`), and the arguments of
 * `fabledStar.simulateEngagement` as the code lens sends them: `[SimulateCommandArgs]`.
 * `defender` is absent when no reference target is set; the client then asks the user.
 */
export type { CardName, SimulateCommandArgs };

/**
 * The client command a fleet's "Battle vs ..." code lens runs, with `[BattleCommandArgs]`: the fleet
 * is side 1; the client asks for the opponent among the workspace's fleets.
 */
export const BATTLE_COMMAND = 'fabledStar.simulateBattle';
export type { BattleCommandArgs };

/** The client command a card's "Price by battle" code lens runs, with `[PriceCommandArgs]` (BATTLE.md "Points from battles"). */
export const PRICE_COMMAND = 'fabledStar.priceByBattle';
export type { PriceCommandArgs };

/** The client command a card's "vs the field" code lens runs, with `[VsFieldCommandArgs]`: the card against every card of the field. */
export const VS_FIELD_COMMAND = 'fabledStar.vsField';
/** The card as "Price by battle" names it: found by name, its own file's first. */
export type VsFieldCommandArgs = PriceCommandArgs;

// ---------------------------------------------------------------------------------------------
// Requests and notifications

/** A custom request: its method name and its typed `RequestType`, the name written once. */
function request<P, R>(method: string): { readonly method: string; readonly type: RequestType<P, R, void> } {
  return { method, type: new RequestType<P, R, void>(method) };
}

/** A custom notification: its method name and its typed `NotificationType`, the name written once. */
function notification<P>(method: string): { readonly method: string; readonly type: NotificationType<P> } {
  return { method, type: new NotificationType<P>(method) };
}

/** A card given by name, or by a position inside it (e.g. the cursor in a card file). */
export type CardSelector = CardName | { uri: string; position: Position };

export interface SimulateParams extends WorkDoneProgressParams {
  attacker: CardSelector;
  defender: CardSelector;
  options?: EngagementOptions;
  /** Rule variants to play (BATTLE.md "Rule variants"): each `{name, parameters}` (parameters left out take their defaults), or the text `name:param=value`. */
  variants?: (VariantChoice | string)[];
  /** With variants: run the standard rules too; the engagement carries them in `compare`. */
  compare?: boolean;
}

export type { CardEstimate };

/** The simulate request's answer: the CLI's result object and both cards' points estimates. */
export interface SimulateResult extends SimulationResult {
  pointsEstimate?: { attacker: CardEstimate; defender: CardEstimate };
}

/**
 * client -> server: simulate one engagement. The result is the object the CLI prints with
 * `fabled-star sim --format json`, plus both cards' points estimates. Fails with a ResponseError (code RequestFailed, a message that
 * names the problem) when a card cannot be found or cannot be simulated. The sampling runs in
 * slices between turns of the server's event loop (hovers and diagnostics are answered meanwhile),
 * reports work-done progress when given a `workDoneToken`, and stops when cancelled
 * (RequestCancelled). A run that reaches its work limit answers with fewer trials and
 * `engagement.cutShort`.
 */
export const SimulateRequest = request<SimulateParams, SimulateResult>('fabledStar/simulate');

/** A card against the field: the card (by name or position), which side it takes, and the range (none: every weapon fires). */
export interface VsFieldParams extends WorkDoneProgressParams {
  card: CardSelector;
  side: 'attacker' | 'defender';
  /** Inches, as `sim --range`; absent: every weapon fires. */
  range?: number;
}

export type { FieldRow, VsFieldResult };

/**
 * client -> server: one card against every card of the field (the workspace's cards without an
 * error, else the bundled examples): the rows `fabled-star sim --vs-field --format json` prints, run
 * on a worker thread. Fails with a ResponseError naming the problem when the card cannot be found or
 * simulated, or the range is not a distance.
 */
export const VsFieldRequest = request<VsFieldParams, VsFieldResult>('fabledStar/vsField');

export interface CardInfo {
  name: string;
  faction: string;
  /** The class as written when it is not a known class. */
  class: string;
  /** Undefined when the card's points cannot be read. */
  points: number | undefined;
  uri: string;
  /** The whole card. */
  range: Range;
  /** The card's name value (where go-to-definition lands). */
  selectionRange: Range;
  /**
   * One of the example cards bundled with the tools (uri `fabled-example:/...`, not a file the
   * client can open); name it with `example: true` in a request.
   */
  example?: boolean;
}

export interface ListCardsParams {
  /** Only cards of this faction (case-insensitive). */
  faction?: string;
  /**
   * Also list the bundled example cards, after the workspace's, except those a workspace card of
   * the same name and faction hides.
   */
  examples?: boolean;
  /** Only the cards this fleet list uses (a fleet's uri), as the fleet resolves its entries. */
  fleet?: string;
}

/**
 * Whether two card selectors ask for the same card: names and factions compare as the server
 * resolves them (case and outer spaces do not matter), and an example card is not the workspace's.
 * The client never resolves a name itself.
 */
export function sameSelector(a: CardName, b: CardName): boolean {
  const norm = (s: string | undefined): string => (s ?? '').trim().toLowerCase();
  return norm(a.name) === norm(b.name) && norm(a.faction) === norm(b.faction) && !a.example === !b.example;
}

/** client -> server: every card the workspace knows (open files and workspace card files), sorted by faction then name. */
export const ListCardsRequest = request<ListCardsParams, CardInfo[]>('fabledStar/listCards');

export interface CardAtParams {
  uri: string;
  position: Position;
}

/**
 * client -> server: the card at a position: the card whose text holds it in a card file, or the
 * card a fleet entry (or an embarked unit) names there. Null when there is none.
 */
export const CardAtRequest = request<CardAtParams, CardInfo | null>('fabledStar/cardAt');

export interface FleetSummaryParams {
  uri: string;
}

/** A fleet's points (declared in the core, which computes it; the same object hovers and lenses read). */
export type { FleetEntrySummary, FleetSummary };

/** client -> server: the points of a fleet list; null when the uri is not a fleet the server knows. */
export const FleetSummaryRequest = request<FleetSummaryParams, FleetSummary | null>('fabledStar/fleetSummary');

/**
 * client -> server: the example fleet lists bundled with the server (opponents for a fleet battle
 * in a workspace of one fleet, or none), each with its `fabled-example:` URI, which
 * `fabledStar/battle` takes as either side. Their cards are the bundled example cards.
 */
export const ExampleFleetsRequest = request<Record<string, never> | undefined, FleetSummary[]>('fabledStar/exampleFleets');

export interface FleetSummaryChangedParams {
  uri: string;
}

/**
 * server -> client: a fleet's summary may have changed (its own text, or a card it uses, changed).
 * Sent after the fleet is re-validated, so a status bar can ask `fabledStar/fleetSummary` again.
 */
export const FleetSummaryChangedNotification = notification<FleetSummaryChangedParams>('fabledStar/fleetSummaryChanged');

export interface RuleTextParams {
  /** A section number (12, "12" or "§12"); absent: every section. */
  section?: number | string;
}

export interface RuleTextEntry {
  number: number;
  title: string;
  /** The rulebook's group ("Core Rules", "Combat", ...). */
  category: string;
  summary: string;
  /** The whole section as escaped Markdown: rule, in play, example, designer note and FAQ. */
  markdown: string;
  /** The rules terms this section defines ("Blast", "Energy", ...), for ranking a search. */
  terms?: string[];
}

/**
 * client -> server: rulebook sections for the `fabledStar.showRule` command, which shows one in a
 * `fabled-rule:` document. An unknown section gives an empty list. (Added by the client helper:
 * the client needs the server's rule text and does not bundle the rulebook itself.)
 */
export const RuleTextRequest = request<RuleTextParams, RuleTextEntry[]>('fabledStar/ruleText');

// ---------------------------------------------------------------------------------------------
// Rosters (the Fleet view, Export Fleet Roster, Copy Roster as Text)

export type RosterFormatName = 'markdown' | 'html' | 'json' | 'text' | 'short';

export interface RosterParams {
  uri: string;
  /** Also render the roster in this format (the answer's `rendered`), as `fabled-star roster` does. */
  format?: RosterFormatName;
  /** Every embark choice of this entry (by index); the others carry the first few only (`embarkChoicesTotal`). */
  embarkFor?: number;
}

export interface RosterProblemData {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  /** The fleet's uri, or a card file's for a problem of a card the entry uses. */
  uri: string;
  range: Range;
}

/** A card a roster action offers: "Add unit…" (the faction's cards) or "Embark…" (what the bays carry). */
export interface RosterChoice {
  name: string;
  class: string;
  points: number | undefined;
  /** Add: within the points left (or no limit). Embark: a bay still has room for it. */
  fits: boolean;
  /** Add, with a collection in the workspace: copies owned that this fleet does not field yet (0: one more would be a model not owned). */
  spare?: number;
}

export interface RosterEmbarkedData {
  name: string;
  /** The card's class; undefined when the name is not a card of the fleet's faction. */
  class: string | undefined;
  points: number;
  range: Range;
}

export interface RosterEntryData {
  /** Position in the fleet's `units` list; what `fabledStar/rosterEdit` takes. */
  index: number;
  unit: string;
  class: string | undefined;
  count: number;
  /** The card's own points (undefined when unknown). */
  cardPoints: number | undefined;
  /** One copy with what it embarks; and that times count. */
  each: number;
  total: number;
  /** Every card of the entry is known (otherwise its points are not all counted). */
  complete: boolean;
  range: Range;
  /** Where the entry's card is defined. */
  card: { uri: string; range: Range } | undefined;
  embarked: RosterEmbarkedData[];
  /** What this entry's launch bays can take (empty when it has none). */
  embarkChoices: RosterChoice[];
  /** Set when `embarkChoices` holds only the first of this many (ask with `embarkFor` for all). */
  embarkChoicesTotal?: number;
  /** The entry's problems and those of the cards it uses. */
  problems: RosterProblemData[];
}

export interface RosterData {
  uri: string;
  /**
   * The version of the open document the roster was read from (absent for a file read from disk).
   * A tree drawn from it names its entries by index: its edits send this version back, so that an
   * edit of a text that changed since is refused instead of landing on another entry.
   */
  version?: number;
  name: string;
  faction: string;
  limit: number | undefined;
  /** "Standard" for 1000 pts, ...; undefined for a custom limit. */
  gameSize: string | undefined;
  objectives: number | undefined;
  total: number;
  remaining: number | undefined;
  over: boolean;
  /** No error in the fleet or in a card it uses. */
  legal: boolean;
  counts: { errors: number; warnings: number; infos: number };
  entries: RosterEntryData[];
  byClass: { class: string; units: number; points: number }[];
  /** Problems not tied to one entry (limit, objectives, name, faction, the file itself). */
  problems: RosterProblemData[];
  /** The cards "Add unit…" offers: the fleet faction's, biggest first. */
  addChoices: RosterChoice[];
  /** The short line players post ("Radiant Court 340, …; 970/1000"). */
  copyText: string;
  /** The same line as a `fabledstar:` link (Copy Roster as Link), which Paste Roster as Fleet reads. */
  copyLink: string;
  /** With a collection in the workspace: "To field this list: 1 x Lumen Cruiser" (or that every model is owned). */
  toBuy?: string;
  /** The roster in `params.format`, when asked. */
  rendered?: string;
}

/**
 * client -> server: a fleet's roster (what the Fleet view shows, and an export in any format);
 * null when the uri is not a fleet the server knows. Refresh on `fabledStar/fleetSummaryChanged`.
 */
export const RosterRequest = request<RosterParams, RosterData | null>('fabledStar/roster');

/** A printable sheet of unit cards (Print Unit Cards; `fabled-star cards`). */
export interface CardSheetParams {
  /** A unit cards or faction file (every card in it), or a fleet list (its units as fielded). */
  uri: string;
  paper?: 'a4' | 'letter';
}

export interface CardSheetData {
  /** One self-contained HTML page: print CSS only, no script. */
  html: string;
  title: string;
  cards: number;
  /** Names in the fleet that resolve to no card (left out). */
  unknown: string[];
}

/** client -> server: the card sheet of a file; null when the uri is no Fabled Star file the server knows. */
export const CardSheetRequest = request<CardSheetParams, CardSheetData | null>('fabledStar/cardSheet');

/** A roster or a posted list to read into a fleet list ("Paste Roster as Fleet"; `fabled-star import`). */
export interface ImportRosterParams {
  text: string;
  /** Used when the text names none (FORMATS.md, `import`'s flags). */
  faction?: string;
  name?: string;
  points?: number;
}

export interface ImportRosterResult {
  /** The fleet list's text (LF line endings). */
  fleet: string;
  /** Which form the text was read as: one of the roster's exports, or "post". */
  format: string;
  name: string;
  faction?: string;
  points?: number;
  /** Entries read. */
  entries: number;
  /** Lines that could not be read, each with its 1-based line and the closest card (`candidates`: the cards it may mean, when several). */
  problems: { line: number; text: string; why: string; closest?: string; candidates?: string[] }[];
  /** Names no card has, each read as the card it clearly means (`unit`), with the others it might mean. */
  guesses?: { line: number; text: string; written: string; unit: string; others: string[] }[];
}

/** client -> server: a roster written as text, read against the workspace's cards; null when the text is not a string. */
export const ImportRosterRequest = request<ImportRosterParams, ImportRosterResult | null>('fabledStar/importRoster');

/**
 * A roster change. `entry` is the index the roster gave; `unit` (and for disembark `name`) is the
 * entry's unit (the embarked unit's name) as it gave them: an entry at `entry` that names another
 * is refused as stale.
 */
export type RosterEditParams = {
  uri: string;
  /**
   * The document version the edit's target was named in: for remove, embark and disembark the
   * roster's `version` (the tree the user clicked), for add the editor's. Another version is refused as stale.
   */
  version?: number;
} & (
  | { action: 'add'; card: string; count?: number }
  /** `copies`: all of the entry (the default), or one (its count lowered; an entry of one is removed). */
  | { action: 'remove'; entry: number; copies?: 'all' | 'one'; unit?: string }
  | { action: 'embark'; entry: number; card: string; unit?: string }
  | { action: 'disembark'; entry: number; embarked: number; unit?: string; name?: string }
);

/** The answer to `fabledStar/rosterEdit`: the edit, computed on `version` of the text, or why there is none. */
export type RosterEditResult =
  | { edit: TextEdit; version?: number }
  | {
      /** `stale`: the text changed since the tree was drawn (redraw it); `cannot`: not a change the roster can make in this text. */
      refused: 'stale' | 'cannot';
      message: string;
    };

/**
 * client -> server: the text edit to the fleet's YAML that makes a roster change (the YAML stays
 * the source of truth; the client applies it as a workspace edit, so it can be undone), or why it
 * cannot be made (stale, or not safely). null when the uri is not a fleet the server knows.
 */
export const RosterEditRequest = request<RosterEditParams, RosterEditResult | null>('fabledStar/rosterEdit');

/** A fleet list for the battle: an open document or a workspace file, by URI. */
export interface BattleFleetSelector {
  uri: string;
}

export interface BattleParams extends WorkDoneProgressParams, PartialResultParams {
  fleet: BattleFleetSelector;
  vs: BattleFleetSelector;
  /** range (absent: the fleets approach), rounds, trials, seed; checked as the CLI checks its flags. */
  options?: BattleRequestOptions;
  /** Where the battles played so far go, as `BattleProgress` (`{done, total}`), beside the work-done progress for people. */
  progressToken?: string | number;
  /**
   * What-if: another version of `fleet` (its saved text, git's HEAD, or another fleet
   * file) played against the same opponent on the same dice; the result carries it in
   * `compareFleets` (FORMATS.md: `result` is that version, `difference` it minus `fleet`).
   */
  compareWith?: BattleCompareWith;
  /**
   * Stop once the 95% half-width of every headline figure is at most this (0.01: ±1%), after 2,000
   * battles at least, `options.trials` being the most played: as `battle --precision`, whose JSON
   * the result then is (`stopped`, `precision`, `requestedTrials`). Absent: exactly `options.trials`.
   */
  precision?: number;
}

/** The other version of a fleet for a what-if: a fleet list by URI, or its text; `label` names it for the view ("Saved version"). */
export interface BattleCompareWith {
  uri?: string;
  text?: string;
  label?: string;
  /** The other is a different fleet list ("Compare with…"), not a version of this one: the view reads it as two lists, not as a change. */
  another?: boolean;
}

/**
 * client -> server: the fleet battle of `fleet` against `vs` (BATTLE.md); the result is the object
 * `fabled-star battle --format json` prints. Runs in slices between turns of the event loop;
 * reports work-done progress (trials done) with a `workDoneToken`; with a `partialResultToken`
 * sends the result of the trials run so far as `BattlePartialResult` progress every few slices (a
 * view fills in at once and sharpens); stops when cancelled (RequestCancelled). Fails with
 * RequestFailed and a sentence when a fleet is unknown, has errors, or the options are wrong.
 */
export const BattleRequest = request<BattleParams, BattleResult>('fabledStar/battle');

/** server -> client, as `$/progress` on the request's `partialResultToken`: the result so far. */
export const BattlePartialResult = new ProgressType<BattleResult>();

/**
 * How far a run has got: battles (or trials) played and asked for, both runs counted when variants
 * are compared with the standard rules. The numbers themselves, not a percentage to be turned back.
 */
export interface RunProgress {
  done: number;
  total: number;
}

/** server -> client, as `$/progress` on the battle request's `progressToken`: the battles played so far. */
export const BattleProgress = new ProgressType<RunProgress>();

export interface BattleInputsParams {
  fleet: BattleFleetSelector;
  vs: BattleFleetSelector;
}

/**
 * What a battle of two fleets would play, as it stands now: `key` names the two fleets' units and
 * every number of the cards they use (the same key, the same battle); `cannotFight` is the sentence
 * a battle request would fail with (a fleet with errors, an unknown file).
 */
export type BattleInputs = { key: string } | { cannotFight: string };

/**
 * client -> server: the inputs of the battle of `fleet` against `vs` (a battle view asks after an
 * edit of a fleet or a card: a new key means its figures are for lists that are no more).
 */
export const BattleInputsRequest = request<BattleInputsParams, BattleInputs>('fabledStar/battleInputs');

export interface PriceByBattleParams extends WorkDoneProgressParams, PartialResultParams {
  card: CardSelector;
}

export type { BattlePriceResult };

/** The price-by-battle answer: the price, and where the card's points are written (for "Set points to N"). */
export interface PriceByBattleResult extends BattlePriceResult {
  /** The card's file, its version when priced, and the range of its points value (absent: not written). */
  uri?: string;
  version?: number;
  pointsRange?: Range;
}

/**
 * client -> server: the battle price of a card (BATTLE.md "Points from battles"): fleets of its
 * copies against reference fleets of the workspace's field at each game size, on the same dice.
 * Runs in slices between turns of the event loop (the editor stays responsive); with a
 * `partialResultToken` sends the price so far (`PriceByBattlePartial`) after each round of battles,
 * so it is seen to converge; stops when cancelled (RequestCancelled). Fails with RequestFailed and a
 * sentence when the card is unknown or cannot be simulated.
 */
export const PriceByBattleRequest = request<PriceByBattleParams, PriceByBattleResult>('fabledStar/priceByBattle');

/** server -> client, as `$/progress` on the request's `partialResultToken`: the price so far. */
export const PriceByBattlePartial = new ProgressType<BattlePriceResult>();

export * from './simulation';
/** The points-left wording (the rules pack's words), so that the Fleet view says it as the server does. */
export { pointsLeft } from '../server/src/core/rules/words';
