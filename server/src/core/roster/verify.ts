/**
 * Whether a roster still matches the card files (`fabled-star verify`): the roster is read back
 * (import.ts, as written, nothing guessed), its fleet's roster is built against the cards given, and
 * the digest that gives is compared with the one the roster carries (digest.ts).
 */
import { linkText } from './link';
import type { Workspace } from '../workspace';
import { buildRoster } from './model';
import { importRoster, type ImportProblem, type ImportFormat } from './import';
import { rulesVersion, type RulesVersion } from './digest';
import { renderRoster, type RosterFormat } from './render';
import { printedDifference, type PrintedDifference } from './printed';

export type VerifyStatus = 'match' | 'mismatch' | 'no-digest';

export interface VerifyResult {
  status: VerifyStatus;
  format: ImportFormat;
  /** The digest the roster carries. */
  claimed: string | undefined;
  /** The digest of the roster's fleet with these cards. */
  actual: string;
  /** The rules version the roster names, and the tools'. */
  claimedRules: string | undefined;
  rules: RulesVersion;
  /** Whether the roster names another rules version than the tools apply. */
  rulesDiffer: boolean;
  /** Where what the roster prints differs from what its list gives with these cards (points or a stat changed by hand), if it does. */
  printed?: PrintedDifference;
  /** Lines that name no card here (a card renamed or gone). */
  problems: ImportProblem[];
  /** Whether the fleet is legal with these cards, and its error count. */
  legal: boolean;
  errors: number;
  fleet: { name: string; faction: string; total: number; limit: number | undefined };
  /** One sentence for a tournament organiser. */
  summary: string;
}

/** The uri the roster's fleet is checked under (never a file on disk). */
const VERIFY_URI = 'untitled:verify/roster.fleet.yaml';

export function verifyRoster(text: string, ws: Workspace): VerifyResult {
  // A `fabledstar:` link is checked as the one line it carries.
  text = linkText(text);
  const imported = importRoster(text, ws, { asWritten: true });
  const doc = ws.set(VERIFY_URI, imported.fleet, 'fleet', 'unlikely');
  let roster;
  let printed: PrintedDifference | undefined;
  try {
    if (!doc || doc.kind !== 'fleet') throw new Error('not a fleet');
    roster = buildRoster(doc, ws);
    // Rendered while the list is in the workspace (the cards' figures as the export had them).
    printed = imported.digest !== undefined ? printedDifference(text, renderRoster(roster, imported.format as RosterFormat), imported.format) : undefined;
  } finally {
    ws.delete(VERIFY_URI);
  }
  const rules = rulesVersion();
  const claimed = imported.digest;
  const digestMatches = claimed === roster.digest && imported.problems.length === 0;
  const status: VerifyStatus = claimed === undefined ? 'no-digest' : digestMatches && !printed ? 'match' : 'mismatch';
  const rulesDiffer = imported.rules !== undefined && imported.rules !== rules.version;
  const parts: string[] = [];
  if (status === 'match') parts.push(`The roster matches these card files (digest ${roster.digest}).`);
  else if (status === 'no-digest')
    parts.push(`The roster carries no digest (export it again with fabled-star roster); with these card files it would be ${roster.digest}.`);
  else if (digestMatches && printed)
    parts.push(
      `The roster's list and digest match these card files, but what it prints does not: ${
        printed.line ? `line ${printed.line} says "${printed.says}"` : 'it ends early'
      }; they give ${printed.gives ? `"${printed.gives}"` : 'nothing more there'}. The sheet was changed after it was exported.`,
    );
  else
    parts.push(
      `The roster does not match these card files: it says ${claimed}, they give ${roster.digest}${imported.problems.length ? ` (${imported.problems.length} of its lines name no card here)` : ''}; the list or a card it uses has changed since it was exported.`,
    );
  if (rulesDiffer) parts.push(`It was exported under rules ${imported.rules}; these tools apply ${rules.version}.`);
  if (!roster.legal) parts.push(`With these cards the fleet is not legal: ${roster.counts.errors} error${roster.counts.errors === 1 ? '' : 's'}.`);
  return {
    status,
    format: imported.format,
    claimed,
    actual: roster.digest,
    claimedRules: imported.rules,
    rules,
    rulesDiffer,
    ...(printed ? { printed } : {}),
    problems: imported.problems,
    legal: roster.legal,
    errors: roster.counts.errors,
    fleet: { name: roster.name, faction: roster.faction, total: roster.total, limit: roster.limit },
    summary: parts.join(' '),
  };
}
