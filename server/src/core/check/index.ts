/**
 * The validator: every check of RULES.md over one document, in the context of the workspace (for
 * card references and duplicate names). Pure; never throws on a document the model produced.
 */
import type { FabledDocument, Problem, UnitCard, UnitDocument } from '../model/types';
import { originOf, shifted, type Origin } from '../model/chunks';
import type { Workspace } from '../workspace';
import { CheckContext } from './context';
import { checkCard } from './card';
import { checkBoard } from './board';
import { checkFleet } from './fleet';

export { CODES, type Code } from './codes';
export { fleetTotals, type FleetTotals, type EntryPoints } from './fleet';
export { cpPerRound } from './board';

export function checkDocument(doc: FabledDocument, ws?: Workspace): Problem[] {
  const ctx = new CheckContext(doc, ws);
  switch (doc.kind) {
    case 'unit':
      checkCards(ctx, doc.units);
      break;
    case 'faction':
      checkBoard(ctx, doc);
      checkCards(ctx, doc.units);
      break;
    case 'fleet':
      checkFleet(ctx, doc);
      break;
  }
  return sortProblems([...doc.problems, ...ctx.problems]);
}

function checkCards(ctx: CheckContext, cards: UnitCard[]): void {
  for (const card of cards) {
    const origin = originOf(card);
    if (origin) ctx.problems.push(...cachedCardChecks(origin));
    else checkCard(ctx, card);
    checkDuplicate(ctx, card);
  }
}

/**
 * A card's own checks depend on nothing but its text, so they are kept with its parsed chunk
 * (relative offsets) and moved to where the card now stands.
 */
function cachedCardChecks(origin: Origin): Problem[] {
  const chunk = origin.chunk;
  if (!chunk.checks) {
    const rel: UnitDocument = { kind: 'unit', uri: '', text: chunk.text, problems: [], faction: chunk.cards[0]?.faction ?? { value: undefined, raw: '', span: { start: 0, end: 0 } }, units: chunk.cards };
    const ctx = new CheckContext(rel, undefined);
    for (const c of chunk.cards) checkCard(ctx, c);
    chunk.checks = ctx.problems;
  }
  const placed = chunk.placed;
  if (placed && placed.base === origin.base) return (placed.checks ??= shifted(chunk.checks, origin.base));
  return shifted(chunk.checks, origin.base);
}

function checkDuplicate(ctx: CheckContext, card: UnitCard): void {
  const name = card.name.value;
  const faction = card.faction.value;
  if (!name || !ctx.ws || faction === undefined) {
    if (!ctx.ws && name && ctx.doc.kind !== 'fleet') {
      // Without a workspace, still catch two cards of one name in the same file.
      const same = ctx.doc.units.filter((c) => c.name.value?.toLowerCase() === name.toLowerCase());
      if (same.length > 1 && same[0] !== card) ctx.report('FS-DUPLICATE-CARD', `Another card in this file is already named "${name}"; names are unique per faction`, card.name.span);
    }
    return;
  }
  const all = ctx.ws.findCards(name, faction);
  if (all.length < 2) return;
  const others = all.filter((r) => r.card !== card);
  ctx.report(
    'FS-DUPLICATE-CARD',
    `${faction} already has a card named "${name}" (${others.length} other${others.length === 1 ? '' : 's'}); names are unique per faction across the workspace`,
    card.name.span,
    undefined,
    others.slice(0, 5).map((r) => ({ uri: r.uri, span: r.card.name.span, message: `"${name}" is also defined here` })),
  );
}

function sortProblems(ps: Problem[]): Problem[] {
  return ps.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}

/** Checks every document of the workspace; returns problems by uri. */
export function checkWorkspace(ws: Workspace): Map<string, Problem[]> {
  const out = new Map<string, Problem[]>();
  for (const doc of ws.documents()) out.set(doc.uri, checkDocument(doc, ws));
  return out;
}
