/**
 * The engagement view: draws a SimulationResult ("Engagement: A vs B") and sends the user's
 * re-run requests to the extension host. It runs inside the webview and talks only through
 * postMessage. Everything that came from the user's files (unit and weapon names, assumptions)
 * goes into the page with textContent; every message is checked by messages.ts before use, and a
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
  type ChartConfiguration,
} from 'chart.js';
import './style.css';
import { IDS } from './html';
import {
  parseHostMessage,
  parseSimulationResult,
  parseViewMessage,
  RERUN_LIMITS,
  type CardEstimate,
  type EngagementOptions,
  type SimulationResult,
  type ViewMessage,
} from './messages';
import { distributionBars, formatCount, formatNumber, formatPercent, formatPercentError } from './format';

// Only what the two charts use is registered, so esbuild leaves the rest of Chart.js out.
Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What survives a reload of the view (VS Code keeps it while the panel lives). */
interface ViewState {
  version: 1;
  result?: SimulationResult;
  /** Both cards' points estimates from the last run. */
  estimates?: { attacker: CardEstimate; defender: CardEstimate };
  /** Options the user has edited but not yet run. */
  draft?: EngagementOptions;
}

const vscode = acquireVsCodeApi();

function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`engagement view: missing #${id}`);
  return found as T;
}

const ui = {
  app: el('app'),
  attacker: el(IDS.attacker),
  defender: el(IDS.defender),
  method: el(IDS.method),
  estimates: el(IDS.estimates),
  status: el(IDS.status),
  error: el(IDS.error),
  empty: el(IDS.empty),
  results: el(IDS.results),
  form: el<HTMLFormElement>(IDS.form),
  range: el<HTMLSelectElement>(IDS.range),
  aim: el<HTMLSelectElement>(IDS.aim),
  cover: el<HTMLInputElement>(IDS.cover),
  brace: el<HTMLInputElement>(IDS.brace),
  shields: el<HTMLInputElement>(IDS.shields),
  rounds: el<HTMLInputElement>(IDS.rounds),
  trials: el<HTMLInputElement>(IDS.trials),
  seed: el<HTMLInputElement>(IDS.seed),
  run: el<HTMLButtonElement>(IDS.run),
  kill: el(IDS.kill),
  hull: el(IDS.hull),
  shieldsStripped: el(IDS.shieldsStripped),
  bases: el(IDS.bases),
  volleyError: el(IDS.volleyError),
  hullChart: el<HTMLCanvasElement>(IDS.hullChart),
  hullTable: el<HTMLTableElement>(IDS.hullTable),
  shieldsTable: el<HTMLTableElement>(IDS.shieldsTable),
  weapons: el<HTMLTableElement>(IDS.weapons),
  attackerWins: el(IDS.attackerWins),
  defenderWins: el(IDS.defenderWins),
  neither: el(IDS.neither),
  outcomeBar: el(IDS.outcomeBar),
  meanRounds: el(IDS.meanRounds),
  engagementMeta: el(IDS.engagementMeta),
  engagementExact: el(IDS.engagementExact),
  actions: el(IDS.actions),
  roundsTable: el<HTMLTableElement>(IDS.roundsTable),
  roundsDetails: el(`${IDS.roundsTable}-details`),
  survivalChart: el<HTMLCanvasElement>(IDS.survivalChart),
  survivalTable: el<HTMLTableElement>(IDS.survivalTable),
  assumptions: el(IDS.assumptions),
  policy: el(IDS.policy),
};

let state: ViewState = restoreState();
let busy = false;
let hullChart: Chart<'bar'> | undefined;
let survivalChart: Chart<'line'> | undefined;

// ---------------------------------------------------------------------------------------------
// State

function restoreState(): ViewState {
  const saved = vscode.getState() as Partial<ViewState> | undefined;
  // Saved state is checked like a message: it may come from an older version of this view.
  const result = saved && typeof saved === 'object' ? parseSimulationResult(saved.result) : undefined;
  const draftMessage = saved && typeof saved === 'object' ? parseViewMessage({ type: 'rerun', options: saved.draft }) : undefined;
  const draft = draftMessage?.type === 'rerun' ? draftMessage.options : undefined;
  const withEstimates = result && saved?.estimates ? parseHostMessage({ type: 'result', result: saved.result, estimates: saved.estimates }) : undefined;
  const estimates = withEstimates?.type === 'result' ? withEstimates.estimates : undefined;
  return { version: 1, result, draft, ...(estimates ? { estimates } : {}) };
}

function saveState(): void {
  vscode.setState(state);
}

function post(message: ViewMessage): void {
  vscode.postMessage(message);
}

// ---------------------------------------------------------------------------------------------
// Theme: every colour comes from VS Code's CSS variables, read again when the theme changes.

interface Palette {
  foreground: string;
  muted: string;
  grid: string;
  attacker: string;
  defender: string;
  bar: string;
  border: string;
  font: string;
  fontSize: number;
  highContrast: boolean;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const value = style.getPropertyValue(name).trim();
  return value || fallback;
}

function readPalette(): Palette {
  const style = getComputedStyle(document.body);
  const foreground = cssVar(style, '--vscode-charts-foreground', cssVar(style, '--vscode-editor-foreground', style.color));
  const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    foreground,
    muted: cssVar(style, '--vscode-descriptionForeground', foreground),
    grid: cssVar(style, '--vscode-charts-lines', cssVar(style, '--vscode-panel-border', foreground)),
    attacker: cssVar(style, '--vscode-charts-blue', foreground),
    defender: cssVar(style, '--vscode-charts-red', foreground),
    bar: cssVar(style, '--vscode-charts-blue', foreground),
    border: cssVar(style, '--vscode-contrastBorder', 'transparent'),
    font: cssVar(style, '--vscode-font-family', style.fontFamily),
    fontSize: Number.parseFloat(cssVar(style, '--vscode-font-size', style.fontSize)) || 13,
    highContrast,
  };
}

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
  for (const chart of [hullChart, survivalChart]) {
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

function drawHullChart(result: SimulationResult): void {
  const { bars, binned } = distributionBars(result.volley.hullDamage);
  const labels = bars.map((b) => b.label);
  const data = bars.map((b) => b.p * 100);
  if (!hullChart) {
    const config: ChartConfiguration<'bar'> = {
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            label: 'Chance',
            data,
            backgroundColor: () => pal().bar,
            borderColor: () => (pal().highContrast ? pal().border : pal().bar),
            borderWidth: () => (pal().highContrast ? 1 : 0),
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: (ctx) => `${formatPercent(Number(ctx.parsed.y) / 100)}` } },
        },
        scales: {
          x: { ...themedAxis('HP lost'), grid: { display: false } },
          y: { ...themedAxis('Chance'), beginAtZero: true, ticks: { callback: percentTick, color: pal().foreground } },
        },
      },
    };
    hullChart = new Chart(ui.hullChart, config);
  } else {
    hullChart.data.labels = labels;
    hullChart.data.datasets[0]!.data = data;
  }
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
}

function drawSurvivalChart(result: SimulationResult): void {
  const survival = [...result.engagement.survival].sort((x, y) => x.round - y.round);
  // Both units are alive before the first round; drawing that point makes the first drop visible.
  if (survival.length === 0 || survival[0]!.round !== 0) survival.unshift({ round: 0, attacker: 1, defender: 1 });
  const labels = survival.map((s) => String(s.round));
  const attacker = survival.map((s) => s.attacker * 100);
  const defender = survival.map((s) => s.defender * 100);
  if (!survivalChart) {
    const config: ChartConfiguration<'line'> = {
      type: 'line',
      data: {
        labels,
        datasets: [
          // Line styles differ as well as colours, so the two lines are told apart without colour.
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
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: {
          legend: { position: 'bottom', labels: { usePointStyle: true, boxWidth: 8, boxHeight: 8, color: pal().foreground } },
          tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label ?? ''}: ${formatPercent(Number(ctx.parsed.y) / 100)}` } },
        },
        scales: {
          x: themedAxis('After round'),
          y: { ...themedAxis('Chance alive'), min: 0, max: 100, ticks: { callback: percentTick, color: pal().foreground } },
        },
      },
    };
    survivalChart = new Chart(ui.survivalChart, config);
  } else {
    survivalChart.data.labels = labels;
    survivalChart.data.datasets[0]!.data = attacker;
    survivalChart.data.datasets[1]!.data = defender;
  }
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

/** One card's points and its estimate, in words ("190 pts, worth about 179"). */
function estimateWords(name: string, e: CardEstimate): string {
  const points = e.points !== undefined ? `${formatCount(e.points)} pts` : 'points unknown';
  if (e.estimate === undefined) return `${name}: ${points}, no estimate`;
  return `${name}: ${points}, worth about ${formatCount(e.estimate)}${e.verdict ? ` (${e.verdict})` : ''}`;
}

/** Both cards' points beside their estimates (text only: names come from the user's files). */
function renderEstimates(result: SimulationResult, estimates: ViewState['estimates']): void {
  ui.estimates.hidden = estimates === undefined;
  if (!estimates) return setText(ui.estimates, '');
  const spread = estimates.attacker.spreadPct ?? estimates.defender.spreadPct;
  setText(
    ui.estimates,
    `Points estimate: ${estimateWords(result.attacker, estimates.attacker)} · ${estimateWords(result.defender, estimates.defender)}` +
      (spread !== undefined ? ` (typical error ±${formatCount(spread)}%)` : ''),
  );
}

/** A chance with its standard error on a second, smaller line. */
function setOdds(node: HTMLElement, p: number, se: number): void {
  const value = document.createElement('span');
  value.className = 'value';
  value.textContent = formatPercent(p);
  const error = document.createElement('span');
  error.className = 'se';
  error.textContent = formatPercentError(se);
  error.title = 'one standard error';
  node.replaceChildren(value, ' ', error);
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

  setText(ui.kill, formatPercent(v.killProbability));
  setText(ui.hull, `${formatNumber(v.expectedHullDamage)} HP`);
  setText(ui.shieldsStripped, `${formatNumber(v.expectedShieldsRemoved)} SH`);
  setText(ui.bases, formatNumber(v.expectedBasesDestroyed));
  if (v.method === 'sampled' && v.standardError) {
    const se = v.standardError;
    setText(
      ui.volleyError,
      `Sampled: kill probability ${formatPercentError(se.killProbability)}, hull damage ± ${formatNumber(se.expectedHullDamage)} HP, shields ± ${formatNumber(se.expectedShieldsRemoved)} (standard errors).` +
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
  fillRows(
    ui.shieldsTable,
    v.shieldsRemoved.map((pt) => [String(pt.value), formatPercent(pt.p)]),
  );
  renderWeapons(result);

  setOdds(ui.attackerWins, e.attackerWins, e.standardError.attackerWins);
  setOdds(ui.defenderWins, e.defenderWins, e.standardError.defenderWins);
  setOdds(ui.neither, e.neither, e.standardError.neither);
  setText(ui.meanRounds, formatNumber(e.meanRounds, 1));
  const [a, n, d] = Array.from(ui.outcomeBar.children) as HTMLElement[];
  // Widths through the CSSOM (allowed by the CSP, unlike style attributes in markup).
  a!.style.flexGrow = String(e.attackerWins);
  n!.style.flexGrow = String(e.neither);
  d!.style.flexGrow = String(e.defenderWins);
  setText(
    ui.engagementMeta,
    `Up to ${formatCount(e.rounds)} rounds at ${formatNumber(e.range, 0)}", ${formatCount(e.trials)} trials, seed ${e.seed}. ± is one standard error.`,
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

  ui.assumptions.replaceChildren(
    ...result.assumptions.map((text) => {
      const li = document.createElement('li');
      li.textContent = text;
      return li;
    }),
  );
  setText(ui.policy, e.policy);

  ui.empty.hidden = true;
  ui.results.hidden = false;
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
  const range = options.range ?? e.range;
  setSelect(ui.range, String(range), `${range}" (not a band)`);

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
  ui.trials.value = String(options.trials ?? e.trials);
  ui.seed.value = String(options.seed ?? e.seed);
  for (const input of [ui.shields, ui.rounds, ui.trials, ui.seed]) input.removeAttribute('aria-invalid');
}

/** Reads one whole-number field; `undefined` when empty and allowed to be, `null` when invalid. */
function readInt(input: HTMLInputElement, limits: { min: number; max: number }, optional: boolean): number | undefined | null {
  const raw = input.value.trim();
  if (raw === '' && optional) return undefined;
  const n = Number(raw);
  const ok = raw !== '' && Number.isInteger(n) && n >= limits.min && n <= limits.max;
  if (ok) input.removeAttribute('aria-invalid');
  else input.setAttribute('aria-invalid', 'true');
  return ok ? n : null;
}

function readForm(): { options?: EngagementOptions; problem?: string } {
  const shields = readInt(ui.shields, RERUN_LIMITS.defenderShields, true);
  const rounds = readInt(ui.rounds, RERUN_LIMITS.rounds, false);
  const trials = readInt(ui.trials, RERUN_LIMITS.trials, false);
  const seed = readInt(ui.seed, RERUN_LIMITS.seed, false);
  const bad: string[] = [];
  const L = RERUN_LIMITS;
  if (shields === null) bad.push(`defender shields ${L.defenderShields.min}–${L.defenderShields.max} or empty for full`);
  if (rounds === null) bad.push(`rounds ${L.rounds.min}–${L.rounds.max}`);
  if (trials === null) bad.push(`trials ${L.trials.min}–${formatCount(L.trials.max)}`);
  if (seed === null) bad.push(`seed ${L.seed.min}–${L.seed.max}`);
  if (bad.length > 0) return { problem: `Use whole numbers: ${bad.join('; ')}.` };
  const options: EngagementOptions = {
    range: Number(ui.range.value),
    cover: ui.cover.checked,
    brace: ui.brace.checked,
    rounds: rounds as number,
    trials: trials as number,
    seed: seed as number,
  };
  if (ui.aim.value !== '') options.aim = ui.aim.value;
  // Bases left have no control here; a rerun keeps what the shown result was computed with.
  const shown = state.result?.options;
  if (shown?.attackerBases !== undefined) options.attackerBases = shown.attackerBases;
  if (shown?.defenderBases !== undefined) options.defenderBases = shown.defenderBases;
  if (typeof shields === 'number') options.defenderShields = shields;
  return { options };
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

ui.form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (busy) return;
  const { options, problem } = readForm();
  if (!options) {
    showError(problem);
    return;
  }
  const message = parseViewMessage({ type: 'rerun', options });
  if (!message) {
    showError('These options cannot be run.');
    return;
  }
  showError(undefined);
  setText(ui.status, 'Asked for a new run…');
  post(message);
});

ui.form.addEventListener('change', () => {
  const { options } = readForm();
  if (options) {
    state = { ...state, draft: options };
    saveState();
  }
});

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
      break;
    case 'result':
      setBusy(false);
      showError(undefined);
      state = { version: 1, result: message.result, ...(message.estimates ? { estimates: message.estimates } : {}) };
      saveState();
      fillForm(message.result, message.result.options);
      renderResult(message.result);
      renderEstimates(message.result, message.estimates);
      setText(ui.status, 'Results updated.');
      break;
  }
});

// VS Code swaps the body's theme class and the variables on <html> when the theme changes.
new MutationObserver(applyPalette).observe(document.body, { attributes: true, attributeFilter: ['class'] });
new MutationObserver(applyPalette).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });

applyPalette();
if (state.result) {
  fillForm(state.result, state.draft ?? state.result.options);
  renderResult(state.result);
  renderEstimates(state.result, state.estimates);
}
post({ type: 'ready' });
