/**
 * The Fleet view in the Explorer: the active fleet's roster as a tree (entries with count, points
 * and embarked units, problems on each, totals by class, the limit and what is left), with the
 * actions list builders give (Add unit…, Remove, Embark…), Export Fleet Roster and Copy Roster as
 * Text. The data and the edits come from the server (`fabledStar/roster`, `fabledStar/rosterEdit`);
 * the YAML stays the source of truth: every action is a workspace edit the user can undo.
 */
import * as vscode from 'vscode';
import {
  RosterEditRequest,
  RosterRequest,
  pointsLeft,
  type RosterData,
  type RosterEntryData,
  type RosterFormatName,
  type RosterProblemData,
} from '../../protocol';
import { reportFailure } from './commands';
import { rosterEditOutcome, rosterEditParams, type RosterAction } from './rosterEdits';
import type { Ctx } from './ctx';

export const FLEET_VIEW_ID = 'fabledStar.fleet';

type Node =
  | { kind: 'limit'; roster: RosterData }
  | { kind: 'toBuy'; roster: RosterData }
  | { kind: 'entry'; roster: RosterData; entry: RosterEntryData }
  | { kind: 'embarked'; roster: RosterData; entry: RosterEntryData; index: number }
  | { kind: 'problem'; roster: RosterData; problem: RosterProblemData }
  | { kind: 'classes'; roster: RosterData }
  | { kind: 'class'; roster: RosterData; cls: RosterData['byClass'][number] }
  | { kind: 'problems'; roster: RosterData };

function pts(n: number | undefined): string {
  return n === undefined ? '? pts' : `${n} pts`;
}

function entryLabel(e: RosterEntryData): string {
  return `${e.count !== 1 ? `${e.count}× ` : ''}${e.unit || '(no name)'}`;
}

function worst(problems: RosterProblemData[]): 'error' | 'warning' | 'info' | undefined {
  if (problems.some((p) => p.severity === 'error')) return 'error';
  if (problems.some((p) => p.severity === 'warning')) return 'warning';
  return problems.length ? 'info' : undefined;
}

const SEVERITY_ICON = {
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  warning: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  info: new vscode.ThemeIcon('info', new vscode.ThemeColor('problemsInfoIcon.foreground')),
};

function toRange(r: { start: { line: number; character: number }; end: { line: number; character: number } }): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

function leftText(r: RosterData): string {
  return r.remaining === undefined ? 'no points limit' : pointsLeft(r.remaining);
}

export class FleetView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<Node>;
  private readonly disposables: vscode.Disposable[] = [];
  /** The fleet shown: the active editor's, or the last fleet that was active (cards being edited beside it). */
  private uri: string | undefined;
  private roster: RosterData | null = null;
  private generation = 0;

  constructor(private readonly ctx: Ctx) {
    this.view = vscode.window.createTreeView(FLEET_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.changed,
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e?.document.languageId === 'fabled-fleet' && e.document.uri.toString() !== this.uri) void this.show(e.document.uri.toString());
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.toString() === this.uri && !vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === this.uri)) void this.show(undefined);
      }),
      ctx.onDidChangeState(() => void this.refresh()),
      ctx.onFleetSummaryChanged((uri) => {
        if (uri === this.uri) void this.refresh();
      }),
      this.view.onDidChangeVisibility((e) => {
        if (e.visible) void this.refresh();
      }),
    );
    const active = vscode.window.activeTextEditor?.document;
    if (active?.languageId === 'fabled-fleet') this.uri = active.uri.toString();
  }

  /** The fleet the view shows, for commands run from its title bar. */
  get current(): string | undefined {
    return this.uri;
  }

  async show(uri: string | undefined): Promise<void> {
    this.uri = uri;
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const uri = this.uri;
    let roster: RosterData | null = null;
    if (uri && this.ctx.running) {
      try {
        roster = await this.ctx.request(RosterRequest.type, { uri });
      } catch {
        roster = null;
      }
    }
    // A slow answer for an older fleet never overwrites a newer one.
    if (generation !== this.generation) return;
    this.roster = roster;
    void vscode.commands.executeCommand('setContext', 'fabledStar.fleetView.hasFleet', !!roster);
    if (roster) {
      this.view.title = 'Fleet';
      this.view.description = `${roster.name || 'Unnamed fleet'} · ${roster.limit !== undefined ? `${roster.total} / ${roster.limit} pts` : pts(roster.total)}`;
      this.view.message = roster.legal ? undefined : `⚠ Not legal as written: ${roster.counts.errors} ${roster.counts.errors === 1 ? 'error' : 'errors'}`;
      this.view.badge = roster.counts.errors ? { value: roster.counts.errors, tooltip: `${roster.counts.errors} errors in this fleet` } : undefined;
    } else {
      this.view.description = undefined;
      this.view.message = undefined;
      this.view.badge = undefined;
    }
    this.changed.fire(undefined);
  }

  /** The roster shown, when it is for `uri`. */
  rosterFor(uri: string): RosterData | undefined {
    return this.roster && this.roster.uri === uri ? this.roster : undefined;
  }

  getChildren(node?: Node): Node[] {
    const r = this.roster;
    if (!r) return [];
    if (!node) {
      const out: Node[] = [{ kind: 'limit', roster: r }];
      // With a collection in the workspace: what to buy to field this list (or that every model is owned).
      if (r.toBuy) out.push({ kind: 'toBuy', roster: r });
      for (const entry of r.entries) out.push({ kind: 'entry', roster: r, entry });
      if (r.byClass.length) out.push({ kind: 'classes', roster: r });
      if (r.problems.length) out.push({ kind: 'problems', roster: r });
      return out;
    }
    switch (node.kind) {
      case 'entry':
        return [
          ...node.entry.embarked.map((_x, index): Node => ({ kind: 'embarked', roster: r, entry: node.entry, index })),
          ...node.entry.problems.map((problem): Node => ({ kind: 'problem', roster: r, problem })),
        ];
      case 'classes':
        return r.byClass.map((cls): Node => ({ kind: 'class', roster: r, cls }));
      case 'problems':
        return r.problems.map((problem): Node => ({ kind: 'problem', roster: r, problem }));
      default:
        return [];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const r = node.roster;
    switch (node.kind) {
      case 'limit': {
        const item = new vscode.TreeItem(r.limit !== undefined ? `${r.total} / ${r.limit} pts` : `${r.total} pts`);
        item.description = [leftText(r), r.gameSize ? `${r.gameSize} game` : '', r.faction].filter(Boolean).join(' · ');
        item.iconPath = new vscode.ThemeIcon(r.over ? 'error' : 'rocket', r.over ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined);
        item.tooltip = `${r.name || 'Fleet'}${r.faction ? ` (${r.faction})` : ''}: ${r.total} pts${r.limit !== undefined ? ` of ${r.limit}; ${leftText(r)}` : ''}`;
        item.contextValue = 'fleetLimit';
        return item;
      }
      case 'toBuy': {
        const text = r.toBuy ?? '';
        const item = new vscode.TreeItem(text);
        item.id = `${r.uri}#to-buy`;
        item.iconPath = new vscode.ThemeIcon(/^To field/.test(text) ? 'package' : 'pass');
        item.tooltip = `${text}\n\nFrom the collection (*.collection.yaml) of this workspace: the models you own.`;
        item.contextValue = 'fleetToBuy';
        return item;
      }
      case 'entry': {
        const e = node.entry;
        const item = new vscode.TreeItem(
          entryLabel(e),
          e.embarked.length || e.problems.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `${r.uri}#entry-${e.index}`;
        const total = e.complete ? pts(e.total) : e.total ? `${e.total}+? pts` : '? pts';
        item.description = `${total} · ${e.class ?? 'unknown card'}`;
        const sev = worst(e.problems);
        item.iconPath = sev ? SEVERITY_ICON[sev] : new vscode.ThemeIcon('rocket');
        const tip = new vscode.MarkdownString();
        // Unit names and messages are file text: appendText escapes them.
        tip.appendText(`${entryLabel(e)} · ${e.class ?? 'unknown card'}\n\n`);
        tip.appendText(
          e.count !== 1
            ? `${e.each} pts each, ${e.total} pts in all`
            : `${e.total} pts${e.embarked.length && e.cardPoints !== undefined ? ` (${e.cardPoints} + embarked)` : ''}`,
        );
        for (const p of e.problems) tip.appendText(`\n\n${p.severity}: ${p.message} (${p.code})`);
        item.tooltip = tip;
        // More than one copy ("fleetEntries"): Remove One and Remove All instead of Remove.
        item.contextValue = `${e.count > 1 ? 'fleetEntries' : 'fleetEntry'}${e.embarkChoices.length ? ' bay' : ''}`;
        item.command = { command: 'fabledStar.fleet.reveal', title: 'Reveal', arguments: [r.uri, e.range] };
        item.accessibilityInformation = { label: `${entryLabel(e)}, ${total}${sev === 'error' ? ', has errors' : ''}` };
        return item;
      }
      case 'embarked': {
        const x = node.entry.embarked[node.index]!;
        const item = new vscode.TreeItem(x.name || '(no name)');
        item.id = `${r.uri}#entry-${node.entry.index}-embarked-${node.index}`;
        item.description = `${x.class ? `${x.points} pts · ${x.class}` : 'unknown card'} · embarked`;
        item.iconPath = new vscode.ThemeIcon('arrow-small-right');
        item.contextValue = 'fleetEmbarked';
        item.command = { command: 'fabledStar.fleet.reveal', title: 'Reveal', arguments: [r.uri, x.range] };
        return item;
      }
      case 'problem': {
        const p = node.problem;
        const item = new vscode.TreeItem(p.message);
        item.description = p.code;
        item.iconPath = SEVERITY_ICON[p.severity];
        item.tooltip = `${p.severity}: ${p.message} (${p.code})`;
        item.contextValue = 'fleetProblem';
        item.command = { command: 'fabledStar.fleet.reveal', title: 'Reveal', arguments: [p.uri, p.range] };
        return item;
      }
      case 'classes': {
        const item = new vscode.TreeItem('By class', vscode.TreeItemCollapsibleState.Collapsed);
        item.description = `${r.byClass.reduce((t, c) => t + c.units, 0)} units`;
        item.iconPath = new vscode.ThemeIcon('symbol-class');
        return item;
      }
      case 'class': {
        const item = new vscode.TreeItem(node.cls.class);
        item.description = `${node.cls.units} × · ${node.cls.points} pts`;
        return item;
      }
      case 'problems': {
        const item = new vscode.TreeItem('Fleet problems', vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = SEVERITY_ICON[worst(r.problems) ?? 'info'];
        item.description = String(r.problems.length);
        return item;
      }
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// Commands

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && 'kind' in v && 'roster' in v;
}

/** The fleet a command acts on: the tree node's, the active fleet editor's, or the view's. */
function fleetUri(view: FleetView, arg: unknown): string | undefined {
  if (isNode(arg)) return arg.roster.uri;
  if (arg instanceof vscode.Uri) return arg.toString();
  const active = vscode.window.activeTextEditor?.document;
  if (active?.languageId === 'fabled-fleet') return active.uri.toString();
  return view.current;
}

async function fetchRoster(ctx: Ctx, uri: string, format?: RosterFormatName): Promise<RosterData> {
  const r = await ctx.request(RosterRequest.type, format ? { uri, format } : { uri });
  if (!r) throw new Error('this is not a fleet list the language server knows');
  return r;
}

/**
 * Asks the server for the edit `a` on the tree drawn from `roster` and applies it as a workspace
 * edit (undoable). Says why when it cannot; a stale tree (the text changed since it was drawn) is
 * redrawn, and nothing is changed.
 */
async function applyRosterEdit(ctx: Ctx, view: FleetView, roster: RosterData, a: RosterAction): Promise<boolean> {
  const uri = vscode.Uri.parse(roster.uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  const result = await ctx.request(RosterEditRequest.type, rosterEditParams(roster, a, doc.version));
  const outcome = rosterEditOutcome(result, doc.version);
  if (!('apply' in outcome)) {
    void vscode.window.showWarningMessage(outcome.message);
    if (outcome.redraw) await view.refresh();
    return false;
  }
  const we = new vscode.WorkspaceEdit();
  we.replace(uri, toRange(outcome.apply.range), outcome.apply.newText);
  return vscode.workspace.applyEdit(we);
}

export function reveal(): (...args: unknown[]) => Promise<void> {
  return async (uri: unknown, range: unknown) => {
    if (typeof uri !== 'string' || typeof range !== 'object' || range === null) return;
    const r = toRange(range as Parameters<typeof toRange>[0]);
    await vscode.window.showTextDocument(vscode.Uri.parse(uri), { selection: new vscode.Range(r.start, r.start), preserveFocus: false });
  };
}

type Command = (...args: unknown[]) => Promise<void>;

/** A command that reports its failure as `failure` (with the reason) instead of throwing into VS Code. */
function guarded(ctx: Ctx, failure: string, run: (arg?: unknown) => Promise<void>): Command {
  return async (arg?: unknown) => {
    try {
      await run(arg);
    } catch (e) {
      await reportFailure(ctx, failure, e);
    }
  };
}

/** A guarded command on the fleet list its argument or the view names; a hint when there is none. */
function onFleet(ctx: Ctx, view: FleetView, failure: string, run: (uri: string) => Promise<void>): Command {
  return guarded(ctx, failure, async (arg) => {
    const uri = fleetUri(view, arg);
    if (!uri) return void vscode.window.showInformationMessage('Open a fleet list (*.fleet.yaml) first.');
    await run(uri);
  });
}

export function addUnit(ctx: Ctx, view: FleetView): Command {
  return onFleet(ctx, view, 'Could not add the unit', async (uri) => {
    const r = await fetchRoster(ctx, uri);
    if (r.addChoices.length === 0) return void vscode.window.showInformationMessage(`No cards of the faction "${r.faction}" are in this workspace.`);
    const items = r.addChoices.map((c) => ({
      label: c.name,
      description: `${c.class} · ${pts(c.points)}`,
      detail:
        [c.fits ? '' : `$(warning) does not fit: ${leftText(r)}`, c.spare === 0 ? '$(package) not owned: your collection has no spare model of it' : '']
          .filter(Boolean)
          .join(' · ') || undefined,
      choice: c,
    }));
    const pick = await vscode.window.showQuickPick(items, {
      title: `Add unit to ${r.name || 'the fleet'} (${r.limit !== undefined ? `${r.total} / ${r.limit} pts` : pts(r.total)})`,
      placeHolder: `A ${r.faction} card: type to search`,
      matchOnDescription: true,
    });
    if (!pick) return;
    if (await applyRosterEdit(ctx, view, r, { action: 'add', card: pick.choice.name }))
      vscode.window.setStatusBarMessage(`$(add) Added ${pick.choice.name}`, 3000);
  });
}

/**
 * Remove on an entry (all its copies, or `one`: its count lowered by one) or on an embarked unit.
 * The tree's node names the entry as the tree was drawn: the edit carries that, not today's index.
 */
export function remove(ctx: Ctx, view: FleetView, copies: 'all' | 'one' = 'all'): Command {
  return guarded(ctx, 'Could not remove the unit', async (arg) => {
    if (!isNode(arg)) return;
    if (arg.kind === 'entry') {
      const done = await applyRosterEdit(ctx, view, arg.roster, { action: 'remove', entry: arg.entry, copies });
      if (done && copies === 'one' && arg.entry.count > 1) vscode.window.setStatusBarMessage(`$(remove) ${arg.entry.count - 1}× ${arg.entry.unit} left`, 3000);
    } else if (arg.kind === 'embarked') await applyRosterEdit(ctx, view, arg.roster, { action: 'disembark', entry: arg.entry, embarked: arg.index });
  });
}

export function embark(ctx: Ctx, view: FleetView): Command {
  return guarded(ctx, 'Could not embark the unit', async (arg) => {
    if (!isNode(arg) || arg.kind !== 'entry') return;
    let e = arg.entry;
    if (e.embarkChoices.length === 0) return void vscode.window.showInformationMessage(`${e.unit} has no launch bay.`);
    // A big faction: the roster carries the first choices only; ask for all of this entry's.
    if (e.embarkChoicesTotal !== undefined && e.embarkChoicesTotal > e.embarkChoices.length) {
      const full = await ctx.request(RosterRequest.type, { uri: arg.roster.uri, embarkFor: e.index });
      e = full?.entries[e.index] ?? e;
    }
    const items = [...e.embarkChoices]
      .sort((a, b) => Number(b.fits) - Number(a.fits))
      .map((c) => ({
        label: c.name,
        description: `${c.class} · ${pts(c.points)}`,
        detail: c.fits ? undefined : '$(warning) no room left in the launch bays',
        choice: c,
      }));
    const pick = await vscode.window.showQuickPick(items, { title: `Embark on ${e.unit}`, placeHolder: 'A unit its launch bays can carry' });
    if (!pick) return;
    await applyRosterEdit(ctx, view, arg.roster, { action: 'embark', entry: e, card: pick.choice.name });
  });
}

const EXPORTS: { label: string; detail: string; format: RosterFormatName; ext: string }[] = [
  { label: 'HTML (printable)', detail: 'One page to print or save as PDF: cards, points, problems', format: 'html', ext: 'html' },
  { label: 'Markdown', detail: 'For GitHub, Reddit, forums and Discord', format: 'markdown', ext: 'md' },
  { label: 'Plain text', detail: 'For e-mail and anywhere else', format: 'text', ext: 'txt' },
  { label: 'JSON', detail: 'The roster as data', format: 'json', ext: 'json' },
];

export function exportRoster(ctx: Ctx, view: FleetView): Command {
  return onFleet(ctx, view, 'Could not export the roster', async (uri) => {
    const pick = await vscode.window.showQuickPick(EXPORTS, { title: 'Export Fleet Roster', placeHolder: 'Format' });
    if (!pick) return;
    const r = await fetchRoster(ctx, uri, pick.format);
    const fleet = vscode.Uri.parse(uri);
    const base = fleet.path
      .split('/')
      .pop()!
      .replace(/\.fleet\.ya?ml$/i, '');
    const target = await vscode.window.showSaveDialog({
      title: 'Export Fleet Roster',
      defaultUri: vscode.Uri.joinPath(fleet, '..', `${base}.roster.${pick.ext}`),
      filters: { [pick.label]: [pick.ext] },
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(r.rendered ?? ''));
    const where = vscode.workspace.asRelativePath(target);
    const legal = r.legal ? '' : ` It has ${r.counts.errors} ${r.counts.errors === 1 ? 'error' : 'errors'} and says so at the top.`;
    if (pick.format === 'html') {
      const open = await vscode.window.showInformationMessage(`Roster written to ${where}.${legal}`, 'Open in Browser', 'Open');
      if (open === 'Open in Browser') await vscode.env.openExternal(target);
      else if (open === 'Open') await vscode.window.showTextDocument(target, { preview: false });
    } else {
      await vscode.window.showTextDocument(target, { preview: false });
      vscode.window.setStatusBarMessage(`$(check) Roster written to ${where}`, 5000);
      if (!r.legal) void vscode.window.showWarningMessage(`The roster was written.${legal}`);
    }
  });
}

/** Copy Roster as Link: the one line as a `fabledstar:` link, which Paste Roster as Fleet and `fabled-star import` read. */
export function copyRosterLink(ctx: Ctx, view: FleetView): Command {
  return onFleet(ctx, view, 'Could not copy the roster', async (uri) => {
    const r = await fetchRoster(ctx, uri);
    await vscode.env.clipboard.writeText(r.copyLink);
    vscode.window.setStatusBarMessage(`$(link) Copied the roster as a link (${r.copyLink.length} characters)`, 5000);
  });
}

export function copyRosterText(ctx: Ctx, view: FleetView): Command {
  return onFleet(ctx, view, 'Could not copy the roster', async (uri) => {
    const r = await fetchRoster(ctx, uri);
    await vscode.env.clipboard.writeText(r.copyText);
    vscode.window.setStatusBarMessage(`$(clippy) Copied: ${r.copyText.length > 80 ? `${r.copyText.slice(0, 79)}…` : r.copyText}`, 5000);
  });
}
