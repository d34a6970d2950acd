/**
 * Inlay hints: points per fleet entry (x count, embarked units included) with the running total
 * against the limit; the Combined Shields pool on Escort and Frigate cards; and, when a reference
 * target is set, each weapon's odds against it (a short label; the detail is in the tooltip).
 */
import type { FabledDocument, Span } from '../model/types';
import type { Workspace } from '../workspace';
import type { Settings } from '../api';
import { CLASSES } from '../rules/data';
import { pointsLeft } from '../rules/words';
import { fleetTotals } from '../fleetPoints';
import { cardsOf, lineEnd, md, num } from './shared';
import { oddsLabel, weaponOdds, weaponOddsMarkdown } from './odds';

export interface Hint {
  offset: number;
  label: string;
  /** Markdown. */
  tooltip?: string;
  kind: 'points' | 'total' | 'shields' | 'odds';
}

function overlaps(span: Span, range: Span): boolean {
  return span.start <= range.end && range.start <= span.end;
}

export function inlayHints(doc: FabledDocument, ws: Workspace, range: Span, settings: Settings): Hint[] {
  const out: Hint[] = [];
  try {
    if (doc.kind === 'fleet') {
      if (!settings.inlayHints.points) return out;
      const t = fleetTotals(doc, ws);
      const limit = t.limit !== undefined && t.limit > 0 ? t.limit : undefined;
      let running = 0;
      for (const ep of t.entries) {
        running += ep.total;
        const e = ep.entry;
        if (!overlaps(e.span, range)) continue;
        const count = e.count.value ?? 1;
        const embarked = ep.embarked.reduce((s, x) => s + x.points, 0);
        const known = !!ep.card && ep.embarked.every((x) => x.card);
        const own = ep.card?.points ?? 0;
        const label = `${count > 1 ? `${count} × ${ep.each} = ` : ''}${ep.total} pts${embarked ? ` (incl. ${embarked} embarked)` : ''} · Σ ${running}${limit !== undefined ? ` / ${limit}` : ''}`;
        const tooltip = [
          known
            ? `${md(e.unit.value ?? '')}: ${own} pts${embarked ? ` + ${embarked} pts embarked (${ep.embarked.map((x) => `${md(x.name)} ${x.points}`).join(', ')})` : ''} per copy, × ${count}.`
            : 'Some cards of this entry are unknown; they count 0 pts.',
          `Running total ${running}${limit !== undefined ? ` of ${limit} pts` : ' pts'}.`,
        ].join('\n\n');
        // After the entry's first line (where `unit:` is), so the hint sits beside the name.
        out.push({
          offset: lineEnd(doc.text, e.unit.span.end),
          label: known ? label : `? pts · Σ ${running}${limit !== undefined ? ` / ${limit}` : ''}`,
          tooltip,
          kind: 'points',
        });
      }
      if (limit !== undefined && overlaps(doc.points.span, range)) {
        const left = limit - t.total;
        out.push({
          offset: lineEnd(doc.text, doc.points.span.end),
          label: `${t.total} used · ${pointsLeft(left, true)}`,
          kind: 'total',
        });
      }
      return out.sort((a, b) => a.offset - b.offset);
    }
    for (const card of cardsOf(doc)) {
      if (!overlaps(card.span, range)) continue;
      const cls = card.class.value;
      if (settings.inlayHints.combinedShields && cls && CLASSES[cls].combinedShields) {
        const sh = card.stats?.entries.SH;
        if (sh?.value?.kind === 'count') {
          const bases = card.bases?.value ?? CLASSES[cls].bases;
          out.push({
            offset: card.stats!.form === 'line' ? sh.span.end : lineEnd(doc.text, sh.span.end),
            // Inside a stat line it sits between two stats: in brackets, so that it does not read as one more.
            label: card.stats!.form === 'line' ? `(SH pool ${num(sh.value.n * bases)})` : `SH pool ${num(sh.value.n * bases)}`,
            tooltip: `Combined Shields: ${sh.value.n} SH per base × ${bases} bases = a pool of ${sh.value.n * bases}. The pool's maximum falls as bases are destroyed.`,
            kind: 'shields',
          });
        }
      }
      if (settings.referenceTarget && settings.inlayHints.weaponOdds) {
        for (const w of card.weapons?.items ?? []) {
          if (!overlaps(w.span, range)) continue;
          const o = weaponOdds(ws, card, w, settings.referenceTarget);
          if (!o) continue;
          out.push({
            offset: lineEnd(doc.text, w.form === 'line' ? w.span.end : w.name.span.end || w.span.start),
            label: oddsLabel(o),
            tooltip: weaponOddsMarkdown(ws, card, w, settings.referenceTarget),
            kind: 'odds',
          });
        }
      }
    }
  } catch {
    // Hints are decoration: on a surprise, show none rather than fail the request.
  }
  return out.sort((a, b) => a.offset - b.offset);
}
