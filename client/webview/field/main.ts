/**
 * The "vs the field" view: one card against every card of the field, a row each, sorted as
 * `fabled-star sim --vs-field` sorts them (the same rows, from the same request). It runs inside the
 * webview and talks only through postMessage; every name from the user's files goes into the page
 * with textContent, and every message is checked by ./messages.ts before use.
 */
import '../style.css';
import './field.css';
import { ANY_RANGE, FIELD_IDS as I } from './html';
import { parseFieldHostMessage, type FieldOptions, type FieldRow, type FieldViewMessage, type VsFieldResult } from './messages';
import { formatCount, formatNumber, formatPercent } from '../format';
import { element, vscodeApi } from '../dom';

/** What survives a reload of the view (VS Code keeps it while the panel lives). */
interface ViewState {
  card?: { name: string; faction?: string };
  result?: VsFieldResult;
  options?: FieldOptions;
}

/** Why one Fire action's hull damage can be small beside a few Fire actions to destroy (a player reads both side by side). */
const SHIELDS_NOTE =
  'Shields soak up the first Fire action, so its hull damage can be small; shields knocked down stay down, so a few more Fire actions can still destroy the target.';

const vscode = vscodeApi<FieldViewMessage>();
const $ = <T extends HTMLElement = HTMLElement>(id: string) => element<T>(id);
const ui = {
  app: $('app'),
  card: $(I.card),
  lead: $(I.lead),
  status: $(I.status),
  error: $(I.error),
  form: $<HTMLFormElement>(I.form),
  side: $<HTMLSelectElement>(I.side),
  range: $<HTMLSelectElement>(I.range),
  stale: $(I.stale),
  empty: $(I.empty),
  results: $(I.results),
  table: $<HTMLTableElement>(I.table),
  otherHeading: $(I.otherHeading),
  sortNote: $(I.sortNote),
  method: $(I.method),
  left: $(I.left),
  leftBox: $(I.leftBox),
};

let state: ViewState = restoreState();

function restoreState(): ViewState {
  const saved = vscode.getState() as Partial<ViewState> | undefined;
  if (!saved || typeof saved !== 'object') return {};
  // Saved state is checked like a message: it may come from an older version of this view.
  const card = saved.card && saved.options ? parseFieldHostMessage({ type: 'card', card: saved.card, options: saved.options }) : undefined;
  const result = saved.result && saved.options ? parseFieldHostMessage({ type: 'result', result: saved.result, options: saved.options }) : undefined;
  return {
    ...(card?.type === 'card' ? { card: card.card, options: card.options } : {}),
    ...(result?.type === 'result' ? { result: result.result, options: result.options } : {}),
  };
}

function saveState(): void {
  vscode.setState(state);
}

function setText(node: HTMLElement, text: string): void {
  node.textContent = text;
}

function showError(message: string | undefined): void {
  ui.error.hidden = message === undefined;
  setText(ui.error, message ?? '');
}

/** The options as the form shows them. */
function readForm(): FieldOptions {
  const side = ui.side.value === 'defender' ? 'defender' : 'attacker';
  return ui.range.value === ANY_RANGE ? { side } : { side, range: Number(ui.range.value) };
}

function fillForm(o: FieldOptions): void {
  ui.side.value = o.side;
  if (o.range === undefined) ui.range.value = ANY_RANGE;
  else {
    const value = String(o.range);
    if (!Array.from(ui.range.options).some((op) => op.value === value)) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = `${value}"`;
      ui.range.append(option);
    }
    ui.range.value = value;
  }
}

const sameOptions = (a: FieldOptions | undefined, b: FieldOptions | undefined) => !!a && !!b && a.side === b.side && a.range === b.range;

/** Marks the rows stale while the form asks for other options than they were computed with. */
function updateFreshness(): void {
  const stale = !!state.result && !sameOptions(readForm(), state.options);
  ui.results.classList.toggle('stale', stale);
  ui.stale.hidden = !stale;
  setText(ui.stale, stale ? 'Options changed: the rows below are still for the previous options. New rows follow in a moment.' : '');
}

function rangeWords(range: number | null): string {
  return range === null ? 'at any range (every weapon fires)' : `at ${formatNumber(range, Number.isInteger(range) ? 0 : 1)}"`;
}

/** "3.2 Fire actions", "never", or "more than 1000" when the limit stopped it before most kills. */
function shotsWords(row: FieldRow): { mean: string; p90: string } {
  const s = row.shotsToKill;
  if (s.mean === null) return { mean: 'never', p90: 'never' };
  return {
    mean: `${formatNumber(s.mean)}${s.converged ? '' : '+'}`,
    p90: s.p90 === null ? `more than ${formatCount(s.cdf.length)}` : formatCount(s.p90),
  };
}

function render(result: VsFieldResult): void {
  const attacking = result.attacker !== undefined;
  const name = result.attacker ?? result.defender ?? '';
  setText(ui.card, name);
  document.title = `${name} against the field`;
  const n = result.field.length;
  setText(
    ui.lead,
    attacking
      ? `${name} fires once at ${n === 1 ? 'the only card of the field' : `each of ${formatCount(n)} cards`} ${rangeWords(result.range)}.`
      : `${n === 1 ? 'The only card of the field' : `Each of ${formatCount(n)} cards`} fires once at ${name} ${rangeWords(result.range)}.`,
  );
  setText(ui.otherHeading, attacking ? 'Target' : 'Firing card');
  setText(
    ui.sortNote,
    attacking
      ? `Best value first: the points of the target destroyed by one Fire action, for every 100 points of the card firing. ${SHIELDS_NOTE}`
      : `Most dangerous first: the points of this card destroyed by one Fire action, for every 100 points of the card firing. ${SHIELDS_NOTE}`,
  );
  const example = result.source === 'examples';
  const body = ui.table.tBodies[0] ?? ui.table.createTBody();
  body.replaceChildren(
    ...result.field.map((row) => {
      const tr = document.createElement('tr');
      const other = row.defender ?? row.attacker ?? '';
      const shots = shotsWords(row);
      const cells = [
        other,
        row.faction,
        row.class,
        row.points === null ? '—' : formatCount(row.points),
        formatPercent(row.killProbability),
        `${formatNumber(row.expectedHullDamage)} HP`,
        shots.mean,
        shots.p90,
        row.pointsPerAction === null ? '—' : formatNumber(row.pointsPerAction),
      ];
      cells.forEach((text, i) => {
        const cell = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) cell.scope = 'row';
        else if (i >= 3) cell.className = 'num';
        cell.textContent = text;
        if (i === 0 && row.note) cell.title = row.note;
        tr.append(cell);
      });
      const open = document.createElement('td');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'link';
      button.textContent = 'Simulate';
      button.title = attacking ? `Simulate ${name} vs ${other}` : `Simulate ${other} vs ${name}`;
      button.addEventListener('click', () =>
        vscode.postMessage({ type: 'simulate', other: { name: other, ...(row.faction ? { faction: row.faction } : {}), ...(example ? { example } : {}) } }),
      );
      open.append(button);
      tr.append(open);
      return tr;
    }),
  );
  const from = example ? 'the bundled example cards (the workspace has no card the simulator can run)' : "the workspace's cards without an error";
  const sampled = result.field.filter((r) => r.note).length;
  setText(
    ui.method,
    `The field: ${from}. Each row is one Fire action of every weapon that reaches (no Aim, no cover), computed exactly, ` +
      'the same figures as `fabled-star sim --vs-field`. "Fire actions to destroy" fires again and again while the target takes no action, ' +
      'so its shields never come back; a "+" means the 1,000-action limit stopped it first. ' +
      (sampled
        ? `${formatCount(sampled)} row${sampled === 1 ? ' was' : 's were'} sampled, not exact (too many attacks to compute): its name's tooltip says so.`
        : ''),
  );
  ui.leftBox.hidden = result.left.length === 0;
  ui.left.replaceChildren(
    ...result.left.map((l) => {
      const li = document.createElement('li');
      li.textContent = `${l.faction ? `${l.faction}: ` : ''}${l.name} — ${l.reason}`;
      return li;
    }),
  );
  ui.empty.hidden = true;
  ui.results.hidden = false;
}

function requestRun(): void {
  const options = readForm();
  updateFreshness();
  if (sameOptions(options, state.options) && state.result) return;
  setText(ui.status, 'Asked for new rows…');
  vscode.postMessage({ type: 'rerun', options });
}

ui.form.addEventListener('change', requestRun);

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseFieldHostMessage(event.data);
  if (!message) return; // Not ours or not in the agreed shape: ignore it.
  switch (message.type) {
    case 'busy':
      ui.app.setAttribute('aria-busy', 'true');
      setText(ui.status, 'Computing…');
      break;
    case 'error':
      ui.app.setAttribute('aria-busy', 'false');
      setText(ui.status, '');
      showError(message.message);
      if (!state.result) setText(ui.empty, 'No rows: see the message above.');
      break;
    case 'card':
      state = { ...state, card: message.card, ...(state.result ? {} : { options: message.options }) };
      if (!state.result) {
        setText(ui.card, message.card.name);
        fillForm(message.options);
      }
      saveState();
      break;
    case 'result':
      ui.app.setAttribute('aria-busy', 'false');
      showError(undefined);
      state = { ...state, result: message.result, options: message.options };
      saveState();
      fillForm(message.options);
      render(message.result);
      updateFreshness();
      setText(ui.status, 'Figures up to date with the options.');
      break;
  }
});

if (state.card) setText(ui.card, state.card.name);
if (state.options) fillForm(state.options);
if (state.result) render(state.result);
vscode.postMessage({ type: 'ready' });
