/**
 * The engagement view's HTML page, built by the extension host (which passes the webview's CSP
 * source, a fresh nonce and the URIs of the bundled script and style sheet). The page is a static
 * skeleton: every figure and every name from the user's files is filled in later by the script
 * with `textContent`, so nothing here ever interpolates file-derived text.
 *
 * The Content-Security-Policy allows only the extension's own script (by nonce) and styles (by
 * origin or nonce), images from the extension or data: URIs (Chart.js draws on canvas, nothing
 * else loads), and nothing from the network. No inline event handlers, no eval: Chart.js 4 needs
 * neither, which the webview tests confirm by listening for CSP violations.
 */
import { RANGE_BANDS } from '../../protocol/simulation';
import { RERUN_LIMITS } from './messages';

/** The element ids the script relies on; exported so the script and the tests use the same names. */
export const IDS = {
  title: 'title',
  attacker: 'attacker-name',
  defender: 'defender-name',
  method: 'method',
  estimates: 'points-estimates',
  status: 'status',
  error: 'error',
  empty: 'empty',
  results: 'results',
  form: 'controls',
  range: 'opt-range',
  cover: 'opt-cover',
  aim: 'opt-aim',
  brace: 'opt-brace',
  shields: 'opt-shields',
  rounds: 'opt-rounds',
  trials: 'opt-trials',
  seed: 'opt-seed',
  run: 'run',
  kill: 'kill-probability',
  hull: 'expected-hull',
  shieldsStripped: 'expected-shields',
  bases: 'expected-bases',
  volleyError: 'volley-se',
  hullChart: 'hull-chart',
  hullTable: 'hull-table',
  shieldsTable: 'shields-table',
  weapons: 'weapons-table',
  attackerWins: 'attacker-wins',
  defenderWins: 'defender-wins',
  neither: 'neither',
  outcomeBar: 'outcome-bar',
  meanRounds: 'mean-rounds',
  engagementMeta: 'engagement-meta',
  engagementExact: 'engagement-exact',
  actions: 'engagement-actions',
  roundsTable: 'rounds-table',
  survivalChart: 'survival-chart',
  survivalTable: 'survival-table',
  assumptions: 'assumptions-list',
  policy: 'policy',
} as const;

/** Escapes a value the host gives for use inside a double-quoted HTML attribute. */
function attr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A number input with its label and the bounds the host will accept. */
function numberField(id: string, label: string, limits: { min: number; max: number }, hint?: string): string {
  const hintId = `${id}-hint`;
  return `<div class="field">
        <label for="${id}">${label}</label>
        <input id="${id}" name="${id}" type="number" inputmode="numeric" step="1" min="${limits.min}" max="${limits.max}"${
          hint ? ` placeholder="${hint}" aria-describedby="${hintId}"` : ''
        }>${hint ? `<span id="${hintId}" class="hint">empty: ${hint}</span>` : ''}
      </div>`;
}

export function renderWebviewHtml(cspSource: string, nonce: string, scriptUri: string, styleUri: string): string {
  const csp = [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const bands = RANGE_BANDS.map((b) => `<option value="${b}">${b}&quot;</option>`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="${attr(styleUri)}" nonce="${attr(nonce)}">
  <title>Engagement</title>
</head>
<body>
  <main id="app" aria-busy="false">
    <header class="header">
      <h1 id="${IDS.title}">Engagement: <span id="${IDS.attacker}" class="unit attacker"></span> <span class="vs">vs</span> <span id="${IDS.defender}" class="unit defender"></span></h1>
      <p id="${IDS.method}" class="method"></p>
      <p id="${IDS.estimates}" class="estimates" hidden></p>
      <p id="${IDS.status}" class="status" role="status" aria-live="polite"></p>
      <div id="${IDS.error}" class="error" role="alert" hidden></div>
    </header>

    <form id="${IDS.form}" class="controls" aria-label="Simulation options" novalidate>
      <div class="field">
        <label for="${IDS.range}">Range</label>
        <select id="${IDS.range}" name="range">${bands}</select>
      </div>
      <div class="field">
        <label for="${IDS.aim}">Aim</label>
        <select id="${IDS.aim}" name="aim"><option value="">No weapon aimed</option></select>
      </div>
      <div class="field check">
        <input id="${IDS.cover}" name="cover" type="checkbox">
        <label for="${IDS.cover}">Defender in cover</label>
      </div>
      <div class="field check">
        <input id="${IDS.brace}" name="brace" type="checkbox">
        <label for="${IDS.brace}">Defender braced</label>
      </div>
      ${numberField(IDS.shields, 'Defender shields', RERUN_LIMITS.defenderShields, 'full')}
      ${numberField(IDS.rounds, 'Rounds', RERUN_LIMITS.rounds)}
      ${numberField(IDS.trials, 'Trials', RERUN_LIMITS.trials)}
      ${numberField(IDS.seed, 'Seed', RERUN_LIMITS.seed)}
      <div class="field actions">
        <button id="${IDS.run}" type="submit">Run again</button>
      </div>
    </form>

    <p id="${IDS.empty}" class="empty">Waiting for a simulation result…</p>

    <div id="${IDS.results}" class="results" hidden>
      <section class="card" aria-labelledby="volley-heading">
        <h2 id="volley-heading">One Fire action</h2>
        <dl class="figures">
          <div class="figure primary"><dt>Kill probability</dt><dd id="${IDS.kill}"></dd></div>
          <div class="figure"><dt>Expected hull damage</dt><dd id="${IDS.hull}"></dd></div>
          <div class="figure"><dt>Expected shields stripped</dt><dd id="${IDS.shieldsStripped}"></dd></div>
          <div class="figure"><dt>Expected bases destroyed</dt><dd id="${IDS.bases}"></dd></div>
        </dl>
        <p id="${IDS.volleyError}" class="note" hidden></p>
        <figure class="chart">
          <div class="chart-box"><canvas id="${IDS.hullChart}" role="img"></canvas></div>
          <figcaption>Hull damage dealt by one Fire action (HP lost, chance of each outcome)</figcaption>
        </figure>
        <details>
          <summary>Hull damage distribution as a table</summary>
          <table id="${IDS.hullTable}" class="data"><thead><tr><th scope="col">HP lost</th><th scope="col">Chance</th></tr></thead><tbody></tbody></table>
        </details>
        <details>
          <summary>Shields stripped as a table</summary>
          <table id="${IDS.shieldsTable}" class="data"><thead><tr><th scope="col">SH stripped</th><th scope="col">Chance</th></tr></thead><tbody></tbody></table>
        </details>
        <h3>Per weapon system</h3>
        <div class="table-scroll">
          <table id="${IDS.weapons}" class="data weapons">
            <thead><tr>
              <th scope="col">Weapon</th><th scope="col">Type</th><th scope="col">Fires</th><th scope="col">Attacks</th>
              <th scope="col">Hits</th><th scope="col">Crits</th><th scope="col">Shields stripped</th><th scope="col">Hull damage</th>
            </tr></thead>
            <tbody></tbody>
          </table>
        </div>
      </section>

      <section class="card" aria-labelledby="engagement-heading">
        <h2 id="engagement-heading">Engagement</h2>
        <dl class="figures">
          <div class="figure attacker"><dt>Attacker wins</dt><dd id="${IDS.attackerWins}"></dd></div>
          <div class="figure defender"><dt>Defender wins</dt><dd id="${IDS.defenderWins}"></dd></div>
          <div class="figure"><dt>Neither destroyed</dt><dd id="${IDS.neither}"></dd></div>
          <div class="figure"><dt>Mean rounds</dt><dd id="${IDS.meanRounds}"></dd></div>
        </dl>
        <div id="${IDS.outcomeBar}" class="outcome-bar" aria-hidden="true"><span class="a"></span><span class="n"></span><span class="d"></span></div>
        <p id="${IDS.engagementMeta}" class="note"></p>
        <p id="${IDS.engagementExact}" class="note" hidden></p>
        <p id="${IDS.actions}" class="note" hidden></p>
        <figure class="chart">
          <div class="chart-box"><canvas id="${IDS.survivalChart}" role="img"></canvas></div>
          <figcaption>Chance each unit is still alive after each round</figcaption>
        </figure>
        <details>
          <summary>Survival by round as a table</summary>
          <table id="${IDS.survivalTable}" class="data"><thead><tr><th scope="col">Round</th><th scope="col">Attacker alive</th><th scope="col">Defender alive</th></tr></thead><tbody></tbody></table>
        </details>
        <details id="${IDS.roundsTable}-details" hidden>
          <summary>Rounds played</summary>
          <table id="${IDS.roundsTable}" class="data"><thead><tr><th scope="col">Rounds</th><th scope="col">Chance</th></tr></thead><tbody></tbody></table>
        </details>
      </section>

      <section class="card" aria-labelledby="assumptions-heading">
        <h2 id="assumptions-heading">Assumptions</h2>
        <ul id="${IDS.assumptions}"></ul>
        <h3>Engagement policy</h3>
        <p id="${IDS.policy}"></p>
      </section>
    </div>
  </main>
  <script nonce="${attr(nonce)}" src="${attr(scriptUri)}"></script>
</body>
</html>
`;
}
