/**
 * The fleet battle view: who wins and how often, the points each side destroys, each unit's chance
 * to survive each round (a chart per fleet, and the table behind it), what each unit did, and
 * controls to run it again. It talks to the host only through postMessage; every message is
 * checked with the shared parser, and every name from the user's files is set with textContent.
 * It keeps the last result with setState, so a reload shows it again at once.
 */
import { Chart, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js';
import '../style.css';
import './battle.css';
import { BATTLE_IDS as I } from './html';
import { BATTLE_LIMITS, parseBattleHostMessage, parseBattleResult, type BattleOptions, type BattleResult, type BattleViewMessage } from './messages';
import { formatPercent, formatPercentError } from '../format';
import { renderFleetComparison } from './fleetCompare';
import { fixedRounds, lockRounds, renderComparison, roundsAsked, variantPicker, type CompareRow } from '../variants';
import { choiceKey, playedRules } from '../variant-messages';
import { BATTLE_DEFAULTS, BATTLE_PRECISION, halfWidthWords, variantEffects } from '../../../protocol/simulation';
import { elements, vscodeApi, STILL_CHART } from '../dom';
import { onThemeChange, readPalette } from '../palette';
import { RerunTimer, StaleFigures } from '../rerun';

Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

const vscode = vscodeApi<BattleViewMessage>();

const ui = elements<
  typeof I,
  {
    progress: HTMLProgressElement;
    cancel: HTMLButtonElement;
    form: HTMLFormElement;
    mode: HTMLSelectElement;
    range: HTMLInputElement;
    rounds: HTMLInputElement;
    trials: HTMLInputElement;
    seed: HTMLInputElement;
    run: HTMLButtonElement;
    outcomeTable: HTMLTableElement;
    pointsTable: HTMLTableElement;
    actionsTable: HTMLTableElement;
  }
>(I);

const picker = variantPicker(ui.variants, 'battle');
/** The note over figures that are still the previous run's (their options, the fleets before an edit). */
const stale = new StaleFigures(ui.stale, [ui.results, ui.answers]);

let current: BattleResult | undefined;
/** What-if: the other version the fleet is played beside ("Saved version"); empty: none. */
let compareLabel = '';
/** The comparison is with a different fleet list, not a version of this one. */
let compareAnother = false;
let running = false;
/** The options of the last run this view asked for (undefined: the first run, which the host chose). */
let asked: BattleOptions | undefined;
/** Whether the message above the form is a refusal of the options (it goes once they are fixed). */
let refused = false;
/** The note over the figures when the options shown cannot be run (it goes once they are fixed). */
const FIX_OPTIONS = 'The figures below are still from the previous run: fix the options above to play a new one.';
const charts: Chart<'line'>[] = [];

function text(parent: HTMLElement, tag: string, content: string, className?: string): HTMLElement {
  const e = document.createElement(tag);
  e.textContent = content;
  if (className) e.className = className;
  parent.appendChild(e);
  return e;
}

function table(t: HTMLTableElement, head: string[], rows: string[][], caption: string): void {
  t.replaceChildren();
  text(t, 'caption', caption, 'visually-hidden');
  const thead = document.createElement('thead');
  const hr = document.createElement('tr');
  for (const h of head) text(hr, 'th', h).setAttribute('scope', 'col');
  thead.appendChild(hr);
  t.appendChild(thead);
  const body = document.createElement('tbody');
  for (const r of rows) {
    const tr = document.createElement('tr');
    r.forEach((cell, i) => {
      const c = text(tr, i === 0 ? 'th' : 'td', cell);
      if (i === 0) c.setAttribute('scope', 'row');
      // Its column's heading, for a table that stacks its rows in a narrow panel (battle.css).
      else c.dataset['label'] = head[i] ?? '';
    });
    body.appendChild(tr);
  }
  t.appendChild(body);
}

const unitLabel = (u: { name: string; copy: number }, all: { name: string }[]) =>
  all.filter((x) => x.name === u.name).length > 1 ? `${u.name} #${u.copy}` : u.name;
const fleetName = (s: { fleet: string }) => s.fleet || 'Unnamed fleet';
/** A unit's chance to have fled (routed, intact) by the end of round r, or undefined without routs. */
const fledBy = (u: { routed?: number[] }, r: number) => (u.routed ? (u.routed[r] ?? 0) : undefined);
const fledAtEnd = (u: { routed?: number[]; alive: number[] }) => fledBy(u, u.alive.length - 1);

/**
 * Says over the figures shown that they are still the previous run's (`note`: why), or clears that,
 * so that old figures never sit under options they were not played with looking current.
 */
function markStale(note: string | undefined): void {
  stale.show(current !== undefined ? note : undefined);
}

function showNames(fleet: string, vs: string): void {
  ui.fleet.textContent = fleet || 'Unnamed fleet';
  ui.vs.textContent = vs || 'Unnamed fleet';
  document.title = `Battle: ${ui.fleet.textContent} vs ${ui.vs.textContent}`;
}

/** What the work limit did to a run: trials ended at the limit of one battle, or fewer trials to match the run beside it. */
function cutShortText(r: BattleResult): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (r.cutTrials)
    return `Cut short: ${n(r.cutTrials)} of ${n(r.trials)} battles reached the work limit of one battle and were ended there, scored as they stood`;
  return `Cut short: ${n(r.trials)} of ${n(r.requestedTrials ?? r.trials)} battles were played, as many as the run beside this one`;
}

/** The precision the host asks the server for (`BATTLE_PRECISION.view`), as the view says it: "\u00b11%". */
const SURE_TO = halfWidthWords(BATTLE_PRECISION.view);

/** The line under the Cancel button once a run is done: how many battles, and why that many. */
function doneText(r: BattleResult): string {
  if (r.cutShort) return `${cutShortText(r)}.`;
  const n = r.trials.toLocaleString('en-US');
  if (r.stopped === 'precision') return `Done: ${n} battles, enough to be sure to ${halfWidthWords(r.precision ?? BATTLE_PRECISION.view)} on every chance.`;
  if (r.stopped === 'cap') return `Done: ${n} battles, the most asked for: sure to ${halfWidthWords(r.precision ?? 0)}.`;
  return `Done: ${n} battles.`;
}

/** What "sure" means here, for the Advanced section: the players' figures come first, this is the detail. */
function howSureText(r: BattleResult, partial: boolean): string {
  const min = BATTLE_PRECISION.minTrials.toLocaleString('en-US');
  const rule =
    `The battles are played over and over with different dice, until another run of them would give every chance above ` +
    `(each side's win, its wiping out the other fleet, the draw) within ${SURE_TO} of these figures, 95 times in 100: ` +
    `${min} battles at least, at most the number under "Most battles to simulate". A close fight needs more battles than a lopsided one.`;
  if (partial || r.precision === undefined) return rule;
  return `${rule} This run: ${r.trials.toLocaleString('en-US')} battles, ${r.stopped === 'precision' ? 'sure' : 'stopped at the most asked for, sure'} to ${halfWidthWords(r.precision)}.`;
}

function render(r: BattleResult, partial: boolean): void {
  current = r;
  markStale(undefined);
  const [a, b] = r.sides;
  showNames(fleetName(a), fleetName(b));
  ui.method.textContent =
    `${r.trials.toLocaleString('en-US')} battles of up to ${r.rounds} rounds, ${r.mode === 'fixed' ? 'at a fixed range' : 'fleets entering from the table edges'}, seed ${r.seed}` +
    (partial ? ' (still running: figures sharpen as more battles are played)' : '') +
    (r.cutShort && !partial ? `. ${cutShortText(r)} (see the assumptions)` : '');
  ui.empty.hidden = true;
  ui.results.hidden = false;

  const { routs, victory } = variantEffects(r.variants);
  renderVerdict(r, routs, victory);
  renderOutcomes(r, victory);
  renderPoints(r, routs);
  drawSurvival(r);
  renderActions(r, routs);
  renderVariants(r, partial);
  renderFleetComparison(ui.fleetCompare, r, compareLabel, partial, compareAnother);
  ui.howSure.textContent = howSureText(r, partial);
  ui.policy.textContent = r.policy;
  ui.assumptions.replaceChildren();
  for (const x of r.assumptions) text(ui.assumptions, 'li', x);
  fillControls(r, partial);
  if (!partial) vscode.setState({ result: r });
}

/** Who wins, in a sentence, and the bar of the three outcomes. */
function renderVerdict(r: BattleResult, routs: boolean, victory: ReturnType<typeof variantEffects>['victory']): void {
  const [a, b] = r.sides;
  // Who wins: points victory is the headline; destroying the whole fleet is the decisive form. Under
  // morale the side with the higher morale wins by it, a figure of its own beside points victory; a
  // fleet that fled was not destroyed, and a Ram may destroy both fleets at once: the words say so.
  const lead = a.pointsVictory.p >= b.pointsVictory.p ? a : b;
  const moraleLead = (a.variantVictory?.p ?? 0) >= (b.variantVictory?.p ?? 0) ? a : b;
  const retreats = [a, b].filter((s) => (s.retreated?.p ?? 0) > 0).map((s) => `${fleetName(s)} retreats in ${formatPercent(s.retreated!.p)}`);
  ui.verdict.textContent =
    (victory && moraleLead.variantVictory ? `${fleetName(moraleLead)} ${victory} in ${formatPercent(moraleLead.variantVictory.p)} of battles; ` : '') +
    `${fleetName(lead)} comes out ahead in ${formatPercent(lead.pointsVictory.p)} of battles (more points ${routs ? 'destroyed or routed' : 'destroyed'} when the battle ends); ` +
    `${fleetName(a)} destroys the whole other fleet in ${formatPercent(a.annihilation.p)}, ${fleetName(b)} in ${formatPercent(b.annihilation.p)}` +
    (r.bothDestroyed.p > 0 ? `, and both fleets are destroyed at once (a Ram) in ${formatPercent(r.bothDestroyed.p)}` : '') +
    '.' +
    (routs ? ' Units that fled are off the table intact: not destroyed, but lost for points.' : '') +
    (retreats.length ? ` ${retreats.join(', ')} (the other side holds the field; points destroyed still decide the winner).` : '');
  ui.outcomeBar.replaceChildren();
  for (const [cls, p] of [
    ['a', a.pointsVictory.p],
    ['n', r.draw.p],
    ['d', b.pointsVictory.p],
  ] as const) {
    const s = document.createElement('span');
    s.className = cls;
    s.style.flexBasis = `${Math.max(0, Math.min(1, p)) * 100}%`;
    ui.outcomeBar.appendChild(s);
  }
  ui.outcomeBar.setAttribute(
    'aria-label',
    `${fleetName(a)} ahead ${formatPercent(a.pointsVictory.p)}, draw ${formatPercent(r.draw.p)}, ${fleetName(b)} ahead ${formatPercent(b.pointsVictory.p)}`,
  );
}

/** The chances of each outcome, with their errors, as a table. */
function renderOutcomes(r: BattleResult, victory: ReturnType<typeof variantEffects>['victory']): void {
  const [a, b] = r.sides;
  const own = victory !== undefined && a.variantVictory !== undefined && b.variantVictory !== undefined;
  // The error keeps to its sign ("± 0.90%", a no-break space) when a narrow panel wraps the cell after the figure.
  const cell = (c: { p: number; se: number } | undefined) => (c ? `${formatPercent(c.p)} ${formatPercentError(c.se).replace(' ', '\u00a0')}` : '');
  table(
    ui.outcomeTable,
    ['', 'Ahead on points', 'Destroys the whole other fleet', ...(own ? [victory[0]!.toUpperCase() + victory.slice(1)] : [])],
    [
      ...[a, b].map((s) => [fleetName(s), cell(s.pointsVictory), cell(s.annihilation), ...(own ? [cell(s.variantVictory)] : [])]),
      ['Draw on points', cell(r.draw), '', ...(own ? [''] : [])],
      ...(r.bothDestroyed.p > 0 ? [['Both fleets destroyed at once (a Ram)', '', cell(r.bothDestroyed), ...(own ? [''] : [])]] : []),
    ],
    'Chances of each outcome',
  );
  ui.meanRounds.textContent = `Battles last ${r.meanRounds.toFixed(1)} rounds on average.`;
}

/** The points each fleet destroys (or routs): on average, in a bad, typical and good battle. */
function renderPoints(r: BattleResult, routs: boolean): void {
  // Under variants that rout, a unit that fled is lost for points but not destroyed: the table says
  // "destroyed or routed" and gives each apart (each enemy unit's points times its chance to end so).
  const lost = (i: number, how: 'destroyed' | 'routed') =>
    r.sides[1 - i]!.units.reduce((t, u) => {
      const fled = fledAtEnd(u) ?? 0;
      const alive = u.alive[u.alive.length - 1] ?? 1;
      return t + u.points * (how === 'routed' ? fled : Math.max(0, 1 - alive - fled));
    }, 0);
  ui.pointsHeading.textContent = routs ? 'Points destroyed or routed' : 'Points destroyed';
  table(
    ui.pointsTable,
    [
      'Fleet',
      routs ? 'Destroys or routs on average' : 'Destroys on average',
      ...(routs ? ['Of which destroyed', 'Of which routed'] : []),
      'In a bad battle (1 in 10)',
      'Typical',
      'In a good battle (1 in 10)',
      'Out of',
    ],
    r.sides.map((s, i) => [
      fleetName(s),
      s.pointsDestroyed.mean.toFixed(0),
      ...(routs ? [lost(i, 'destroyed').toFixed(0), lost(i, 'routed').toFixed(0)] : []),
      String(s.pointsDestroyed.p10),
      String(s.pointsDestroyed.p50),
      String(s.pointsDestroyed.p90),
      String(r.sides[1 - i]!.points),
    ]),
    routs ? 'Points destroyed or routed by each fleet' : 'Points destroyed by each fleet',
  );
  ui.pointsSteps.textContent = pointsSteps(r, routs);
}

/** What each unit did per battle. */
function renderActions(r: BattleResult, routs: boolean): void {
  table(
    ui.actionsTable,
    ['Unit', 'Fleet', 'Points', 'Fired', 'Boarded', 'Rammed', 'Alive at the end', ...(routs ? ['Fled (intact)', 'Destroyed'] : [])],
    r.sides.flatMap((s) =>
      s.units.map((u) => {
        const alive = u.alive[u.alive.length - 1] ?? 1;
        const fled = fledAtEnd(u) ?? 0;
        return [
          unitLabel(u, s.units),
          fleetName(s),
          String(u.points),
          u.fired.toFixed(2),
          u.boarded.toFixed(2),
          u.rammed.toFixed(2),
          formatPercent(alive),
          ...(routs ? [formatPercent(fled), formatPercent(Math.max(0, 1 - alive - fled))] : []),
        ];
      }),
    ),
    'What each unit did per battle',
  );
}

/**
 * Why two of a fleet's figures (bad, typical, good battle) are the same, when they are: points fall
 * a whole unit at a time, so many battles end on exactly the same points. Empty when none are.
 */
function pointsSteps(r: BattleResult, routs: boolean): string {
  const verb = routs ? 'destroys or routs' : 'destroys';
  const out: string[] = [];
  r.sides.forEach((s, i) => {
    const { p10, p50, p90 } = s.pointsDestroyed;
    const all = r.sides[1 - i]!.points;
    const name = fleetName(s);
    if (p50 === p90 && p90 === all && all > 0)
      out.push(`${name} ${verb} all ${all} points in at least half of the battles, so its typical and good battles are the same.`);
    else if (p10 === p90) out.push(`${name} ${verb} exactly ${p50} points in at least 8 battles in 10, so its bad, typical and good battles are the same.`);
    else if (p50 === p90)
      out.push(`${name} ${verb} exactly ${p50} points in at least 4 battles in 10 (from its typical to its good battles), so those two are the same.`);
    else if (p10 === p50)
      out.push(`${name} ${verb} exactly ${p50} points in at least 4 battles in 10 (from its bad to its typical battles), so those two are the same.`);
  });
  return out.length ? `Points fall a whole unit at a time, so many battles end on the same points. ${out.join(' ')}` : '';
}

/** The variants played, beside the standard rules when they were compared. */
function renderVariants(r: BattleResult, partial: boolean): void {
  const c = r.compare;
  const { routs } = variantEffects(r.variants);
  const rows: CompareRow[] = [];
  if (c) {
    r.sides.forEach((s, i) => {
      const o = c.standard.sides[i]!;
      rows.push({ label: `${fleetName(s)} comes out ahead`, variant: s.pointsVictory.p, standard: o.pointsVictory.p, kind: 'chance' });
      rows.push({ label: `${fleetName(s)} destroys the whole other fleet`, variant: s.annihilation.p, standard: o.annihilation.p, kind: 'chance' });
    });
    rows.push({ label: 'Draw on points', variant: r.draw.p, standard: c.standard.draw.p, kind: 'chance' });
    r.sides.forEach((s, i) =>
      rows.push({
        label: `Points ${fleetName(s)} ${routs ? 'destroys or routs' : 'destroys'}, on average`,
        variant: s.pointsDestroyed.mean,
        standard: c.standard.sides[i]!.pointsDestroyed.mean,
        kind: 'number',
      }),
    );
    rows.push({ label: 'Rounds a battle lasts, on average', variant: r.meanRounds, standard: c.standard.meanRounds, kind: 'number' });
  }
  renderComparison(
    ui.variantSection,
    r.variantRules ?? [],
    c ? { summary: c.summary, trials: [r.trials, c.standard.trials] } : undefined,
    rows,
    partial && asked?.compare === true,
  );
}

/** The units each chart shows (its tooltips read how many of them had fled). */
const shownUnits: BattleResult['sides'][number]['units'][] = [];

function drawSurvival(r: BattleResult): void {
  const pal = readPalette();
  const labels = Array.from({ length: r.rounds }, (_, i) => `Round ${i + 1}`);
  ui.survivalTables.replaceChildren();
  r.sides.forEach((s, i) => {
    shownUnits[i] = s.units;
    const routs = s.units.some((u) => u.routed !== undefined);
    const datasets = s.units.map((u, k) => ({
      label: unitLabel(u, s.units),
      data: u.alive.map((x) => x * 100),
      borderColor: pal.lines[k % pal.lines.length]!,
      backgroundColor: pal.lines[k % pal.lines.length]!,
      borderDash: k >= pal.lines.length ? [6, 3] : [],
      tension: 0,
    }));
    let chart = charts[i];
    if (!chart) {
      const fig = document.createElement('figure');
      fig.className = 'chart';
      const box = document.createElement('div');
      box.className = 'chart-box';
      const canvas = document.createElement('canvas');
      canvas.id = `survival-chart-${i}`;
      canvas.setAttribute('role', 'img');
      box.appendChild(canvas);
      fig.appendChild(box);
      text(fig, 'figcaption', '');
      ui.survivalCharts.appendChild(fig);
      const config: ChartConfiguration<'line'> = {
        type: 'line',
        data: { labels, datasets },
        options: {
          ...STILL_CHART,
          plugins: {
            // Below the chart, in rows: beside it, a long unit name was cut off in a half-width panel.
            legend: { position: 'bottom', labels: { color: pal.foreground, boxWidth: 12 } },
            tooltip: {
              callbacks: {
                label: (ctx) => {
                  const u = shownUnits[i]?.[ctx.datasetIndex];
                  const fled = u ? fledBy(u, ctx.dataIndex) : undefined;
                  return `${ctx.dataset.label}: ${formatPercent(Number(ctx.parsed.y) / 100)} alive${fled !== undefined ? `, ${formatPercent(fled)} fled` : ''}`;
                },
              },
            },
          },
          scales: {
            x: { ticks: { color: pal.foreground }, grid: { color: pal.grid } },
            y: {
              min: 0,
              max: 100,
              title: { display: true, text: 'Chance alive', color: pal.foreground },
              ticks: { color: pal.foreground, callback: (v) => `${Number(v)}%` },
              grid: { color: pal.grid },
            },
          },
        },
      };
      chart = new Chart(canvas, config);
      charts[i] = chart;
    } else {
      chart.data.labels = labels;
      chart.data.datasets = datasets;
      chart.update('none');
    }
    const fig = chart.canvas.closest('figure');
    const cap = fig?.querySelector('figcaption');
    if (cap)
      cap.textContent = routs
        ? `${fleetName(s)}: chance each unit is still on the table after each round (a unit that fled is not alive, but not destroyed: the table below says how often each fled)`
        : `${fleetName(s)}: chance each unit is still alive after each round`;
    const weakest = [...s.units].sort((x, y) => (x.alive[x.alive.length - 1] ?? 1) - (y.alive[y.alive.length - 1] ?? 1))[0];
    const weakFled = weakest ? fledAtEnd(weakest) : undefined;
    chart.canvas.setAttribute(
      'aria-label',
      `Line chart of ${fleetName(s)}'s units alive by round.` +
        (weakest
          ? ` Most often lost: ${unitLabel(weakest, s.units)} (${formatPercent(weakest.alive[weakest.alive.length - 1] ?? 1)} alive at the end` +
            (weakFled !== undefined ? `, ${formatPercent(weakFled)} fled intact).` : ').')
          : ''),
    );
    text(ui.survivalTables, 'h3', fleetName(s));
    const t = document.createElement('table');
    t.className = 'data';
    ui.survivalTables.appendChild(t);
    table(
      t,
      ['Unit', ...labels],
      s.units.map((u) => [
        unitLabel(u, s.units),
        ...u.alive.map((x, k) => {
          const fled = fledBy(u, k);
          return fled !== undefined ? `${formatPercent(x)} (fled ${formatPercent(fled)})` : formatPercent(x);
        }),
      ]),
      routs ? `${fleetName(s)}: chance alive after each round, and in brackets the chance it has fled` : `${fleetName(s)}: chance alive after each round`,
    );
  });
}

/**
 * The controls start from the first result's options; the number of battles only from a finished
 * one (a partial result has run fewer than were asked for). After that they are the user's.
 */
let filled = false;
function fillControls(r: BattleResult, partial: boolean): void {
  if (filled) return;
  filled = !partial;
  ui.mode.value = r.mode;
  ui.range.value = String(fixedRange(r) ?? 12);
  lockRounds(ui.rounds, []);
  // Under a variant that fixes the rounds the result says its 3: the field keeps the rounds asked for underneath.
  ui.rounds.value = String(fixedRounds(playedRules(r)) ? (asked?.rounds ?? BATTLE_DEFAULTS.rounds) : r.rounds);
  // The most battles asked for (a run until sure plays fewer), not the battles played.
  if (!partial) ui.trials.value = String(r.requestedTrials ?? r.trials);
  ui.seed.value = String(r.seed);
  picker.set({ variants: playedRules(r), compare: r.variants.length === 0 || r.compare !== undefined });
  lockRounds(ui.rounds, playedRules(r));
  syncRange();
}

/**
 * A first run that was refused (a fleet or the version compared with cannot fight) leaves no result
 * to fill the controls from: they show the options the run asked for (the host's defaults unless
 * the player chose others), so that Run again plays them once the list is fixed.
 */
function fillAsked(): void {
  if (filled || current) return;
  const o = asked;
  ui.mode.value = o?.range !== undefined ? 'fixed' : 'approach';
  ui.range.value = String(o?.range ?? 12);
  ui.rounds.value = String(o?.rounds ?? BATTLE_DEFAULTS.rounds);
  ui.trials.value = String(o?.trials ?? BATTLE_DEFAULTS.trials);
  ui.seed.value = String(o?.seed ?? BATTLE_DEFAULTS.seed);
  picker.set({ variants: o?.variants ?? [], compare: o?.compare ?? true });
  lockRounds(ui.rounds, o?.variants ?? []);
  syncRange();
}

/** The fixed range a result was played at, as its assumptions say it; undefined when the fleets approach. */
function fixedRange(r: BattleResult): number | undefined {
  const m = r.mode === 'fixed' ? /every unit stands (\d+(?:\.\d+)?)"/.exec(r.assumptions.join(' ')) : null;
  return m ? Number(m[1]) : undefined;
}

/** Options compared as the form reads them: keys in a fixed order, comparing means nothing without variants. */
function optionsKey(o: BattleOptions): string {
  const variants = o.variants ?? [];
  // A variant that fixes the rounds (morale) plays them whatever was asked: the result says 3.
  const rounds = fixedRounds(variants)?.rounds ?? o.rounds ?? null;
  return JSON.stringify([o.range ?? null, rounds, o.trials ?? null, o.seed ?? null, choiceKey(variants), variants.length > 0 && o.compare === true]);
}

/** The options a result was played with, as the form would read them. */
function resultOptions(r: BattleResult): BattleOptions {
  const range = fixedRange(r);
  const variants = playedRules(r);
  return {
    ...(range !== undefined ? { range } : {}),
    rounds: r.rounds,
    trials: r.requestedTrials ?? r.trials,
    seed: r.seed,
    ...(variants.length ? { variants, ...(r.compare ? { compare: true } : {}) } : {}),
  };
}

/** The note over figures played before an edit of a fleet (or of a card either uses); a run follows. */
const FLEETS_EDITED = 'A fleet changed since these figures: they are for the lists before the edit. New figures follow as the battles are played.';
/** The note over figures played before an edit after which a fleet cannot fight (the message above says why). */
const CANNOT_FIGHT =
  'A fleet changed since these figures and cannot fight as it stands now (see the message above): the figures below are for the lists before the edit.';

/** What the note over old figures says once the options above them changed. */
const OPTIONS_CHANGED = 'Options changed: the figures below are still for the previous options. New figures follow in a moment.';
/** How long the view waits after the last edit before it asks for new figures (as the engagement view does). */
const rerun = new RerunTimer();

/** Whether the form shows the options of the figures (or, while a run goes on, of the run asked for). */
function formMatchesFigures(options: BattleOptions): boolean {
  if (!current) return true;
  if (running) return asked !== undefined && optionsKey(options) === optionsKey(asked);
  return optionsKey(options) === optionsKey(resultOptions(current));
}

/**
 * After an edit of the options: when the form no longer shows what the figures were played with,
 * says so over them (the "Done" line goes) and plays the new options once the user stops typing;
 * when it matches again, the note goes and nothing runs.
 */
function onOptionsEdited(): void {
  if (!current || !filled) return;
  const { options } = readOptions();
  if (!options) {
    // Options that cannot run (the fields are marked): nothing is scheduled until they are fixed.
    rerun.cancel();
    markStale(FIX_OPTIONS);
    if (!running) ui.status.textContent = '';
    return;
  }
  if (formMatchesFigures(options)) {
    rerun.cancel();
    if (stale.current === OPTIONS_CHANGED) markStale(undefined);
    if (!running && stale.current === undefined) ui.status.textContent = 'Figures up to date with the options.';
    return;
  }
  markStale(OPTIONS_CHANGED);
  if (!running) ui.status.textContent = '';
  rerun.schedule(() => {
    const now = readOptions().options;
    if (!now || formMatchesFigures(now)) return;
    showRefusal(undefined);
    asked = now;
    vscode.postMessage({ type: 'rerun', options: now });
  });
}

function syncRange(): void {
  const fixed = ui.mode.value === 'fixed';
  ui.range.disabled = !fixed;
  ui.range.closest('.field')?.classList.toggle('inactive', !fixed);
}

/** How far a run is; with the standard rules beside the variants, both runs' battles are counted. */
function progressText(done: number, total: number): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const both = asked?.compare === true && (asked.variants?.length ?? 0) > 0;
  return both
    ? `${n(done)} of at most ${n(total)} battles played: with the rules above until every chance is sure to ${SURE_TO}, then as many under the standard rules`
    : `${n(done)} of at most ${n(total)} battles played, until every chance is sure to ${SURE_TO}`;
}

function setRunning(on: boolean, label = ''): void {
  running = on;
  document.getElementById('app')?.setAttribute('aria-busy', on ? 'true' : 'false');
  ui.cancel.hidden = !on;
  ui.progress.hidden = !on;
  ui.run.setAttribute('aria-disabled', on ? 'true' : 'false');
  ui.status.textContent = label;
}

/**
 * Reads the controls; marks values outside the bounds. `options` when they can be run; otherwise
 * `problem` says why above the form (undefined when the variant picker says it under its boxes).
 */
function readOptions(): { options?: BattleOptions; problem?: string } {
  const out: BattleOptions = {};
  let ok = true;
  const num = (input: HTMLInputElement, lim: { min: number; max: number }, integer: boolean): number | undefined => {
    const raw = (input === ui.rounds ? roundsAsked(input) : input.value).trim();
    const n = Number(raw);
    const bad = raw === '' || !Number.isFinite(n) || n < lim.min || n > lim.max || (integer && !Number.isInteger(n));
    input.setAttribute('aria-invalid', bad ? 'true' : 'false');
    if (bad) ok = false;
    return bad ? undefined : n;
  };
  if (ui.mode.value === 'fixed') out.range = num(ui.range, BATTLE_LIMITS.range, false);
  else ui.range.setAttribute('aria-invalid', 'false');
  out.rounds = num(ui.rounds, BATTLE_LIMITS.rounds, true);
  out.trials = num(ui.trials, BATTLE_LIMITS.trials, true);
  out.seed = num(ui.seed, BATTLE_LIMITS.seed, true);
  const rules = picker.read();
  // The picker says what is wrong right under its boxes: not said twice.
  if (rules.error) return { problem: undefined };
  if (rules.choice?.variants.length) {
    out.variants = rules.choice.variants;
    if (rules.choice.compare) out.compare = true;
  }
  if (!ok)
    return {
      problem: `Check the highlighted fields: rounds ${BATTLE_LIMITS.rounds.min}–${BATTLE_LIMITS.rounds.max}, battles ${BATTLE_LIMITS.trials.min}–${BATTLE_LIMITS.trials.max.toLocaleString('en-US')}, seed 0 or more, range 0–${BATTLE_LIMITS.range.max}.`,
    };
  return { options: out };
}

/** Shows (or clears) why the options cannot be run, above the form. */
function showRefusal(problem: string | undefined): void {
  refused = problem !== undefined;
  ui.error.hidden = !refused;
  ui.error.textContent = problem ?? '';
}

ui.mode.addEventListener('change', syncRange);
// A variant that fixes the rounds (morale) locks the Rounds field, before the edit is read.
const syncRounds = () => lockRounds(ui.rounds, picker.read().choice?.variants);
ui.form.addEventListener('change', syncRounds);
ui.form.addEventListener('input', syncRounds);
ui.form.addEventListener('submit', (e) => {
  e.preventDefault();
  if (running) return;
  const { options, problem } = readOptions();
  if (!options) {
    showRefusal(problem);
    markStale(FIX_OPTIONS);
    return;
  }
  rerun.cancel();
  markStale(undefined);
  showRefusal(undefined);
  asked = options;
  vscode.postMessage({ type: 'rerun', options });
});

// Once options that were refused are fixed, the refusal and its note go (nothing runs until Run again).
function recheck(): void {
  if (!refused && stale.current === undefined) return;
  const { options, problem } = readOptions();
  if (!options) {
    if (refused || problem !== undefined) showRefusal(problem);
    return;
  }
  if (refused) showRefusal(undefined);
  if (stale.current === FIX_OPTIONS) markStale(undefined);
}
ui.form.addEventListener('input', recheck);
ui.form.addEventListener('change', recheck);
ui.form.addEventListener('input', onOptionsEdited);
ui.form.addEventListener('change', onOptionsEdited);
ui.cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const m = parseBattleHostMessage(event.data);
  if (!m) return; // Not ours, or malformed: never acted on.
  switch (m.type) {
    case 'busy':
      showRefusal(undefined);
      ui.progress.value = 0;
      // A run after an edit of the fleets keeps saying why the figures shown are old.
      markStale(
        stale.current === FLEETS_EDITED ? FLEETS_EDITED : 'The figures below are still from the previous run: new ones follow as the battles are played.',
      );
      setRunning(true, 'Simulating the battle…');
      break;
    case 'progress': {
      // Never fewer played than the figures shown already count (both runs' battles when compared).
      const shown =
        current && running && stale.current === undefined
          ? current.trials + (current.compare?.standard.trials ?? 0) + (current.compareFleets?.result.trials ?? 0)
          : 0;
      const done = Math.min(m.total, Math.max(m.done, shown));
      ui.progress.value = m.total > 0 ? done / m.total : 0;
      if (running) ui.status.textContent = progressText(done, m.total);
      break;
    }
    case 'result':
      render(m.result, m.partial);
      if (!m.partial) {
        setRunning(false, doneText(m.result));
        // Options changed while it ran: these figures are not theirs (the new run is on its way).
        const now = readOptions().options;
        if (now && !formMatchesFigures(now)) {
          markStale(OPTIONS_CHANGED);
          ui.status.textContent = '';
        }
      }
      break;
    case 'cancelled':
      setRunning(false, current ? `Cancelled: showing the ${current.trials.toLocaleString('en-US')} battles played before.` : 'Cancelled.');
      break;
    case 'compareWith':
      compareLabel = m.label;
      compareAnother = !!m.another;
      if (current) renderFleetComparison(ui.fleetCompare, current, compareLabel, running, compareAnother);
      break;
    case 'fleetsEdited':
      markStale(FLEETS_EDITED);
      if (!running) ui.status.textContent = '';
      break;
    case 'cannotFight':
      // The host stopped any run that was playing the lists before the edit.
      setRunning(false, '');
      refused = false;
      ui.error.hidden = false;
      ui.error.textContent = m.message;
      markStale(CANNOT_FIGHT);
      break;
    case 'fleetsCurrent':
      // The edit was undone: the figures shown are the lists' again.
      if (stale.current === CANNOT_FIGHT) {
        markStale(undefined);
        ui.error.hidden = true;
        ui.error.textContent = '';
        if (!running) ui.status.textContent = 'Figures up to date with the fleets and the options.';
      }
      break;
    case 'fleets':
      // The heading before any result: never "Battle:  vs " while the first run loads or fails.
      if (!current) showNames(m.fleet, m.vs);
      break;
    case 'error':
      setRunning(false, '');
      refused = false;
      ui.error.hidden = false;
      ui.error.textContent = m.message;
      if (!current) {
        ui.empty.textContent = 'No result.';
        fillAsked();
      }
      markStale('The figures below are still from the previous run: the new one could not be played (see the message above).');
      break;
  }
});

// A theme change: redraw the charts in the new colours.
onThemeChange(() => {
  if (!current) return;
  for (const c of charts.splice(0)) c.destroy();
  ui.survivalCharts.replaceChildren();
  drawSurvival(current);
});

const saved = vscode.getState();
const restored = parseBattleResult(saved && typeof saved === 'object' && 'result' in saved ? saved.result : undefined);
if (restored) render(restored, false);
vscode.postMessage({ type: 'ready' });
