/**
 * `fabled-star balance PATHS... [--cards PATH]... [--format text|json]`: the points estimate of every
 * card given (BATTLE.md "The points estimate"), sorted by how far its printed points are from it.
 */
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createFabledService, FabledService } from '../core/service';
import { expandPaths, fileUri, readProblem } from './io';
import { CARDS_OPTION, command, type CommandSpec } from './args';
import { escapeControls } from './terminal';
import { pricePool } from './price-pool';

/** A card's points estimate, the field it is measured against, and its price by battle. */
type PointsEstimate = ReturnType<FabledService['estimateCard']>;
type ReferenceField = ReturnType<FabledService['referenceField']>;
type BattlePrice = Awaited<ReturnType<typeof FabledService.priceCard>>;
type PlayBattles = Parameters<typeof FabledService.priceCard>[2];
type PricedCard = NonNullable<ReturnType<typeof FabledService.pricedCardOf>>;
type Workspace = FabledService['workspace'];

const POINTS_ESTIMATE = FabledService.pointsEstimate;
const { estimateWords, battleVerdict, shownBattlePrice } = FabledService;

export const BALANCE_HELP = `Usage: fabled-star balance PATHS... [--cards PATH]... [--battles] [--format text|json]

Estimates what each unit card would cost if it were costed like the cards around it, and lists
every card by how far its printed points are from that estimate.

The reference field is the cards that cost exactly their class's standard points among PATHS and
--cards (the bundled example cards when there are fewer than ${POINTS_ESTIMATE.minField}). Firepower is the field's
points a card removes per Fire action; durability the Fire actions of the field it takes to
destroy it (shields carry over between Fire actions). The estimate weighs them with what battles
show matters (each weapon's reach on the approach table, from the ranges and moves; small craft;
launch capacity and what it carries; boarding, from CR, within 3" on the approach) and is fitted
to the battle prices of the bundled field and generated variants of its cards. The spread is its
leave-one-out error. Not priced: LD, tonnage, orders, abilities.

--battles prices every card by battle too (BATTLE.md "Points from battles"): fleets of copies of it
fight reference fleets built from the field at each game size, on the same dice, and the price at
which it destroys as large a share of the enemy's points as it loses of its own is its battle
price, with a 95% interval from the trials (about a second or two of CPU per card).

Options:
  --cards PATH         more cards for the reference field (file or folder; may repeat); not listed
  --battles            add each card's battle price and its 95% interval
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
  /** Why there is no estimate (only then: the text's "no estimate" note says the same). */
  reason?: string;
  /** With --battles: the battle price (FORMATS.md). */
  battle?: BattleRow;
}

export interface BattleRow {
  price: number | null;
  low: number | null;
  high: number | null;
  ratio: number | null;
  trials: number;
  fleets: number;
  /** Why there is no battle price (only then). */
  reason?: string;
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
  const service = createFabledService({ workspace: loaded.ws });
  // Not `field()`: the same figures, but its description reads "from this workspace", and the report says "from the cards given".
  const field = service.referenceField();
  const rows: { row: BalanceRow; estimate: PointsEstimate; off: number }[] = [];
  const lines = new Map<string, TextDocument>();
  for (const ref of loaded.ws.allCards()) {
    if (!loaded.listed.has(ref.uri)) continue;
    const src = loaded.texts.get(ref.uri)!;
    let doc = lines.get(ref.uri);
    if (!doc) lines.set(ref.uri, (doc = TextDocument.create(ref.uri, 'yaml', 0, src.text)));
    const e = service.estimateCard(ref.card, ref.faction, field);
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
        ...(e.reason ? { reason: e.reason } : {}),
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

/**
 * Adds each row's battle price (BATTLE.md "Points from battles"), against the report's field. `play`
 * runs the battles (in process, or on the worker threads of ./price-pool.ts).
 */
export async function addBattlePrices(
  loaded: Loaded,
  field: ReferenceField,
  rows: { row: BalanceRow; estimate: PointsEstimate }[],
  play: PlayBattles,
  concurrency = 1,
): Promise<Map<BalanceRow, BattlePrice>> {
  const pricing = {
    cards: field.members.map((m) => ({ name: m.name, faction: m.faction, class: m.class, points: m.points, profile: m.profile, bays: m.bays })),
  };
  const cards = new Map<string, PricedCard | undefined>();
  for (const ref of loaded.ws.allCards())
    if (loaded.listed.has(ref.uri)) cards.set(`${ref.uri}\u0000${ref.card.span.start}`, FabledService.pricedCardOf(ref.card, ref.faction));
  const out = new Map<BalanceRow, BattlePrice>();
  const refs = loaded.ws.allCards().filter((r) => loaded.listed.has(r.uri));
  // Several cards at once, so that every thread of a pool has battles to play; each card's price is the same either way.
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const { row, estimate } = rows[next++]!;
      const ref = refs.find((r) => r.card.name.value?.trim() === row.name && r.faction === row.faction && (r.card.points.value ?? null) === row.points);
      const card = ref ? cards.get(`${ref.uri}\u0000${ref.card.span.start}`) : undefined;
      if (!card) {
        // A card the battles cannot read (no class, a stat that cannot be read): the text's "no battle price" note and the JSON say why.
        const reason = estimate.reason ?? 'its class or stats cannot be read.';
        out.set(row, {
          name: row.name,
          faction: row.faction,
          class: row.class as BattlePrice['class'],
          points: row.points ?? 0,
          trials: 0,
          fleets: 0,
          tried: 0,
          carried: [],
          against: [],
          reason,
          cutShort: false,
        });
        row.battle = { price: null, low: null, high: null, ratio: null, trials: 0, fleets: 0, reason };
        continue;
      }
      // The search starts from the printed points, as the generated prices' and the editor's do: the same card, the same price.
      const p = await FabledService.priceCard(card, pricing, play);
      out.set(row, p);
      row.battle = {
        price: round(p.price, 1),
        low: round(p.low, 1),
        high: round(p.high, 1),
        ratio: round(p.ratio, 3),
        trials: p.trials,
        fleets: p.fleets,
        ...(p.reason ? { reason: p.reason } : {}),
      };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  return out;
}

/** A battle price's bound on the estimate's yardstick. */
function scaled(x: number | null | undefined, fair: number): number | undefined {
  return x == null ? undefined : x * fair;
}

function pad(s: string, n: number, right = false): string {
  return right ? s.padStart(n) : s.padEnd(n);
}

function renderText(field: ReferenceField, rows: { row: BalanceRow; estimate: PointsEstimate }[], battles?: Map<BalanceRow, BattlePrice>): string {
  const out: string[] = [];
  const spread = Number.isFinite(field.spreadPct) ? `±${field.spreadPct.toFixed(0)}%` : 'unknown';
  out.push(`Reference field: ${escapeControls(field.description)}.`);
  out.push(`${estimateWords(field)}; leave-one-out error ${spread}.`);
  out.push('');
  const head = [
    'card',
    'class',
    'points',
    'estimate',
    'ratio',
    'firepower',
    'durability',
    ...(battles ? ['battle', '95%', 'b.ratio', 'by battle'] : []),
    'by estimate',
    'where',
  ];
  const fair = field.battle?.fair ?? 1;
  const body = rows.map(({ row, estimate: e }) => {
    // The battle figures as the editor shows them (from the price itself, not the JSON's rounded figures).
    const b = battles?.get(row);
    const shown = b ? shownBattlePrice(b) : {};
    return [
      escapeControls(row.name),
      row.class ?? '?',
      row.points === null ? '?' : String(row.points),
      // From the estimate itself, as a hover writes it: the JSON's rounded figures rounded again could differ (0.875 -> 0.88).
      e.estimate === undefined ? '-' : String(Math.round(e.estimate)),
      e.ratio === undefined ? '-' : e.ratio.toFixed(2),
      e.firepower === undefined ? '-' : e.firepower.toFixed(1),
      e.durability === undefined ? '-' : e.durability.toFixed(1),
      ...(battles
        ? [
            shown.price === undefined ? '-' : String(shown.price),
            shown.low === undefined || shown.high === undefined ? '-' : `${shown.low}-${shown.high}`,
            shown.ratio === undefined ? '-' : shown.ratio.toFixed(2),
            // On the estimate's yardstick: the battle price times the field's fair scale.
            battleVerdict(row.points, scaled(row.battle?.low, fair), scaled(row.battle?.high, fair)) ?? '',
          ]
        : []),
      e.reason ? 'no estimate' : e.farOff ? (e.ratio! > 1 ? 'far too dear' : 'far too cheap') : e.inField ? 'in the field' : '',
      `${escapeControls(row.file)}:${row.line}`,
    ];
  });
  const widths = head.map((h, i) => Math.min(40, Math.max(h.length, ...body.map((r) => r[i]!.length))));
  const right = [false, false, true, true, true, true, true, ...(battles ? [true, true, true, false] : []), false, false];
  const line = (r: string[]) =>
    r
      .map((c, i) => pad(c, widths[i]!, right[i]))
      .join('  ')
      .trimEnd();
  out.push(line(head));
  for (const r of body) out.push(line(r));
  const notes = rows.filter((r) => r.estimate.reason);
  const unpricedByBattle = battles ? rows.filter((r) => battles.get(r.row)?.reason) : [];
  if (notes.length || unpricedByBattle.length) {
    out.push('');
    for (const { row, estimate: e } of notes) out.push(escapeControls(`${row.file}:${row.line}: ${row.name}: no estimate: ${e.reason}`));
    for (const { row } of unpricedByBattle) out.push(escapeControls(`${row.file}:${row.line}: ${row.name}: no battle price: ${battles!.get(row)!.reason}`));
  }
  out.push('');
  out.push(
    `Firepower: points of the field removed per Fire action. Durability: Fire actions of the field to destroy it. ` +
      `Far off: points and estimate differ by more than ${POINTS_ESTIMATE.flagSpreads} x the spread and by more than x/${POINTS_ESTIMATE.flagRatio}. ` +
      'Not priced: LD, tonnage, orders, abilities.' +
      (battles
        ? ` Battle: the break-even price from fleets of copies against reference fleets of the field at each game size (95% interval); b.ratio = points / battle price; by battle: on the estimate's yardstick (the battle price x ${fair.toFixed(2)}, the field's printed points over its battle prices on average), far too dear or cheap when beyond x/${POINTS_ESTIMATE.flagRatio} over the whole interval, on the line when over part of it.`
        : ''),
  );
  return out.join('\n') + '\n';
}

const BALANCE_COMMAND = {
  name: 'balance',
  help: BALANCE_HELP,
  options: { cards: CARDS_OPTION, battles: { type: 'boolean' } },
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

  const ws = createFabledService({}).workspace;
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
  let battles: Map<BalanceRow, BattlePrice> | undefined;
  if (values.battles) {
    // On worker threads, one per core (in process when the worker bundle is not there).
    const pool = pricePool();
    try {
      battles = await addBattlePrices({ ws, listed, texts }, field, rows, pool.play, pool.threads);
    } finally {
      await pool.close();
    }
  }
  io.stdout(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderText(field, rows, battles));
  return 0;
});
