/**
 * The rule-variant picker and the side-by-side comparison, shared by the engagement view and the
 * fleet battle view (BATTLE.md "Rule variants"). Everything is built with createElement and
 * textContent: names and texts from results are never parsed as HTML.
 */
import { VARIANT_CATALOG, clearlyDifferent, variantConflict, variantTitles, type VariantChoice, type VariantInfo } from '../../protocol/simulation';
import { formatPercent } from './format';
import type { RulesChoice } from './variant-messages';

export type { RulesChoice };

export interface VariantPicker {
  /**
   * The choice (each variant `{name, parameters}`, with all its parameters), or why it cannot
   * be run (a conflicting pair, a parameter out of its bounds).
   */
  read(): { choice?: RulesChoice; error?: string };
  set(choice: RulesChoice): void;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** One row of a comparison table: its label, the two figures, and the change's text and direction. */
export interface CompareTableRow {
  label: string;
  cells: [string, string];
  change: string;
  direction: 'up' | 'down' | 'same';
  /**
   * Whether the change is good or bad news for the player, when that is not its direction (the
   * opponent winning more is up, and bad): the colour follows it, the arrow the direction.
   * Without it, up reads as good and down as bad.
   */
  tone?: 'good' | 'bad' | 'neutral';
}

/**
 * A comparison table (the rule variants' and the what-if's), in a box that scrolls sideways in a
 * narrow view instead of cutting its last columns off. All text goes in as text, never as HTML.
 */
export function compareTable(className: string, caption: string, heads: [string, string, string, string], rows: CompareTableRow[]): HTMLDivElement {
  const table = el('table', undefined, className);
  table.appendChild(el('caption', caption, 'visually-hidden'));
  const head = el('tr');
  for (const h of heads) {
    const th = el('th', h);
    th.scope = 'col';
    head.appendChild(th);
  }
  const thead = el('thead');
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el('tbody');
  for (const r of rows) {
    const tr = el('tr');
    const th = el('th', r.label);
    th.scope = 'row';
    const tone = r.tone && r.direction !== 'same' ? ` ${r.tone}` : '';
    tr.append(th, el('td', r.cells[0]), el('td', r.cells[1]), el('td', r.change, `change ${r.direction}${tone}`));
    body.appendChild(tr);
  }
  table.appendChild(body);
  const scroll = el('div', undefined, 'table-scroll');
  scroll.appendChild(table);
  return scroll;
}

/**
 * Fills `box` (a fieldset) with one checkbox per variant, a field for each of a variant's parameters
 * (enabled while the variant is picked), a compare checkbox and a note for what cannot be run.
 */
export function variantPicker(box: HTMLElement, idPrefix: string): VariantPicker {
  box.replaceChildren();
  box.classList.add('variants');
  box.appendChild(el('legend', 'Rules from other games'));
  const params: { variant: string; title: string; key: string; input: HTMLInputElement; min: number; max: number; fallback: number; what: string }[] = [];
  const boxes = VARIANT_CATALOG.map((entry) => {
    const label = el('label', undefined, 'variant');
    const input = el('input');
    input.type = 'checkbox';
    input.value = entry.name;
    input.id = `${idPrefix}-variant-${entry.name}`;
    label.htmlFor = input.id;
    label.append(input, el('span', entry.title, 'variant-title'), el('span', ` — ${entry.summary}`, 'variant-hint'));
    box.appendChild(label);
    for (const [key, spec] of Object.entries(entry.parameters)) {
      const row = el('label', undefined, 'variant variant-param');
      const field = el('input');
      field.type = 'number';
      field.min = String(spec.min);
      field.max = String(spec.max);
      field.step = 'any';
      field.value = String(spec.default);
      field.id = `${idPrefix}-variant-${entry.name}-${key}`;
      row.htmlFor = field.id;
      row.append(el('span', `${capital(spec.label)}:`, 'variant-hint'), field);
      box.appendChild(row);
      params.push({ variant: entry.name, title: entry.title, key, input: field, min: spec.min, max: spec.max, fallback: spec.default, what: spec.what });
    }
    return input;
  });
  const compareLabel = el('label', undefined, 'variant compare');
  const compare = el('input');
  compare.type = 'checkbox';
  compare.id = `${idPrefix}-variant-compare`;
  compare.checked = true;
  compareLabel.htmlFor = compare.id;
  compareLabel.append(compare, el('span', 'Show the standard rules beside them', 'variant-title'));
  box.appendChild(compareLabel);
  const note = el('p', '', 'variant-note');
  note.setAttribute('role', 'status');
  note.hidden = true;
  box.appendChild(note);

  const refuse = (error: string): { error: string } => {
    note.textContent = error;
    note.hidden = false;
    return { error };
  };
  const read = (): { choice?: RulesChoice; error?: string } => {
    const variants = boxes.filter((b) => b.checked).map((b) => b.value);
    const c = variantConflict(variants);
    for (const b of boxes) b.setAttribute('aria-invalid', c && c.pair.includes(b.value) ? 'true' : 'false');
    for (const p of params) {
      p.input.disabled = !variants.includes(p.variant);
      p.input.setAttribute('aria-invalid', 'false');
    }
    if (c) {
      const [a, b] = c.pair.map((n) => VARIANT_CATALOG.find((e) => e.name === n)?.title ?? n);
      return refuse(`${capital(a!)} and ${b} cannot be played together: untick one of them. (Why: ${c.why}.)`);
    }
    const choices: VariantChoice[] = [];
    for (const name of variants) {
      const values: Record<string, number> = {};
      for (const p of params.filter((q) => q.variant === name)) {
        const raw = p.input.value.trim();
        const n = Number(raw);
        if (raw === '' || !Number.isFinite(n) || n < p.min || n > p.max) {
          p.input.setAttribute('aria-invalid', 'true');
          return refuse(`With ${p.title}, the ${p.key} is ${p.what}.`);
        }
        values[p.key] = n;
      }
      choices.push({ name, parameters: values });
    }
    note.hidden = true;
    note.textContent = '';
    return { choice: { variants: choices, compare: compare.checked } };
  };
  box.addEventListener('change', () => void read());
  box.addEventListener('input', () => void read());
  return {
    read,
    set(choice) {
      const chosen = choice.variants;
      for (const b of boxes) b.checked = chosen.some((r) => r.name === b.value);
      for (const p of params) {
        const r = chosen.find((q) => q.name === p.variant);
        p.input.value = String(r?.parameters[p.key] ?? p.fallback);
      }
      compare.checked = choice.compare;
      read();
    },
  };
}

/** One line of the comparison table: a chance (or a number) with the variant and under the standard rules. */
export interface CompareRow {
  label: string;
  variant: number;
  standard: number;
  kind: 'chance' | 'number';
}

const signed = (d: number, kind: CompareRow['kind']) =>
  kind === 'chance' ? `${d >= 0 ? '+' : '−'}${formatPercent(Math.abs(d))}` : `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(1)}`;

/**
 * Fills `section` with the variants played: in words (the result's summary), a table of each
 * figure with the variants and under the standard rules with the change highlighted (beyond the
 * sampling noise: up or down; within it: about the same), and under "Advanced" how each variant
 * maps onto the game. Hidden without variants.
 */
export function renderComparison(
  section: HTMLElement,
  variants: readonly VariantInfo[],
  compare: { summary: string[]; trials: [number, number] } | undefined,
  rows: CompareRow[],
  /** The standard rules are asked for but not played yet (a result still coming in). */
  comparing = false,
): void {
  section.replaceChildren();
  section.hidden = variants.length === 0;
  if (!variants.length) return;
  const titles = variantTitles(variants);
  const heading = el('h2', `With ${titles}`);
  heading.id = `${section.id}-heading`;
  section.setAttribute('aria-labelledby', heading.id);
  section.appendChild(heading);
  if (!compare && comparing) {
    section.appendChild(
      el('p', 'These figures are with the rules above. The standard rules are played next, with the same dice: what the rules change shows here then.', 'note'),
    );
  } else if (!compare) {
    section.appendChild(el('p', 'These figures are with the rules above. Tick "Show the standard rules beside them" to see what they change.', 'note'));
  } else {
    const list = el('ul', undefined, 'compare-summary');
    for (const line of compare.summary) list.appendChild(el('li', line));
    section.appendChild(list);
    // Short heads: the views often sit in a narrow editor group (the section's heading names the rules).
    const tableRows = rows.map((r): CompareTableRow => {
      const show = (x: number) => (r.kind === 'chance' ? formatPercent(x) : x.toFixed(1));
      const d = r.variant - r.standard;
      const clear = r.kind === 'chance' ? clearlyDifferent(r.variant, r.standard, compare.trials[0], compare.trials[1]) : Math.abs(d) >= 0.05;
      return {
        label: r.label,
        cells: [show(r.variant), show(r.standard)],
        change: clear ? signed(d, r.kind) : `${signed(d, r.kind)} (about the same)`,
        direction: clear ? (d > 0 ? 'up' : 'down') : 'same',
      };
    });
    section.appendChild(
      compareTable('data compare', `With ${titles}, beside the standard rules`, ['', 'With these rules', 'Standard rules', 'Change'], tableRows),
    );
  }
  const details = el('details', undefined, 'advanced');
  details.appendChild(el('summary', 'Advanced: how each rule is mapped onto Fabled Star'));
  for (const v of variants) {
    const entry = VARIANT_CATALOG.find((e) => e.name === v.name);
    const params = Object.entries(v.parameters).map(([k, x]) => `${k} ${x}`);
    details.appendChild(el('h3', `${v.title}${entry ? ` (from ${entry.game})` : ''}${params.length ? `, ${params.join(', ')}` : ''}`));
    const ul = el('ul');
    for (const a of v.assumptions) ul.appendChild(el('li', a));
    details.appendChild(ul);
  }
  section.appendChild(details);
}

/** The rounds a picked variant fixes (morale: 3), with its title; names as the picker gives them ("morale", "retreat:threshold=0.5"). */
export function fixedRounds(variants: readonly VariantChoice[] | undefined): { rounds: number; title: string } | undefined {
  for (const v of variants ?? []) {
    const entry = VARIANT_CATALOG.find((e) => e.name === v.name);
    if (entry?.rounds) return { rounds: entry.rounds, title: entry.title };
  }
  return undefined;
}

/**
 * Locks a Rounds field while a picked variant fixes how long the fight lasts: the field shows the
 * variant's rounds, disabled, with a note saying why (never "Rounds 6" beside 3-round duels); what
 * the user had asked for is kept (`roundsAsked`) and comes back when the variant is unticked.
 */
export function lockRounds(input: HTMLInputElement, variants: readonly VariantChoice[] | undefined): void {
  const fixed = fixedRounds(variants);
  const noteId = `${input.id}-fixed`;
  let note = document.getElementById(noteId);
  if (!note && fixed) {
    // In the field's label, so that the fields stay lined up and the reason is read with the name.
    note = el('span', '', 'field-note');
    note.id = noteId;
    const label = input.labels?.[0];
    if (label) label.append(' ', note);
    else input.insertAdjacentElement('afterend', note);
  }
  if (fixed) {
    if (!input.disabled) input.dataset.asked = input.value;
    input.value = String(fixed.rounds);
    input.disabled = true;
    note!.textContent = `(${fixed.title}: ${fixed.rounds})`;
    note!.hidden = false;
    input.setAttribute('aria-describedby', noteId);
  } else if (input.disabled) {
    input.value = input.dataset.asked ?? input.value;
    delete input.dataset.asked;
    input.disabled = false;
    if (note) note.hidden = true;
    input.removeAttribute('aria-describedby');
  }
}

/** A Rounds field's value as a run asks for it: what the user had typed, while a variant locks the field. */
export function roundsAsked(input: HTMLInputElement): string {
  return input.disabled && input.dataset.asked !== undefined ? input.dataset.asked : input.value;
}
