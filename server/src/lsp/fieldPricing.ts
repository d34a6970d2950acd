/**
 * A workspace's reference field priced in the background (BATTLE.md "Points from battles"): when
 * the field is the workspace's own (ten or more cards at their class's standard points) and not yet
 * priced, each of its cards is priced by battle against it, its battles on the server's runner at
 * the background priority (never on the server's thread); an edit that moves the field
 * cancels the run and starts again after a pause. Once priced, the estimate is fitted to those
 * battle prices (the service's `setFieldPrices`) and the notes, hovers and lenses are
 * made again. Off while the points estimate is turned off.
 */
import type { SimRunner } from '../core/service';
import type { ServerState } from './state';

/** How long the workspace must keep still before a field is priced (ms). */
const QUIET_MS = 3000;

export class FieldPricing {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: { fieldId: string; stop: boolean } | undefined;

  constructor(
    private readonly state: ServerState,
    private readonly runner: SimRunner,
    private readonly enabled: () => boolean,
    private readonly priced: () => void,
  ) {}

  /** The workspace's cards may have changed: price the field once they keep still (a run for another field stops). */
  kick(delayMs = QUIET_MS): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, delayMs);
    this.timer.unref?.();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.running) this.running.stop = true;
  }

  private async run(): Promise<void> {
    if (!this.enabled()) return;
    const service = this.state.service;
    let field;
    try {
      field = service.field();
    } catch {
      return;
    }
    if (this.running?.fieldId === field.id) return;
    if (this.running) this.running.stop = true;
    if (!service.fieldNeedsPrices(field)) return;
    const me = { fieldId: field.id, stop: false };
    this.running = me;
    const cancelled = () => me.stop || !this.enabled() || service.field().id !== me.fieldId;
    // Asked before each battle starts: a run for a field that moved stops at its next battle.
    const token = {
      get isCancellationRequested() {
        return cancelled();
      },
      onCancellationRequested: () => ({ dispose() {} }),
    };
    try {
      // `field()` is made by the service's own estimates, so they are where its prices belong.
      service.setFieldPrices(field, await service.priceField(field, this.runner, token));
      this.priced();
    } catch (e) {
      if (!service.pricingCancelled(e)) this.state.logError('Pricing the reference field by battle failed', e);
    } finally {
      if (this.running === me) this.running = undefined;
    }
  }
}
