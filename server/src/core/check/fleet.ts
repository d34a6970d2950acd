/** Sections 6, 17 and 20: fleet lists (cards, factions, points, embarked units, objectives). */
import { GAME_SIZES, INITIATIVE, LAUNCH_BAY, STAT_NAMES } from '../rules/data';
import type { Field, FleetDocument, Problem } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { fleetTotals, type EntryPoints } from '../fleetPoints';
import { suggest, suggestMany } from '../model/yaml';
import { prepare } from '../model/suggest';
import type { CheckContext } from './context';
import { bayCapacity, hasStat } from '../model/derived';
import { clip } from '../model/limits';
import { count, pluralOf, withArticle } from '../rules/words';
import { copiesIn, guessNoteAt, unreadNotes } from '../model/importNotes';

function related(ref: CardRef | undefined, message: string): Problem['related'] {
  return ref ? [{ uri: ref.uri, span: ref.nameSpan, message }] : undefined;
}

/** Reports an entry or embarked name that names no card of the fleet's faction. Returns whether it resolved. */
function checkName(ctx: CheckContext, f: Field<string>, faction: string | undefined, ws: Workspace): boolean {
  const name = f.value;
  if (!name) return false;
  const { ref, candidates: elsewhere } = ws.resolve({ name, ...(faction !== undefined ? { faction } : {}) }, 'own');
  if (ref) return true;
  if (faction !== undefined && elsewhere.length) {
    const other = elsewhere[0]!;
    ctx.report(
      'FS-UNIT-FACTION',
      `${clip(other.name)} is ${withArticle(clip(other.faction))} card; this fleet is ${clip(faction)}`,
      f.span,
      undefined,
      related(other, `${clip(other.name)} is defined here (${clip(other.faction)})`),
    );
    return false;
  }
  const byFaction = faction !== undefined && ws.hasCards(faction);
  const poolKey = byFaction ? `faction:${faction.trim().toLowerCase()}` : 'all';
  let pool = ctx.pools.get(poolKey);
  if (!pool) {
    pool = prepare((byFaction ? ws.cardsOf(faction) : ws.allCards()).map((c) => c.name).filter(Boolean));
    ctx.pools.set(poolKey, pool);
  }
  const memoKey = `${poolKey}\n${name.slice(0, 200).trim().toLowerCase()}`;
  let near = ctx.suggestions.memo.get(memoKey);
  if (!near) ctx.suggestions.memo.set(memoKey, (near = suggestMany(name, pool, 3, ctx.suggestions)));
  const hint = near.length
    ? `; did you mean ${near.map((n) => `"${clip(n)}"`).join(' or ')}?`
    : faction !== undefined
      ? `; no ${clip(faction)} card has that name`
      : '';
  ctx.report('FS-UNIT-UNKNOWN', `No card named "${clip(name)}"${hint}`, f.span, near.length ? { replacements: near } : undefined);
  return false;
}

/** Whether a faction file (its Command Board) names the faction: a faction with a board and no cards yet is known. */
function hasBoard(ws: Workspace, faction: string): boolean {
  const key = faction.trim().toLowerCase();
  return ws.factionDocuments().some((d) => !d.unread && (d.faction.value ?? '').trim().toLowerCase() === key);
}

export function checkFleet(ctx: CheckContext, doc: FleetDocument): void {
  const ws = ctx.ws;
  const faction = doc.faction.value;
  if (doc.points.value !== undefined && doc.points.value <= 0) {
    ctx.report(
      'FS-FLEET-POINTS-LIMIT',
      `The points limit is a positive whole number (500 Skirmish, 1000 Standard, 2000 Battle), not ${doc.points.value}`,
      doc.points.span,
      { replacements: GAME_SIZES.map((g) => String(g.points)) },
    );
  }
  if (ws && faction !== undefined && !ws.hasCards(faction) && ws.hasOwnCards() && !hasBoard(ws, faction)) {
    const s = suggest(faction, ws.factions(), ctx.suggestions);
    ctx.report(
      'FS-FACTION-UNKNOWN',
      `No cards of the faction "${clip(faction)}" are in the workspace${s ? `; did you mean "${clip(s)}"?` : `; factions with cards: ${clip(ws.factions().join(', '), 200)}`}`,
      doc.faction.span,
      s ? { replacements: [s] } : undefined,
    );
  }
  const totals = fleetTotals(doc, ws);
  for (const ep of totals.entries) {
    const entry = ep.entry;
    if (entry.count.value !== undefined && entry.count.value < 1) {
      ctx.report('FS-COUNT', `count is a whole number of at least 1, not ${entry.count.value}`, entry.count.span, { replacements: ['1'] });
    }
    if (ws) checkName(ctx, entry.unit, faction, ws);
    if (entry.embark && ws) checkEmbark(ctx, ep, faction, ws);
    for (const f of [entry.unit, ...(entry.embark?.items ?? [])]) checkImportGuess(ctx, doc, f);
  }
  checkImportUnread(ctx, doc);
  if (ws) checkInitiative(ctx, doc, totals.entries);
  const limit = doc.points.value;
  if (ws && limit !== undefined && limit > 0) {
    if (totals.total > limit) {
      ctx.report('FS-FLEET-OVER', `The fleet costs ${totals.total} pts, ${totals.total - limit} over its ${limit} pts limit`, doc.points.span, {
        total: totals.total,
        limit,
      });
    } else if (totals.total < limit) {
      ctx.report('FS-FLEET-UNDER', `The fleet costs ${totals.total} of ${limit} pts; ${limit - totals.total} pts unspent`, doc.points.span, {
        total: totals.total,
        limit,
      });
    }
  }
  if (doc.objectives?.value !== undefined && limit !== undefined) {
    const size = GAME_SIZES.find((g) => g.points === limit);
    const n = doc.objectives.value;
    if (n < 0 || (size && (n < size.objectives.min || n > size.objectives.max))) {
      const rec = size
        ? size.objectives.min === size.objectives.max
          ? `${size.objectives.min}`
          : `${size.objectives.min}–${size.objectives.max}`
        : 'a whole number';
      ctx.report(
        'FS-OBJECTIVES',
        size ? `${withArticle(`${limit} pts`, true)} ${size.name} game is recommended ${rec} objectives, not ${n}` : `Objectives is a whole number, not ${n}`,
        doc.objectives.span,
        size ? { replacements: [String(size.objectives.min)] } : undefined,
      );
    }
  }
}

/**
 * A name `import` read as the closest card (its note on the line, model/importNotes.ts): a warning
 * until the player keeps the guess (removes the note) or picks another candidate (the quick fixes).
 */
function checkImportGuess(ctx: CheckContext, doc: FleetDocument, f: Field<string>): void {
  if (!f.value) return;
  const note = guessNoteAt(doc.text, f.span.end);
  if (!note) return;
  const others = note.others.length ? `; other candidates: ${note.others.map((o) => `"${clip(o)}"`).join(', ')}` : '';
  ctx.report(
    'FS-IMPORT-GUESS',
    `The imported list said "${clip(note.written)}", which no card is called: read as ${clip(f.value)}, the closest card${others}. Keep it (remove the note) or pick another`,
    f.span,
    { others: note.others, note: { start: note.start, end: note.end } },
  );
}

/** A line `import` could not read, kept as a note with the cards it may mean: one fix per card adds it. */
function checkImportUnread(ctx: CheckContext, doc: FleetDocument): void {
  for (const n of unreadNotes(doc.text)) {
    ctx.report(
      'FS-IMPORT-UNREAD',
      `Line ${n.line} of the imported list was not read ("${clip(n.text, 80)}"): it may mean ${n.candidates.map((c) => `"${clip(c)}"`).join(' or ')}`,
      { start: n.start, end: n.end },
      { candidates: n.candidates, copies: copiesIn(n.text) },
    );
  }
}

/**
 * Section 14: "both players select a unit with LD and roll it" for Initiative, and section 6:
 * embarked units "do not count for Initiative". A fleet none of whose units on the table has LD
 * can never win the initiative: a warning on its units. Said only when every entry names a card
 * whose LD can be read (an unknown card or an unreadable LD is reported on its own).
 */
function checkInitiative(ctx: CheckContext, doc: FleetDocument, entries: EntryPoints[]): void {
  if (!doc.units || entries.length === 0) return;
  for (const ep of entries) {
    const ld = ep.card?.card.stats?.entries[INITIATIVE.stat]?.value;
    if (!ld) return;
    if (ld.kind !== 'none') return;
  }
  const embarked = entries.some((ep) => ep.embarked.some((e) => e.card && hasStat(e.card.card, INITIATIVE.stat)));
  const ld = `${INITIATIVE.stat} (${STAT_NAMES[INITIATIVE.stat]})`;
  ctx.report(
    'FS-FLEET-NO-LD',
    `No unit of this fleet has ${ld}, so it can never win the initiative: each round both players roll a unit with ${INITIATIVE.stat} (section ${INITIATIVE.section})${embarked ? `; embarked units do not count for Initiative (section ${INITIATIVE.embarkedSection})` : ''}`,
    doc.units.keySpan,
  );
}

function checkEmbark(ctx: CheckContext, ep: EntryPoints, faction: string | undefined, ws: Workspace): void {
  const embark = ep.entry.embark!;
  const host = ep.card;
  const cap = host ? bayCapacity(host.card) : undefined;
  let tierLeft = cap?.tierFighters ?? 0;
  let reservesLeft = cap?.reserves ?? 0;
  let over = 0;
  embark.items.forEach((f, i) => {
    if (!checkName(ctx, f, faction, ws)) return;
    const carried = ep.embarked[i]?.card;
    if (!host || !cap || !carried) return;
    const hostName = host.card.name.value;
    if (cap.tierFighters === 0 && cap.reserves === 0) {
      ctx.report(
        'FS-EMBARK-NO-BAY',
        `${hostName} has no Launch Bay: only a unit with Launch Bay Tier N or a Carrier can embark units`,
        f.span,
        undefined,
        related(host, `${hostName} is defined here`),
      );
      return;
    }
    const cls = carried.card.class.value;
    const fitsTier = cls !== undefined && LAUNCH_BAY.tierCarries.includes(cls);
    const fitsReserves = cls !== undefined && LAUNCH_BAY.carrierCarries.includes(cls);
    if (!(cap.tierFighters > 0 && fitsTier) && !(cap.reserves > 0 && fitsReserves)) {
      const can = cap.reserves > 0 ? LAUNCH_BAY.carrierCarries.join(' or ') : LAUNCH_BAY.tierCarries.join(' or ');
      ctx.report(
        'FS-EMBARK-KIND',
        `${hostName}'s launch bay carries ${can} units, not ${withArticle(cls ?? 'unit of unknown class')} (${carried.card.name.value})`,
        f.span,
        undefined,
        related(host, `${hostName} is defined here`),
      );
      return;
    }
    const hostCls = host.card.class.value;
    if (!fitsTier && hostCls !== undefined && hostCls !== LAUNCH_BAY.carrierClass) {
      ctx.report(
        'FS-EMBARK-HOMEBREW',
        `Only a ${LAUNCH_BAY.carrierClass} transports ${pluralOf(cls)} (the ${LAUNCH_BAY.carrierClass} card; section ${LAUNCH_BAY.section}: Launch Bays deploy Fighters): ${hostName} is ${withArticle(hostCls)} printing ${LAUNCH_BAY.reservesAbility}, a homebrew reading`,
        f.span,
        undefined,
        related(host, `${hostName} is defined here`),
      );
    }
    // Fill Fighter-only tier slots first, so reserve slots stay free for Bombers.
    if (fitsTier && tierLeft > 0) tierLeft--;
    else if (fitsReserves && reservesLeft > 0) reservesLeft--;
    else over++;
  });
  if (over > 0 && cap) {
    const parts = [
      cap.tierFighters ? `${count(cap.tierFighters, 'Fighter unit')} (Launch Bay Tier)` : '',
      cap.reserves ? `${count(cap.reserves, 'squadron')} of Fighters or Bombers (Launch Bays (Reserves))` : '',
    ].filter(Boolean);
    ctx.report(
      'FS-EMBARK-CAPACITY',
      `${host!.card.name.value} can carry ${parts.join(' and ')}; ${count(over, 'embarked unit')} ${over === 1 ? 'does' : 'do'} not fit`,
      embark.keySpan,
      undefined,
      related(host, `${host!.card.name.value} is defined here`),
    );
  }
}
