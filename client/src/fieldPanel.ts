/**
 * Hosts the "vs the field" view: a webview panel per card that asks the server for
 * `fabledStar/vsField` (the rows of `fabled-star sim --vs-field`) and posts them to the view
 * (client/webview/field). Every message from the view is checked with the view's parser before it
 * is acted on; a row's "Simulate" opens the engagement view for that pair.
 */
import * as vscode from 'vscode';
import { SIMULATE_COMMAND, VsFieldRequest, sameSelector, type CardName } from '../../protocol';
import { renderFieldHtml } from '../webview/field/html';
import {
  parseFieldHostMessage,
  parseFieldViewMessage,
  type FieldHostMessage,
  type FieldOptions,
  type FieldViewMessage,
  type VsFieldResult,
} from '../webview/field/messages';
import { cardAt, fleetCardAt, listCards, pickCard, selector } from './cards';
import { reportFailure, type Cmd } from './commands';
import type { Ctx } from './ctx';
import { parsePriceArgs } from './priceByBattle';
import { ViewPanel, ViewPanels, type ViewKind } from './viewPanel';

export const FIELD_VIEW_TYPE = 'fabledStar.vsField';

const FIELD_VIEW: ViewKind<FieldViewMessage> = {
  viewType: FIELD_VIEW_TYPE,
  name: 'vs the field view',
  bundle: 'field',
  title: 'vs the field',
  render: renderFieldHtml,
  parse: parseFieldViewMessage,
};

const titleOf = (card: CardName) => `${card.name} vs the field`;

class FieldPanel extends ViewPanel<FieldHostMessage, FieldViewMessage, FieldOptions> {
  private result: VsFieldResult | undefined;
  /** The options `result` was computed with. */
  private shown: FieldOptions | undefined;

  constructor(
    ctx: Ctx,
    panel: vscode.WebviewPanel,
    readonly card: CardName,
    restored: { result: VsFieldResult; options: FieldOptions } | undefined,
    onDispose: () => void,
  ) {
    super(ctx, panel, FIELD_VIEW, titleOf(card), onDispose);
    if (restored) {
      this.result = restored.result;
      this.options = this.shown = restored.options;
    }
  }

  protected replay(): boolean {
    this.post({ type: 'card', card: { name: this.card.name, ...(this.card.faction ? { faction: this.card.faction } : {}) }, options: this.current() });
    if (this.result && this.shown) this.post({ type: 'result', result: this.result, options: this.shown });
    return !!this.result;
  }

  protected override receive(message: FieldViewMessage): void {
    if (message.type !== 'simulate') return;
    const other: CardName = {
      name: message.other.name,
      ...(message.other.faction ? { faction: message.other.faction } : {}),
      ...(message.other.example ? { example: true } : {}),
    };
    const self: CardName = { ...this.card };
    // The engagement command reads names (a uri is only where the lens found the card).
    const args: { attacker: CardName; defender: CardName } =
      this.current().side === 'attacker' ? { attacker: self, defender: other } : { attacker: other, defender: self };
    void vscode.commands.executeCommand(SIMULATE_COMMAND, args);
  }

  private current(): FieldOptions {
    return this.options ?? { side: 'attacker' };
  }

  run(): Promise<void> {
    const options = this.current();
    return this.request(
      `The field against ${this.card.name}`,
      (token) =>
        this.ctx.request(VsFieldRequest.type, { card: this.card, side: options.side, ...(options.range !== undefined ? { range: options.range } : {}) }, token),
      (result) => {
        this.result = result;
        this.shown = options;
        this.post({ type: 'result', result, options });
      },
    );
  }
}

/** The result and options the view saved, checked like a message (they round-trip through the view). */
function restoredState(state: unknown): { card: CardName; result: VsFieldResult; options: FieldOptions } | undefined {
  if (typeof state !== 'object' || state === null || !('result' in state) || !('options' in state)) return undefined;
  const m = parseFieldHostMessage({ type: 'result', result: state.result, options: state.options });
  if (m?.type !== 'result') return undefined;
  const name = m.result.attacker ?? m.result.defender;
  if (!name) return undefined;
  const card = 'card' in state ? parseFieldHostMessage({ type: 'card', card: state.card, options: m.options }) : undefined;
  return { card: card?.type === 'card' && card.card.name === name ? card.card : { name }, result: m.result, options: m.options };
}

export class FieldPanels extends ViewPanels<FieldPanel> {
  constructor(ctx: Ctx) {
    super(ctx, FIELD_VIEW_TYPE);
  }

  /** Opens (or brings to front and reruns) the panel of this card. */
  open(card: CardName): void {
    if (this.reopen((p) => sameSelector(p.card, card))) return;
    const panel = this.createPanel(titleOf(card));
    this.add((forget) => new FieldPanel(this.ctx, panel, card, undefined, forget));
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const restored = restoredState(state);
    if (!restored) {
      panel.dispose();
      return;
    }
    this.add((forget) => new FieldPanel(this.ctx, panel, restored.card, restored, forget));
  }
}

/** `fabledStar.vsField`: the card the lens names, else the one under the cursor, else one picked. */
export function vsField(ctx: Ctx, panels: FieldPanels): Cmd {
  return async (...args: unknown[]) => {
    try {
      let card = parsePriceArgs(args);
      if (!card) {
        const all = await listCards(ctx, undefined, true);
        const own = all.filter((c) => !c.example);
        const editor = vscode.window.activeTextEditor;
        const here = cardAt(own, editor) ?? (await fleetCardAt(ctx, editor));
        const picked = here ?? (await pickCard(own.length ? own : all, 'Against the Field', 'The card to set against every card of the field'));
        if (!picked) return;
        card = selector(picked);
      }
      panels.open(card);
    } catch (e) {
      await reportFailure(ctx, 'Could not set the card against the field', e);
    }
  };
}
