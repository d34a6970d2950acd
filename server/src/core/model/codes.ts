/**
 * Every diagnostic code, with its severity and the rulebook section it enforces. Codes are a
 * contract (CLI JSON, SARIF rules, quick fixes key on them): never rename one, add new ones.
 */
import type { Severity } from './types';

export interface CodeInfo {
  severity: Severity;
  /** A short title (SARIF rule name, docs). */
  title: string;
  /** Rulebook section(s), or 'FORMATS' for file-format rules. */
  section: string;
}

export const CODES = {
  // File format (FORMATS.md)
  'FS-YAML-SYNTAX': { severity: 'error', title: 'YAML syntax error', section: 'FORMATS' },
  'FS-YAML-WARNING': { severity: 'warning', title: 'Questionable YAML', section: 'FORMATS' },
  'FS-YAML-LIMIT': { severity: 'error', title: 'File beyond what is read (size, line length, nesting, tags)', section: 'FORMATS' },
  'FS-BARE-DASH': { severity: 'warning', title: 'Bare "-" is not valid YAML', section: '1' },
  'FS-DUPLICATE-KEY': { severity: 'error', title: 'Key given twice', section: 'FORMATS' },
  'FS-TYPE': { severity: 'error', title: 'Value of the wrong kind', section: 'FORMATS' },
  'FS-MISSING-FIELD': { severity: 'error', title: 'Required field missing', section: 'FORMATS' },
  'FS-UNKNOWN-KEY': { severity: 'warning', title: 'Unknown key', section: 'FORMATS' },
  // Unit cards (sections 1, 3, 12, 16 and RULES.md)
  'FS-CLASS-UNKNOWN': { severity: 'error', title: 'Unknown class', section: '3' },
  'FS-BASES': { severity: 'error', title: 'Base count differs from the class', section: '3' },
  'FS-BASE-SIZE': { severity: 'error', title: 'Malformed base size', section: '4' },
  'FS-POINTS': { severity: 'error', title: 'Points not a positive whole number', section: 'class cards' },
  'FS-POINTS-NONSTANDARD': { severity: 'info', title: 'Points differ from the class card', section: 'class cards' },
  'FS-POINTS-ESTIMATE': { severity: 'info', title: 'Points far from the estimate of cards costed like it', section: 'class cards' },
  'FS-STAT-MISSING': { severity: 'error', title: 'Stat missing', section: '1' },
  'FS-STAT-FORMAT': { severity: 'error', title: 'Malformed stat value', section: '1' },
  'FS-STAT-RANGE': { severity: 'error', title: 'Stat outside its limits', section: '1' },
  'FS-STAT-DASH': { severity: 'error', title: 'Stat cannot be "-"', section: '1' },
  'FS-STAT-EXTRA': { severity: 'error', title: 'Too many values in the stat line', section: '1' },
  'FS-TONNAGE-SMALL-CRAFT': { severity: 'warning', title: 'Fighter or Bomber with Tonnage', section: '20' },
  'FS-SLOTS-WEAPONS': { severity: 'error', title: 'More weapon systems than the class allows', section: '3' },
  'FS-SLOTS-WEAPONS-UNDER': { severity: 'warning', title: 'Fewer weapon systems than the class has', section: '3' },
  'FS-SLOTS-ORDERS': { severity: 'error', title: 'More orders than the class allows', section: '16' },
  'FS-SLOTS-ABILITIES': { severity: 'error', title: 'More abilities than the class allows', section: '3' },
  'FS-WEAPON-FORMAT': { severity: 'error', title: 'Weapon profile cannot be read', section: '12' },
  'FS-WEAPON-TYPE': { severity: 'error', title: 'Unknown weapon type', section: '12' },
  'FS-WEAPON-DAMAGE': { severity: 'error', title: 'Damage outside 1..5', section: '12' },
  'FS-WEAPON-ATTACKS': { severity: 'error', title: 'Attacks below 1', section: '12' },
  'FS-RANGE-BAND': { severity: 'error', title: 'Range is not a range band', section: '12' },
  'FS-RANGE-TEXT': { severity: 'warning', title: 'Inch figure in text is not a range band', section: '12' },
  'FS-RANGE-SMALL-CRAFT': { severity: 'error', title: 'Fighter or Bomber weapon beyond 6"', section: '4' },
  'FS-ORDER-DIFFICULTY': { severity: 'error', title: 'Order difficulty not a whole number >= 1', section: '16' },
  'FS-ORDER-UNREACHABLE': { severity: 'warning', title: 'Order difficulty above the LD dice', section: '16' },
  'FS-ORDER-NO-LD': { severity: 'error', title: 'Orders on a unit without LD', section: '16' },
  'FS-ORDER-UNKNOWN': { severity: 'warning', title: 'Order named but not known', section: '16' },
  'FS-ORDER-CLASS': { severity: 'error', title: 'Order of another class (Recover Craft is a Carrier order)', section: '6' },
  'FS-UNIVERSAL-RULE-CLASS': { severity: 'error', title: 'Universal rule on a class it does not belong to', section: '3' },
  'FS-ABILITY-UNKNOWN': { severity: 'warning', title: 'Ability named but not known', section: 'class cards' },
  'FS-ABILITY-REQUIRES': { severity: 'error', title: 'Ability needs a stat the unit lacks', section: '13' },
  'FS-LAUNCH-BAY-TIER': { severity: 'error', title: 'Launch Bay tier below 1', section: '6' },
  'FS-DUPLICATE-CARD': { severity: 'error', title: 'Card name used twice in a faction', section: 'FORMATS' },
  // Command Board (section 21)
  'FS-DOCTRINE': { severity: 'error', title: 'Unknown doctrine', section: '21' },
  'FS-CP-MISMATCH': { severity: 'error', title: 'CP does not match the doctrine or its sources', section: '21' },
  'FS-CP-MAX': { severity: 'error', title: 'More CP than any faction may generate', section: '21' },
  'FS-FACTION-ABILITY': { severity: 'error', title: 'Not exactly one faction ability', section: '21' },
  'FS-COMMAND-ABILITY-COUNT': { severity: 'error', title: 'Not exactly six command abilities', section: '21' },
  'FS-COMMAND-ABILITY-FIELD': { severity: 'error', title: 'Command ability missing a field', section: '21' },
  'FS-COMMAND-ABILITY-COST': { severity: 'error', title: 'Command ability cost can never be paid', section: '21' },
  'FS-COMMAND-ABILITY-LD': { severity: 'warning', title: 'Command ability asks for a Leadership test', section: '21' },
  'FS-COMMAND-ABILITY-DUPLICATE': { severity: 'error', title: 'Command ability name used twice', section: '21' },
  'FS-DUPLICATE-BOARD': { severity: 'error', title: 'A second Command Board for a faction', section: '21' },
  'FS-FACTION-UNKNOWN': { severity: 'warning', title: 'Faction has no cards in the workspace', section: 'FORMATS' },
  // Fleet lists (sections 6, 17, 20)
  'FS-FLEET-POINTS-LIMIT': { severity: 'error', title: 'Points limit not a positive whole number', section: '17' },
  'FS-FLEET-OVER': { severity: 'error', title: 'Fleet over its points limit', section: '17' },
  'FS-FLEET-UNDER': { severity: 'info', title: 'Fleet under its points limit', section: '17' },
  'FS-UNIT-UNKNOWN': { severity: 'error', title: 'No card of that name', section: 'FORMATS' },
  'FS-UNIT-FACTION': { severity: 'error', title: 'Card of another faction', section: 'FORMATS' },
  'FS-COUNT': { severity: 'error', title: 'Count not a whole number >= 1', section: 'FORMATS' },
  'FS-EMBARK-NO-BAY': { severity: 'error', title: 'Host has no Launch Bay', section: '6' },
  'FS-EMBARK-KIND': { severity: 'error', title: 'Unit cannot be carried by this bay', section: '6' },
  'FS-EMBARK-HOMEBREW': { severity: 'warning', title: 'Bomber embarked on a non-Carrier (a homebrew Launch Bays (Reserves))', section: '6' },
  'FS-EMBARK-CAPACITY': { severity: 'error', title: 'Launch Bay over capacity', section: '6' },
  'FS-FLEET-NO-LD': { severity: 'warning', title: 'No unit on the table has LD: the fleet never wins the initiative', section: '14' },
  'FS-OBJECTIVES': { severity: 'warning', title: 'Objectives outside the recommendation', section: '20' },
  // Notes left by `import` (Paste Roster as Fleet) in the fleet list it writes (model/importNotes.ts)
  'FS-IMPORT-GUESS': { severity: 'warning', title: 'Imported name read as the closest card', section: 'FORMATS' },
  'FS-IMPORT-UNREAD': { severity: 'warning', title: 'Imported line not read: it may name one of several cards', section: 'FORMATS' },
  // Suppression comments (FORMATS.md)
  'FS-DISABLE-UNUSED': { severity: 'info', title: 'Suppression comment that suppresses nothing', section: 'FORMATS' },
  'FS-DISABLE-UNKNOWN': { severity: 'info', title: 'Suppression comment naming no known code', section: 'FORMATS' },
  // The collection (FORMATS.md "Collection"): the models a player owns
  /**
   * A fleet fields more copies of a card than the workspace's collection owns (embarked units
   * counted, each fleet on its own): on each entry (or embarked name) that fields the card, naming
   * the card and both counts. Never said without a collection.
   */
  'FS-COLLECTION-SHORT': { severity: 'warning', title: 'Fleet fields more copies of a card than the collection owns', section: 'FORMATS' },
  /** A collection entry names no card of the workspace: on the name, with the closest card names. */
  'FS-COLLECTION-UNKNOWN': { severity: 'warning', title: 'Collection entry names no card', section: 'FORMATS' },
  /** A second collection in one workspace: only the first by path is read; on the later one's `owned` key. */
  'FS-COLLECTION-SECOND': { severity: 'warning', title: 'A second collection in the workspace (ignored)', section: 'FORMATS' },
} as const satisfies Record<string, CodeInfo>;

export type Code = keyof typeof CODES;

/**
 * Where each code's page is published: the manual's `docs/codes/FS-CODE.md` in the project's
 * repository, which a browser opens (the language server's `codeDescription.href`, `check`'s JSON
 * `href` and SARIF `helpUri`). The VS Code extension opens the same page from its package instead.
 */
export const CODE_PAGES = 'https://github.com/fabled-star/fabled-star-tools/blob/main/docs/codes/';

/** The link to a code's page in the manual. */
export function codeHref(code: string): string {
  return `${CODE_PAGES}${encodeURIComponent(code)}.md`;
}
