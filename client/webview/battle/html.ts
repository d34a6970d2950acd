/**
 * The fleet battle view's HTML page: its skeleton inside the frame every view shares (../frame.ts:
 * the Content-Security-Policy, the style sheet, the script by nonce). Every name and figure is
 * filled in later by the script with `textContent`.
 */
import { BATTLE_LIMITS } from './messages';
import { numberField, renderPage } from '../frame';

export const BATTLE_IDS = {
  title: 'title',
  fleet: 'fleet-name',
  vs: 'vs-name',
  method: 'method',
  status: 'status',
  progress: 'progress',
  cancel: 'cancel',
  error: 'error',
  empty: 'empty',
  results: 'results',
  stale: 'stale-note',
  form: 'controls',
  mode: 'opt-mode',
  range: 'opt-range',
  rounds: 'opt-rounds',
  trials: 'opt-trials',
  howSure: 'how-sure',
  seed: 'opt-seed',
  run: 'run',
  variants: 'opt-variants',
  variantSection: 'variant-compare',
  fleetCompare: 'fleet-compare',
  answers: 'battle-answers',
  verdict: 'verdict',
  outcomeBar: 'outcome-bar',
  outcomeTable: 'outcome-table',
  meanRounds: 'mean-rounds',
  pointsTable: 'points-table',
  pointsHeading: 'points-heading',
  pointsSteps: 'points-steps',
  survivalCharts: 'survival-charts',
  survivalTables: 'survival-tables',
  actionsTable: 'actions-table',
  policy: 'policy',
  assumptions: 'assumptions-list',
} as const;

export function renderBattleHtml(cspSource: string, nonce: string, scriptUri: string, styleUri: string): string {
  const I = BATTLE_IDS;
  return renderPage(cspSource, nonce, scriptUri, styleUri, {
    title: 'Battle',
    body: `    <header class="header">
      <h1 id="${I.title}">Battle: <span id="${I.fleet}" class="unit attacker"></span> <span class="vs">vs</span> <span id="${I.vs}" class="unit defender"></span></h1>
      <p id="${I.method}" class="method"></p>
      <div class="progress-row">
        <progress id="${I.progress}" max="1" value="0" aria-label="Battles simulated" hidden></progress>
        <p id="${I.status}" class="status" role="status" aria-live="polite"></p>
        <button id="${I.cancel}" type="button" class="secondary" hidden>Cancel</button>
      </div>
      <div id="${I.error}" class="error" role="alert" hidden></div>
    </header>

    <!-- A comparison answers the question the view was opened with: above the options, not under them. -->
    <div id="${I.answers}" class="battle-results">
      <section id="${I.fleetCompare}" class="variant-compare" hidden></section>
    </div>

    <form id="${I.form}" class="controls" aria-label="Battle options" novalidate>
      <div class="field">
        <label for="${I.mode}">Where the fleets stand</label>
        <select id="${I.mode}">
          <option value="approach">Enter from the table edges and close in</option>
          <option value="fixed">At a fixed range</option>
        </select>
      </div>
      ${numberField(I.range, 'Range (inches)', BATTLE_LIMITS.range)}
      ${numberField(I.rounds, 'Rounds', BATTLE_LIMITS.rounds)}
      ${numberField(I.trials, 'Most battles to simulate', BATTLE_LIMITS.trials)}
      ${numberField(I.seed, 'Seed', BATTLE_LIMITS.seed)}
      <fieldset id="${I.variants}"></fieldset>
      <div class="field"><button id="${I.run}" type="submit">Run again</button></div>
    </form>

    <p id="${I.empty}" class="empty">Simulating…</p>

    <div id="${I.results}" class="battle-results" hidden>
      <p id="${I.stale}" class="stale-note" role="status" hidden></p>
      <section id="${I.variantSection}" class="variant-compare" hidden></section>
      <section aria-labelledby="who-wins">
        <h2 id="who-wins">Who wins</h2>
        <p id="${I.verdict}" class="verdict"></p>
        <div id="${I.outcomeBar}" class="outcome-bar" role="img"></div>
        <div class="table-scroll"><table id="${I.outcomeTable}" class="data"></table></div>
        <p id="${I.meanRounds}"></p>
      </section>
      <section aria-labelledby="points-heading">
        <h2 id="${I.pointsHeading}">Points destroyed</h2>
        <div class="table-scroll"><table id="${I.pointsTable}" class="data"></table></div>
        <p id="${I.pointsSteps}" class="note"></p>
      </section>
      <section aria-labelledby="survival-heading">
        <h2 id="survival-heading">Which units survive, round by round</h2>
        <div id="${I.survivalCharts}" class="survival-charts"></div>
        <details><summary>The table behind the charts</summary><div id="${I.survivalTables}"></div></details>
      </section>
      <section aria-labelledby="actions-heading">
        <h2 id="actions-heading">What each unit did (per battle)</h2>
        <div class="table-scroll"><table id="${I.actionsTable}" class="data"></table></div>
      </section>
      <details class="advanced">
        <summary>Advanced: how the battle is played</summary>
        <p id="${I.howSure}"></p>
        <p id="${I.policy}"></p>
        <ul id="${I.assumptions}"></ul>
      </details>
    </div>`,
  });
}
