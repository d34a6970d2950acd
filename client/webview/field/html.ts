/**
 * The "vs the field" view's page: one card against every card of the field, a row each (the rows
 * of `fabled-star sim --vs-field`). A static skeleton; the script fills in names and figures with
 * `textContent`.
 */
import { RANGE_BANDS } from '../../../protocol/simulation';
import { renderPage } from '../frame';

/** The element ids the script relies on; exported so the script and the tests use the same names. */
export const FIELD_IDS = {
  card: 'field-card',
  lead: 'field-lead',
  status: 'field-status',
  error: 'field-error',
  form: 'field-controls',
  side: 'field-side',
  range: 'field-range',
  stale: 'field-stale',
  empty: 'field-empty',
  results: 'field-results',
  table: 'field-table',
  otherHeading: 'field-other-heading',
  sortNote: 'field-sort-note',
  advanced: 'field-advanced',
  method: 'field-method',
  left: 'field-left',
  leftBox: 'field-left-box',
} as const;

/** The range select's value for "any range" (no range: every weapon fires, as `sim` without --range). */
export const ANY_RANGE = '';

export function renderFieldHtml(cspSource: string, nonce: string, scriptUri: string, styleUri: string): string {
  const I = FIELD_IDS;
  const bands = [
    `<option value="${ANY_RANGE}">Any range (every weapon fires)</option>`,
    ...RANGE_BANDS.map((b) => `<option value="${b}">${b}&quot;</option>`),
  ].join('');
  return renderPage(cspSource, nonce, scriptUri, styleUri, {
    title: 'Against the field',
    body: `    <header class="header">
      <h1><span id="${I.card}" class="unit attacker"></span> against the field</h1>
      <p id="${I.lead}" class="lead"></p>
      <p id="${I.status}" class="status" role="status" aria-live="polite"></p>
      <div id="${I.error}" class="error" role="alert" hidden></div>
    </header>

    <form id="${I.form}" class="controls" aria-label="Options" novalidate>
      <div class="field">
        <label for="${I.side}">Who fires</label>
        <select id="${I.side}" name="side">
          <option value="attacker">This card fires at each card</option>
          <option value="defender">Each card fires at this card</option>
        </select>
      </div>
      <div class="field">
        <label for="${I.range}">Range</label>
        <select id="${I.range}" name="range">${bands}</select>
      </div>
    </form>

    <p id="${I.stale}" class="stale-note" role="status" hidden></p>
    <p id="${I.empty}" class="empty">Firing at every card of the field…</p>

    <div id="${I.results}" class="results" hidden>
      <section class="card" aria-labelledby="field-heading">
        <h2 id="field-heading">One Fire action against each card</h2>
        <p id="${I.sortNote}" class="note"></p>
        <div class="table-scroll">
          <table id="${I.table}" class="data field-rows">
            <thead><tr>
              <th scope="col" id="${I.otherHeading}">Card</th>
              <th scope="col">Faction</th><th scope="col">Class</th><th scope="col">Points</th>
              <th scope="col">Destroyed by one Fire action</th><th scope="col">Hull damage (average)</th>
              <th scope="col">Fire actions to destroy (average)</th><th scope="col">9 times in 10 within</th>
              <th scope="col">Points destroyed per Fire action, per 100 pts firing</th>
              <th scope="col">Duel</th>
            </tr></thead>
            <tbody></tbody>
          </table>
        </div>
      </section>

      <details id="${I.advanced}" class="card advanced">
        <summary>Advanced: how the figures were computed</summary>
        <p id="${I.method}" class="method"></p>
        <div id="${I.leftBox}" hidden>
          <h3>Cards left out of the field</h3>
          <ul id="${I.left}"></ul>
        </div>
      </details>
    </div>`,
  });
}
