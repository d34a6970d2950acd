/**
 * Small helpers every feature uses: span tests, Markdown escaping of file text, YAML quoting of
 * inserted names, card lookup and a few dice figures for explanations.
 */
import { clip } from '../model/limits';
import type { FabledDocument, Span, UnitCard } from '../model/types';
import { STAT_ORDER } from '../rules/data';
import { escapeMarkdown } from '../rules/text';
import { binomialPmf, pSuccess } from '../sim/dice';

/** Whether an offset is inside a span, ends included (a cursor right after a word is on it). */
export function within(span: Span | undefined, off: number): boolean {
  return !!span && span.start <= off && off <= span.end;
}

/** Text from a file (unit names, effects), made safe for Markdown: never read as HTML or markup. */
export function md(text: string): string {
  return escapeMarkdown(text);
}

/**
 * Text from a file in a label an editor renders with icons (VS Code's code-lens titles, quick picks):
 * "$(name)" would show an icon, so its "$" is escaped the way VS Code escapes it ("\\$("), and the
 * text is cut to `max` characters on one line.
 */
export function iconSafe(text: string, max = 60): string {
  return clip(text, max).replace(/\$\(/g, '\\$(');
}

/** Text from a file for an inline code span: backticks are dropped so the span cannot be broken out of. */
export function code(text: string): string {
  return '`' + text.replace(/`/g, "'").replace(/\n/g, ' ') + '`';
}

// YAML scalars for new text live with the edit layer (the roster's edits write them too).
export { hasControl, doubleQuoted, yamlScalar, flowScalar, inStyleOf } from '../model/scalars';

/** Every unit card of a document (fleets and collections have none). */
export function cardsOf(doc: FabledDocument): UnitCard[] {
  return doc.kind === 'fleet' || doc.kind === 'collection' ? [] : doc.units;
}

/** The card whose range holds the offset. */
export function cardAt(doc: FabledDocument, off: number): UnitCard | undefined {
  return cardsOf(doc).find((c) => within(c.span, off));
}

/** The card's stat line as written, in rulebook order ("9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"; "?" where absent). */
export function statLine(card: UnitCard): string {
  return STAT_ORDER.map((s) => card.stats?.entries[s]?.raw || '?').join(' ');
}

/** "60%" or "7.1%" or "<0.1%". */
export function pct(p: number): string {
  if (p > 0 && p < 0.001) return '<0.1%';
  const v = p * 100;
  return `${v >= 10 || Number.isInteger(v) ? Math.round(v) : v.toFixed(1)}%`;
}

export function num(n: number, digits = 2): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(digits).replace(/0+$/, '').replace(/\.$/, '');
}

/** P(at least k of `dice` d10s succeed on `target`+), under the dice rules of section 2. */
export function atLeast(target: number, dice: number, k: number): number {
  if (k <= 0) return 1;
  if (k > dice || dice <= 0) return 0;
  const pmf = binomialPmf(Math.min(dice, 1000), pSuccess(target));
  let p = 0;
  for (let i = k; i < pmf.length; i++) p += pmf[i]!;
  return Math.min(1, p);
}

export { pSuccess };

/** The line's end offset (before its \n, \r\n or lone \r): the edit layer's. */
export { lineEnd } from '../model/edit';

/** Cap for lists the features return (symbols, completions, references). */
export const RESULT_CAP = 2000;
