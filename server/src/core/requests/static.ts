/**
 * What a service answers without a workspace, read before there is one (the CLI's option tables at
 * module load, the LSP layer's conversions): document kinds, the problem codes and their pages, the
 * rules text, the bundled examples' files, the roster's formats, renderers and edits, the
 * simulator's tables, words and the steps that need no workspace (./sims.ts). The facade
 * (../service.ts) hands it to the edges as `FabledService`, beside the instance's requests.
 */
import { kindOfLanguage, kindOfPath, kindOfUri, fileTooLarge, LANGUAGE_IDS } from '../model/parse';
import { CODES } from '../check/index';
import { codeHref } from '../model/codes';
import { count } from '../rules/words';
import { markdownToPlain } from '../features/plaintext';
import { cardNameFilter } from '../features/nameFilter';
import { namesAndFactions } from '../features/workspaceQueries';
import { glossary, sectionMarkdown, sections } from '../rules/text';
import { exampleText, isExampleUri } from '../examples/index';
import { renderRoster, rosterShort, ROSTER_FORMATS } from '../roster/render';
import { addUnitEdit, disembarkEdit, embarkEdit, removeEntryEdit } from '../roster/edits';
import { importRoster } from '../roster/import/index';
import { toBuyLine } from '../roster/model';
import { rulesVersionText } from '../roster/digest';
import { PAPER_NAMES } from '../roster/cards';
import { rosterLink } from '../roster/link';
import { signalOf, tokenOf } from '../sim/runner';
import { SIM_STATIC } from './sims';

export const staticRequests = {
  /** A document's kind from its URI's file name; undefined when it is not one of ours. */
  kindOfUri,
  /** A document's kind from its path's file name; undefined when it is not one of ours. */
  kindOfPath,
  /** A document's kind from the language an editor gave an untitled buffer. */
  kindOfLanguage,
  /** The editor language of each kind of document. */
  LANGUAGE_IDS,
  /** The problem of a file too large to read (its size in characters, where to put it). */
  fileTooLarge,
  /** Every problem code: its title, severity and rulebook section. */
  CODES,
  /** The manual's page of a problem code. */
  codeHref,
  /** "1 error", "3 errors". */
  count,
  /** Markdown as plain text, for a client that shows no markdown. */
  markdownToPlain,
  /** A cheap test true for every file text that may define a card of these names (superset), or undefined. */
  cardNameFilter,
  /** Adds a document's card names and factions (what its dependents name) to the sets. */
  namesAndFactions,
  /** The rulebook's sections. */
  sections,
  /** A rulebook section as markdown (its parts as asked). */
  sectionMarkdown,
  /** The glossary: each term and its section. */
  glossary,
  /** A bundled example file's text; undefined when the URI is none. */
  exampleText,
  /** Whether a URI is a bundled example file's. */
  isExampleUri,
  /** The formats a roster is rendered in. */
  ROSTER_FORMATS,
  /** The paper sizes a card sheet is printed on. */
  PAPER_NAMES,
  /** A roster rendered in one of ROSTER_FORMATS. */
  renderRoster,
  /** A roster's one line ("Radiant Court 340, ...; 970/1000"). */
  rosterShort,
  /** The link that carries a roster's one line. */
  rosterLink,
  /** "To field this list: ..." when the collection is short of the roster's cards. */
  toBuyLine,
  /** The rules version as a roster states it. */
  rulesVersionText,
  /** The edit adding a unit to a fleet list, as offsets. */
  addUnitEdit,
  /** The edit removing an entry (or one copy of it) from a fleet list. */
  removeEntryEdit,
  /** The edit embarking a unit on an entry. */
  embarkEdit,
  /** The edit disembarking an entry's embarked unit. */
  disembarkEdit,
  /** A roster's text read into a fleet list against cards gathered beforehand (`importCards`), where a worker thread can run it. */
  importRosterFrom: importRoster,
  /** A simulation token that cancels when an AbortSignal aborts (and carries it, for a runner that takes signals). */
  tokenOf,
  /** An AbortSignal that aborts when a simulation token cancels (the token's own signal when it carries one). */
  signalOf,
  /** The simulator's tables, words and steps that need no workspace (./sims.ts `SimStatic`). */
  ...SIM_STATIC,
} as const;

/** What a service answers without a workspace (see `staticRequests`). */
export type StaticRequests = typeof staticRequests;
