/**
 * Hosts the engagement view: a webview panel per attacker/defender pair that asks the server for
 * `fabledStar/simulate` and posts the result to the view (client/webview, another module's code).
 * Every message from the view is checked with the shared parser before it is acted on; the view
 * can only ask for a rerun with options inside the parser's bounds.
 */
import type * as vscode from 'vscode';
import { SimulateRequest, sameSelector, type CardName, type SimulateResult } from '../../protocol';
import type { EngagementOptions, SimulationResult } from '../../protocol/simulation';
import { renderWebviewHtml } from '../webview/engagement/html';
import {
  parseHostMessage,
  parseSimulationResult,
  parseViewMessage,
  type HostMessage,
  type RulesChoice,
  type UnitFacts,
  type ViewMessage,
} from '../webview/engagement/messages';
import { playedRules } from '../webview/variant-messages';
import { simulationOptions } from './config';
import type { Ctx } from './ctx';
import { pairTitle, ViewPanel, ViewPanels, type ViewKind } from './viewPanel';

export const VIEW_TYPE = 'fabledStar.engagement';

/** A card as the panel knows it: its name for the request, and what its line in the view shows. */
export type PanelCard = CardName & Omit<UnitFacts, 'name' | 'faction'>;

const ENGAGEMENT_VIEW: ViewKind<ViewMessage> = {
  viewType: VIEW_TYPE,
  name: 'engagement view',
  bundle: 'engagement',
  title: 'Engagement',
  render: renderWebviewHtml,
  parse: parseViewMessage,
};

class EngagementPanel extends ViewPanel<HostMessage, ViewMessage, EngagementOptions> {
  private result: SimulationResult | undefined;
  /** Both cards' points estimates from the last run (shown beside their points). */
  private estimates: SimulateResult['pointsEstimate'];
  /** The rule variants the user picked in the view (none: the standard rules). */
  private rules: RulesChoice | undefined;

  constructor(
    ctx: Ctx,
    panel: vscode.WebviewPanel,
    readonly attacker: PanelCard,
    readonly defender: PanelCard,
    restored: SimulationResult | undefined,
    onDispose: () => void,
    restoredEstimates?: SimulateResult['pointsEstimate'],
  ) {
    super(ctx, panel, ENGAGEMENT_VIEW, pairTitle(ENGAGEMENT_VIEW, attacker.name, defender.name), onDispose);
    this.result = restored;
    this.estimates = restoredEstimates;
    // The view sends every control, and no range means "any range": a setting cannot slip in under them.
    if (restored) {
      this.options = { ...restored.options };
      const names = playedRules(restored.engagement);
      if (names.length) this.rules = { variants: names, compare: restored.engagement.compare !== undefined };
    }
  }

  protected override rerun(message: ViewMessage): void {
    if (message.type === 'rerun') this.rules = message.rules;
  }

  protected replay(): boolean {
    this.post({ type: 'units', attacker: facts(this.attacker), defender: facts(this.defender) });
    if (this.result) this.post({ type: 'result', result: this.result, ...(this.estimates ? { estimates: this.estimates } : {}) });
    return !!this.result;
  }

  /** Asks the server for the engagement, superseding (cancelling) a run still in flight. */
  run(): Promise<void> {
    const options = this.options ?? simulationOptions();
    return this.request(
      `Simulation of ${this.attacker.name} vs ${this.defender.name}`,
      (token) =>
        this.ctx.request(
          SimulateRequest.type,
          {
            attacker: cardName(this.attacker),
            defender: cardName(this.defender),
            options,
            ...(this.rules?.variants.length ? { variants: this.rules.variants, compare: this.rules.compare } : {}),
          },
          token,
        ),
      (result) => {
        const { pointsEstimate, ...simulation } = result;
        this.result = simulation;
        this.estimates = pointsEstimate;
        this.panel.title = pairTitle(ENGAGEMENT_VIEW, result.attacker, result.defender);
        this.post({ type: 'result', result: simulation, ...(pointsEstimate ? { estimates: pointsEstimate } : {}) });
      },
    );
  }
}

function cardName(c: PanelCard): CardName {
  return { name: c.name, ...(c.faction !== undefined ? { faction: c.faction } : {}), ...(c.example ? { example: true } : {}) };
}

function facts(c: PanelCard): UnitFacts {
  const out: UnitFacts = { name: c.name };
  if (c.faction !== undefined) out.faction = c.faction;
  if (c.class !== undefined) out.class = c.class;
  if (c.points !== undefined) out.points = c.points;
  if (c.example) out.example = true;
  return out;
}

/**
 * The state the view keeps with `setState`, as it comes back after a reload: the last result,
 * either as the state itself or under `result`. Parsed like any message, since it round-trips
 * through the view.
 */
function restoredResult(state: unknown): SimulationResult | undefined {
  const direct = parseSimulationResult(state);
  if (direct) return direct;
  if (typeof state === 'object' && state !== null && 'result' in state) {
    return parseSimulationResult(state.result);
  }
  return undefined;
}

/** The two cards' lines the view saved, checked like a message; names only when there are none. */
function restoredCards(state: unknown, result: SimulationResult): [PanelCard, PanelCard] {
  const units = typeof state === 'object' && state !== null && 'units' in state ? state.units : undefined;
  const m = typeof units === 'object' && units !== null ? parseHostMessage({ ...units, type: 'units' }) : undefined;
  if (m?.type === 'units' && m.attacker.name === result.attacker && m.defender.name === result.defender) return [m.attacker, m.defender];
  return [{ name: result.attacker }, { name: result.defender }];
}

/** The points estimates the view saved beside its result, checked like a message. */
function restoredEstimates(state: unknown, result: SimulationResult): SimulateResult['pointsEstimate'] {
  const estimates = typeof state === 'object' && state !== null && 'estimates' in state ? state.estimates : undefined;
  if (estimates === undefined) return undefined;
  const m = parseHostMessage({ type: 'result', result, estimates });
  return m?.type === 'result' ? m.estimates : undefined;
}

export class EngagementPanels extends ViewPanels<EngagementPanel> {
  constructor(ctx: Ctx) {
    super(ctx, VIEW_TYPE);
  }

  /** Opens (or brings to front and reruns) the panel for this pair. */
  open(attacker: PanelCard, defender: PanelCard): void {
    if (this.reopen((p) => sameSelector(p.attacker, attacker) && sameSelector(p.defender, defender))) return;
    const panel = this.createPanel(pairTitle(ENGAGEMENT_VIEW, attacker.name, defender.name));
    this.add((forget) => new EngagementPanel(this.ctx, panel, attacker, defender, undefined, forget));
  }

  /** Restores a panel after a window reload from the result the view saved. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const result = restoredResult(state);
    if (!result) {
      // Nothing usable to restore (an older view version, or a panel closed before its first result).
      panel.dispose();
      return;
    }
    const [attacker, defender] = restoredCards(state, result);
    this.add((forget) => new EngagementPanel(this.ctx, panel, attacker, defender, result, forget, restoredEstimates(state, result)));
  }
}
