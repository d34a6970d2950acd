/**
 * The extension's entry point: builds the context, registers commands, the status bar, the rule
 * documents and the engagement view serializer, then starts the language server without making
 * VS Code wait for it (activation returns at once; features light up when the server is ready).
 */
import * as vscode from 'vscode';
import * as commands from './commands';
import { Ctx, CLIENT_NAME } from './ctx';
import { EngagementPanels, VIEW_TYPE } from './engagementPanel';
import { BattlePanels, BATTLE_VIEW_TYPE } from './battlePanel';
import { trackOpenedVersions } from './openedVersions';
import { FleetStatus } from './fleetStatus';
import * as fleet from './fleetView';
import { RuleDocuments } from './ruleDocuments';
import { priceByBattle } from './priceByBattle';
import { FIELD_VIEW_TYPE, FieldPanels, vsField } from './fieldPanel';
import { pasteRosterAsFleet } from './pasteRoster';
import { CodePages } from './codePages';
import { printCards } from './cardSheet';

let ctx: Ctx | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  // A log channel (not a plain one) so that its lines carry times and levels and land in the
  // extension host's log folder, where bug reports and the e2e test can read them.
  const log = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  const c = new Ctx(context, log);
  ctx = c;
  const panels = new EngagementPanels(c);
  const battles = new BattlePanels(c);
  const fields = new FieldPanels(c);
  const rules = new RuleDocuments(c);
  const status = new FleetStatus(c);
  context.subscriptions.push(
    log,
    c,
    panels,
    rules,
    status,
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, panels),
    vscode.commands.registerCommand('fabledStar.simulateEngagement', commands.simulateEngagement(c, panels)),
    vscode.commands.registerCommand('fabledStar.showRule', commands.showRule(c, rules)),
    vscode.commands.registerCommand('fabledStar.restartServer', commands.restartServer(c)),
    battles,
    vscode.window.registerWebviewPanelSerializer(BATTLE_VIEW_TYPE, battles),
    vscode.commands.registerCommand('fabledStar.simulateBattle', commands.simulateBattle(c, battles)),
    trackOpenedVersions(),
    vscode.commands.registerCommand('fabledStar.compareWithSaved', commands.compareWithSaved(c, battles)),
    vscode.commands.registerCommand('fabledStar.compareWith', commands.compareWithFleet(c, battles)),
    vscode.commands.registerCommand('fabledStar.newFleet', commands.newFile(c, 'fleet')),
    vscode.commands.registerCommand('fabledStar.newUnitCards', commands.newFile(c, 'unit')),
    vscode.commands.registerCommand('fabledStar.priceByBattle', priceByBattle(c)),
    fields,
    vscode.window.registerWebviewPanelSerializer(FIELD_VIEW_TYPE, fields),
    vscode.commands.registerCommand('fabledStar.vsField', vsField(c, fields)),
    vscode.window.registerUriHandler(new CodePages(context)),
  );
  const fleetView = new fleet.FleetView(c);
  context.subscriptions.push(
    fleetView,
    vscode.commands.registerCommand('fabledStar.fleet.reveal', fleet.reveal()),
    vscode.commands.registerCommand('fabledStar.fleet.addUnit', fleet.addUnit(c, fleetView)),
    vscode.commands.registerCommand('fabledStar.fleet.remove', fleet.remove(c, fleetView)),
    vscode.commands.registerCommand('fabledStar.fleet.removeOne', fleet.remove(c, fleetView, 'one')),
    vscode.commands.registerCommand('fabledStar.fleet.removeAll', fleet.remove(c, fleetView, 'all')),
    vscode.commands.registerCommand('fabledStar.fleet.embark', fleet.embark(c, fleetView)),
    vscode.commands.registerCommand('fabledStar.exportRoster', fleet.exportRoster(c, fleetView)),
    vscode.commands.registerCommand('fabledStar.copyRosterText', fleet.copyRosterText(c, fleetView)),
    vscode.commands.registerCommand('fabledStar.copyRosterLink', fleet.copyRosterLink(c, fleetView)),
    vscode.commands.registerCommand(
      'fabledStar.printCards',
      printCards(c, () => fleetView.current),
    ),
    vscode.commands.registerCommand('fabledStar.pasteRosterAsFleet', pasteRosterAsFleet(c)),
  );

  const activated = performance.now();
  log.info(`Activated in ${(activated - started).toFixed(1)} ms (VS Code ${vscode.version}).`);
  c.start().then(
    () => {
      log.info(`Language server ready ${(performance.now() - started).toFixed(1)} ms after activation began.`);
      void status.refresh();
      void fleetView.refresh();
    },
    (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      log.error(`The language server did not start: ${message}`);
      void vscode.window.showErrorMessage(`The Fabled Star language server did not start: ${message}`, 'Restart', 'Show Log').then((pick) => {
        if (pick === 'Restart') void vscode.commands.executeCommand('fabledStar.restartServer');
        else if (pick === 'Show Log') log.show(true);
      });
    },
  );
}

export async function deactivate(): Promise<void> {
  // VS Code waits for this promise, so the server gets its shutdown/exit instead of being killed.
  await ctx?.stop();
  ctx = undefined;
}
