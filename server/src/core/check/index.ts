/**
 * The validator: every check of RULES.md over one document, in the context of the workspace (for
 * card references and duplicate names). Pure; never throws on a document the model produced.
 */
import type { FabledDocument, Problem, UnitCard } from '../model/types';
import { originOf, type ChunkResult } from '../model/chunks';
import type { CardRef, Workspace } from '../workspace';
import { CheckContext } from './context';
import { clip } from '../model/limits';
import { checkCard } from './card';
import { checkBoard } from './board';
import { checkFleet } from './fleet';
import { checkCollection, checkOwnership } from './collection';
import { count as countOf } from '../rules/words';

export { CODES, type Code } from '../model/codes';
export { cpPerRound } from '../model/derived';

export function checkDocument(doc: FabledDocument, ws?: Workspace): Problem[] {
  // A file that was not read at all has nothing to check beyond why it was not read.
  if (doc.unread) return [...doc.problems];
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
      checkOwnership(ctx, doc);
      break;
    case 'collection':
      checkCollection(ctx, doc);
      break;
  }
  return sortProblems([...doc.problems, ...ctx.problems]);
}

/**
 * The errors of one card's own checks (as its file's check reports them inside it; duplicate names
 * aside), for the battle, which refuses a card with errors as it refuses a fleet with errors.
 * Cached with the card's chunk, as the file's check caches them.
 */
export function cardErrors(ref: CardRef, ws: Workspace): Problem[] {
  const doc = ws.get(ref.uri);
  if (!doc) return [];
  const card = ref.card;
  const chunk = originOf(card);
  let problems: Problem[];
  if (chunk && chunk.cards.includes(card))
    problems = cachedCardChecks(chunk, doc).filter((p) => p.span.start >= card.span.start && p.span.end <= card.span.end);
  else {
    const ctx = new CheckContext(doc, undefined);
    checkOne(ctx, card);
    problems = ctx.problems;
  }
  return problems.filter((p) => p.severity === 'error');
}

function checkCards(ctx: CheckContext, cards: UnitCard[]): void {
  // Without a workspace, still catch two cards of one name in the same file.
  const names = new Map<string, UnitCard>();
  for (const card of cards) {
    const chunk = originOf(card);
    if (chunk) {
      // A chunk holds one card; its checks are computed once and reused while its text stays.
      if (chunk.cards[0] === card) ctx.problems.push(...cachedCardChecks(chunk, ctx.doc));
    } else checkOne(ctx, card);
    ctx.card = card;
    if (ctx.ws) checkDuplicate(ctx, card);
    else if (card.name.value) {
      const key = card.name.value.toLowerCase();
      if (names.has(key))
        ctx.report('FS-DUPLICATE-CARD', `Another card in this file is already named "${card.name.value}"; names are unique per faction`, card.name.span);
      else names.set(key, card);
    }
    ctx.card = undefined;
  }
}

/** A card's own checks, said on the card (a merged card's too: see CheckContext.card). */
function checkOne(ctx: CheckContext, card: UnitCard): void {
  ctx.card = card;
  try {
    checkCard(ctx, card);
  } finally {
    ctx.card = undefined;
  }
}

/**
 * A card's own checks depend on nothing but its text, so they are kept with its parsed chunk
 * (and move with it when text before it changes length).
 */
function cachedCardChecks(chunk: ChunkResult, doc: FabledDocument): Problem[] {
  if (!chunk.checks) {
    const ctx = new CheckContext(doc, undefined);
    for (const c of chunk.cards) checkOne(ctx, c);
    chunk.checks = ctx.problems;
  }
  return chunk.checks;
}

function checkDuplicate(ctx: CheckContext, card: UnitCard): void {
  const name = card.name.value;
  const faction = card.faction.value;
  if (!name || !ctx.ws || faction === undefined) return;
  const all = ctx.ws.findCards(name, faction);
  if (all.length < 2) return;
  // Many cards of one name (pasted thousands of times) must not make this quadratic: count, and
  // collect only the few others that are linked.
  const count = all.length - 1;
  const others: typeof all = [];
  for (const r of all) {
    if (others.length >= 5) break;
    if (r.card !== card) others.push(r);
  }
  ctx.report(
    'FS-DUPLICATE-CARD',
    `${clip(faction)} already has a card named "${clip(name)}" (${countOf(count, 'other')}); names are unique per faction across the workspace${
      card.merge && card.name.span.start < card.span.start ? '; this card takes its name from the mapping it merges (<<): give it a name of its own' : ''
    }`,
    card.name.span,
    undefined,
    others.map((r) => ({ uri: r.uri, span: r.nameSpan, message: `"${clip(name)}" is also defined here` })),
  );
}

function sortProblems(ps: Problem[]): Problem[] {
  return ps.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}
