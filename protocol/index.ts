/**
 * The custom messages between the Fabled Star language server and its clients, and the settings
 * the server reads. Each message is declared once, here, with its direction, and imported by both
 * sides (the VS Code client in client/src, the server in server/src/lsp), in the manner of
 * vscode-eslint's customMessages.ts and rust-analyzer's lsp_ext.ts.
 *
 * Other editors (Neovim, Helix, Emacs) need none of these: the standard LSP features work without
 * them. They are what the VS Code extension builds its commands, status bar and engagement view on.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Position, Range } from 'vscode-languageserver-protocol';
import type { EngagementOptions, SimulationResult } from './simulation';
import type { CardEstimate, CardName, FleetEntrySummary, FleetSummary, Settings, SimulateCommandArgs } from '../server/src/core/api';

// ---------------------------------------------------------------------------------------------
// Settings

/**
 * What the server reads from the `fabledStar` configuration section (workspace/configuration,
 * per resource), declared in the core (the features read it). Clients send any subset;
 * `resolveSettings` fills the rest with the defaults, so no other code ever checks for a missing
 * setting.
 */
export type { Settings };

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  referenceTarget: '',
  inlayHints: Object.freeze({ points: true, combinedShields: true, weaponOdds: true }),
  codeLens: Object.freeze({ enabled: true }),
  diagnostics: Object.freeze({ delayMs: 150 }),
  workspace: Object.freeze({ maxFiles: 25000 }),
  pointsEstimate: Object.freeze({ enabled: true }),
}) as Settings;

/** The configuration section the server asks for. */
export const SETTINGS_SECTION = 'fabledStar';

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
function bool(v: unknown, d: boolean): boolean {
  return typeof v === 'boolean' ? v : d;
}
function int(v: unknown, d: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : d;
}

/**
 * Settings as the client sent them (any shape, possibly null) -> complete, valid Settings.
 * The one place settings are defaulted.
 */
export function resolveSettings(raw: unknown): Settings {
  const r = obj(raw);
  const hints = obj(r.inlayHints);
  const lens = obj(r.codeLens);
  const diag = obj(r.diagnostics);
  const ws = obj(r.workspace);
  const estimate = obj(r.pointsEstimate);
  const d = DEFAULT_SETTINGS;
  return {
    referenceTarget: typeof r.referenceTarget === 'string' ? r.referenceTarget.trim() : d.referenceTarget,
    inlayHints: {
      points: bool(hints.points, d.inlayHints.points),
      combinedShields: bool(hints.combinedShields, d.inlayHints.combinedShields),
      weaponOdds: bool(hints.weaponOdds, d.inlayHints.weaponOdds),
    },
    codeLens: { enabled: bool(lens.enabled, d.codeLens.enabled) },
    diagnostics: { delayMs: int(diag.delayMs, d.diagnostics.delayMs, 0, 5000) },
    workspace: { maxFiles: int(ws.maxFiles, d.workspace.maxFiles, 1, 100000) },
    pointsEstimate: { enabled: bool(estimate.enabled, d.pointsEstimate.enabled) },
  };
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

// ---------------------------------------------------------------------------------------------
// Requests and notifications

/** A card given by name, or by a position inside it (e.g. the cursor in a card file). */
export type CardSelector = CardName | { uri: string; position: Position };

export interface SimulateParams {
  attacker: CardSelector;
  defender: CardSelector;
  options?: EngagementOptions;
}

export type { CardEstimate };

/** The simulate request's answer: the CLI's result object and both cards' points estimates. */
export interface SimulateResult extends SimulationResult {
  pointsEstimate?: { attacker: CardEstimate; defender: CardEstimate };
}

/**
 * client -> server: simulate one engagement. The result is the object the CLI prints with
 * `fabled-star sim --format json`, plus both cards' points estimates. Fails with a ResponseError
 * (code RequestFailed, a message that names the problem) when a card cannot be found or cannot be
 * simulated.
 */
export const SimulateRequest = {
  method: 'fabledStar/simulate',
  type: new RequestType<SimulateParams, SimulateResult, void>('fabledStar/simulate'),
} as const;

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
}

export interface ListCardsParams {
  /** Only cards of this faction (case-insensitive). */
  faction?: string;
  /** Only the cards this fleet list uses (a fleet's uri), as the fleet resolves its entries. */
  fleet?: string;
}

/**
 * Whether two card selectors ask for the same card: names and factions compare as the server
 * resolves them (case and outer spaces do not matter). The client never resolves a name itself.
 */
export function sameSelector(a: CardName, b: CardName): boolean {
  const norm = (s: string | undefined): string => (s ?? '').trim().toLowerCase();
  return norm(a.name) === norm(b.name) && norm(a.faction) === norm(b.faction);
}

/** client -> server: every card the workspace knows (open files and workspace card files), sorted by faction then name. */
export const ListCardsRequest = {
  method: 'fabledStar/listCards',
  type: new RequestType<ListCardsParams, CardInfo[], void>('fabledStar/listCards'),
} as const;

export interface FleetSummaryParams {
  uri: string;
}

/** A fleet's points (declared in the core, which computes it; the same object hovers and lenses read). */
export type { FleetEntrySummary, FleetSummary };

/** client -> server: the points of a fleet list; null when the uri is not a fleet the server knows. */
export const FleetSummaryRequest = {
  method: 'fabledStar/fleetSummary',
  type: new RequestType<FleetSummaryParams, FleetSummary | null, void>('fabledStar/fleetSummary'),
} as const;

export interface FleetSummaryChangedParams {
  uri: string;
}

/**
 * server -> client: a fleet's summary may have changed (its own text, or a card it uses, changed).
 * Sent after the fleet is re-validated, so a status bar can ask `fabledStar/fleetSummary` again.
 */
export const FleetSummaryChangedNotification = {
  method: 'fabledStar/fleetSummaryChanged',
  type: new NotificationType<FleetSummaryChangedParams>('fabledStar/fleetSummaryChanged'),
} as const;

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
export const RuleTextRequest = {
  method: 'fabledStar/ruleText',
  type: new RequestType<RuleTextParams, RuleTextEntry[], void>('fabledStar/ruleText'),
} as const;

export * from './simulation';
