/**
 * "Price by battle" (BATTLE.md "Points from battles"): the card's battle price from the server's
 * `fabledStar/priceByBattle`, shown in a cancellable notification that reads the price as it
 * converges, then a message with the price, its 95% interval and the instant estimate beside it,
 * offering "Set points to N" (an edit of the card's points only, and only while they still read
 * what was priced).
 */
import * as vscode from 'vscode';
import { PriceByBattlePartial, PriceByBattleRequest, type CardName, type PriceByBattleResult } from '../../protocol';
import { cardAt, fleetCardAt, listCards, pickCard, selector } from './cards';
import { reportFailure, type Cmd } from './commands';
import type { Ctx } from './ctx';
import { TOKEN_TAG } from './ids';
import { battlePriceProgress, battlePriceWords } from './priceWords';

let tokens = 0;
const progressToken = () => `fabledStar-price-${TOKEN_TAG}-${++tokens}`;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `[PriceCommandArgs]` from a code lens; anything else is ignored (command arguments can come from anywhere). */
export function parsePriceArgs(args: unknown[]): CardName | undefined {
  const first = args[0];
  if (!isRecord(first) || !isRecord(first.card) || typeof first.card.name !== 'string' || first.card.name.trim() === '') return undefined;
  return { name: first.card.name, ...(typeof first.card.faction === 'string' ? { faction: first.card.faction } : {}) };
}

export function priceByBattle(ctx: Ctx): Cmd {
  return async (...args: unknown[]) => {
    try {
      let card = parsePriceArgs(args);
      if (!card) {
        const own = (await listCards(ctx)).filter((c) => !c.example);
        const editor = vscode.window.activeTextEditor;
        const here = cardAt(own, editor) ?? (await fleetCardAt(ctx, editor));
        const picked = here ?? (await pickCard(own, 'Price by Battle', 'The card to price: fleets of its copies fight fleets of the reference field'));
        if (!picked) return;
        card = selector(picked);
      }
      const name = card.name;
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Price by battle: ${name}`, cancellable: true },
        async (progress, token) => {
          const partial = progressToken();
          const sub = ctx.onProgress(PriceByBattlePartial, partial, (r) => {
            if (!token.isCancellationRequested) progress.report({ message: battlePriceProgress(r) });
          });
          try {
            return await ctx.request(PriceByBattleRequest.type, { card, partialResultToken: partial }, token);
          } catch (e) {
            if (token.isCancellationRequested) {
              // Said where it does not ask for a click: nothing was measured, the lens still offers the run.
              vscode.window.setStatusBarMessage(`Price by battle of ${name} cancelled: nothing measured.`, 5000);
              return undefined;
            }
            throw e;
          } finally {
            sub?.dispose();
          }
        },
      );
      if (!result) return;
      await offerPoints(result);
    } catch (e) {
      await reportFailure(ctx, 'Could not price the card by battle', e);
    }
  };
}

/** The final message, with "Set points to N" when the card's points are written and unchanged since. */
async function offerPoints(r: PriceByBattleResult): Promise<void> {
  const words = battlePriceWords(r);
  if (r.price === undefined || !r.uri || !r.pointsRange || r.version === undefined) {
    void vscode.window.showInformationMessage(words);
    return;
  }
  const n = Math.round(r.price);
  const set = `Set points to ${n}`;
  const pick = await vscode.window.showInformationMessage(words, set);
  if (pick !== set) return;
  const uri = vscode.Uri.parse(r.uri, true);
  const doc = await vscode.workspace.openTextDocument(uri);
  const { start, end } = r.pointsRange;
  const range = new vscode.Range(start.line, start.character, end.line, end.character);
  // Only the points as they were priced: an edit since (a version later, other text there) is left alone.
  if ((doc.version !== r.version && doc.isDirty) || doc.getText(range).trim() !== String(r.points)) {
    void vscode.window.showWarningMessage(`${r.name} changed since it was priced; price it again.`);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, range, String(n));
  await vscode.workspace.applyEdit(edit);
}
