/**
 * The shapes the core shares with its edges (the language server, the CLI, the client through
 * protocol/): the settings features read, a card named by the user, and what a card's
 * "Simulate vs ..." lens asks the editor to run, and a fleet's points. Types only: protocol/
 * re-exports them, and the core never imports protocol/.
 */
import type { GameSize } from './rules/data';

/**
 * What the features read from the `fabledStar` configuration section. protocol/ reads and defaults
 * it (`resolveSettings`); the core only receives complete settings.
 */
export interface Settings {
  /**
   * A card name (`fabledStar.referenceTarget`). When set, each weapon line of a card shows its
   * expected damage and kill chance against that card as an inlay hint, and weapon hovers show
   * the breakdown. Empty: off.
   */
  referenceTarget: string;
  inlayHints: {
    /** Points per fleet entry and the running total against the limit. */
    points: boolean;
    /** The Combined Shields pool on Escort and Frigate cards. */
    combinedShields: boolean;
    /** Expected damage and kill chance per weapon against `referenceTarget`. */
    weaponOdds: boolean;
  };
  codeLens: {
    /** "970 / 1000 pts" on fleets and "Simulate vs ..." on cards. */
    enabled: boolean;
  };
  diagnostics: {
    /**
     * Milliseconds to wait for typing to pause before re-validating, after the first change of a
     * burst (which is validated at once). Fleets affected by a card edit always wait this long.
     */
    delayMs: number;
  };
  workspace: {
    /** At most this many card, faction and fleet files are read from the workspace folders. */
    maxFiles: number;
  };
  pointsEstimate: {
    /** The "≈ N pts" code lens on cards and the FS-POINTS-ESTIMATE note (the hover of points always shows the estimate). */
    enabled: boolean;
  };
  simulation: {
    /** Worker threads the server's simulations run on: 0, chosen from the machine (its cores but one); a positive whole number fixes the count. */
    threads: number;
  };
  liveOdds: {
    /**
     * The opponent of a fleet's live odds lens ("wins 54% ± 1% vs Lantern Watch"): a fleet file (a
     * path, absolute or relative to a workspace folder), or the name of a fleet (the workspace's, or
     * a bundled example's). Empty: off.
     */
    opponent: string;
    /** Battles per refresh (a few thousand: the lens sharpens as they run). */
    trials: number;
  };
}

/** A card named for a request or a command: by name (and faction, when names clash). */
export interface CardName {
  name: string;
  faction?: string;
  /** One of the bundled example cards (listed by `listCards` with `examples: true`), not the workspace's. */
  example?: boolean;
}

/**
 * What a card's "Simulate vs ..." lens runs: the card as attacker, and the reference target as
 * defender when one is set (absent: the editor asks the user).
 */
export interface SimulateCommandArgs {
  attacker: CardName & { uri: string };
  defender?: CardName;
}

/** What a card's "Price by battle" lens runs: the card's battle price (the server finds it by name, its own file's first). */
export interface PriceCommandArgs {
  card: CardName & { uri: string };
}

/** What a fleet's "Battle vs ..." lens runs: the fleet battle with this fleet as side 1 (the editor asks for the opponent). */
export interface BattleCommandArgs {
  fleet: { uri: string; name: string };
  /** The opponent, when the lens names one (the live odds lens): the battle view opens at once. */
  vs?: { uri: string; name: string };
}

export interface FleetEntrySummary {
  unit: string;
  count: number;
  /** Points of one copy including what it embarks; undefined when a card is unknown. */
  points: number | undefined;
  embarked: string[];
}

export interface FleetSummary {
  uri: string;
  name: string;
  faction: string;
  /** Sum of the known cards' points x count, embarked units included. */
  total: number;
  /** The points limit, when the fleet gives a valid one. */
  limit: number | undefined;
  /** total > limit. */
  over: boolean;
  /** limit - total (negative when over), when there is a limit. */
  remaining: number | undefined;
  /** Entries whose card is not known (their points are not in the total). */
  unknownUnits: string[];
  entries: FleetEntrySummary[];
  /** The named game size of the limit (500 Skirmish, ...), when it is one. */
  gameSize: GameSize | undefined;
}

/**
 * A card's points estimate as the engagement view shows it beside the card's points (BATTLE.md
 * "The points estimate"): rounded figures and words, no model internals.
 */
/** A card's battle price (BATTLE.md "Points from battles"), as `fabledStar/priceByBattle` answers it and reports it while it converges. */
export interface BattlePriceResult {
  name: string;
  /** Printed points. */
  points?: number;
  /** The break-even price and its 95% interval (absent until a reference fleet is bracketed, or when none can be). */
  price?: number;
  low?: number;
  high?: number;
  /** Printed / battle price. */
  ratio?: number;
  /** The instant estimate, rounded. */
  estimate?: number;
  /** Trials played so far, battles played, reference fleets that gave a price of those tried. */
  trials: number;
  battles: number;
  fleets: number;
  tried: number;
  /** False while it is converging. */
  done: boolean;
  /** The reference field in words. */
  field: string;
  /** Why there is no price. */
  reason?: string;
}

export interface CardEstimate {
  /** Printed points. */
  points?: number;
  /** Estimated points, rounded. */
  estimate?: number;
  /** Printed / estimated, to two decimals. */
  ratio?: number;
  /** Set when the printed points are more than twice the field's spread from the estimate. */
  verdict?: 'far too cheap' | 'far too dear';
  /** Why there is no estimate. */
  reason?: string;
  /** The estimate's own typical error (the field's leave-one-out spread), in percent. */
  spreadPct?: number;
}
