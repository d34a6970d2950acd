/** The importer's shapes: what it is asked, what it answers, and the draft a reader of one format fills. */

export type ImportFormat = 'json' | 'html' | 'text' | 'markdown' | 'short' | 'post';

export interface ImportOptions {
  /** Used when the text names no faction (and to choose between factions that share a card name). */
  faction?: string;
  /** Used when the text names no fleet. */
  name?: string;
  /** Used when the text gives no points limit. */
  points?: number;
  /**
   * Take only what the text says: no default name, no points limit guessed from a game size, no
   * faction from the cards (verify.ts: the fleet as the roster wrote it, for its digest).
   */
  asWritten?: boolean;
}

export interface ImportedEntry {
  /** The card's name as the card spells it. */
  unit: string;
  count: number;
  /** Embarked units (each copy carries them), as the cards spell them. */
  embark: string[];
  /** 1-based line of the text the entry came from. */
  line: number;
  /** The unit's name as written, when no card has it and the entry is the closest card (a typo). */
  guess?: EntryGuess;
  /** The same for each embarked unit (parallel to `embark`; undefined where the name was a card's). */
  embarkGuess?: (EntryGuess | undefined)[];
}

/** A name read as the closest card: as written, and the other cards it might have meant. */
export interface EntryGuess {
  written: string;
  others: string[];
}

/** A name read as the closest card, for the report ("2: 1x Celestial Batleship (280): read as Celestial Battleship"). */
export interface ImportGuess extends EntryGuess {
  /** 1-based line. */
  line: number;
  /** The line as written (one line, cut to 200 characters). */
  text: string;
  /** The card taken. */
  unit: string;
}

export interface ImportProblem {
  /** 1-based line. */
  line: number;
  /** The line as written (one line, cut to 200 characters). */
  text: string;
  /** Why it could not be read ("no card of that name"). */
  why: string;
  /** The closest card's name, when one is close. */
  closest: string | undefined;
  /** The cards the line may mean, closest first (the first is `closest`), when a name is close to several. */
  candidates?: string[];
}

export interface ImportResult {
  format: ImportFormat;
  name: string;
  /** Where the name came from. */
  nameFrom: 'text' | 'option' | 'default';
  faction: string | undefined;
  factionFrom: 'text' | 'option' | 'cards' | 'none';
  points: number | undefined;
  pointsFrom: 'text' | 'option' | 'game size' | 'none';
  objectives: number | undefined;
  entries: ImportedEntry[];
  problems: ImportProblem[];
  /** Names no card has, each read as the one card it is clearly close to (a typo, a plural, a name cut short). */
  guesses: ImportGuess[];
  /** What the roster says about itself: its digest and rules version, when it carries them. */
  digest: string | undefined;
  rules: string | undefined;
  /** The fleet list, `*.fleet.yaml` text (LF line endings). */
  fleet: string;
}

/** Bounds that keep a hostile paste cheap: lines longer than this are cut before reading. */
export const IMPORT_LIMITS = {
  lineChars: 2000,
  problemText: 200,
  lines: 200_000,
  /** Plain lines searched for a card's name inside them (each search is over every card). */
  cardInside: 500,
} as const;

/** What a reader of one format makes of the text, before its names are looked up. */
export interface Draft {
  format: ImportFormat;
  rules?: string;
  name?: string;
  faction?: string;
  points?: number;
  objectives?: number;
  /** Each unit as written, with its line. */
  units: { name: string; count: number; embark: { name: string; line: number }[]; line: number; host?: string }[];
  /** Lines that look like units but could not be read as any. */
  unread: { line: number; text: string; why: string }[];
  /** Lines to look up loosely: a plain line may be a unit without a marker (closest card only when close). */
  loose: { line: number; text: string; name: string }[];
}

/** A unit's name and its number of copies, as written. */
export interface Item {
  name: string;
  count: number;
}
