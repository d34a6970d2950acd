/**
 * The printable card sheet (`fabled-star cards`, Print Unit Cards): one playing-card-sized box
 * (63 x 88 mm) per card, nine to an A4 page or eight to a US Letter page turned landscape, with the
 * card's name, faction, class, points, base size, its stat line as the rulebook prints it
 * (M · BS · D · SH · AC · HP · LD · CR · T, a dash as "—"), weapons, orders with their LD
 * Difficulty, abilities, and damage tracks to tick off: one box per HP per base, one per SH point
 * (the pool of a Combined Shields squadron), one per unit a Launch Bay carries.
 *
 * Print CSS only, no script: a page is laid out before it is printed, so the text is fitted here.
 * Each text is given the lines it can have from the room the rest of the card leaves (estimated
 * from the font sizes the style sheet sets, with a wide font's letter width); a text that does not
 * fit is cut at a word and ends "…" with the rulebook section that has it in full. A CSS line clamp
 * stays behind each as a backstop. Every text from a file is escaped (render.ts `esc`).
 */
import { CLASSES, CLASS_NAMES, KNOWN_ORDERS, LAUNCH_BAY, ORDERS_SECTION, STAT_ORDER } from '../rules/data';
import { knownAbility, launchBayTier, universalRule, normRuleName } from '../rules/lookup';
import { bayCapacity } from '../model/derived';
import type { CardRef } from '../workspace';
import type { FleetTotals } from '../fleetPoints';
import { rosterCard, type RosterCard } from './model';
import { esc } from './render';
import { clean } from './clean';
import { qrSvg } from './qr';

export const PAPERS = {
  a4: { css: 'A4', width: 210, height: 297, columns: 3, rows: 3 },
  letter: { css: 'letter landscape', width: 279.4, height: 215.9, columns: 4, rows: 2 },
} as const;
export type Paper = keyof typeof PAPERS;
export const PAPER_NAMES = Object.keys(PAPERS) as Paper[];

/** A playing card, in mm. */
export const CARD_MM = { width: 63, height: 88 } as const;

/** Damage boxes drawn for one track at most; past it the track is a number to count down. */
const MAX_BOXES = 60;

export interface SheetCard {
  card: RosterCard;
  /** Bases as the card gives them, else the class's. */
  bases: number;
  /** Base size in mm, and whether it is the class default (the card gives none). */
  baseMm: number | undefined;
  baseIsDefault: boolean;
  /** Hull Points of one base, when a whole number. */
  hp: number | undefined;
  /** Shields of one base, when a whole number ("—": 0). */
  sh: number | undefined;
  combinedShields: boolean;
  /** What the card's Launch Bays carry, when it has any. */
  bay: { capacity: number; carries: string } | undefined;
  /** "1 of 2" for a fielded copy. */
  copy?: string;
  /** The units embarked on this copy (fleet sheets). */
  embarked?: string[];
  /** "on Lumen Cruiser (1 of 2)": the copy this embarked unit starts in. */
  carriedBy?: string;
}

function statNumber(ref: CardRef, stat: 'HP' | 'SH'): number | undefined {
  const v = ref.card.stats?.entries[stat]?.value;
  if (!v) return undefined;
  if (v.kind === 'none') return 0;
  return v.kind === 'count' && Number.isInteger(v.n) && v.n >= 0 ? v.n : undefined;
}

/** A card as the sheet prints it. */
export function sheetCard(ref: CardRef): SheetCard {
  const card = rosterCard(ref);
  const c = ref.card;
  const cls = c.class.value && (CLASS_NAMES as readonly string[]).includes(c.class.value) ? CLASSES[c.class.value] : undefined;
  const cap = bayCapacity(c);
  const capacity = cap.tierFighters + cap.reserves;
  const given = c.base?.value;
  return {
    card,
    bases: c.bases?.value !== undefined && Number.isInteger(c.bases.value) && c.bases.value > 0 ? c.bases.value : (cls?.bases ?? 1),
    baseMm: given !== undefined && given > 0 ? given : cls?.baseMm,
    baseIsDefault: !(given !== undefined && given > 0),
    hp: statNumber(ref, 'HP'),
    sh: statNumber(ref, 'SH'),
    combinedShields: cls?.combinedShields ?? false,
    bay: capacity > 0 ? { capacity, carries: cap.reserves > 0 ? LAUNCH_BAY.carrierCarries.join(' or ') : LAUNCH_BAY.tierCarries.join(' or ') } : undefined,
  };
}

/**
 * A fleet's cards as fielded: one per copy of each entry, each followed by the cards of the units it
 * carries (one per embarked unit, per copy). Entries whose card is unknown are left out.
 */
export function fleetSheetCards(totals: FleetTotals): SheetCard[] {
  const out: SheetCard[] = [];
  for (const ep of totals.entries) {
    if (!ep.card) continue;
    const n = ep.entry.count.value !== undefined && ep.entry.count.value > 0 ? Math.min(ep.entry.count.value, 500) : 0;
    for (let i = 1; i <= n; i++) {
      const host = sheetCard(ep.card);
      if (n > 1) host.copy = `${i} of ${n}`;
      host.embarked = ep.embarked.map((x) => clean(x.card?.name ?? x.name) || '?');
      out.push(host);
      for (const x of ep.embarked) {
        if (!x.card) continue;
        const carried = sheetCard(x.card);
        carried.carriedBy = `on ${clean(ep.card.name)}${host.copy ? ` (${host.copy})` : ''}`;
        out.push(carried);
      }
    }
  }
  return out;
}

// ---------- fitting text ----------

/**
 * Layout figures in mm, shared by the style sheet and the fitting. A letter is taken at 0.6 em,
 * the width of DejaVu Sans (the widest common sans-serif) over English text, so the estimate errs
 * towards room left over.
 */
const L = {
  pad: 2.2,
  nameFont: 2.9, // 8.2pt
  smallFont: 2.05, // 5.8pt
  textFont: 2.3, // 6.5pt
  lineHeight: 1.2,
  letter: 0.6,
  box: 2.4,
  boxGap: 0.5,
} as const;
const INNER_W = CARD_MM.width - 2 * L.pad - 0.6;
const INNER_H = CARD_MM.height - 2 * L.pad - 0.6;
const lineMm = (font: number) => font * L.lineHeight;
const perLine = (font: number, width = INNER_W) => Math.floor(width / (font * L.letter));
/** The name is bold and may be all capitals: its letters are taken wider. */
const NAME_CPL = Math.floor(INNER_W / (L.nameFont * 0.78));
/** A weapon's name in its column (the type and three numbers take the rest); it may take two lines. */
const WEAPON_NAME_CPL = perLine(L.smallFont, INNER_W - 12 - 3 * 6 - 1);
const weaponName = (name: string) => shorten(name || '?', 2 * WEAPON_NAME_CPL);

/** Text cut to at most `max` characters, at a word when there is one, ending in "…" and `tail`. */
export function shorten(text: string, max: number, tail = ''): string {
  const t = clean(text);
  if (t.length <= max) return t;
  const room = Math.max(0, max - 1 - tail.length);
  let cut = t.slice(0, room);
  const space = cut.lastIndexOf(' ');
  // At a word: a name of one 12,000-letter word has none, and is cut where the room ends.
  if (space > room / 3) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:.\u2014\u2013-]+$/, '')}…${tail}`;
}

/** " (§13)", " (Carrier card)": where the rulebook has the text in full. */
function sectionTail(section: string | undefined): string {
  if (!section) return '';
  return /^\d+$/.test(section) ? ` (§${section})` : ` (${section})`;
}

function abilitySection(name: string): string | undefined {
  if (launchBayTier(name) !== undefined || normRuleName(name) === normRuleName(LAUNCH_BAY.reservesAbility)) return LAUNCH_BAY.section;
  return knownAbility(name)?.section ?? universalRule(name)?.section;
}

function abilitySummary(name: string): string {
  const tier = launchBayTier(name);
  if (tier !== undefined) {
    const n = tier * LAUNCH_BAY.fightersPerTier;
    return `May embark ${n} ${LAUNCH_BAY.tierCarries.join(' or ')} unit${n === 1 ? '' : 's'}, launched from this unit's base.`;
  }
  return knownAbility(name)?.summary ?? universalRule(name)?.summary ?? '';
}

function orderSummary(name: string): string {
  return KNOWN_ORDERS.find((o) => normRuleName(o.name) === normRuleName(name))?.summary ?? '';
}

function orderSection(name: string): string {
  return KNOWN_ORDERS.find((o) => normRuleName(o.name) === normRuleName(name))?.section ?? ORDERS_SECTION;
}

interface TextItem {
  head: string;
  body: string;
  tail: string;
}

/** Rows of boxes a track takes: groups (bases) of `n` boxes each, wrapping as the card's width allows. */
function trackRows(groups: number, n: number): number {
  if (n <= 0 || groups <= 0) return 0;
  if (n * groups > MAX_BOXES) return 1;
  const label = 9; // the track's name
  const groupLabel = groups > 1 ? 3 : 0;
  const width = INNER_W - label;
  const groupW = groupLabel + n * (L.box + L.boxGap) + 1;
  if (groupW <= width) return Math.ceil(groups / Math.max(1, Math.floor(width / groupW)));
  const perRow = Math.max(1, Math.floor((width - groupLabel) / (L.box + L.boxGap)));
  return groups * Math.ceil(n / perRow);
}

/** The mm the card's fixed parts take: header, stat line, weapons table, tracks. */
function fixedHeight(s: SheetCard, nameLines: number): number {
  const small = lineMm(L.smallFont);
  const header = nameLines * lineMm(L.nameFont) + small + 1.2;
  const stats = 2 * (small + 0.6) + 1;
  const weaponLines = s.card.weapons.reduce((t, w) => t + (weaponName(w.name).length > WEAPON_NAME_CPL ? 2 : 1), 0);
  const weapons = s.card.weapons.length ? (weaponLines + 1) * (small + 0.5) + 1 : 0;
  const trackRow = L.box + 1;
  const shGroups = s.combinedShields ? 1 : s.bases;
  const shBoxes = s.combinedShields ? (s.sh ?? 0) * s.bases : (s.sh ?? 0);
  const rows =
    Math.max(1, trackRows(s.bases, s.hp ?? 0)) +
    trackRows(shGroups, shBoxes) +
    (s.bay ? Math.max(trackRows(1, Math.min(s.bay.capacity, MAX_BOXES)), 1) + (s.embarked?.length ? 1 : 0) : 0);
  const tracks = rows * trackRow + 1.5;
  return header + stats + weapons + tracks + (s.copy || s.carriedBy ? small : 0) + 1;
}

/**
 * The orders and abilities as printed, cut to the lines the card has left: each item gets its whole
 * text when all fit; else the lines are shared out (the shortest first get what they need) and each
 * cut item ends with its rulebook section; when not even a line each fits, the names run on in one
 * paragraph, and past that the list ends "and N more".
 */
export function fitTexts(items: TextItem[], lines: number, cpl: number): { mode: 'items' | 'names'; items: { head: string; text: string; lines: number }[] } {
  const need = items.map((it) => Math.ceil((it.head.length + 1 + it.body.length) / cpl) || 1);
  if (need.reduce((a, b) => a + b, 0) <= lines) return { mode: 'items', items: items.map((it, i) => ({ head: it.head, text: it.body, lines: need[i]! })) };
  if (items.length <= lines) {
    // Water-filling: a level every item gets at most, the short ones keeping what they need.
    const give = need.map(() => 1);
    let left = lines - items.length;
    const order = need.map((n, i) => i).sort((a, b) => need[a]! - need[b]!);
    let remaining = order.length;
    for (const i of order) {
      const share = Math.ceil(left / remaining);
      const add = Math.min(need[i]! - 1, share);
      give[i]! += add;
      left -= add;
      remaining--;
    }
    return {
      mode: 'items',
      items: items.map((it, i) => {
        const room = give[i]! * cpl - it.head.length - 1;
        const text = give[i]! >= need[i]! ? it.body : shorten(it.body, Math.max(0, room), it.tail);
        return { head: it.head, text: text === `…${it.tail}` ? it.tail.trim() : text, lines: give[i]! };
      }),
    };
  }
  // Names only, run on: each name and its section, "·" between.
  const names = items.map((it) => `${it.head}${it.tail}`);
  const out: string[] = [];
  let used = 0;
  const budget = lines * cpl - 14;
  for (const [i, n] of names.entries()) {
    if (used + n.length + 3 > budget) {
      out.push(`and ${names.length - i} more`);
      break;
    }
    out.push(n);
    used += n.length + 3;
  }
  return { mode: 'names', items: [{ head: '', text: out.join(' · '), lines }] };
}

// ---------- HTML ----------

const CSS = `
:root { color-scheme: light; --ink: #16181d; --muted: #555b68; --line: #b9bdc8; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "DejaVu Sans Condensed", "Liberation Sans Narrow", "Arial Narrow", Arial, "Helvetica Neue", Helvetica, sans-serif; color: var(--ink); background: #fff; }
.sheet { position: relative; margin: 0 auto; break-after: page; page-break-after: always; break-inside: avoid; overflow: visible; }
.sheet:last-child { break-after: auto; page-break-after: auto; }
.grid { position: absolute; left: 0; right: 0; display: grid; justify-content: center; }
.card { width: ${CARD_MM.width}mm; height: ${CARD_MM.height}mm; border: 0.3mm solid var(--ink); padding: ${L.pad}mm; display: flex; flex-direction: column; gap: 0; break-inside: avoid; page-break-inside: avoid; font-size: ${L.smallFont}mm; line-height: ${L.lineHeight}; }
.clamp { display: -webkit-box; -webkit-box-orient: vertical; overflow: clip; overflow-wrap: anywhere; }
.card h2 { font-size: ${L.nameFont}mm; line-height: ${L.lineHeight}; margin: 0; font-weight: 700; -webkit-line-clamp: 2; }
.card .sub { color: var(--muted); -webkit-line-clamp: 1; }
.card .note { color: var(--muted); font-style: italic; -webkit-line-clamp: 1; }
.card table { border-collapse: collapse; width: 100%; table-layout: fixed; margin-top: 0.6mm; }
.card th, .card td { border: 0.15mm solid var(--line); padding: 0.15mm 0.4mm; font-size: ${L.smallFont}mm; line-height: ${L.lineHeight}; text-align: center; white-space: nowrap; }
.card th { background: #eceef3; font-weight: 700; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.card .weapons td:first-child, .card .weapons th:first-child { text-align: left; white-space: normal; }
.card .weapons col.w-type { width: 12mm; } .card .weapons col.w-n { width: 6mm; }
.card .texts { flex: 1 1 auto; min-height: 0; margin-top: 0.8mm; font-size: ${L.textFont}mm; }
.card .texts p { margin: 0; }
.card .texts b { font-weight: 700; }
.card .tracks { margin-top: auto; border-top: 0.15mm solid var(--line); padding-top: 0.6mm; }
.track { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4mm 1mm; min-height: ${L.box + 0.6}mm; }
.track .label { width: 8.5mm; font-weight: 700; flex: none; }
.track .group { display: inline-flex; flex-wrap: wrap; align-items: center; gap: ${L.boxGap}mm; }
.track .base { color: var(--muted); margin-right: 0.3mm; }
.track .box { display: inline-block; width: ${L.box}mm; height: ${L.box}mm; border: 0.2mm solid var(--ink); background: #fff; }
.track .box.sh { border-radius: 50%; }
.track .box.bay { border-style: dashed; }
.track .count { color: var(--muted); }
.foot { position: absolute; left: 0; right: 0; display: flex; gap: 4mm; align-items: center; justify-content: center; font-size: 2.6mm; color: var(--muted); }
.foot .qr { flex: none; }
.foot .line { max-width: 150mm; overflow-wrap: anywhere; }
@media screen { body { background: #d9dbe1; } .sheet { background: #fff; margin: 6mm auto; box-shadow: 0 0 2mm #0003; } }
`;

function statCell(v: string): string {
  const t = clean(v);
  if (!t) return '?';
  return /^[-\u2014\u2013]$/.test(t) ? '—' : t;
}

function track(kind: 'hp' | 'sh' | 'bay', label: string, groups: number, n: number, note = ''): string {
  const cls = kind === 'hp' ? 'box' : `box ${kind}`;
  if (n * groups > MAX_BOXES)
    return `<div class="track"><span class="label">${label}</span><span class="count">${groups > 1 ? `${groups} × ` : ''}${n}: too many boxes to draw, count down in pencil</span></div>`;
  const parts: string[] = [];
  for (let b = 1; b <= groups; b++) {
    const baseAttr = kind === 'hp' || (kind === 'sh' && groups > 1) ? ` data-base="${b}"` : '';
    const boxes = Array.from({ length: n }, () => `<i class="${cls}" data-track="${kind}"${baseAttr}></i>`).join('');
    parts.push(`<span class="group">${groups > 1 ? `<span class="base">B${b}</span>` : ''}${boxes}</span>`);
  }
  return `<div class="track"><span class="label">${label}</span>${parts.join('')}${note}</div>`;
}

function cardHtml(s: SheetCard): string {
  const c = s.card;
  const name = shorten(c.name || '(no name)', 2 * NAME_CPL - 2);
  const nameLines = name.length > NAME_CPL - 1 ? 2 : 1;
  const base = s.baseMm !== undefined ? `${s.bases > 1 ? `${s.bases} × ` : ''}${s.baseMm}mm${s.baseIsDefault ? '*' : ''}` : '?';
  const sub = `${c.faction || '(no faction)'} · ${c.class || 'no class'} · ${c.points ?? '?'} pts · ${base}`;
  const h: string[] = [];
  h.push(`<article class="card" data-card="${esc(c.name)}">`);
  h.push(`<h2 class="clamp name">${esc(name)}</h2>`);
  h.push(`<div class="clamp sub">${esc(shorten(sub, perLine(L.smallFont)))}</div>`);
  const note = s.carriedBy ? `Embarked ${s.carriedBy}` : s.copy ? `Copy ${s.copy}` : '';
  if (note) h.push(`<div class="clamp note">${esc(shorten(note, perLine(L.smallFont)))}</div>`);
  h.push(`<table class="stats"><thead><tr>${STAT_ORDER.map((x) => `<th>${x}</th>`).join('')}</tr></thead>`);
  h.push(`<tbody><tr>${STAT_ORDER.map((x) => `<td>${esc(shorten(statCell(c.stats[x]), 6))}</td>`).join('')}</tr></tbody></table>`);
  if (c.weapons.length) {
    h.push('<table class="weapons"><colgroup><col><col class="w-type"><col class="w-n"><col class="w-n"><col class="w-n"></colgroup>');
    h.push('<thead><tr><th>Weapon</th><th>Type</th><th title="Range">Rng</th><th title="Damage">Dmg</th><th title="Attacks">Att</th></tr></thead><tbody>');
    for (const w of c.weapons)
      h.push(
        `<tr><td>${esc(weaponName(w.name))}</td><td>${esc(shorten(w.type || '?', 8))}</td><td>${w.range === undefined ? '?' : `${w.range}"`}</td><td>${w.damage ?? '?'}</td><td>${w.attacks ?? '?'}</td></tr>`,
      );
    h.push('</tbody></table>');
  }
  const items: TextItem[] = [
    ...c.orders.map((o) => {
      // The rulebook's LD Difficulty for a known order written by name only.
      const difficulty = o.difficulty ?? KNOWN_ORDERS.find((k) => normRuleName(k.name) === normRuleName(o.name))?.difficulty;
      const bits = [difficulty !== undefined ? `LD ${difficulty}` : '', o.range !== undefined ? `${o.range}"` : ''].filter(Boolean);
      return {
        head: `Order: ${clean(o.name) || '?'}${bits.length ? ` (${bits.join(', ')})` : ''}`,
        body: clean(o.effect) || orderSummary(o.name),
        tail: sectionTail(orderSection(o.name)),
      };
    }),
    // A bare ability name the rulebook knows prints the rulebook's summary of it.
    ...c.abilities.map((a) => ({ head: clean(a.name) || '?', body: clean(a.text) || abilitySummary(a.name), tail: sectionTail(abilitySection(a.name)) })),
  ];
  if (items.length) {
    const cpl = perLine(L.textFont);
    const lines = Math.max(1, Math.floor((INNER_H - fixedHeight(s, nameLines)) / lineMm(L.textFont)));
    const fit = fitTexts(items, lines, cpl);
    h.push('<div class="texts">');
    for (const it of fit.items)
      h.push(`<p class="clamp" style="-webkit-line-clamp: ${it.lines}">${it.head ? `<b>${esc(it.head)}</b>${it.text ? ' ' : ''}` : ''}${esc(it.text)}</p>`);
    h.push('</div>');
  }
  h.push('<div class="tracks">');
  h.push(track('hp', 'HP', s.bases, s.hp ?? 0, s.hp === undefined ? '<span class="count">HP not readable</span>' : ''));
  if (s.sh) h.push(s.combinedShields ? track('sh', 'SH pool', 1, s.sh * s.bases) : track('sh', 'SH', s.bases, s.sh));
  if (s.bay) {
    const embarked = s.embarked?.length ? `<div class="clamp note">${esc(shorten(`Embarked: ${s.embarked.join(', ')}`, perLine(L.smallFont)))}</div>` : '';
    h.push(track('bay', 'Bay', 1, Math.min(s.bay.capacity, MAX_BOXES), `<span class="count">${esc(s.bay.carries)}</span>`) + embarked);
  }
  h.push('</div>', '</article>');
  return h.join('\n');
}

export interface SheetOptions {
  paper: Paper;
  /** The page's title (a fleet's name, or "Unit cards"). */
  title: string;
  /** The roster's one line (with its digest), printed under each page's cards with its QR code. */
  share?: string;
}

/** The sheet: one self-contained HTML file, print CSS only, no script, every text escaped. */
export function cardSheetHtml(cards: readonly SheetCard[], opts: SheetOptions): string {
  const p = PAPERS[opts.paper];
  const perPage = p.columns * p.rows;
  const gridH = p.rows * CARD_MM.height;
  const top = 6;
  // The band under the cards holds the QR code: as large as it leaves room for.
  const qrMm = Math.min(30, p.height - top - gridH - 4);
  const qr = opts.share ? qrSvg(opts.share, 'QR code of the fleet&#39;s one-line roster') : undefined;
  const css =
    CSS +
    `@page { size: ${p.css}; margin: 0; }\n` +
    `.sheet { width: ${p.width}mm; height: ${p.height - 0.5}mm; }\n` +
    `.grid { top: ${top}mm; grid-template-columns: repeat(${p.columns}, ${CARD_MM.width}mm); grid-template-rows: repeat(${p.rows}, ${CARD_MM.height}mm); }\n` +
    `.foot { top: ${top + gridH + 2}mm; height: ${qrMm}mm; }\n.foot .qr { width: ${qrMm}mm; height: ${qrMm}mm; }\n`;
  const h: string[] = [];
  h.push('<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">');
  h.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  h.push(`<title>${esc(opts.title)} — unit cards</title>`, `<style>${css}</style>`, '</head>', '<body>');
  const pages = Math.max(1, Math.ceil(cards.length / perPage));
  for (let i = 0; i < pages; i++) {
    h.push(`<section class="sheet" data-page="${i + 1}">`, '<div class="grid">');
    for (const s of cards.slice(i * perPage, (i + 1) * perPage)) h.push(cardHtml(s));
    if (cards.length === 0) h.push('<p>No unit cards.</p>');
    h.push('</div>');
    const words = `${esc(opts.title)} · page ${i + 1} of ${pages}`;
    if (opts.share) h.push(`<footer class="foot">${qr ?? ''}<div class="line">${words}<br>${esc(opts.share)}</div></footer>`);
    else h.push(`<footer class="foot"><div class="line">${words}</div></footer>`);
    h.push('</section>');
  }
  h.push('</body>', '</html>');
  return h.join('\n') + '\n';
}
