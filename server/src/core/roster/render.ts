/**
 * The roster's renderers: markdown (for forums and chats), HTML (one printable file), plain text,
 * JSON, and the short line players post ("Radiant Court 340, …; 970/1000"). Every piece of file
 * text goes through the format's escaping; nothing from a file is ever read as markup.
 */
import { STAT_ORDER } from '../rules/data';
import { count, pointsLeft } from '../rules/words';
import { escapeMarkdown } from '../rules/text';
import { rulesVersionText } from './digest';
import { qrSvg } from './qr';
import type { ProblemCounts, Roster, RosterCard, RosterEntry, RosterProblem, RosterWeapon, RosterOrder, RosterAbility } from './model';
import { toBuyLine } from './model';

export const ROSTER_FORMATS = ['markdown', 'html', 'json', 'text', 'short'] as const;
export type RosterFormat = (typeof ROSTER_FORMATS)[number];

export interface RenderOptions {
  /** How a problem's file is named (default: the last segment of its uri). */
  file?: (uri: string) => string;
}

export { clean } from './clean';
import { clean } from './clean';

/** "Rules: July 30 (2026-07-30) · Digest: fs1-…": what `fabled-star verify` checks (digest.ts). */
export function provenanceText(r: Roster): string {
  return `Rules: ${rulesVersionText(r.rules)} · Digest: ${r.digest}`;
}

function defaultFile(uri: string): string {
  const last = uri.split(/[/\\]/).pop() ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function countsText(c: ProblemCounts): string {
  const parts = [count(c.errors, 'error')];
  if (c.warnings) parts.push(count(c.warnings, 'warning'));
  if (c.infos) parts.push(count(c.infos, 'note'));
  return parts.join(', ');
}

/** "3 errors, 1 warning", saying where the errors are when some are in the cards rather than the list. */
function verdictText(r: Roster): string {
  const split = r.cardCounts.errors > 0 ? ` (${r.fleetCounts.errors} in the fleet list, ${r.cardCounts.errors} in the cards it uses)` : '';
  return countsText(r.counts).replace(/^(\d+ errors?)/, `$1${split}`);
}

/** "1995 / 2000 pts" or "970 pts". */
export function pointsText(r: Roster): string {
  return r.limit !== undefined ? `${r.total} / ${r.limit} pts` : `${r.total} pts`;
}

/** "5 pts left", "105 pts over the limit", "exactly on the limit", or '' without a limit. */
export function leftText(r: Roster): string {
  return r.remaining === undefined ? '' : pointsLeft(r.remaining);
}

function gameText(r: Roster): string {
  if (r.gameSize) return `${r.gameSize.name} game (${r.gameSize.points} pts, ${r.gameSize.table})`;
  if (r.limit !== undefined) return `custom game (${r.limit} pts)`;
  return 'no points limit';
}

function weaponText(w: RosterWeapon): string {
  const q = (n: number | undefined) => (n === undefined ? '?' : String(n));
  return `${clean(w.name) || '?'} — ${clean(w.type) || '?'}, ${w.range === undefined ? '?' : `${w.range}"`}, ${q(w.damage)}, ${q(w.attacks)}`;
}

function orderHead(o: RosterOrder): string {
  const bits = [o.difficulty !== undefined ? `LD ${o.difficulty}` : '', o.range !== undefined ? `${o.range}"` : ''].filter(Boolean);
  return `${clean(o.name) || '?'}${bits.length ? ` (${bits.join(', ')})` : ''}`;
}

function abilityText(a: RosterAbility): string {
  return a.text ? `${clean(a.name)}: ${clean(a.text)}` : clean(a.name);
}

function statsText(c: RosterCard): string {
  return STAT_ORDER.map((s) => `${s} ${clean(c.stats[s]) || '?'}`).join(' · ');
}

/**
 * An entry's or an embarked unit's name as the sheet prints it: as its card spells it (as the
 * faction is), whatever letter case the list wrote, so that a sheet follows from its digest (which
 * reads names so) and `verify` can render it again; as written when no card has it.
 */
function unitName(x: { unit?: string; name?: string; card: RosterCard | undefined }): string {
  return x.card?.name || (x.unit ?? x.name ?? '');
}

function entryTitle(e: RosterEntry): string {
  return `${e.count !== 1 ? `${e.count}× ` : ''}${clean(unitName(e)) || '(no name)'}`;
}

function entryPoints(e: RosterEntry): string {
  if (!e.complete && e.total === 0) return '? pts';
  const carried = e.embarked.reduce((t, x) => t + x.points, 0);
  const parts: string[] = [];
  if (e.count !== 1) parts.push(`${e.each} each`);
  if (e.embarked.length && e.cardPoints !== undefined) parts.push(`${e.cardPoints} + ${carried} embarked`);
  return `${e.total}${e.complete ? '' : '+?'} pts${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

function classOf(e: { card: RosterCard | undefined }): string {
  return e.card ? clean(e.card.class) || 'no class' : 'unknown card';
}

function where(p: RosterProblem, opts: RenderOptions): string {
  return `${(opts.file ?? defaultFile)(p.uri)}:${p.line}:${p.column}`;
}

/** Every card the roster uses (entries and embarked units), once, in order of first use. */
export function usedCards(r: Roster): RosterCard[] {
  const out: RosterCard[] = [];
  const seen = new Set<RosterCard>();
  for (const e of r.entries)
    for (const c of [e.card, ...e.embarked.map((x) => x.card)]) {
      if (c && !seen.has(c)) {
        seen.add(c);
        out.push(c);
      }
    }
  return out;
}

/** Every problem once (a card used by two entries lists its problems under both). */
function allProblems(r: Roster): RosterProblem[] {
  return [...new Set([...r.problems, ...r.entries.flatMap((e) => e.problems)])];
}

// ---------- the short line ----------

/** "Veil Patrol (Myr-Valari): Lumen Cruiser + Veilwing Fighter Wing 250, Prism Frigate Squadron 110, …; 500/500" */
export function rosterShort(r: Roster): string {
  const items = r.entries.map((e) => {
    const groups = new Map<string, number>();
    for (const x of e.embarked) groups.set(clean(unitName(x)) || '?', (groups.get(clean(unitName(x)) || '?') ?? 0) + 1);
    const carried = [...groups].map(([n, k]) => ` + ${k > 1 ? `${k}× ` : ''}${n}`).join('');
    const pts = e.complete ? String(e.total) : e.total > 0 ? `${e.total}+?` : '?';
    return `${e.count !== 1 ? `${e.count}× ` : ''}${clean(unitName(e)) || '?'}${carried} ${pts}`;
  });
  const head = [clean(r.name), r.faction ? `(${clean(r.faction)})` : ''].filter(Boolean).join(' ');
  const total = r.limit !== undefined ? `${r.total}/${r.limit}` : `${r.total} pts`;
  return `${head ? `${head}: ` : ''}${items.join(', ')}${items.length ? '; ' : ''}${total}${r.legal ? '' : ` (${count(r.counts.errors, 'error')})`} · rules ${r.rules.version} · ${r.digest}`;
}

// ---------- plain text ----------

export function rosterText(r: Roster, opts: RenderOptions = {}): string {
  const out: string[] = [];
  out.push(clean(r.name) || '(unnamed fleet)');
  out.push(`${clean(r.faction) || '(no faction)'} · ${gameText(r)}${r.objectives !== undefined ? ` · ${count(r.objectives, 'objective')}` : ''}`);
  out.push(`Points: ${pointsText(r)}${leftText(r) ? ` (${leftText(r)})` : ''}`);
  out.push(provenanceText(r));
  const buy = toBuyLine(r);
  if (buy) out.push(clean(buy));
  if (!r.legal) out.push('', `NOT LEGAL AS WRITTEN: ${verdictText(r)} (see Problems below)`);
  out.push('', 'Units');
  for (const e of r.entries) {
    out.push(`  ${entryTitle(e)} [${classOf(e)}] ${entryPoints(e)}`);
    for (const x of e.embarked) out.push(`    + embarked: ${clean(unitName(x)) || '?'} [${classOf(x)}] ${x.card ? `${x.points} pts` : '? pts'}`);
    if (e.card) cardText(e.card, out, '      ');
    for (const p of e.problems) out.push(`      ${p.severity.toUpperCase()} ${p.code}: ${clean(p.message)} (${where(p, opts)})`);
  }
  if (r.entries.length === 0) out.push('  (no units)');
  out.push('', 'By class');
  for (const c of r.byClass) out.push(`  ${clean(c.class)}: ${count(c.units, 'unit')}, ${c.points} pts`);
  out.push(`  Total: ${pointsText(r)}${leftText(r) ? ` (${leftText(r)})` : ''}`);
  const embarkedCards = new Set(r.entries.map((e) => e.card));
  const carriedOnly = usedCards(r).filter((c) => !embarkedCards.has(c));
  if (carriedOnly.length) {
    out.push('', 'Embarked units');
    for (const c of carriedOnly) {
      out.push(`  ${clean(c.name)} [${clean(c.class) || 'no class'}] ${c.points ?? '?'} pts`);
      cardText(c, out, '      ');
    }
  }
  if (r.board) boardText(r, out);
  out.push('', 'Problems');
  const ps = allProblems(r);
  for (const p of ps) out.push(`  ${where(p, opts)}: ${p.severity} ${p.code}: ${clean(p.message)}`);
  out.push(`  ${ps.length ? countsText(r.counts) : 'none'}`);
  return out.join('\n') + '\n';
}

function cardText(c: RosterCard, out: string[], pad: string): void {
  out.push(`${pad}${statsText(c)}`);
  for (const w of c.weapons) out.push(`${pad}Weapon: ${weaponText(w)}`);
  for (const o of c.orders) out.push(`${pad}Order: ${orderHead(o)}${o.effect ? `: ${clean(o.effect)}` : ''}`);
  for (const a of c.abilities) out.push(`${pad}Ability: ${abilityText(a)}`);
}

function boardText(r: Roster, out: string[]): void {
  const b = r.board!;
  out.push('', 'Command Board');
  out.push(`  Doctrine: ${clean(b.doctrine) || '?'} · ${b.cp ?? '?'} CP per round`);
  if (b.cpSources.length) out.push(`  CP: ${b.cpSources.map((s) => `${clean(s.name)} ${s.cp ?? '?'}`).join(', ')}`);
  if (b.factionAbility) out.push(`  Faction ability: ${abilityText(b.factionAbility)}`);
  for (const a of b.commandAbilities) out.push(`  ${clean(a.name) || '?'} (${a.cost ?? '?'} CP; ${clean(a.timing) || '?'}): ${clean(a.effect)}`);
}

// ---------- markdown ----------

/**
 * File text for markdown: escaped so that no character starts markup (emphasis, links, tables,
 * HTML, headings), and chat mentions (`@everyone`, `@here`) broken so a pasted roster pings no one.
 */
export function md(s: string): string {
  return escapeMarkdown(clean(s)).replace(/@(?=everyone|here)/gi, '@\u200b');
}

/**
 * Markdown that reads the same on GitHub, Reddit, forums and Discord: headings, bold and nested
 * lists only (Discord and many forums render no tables), each list item one line.
 */
export function rosterMarkdown(r: Roster, opts: RenderOptions = {}): string {
  const out: string[] = [];
  out.push(`# ${md(r.name) || '(unnamed fleet)'}`, '');
  const meta = [`**${md(r.faction) || '(no faction)'}**`, md(gameText(r))];
  if (r.objectives !== undefined) meta.push(count(r.objectives, 'objective'));
  out.push(meta.join(' · '), '');
  out.push(`**${pointsText(r)}**${leftText(r) ? ` · ${leftText(r)}` : ''}`, '');
  out.push(provenanceText(r), '');
  const buy = toBuyLine(r);
  if (buy) out.push(md(buy), '');
  if (!r.legal) out.push(`> **⚠ Not legal as written: ${verdictText(r)}.** See Problems below.`, '');
  out.push('## Units', '');
  for (const e of r.entries) {
    out.push(`- **${md(entryTitle(e))}** · ${md(classOf(e))} · ${entryPoints(e)}`);
    for (const x of e.embarked) out.push(`  - Embarked: **${md(unitName(x)) || '?'}** · ${md(classOf(x))} · ${x.card ? `${x.points} pts` : '? pts'}`);
    if (e.card) cardMarkdown(e.card, out);
    for (const p of e.problems) out.push(`  - ⚠ ${p.severity} ${p.code}: ${md(p.message)}`);
  }
  if (r.entries.length === 0) out.push('- (no units)');
  out.push('');
  const listed = new Set(r.entries.map((e) => e.card));
  const carriedOnly = usedCards(r).filter((c) => !listed.has(c));
  if (carriedOnly.length) {
    out.push('## Embarked units', '');
    for (const c of carriedOnly) {
      out.push(`- **${md(c.name)}** · ${md(c.class) || 'no class'} · ${c.points ?? '?'} pts`);
      cardMarkdown(c, out);
    }
    out.push('');
  }
  out.push('## By class', '');
  for (const c of r.byClass) out.push(`- ${md(c.class)}: ${count(c.units, 'unit')}, ${c.points} pts`);
  out.push(`- **Total: ${pointsText(r)}**${leftText(r) ? ` (${leftText(r)})` : ''}`, '');
  if (r.board) {
    const b = r.board;
    out.push('## Command Board', '');
    out.push(`- Doctrine: ${md(b.doctrine) || '?'} · ${b.cp ?? '?'} CP per round`);
    if (b.cpSources.length) out.push(`- CP: ${b.cpSources.map((s) => `${md(s.name)} ${s.cp ?? '?'}`).join(', ')}`);
    if (b.factionAbility) out.push(`- Faction ability: **${md(b.factionAbility.name)}**${b.factionAbility.text ? `: ${md(b.factionAbility.text)}` : ''}`);
    for (const a of b.commandAbilities) out.push(`- **${md(a.name) || '?'}** (${a.cost ?? '?'} CP; ${md(a.timing) || '?'}): ${md(a.effect)}`);
    out.push('');
  }
  out.push('## Problems', '');
  const ps = allProblems(r);
  if (ps.length === 0) out.push('None: the fleet is legal as written.');
  for (const p of ps) out.push(`- ${p.severity} ${p.code} (${md(where(p, opts))}): ${md(p.message)}`);
  return out.join('\n') + '\n';
}

function cardMarkdown(c: RosterCard, out: string[]): void {
  out.push(`  - ${md(statsText(c))}`);
  if (c.weapons.length) out.push(`  - Weapons: ${c.weapons.map((w) => md(weaponText(w))).join('; ')}`);
  for (const o of c.orders) out.push(`  - Order: ${md(orderHead(o))}${o.effect ? `: ${md(o.effect)}` : ''}`);
  if (c.abilities.length) out.push(`  - Abilities: ${c.abilities.map((a) => md(abilityText(a))).join('; ')}`);
}

// ---------- HTML ----------

/** Text for HTML element content and attribute values. */
export function esc(s: string): string {
  return clean(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const CSS = `
:root { color-scheme: light; --ink: #1b1d24; --muted: #5b6070; --line: #c9ccd6; --bad: #a4161a; --badbg: #fdecec; --warn: #8a5a00; }
* { box-sizing: border-box; }
body { font: 10.5pt/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); margin: 0 auto; max-width: 60rem; padding: 1.5rem; }
h1 { font-size: 1.7rem; margin: 0 0 .2rem; }
h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; border-bottom: 2px solid var(--ink); padding-bottom: .15rem; }
h3 { font-size: 1rem; margin: 0; }
.meta { color: var(--muted); margin: 0; }
.points { font-size: 1.25rem; font-weight: 700; margin: .4rem 0 0; }
.points .left { font-weight: 400; font-size: 1rem; color: var(--muted); }
.points.over, .points.over .left { color: var(--bad); }
.verdict { border: 2px solid var(--bad); background: var(--badbg); color: var(--bad); padding: .6rem .8rem; margin: 1rem 0; font-weight: 700; }
.verdict ul { margin: .3rem 0 0; padding-left: 1.2rem; font-weight: 400; }
.legal { color: var(--muted); margin: .6rem 0; }
.digest { color: var(--muted); margin: .2rem 0 0; font-size: .9em; }
.digest .code { font: .95em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--ink); }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid var(--line); padding: .2rem .4rem; text-align: left; vertical-align: top; }
th { background: #eef0f5; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.embarked td:first-child + td { padding-left: 1.4rem; }
tr.embarked td { color: var(--muted); }
tfoot td { font-weight: 700; }
.problem { color: var(--bad); font-size: .9em; }
.problem.warning { color: var(--warn); }
.problem.info { color: var(--muted); }
.cards { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
.card { border: 1px solid var(--ink); padding: .5rem .6rem; break-inside: avoid; page-break-inside: avoid; }
.card header { display: flex; justify-content: space-between; gap: .5rem; align-items: baseline; border-bottom: 1px solid var(--line); margin-bottom: .4rem; }
.card .class { color: var(--muted); font-size: .9em; }
.card table { margin: .3rem 0; font-size: .92em; }
.stats th, .stats td { text-align: center; padding: .1rem .2rem; }
.card ul { margin: .3rem 0 0; padding-left: 1.1rem; }
.card li { margin: .1rem 0; }
.units th:nth-child(1) { width: 3.2em; } .units th:nth-child(3) { width: 9em; } .units th:nth-child(4) { width: 4.5em; } .units th:nth-child(5) { width: 7.5em; }
.classes { width: auto; min-width: 50%; }
.board dt { font-weight: 700; break-after: avoid; page-break-after: avoid; }
.board dd { margin: 0 0 .3rem 1rem; }
body > header { position: relative; }
svg.qr.share { position: absolute; top: 0; right: 0; width: 30mm; height: 30mm; }
footer { margin-top: 1.5rem; color: var(--muted); font-size: .85em; }
@page { size: A4; margin: 12mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 9.5pt; }
  h2 { break-after: avoid; page-break-after: avoid; }
  tr, .board dd { break-inside: avoid; page-break-inside: avoid; }
  .verdict { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
@media (max-width: 40rem) { .cards { grid-template-columns: 1fr; } }
`;

/**
 * One self-contained printable HTML file: inline CSS, no scripts, every text escaped. A sheet for the
 * table: it names no file (`_opts`, how files are named, is for the other formats' problem lists).
 */
export function rosterHtml(r: Roster, _opts: RenderOptions = {}): string {
  const h: string[] = [];
  const title = esc(r.name) || '(unnamed fleet)';
  h.push('<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">');
  // Belt and braces: even if some text escaped its escaping, the page may run nothing and load nothing.
  h.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  h.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  h.push(`<title>${title} — fleet roster</title>`, `<style>${CSS}</style>`, '</head>', '<body>');
  h.push('<header>', `<h1>${title}</h1>`);
  const meta = [esc(r.faction) || '(no faction)', esc(gameText(r))];
  if (r.objectives !== undefined) meta.push(count(r.objectives, 'objective'));
  h.push(`<p class="meta">${meta.join(' · ')}</p>`);
  h.push(`<p class="points${r.over ? ' over' : ''}">${pointsText(r)}${leftText(r) ? ` <span class="left">· ${leftText(r)}</span>` : ''}</p>`);
  h.push(`<p class="digest">Rules: ${esc(rulesVersionText(r.rules))} · Digest: <span class="code">${esc(r.digest)}</span></p>`);
  // The one line with its digest as a QR code, for another player to scan and import (no text: an import reads the page's text).
  h.push(qrSvg(rosterShort(r), 'QR code of the roster&#39;s one line, which fabled-star import reads back', 'share') ?? '', '</header>');
  const ps = allProblems(r);
  const buy = toBuyLine(r);
  if (buy) h.push(`<p class="to-buy">${esc(buy)}</p>`);
  // A sheet for the table, not the editor: the problems in words (no codes, no file positions), and
  // none on a legal list (the editor and `check` list its warnings for whoever edits it).
  const onEntries = new Set(r.entries.flatMap((e) => e.problems));
  if (!r.legal) {
    h.push(`<section class="verdict" role="alert">⚠ Not legal as written: ${verdictText(r)}.<ul>`);
    for (const p of ps.filter((x) => x.severity === 'error')) h.push(`<li>${esc(p.message)}</li>`);
    // The fleet's own warnings (an entry's are on its row).
    for (const p of ps.filter((x) => x.severity !== 'error' && !onEntries.has(x))) h.push(`<li class="problem ${p.severity}">Also: ${esc(p.message)}</li>`);
    h.push('</ul></section>');
  } else {
    h.push('<p class="legal">Legal as written.</p>');
  }

  h.push('<h2>Units</h2>', '<table class="units">');
  h.push('<thead><tr><th class="n">Qty</th><th>Unit</th><th>Class</th><th class="n">Each</th><th class="n">Points</th></tr></thead>', '<tbody>');
  for (const e of r.entries) {
    h.push(
      `<tr class="entry"><td class="n">${e.count}</td><td><strong>${esc(unitName(e)) || '(no name)'}</strong></td><td>${esc(classOf(e))}</td>` +
        `<td class="n">${e.card ? (e.cardPoints ?? '?') : '?'}</td><td class="n">${e.complete ? e.total : e.total > 0 ? `${e.total}+?` : '?'}</td></tr>`,
    );
    for (const x of e.embarked)
      h.push(
        `<tr class="embarked"><td class="n"></td><td>↳ ${esc(unitName(x)) || '?'}${e.count > 1 ? ` <small>(each copy)</small>` : ''}</td><td>${esc(classOf(x))}</td><td class="n">${x.card ? x.points : '?'}</td><td class="n"></td></tr>`,
      );
    for (const p of r.legal ? [] : e.problems)
      h.push(`<tr class="problem-row"><td></td><td colspan="4" class="problem ${p.severity}">⚠ ${esc(p.message)}</td></tr>`);
  }
  if (r.entries.length === 0) h.push('<tr><td></td><td colspan="4">(no units)</td></tr>');
  h.push(
    '</tbody>',
    `<tfoot><tr><td></td><td colspan="3">Total${leftText(r) ? ` · ${leftText(r)}` : ''}</td><td class="n">${pointsText(r)}</td></tr></tfoot>`,
    '</table>',
  );

  h.push('<h2>By class</h2>', '<table class="classes"><thead><tr><th>Class</th><th class="n">Units</th><th class="n">Points</th></tr></thead><tbody>');
  for (const c of r.byClass) h.push(`<tr><td>${esc(c.class)}</td><td class="n">${c.units}</td><td class="n">${c.points}</td></tr>`);
  h.push('</tbody></table>');

  const cards = usedCards(r);
  if (cards.length) {
    h.push('<h2>Unit cards</h2>', '<div class="cards">');
    for (const c of cards) h.push(cardHtml(c));
    h.push('</div>');
  }

  if (r.board) {
    const b = r.board;
    h.push('<h2>Command Board</h2>', '<dl class="board">');
    h.push(
      `<dt>Doctrine</dt><dd>${esc(b.doctrine) || '?'} · ${b.cp ?? '?'} CP per round${b.cpSources.length ? ` (${b.cpSources.map((s) => `${esc(s.name)} ${s.cp ?? '?'}`).join(', ')})` : ''}</dd>`,
    );
    if (b.factionAbility) h.push(`<dt>${esc(b.factionAbility.name) || 'Faction ability'}</dt><dd>${esc(b.factionAbility.text)}</dd>`);
    for (const a of b.commandAbilities)
      h.push(
        `<dt>${esc(a.name) || '?'} <small>(${a.cost ?? '?'} CP)</small></dt><dd><em>${esc(a.timing)}</em>${a.timing && a.effect ? ': ' : ''}${esc(a.effect)}</dd>`,
      );
    h.push('</dl>');
  }

  h.push('<footer>Fleet roster from Fabled Star Tools. The YAML fleet list is the source of truth.</footer>', '</body>', '</html>');
  return h.join('\n') + '\n';
}

function cardHtml(c: RosterCard): string {
  const h: string[] = [];
  h.push('<article class="card">');
  h.push(
    `<header><h3>${esc(c.name)}</h3><span class="class">${esc(c.class) || 'no class'} · ${c.points ?? '?'} pts${c.bases !== undefined ? ` · ${count(c.bases, 'base')}` : ''}</span></header>`,
  );
  h.push(`<table class="stats"><thead><tr>${STAT_ORDER.map((s) => `<th>${s}</th>`).join('')}</tr></thead>`);
  h.push(`<tbody><tr>${STAT_ORDER.map((s) => `<td>${esc(c.stats[s]) || '?'}</td>`).join('')}</tr></tbody></table>`);
  if (c.weapons.length) {
    h.push(
      '<table class="weapons"><thead><tr><th>Weapon</th><th>Type</th><th class="n">Range</th><th class="n">Dmg</th><th class="n">Attacks</th></tr></thead><tbody>',
    );
    for (const w of c.weapons)
      h.push(
        `<tr><td>${esc(w.name) || '?'}</td><td>${esc(w.type) || '?'}</td><td class="n">${w.range === undefined ? '?' : `${w.range}"`}</td><td class="n">${w.damage ?? '?'}</td><td class="n">${w.attacks ?? '?'}</td></tr>`,
      );
    h.push('</tbody></table>');
  }
  if (c.orders.length || c.abilities.length) {
    h.push('<ul>');
    for (const o of c.orders) h.push(`<li><strong>Order: ${esc(orderHead(o))}</strong>${o.effect ? ` ${esc(o.effect)}` : ''}</li>`);
    for (const a of c.abilities) h.push(`<li><strong>${esc(a.name)}</strong>${a.text ? ` ${esc(a.text)}` : ''}</li>`);
    h.push('</ul>');
  }
  h.push('</article>');
  return h.join('\n');
}

// ---------- JSON ----------

function cardJson(c: RosterCard | undefined, opts: RenderOptions): object | null {
  if (!c) return null;
  return {
    name: c.name,
    faction: c.faction,
    class: c.class,
    points: c.points ?? null,
    bases: c.bases ?? null,
    stats: c.stats,
    statLine: c.statLine,
    weapons: c.weapons.map((w) => ({ name: w.name, type: w.type, range: w.range ?? null, damage: w.damage ?? null, attacks: w.attacks ?? null })),
    orders: c.orders.map((o) => ({ name: o.name, difficulty: o.difficulty ?? null, range: o.range ?? null, effect: o.effect })),
    abilities: c.abilities.map((a) => ({ name: a.name, text: a.text })),
    file: (opts.file ?? defaultFile)(c.uri),
  };
}

function problemJson(p: RosterProblem, opts: RenderOptions): object {
  return { severity: p.severity, code: p.code, message: p.message, file: (opts.file ?? defaultFile)(p.uri), line: p.line, column: p.column, inCard: p.inCard };
}

/** The roster as plain JSON (no offsets; files named by `opts.file`, lines and columns 1-based). */
export function rosterJson(r: Roster, opts: RenderOptions = {}): object {
  return {
    name: r.name,
    faction: r.faction,
    limit: r.limit ?? null,
    gameSize: r.gameSize ?? null,
    objectives: r.objectives ?? null,
    total: r.total,
    remaining: r.remaining ?? null,
    over: r.over,
    legal: r.legal,
    ...(r.toBuy ? { toBuy: r.toBuy } : {}),
    rules: r.rules,
    digest: r.digest,
    counts: r.counts,
    fleetCounts: r.fleetCounts,
    cardCounts: r.cardCounts,
    entries: r.entries.map((e) => ({
      unit: unitName(e),
      class: e.card ? e.card.class : null,
      count: e.count,
      cardPoints: e.cardPoints ?? null,
      each: e.each,
      total: e.total,
      complete: e.complete,
      card: cardJson(e.card, opts),
      embarked: e.embarked.map((x) => ({ name: unitName(x), class: x.card ? x.card.class : null, points: x.points, known: !!x.card })),
      problems: e.problems.map((p) => problemJson(p, opts)),
    })),
    byClass: r.byClass,
    board: r.board
      ? {
          faction: r.board.faction,
          doctrine: r.board.doctrine,
          cp: r.board.cp ?? null,
          cpSources: r.board.cpSources.map((s) => ({ name: s.name, cp: s.cp ?? null })),
          factionAbility: r.board.factionAbility ?? null,
          commandAbilities: r.board.commandAbilities.map((a) => ({ ...a, cost: a.cost ?? null })),
          file: (opts.file ?? defaultFile)(r.board.uri),
        }
      : null,
    problems: r.problems.map((p) => problemJson(p, opts)),
    copyText: rosterShort(r),
  };
}

export function renderRoster(r: Roster, format: RosterFormat, opts: RenderOptions = {}): string {
  switch (format) {
    case 'markdown':
      return rosterMarkdown(r, opts);
    case 'html':
      return rosterHtml(r, opts);
    case 'json':
      return JSON.stringify(rosterJson(r, opts), null, 2) + '\n';
    case 'text':
      return rosterText(r, opts);
    case 'short':
      return rosterShort(r) + '\n';
  }
}
