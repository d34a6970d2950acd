/**
 * Whether a roster still matches the card files (`fabled-star verify`): the roster is read back
 * (import/, as written, nothing guessed), its fleet's roster is built against the cards given, and
 * the digest that gives is compared with the one the roster carries (digest.ts).
 */
import { linkText } from './link';
import type { Workspace } from '../workspace';
import { buildRoster, toBuyLine, type Roster } from './model';
import { clean } from './clean';
import { importRoster, type ImportProblem, type ImportFormat } from './import';
import { DIGEST_PATTERN, rulesVersion, type RulesVersion } from './digest';
import { esc, md, renderRoster, ROSTER_FORMATS, type RosterFormat } from './render';
import { locationSlot, printedDifference, type PrintedDifference } from './printed';

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

/** A line of a sheet as the summary quotes it. */
const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);

/** 'line 12 says "…"; they give "…"'. */
function where(p: PrintedDifference): string {
  return `${p.line ? `line ${p.line} says "${clip(p.says)}"` : 'its end'}; they give ${p.gives ? `"${clip(p.gives)}"` : 'nothing more there'}`;
}

/** `fs1-` and 16 hex digits, as a whole. */
const DIGEST = new RegExp(`^${DIGEST_PATTERN.source.replace(/^\\b|\\b$/g, '')}$`);

/**
 * The digest a roster carries where its format prints it (the provenance line, the JSON's
 * `digest`, the end of the one line), not the first digest-like text: a fleet or a card may be
 * named like one.
 */
function claimedDigest(text: string, format: string): string | undefined {
  const src = text.replace(/^\ufeff/, '').slice(0, 5_000_000);
  const found = (s: string | undefined) => (s !== undefined && DIGEST.test(s) ? s : undefined);
  switch (format) {
    case 'json':
      try {
        const o = JSON.parse(src) as { digest?: unknown };
        return typeof o?.digest === 'string' ? found(o.digest) : undefined;
      } catch {
        return undefined;
      }
    case 'html':
      return /<p class="digest">Rules: [^<\n]* \u00b7 Digest: <span class="code">(fs1-[0-9a-f]{16})<\/span><\/p>/.exec(src)?.[1];
    case 'short':
      return / \u00b7 (fs1-[0-9a-f]{16})\s*$/.exec(src)?.[1];
    case 'text':
    case 'markdown': {
      // The name is the first line: a fleet named "Rules: … · Digest: fs1-…" is not the provenance line.
      const lines = src
        .split(/\r\n?|\n/)
        .map((l) => l.trim())
        .filter(Boolean);
      for (const l of lines.slice(1)) {
        const m = /^Rules: .* \u00b7 Digest: (fs1-[0-9a-f]{16})$/.exec(l);
        if (m) return m[1];
      }
      return undefined;
    }
    default:
      return DIGEST_PATTERN.exec(src)?.[0];
  }
}

/**
 * What the sheet says to buy (the exporter's collection, model.ts `toBuy`), read back so the sheet can
 * be rendered again with it: the collection is the exporter's shelf, not the card files, and a sheet
 * exported with one still matches. Only what the renderer could print is read: the line as the
 * format writes it, every name one the fleet fields (in the format's escaping) and every count from 1
 * to the copies it fields; the line is then compared like every other. Undefined when the sheet
 * prints none (or prints one that is not such a line: it then differs from what the cards give).
 */
function sheetToBuy(text: string, format: RosterFormat, roster: Roster): Roster['toBuy'] {
  const fielded = new Map<string, { name: string; count: number }>();
  for (const e of roster.entries) {
    if (!(e.count > 0)) continue;
    for (const name of [e.card?.name ?? e.unit.trim(), ...e.embarked.map((x) => x.card?.name ?? x.name.trim())]) {
      if (!name) continue;
      const f = fielded.get(name.toLowerCase()) ?? { name, count: 0 };
      f.count += e.count;
      fielded.set(name.toLowerCase(), f);
    }
  }
  const valid = (list: { name: string; count: number }[]) => {
    const seen = new Set<string>();
    for (const b of list) {
      const f = fielded.get(b.name.toLowerCase());
      if (!f || f.name !== b.name || seen.has(f.name) || !Number.isInteger(b.count) || b.count < 1 || b.count > f.count) return false;
      seen.add(f.name);
    }
    return true;
  };
  const src = text.replace(/^\ufeff/, '').slice(0, 5_000_000);
  if (format === 'json') {
    try {
      const o = JSON.parse(src) as { toBuy?: unknown };
      if (!Array.isArray(o?.toBuy)) return undefined;
      const list = o.toBuy.map((b: unknown) => b as { name?: unknown; count?: unknown });
      if (!list.every((b) => b && typeof b.name === 'string' && typeof b.count === 'number' && Object.keys(b).length === 2)) return undefined;
      const out = list.map((b) => ({ name: b.name as string, count: b.count as number }));
      return valid(out) ? out : undefined;
    } catch {
      return undefined;
    }
  }
  if (format === 'short') return undefined;
  // The line's text in the format's own escaping, and that escaping for what is read in it.
  const escape = format === 'html' ? esc : format === 'markdown' ? md : clean;
  const lines = src.split(/\r\n?|\n/).map((l) => (format === 'html' ? l : l.replace(/\s+/g, ' ').trim()));
  const bodies = format === 'html' ? lines.flatMap((l) => /^<p class="to-buy">(.*)<\/p>$/.exec(l)?.[1] ?? []) : lines;
  const owned = escape(toBuyLine({ toBuy: [] })!);
  // (Pieces escaped alone, their spaces kept: clean() trims.)
  const lead = `${escape('To field this list:')} `;
  const body = bodies.find((b) => b === owned || b.startsWith(lead));
  if (body === undefined) return undefined;
  if (body === owned) return [];
  // "N x NAME, N x NAME": the longest name the fleet fields at each place (a name may hold ", ").
  const names = [...fielded.values()].map((f) => ({ name: f.name, shown: escape(f.name) })).sort((a, b) => b.shown.length - a.shown.length);
  const out: { name: string; count: number }[] = [];
  let rest = body.slice(lead.length);
  const sep = `${escape(',')} `;
  while (rest) {
    const m = /^(\d{1,6}) x /.exec(rest);
    if (!m) return undefined;
    const after = rest.slice(m[0].length);
    const n = names.find((x) => after.startsWith(x.shown) && (after.length === x.shown.length || after.startsWith(sep, x.shown.length)));
    if (!n) return undefined;
    out.push({ name: n.name, count: Number(m[1]) });
    rest = after.slice(n.shown.length);
    if (rest) rest = rest.slice(sep.length);
    if (!rest && after.length !== n.shown.length) return undefined;
  }
  return out.length && valid(out) ? out : undefined;
}

export function verifyRoster(text: string, ws: Workspace): VerifyResult {
  // A `fabledstar:` link is checked as the one line it carries.
  text = linkText(text);
  const imported = importRoster(text, ws, { asWritten: true });
  const claimed = claimedDigest(text, imported.format);
  const doc = ws.set(VERIFY_URI, imported.fleet, 'fleet', 'unlikely');
  let roster;
  let printed: PrintedDifference | undefined;
  try {
    if (!doc || doc.kind !== 'fleet') throw new Error('not a fleet');
    roster = buildRoster(doc, ws);
    // The whole sheet rendered again while the list is in the workspace (the cards' figures as the
    // export had them), every problem's file a slot (the exporter's files are not here).
    if (claimed !== undefined && (ROSTER_FORMATS as readonly string[]).includes(imported.format)) {
      const slot = locationSlot();
      const format = imported.format as RosterFormat;
      // What to buy is the exporter's collection's (read back from the sheet), never the one given here.
      const sheet: Roster = { ...roster };
      delete sheet.toBuy;
      const toBuy = sheetToBuy(text, format, roster);
      if (toBuy) sheet.toBuy = toBuy;
      printed = printedDifference(text, renderRoster(sheet, format, { file: () => slot }), imported.format, slot);
    }
  } finally {
    ws.delete(VERIFY_URI);
  }
  const rules = rulesVersion();
  const digestMatches = claimed === roster.digest && imported.problems.length === 0;
  const status: VerifyStatus = claimed === undefined ? 'no-digest' : digestMatches && !printed ? 'match' : 'mismatch';
  const rulesDiffer = imported.rules !== undefined && imported.rules !== rules.version;
  const parts: string[] = [];
  if (status === 'match') parts.push(`The roster matches these card files (digest ${roster.digest}).`);
  else if (status === 'no-digest')
    parts.push(`The roster carries no digest (export it again with fabled-star roster); with these card files it would be ${roster.digest}.`);
  else if (digestMatches && printed)
    parts.push(
      `The roster's list and digest match these card files, but what it prints does not: ${where(printed)}. The sheet was changed after it was exported${
        !roster.board && /Command Board/.test(text) ? ', or it prints a Command Board whose faction file is not among the files given' : ''
      }.`,
    );
  else
    parts.push(
      `The roster does not match these card files: it says ${claimed}, they give ${roster.digest}${imported.problems.length ? ` (${imported.problems.length} of its lines name no card here)` : ''}; the list or a card it uses has changed since it was exported.${
        printed ? ` What it prints first differs from what they give at ${where(printed)}.` : ''
      }`,
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
