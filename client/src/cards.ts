/**
 * Choosing cards: the card under the cursor, or a searchable quick pick of every workspace card
 * (from the server's `fabledStar/listCards`), grouped by faction and showing class and points.
 */
import * as vscode from 'vscode';
import { ListCardsRequest, FleetSummaryRequest, type CardInfo, type CardName } from '../../protocol';
import type { Ctx } from './ctx';

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

export function sameCard(a: CardName, b: CardName): boolean {
  const norm = (s: string | undefined): string => (s ?? '').trim().toLowerCase();
  return norm(a.name) === norm(b.name) && (a.faction === undefined || b.faction === undefined || norm(a.faction) === norm(b.faction));
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
export async function pickCard(cards: CardInfo[], title: string, placeholder: string, first: CardName[] = [], firstLabel = ''): Promise<CardInfo | undefined> {
  const items: CardItem[] = [];
  const item = (card: CardInfo): CardItem => ({
    label: card.name,
    description: describe(card),
    detail: vscode.workspace.asRelativePath(vscode.Uri.parse(card.uri)),
    card,
  });
  const top = cards.filter((c) => first.some((f) => sameCard(f, c)));
  if (top.length > 0) {
    items.push({ label: firstLabel, kind: vscode.QuickPickItemKind.Separator }, ...top.map(item));
  }
  let faction: string | undefined;
  // The server sorts by faction then name; a separator per faction makes the long list scannable.
  for (const card of cards) {
    if (card.faction !== faction) {
      faction = card.faction;
      items.push({ label: faction || 'No faction', kind: vscode.QuickPickItemKind.Separator });
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

/** The unit names of a fleet document (for putting them first in the attacker pick). */
export async function fleetUnits(ctx: Ctx, doc: vscode.TextDocument | undefined): Promise<CardName[]> {
  if (!doc || doc.languageId !== 'fabled-fleet') return [];
  try {
    const summary = await ctx.request(FleetSummaryRequest.type, { uri: doc.uri.toString() });
    if (!summary) return [];
    const names = summary.entries.flatMap((e) => [e.unit, ...e.embarked]);
    return [...new Set(names)].map((name) => ({ name, faction: summary.faction || undefined }));
  } catch {
    return [];
  }
}
