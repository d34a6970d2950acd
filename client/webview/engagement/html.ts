/**
 * The engagement view's HTML page: its skeleton inside the frame every view shares (../frame.ts:
 * the Content-Security-Policy, the style sheet, the script by nonce). Every figure and every name
 * from the user's files is filled in later by the script with `textContent`.
 */
import { RANGE_BANDS } from '../../../protocol/simulation';
import { RERUN_LIMITS } from './messages';
import { numberField, renderPage } from '../frame';

/** The element ids the script relies on; exported so the script and the tests use the same names. */
export const IDS = {
  title: 'title',
  attacker: 'attacker-name',
  defender: 'defender-name',
  /** Each card's line under the title: faction, class, an "Example" tag, and its points. */
  attackerFacts: 'attacker-facts',
  defenderFacts: 'defender-facts',
  /** The card's points on its line, and beside them its points estimate when the server sent one. */
  attackerPoints: 'attacker-points',
  defenderPoints: 'defender-points',
  /** The one sentence a player reads first. */
  verdict: 'verdict',
  /** Shown over the figures when they were computed for other options than the form shows. */
  stale: 'stale',
  volleySentence: 'volley-sentence',
  plainAssumptions: 'plain-assumptions',
  advanced: 'advanced',
  advancedOptions: 'advanced-options',
  unitLines: 'unit-lines',
  volleySection: 'volley-section',
  duelSection: 'duel-section',
  variants: 'opt-variants',
  variantSection: 'variant-compare',
  method: 'method',
  /** Under Advanced: how each card's points estimate compares with its points, and how sure it is. */
  estimateDetail: 'estimate-detail',
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
  /** The chance of at least N HP lost (cumulative odds), beside the histogram; how it is read, under Advanced. */
  hullAtLeast: 'hull-at-least',
  hullAtLeastNote: 'hull-at-least-note',
  shieldsTable: 'shields-table',
  weapons: 'weapons-table',
  /** Shots to kill: Fire actions one after another until the defender is destroyed (a cumulative chart and its rows). */
  shotsSection: 'shots-section',
  shotsSentence: 'shots-sentence',
  shotsChart: 'shots-chart',
  shotsTable: 'shots-table',
  shotsNote: 'shots-note',
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

/** The range select's value for "any range" (no range option: every weapon fires, as the CLI without --range). */
export const ANY_RANGE = '';

/** The heading: the two cards, the verdict and the status line. */
function engagementHeader(): string {
  return `    <header class="header">
      <h1 id="${IDS.title}">Engagement: <span id="${IDS.attacker}" class="unit attacker"></span> <span class="vs">vs</span> <span id="${IDS.defender}" class="unit defender"></span></h1>
      <ul id="${IDS.unitLines}" class="unit-lines" aria-label="The two cards" hidden>
        <li class="unit-line attacker"><span class="role">Attacker</span> <span id="${IDS.attackerFacts}" class="facts"></span> <span id="${IDS.attackerPoints}" class="points" hidden></span></li>
        <li class="unit-line defender"><span class="role">Defender</span> <span id="${IDS.defenderFacts}" class="facts"></span> <span id="${IDS.defenderPoints}" class="points" hidden></span></li>
      </ul>
      <p id="${IDS.verdict}" class="verdict" hidden></p>
      <p id="${IDS.status}" class="status" role="status" aria-live="polite"></p>
      <div id="${IDS.error}" class="error" role="alert" hidden></div>
    </header>

`;
}

/** The options a player changes before running again (trials and seed under "Advanced"). */
function engagementControls(bands: string): string {
  return `    <form id="${IDS.form}" class="controls" aria-label="Simulation options" novalidate>
      <div class="field">
        <label for="${IDS.range}">Range</label>
        <select id="${IDS.range}" name="range">${bands}</select>
      </div>
      <div class="field">
        <label for="${IDS.aim}">Aim (Fire action)</label>
        <select id="${IDS.aim}" name="aim"><option value="">No weapon aimed</option></select>
      </div>
      <div class="field check">
        <input id="${IDS.cover}" name="cover" type="checkbox">
        <label for="${IDS.cover}">Defender in cover</label>
      </div>
      <div class="field check">
        <input id="${IDS.brace}" name="brace" type="checkbox">
        <label for="${IDS.brace}">Defender braced (Fire action)</label>
      </div>
      ${numberField(IDS.shields, 'Defender shields', RERUN_LIMITS.defenderShields, 'full')}
      ${numberField(IDS.rounds, 'Rounds', RERUN_LIMITS.rounds)}
      <fieldset id="${IDS.variants}"></fieldset>
      <div class="field actions">
        <button id="${IDS.run}" type="submit">Run again</button>
      </div>
      <details id="${IDS.advancedOptions}" class="advanced-options">
        <summary id="${IDS.advancedOptions}-summary">Advanced</summary>
        <div class="advanced-fields">
          ${numberField(IDS.trials, 'Trials', RERUN_LIMITS.trials)}
          ${numberField(IDS.seed, 'Seed', RERUN_LIMITS.seed)}
        </div>
      </details>
    </form>

`;
}

/** The stale note, the empty note and the opening of the results. */
function engagementStatus(): string {
  return `    <p id="${IDS.stale}" class="stale-note" role="status" hidden></p>
    <p id="${IDS.empty}" class="empty">Waiting for a simulation result…</p>

    <div id="${IDS.results}" class="results" hidden>
`;
}

/** One Fire action: the figures, the hull damage chart and the tables per weapon. */
function engagementVolley(): string {
  return `      <section id="${IDS.volleySection}" class="card" aria-labelledby="volley-heading">
        <h2 id="volley-heading">One Fire action</h2>
        <p id="${IDS.volleySentence}" class="lead"></p>
        <dl class="figures">
          <div class="figure primary"><dt>Kill chance</dt><dd id="${IDS.kill}"></dd></div>
          <div class="figure"><dt>Hull damage (average)</dt><dd id="${IDS.hull}"></dd></div>
          <div class="figure"><dt>Shields stripped (average)</dt><dd id="${IDS.shieldsStripped}"></dd></div>
          <div class="figure"><dt>Bases destroyed (average)</dt><dd id="${IDS.bases}"></dd></div>
        </dl>
        <figure class="chart">
          <div class="chart-box"><canvas id="${IDS.hullChart}" role="img"></canvas></div>
          <figcaption>Hull damage dealt by one Fire action (HP lost, chance of each outcome)</figcaption>
        </figure>
        <div id="${IDS.hullAtLeast}-box" class="table-scroll" hidden>
          <table id="${IDS.hullAtLeast}" class="data at-least">
            <caption>Chance of dealing at least this much hull damage</caption>
            <thead><tr><th scope="col">At least</th><th scope="col">Chance</th></tr></thead><tbody></tbody>
          </table>
        </div>
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

`;
}

/** Fire after Fire: the chance the defender is destroyed within N Fire actions. */
function engagementShots(): string {
  return `      <section id="${IDS.shotsSection}" class="card" aria-labelledby="shots-heading" hidden>
        <h2 id="shots-heading">Fire after Fire: how long until it is destroyed</h2>
        <p id="${IDS.shotsSentence}" class="lead"></p>
        <figure class="chart">
          <div class="chart-box"><canvas id="${IDS.shotsChart}" role="img"></canvas></div>
          <figcaption>Chance the defender is destroyed within each number of Fire actions</figcaption>
        </figure>
        <details>
          <summary>Destroyed within N Fire actions, as a table</summary>
          <table id="${IDS.shotsTable}" class="data"><thead><tr><th scope="col">Destroyed within</th><th scope="col">Chance</th></tr></thead><tbody></tbody></table>
        </details>
      </section>

`;
}

/** The rule variants side by side, and the duel round by round. */
function engagementDuel(): string {
  return `      <section id="${IDS.variantSection}" class="card variant-compare" hidden></section>

      <section id="${IDS.duelSection}" class="card" aria-labelledby="engagement-heading">
        <h2 id="engagement-heading">The duel</h2>
        <dl class="figures">
          <div class="figure attacker"><dt>Attacker wins</dt><dd id="${IDS.attackerWins}"></dd></div>
          <div class="figure defender"><dt>Defender wins</dt><dd id="${IDS.defenderWins}"></dd></div>
          <div class="figure"><dt>Both still in the fight</dt><dd id="${IDS.neither}"></dd></div>
          <div class="figure"><dt>Rounds played (average)</dt><dd id="${IDS.meanRounds}"></dd></div>
        </dl>
        <div id="${IDS.outcomeBar}" class="outcome-bar" aria-hidden="true"><span class="a"></span><span class="n"></span><span class="d"></span></div>
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

`;
}

/** What the figures assume, and how they were computed under "Advanced". */
function engagementAdvanced(): string {
  return `      <section class="card" aria-labelledby="assumptions-heading">
        <h2 id="assumptions-heading">What the figures assume</h2>
        <ul id="${IDS.plainAssumptions}"></ul>
      </section>

      <details id="${IDS.advanced}" class="card advanced">
        <summary>Advanced: how the figures were computed</summary>
        <p id="${IDS.method}" class="method"></p>
        <p id="${IDS.estimateDetail}" class="note" hidden></p>
        <p id="${IDS.volleyError}" class="note" hidden></p>
        <p id="${IDS.hullAtLeastNote}" class="note" hidden></p>
        <p id="${IDS.shotsNote}" class="note" hidden></p>
        <p id="${IDS.engagementMeta}" class="note"></p>
        <p id="${IDS.engagementExact}" class="note" hidden></p>
        <p id="${IDS.actions}" class="note" hidden></p>
        <h3>The model</h3>
        <ul id="${IDS.assumptions}"></ul>
        <h3>How each unit picks its second action</h3>
        <p id="${IDS.policy}"></p>
      </details>
    </div>`;
}

export function renderWebviewHtml(cspSource: string, nonce: string, scriptUri: string, styleUri: string): string {
  const bands = [
    `<option value="${ANY_RANGE}">Any range (every weapon fires)</option>`,
    ...RANGE_BANDS.map((b) => `<option value="${b}">${b}&quot;</option>`),
  ].join('');
  return renderPage(cspSource, nonce, scriptUri, styleUri, {
    title: 'Engagement',
    body: `${engagementHeader()}${engagementControls(bands)}${engagementStatus()}${engagementVolley()}${engagementShots()}${engagementDuel()}${engagementAdvanced()}`,
  });
}
