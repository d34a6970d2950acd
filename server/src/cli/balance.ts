/**
 * `fabled-star balance PATHS... [--cards PATH]... [--format text|json]`: the points estimate of every
 * card given (BATTLE.md "The points estimate"), sorted by how far its printed points are from it.
 */
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Workspace } from '../core/workspace';
import { estimateCard, fieldFor } from '../core/balance/index';
import type { PointsEstimate, ReferenceField } from '../core/balance/index';
import { POINTS_ESTIMATE } from '../core/rules/data';
import { expandPaths, fileUri, readProblem } from './io';
import { CARDS_OPTION, command, type CommandSpec } from './args';
import { escapeControls } from './terminal';

export const BALANCE_HELP = `Usage: fabled-star balance PATHS... [--cards PATH]... [--format text|json]

Estimates what each unit card would cost if it were costed like the cards around it, and lists
every card by how far its printed points are from that estimate.

The reference field is the cards that cost exactly their class's standard points among PATHS and
--cards (the bundled example cards when there are fewer than ${POINTS_ESTIMATE.minField}). Firepower is the field's
points a card removes per Fire action; durability the Fire actions of the field it takes to
destroy it (shields carry over between Fire actions); estimate = k x sqrt(firepower x durability),
k fitted on the field. The spread is the field's own leave-one-out error. Not priced: movement,
LD, CR, tonnage, weapon range, orders, abilities.

Options:
  --cards PATH         more cards for the reference field (file or folder; may repeat); not listed
  --format text|json   a table (default) or one JSON object on stdout
  -h, --help           show this help

Exit status: 0 success, 2 usage problem, missing or unreadable file, or no unit cards.
`;

export interface BalanceRow {
  file: string;
  line: number;
  name: string;
  faction: string;
  class: string | null;
  points: number | null;
  estimate: number | null;
  ratio: number | null;
  firepower: number | null;
  durability: number | null;
  unpriced: string[];
}

export interface BalanceReport {
  field: { source: string; cards: number; k: number | null; spreadPct: number | null };
  cards: BalanceRow[];
}

const round = (v: number | undefined, digits: number): number | null => (v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(digits)));

/** How far off, for sorting: |log(points / estimate)|; cards without a ratio last. */
const offness = (e: PointsEstimate) => (e.ratio !== undefined && e.ratio > 0 ? Math.abs(Math.log(e.ratio)) : -1);

interface Loaded {
  ws: Workspace;
  listed: Set<string>;
  texts: Map<string, { file: string; text: string }>;
}

/** The balance report of files (and the estimates behind it); shared by the CLI and the benchmark. */
export function balanceReport(
  loaded: Loaded,
  cwd: string,
): { report: BalanceReport; field: ReferenceField; rows: { row: BalanceRow; estimate: PointsEstimate }[] } {
  const field = fieldFor(loaded.ws.allCards());
  const rows: { row: BalanceRow; estimate: PointsEstimate; off: number }[] = [];
  const lines = new Map<string, TextDocument>();
  for (const ref of loaded.ws.allCards()) {
    if (!loaded.listed.has(ref.uri)) continue;
    const src = loaded.texts.get(ref.uri)!;
    let doc = lines.get(ref.uri);
    if (!doc) lines.set(ref.uri, (doc = TextDocument.create(ref.uri, 'yaml', 0, src.text)));
    const e = estimateCard(ref.card, ref.faction, field);
    const file = path.relative(cwd, path.resolve(cwd, src.file)).split(path.sep).join('/') || src.file;
    rows.push({
      estimate: e,
      off: offness(e),
      row: {
        file,
        line: doc.positionAt(ref.card.span.start).line + 1,
        name: e.name,
        faction: e.faction,
        class: e.class ?? null,
        points: e.points ?? null,
        estimate: round(e.estimate, 1),
        ratio: round(e.ratio, 3),
        firepower: round(e.firepower, 3),
        durability: round(e.durability, 3),
        unpriced: e.unpriced,
      },
    });
  }
  rows.sort((a, b) => b.off - a.off || a.row.file.localeCompare(b.row.file) || a.row.line - b.row.line);
  return {
    field,
    rows,
    report: {
      field: { source: field.source, cards: field.members.length, k: round(field.k, 4), spreadPct: round(field.spreadPct, 1) },
      cards: rows.map((r) => r.row),
    },
  };
}

function pad(s: string, n: number, right = false): string {
  return right ? s.padStart(n) : s.padEnd(n);
}

function renderText(field: ReferenceField, rows: { row: BalanceRow; estimate: PointsEstimate }[]): string {
  const out: string[] = [];
  const spread = Number.isFinite(field.spreadPct) ? `±${field.spreadPct.toFixed(0)}%` : 'unknown';
  out.push(`Reference field: ${escapeControls(field.description)}.`);
  out.push(`Estimate = ${Number.isFinite(field.k) ? field.k.toFixed(2) : '?'} x sqrt(firepower x durability); leave-one-out spread of the field ${spread}.`);
  out.push('');
  const head = ['card', 'class', 'points', 'estimate', 'ratio', 'firepower', 'durability', '', 'where'];
  const body = rows.map(({ row, estimate: e }) => [
    escapeControls(row.name),
    row.class ?? '?',
    row.points === null ? '?' : String(row.points),
    // From the estimate itself, as a hover writes it: the JSON's rounded figures rounded again could differ (0.875 -> 0.88).
    e.estimate === undefined ? '-' : String(Math.round(e.estimate)),
    e.ratio === undefined ? '-' : e.ratio.toFixed(2),
    e.firepower === undefined ? '-' : e.firepower.toFixed(1),
    e.durability === undefined ? '-' : e.durability.toFixed(1),
    e.reason ? 'no estimate' : e.farOff ? (e.ratio! > 1 ? 'far too dear' : 'far too cheap') : e.inField ? 'in the field' : '',
    `${escapeControls(row.file)}:${row.line}`,
  ]);
  const widths = head.map((h, i) => Math.min(40, Math.max(h.length, ...body.map((r) => r[i]!.length))));
  const right = [false, false, true, true, true, true, true, false, false];
  const line = (r: string[]) =>
    r
      .map((c, i) => pad(c, widths[i]!, right[i]))
      .join('  ')
      .trimEnd();
  out.push(line(head));
  for (const r of body) out.push(line(r));
  const notes = rows.filter((r) => r.estimate.reason);
  if (notes.length) {
    out.push('');
    for (const { row, estimate: e } of notes) out.push(escapeControls(`${row.file}:${row.line}: ${row.name}: no estimate: ${e.reason}`));
  }
  out.push('');
  out.push(
    `Firepower: points of the field removed per Fire action. Durability: Fire actions of the field to destroy it. ` +
      `Far off: points and estimate differ by more than ${POINTS_ESTIMATE.flagSpreads} x the spread. ` +
      'Not priced: movement, LD, CR, tonnage, weapon range, orders, abilities.',
  );
  return out.join('\n') + '\n';
}

const BALANCE_COMMAND = {
  name: 'balance',
  help: BALANCE_HELP,
  options: { cards: CARDS_OPTION },
  positionals: true,
  formats: ['text', 'json'],
} as const satisfies CommandSpec;

export const runBalance = command(BALANCE_COMMAND, async ({ values, positionals, format, fail: usage }, io) => {
  if (positionals.length === 0) return usage('give the card files or folders to estimate (fabled-star balance PATHS...).');
  const listedPaths = expandPaths(io, positionals);
  const cardPaths = expandPaths(io, values.cards ?? []);
  const missing = [...listedPaths.missing, ...cardPaths.missing];
  if (missing.length) return usage(`no such file or folder: ${missing.join(', ')}`);
  const unlisted = [...listedPaths.unreadable, ...cardPaths.unreadable];
  if (unlisted.length) return usage(unlisted.join('; '));

  const ws = new Workspace();
  const texts = new Map<string, { file: string; text: string }>();
  const listed = new Set<string>();
  const isCards = (f: string) => /\.(unit|faction)\.ya?ml$/i.test(f);
  for (const [files, list] of [
    [listedPaths.files, true],
    [cardPaths.files, false],
  ] as const) {
    for (const file of files) {
      if (!isCards(file)) continue;
      const uri = fileUri(file);
      if (!texts.has(uri)) {
        let text: string;
        try {
          text = io.readFile(file);
        } catch (e) {
          return usage(readProblem(file, e));
        }
        texts.set(uri, { file, text });
        ws.set(uri, text);
      }
      if (list) listed.add(uri);
    }
  }
  const { report, field, rows } = balanceReport({ ws, listed, texts }, io.cwd);
  if (rows.length === 0) return usage(`no unit cards in ${positionals.join(', ')}.`);
  io.stdout(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderText(field, rows));
  return 0;
});
