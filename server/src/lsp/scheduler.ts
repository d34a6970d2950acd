/**
 * When diagnostics are computed and published, and when the client is asked to fetch hints, lenses
 * or pulled diagnostics again. Pure timing: the clock is injected (tests drive a fake one), and the
 * work itself (publishing, the delay setting, the refresh requests) belongs to the host.
 *
 * Push mode is a leading-edge debounce per document. The first change after a pause is validated
 * at once (on the next turn of the event loop, so that changes already queued are applied first);
 * changes that follow within the delay wait until typing pauses. A pending validation is dropped
 * when a newer change supersedes it. Documents that depend on a changed one (fleets naming a card)
 * are validated one per turn after the delay, and the batch is abandoned when newer work arrives.
 * Hand-written because the timing depends on which documents depend on which; a generic debounce
 * cannot cancel per document.
 */

/** Cancels a timer. Calling it after the timer fired does nothing. */
export type Cancel = () => void;

export interface Clock {
  now(): number;
  setTimeout(f: () => void, ms: number): Cancel;
  /** Runs `f` on the next turn of the event loop. */
  setImmediate(f: () => void): Cancel;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (f, ms) => {
    const h = setTimeout(f, ms);
    return () => clearTimeout(h);
  },
  setImmediate: (f) => {
    const h = setImmediate(f);
    return () => clearImmediate(h);
  },
};

export interface SchedulerHost {
  /** Whether the client pulls diagnostics (then nothing is published; the client is asked to pull again). */
  pull(): boolean;
  /** The typing delay for a document (`fabledStar.diagnostics.delayMs`). */
  delayMs(uri: string): number | Promise<number>;
  /** Computes and sends a document's diagnostics (push mode). */
  publish(uri: string): void;
  /**
   * Settles once what was published is written to the client. A batch of dependents waits for it
   * between two documents: a client slower to read than the server to check (a busy machine, a
   * pass over thousands of files) would otherwise find the answer to its hover behind every
   * message the batch has sent.
   */
  written?(): Promise<void>;
  /** Asks the client to pull diagnostics again (pull mode), if it can. */
  refreshDiagnostics(): void;
  /** Asks the client to fetch inlay hints and code lenses again, if it can. */
  refreshViews(): void;
}

/** Why a document is to be validated: it was opened, it is being typed in, or a file it uses changed. */
export type Reason = 'now' | 'typing' | 'dependent';

/** Waits before asking for hints and lenses again, so a burst of card edits asks once. */
export const VIEWS_REFRESH_MS = 200;
/** Waits before asking a pulling client to pull again, so a burst of changes asks once. */
export const DIAGNOSTICS_REFRESH_MS = 50;

export class DiagnosticsScheduler {
  private readonly timers = new Map<string, Cancel>();
  private readonly lastChange = new Map<string, number>();
  private readonly pendingDependents = new Set<string>();
  /** Dependents known only once the batch runs (`changed`'s `later`), asked for then. */
  private pendingLater: (() => Iterable<string>)[] = [];
  /** Bumped to abandon a batch of dependent validations when newer work arrives. */
  private generation = 0;
  private dependentsTimer: Cancel | undefined;
  private viewsTimer: Cancel | undefined;
  private refreshTimer: Cancel | undefined;

  constructor(
    private readonly host: SchedulerHost,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Validates a document now or once typing pauses (push), or asks the client to pull (pull). */
  schedule(uri: string, why: Reason): void {
    if (this.host.pull()) {
      // The client pulls; fleets that depend on a changed card learn it through a refresh.
      if (why === 'dependent') this.requestRefresh();
      return;
    }
    void Promise.resolve(this.host.delayMs(uri)).then((delay) => {
      const now = this.clock.now();
      const prev = this.lastChange.get(uri);
      if (why === 'typing') this.lastChange.set(uri, now);
      const pending = this.timers.has(uri);
      this.cancel(uri);
      const immediate = why === 'now' || (why === 'typing' && !pending && (prev === undefined || now - prev >= delay));
      const run = () => {
        this.timers.delete(uri);
        this.host.publish(uri);
      };
      this.timers.set(uri, immediate ? this.clock.setImmediate(run) : this.clock.setTimeout(run, delay));
    });
  }

  /** Drops a document's pending validation. */
  cancel(uri: string): void {
    this.timers.get(uri)?.();
    this.timers.delete(uri);
  }

  /** A document was closed: drop its pending validation and its typing history. */
  forget(uri: string): void {
    this.cancel(uri);
    this.lastChange.delete(uri);
  }

  /** Whether a validation of the document is waiting. */
  isScheduled(uri: string): boolean {
    return this.timers.has(uri);
  }

  /**
   * A document's model changed: validate the documents that depend on it after the delay, and
   * refresh hints and lenses when a card (not a fleet) changed, since other files show its figures.
   * `later`: more dependents, costly to find (the points estimate's field), asked for when the
   * batch runs, after the changed document's own diagnostics; never for a pulling client, whose
   * refresh pulls everything again.
   */
  changed(uri: string, dependents: Iterable<string>, cardsChanged: boolean, later?: () => Iterable<string>): void {
    if (cardsChanged) this.refreshViews();
    for (const d of dependents) this.pendingDependents.add(d);
    if (later && !this.host.pull()) this.pendingLater.push(later);
    if (this.pendingDependents.size === 0 && this.pendingLater.length === 0) return;
    if (this.host.pull()) {
      this.pendingDependents.clear();
      this.requestRefresh();
      return;
    }
    this.generation++;
    this.dependentsTimer?.();
    void Promise.resolve(this.host.delayMs(uri)).then((delay) => {
      this.dependentsTimer?.();
      this.dependentsTimer = this.clock.setTimeout(() => void this.runDependents(), delay);
    });
  }

  /** Everything may resolve differently (settings, workspace folders): validate every document soon. */
  revalidateAll(uris: Iterable<string>): void {
    if (this.host.pull()) {
      this.requestRefresh();
      return;
    }
    for (const uri of uris) this.pendingDependents.add(uri);
    this.generation++;
    this.dependentsTimer?.();
    this.dependentsTimer = this.clock.setTimeout(() => void this.runDependents(), 0);
  }

  /** Asks a pulling client to pull again, once per burst. */
  requestRefresh(): void {
    this.refreshTimer?.();
    this.refreshTimer = this.clock.setTimeout(() => this.host.refreshDiagnostics(), DIAGNOSTICS_REFRESH_MS);
  }

  /** Asks the client to fetch hints and lenses again, once per burst. */
  refreshViews(): void {
    this.viewsTimer?.();
    this.viewsTimer = this.clock.setTimeout(() => this.host.refreshViews(), VIEWS_REFRESH_MS);
  }

  /** Validates the affected documents one per event-loop turn, abandoning the batch if newer work arrives. */
  private async runDependents(): Promise<void> {
    const gen = this.generation;
    const later = this.pendingLater;
    this.pendingLater = [];
    for (const f of later) for (const d of f()) this.pendingDependents.add(d);
    const list = [...this.pendingDependents];
    this.pendingDependents.clear();
    for (let i = 0; i < list.length; i++) {
      const uri = list[i]!;
      if (gen !== this.generation) {
        // The rest wait behind the newer work (those done already are not done again).
        for (let j = i; j < list.length; j++) this.pendingDependents.add(list[j]!);
        return;
      }
      if (!this.timers.has(uri)) this.host.publish(uri);
      await new Promise<void>((r) => this.clock.setImmediate(r));
      await this.host.written?.();
    }
  }
}
