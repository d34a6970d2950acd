/**
 * The "970 / 1000 pts" status bar item on fleet lists. The figures come from the server
 * (`fabledStar/fleetSummary`), which already knows every card's points; the client only asks
 * again when the server says a fleet's summary changed, or when another fleet editor comes to front.
 */
import * as vscode from 'vscode';
import { FleetSummaryRequest, type FleetSummary } from '../../protocol';
import type { Ctx } from './ctx';

export class FleetStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** Bumped per refresh so that a slow answer for an older editor never overwrites a newer one. */
  private generation = 0;

  constructor(private readonly ctx: Ctx) {
    this.item = vscode.window.createStatusBarItem('fabledStar.fleetPoints', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Fabled Star Fleet Points';
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => void this.refresh()),
      ctx.onDidChangeState(() => void this.refresh()),
      ctx.onFleetSummaryChanged((uri) => {
        if (uri === vscode.window.activeTextEditor?.document.uri.toString()) void this.refresh();
      }),
    );
  }

  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== 'fabled-fleet') {
      this.item.hide();
      return;
    }
    let summary: FleetSummary | null;
    try {
      summary = await this.ctx.request(FleetSummaryRequest.type, { uri: doc.uri.toString() });
    } catch {
      // Server not running (or failing): an old figure would mislead, so show none.
      if (generation === this.generation) this.item.hide();
      return;
    }
    if (generation !== this.generation) return;
    if (!summary) {
      this.item.hide();
      return;
    }
    this.render(summary);
  }

  private render(s: FleetSummary): void {
    const unknown = s.unknownUnits.length;
    this.item.text = s.limit !== undefined ? `$(rocket) ${s.total} / ${s.limit} pts` : `$(rocket) ${s.total} pts`;
    this.item.backgroundColor = s.over ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const tip = new vscode.MarkdownString(undefined, true);
    // Fleet and unit names are file text: appendText escapes them so they are never read as Markdown or HTML.
    tip.appendText(`${s.name || 'Fleet'}${s.faction ? ` (${s.faction})` : ''}\n\n`);
    if (s.limit !== undefined && s.remaining !== undefined) {
      tip.appendText(s.over ? `${-s.remaining} points over the ${s.limit} limit.` : `${s.remaining} points left of ${s.limit}.`);
    } else {
      tip.appendText('No valid points limit.');
    }
    if (unknown > 0) tip.appendText(`\n\nNot counted (unknown cards): ${s.unknownUnits.join(', ')}`);
    this.item.tooltip = tip;
    this.item.accessibilityInformation = {
      label: s.limit !== undefined ? `Fleet points ${s.total} of ${s.limit}${s.over ? ', over the limit' : ''}` : `Fleet points ${s.total}`,
    };
    this.item.command = 'workbench.actions.view.problems';
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
