/**
 * From a fleet list to the fleet battle's units: every entry and copy, each embarked unit with its
 * host, each card's numbers. A fleet with errors (unknown cards, over its points, a card the
 * simulator cannot use) is refused with a sentence saying why, where.
 */
import type { FleetDocument } from '../model/types';
import type { CardRef, Workspace } from '../workspace';
import { clip } from '../model/limits';
import type { Problem } from '../model/types';
import { fleetTotals } from '../fleetPoints';
import { profileFromCard } from '../sim/profile';
import type { BattleUnit, Fleet } from '../sim/fleet-battle';

/** More units than any table holds; beyond it the battle would only burn time. */
export const MAX_BATTLE_UNITS = 200;

export interface FleetForBattle {
  fleet?: Fleet;
  /** The fleet's points limit (its game size), when it gives one. */
  limit?: number;
  /** Sentences, each naming the line; empty when `fleet` is set. */
  errors: string[];
}

/** 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Two cards in the battle's order: by name (character codes, the same everywhere), then by their
 * numbers, so that two cards of one name in a list still come in one order.
 */
function byCard(a: { name: string; points: number; profile: BattleUnit['profile'] }, b: typeof a): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  const x = JSON.stringify([a.points, a.profile]);
  const y = JSON.stringify([b.points, b.profile]);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `problems`: the fleet's diagnostics as the checker reports them; `cardErrors`: a card's own
 * errors (check/index.ts `cardErrors`): the caller runs the checker. A card with errors is refused
 * as the fleet's own errors are: the simulator would play whatever it made of them (say 500 weapons).
 */
export function fleetForBattle(
  doc: FleetDocument,
  ws: Workspace,
  problems: readonly Problem[],
  cardErrors?: (ref: CardRef, ws: Workspace) => readonly Problem[],
): FleetForBattle {
  const errors = problems.filter((p) => p.severity === 'error').map((p) => `line ${lineOf(doc.text, p.span.start)}: ${p.message}`);
  if (errors.length) return { errors };
  const totals = fleetTotals(doc, ws);
  const refused = new Map<CardRef, string | undefined>();
  /** A card as the battle plays it, or why it cannot (each card's errors looked up once). */
  const play = (card: CardRef): { name: string; points: number; profile: BattleUnit['profile'] } | string => {
    if (cardErrors && !refused.has(card)) {
      const errs = cardErrors(card, ws);
      const first = errs[0];
      const where = first ? `${card.uri.replace(/^.*\//, '')} line ${lineOf(ws.textOf(card.uri) ?? '', first.span.start)}` : '';
      const more = errs.length > 1 ? ` (and ${errs.length - 1} more)` : '';
      refused.set(card, first ? `the card "${clip(card.name, 80)}" has errors: ${where}: ${first.message}${more}` : undefined);
    }
    const bad = refused.get(card);
    if (bad) return bad;
    const prof = profileFromCard(card.card);
    if (!prof.profile) return prof.error ?? 'a card cannot be simulated';
    const points = card.card.points.value ?? 0;
    return { name: card.card.name.value ?? '', points: points > 0 ? points : 0, profile: prof.profile };
  };
  const size = totals.entries.reduce((t, e) => t + Math.max(0, e.entry.count.value ?? 0) * (1 + e.embarked.length), 0);
  if (size > MAX_BATTLE_UNITS) return { errors: [`the fleet has ${size} units; a battle takes at most ${MAX_BATTLE_UNITS} a side`] };
  // Each copy of an entry with what it carries: a group. The groups are put in one order that does
  // not depend on the order the list is written in (BATTLE.md: a list and the same list sorted
  // differently are the same fleet, with the same odds): what it carries by card name, the groups
  // by their cards' names (the host's, then what it carries), and copies numbered in that order.
  // So "Lumen Cruiser #1" is the same unit however the list is sorted, and the battle, which breaks
  // its ties by card name then copy, plays the same battle.
  type Played = Exclude<ReturnType<typeof play>, string>;
  const groups: Played[][] = [];
  for (const e of totals.entries) {
    const count = e.entry.count.value !== undefined && e.entry.count.value > 0 ? e.entry.count.value : 0;
    for (let c = 0; c < count; c++) {
      if (!e.card) return { errors: [`line ${lineOf(doc.text, e.entry.unit.span.start)}: no card named "${e.entry.unit.value ?? ''}"`] };
      const host = play(e.card);
      if (typeof host === 'string') return { errors: [`line ${lineOf(doc.text, e.entry.unit.span.start)}: ${host}`] };
      const carried: Played[] = [];
      for (const x of e.embarked) {
        if (!x.card) return { errors: [`line ${lineOf(doc.text, e.entry.span.start)}: no card named "${x.name}"`] };
        const r = play(x.card);
        if (typeof r === 'string') return { errors: [`line ${lineOf(doc.text, e.entry.span.start)}: ${r}`] };
        carried.push(r);
      }
      groups.push([host, ...carried.sort(byCard)]);
    }
  }
  groups.sort((a, b) => {
    for (let i = 0; i < a.length && i < b.length; i++) {
      const c = byCard(a[i]!, b[i]!);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  });
  const units: BattleUnit[] = [];
  const copies = new Map<string, number>();
  for (const g of groups) {
    const host = units.length;
    for (const [k, u] of g.entries()) {
      const copy = (copies.get(u.name) ?? 0) + 1;
      copies.set(u.name, copy);
      units.push({ name: u.name, copy, points: u.points, profile: u.profile, ...(k > 0 ? { host } : {}) });
    }
  }
  if (units.length === 0) return { errors: ['the fleet has no units'] };
  return { fleet: { name: doc.name.value ?? '', faction: doc.faction.value ?? '', units }, limit: doc.points.value, errors: [] };
}
