/**
 * What a service answers without a workspace, read before there is one (the CLI's option tables at
 * module load, the LSP layer's conversions): document kinds, the problem codes and their pages, the
 * rules text, the bundled examples' files, the roster's formats, renderers and edits. The facade
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

export const staticRequests = {
  // Documents: a file's kind from its name (or its editor's language), the language of a kind, the problem of a file too large.
  kindOfUri,
  kindOfPath,
  kindOfLanguage,
  LANGUAGE_IDS,
  fileTooLarge,
  // The problem codes, their manual pages, and "3 errors".
  CODES,
  codeHref,
  count,
  /** Markdown as plain text, for a client that shows no markdown. */
  markdownToPlain,
  /** A cheap test true for every file text that may define a card of these names (superset), or undefined. */
  cardNameFilter,
  /** Adds a document's card names and factions (what its dependents name) to the sets. */
  namesAndFactions,
  // The rulebook's text: its sections, a section as markdown, the glossary's terms.
  sections,
  sectionMarkdown,
  glossary,
  // The bundled example files.
  exampleText,
  isExampleUri,
  // Rosters: the formats, the renderers, the one line, its link and what to buy.
  ROSTER_FORMATS,
  PAPER_NAMES,
  renderRoster,
  rosterShort,
  rosterLink,
  toBuyLine,
  rulesVersionText,
  // A fleet list's edits, as offsets.
  addUnitEdit,
  removeEntryEdit,
  embarkEdit,
  disembarkEdit,
  /** A roster's text read into a fleet list against cards gathered beforehand (`importCards`), where a worker thread can run it. */
  importRosterFrom: importRoster,
} as const;

/** What a service answers without a workspace (see `staticRequests`). */
export type StaticRequests = typeof staticRequests;
