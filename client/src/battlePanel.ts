/**
 * Hosts the fleet battle view ("Battle: A vs B"): a webview panel per pair of fleet files that asks
 * the server for `fabledStar/battle` with a progress token (`BattleProgress`: battles done of the total) and a partial-result token
 * (the view fills in at once and sharpens), and cancels the request when the user presses Cancel,
 * reruns, or closes the panel. Every message from the view is checked with the shared parser.
 */
import * as vscode from 'vscode';
import { BATTLE_PRECISION, type BattleCompareWith, BattleInputsRequest, BattlePartialResult, BattleProgress, BattleRequest } from '../../protocol';
import { BattleInputsWatch } from './battleInputs';
import { renderBattleHtml } from '../webview/battle/html';
import {
  parseBattleResult,
  parseBattleViewMessage,
  type BattleHostMessage,
  type BattleOptions,
  type BattleResult,
  type BattleViewMessage,
} from '../webview/battle/messages';
import { playedRules } from '../webview/variant-messages';
import { isFabledDocument, type Ctx } from './ctx';
import { fitText } from '../webview/schema';
import { pairTitle, ViewPanel, ViewPanels, type ViewKind } from './viewPanel';
import { TOKEN_TAG } from './ids';

export const BATTLE_VIEW_TYPE = 'fabledStar.battle';

let tokens = 0;
const progressToken = (what: string) => `fabledStar-battle-${what}-${TOKEN_TAG}-${++tokens}`;

const BATTLE_VIEW: ViewKind<BattleViewMessage> = {
  viewType: BATTLE_VIEW_TYPE,
  name: 'battle view',
  bundle: 'battle',
  title: 'Battle',
  render: renderBattleHtml,
  parse: parseBattleViewMessage,
};

class BattlePanel extends ViewPanel<BattleHostMessage, BattleViewMessage, BattleOptions> {
  private result: BattleResult | undefined;

  constructor(
    ctx: Ctx,
    panel: vscode.WebviewPanel,
    readonly fleet: string,
    readonly vs: string,
    restored: BattleResult | undefined,
    onDispose: () => void,
    /** The fleets' names as the pick showed them, for the heading until a result names them. */
    private readonly names?: { fleet: string; vs: string },
    /** What-if: another version of the fleet, played on the same dice beside it. */
    private compareWith?: BattleCompareWith,
  ) {
    super(
      ctx,
      panel,
      BATTLE_VIEW,
      restored ? pairTitle(BATTLE_VIEW, restored.sides[0].fleet, restored.sides[1].fleet) : names ? pairTitle(BATTLE_VIEW, names.fleet, names.vs) : 'Battle',
      onDispose,
    );
    this.result = restored;
    this.followEdits();
    if (restored)
      this.options = {
        rounds: restored.rounds,
        trials: restored.requestedTrials ?? restored.trials,
        seed: restored.seed,
        ...(restored.variants.length ? { variants: playedRules(restored), ...(restored.compare ? { compare: true } : {}) } : {}),
      };
  }

  /** Follows edits of the two fleets and their cards (./battleInputs.ts): out-of-date figures are said so and played again. */
  private readonly watch = new BattleInputsWatch({
    ask: () => this.ctx.request(BattleInputsRequest.type, { fleet: { uri: this.fleet }, vs: { uri: this.vs } }),
    changed: () => {
      this.post({ type: 'fleetsEdited' });
      void this.run();
    },
    cannotFight: (message) => {
      // A run still playing plays the lists before the edit: its figures would read as current.
      this.cancel();
      this.post({ type: 'cannotFight', message });
    },
    current: () => this.post({ type: 'fleetsCurrent' }),
  });

  private followEdits(): void {
    // Any Fabled Star file: a fleet list, or a unit or faction file whose cards a fleet may use (the
    // server says whether the battle changed). Files changed on disk come through the server too.
    const edited = () => this.watch.edited();
    this.track(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && isFabledDocument(e.document)) edited();
      }),
      this.ctx.onFleetSummaryChanged(edited),
      { dispose: () => this.watch.dispose() },
    );
  }

  get comparing(): boolean {
    return this.compareWith !== undefined;
  }

  /** Plays the fleet beside another version of it (or, with undefined, alone) from now on. */
  setCompareWith(w: BattleCompareWith | undefined): void {
    this.compareWith = w;
    this.post({ type: 'compareWith', label: w?.label ?? '', another: !!w?.another });
  }

  protected replay(): boolean {
    if (this.names) this.post({ type: 'fleets', ...this.names });
    if (this.compareWith) this.post({ type: 'compareWith', label: this.compareWith.label ?? '', another: !!this.compareWith.another });
    if (this.result) this.post({ type: 'result', result: this.result, partial: false });
    return !!this.result;
  }

  protected override receive(message: BattleViewMessage): void {
    if (message.type === 'cancel' && this.cancel()) this.post({ type: 'cancelled' });
  }

  /** Asks the server for the battle, superseding (cancelling) a run still in flight. */
  run(): Promise<void> {
    // What these figures will be for (asked before the battle, which reads the fleets when its turn comes).
    this.watch.started(this.ctx.request(BattleInputsRequest.type, { fleet: { uri: this.fleet }, vs: { uri: this.vs } }));
    return this.request(
      `Battle of ${this.fleet} vs ${this.vs}`,
      async (token) => {
        const partial = progressToken('partial');
        const counted = progressToken('count');
        const subs = [
          // The battles played and asked for, as the server counts them (both runs when variants are compared).
          this.ctx.onProgress(BattleProgress, counted, ({ done, total }) => {
            if (!token.isCancellationRequested) this.post({ type: 'progress', done, total });
          }),
          this.ctx.onProgress(BattlePartialResult, partial, (r) => {
            if (token.isCancellationRequested || this.disposed) return;
            const checked = parseBattleResult(fitText(r));
            if (checked) {
              this.result = checked;
              this.post({ type: 'result', result: checked, partial: true });
            }
          }),
        ];
        try {
          return await this.ctx.request(
            BattleRequest.type,
            {
              fleet: { uri: this.fleet },
              vs: { uri: this.vs },
              options: this.options ?? {},
              // Until every chance is that sure, the options' trials the most played.
              precision: BATTLE_PRECISION.view,
              partialResultToken: partial,
              progressToken: counted,
              ...(this.compareWith ? { compareWith: this.compareWith } : {}),
            },
            token,
          );
        } finally {
          for (const s of subs) s?.dispose();
        }
      },
      (result) => {
        this.result = result;
        this.panel.title = pairTitle(BATTLE_VIEW, result.sides[0].fleet, result.sides[1].fleet);
        this.post({ type: 'result', result, partial: false });
      },
    );
  }
}

/** The state the view saves, with the two fleets' URIs the host adds, as it comes back after a reload. */
interface SavedState {
  result?: unknown;
  fleet?: unknown;
  vs?: unknown;
}

export class BattlePanels extends ViewPanels<BattlePanel> {
  constructor(ctx: Ctx) {
    super(ctx, BATTLE_VIEW_TYPE);
  }

  /** Opens (or brings to front and reruns) the panel for this pair of fleet files. */
  open(fleet: vscode.Uri, vs: vscode.Uri, names?: { fleet: string; vs: string }, compareWith?: BattleCompareWith): void {
    const a = fleet.toString();
    const b = vs.toString();
    if (
      this.reopen((p) => {
        if (p.fleet !== a || p.vs !== b) return false;
        // A what-if asked for (or no longer): the panel plays it from now on.
        if (compareWith || p.comparing) p.setCompareWith(compareWith);
        return true;
      })
    )
      return;
    const panel = this.createPanel(names ? pairTitle(BATTLE_VIEW, names.fleet, names.vs) : 'Battle');
    this.add((forget) => new BattlePanel(this.ctx, panel, a, b, undefined, forget, names, compareWith));
    // The view keeps its result; the host keeps which files it is about, for a reload.
    void this.ctx.extension.workspaceState.update(`${BATTLE_VIEW_TYPE}:last`, { fleet: a, vs: b });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const s = (state && typeof state === 'object' ? state : {}) as SavedState;
    const last = this.ctx.extension.workspaceState.get<SavedState>(`${BATTLE_VIEW_TYPE}:last`);
    const result = parseBattleResult(s.result);
    const fleet = typeof last?.fleet === 'string' ? last.fleet : undefined;
    const vs = typeof last?.vs === 'string' ? last.vs : undefined;
    if (!result || !fleet || !vs) {
      panel.dispose();
      return;
    }
    this.add((forget) => new BattlePanel(this.ctx, panel, fleet, vs, result, forget));
  }
}
