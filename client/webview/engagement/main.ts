/**
 * The engagement view: draws a SimulationResult ("Engagement: A vs B") and sends the user's
 * re-run requests to the extension host. It runs inside the webview and talks only through
 * postMessage. Everything that came from the user's files (unit and weapon names, assumptions)
 * goes into the page with textContent; every message is checked by ./messages.ts before use, and a
 * message of the wrong shape is ignored.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartDataset,
  type ChartOptions,
} from 'chart.js';
import '../style.css';
import { ANY_RANGE, IDS } from './html';
import {
  parseHostMessage,
  parseSimulationResult,
  parseViewMessage,
  RERUN_LIMITS,
  type CardEstimate,
  type EngagementOptions,
  type SimulationResult,
  type UnitFacts,
  type ViewMessage,
} from './messages';
import { distributionBars, formatCount, formatNumber, formatPercent, formatPercentError, shotsToKillRows } from '../format';
import { element, elements, vscodeApi, STILL_CHART } from '../dom';
import { onThemeChange, readPalette, type Palette } from '../palette';
import { RerunTimer, StaleFigures } from '../rerun';
import { inFormWords, nothingHappens, plainAssumptions, verdict, volleyDoesNothing, volleySentence } from './words';
import { lockRounds, renderComparison, roundsAsked, variantPicker, type CompareRow, type RulesChoice } from '../variants';
import { choiceKey, playedRules } from '../variant-messages';

// Only what the two charts use is registered, so esbuild leaves the rest of Chart.js out.
Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

/** What survives a reload of the view (VS Code keeps it while the panel lives). */
interface ViewState {
  version: 1;
  result?: SimulationResult;
  /** Both cards' points estimates from the last run. */
  estimates?: { attacker: CardEstimate; defender: CardEstimate };
  /** Options the user has edited but not yet run. */
  draft?: EngagementOptions;
  /** The two cards' lines (faction, class, points), as the host last sent them. */
  units?: { attacker: UnitFacts; defender: UnitFacts };
}

const vscode = vscodeApi<ViewMessage>();

const ui = {
  ...elements<
    typeof IDS,
    {
      advancedOptions: HTMLDetailsElement;
      form: HTMLFormElement;
      range: HTMLSelectElement;
      aim: HTMLSelectElement;
      cover: HTMLInputElement;
      brace: HTMLInputElement;
      shields: HTMLInputElement;
      rounds: HTMLInputElement;
      trials: HTMLInputElement;
      seed: HTMLInputElement;
      run: HTMLButtonElement;
      hullChart: HTMLCanvasElement;
      hullTable: HTMLTableElement;
      shieldsTable: HTMLTableElement;
      weapons: HTMLTableElement;
      roundsTable: HTMLTableElement;
      survivalChart: HTMLCanvasElement;
      survivalTable: HTMLTableElement;
      shotsChart: HTMLCanvasElement;
      shotsTable: HTMLTableElement;
    }
  >(IDS),
  app: element('app'),
  roundsDetails: element(`${IDS.roundsTable}-details`),
};

const picker = variantPicker(ui.variants, 'engagement');
/** The note over figures computed with other options than the form shows. */
const stale = new StaleFigures(ui.stale, [ui.results, ui.verdict]);
let state: ViewState = restoreState();
let busy = false;
let hullChart: Chart<'bar'> | undefined;
let survivalChart: Chart<'line'> | undefined;
let shotsChart: Chart<'line'> | undefined;

// ---------------------------------------------------------------------------------------------
// State

function restoreState(): ViewState {
  const saved = vscode.getState() as Partial<ViewState> | undefined;
  // Saved state is checked like a message: it may come from an older version of this view.
  const result = saved && typeof saved === 'object' ? parseSimulationResult(saved.result) : undefined;
  const draftMessage = saved && typeof saved === 'object' ? parseViewMessage({ type: 'rerun', options: saved.draft }) : undefined;
  const draft = draftMessage?.type === 'rerun' ? draftMessage.options : undefined;
  const unitsMessage = saved && typeof saved === 'object' && saved.units ? parseHostMessage({ type: 'units', ...saved.units }) : undefined;
  const units = unitsMessage?.type === 'units' ? { attacker: unitsMessage.attacker, defender: unitsMessage.defender } : undefined;
  const withEstimates = result && saved?.estimates ? parseHostMessage({ type: 'result', result: saved.result, estimates: saved.estimates }) : undefined;
  const estimates = withEstimates?.type === 'result' ? withEstimates.estimates : undefined;
  return { version: 1, result, draft, units, ...(estimates ? { estimates } : {}) };
}

function saveState(): void {
  vscode.setState(state);
}

function post(message: ViewMessage): void {
  vscode.postMessage(message);
}

// ---------------------------------------------------------------------------------------------
// Theme: every colour comes from VS Code's CSS variables, read again when the theme changes.

/** The colours in force; chart options read it through functions, so a theme change is one update. */
let palette: Palette | undefined;
const pal = (): Palette => (palette ??= readPalette());

function applyPalette(): void {
  palette = readPalette();
  Chart.defaults.color = palette.foreground;
  Chart.defaults.borderColor = palette.grid;
  Chart.defaults.font.family = palette.font;
  Chart.defaults.font.size = palette.fontSize;
  // Chart.js caches resolved plain-value options between updates; options given as functions
  // (below) are resolved again on every update, so the new colours take effect here.
  for (const chart of [hullChart, survivalChart, shotsChart]) {
    if (!chart) continue;
    restyle(chart);
    chart.update('none');
  }
}

// ---------------------------------------------------------------------------------------------
// Charts

/** Axis options in the current theme's colours; `restyle` applies a new theme to them. */
function themedAxis(title: string) {
  return {
    title: { display: true, text: title, color: pal().foreground },
    ticks: { color: pal().foreground },
    grid: { color: pal().grid },
    border: { color: pal().grid },
  };
}

/** Scale and legend options are re-read on update, so they are simply overwritten. */
function restyle(chart: Chart<'bar'> | Chart<'line'>): void {
  const p = pal();
  for (const scale of Object.values(chart.options.scales ?? {})) {
    if (!scale) continue;
    if (scale.ticks) scale.ticks.color = p.foreground;
    if (scale.grid) scale.grid.color = p.grid;
    if ('border' in scale && scale.border) scale.border.color = p.grid;
    if ('title' in scale && scale.title) scale.title.color = p.foreground;
  }
  const labels = chart.options.plugins?.legend?.labels;
  if (labels) labels.color = p.foreground;
}

const percentTick = (value: string | number): string => `${Number(value)}%`;

/**
 * The chart on `canvas` showing `datasets` over `labels`: made with `options` the first time; after
 * that only its labels and data change (its options, theme and size stay). The caller redraws it.
 */
function plot<T extends 'bar' | 'line'>(
  chart: Chart<T> | undefined,
  canvas: HTMLCanvasElement,
  type: T,
  labels: string[],
  datasets: ChartDataset<T, number[]>[],
  options: () => ChartOptions<T>,
): Chart<T> {
  if (!chart) return new Chart(canvas, { type, data: { labels, datasets }, options: options() });
  chart.data.labels = labels;
  datasets.forEach((d, i) => (chart.data.datasets[i]!.data = d.data));
  return chart;
}

/** The hull damage chart's options: bars without a legend, the chance as a percentage. */
function hullChartOptions(): ChartOptions<'bar'> {
  return {
    ...STILL_CHART,
    plugins: {
      legend: { display: false },
      tooltip: { callbacks: { label: (ctx) => `${formatPercent(Number(ctx.parsed.y) / 100)}` } },
    },
    scales: {
      x: { ...themedAxis('HP lost'), grid: { display: false } },
      y: { ...themedAxis('Chance'), beginAtZero: true, ticks: { callback: percentTick, color: pal().foreground } },
    },
  };
}

/** The survival chart's options: a line per unit with its legend below, the chance alive as a percentage. */
function survivalChartOptions(): ChartOptions<'line'> {
  return {
    ...STILL_CHART,
    plugins: {
      legend: { position: 'bottom', labels: { usePointStyle: true, boxWidth: 8, boxHeight: 8, color: pal().foreground } },
      tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label ?? ''}: ${formatPercent(Number(ctx.parsed.y) / 100)}` } },
    },
    scales: {
      x: themedAxis('After round'),
      y: { ...themedAxis('Chance alive'), min: 0, max: 100, ticks: { callback: percentTick, color: pal().foreground } },
    },
  };
}

function drawHullChart(result: SimulationResult): void {
  const { bars, binned } = distributionBars(result.volley.hullDamage);
  const labels = bars.map((b) => b.label);
  const data = bars.map((b) => b.p * 100);
  const datasets: ChartDataset<'bar', number[]>[] = [
    {
      label: 'Chance',
      data,
      backgroundColor: () => pal().bar,
      borderColor: () => (pal().highContrast ? pal().border : pal().bar),
      borderWidth: () => (pal().highContrast ? 1 : 0),
    },
  ];
  hullChart = plot(hullChart, ui.hullChart, 'bar', labels, datasets, hullChartOptions);
  const xScale = hullChart.options.scales?.['x'];
  if (xScale && 'title' in xScale && xScale.title) xScale.title.text = binned ? 'HP lost (grouped)' : 'HP lost';
  hullChart.update('none');
  const likeliest = [...bars].sort((x, y) => y.p - x.p)[0];
  ui.hullChart.setAttribute(
    'aria-label',
    `Bar chart of hull damage from one Fire action. Kill probability ${formatPercent(result.volley.killProbability)}.` +
      (likeliest ? ` Most likely outcome: ${likeliest.label} HP lost (${formatPercent(likeliest.p)}).` : '') +
      ' The same figures are in the table below.',
  );
  fillRows(
    ui.hullTable,
    result.volley.hullDamage.map((pt) => [String(pt.value), formatPercent(pt.p)]),
  );
  drawAtLeast(result);
}

/** Cumulative odds beside the histogram: the engine's list (the CLI prints the same), each row in player words. */
function drawAtLeast(result: SimulationResult): void {
  const rows = result.volley.hullDamageAtLeast ?? [];
  const box = document.getElementById(`${IDS.hullAtLeast}-box`);
  const table = document.getElementById(IDS.hullAtLeast) as HTMLTableElement | null;
  const note = document.getElementById(IDS.hullAtLeastNote);
  if (!box || !table) return;
  box.hidden = rows.length === 0;
  fillRows(
    table,
    rows.map((pt) => [`${pt.value} HP`, formatPercent(pt.p)]),
  );
  if (note) {
    note.hidden = rows.length === 0;
    note.textContent =
      'Chance of at least N HP: the chances of every outcome of N or more HP lost, added up from the same distribution as the chart ' +
      `(${result.volley.method === 'exact' ? 'exact' : "sampled, with the volley's sampling error"}); the first row is the chance of any hull damage at all.`;
  }
}

function drawSurvivalChart(result: SimulationResult): void {
  const survival = [...result.engagement.survival].sort((x, y) => x.round - y.round);
  // Both units are alive before the first round; drawing that point makes the first drop visible.
  if (survival.length === 0 || survival[0]!.round !== 0) survival.unshift({ round: 0, attacker: 1, defender: 1 });
  const labels = survival.map((s) => String(s.round));
  const attacker = survival.map((s) => s.attacker * 100);
  const defender = survival.map((s) => s.defender * 100);
  // Line styles differ as well as colours, so the two lines are told apart without colour.
  const datasets: ChartDataset<'line', number[]>[] = [
    {
      label: 'Attacker alive',
      data: attacker,
      pointStyle: 'circle',
      pointRadius: 3,
      borderWidth: 2,
      borderColor: () => pal().attacker,
      backgroundColor: () => pal().attacker,
    },
    {
      label: 'Defender alive',
      data: defender,
      pointStyle: 'rect',
      pointRadius: 3,
      borderWidth: 2,
      borderDash: [6, 4],
      borderColor: () => pal().defender,
      backgroundColor: () => pal().defender,
    },
  ];
  survivalChart = plot(survivalChart, ui.survivalChart, 'line', labels, datasets, survivalChartOptions);
  survivalChart.update('none');
  const last = survival[survival.length - 1]!;
  ui.survivalChart.setAttribute(
    'aria-label',
    `Line chart of survival by round. After round ${last.round}: attacker alive ${formatPercent(last.attacker)}, defender alive ${formatPercent(last.defender)}. The same figures are in the table below.`,
  );
  fillRows(
    ui.survivalTable,
    result.engagement.survival.map((s) => [String(s.round), formatPercent(s.attacker), formatPercent(s.defender)]),
  );
}

/** The shots-to-kill chart's options: one line, no legend, the chance destroyed as a percentage. */
function shotsChartOptions(): ChartOptions<'line'> {
  return {
    ...STILL_CHART,
    plugins: {
      legend: { display: false },
      tooltip: {
        callbacks: {
          title: (items) => `Within ${items[0]?.label ?? ''} Fire action${items[0]?.label === '1' ? '' : 's'}`,
          label: (ctx) => `Destroyed: ${formatPercent(Number(ctx.parsed.y) / 100)}`,
        },
      },
    },
    scales: {
      x: themedAxis('Fire actions'),
      y: { ...themedAxis('Chance destroyed'), min: 0, max: 100, ticks: { callback: percentTick, color: pal().foreground } },
    },
  };
}

/** The points the chart draws: every Fire action up to where 99.9% is reached (as the rows), at most this many. */
const SHOTS_CHART_POINTS = 120;

/**
 * Shots to kill: a sentence, the cumulative chart and the rows "destroyed within N Fire actions"
 * (the CLI's rows, `shotsToKillRows`, written by the one rounding rule). Hidden when the result has
 * none (an older server).
 */
function drawShots(result: SimulationResult): void {
  const s = result.shotsToKill;
  const section = document.getElementById(IDS.shotsSection);
  const sentence = document.getElementById(IDS.shotsSentence);
  const note = document.getElementById(IDS.shotsNote);
  if (!section || !sentence || !note) return;
  section.hidden = s === undefined;
  note.hidden = true;
  if (!s) return;
  const chartBox = ui.shotsChart.closest('figure');
  const rows = shotsToKillRows(s);
  if (s.mean === null) {
    setText(
      sentence,
      s.note ? `Not worked out: ${s.note}` : `${result.attacker} can never destroy ${result.defender} by firing alone: no weapon that reaches it can hurt it.`,
    );
    if (chartBox) chartBox.hidden = true;
    fillRows(ui.shotsTable, []);
    return;
  }
  const within = (n: number | null) => (n === null ? `more than ${formatCount(s.cdf.length)}` : formatCount(n));
  setText(
    sentence,
    `Firing again and again while ${result.defender} does nothing, ${result.attacker} destroys it in ${formatNumber(s.mean)} Fire actions on average: ` +
      `half the time within ${within(s.p50)}, 9 times in 10 within ${within(s.p90)}.`,
  );
  if (chartBox) chartBox.hidden = false;
  // Up to the last row (99.9% destroyed, or the last computed), thinned evenly past SHOTS_CHART_POINTS.
  const lastActions = rows[rows.length - 1]?.actions ?? s.cdf.length;
  const step = Math.ceil(lastActions / SHOTS_CHART_POINTS);
  const points: { actions: number; p: number }[] = [];
  for (let n = 1; n <= lastActions; n++) if ((n - 1) % step === 0 || n === lastActions) points.push({ actions: n, p: s.cdf[n - 1]! });
  const datasets: ChartDataset<'line', number[]>[] = [
    {
      label: 'Destroyed within',
      data: points.map((pt) => pt.p * 100),
      pointStyle: 'circle',
      pointRadius: points.length > 30 ? 0 : 3,
      borderWidth: 2,
      stepped: 'before',
      borderColor: () => pal().defender,
      backgroundColor: () => pal().defender,
    },
  ];
  shotsChart = plot(
    shotsChart,
    ui.shotsChart,
    'line',
    points.map((pt) => String(pt.actions)),
    datasets,
    shotsChartOptions,
  );
  const line = shotsChart.data.datasets[0];
  if (line) line.pointRadius = points.length > 30 ? 0 : 3;
  shotsChart.update('none');
  ui.shotsChart.setAttribute(
    'aria-label',
    `Line chart of the chance ${result.defender} is destroyed within each number of Fire actions: ` +
      `${formatPercent(s.cdf[0] ?? 0)} within 1, ${formatPercent(s.cdf[lastActions - 1] ?? 0)} within ${lastActions}. The same figures are in the table below.`,
  );
  fillRows(
    ui.shotsTable,
    rows.map((r) => [`${formatCount(r.actions)} Fire action${r.actions === 1 ? '' : 's'}`, formatPercent(r.p)]),
  );
  if (s.note) {
    note.hidden = false;
    setText(note, `Shots to kill: ${s.note}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Text and tables (textContent only)

function fillRows(table: HTMLTableElement, rows: readonly (readonly string[])[]): void {
  const body = table.tBodies[0] ?? table.createTBody();
  body.replaceChildren(
    ...rows.map((cells) => {
      const tr = document.createElement('tr');
      cells.forEach((text, i) => {
        const cell = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) cell.scope = 'row';
        cell.textContent = text;
        tr.append(cell);
      });
      return tr;
    }),
  );
}

function setText(node: HTMLElement, text: string): void {
  node.textContent = text;
}

type Estimates = NonNullable<ViewState['estimates']>;

/** What sits beside a card's points: "worth about 537 (far too cheap)", or why there is no estimate. */
function estimateWords(e: CardEstimate): string {
  if (e.estimate === undefined) return 'no estimate';
  return `worth about ${formatCount(e.estimate)}${e.verdict ? ` (${e.verdict})` : ''}`;
}

/** The tooltip of a card's estimate: the figures behind the words. */
function estimateTooltip(e: CardEstimate): string {
  if (e.estimate === undefined) return `No points estimate${e.reason ? `: ${e.reason}` : '.'}`;
  const ratio = e.ratio !== undefined ? ` Printed points ÷ estimate = ${formatNumber(e.ratio)}.` : '';
  const spread = e.spreadPct !== undefined ? ` The estimate is usually within ±${formatCount(e.spreadPct)}% of a fair price.` : '';
  const verdict = e.verdict ? ' The printed points are more than twice that far from it.' : '';
  return `Estimated from the card's firepower and durability against a field of reference cards.${ratio}${spread}${verdict}`;
}

/** Under Advanced: both estimates with their ratio and the estimate's own typical error. */
function renderEstimateDetail(names: { attacker: string; defender: string } | undefined, estimates: Estimates | undefined): void {
  ui.estimateDetail.hidden = estimates === undefined;
  if (!estimates) return setText(ui.estimateDetail, '');
  const one = (name: string, e: CardEstimate): string => {
    const printed = e.points !== undefined ? `${formatCount(e.points)} pts printed` : 'points unknown';
    if (e.estimate === undefined) return `${name}: ${printed}, no estimate${e.reason ? ` (${e.reason.replace(/\.$/, '')})` : ''}`;
    const ratio = e.ratio !== undefined ? `, ratio ${formatNumber(e.ratio)}` : '';
    return `${name}: ${printed}, estimated ${formatCount(e.estimate)}${ratio}${e.verdict ? `, ${e.verdict}` : ''}`;
  };
  const spread = estimates.attacker.spreadPct ?? estimates.defender.spreadPct;
  setText(
    ui.estimateDetail,
    `Points estimate: ${one(names?.attacker ?? 'Attacker', estimates.attacker)}; ${one(names?.defender ?? 'Defender', estimates.defender)}. ` +
      'Ratio = printed points ÷ estimate' +
      (spread !== undefined ? `; the estimate's typical error is ±${formatCount(spread)}% (its leave-one-out spread over the reference field)` : '') +
      '; "far too cheap" or "far too dear" when the points are more than twice that from it.',
  );
}

/** The cards' lines with their points and estimates, and the estimates' detail under Advanced. */
function renderCosts(): void {
  renderUnits(state.units, state.estimates);
  renderEstimateDetail(state.result ? { attacker: state.result.attacker, defender: state.result.defender } : undefined, state.estimates);
}

/**
 * The two cards' lines under the title, with each card's points and its points estimate beside them.
 * Shown once the host has sent the cards or an estimate; the points slot stays hidden when neither
 * the points nor an estimate is known.
 */
function renderUnits(units: { attacker: UnitFacts; defender: UnitFacts } | undefined, estimates: Estimates | undefined): void {
  ui.unitLines.hidden = units === undefined && estimates === undefined;
  const sides = [
    [units?.attacker, estimates?.attacker, ui.attackerFacts, ui.attackerPoints],
    [units?.defender, estimates?.defender, ui.defenderFacts, ui.defenderPoints],
  ] as const;
  for (const [facts, estimate, line, points] of sides) {
    const parts = [facts?.faction, facts?.class].filter((x): x is string => !!x && x.trim() !== '');
    const children: (Node | string)[] = [parts.join(' · ')];
    if (facts?.example) {
      const tag = document.createElement('span');
      tag.className = 'tag example';
      tag.textContent = 'Example card';
      tag.title = 'One of the example cards that ship with Fabled Star Tools, not a card of your workspace.';
      children.push(' ', tag);
    }
    line.replaceChildren(...children);
    const printed = facts?.points ?? estimate?.points;
    const slot: (Node | string)[] = [];
    if (printed !== undefined) slot.push(`${formatCount(printed)} pts`);
    if (estimate) {
      const worth = document.createElement('span');
      worth.className = estimate.verdict ? 'estimate off' : 'estimate';
      worth.textContent = estimateWords(estimate);
      worth.title = estimateTooltip(estimate);
      if (slot.length) slot.push(' · ');
      slot.push(worth);
    }
    points.replaceChildren(...slot);
    points.hidden = slot.length === 0;
  }
}

function methodLabel(result: SimulationResult): string {
  const v = result.volley;
  const e = result.engagement;
  const volley =
    v.method === 'exact'
      ? 'volley exact (computed from the dice distributions)'
      : `volley sampled (${formatCount(v.trials ?? 0)} trials, seed ${v.seed ?? '?'})`;
  const engagement =
    e.method === 'exact'
      ? 'engagement exact'
      : `engagement sampled (${formatCount(e.trials)} trials, seed ${e.seed}${e.exact ? ', checked by an exact computation' : ''})`;
  return `Method: ${volley}; ${engagement}.`;
}

function renderWeapons(result: SimulationResult): void {
  const body = ui.weapons.tBodies[0]!;
  body.replaceChildren(
    ...result.volley.weapons.map((w) => {
      const tr = document.createElement('tr');
      if (!w.inRange) tr.className = 'out-of-range';
      const name = document.createElement('th');
      name.scope = 'row';
      name.textContent = w.name;
      if (w.aimed) {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = 'aimed';
        name.append(' ', tag);
      }
      tr.append(name);
      const cells = [
        w.type,
        w.inRange ? 'yes' : 'out of range',
        formatCount(w.attacks),
        formatNumber(w.expectedHits),
        formatNumber(w.expectedCrits),
        formatNumber(w.expectedShieldsRemoved),
        formatNumber(w.expectedHullDamage),
      ];
      for (const text of cells) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }),
  );
}

function renderResult(result: SimulationResult): void {
  const v = result.volley;
  const e = result.engagement;
  setText(ui.attacker, result.attacker);
  setText(ui.defender, result.defender);
  document.title = `Engagement: ${result.attacker} vs ${result.defender}`;
  setText(ui.method, methodLabel(result));
  ui.method.dataset['volley'] = v.method;
  ui.method.dataset['engagement'] = e.method;
  setText(ui.verdict, verdict(result));
  ui.verdict.hidden = false;
  setText(ui.volleySentence, volleySentence(result));
  // Nothing happening is not dressed up as a big result: muted figures, no chart of a single bar.
  ui.results.classList.toggle('quiet', nothingHappens(result));
  ui.volleySection.classList.toggle('nothing', volleyDoesNothing(result));
  ui.duelSection.classList.toggle('nothing', result.engagement.attackerWins === 0 && result.engagement.defenderWins === 0);

  setText(ui.kill, formatPercent(v.killProbability));
  setText(ui.hull, `${formatNumber(v.expectedHullDamage)} HP`);
  setText(ui.shieldsStripped, `${formatNumber(v.expectedShieldsRemoved)} SH`);
  setText(ui.bases, formatNumber(v.expectedBasesDestroyed));
  if (v.method === 'sampled' && v.standardError) {
    const se = v.standardError;
    setText(
      ui.volleyError,
      `Fire action sampled: kill chance ${formatPercentError(se.killProbability)}, hull damage ± ${formatNumber(se.expectedHullDamage)} HP, shields ± ${formatNumber(se.expectedShieldsRemoved)} (one standard error).` +
        (v.note ? ` ${v.note}` : ''),
    );
    ui.volleyError.hidden = false;
  } else if (v.note) {
    setText(ui.volleyError, v.note);
    ui.volleyError.hidden = false;
  } else {
    ui.volleyError.hidden = true;
  }
  drawHullChart(result);
  drawShots(result);
  fillRows(
    ui.shieldsTable,
    v.shieldsRemoved.map((pt) => [String(pt.value), formatPercent(pt.p)]),
  );
  renderWeapons(result);

  setText(ui.attackerWins, formatPercent(e.attackerWins));
  setText(ui.defenderWins, formatPercent(e.defenderWins));
  setText(ui.neither, formatPercent(e.neither));
  setText(ui.meanRounds, formatNumber(e.meanRounds, 1));
  const [a, n, d] = Array.from(ui.outcomeBar.children) as HTMLElement[];
  // Widths through the CSSOM (allowed by the CSP, unlike style attributes in markup).
  a!.style.flexGrow = String(e.attackerWins);
  n!.style.flexGrow = String(e.neither);
  d!.style.flexGrow = String(e.defenderWins);
  setText(
    ui.engagementMeta,
    `Duel: up to ${formatCount(e.rounds)} rounds at ${formatNumber(e.range, 0)}", ${formatCount(e.trials)} trials, seed ${e.seed}. ` +
      (e.cutShort ? `Cut short: ${formatCount(e.trials)} of ${formatCount(e.requestedTrials ?? e.trials)} trials were played before the work limit. ` : '') +
      `Attacker wins ${formatPercent(e.attackerWins)} ${formatPercentError(e.standardError.attackerWins)}, defender wins ${formatPercent(e.defenderWins)} ${formatPercentError(e.standardError.defenderWins)}, ` +
      `neither ${formatPercent(e.neither)} ${formatPercentError(e.standardError.neither)} (± one standard error). The same seed and options give the same figures as \`fabled-star sim\`.`,
  );
  if (e.exact) {
    const x = e.exact;
    setText(
      ui.engagementExact,
      `Computed exactly as a check: attacker wins ${formatPercent(x.attackerWins)}, defender wins ${formatPercent(x.defenderWins)}, neither ${formatPercent(x.neither)}, mean rounds ${formatNumber(x.meanRounds, 1)}.`,
    );
    ui.engagementExact.hidden = false;
  } else {
    ui.engagementExact.hidden = true;
  }
  if (e.actions) {
    const words = (c: { aim: number; shields: number; brace: number }) =>
      `Aim ${formatNumber(c.aim)}, Shields Back Online ${formatNumber(c.shields)}, Brace ${formatNumber(c.brace)}`;
    setText(ui.actions, `Second actions per engagement, on average: attacker ${words(e.actions.attacker)}; defender ${words(e.actions.defender)}.`);
    ui.actions.hidden = false;
  } else {
    ui.actions.hidden = true;
  }
  fillRows(
    ui.roundsTable,
    (e.roundsTaken ?? []).map((pt) => [String(pt.value), formatPercent(pt.p)]),
  );
  ui.roundsDetails.hidden = !e.roundsTaken || e.roundsTaken.length === 0;
  drawSurvivalChart(result);
  renderVariants(result);

  const items = (texts: readonly string[]) =>
    texts.map((text) => {
      const li = document.createElement('li');
      li.textContent = text;
      return li;
    });
  ui.plainAssumptions.replaceChildren(...items(plainAssumptions(result)));
  ui.assumptions.replaceChildren(...items(result.assumptions.map(inFormWords)));
  setText(ui.policy, e.policy);

  ui.empty.hidden = true;
  ui.results.hidden = false;
}

/** The variants the duel was played with, beside the standard rules when they were compared. */
function renderVariants(result: SimulationResult): void {
  const e = result.engagement;
  const c = e.compare;
  const rows: CompareRow[] = c
    ? [
        { label: `${result.attacker} wins`, variant: e.attackerWins, standard: c.standard.attackerWins, kind: 'chance' },
        { label: `${result.defender} wins`, variant: e.defenderWins, standard: c.standard.defenderWins, kind: 'chance' },
        {
          label: e.routed ? 'Neither destroyed (fled units were not)' : 'Both still in the fight',
          variant: e.neither,
          standard: c.standard.neither,
          kind: 'chance',
        },
        { label: 'Rounds played, on average', variant: e.meanRounds, standard: c.standard.meanRounds, kind: 'number' },
      ]
    : [];
  renderComparison(ui.variantSection, e.variantRules ?? [], c ? { summary: c.summary, trials: [e.trials, c.standard.trials] } : undefined, rows);
}

/** The rules a result was computed with, as the picker shows them. */
function resultRules(result: SimulationResult): RulesChoice {
  const names = playedRules(result.engagement);
  return { variants: names, compare: names.length === 0 || result.engagement.compare !== undefined };
}

/** Rules compared as the picker reads them: without variants, comparing means nothing. */
function rulesKey(r: RulesChoice | undefined): string {
  return r && r.variants.length ? `${choiceKey(r.variants)}|${r.compare}` : '';
}

// ---------------------------------------------------------------------------------------------
// Controls

/** The value the aim select posts for a weapon: its name, or its index when names repeat. */
function aimValues(result: SimulationResult): string[] {
  const names = result.volley.weapons.map((w) => w.name);
  return names.map((name, i) => (names.indexOf(name) === names.lastIndexOf(name) ? name : String(i)));
}

function setSelect(select: HTMLSelectElement, value: string, label: string): void {
  if (!Array.from(select.options).some((o) => o.value === value)) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    select.append(option);
  }
  select.value = value;
}

function fillForm(result: SimulationResult, options: EngagementOptions): void {
  const e = result.engagement;
  // No range in the options is "any range" (every weapon fires), not the duel's default distance.
  if (options.range === undefined) ui.range.value = ANY_RANGE;
  else setSelect(ui.range, String(options.range), `${options.range}" (not a band)`);

  const values = aimValues(result);
  ui.aim.replaceChildren(ui.aim.options[0] ?? document.createElement('option'));
  ui.aim.options[0]!.value = '';
  ui.aim.options[0]!.textContent = 'No weapon aimed';
  result.volley.weapons.forEach((w, i) => {
    const option = document.createElement('option');
    option.value = values[i]!;
    option.textContent = `${w.name} (${w.type})`;
    ui.aim.append(option);
  });
  const aim = options.aim ?? '';
  ui.aim.value = Array.from(ui.aim.options).some((o) => o.value === aim) ? aim : '';

  ui.cover.checked = options.cover ?? false;
  ui.brace.checked = options.brace ?? false;
  ui.shields.value = options.defenderShields === undefined ? '' : String(options.defenderShields);
  ui.rounds.value = String(options.rounds ?? e.rounds);
  // The "full" placeholder stands for the defender's maximum, which is what a result without a
  // shields option was computed with.
  ui.trials.value = String(options.trials ?? e.trials);
  ui.seed.value = String(options.seed ?? e.seed);
  for (const input of [ui.shields, ui.rounds, ui.trials, ui.seed]) input.removeAttribute('aria-invalid');
  // Unlocked first, so that the rounds asked for are what the field keeps under a variant's lock.
  lockRounds(ui.rounds, []);
  ui.rounds.value = String(options.rounds ?? e.rounds);
  picker.set(resultRules(result));
  lockRounds(ui.rounds, resultRules(result).variants);
}

/** Reads one whole-number field; `undefined` when empty and allowed to be, `null` when invalid. */
function readInt(input: HTMLInputElement, limits: { min: number; max: number }, optional: boolean, value = input.value): number | undefined | null {
  const raw = value.trim();
  if (raw === '' && optional) return undefined;
  const n = Number(raw);
  const ok = raw !== '' && Number.isInteger(n) && n >= limits.min && n <= limits.max;
  if (ok) input.removeAttribute('aria-invalid');
  else input.setAttribute('aria-invalid', 'true');
  return ok ? n : null;
}

function readForm(): { options?: EngagementOptions; rules?: RulesChoice; problem?: string } {
  const shields = readInt(ui.shields, RERUN_LIMITS.defenderShields, true);
  const rounds = readInt(ui.rounds, RERUN_LIMITS.rounds, false, roundsAsked(ui.rounds));
  const trials = readInt(ui.trials, RERUN_LIMITS.trials, false);
  const seed = readInt(ui.seed, RERUN_LIMITS.seed, false);
  const bad: string[] = [];
  const L = RERUN_LIMITS;
  if (shields === null) bad.push(`defender shields ${L.defenderShields.min}–${L.defenderShields.max} or empty for full`);
  if (rounds === null) bad.push(`rounds ${L.rounds.min}–${L.rounds.max}`);
  if (trials === null) bad.push(`trials ${L.trials.min}–${formatCount(L.trials.max)}`);
  if (seed === null) bad.push(`seed ${L.seed.min}–${L.seed.max}`);
  const picked = picker.read();
  // The picker says what is wrong right under its boxes: not said a second time above the form.
  if (picked.error) return {};
  if (bad.length > 0) {
    // A bad trials or seed value would be out of sight in the closed section: show it.
    if (trials === null || seed === null) ui.advancedOptions.open = true;
    return { problem: `Use whole numbers: ${bad.join('; ')}.` };
  }
  const options: EngagementOptions = {
    cover: ui.cover.checked,
    brace: ui.brace.checked,
    rounds: rounds as number,
    trials: trials as number,
    seed: seed as number,
  };
  if (ui.range.value !== ANY_RANGE) options.range = Number(ui.range.value);
  if (ui.aim.value !== '') options.aim = ui.aim.value;
  // Bases left have no control here; a rerun keeps what the shown result was computed with.
  const shown = state.result?.options;
  if (shown?.attackerBases !== undefined) options.attackerBases = shown.attackerBases;
  if (shown?.defenderBases !== undefined) options.defenderBases = shown.defenderBases;
  if (typeof shields === 'number') options.defenderShields = shields;
  return { options, ...(picked.choice ? { rules: picked.choice } : {}) };
}

function showError(message: string | undefined): void {
  if (message === undefined) {
    ui.error.hidden = true;
    ui.error.textContent = '';
  } else {
    ui.error.textContent = message;
    ui.error.hidden = false;
  }
}

function setBusy(value: boolean): void {
  busy = value;
  ui.app.setAttribute('aria-busy', String(value));
  // aria-disabled rather than disabled: a disabled button would drop keyboard focus.
  ui.run.setAttribute('aria-disabled', String(value));
  if (value) setText(ui.status, 'Computing…');
}

/** How long the view waits after the last edit before it asks for new figures. */
const rerun = new RerunTimer();
/** The user changed an option since the last run was asked for. */
let dirty = state.draft !== undefined;

/** Options compared as the form reads them: missing booleans are false, keys in a fixed order. */
function optionsKey(o: EngagementOptions | undefined): string | undefined {
  if (!o) return undefined;
  return JSON.stringify([
    o.range ?? null,
    o.cover === true,
    o.aim ?? null,
    o.brace === true,
    o.defenderShields ?? null,
    o.attackerBases ?? null,
    o.defenderBases ?? null,
    o.rounds ?? null,
    o.trials ?? null,
    o.seed ?? null,
  ]);
}

/**
 * Marks the figures stale when the form no longer shows the options they were computed with, so
 * that old figures never sit under new options looking current.
 */
function updateFreshness(failed = false): void {
  const result = state.result;
  if (!result) return stale.show(undefined);
  const { options, rules } = readForm();
  const old = optionsKey(options) !== optionsKey(result.options) || rulesKey(rules) !== rulesKey(resultRules(result));
  if (!old) return stale.show(undefined);
  stale.show(
    failed
      ? 'The figures below are still for the previous options: the new ones could not be computed (see the message above).'
      : options
        ? 'Options changed: the figures below are still for the previous options. New figures follow in a moment.'
        : 'Options changed: the figures below are still for the previous options. Fix the options above to see new figures.',
  );
}

/** Asks the host for a run with the form's options. `auto` runs supersede one in flight. */
function requestRun(auto: boolean): void {
  rerun.cancel();
  if (busy && !auto) return;
  const { options, rules, problem } = readForm();
  if (!options) {
    showError(problem);
    updateFreshness();
    return;
  }
  const message = parseViewMessage({ type: 'rerun', options, ...(rules?.variants.length ? { rules } : {}) });
  if (!message) {
    showError('These options cannot be run.');
    return;
  }
  showError(undefined);
  dirty = false;
  state = { ...state, draft: undefined };
  saveState();
  setText(ui.status, 'Asked for new figures…');
  post(message);
}

function scheduleRun(): void {
  rerun.schedule(() => requestRun(true));
}

ui.form.addEventListener('submit', (event) => {
  event.preventDefault();
  requestRun(false);
});

function onEdit(): void {
  dirty = true;
  const { options, rules } = readForm();
  if (options) {
    state = { ...state, draft: options };
    saveState();
  }
  updateFreshness();
  if (stale.current !== undefined) setText(ui.status, '');
  // New figures for the new options, once the user stops typing; nothing to do if they match again.
  if (state.result && optionsKey(options) === optionsKey(state.result.options) && rulesKey(rules) === rulesKey(resultRules(state.result))) {
    rerun.cancel();
    dirty = false;
    showError(undefined);
    setText(ui.status, 'Figures up to date with the options.');
  } else {
    scheduleRun();
  }
}

// A variant that fixes the rounds (morale) locks the Rounds field, before the edit is read.
const syncRounds = () => lockRounds(ui.rounds, picker.read().choice?.variants);
ui.form.addEventListener('change', syncRounds);
ui.form.addEventListener('input', syncRounds);
ui.form.addEventListener('change', onEdit);
ui.form.addEventListener('input', onEdit);

// ---------------------------------------------------------------------------------------------
// Messages from the host

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseHostMessage(event.data);
  if (!message) return; // Not ours or not in the agreed shape: ignore it, keep the view as it is.
  switch (message.type) {
    case 'busy':
      setBusy(true);
      break;
    case 'error':
      setBusy(false);
      setText(ui.status, '');
      showError(message.message);
      if (!state.result) setText(ui.empty, 'No result: the simulation could not be run (see the message above).');
      updateFreshness(true);
      break;
    case 'units':
      state = { ...state, units: { attacker: message.attacker, defender: message.defender } };
      saveState();
      renderCosts();
      // The heading before any result: never "Engagement:  vs " while the first run loads or fails.
      if (!state.result) {
        setText(ui.attacker, message.attacker.name);
        setText(ui.defender, message.defender.name);
        document.title = `Engagement: ${message.attacker.name} vs ${message.defender.name}`;
      }
      break;
    case 'result':
      setBusy(false);
      showError(undefined);
      state = { ...state, version: 1, result: message.result };
      // A result without estimates (an older server, or the estimate turned off) drops the old ones.
      if (message.estimates) state.estimates = message.estimates;
      else delete state.estimates;
      // The form shows what the figures were computed with, unless the user is changing it.
      if (!dirty) {
        state.draft = undefined;
        fillForm(message.result, message.result.options);
      }
      saveState();
      renderResult(message.result);
      renderCosts();
      updateFreshness();
      setText(ui.status, stale.current === undefined ? 'Figures up to date with the options.' : '');
      break;
  }
});

onThemeChange(applyPalette);

applyPalette();
renderCosts();
if (state.result) {
  fillForm(state.result, state.draft ?? state.result.options);
  renderResult(state.result);
  updateFreshness();
  // Edits made before a reload were not run yet: run them now.
  if (dirty) scheduleRun();
}
post({ type: 'ready' });
