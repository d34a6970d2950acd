/**
 * The order of rulebook sections for what a player types into Show Rule: the section the word names
 * or defines first, then those that mention it, then the rest. VS Code's own quick-pick filter
 * matches scattered letters in the summaries ("Blast" in "multi-Base units … Leader And muSt sTay"),
 * and keeps rulebook order among them, so §8 came before §12 for "Blast". VS Code lists items whose
 * label matches first, so a section that defines the word also names it in its label. No vscode
 * import: tested on its own.
 */
import type { RuleTextEntry } from '../../protocol';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How well a section answers `query`: lower is better. */
export function ruleScore(e: RuleTextEntry, query: string): number {
  const q = query
    .trim()
    .replace(/^\u00a7\s*/, '')
    .toLowerCase();
  if (!q) return 0;
  if (/^\d+$/.test(q)) return String(e.number) === q ? 0 : String(e.number).startsWith(q) ? 1 : 9;
  const word = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(q)}(?![\\p{L}\\p{N}])`, 'iu');
  const start = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(q)}`, 'iu');
  const terms = (e.terms ?? []).map((t) => t.toLowerCase());
  if (word.test(e.title)) return 0;
  if (terms.includes(q)) return 1;
  if (start.test(e.title)) return 2;
  if (terms.some((t) => t.startsWith(q))) return 3;
  if (word.test(e.summary)) return 4;
  if (word.test(e.markdown)) return 5;
  if (start.test(e.summary) || start.test(e.markdown)) return 6;
  return 9;
}

/** The sections, best answer to `query` first (rulebook order among equals). */
export function rankRules(entries: readonly RuleTextEntry[], query: string): RuleTextEntry[] {
  return entries
    .map((e) => ({ e, s: ruleScore(e, query) }))
    .sort((a, b) => a.s - b.s || a.e.number - b.e.number)
    .map((x) => x.e);
}

/** The defined term of `e` that `query` names (or starts), when its title does not already. */
export function definedTerm(e: RuleTextEntry, query: string): string | undefined {
  const q = query.trim().toLowerCase();
  if (!q || /^\u00a7?\s*\d+$/.test(q)) return undefined;
  if (e.title.toLowerCase().includes(q)) return undefined;
  const terms = e.terms ?? [];
  return terms.find((t) => t.toLowerCase() === q) ?? terms.find((t) => t.toLowerCase().startsWith(q));
}

/** "§12 Weapons & Weapon Types", and " — Blast" when the section defines what is typed. */
export function ruleLabel(e: RuleTextEntry, query: string): string {
  const term = definedTerm(e, query);
  return `§${e.number} ${e.title}${term ? ` — ${term}` : ''}`;
}
