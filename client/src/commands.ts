/**
 * Commands as small factories over the context (after rust-analyzer's commands.ts): each gets the
 * context once and finds the current language client through it, so a server restart never leaves
 * a command holding a dead client.
 */
import * as vscode from 'vscode';
import { ExampleFleetsRequest, FleetSummaryRequest, sameSelector, type CardInfo, type CardName, type FleetSummary } from '../../protocol';
import type { BattlePanels } from './battlePanel';
import { cardAt, fleetCardAt, fleetCards, listCards, pickCard, selector } from './cards';
import { ServerNotRunningError, type Ctx } from './ctx';
import type { EngagementPanels, PanelCard } from './engagementPanel';
import type { RuleDocuments } from './ruleDocuments';
import { lastPickedFirst, overLimitWarning, versionsToCompare } from './whatIfChoices';
import { openedText } from './openedVersions';
import { findFleetFiles, gitHeadText } from './platform';

export type Cmd = (...args: unknown[]) => unknown;

/** Says what went wrong in words; offers a restart when the server is the problem. */
export async function reportFailure(ctx: Ctx, what: string, error: unknown): Promise<void> {
  if (error instanceof ServerNotRunningError) {
    const pick = await vscode.window.showWarningMessage(`${what}: ${error.message}`, 'Restart Server');
    if (pick) await vscode.commands.executeCommand('fabledStar.restartServer');
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.log.error(`${what}: ${message}`);
  void vscode.window.showErrorMessage(`${what}: ${message}`);
}

export function restartServer(ctx: Ctx): Cmd {
  return async () => {
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Restarting the Fabled Star language server' }, () => ctx.restart());
      vscode.window.setStatusBarMessage('$(check) Fabled Star language server restarted', 3000);
    } catch (e) {
      await reportFailure(ctx, 'Could not restart the Fabled Star language server', e);
    }
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asCardName(v: unknown): CardName | undefined {
  if (!isRecord(v) || typeof v.name !== 'string' || v.name.trim() === '') return undefined;
  return { name: v.name, faction: typeof v.faction === 'string' ? v.faction : undefined, ...(v.example === true ? { example: true } : {}) };
}

/**
 * The arguments `fabledStar.simulateEngagement` may get: `[SimulateCommandArgs]` from a code lens,
 * a resource Uri from an editor context menu, or nothing from the command palette. Anything else is
 * ignored (command arguments can come from any extension or a `command:` link).
 */
export function parseSimulateArgs(args: unknown[]): { attacker?: CardName; defender?: CardName } {
  const first = args[0];
  if (!isRecord(first) || first instanceof vscode.Uri) return {};
  return { attacker: asCardName(first.attacker), defender: asCardName(first.defender) };
}

export function simulateEngagement(ctx: Ctx, panels: EngagementPanels): Cmd {
  return async (...args: unknown[]) => {
    try {
      const given = parseSimulateArgs(args);
      // The workspace's cards first, then the bundled example factions' cards as opponents.
      const all = await listCards(ctx, undefined, true);
      const own = all.filter((c) => !c.example);
      if (all.length === 0) {
        void vscode.window.showInformationMessage('No Fabled Star unit cards found in this workspace. Add a *.unit.yaml or *.faction.yaml file first.');
        return;
      }
      const editor = vscode.window.activeTextEditor;
      // Cards named by a code lens go to the server as they are: it resolves names, never the client.
      // Without one, the card under the cursor: in a card file, or the one a fleet entry names.
      const here = given.attacker ? undefined : (cardAt(own, editor) ?? (await fleetCardAt(ctx, editor)));
      let attacker: PanelCard | undefined = given.attacker ?? (here && panelCard(here));
      if (!attacker) {
        const first = await fleetCards(ctx, editor?.document);
        const picked = await pickCard(own.length > 0 ? own : all, 'Simulate Engagement (1/2)', 'Attacker: the card that fires first', first, 'In this fleet');
        if (!picked) return;
        attacker = panelCard(picked);
      }
      let defender: PanelCard | undefined = given.defender;
      if (!defender) {
        const picked = await pickCard(
          all,
          `Simulate Engagement (2/2): ${attacker.name} vs …`,
          `Defender for ${attacker.name}: type to search, or pick an example card`,
        );
        if (!picked) return;
        defender = panelCard(picked);
      }
      panels.open(withFacts(attacker, all), withFacts(defender, all));
    } catch (e) {
      await reportFailure(ctx, 'Could not simulate the engagement', e);
    }
  };
}

/** What the engagement panel needs of a picked card: its selector for the request, and its line's facts. */
function panelCard(c: CardInfo): PanelCard {
  return { ...selector(c), class: c.class, ...(c.points !== undefined ? { points: c.points } : {}) };
}

/**
 * A selector given by a code lens, with the class and points of the listed card it names, for the
 * card's line in the view only (the request still sends the selector as given).
 */
function withFacts(card: PanelCard, cards: CardInfo[]): PanelCard {
  if (card.class !== undefined) return card;
  const listed = cards.find((c) => sameSelector(card, selector(c)));
  return listed ? { ...panelCard(listed), name: card.name, faction: card.faction, ...(card.example ? { example: true } : {}) } : card;
}

export function showRule(ctx: Ctx, rules: RuleDocuments): Cmd {
  return async (...args: unknown[]) => {
    try {
      await rules.show(args[0]);
    } catch (e) {
      await reportFailure(ctx, 'Could not show the rule', e);
    }
  };
}

interface FleetPick extends vscode.QuickPickItem {
  uri: vscode.Uri;
  /** The fleet's name as its file gives it (the label may say more: "Example: ...", "(itself)"). */
  name?: string;
  /** Why the list cannot fight as it stands (over its points limit), said before it is offered. */
  over?: string;
}

/** A fleet's line in a pick: its faction, points and game size. */
function fleetDescription(s: FleetSummary): string {
  const size = s.gameSize ? ` (${s.gameSize.name})` : '';
  return `${s.faction || 'no faction'} · ${s.total} pts${s.limit !== undefined ? ` of ${s.limit}${size}` : ''}`;
}

/** The example fleets bundled with the server (their cards too), labelled as such; none when the server cannot say. */
async function exampleFleetPicks(ctx: Ctx): Promise<FleetPick[]> {
  const list = await ctx.request(ExampleFleetsRequest.type, {}).catch(() => [] as FleetSummary[]);
  return (Array.isArray(list) ? list : []).map((s) => ({
    uri: vscode.Uri.parse(s.uri, true),
    name: s.name,
    label: `Example: ${s.name}`,
    description: fleetDescription(s),
    detail: 'Example fleet bundled with Fabled Star Tools (its cards too)',
  }));
}

/** The workspace's fleet lists, each with its name, faction and points as the server reads them. */
async function fleetPicks(ctx: Ctx): Promise<FleetPick[]> {
  const files = await findFleetFiles(500);
  const open = vscode.workspace.textDocuments.filter((d) => d.languageId === 'fabled-fleet' && d.uri.scheme !== 'file').map((d) => d.uri);
  const picks: FleetPick[] = [];
  for (const uri of [...files, ...open]) {
    const s = await ctx.request(FleetSummaryRequest.type, { uri: uri.toString() }).catch(() => null);
    const name = s?.name || uri.path.split('/').pop() || uri.toString();
    picks.push({
      uri,
      ...(s?.name ? { name: s.name } : {}),
      // Names come from files: shown as plain labels (a quick pick does not render them as HTML,
      // and $(...) icon syntax is disarmed).
      label: name.replace(/\$\(/g, '$\u200b('),
      description: s ? fleetDescription(s) : 'not read yet',
      detail: vscode.workspace.asRelativePath(uri),
      ...(overLimitWarning(s) ? { over: overLimitWarning(s) } : {}),
    });
  }
  return picks.sort((a, b) => a.label.localeCompare(b.label));
}

/** A fleet file from the command's arguments: `[BattleCommandArgs]` from a code lens, or a Uri from a context menu. */
export function parseBattleArgs(args: unknown[]): vscode.Uri | undefined {
  const first = args[0];
  if (first instanceof vscode.Uri) return first;
  if (isRecord(first) && isRecord(first.fleet) && typeof first.fleet.uri === 'string') {
    try {
      return vscode.Uri.parse(first.fleet.uri, true);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The opponent a lens names (`BattleCommandArgs.vs`, the live odds lens), or undefined. */
export function parseBattleVs(args: unknown[]): { uri: vscode.Uri; name: string } | undefined {
  const first = args[0];
  if (!isRecord(first) || !isRecord(first.vs) || typeof first.vs.uri !== 'string') return undefined;
  try {
    return { uri: vscode.Uri.parse(first.vs.uri, true), name: typeof first.vs.name === 'string' ? first.vs.name : '' };
  } catch {
    return undefined;
  }
}

/** The opponent for a battle of `fleet`: the workspace's other fleets, the bundled examples, or the fleet against itself. */
/** Where the opponent picked last is kept (per workspace). */
const LAST_OPPONENT = 'fabledStar.lastOpponent';

async function pickOpponent(ctx: Ctx, fleet: vscode.Uri, picks: FleetPick[], title: string): Promise<FleetPick | undefined> {
  const mine = fleet.toString();
  const own = picks.find((p) => p.uri.toString() === mine);
  // The workspace's other fleets, then the bundled example fleets, then the fleet against itself.
  const others = picks.filter((p) => p.uri.toString() !== mine);
  // An example the workspace holds already (same name and faction: the examples copied in) is not offered twice.
  const key = (name: string | undefined, description: string | undefined) =>
    `${(name ?? '').toLowerCase()}\n${(description ?? '').split(' · ')[0]!.toLowerCase()}`;
  const held = new Set(picks.map((p) => key(p.name, p.description)));
  const examples = (await exampleFleetPicks(ctx)).filter((e) => !held.has(key(e.name, e.description)));
  const separator = (label: string): FleetPick => ({ label, kind: vscode.QuickPickItemKind.Separator, uri: fleet });
  const opponents: FleetPick[] = [
    ...(others.length ? [separator('In this workspace'), ...others] : []),
    ...(examples.length ? [separator('Example fleets'), ...examples] : []),
    ...(own ? [separator('Mirror match'), { ...own, label: `${own.label} (itself)` }] : []),
  ];
  if (opponents.length === 0) {
    void vscode.window.showInformationMessage('There is no other fleet list in this workspace to fight.');
    return undefined;
  }
  // The opponent picked last comes first: comparing one change after another is against the same fleet.
  const last = ctx.extension.workspaceState.get<string>(LAST_OPPONENT);
  const vs = await vscode.window.showQuickPick(
    lastPickedFirst(opponents, last, (p) => (p.kind === vscode.QuickPickItemKind.Separator ? undefined : p.uri.toString()), separator),
    {
      title,
      placeHolder: 'The opponent: type to search by name, faction or points',
      matchOnDescription: true,
    },
  );
  if (vs) void ctx.extension.workspaceState.update(LAST_OPPONENT, vs.uri.toString());
  return vs;
}

export function simulateBattle(ctx: Ctx, panels: BattlePanels): Cmd {
  return async (...args: unknown[]) => {
    try {
      let fleet = parseBattleArgs(args);
      // The live odds lens names its opponent: the battle view opens at once.
      const named = parseBattleVs(args);
      if (fleet && named) {
        const first = args[0] as { fleet?: { name?: unknown } };
        const fileName = (u: vscode.Uri) => u.path.split('/').pop() ?? u.toString();
        const mineName = typeof first.fleet?.name === 'string' && first.fleet.name ? first.fleet.name : fileName(fleet);
        panels.open(fleet, named.uri, { fleet: mineName, vs: named.name || fileName(named.uri) });
        return;
      }
      const editor = vscode.window.activeTextEditor;
      if (!fleet && editor?.document.languageId === 'fabled-fleet') fleet = editor.document.uri;
      const picks = await fleetPicks(ctx);
      if (!fleet) {
        if (picks.length === 0) {
          void vscode.window.showInformationMessage('No Fabled Star fleet lists found in this workspace. Add a *.fleet.yaml file first.');
          return;
        }
        const p = await vscode.window.showQuickPick(picks, { title: 'Simulate Fleet Battle (1/2)', placeHolder: 'Your fleet', matchOnDescription: true });
        if (!p) return;
        fleet = p.uri;
      }
      const own = picks.find((p) => p.uri.toString() === fleet.toString());
      const vs = await pickOpponent(ctx, fleet, picks, `Simulate Fleet Battle (2/2): ${own?.label ?? 'this fleet'} vs …`);
      if (!vs) return;
      const fileName = (u: vscode.Uri) => u.path.split('/').pop() ?? u.toString();
      panels.open(fleet, vs.uri, { fleet: own?.name ?? fileName(fleet), vs: vs.name ?? fileName(vs.uri) });
    } catch (e) {
      await reportFailure(ctx, 'Could not simulate the fleet battle', e);
    }
  };
}

/**
 * "New Fleet List" / "New Unit Cards File" (the walkthrough's first steps): an empty
 * `my-fleet.fleet.yaml` (or `my-cards.unit.yaml`; `-2`, `-3`, ... when taken) in the first workspace
 * folder, or an untitled document of that language without a folder, opened with its template
 * suggested (completion offers the file template first in an empty file).
 */
export function newFile(ctx: Ctx, kind: 'fleet' | 'unit'): Cmd {
  return async () => {
    try {
      const ext = kind === 'fleet' ? '.fleet.yaml' : '.unit.yaml';
      const base = kind === 'fleet' ? 'my-fleet' : 'my-cards';
      const folder = vscode.workspace.workspaceFolders?.[0];
      let doc: vscode.TextDocument;
      if (folder) {
        let uri: vscode.Uri | undefined;
        for (let n = 1; n < 100 && !uri; n++) {
          const candidate = vscode.Uri.joinPath(folder.uri, n === 1 ? `${base}${ext}` : `${base}-${n}${ext}`);
          const taken = await vscode.workspace.fs.stat(candidate).then(
            () => true,
            () => false,
          );
          if (!taken) uri = candidate;
        }
        if (!uri) throw new Error(`${base}${ext} and 98 more names are taken in ${folder.name}`);
        await vscode.workspace.fs.writeFile(uri, new Uint8Array());
        doc = await vscode.workspace.openTextDocument(uri);
      } else {
        doc = await vscode.workspace.openTextDocument({ language: kind === 'fleet' ? 'fabled-fleet' : 'fabled-unit', content: '' });
      }
      await vscode.window.showTextDocument(doc);
      // Right after the window opened the server may still be starting: its completion is what to show.
      if (await ctx.whenReady()) await vscode.commands.executeCommand('editor.action.triggerSuggest');
    } catch (e) {
      await reportFailure(ctx, kind === 'fleet' ? 'Could not create a fleet list' : 'Could not create a unit cards file', e);
    }
  };
}

/** The fleet list a what-if is about: the active editor's (a fleet), or the one a menu passed. */
function fleetEditorDoc(args: unknown[]): vscode.TextDocument | undefined {
  const given = parseBattleArgs(args);
  const doc = given ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === given.toString()) : vscode.window.activeTextEditor?.document;
  return doc && doc.languageId === 'fabled-fleet' ? doc : undefined;
}

/** Opens the battle view of `doc` against an opponent the user picks, beside `compareWith` on the same dice. */
async function openWhatIf(
  ctx: Ctx,
  panels: BattlePanels,
  doc: vscode.TextDocument,
  compareWith: { uri?: string; text?: string; label: string; another?: boolean },
  title: string,
): Promise<void> {
  const picks = await fleetPicks(ctx);
  const own = picks.find((p) => p.uri.toString() === doc.uri.toString());
  const vs = await pickOpponent(ctx, doc.uri, picks, title);
  if (!vs) return;
  const fileName = (u: vscode.Uri) => u.path.split('/').pop() ?? u.toString();
  panels.open(doc.uri, vs.uri, { fleet: own?.name ?? fileName(doc.uri), vs: vs.name ?? fileName(vs.uri) }, compareWith);
}

/**
 * "Compare with Saved Version": the fleet as it is in the editor beside its last saved
 * text, or, with nothing unsaved, beside git's HEAD, against the same opponent on the same dice.
 */
export function compareWithSaved(ctx: Ctx, panels: BattlePanels): Cmd {
  return async (...args: unknown[]) => {
    try {
      const doc = fleetEditorDoc(args);
      if (!doc) {
        void vscode.window.showInformationMessage('Open a fleet list (*.fleet.yaml) to compare it with its saved version.');
        return;
      }
      if (doc.isUntitled) {
        // A list "Paste Roster as Fleet" made (an untitled editor), not saved yet: it has no saved version (not "no unsaved changes").
        void vscode.window.showInformationMessage(
          'This fleet list has never been saved, so it has no saved version to compare with. Save it, or use "Compare with\u2026" to pick another fleet list.',
        );
        return;
      }
      const now = doc.getText();
      // The saved text (unsaved edits), the text when the file was opened (edits saved since), git's HEAD.
      const saved = doc.isDirty && doc.uri.scheme === 'file' ? new TextDecoder().decode(await vscode.workspace.fs.readFile(doc.uri)) : undefined;
      const versions = versionsToCompare(now, { saved, opened: openedText(doc.uri), head: await gitHeadText(doc.uri) });
      if (!versions.length) {
        void vscode.window.showInformationMessage(
          'This fleet list has no unsaved changes, is as it was when you opened it and as it was last committed (or it is not in a git repository): nothing to compare. Use "Compare with\u2026" to pick another fleet list.',
        );
        return;
      }
      const other =
        versions.length === 1
          ? versions[0]!
          : (
              await vscode.window.showQuickPick(
                versions.map((v) => ({ label: v.label[0]!.toUpperCase() + v.label.slice(1), description: v.description, version: v })),
                { title: 'Compare with Saved Version: which version?', placeHolder: 'The version of this list to play beside it as it is now' },
              )
            )?.version;
      if (!other) return;
      await openWhatIf(ctx, panels, doc, { text: other.text, label: other.label }, `Compare with ${other.label}: vs \u2026`);
    } catch (e) {
      await reportFailure(ctx, 'Could not compare the fleet', e);
    }
  };
}

/** "Compare with…": the fleet as it is in the editor beside any other fleet file, on the same dice. */
export function compareWithFleet(ctx: Ctx, panels: BattlePanels): Cmd {
  return async (...args: unknown[]) => {
    try {
      const doc = fleetEditorDoc(args);
      if (!doc) {
        void vscode.window.showInformationMessage('Open a fleet list (*.fleet.yaml) to compare it with another version.');
        return;
      }
      // A list over its points limit cannot fight: it says so in the list, after those that can.
      const all = (await fleetPicks(ctx)).filter((p) => p.uri.toString() !== doc.uri.toString());
      const picks = [
        ...all.filter((p) => !p.over),
        ...all.filter((p) => p.over).map((p) => ({ ...p, description: `$(warning) ${p.description ?? ''}`, detail: `${p.over} \u00b7 ${p.detail ?? ''}` })),
      ];
      const browse: FleetPick = { label: '$(folder-opened) Another file\u2026', uri: doc.uri };
      const picked = await vscode.window.showQuickPick([...picks, browse], {
        title: 'Compare with\u2026 (1/2): the other version of this list',
        placeHolder: 'A fleet list to play beside this one, on the same dice',
        matchOnDescription: true,
      });
      if (!picked) return;
      let uri = picked.uri;
      let name = picked.name ?? picked.label;
      if (picked === browse) {
        const chosen = await vscode.window.showOpenDialog({
          canSelectMany: false,
          filters: { 'Fleet lists': ['fleet.yaml', 'yaml', 'yml'] },
          title: 'Compare with…',
        });
        if (!chosen?.[0]) return;
        uri = chosen[0];
        name = uri.path.split('/').pop() ?? uri.toString();
      }
      // A file the server may not hold (outside the workspace): its text goes with the request.
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      await openWhatIf(ctx, panels, doc, { text, label: `"${name}"`, another: true }, `Compare with "${name}" (2/2): vs \u2026`);
    } catch (e) {
      await reportFailure(ctx, 'Could not compare the fleet', e);
    }
  };
}
