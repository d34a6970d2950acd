/**
 * Choosing cards: the card under the cursor, or a searchable quick pick of every workspace card
 * (from the server's `fabledStar/listCards`), grouped by faction and showing class and points.
 */
import * as vscode from 'vscode';
import { ListCardsRequest, type CardInfo, type CardName } from '../../protocol';
import type { Ctx } from './ctx';
import { iconSafe } from './labels';

export async function listCards(ctx: Ctx, token?: vscode.CancellationToken): Promise<CardInfo[]> {
  return ctx.request(ListCardsRequest.type, {}, token);
}

function contains(range: CardInfo['range'], pos: vscode.Position): boolean {
  const { start, end } = range;
  const afterStart = pos.line > start.line || (pos.line === start.line && pos.character >= start.character);
  const beforeEnd = pos.line < end.line || (pos.line === end.line && pos.character <= end.character);
  return afterStart && beforeEnd;
}

/** The card whose text holds the cursor of `editor`, if any. */
export function cardAt(cards: CardInfo[], editor: vscode.TextEditor | undefined): CardInfo | undefined {
  if (!editor) return undefined;
  const uri = editor.document.uri.toString();
  const pos = editor.selection.active;
  // Cards may nest only by mistake, but if ranges overlap the innermost (last starting) one is meant.
  return cards.filter((c) => c.uri === uri && contains(c.range, pos)).at(-1);
}

/** The same card of the server's list: the same place (the server resolved the names). */
function samePlace(a: CardInfo, b: CardInfo): boolean {
  return (
    a.uri === b.uri && a.selectionRange.start.line === b.selectionRange.start.line && a.selectionRange.start.character === b.selectionRange.start.character
  );
}

/** A card as a selector for a request: its name and faction. */
export function selector(card: CardInfo): CardName {
  return { name: card.name, faction: card.faction || undefined };
}

interface CardItem extends vscode.QuickPickItem {
  card?: CardInfo;
}

function describe(card: CardInfo): string {
  return card.points !== undefined ? `${card.class} · ${card.points} pts` : card.class;
}

/**
 * Asks the user for a card. `first` names cards to list at the top (e.g. the units of the fleet
 * being edited) under `firstLabel`. Undefined when the user cancels.
 */
export async function pickCard(cards: CardInfo[], title: string, placeholder: string, first: CardInfo[] = [], firstLabel = ''): Promise<CardInfo | undefined> {
  const items: CardItem[] = [];
  // Names, classes, factions and file names come from files: "$(...)" in them is text, not an icon.
  const item = (card: CardInfo): CardItem => ({
    label: iconSafe(card.name),
    description: iconSafe(describe(card)),
    detail: iconSafe(vscode.workspace.asRelativePath(vscode.Uri.parse(card.uri))),
    card,
  });
  const top = cards.filter((c) => first.some((f) => samePlace(f, c)));
  if (top.length > 0) {
    items.push({ label: firstLabel, kind: vscode.QuickPickItemKind.Separator }, ...top.map(item));
  }
  let faction: string | undefined;
  // The server sorts by faction then name; a separator per faction makes the long list scannable.
  for (const card of cards) {
    if (card.faction !== faction) {
      faction = card.faction;
      items.push({ label: faction ? iconSafe(faction) : 'No faction', kind: vscode.QuickPickItemKind.Separator });
    }
    items.push(item(card));
  }
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: placeholder,
    matchOnDescription: true,
    matchOnDetail: false,
  });
  return picked?.card;
}

/** The cards a fleet document uses, as the server resolves them (for putting them first in the attacker pick). */
export async function fleetCards(ctx: Ctx, doc: vscode.TextDocument | undefined): Promise<CardInfo[]> {
  if (!doc || doc.languageId !== 'fabled-fleet') return [];
  try {
    return await ctx.request(ListCardsRequest.type, { fleet: doc.uri.toString() });
  } catch {
    return [];
  }
}
