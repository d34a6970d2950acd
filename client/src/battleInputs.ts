/**
 * Keeps a battle view's figures with its fleets: after an edit of either fleet list, or of a card
 * either uses, it asks the server what the battle would play now (`fabledStar/battleInputs`, a key
 * of both fleets' units and their cards' numbers) once the edits pause; when that is no longer what
 * the figures were played with, the view is told they are out of date and the battle runs again, as
 * after a change of its options. A fleet that can no longer fight is said so, with the server's
 * sentence, and nothing runs until it can. No `vscode` here: the panel (./battlePanel.ts) wires it
 * to the editor's events and the server; a test drives it alone.
 */
import type { BattleInputs } from '../../protocol';

/** How long the edits pause before the battle is checked (as long as the view waits after an option's edit). */
export const INPUTS_DELAY_MS = 600;

export interface BattleInputsHooks {
  /** What the battle would play now. */
  ask(): Promise<BattleInputs>;
  /** The figures are for fleets that are no more (the panel says so in the view, then reruns). */
  changed(): void;
  /** A fleet cannot fight now: `sentence` says why (the figures shown are from before). */
  cannotFight(sentence: string): void;
  /** After `cannotFight`: the fleets are back to what the figures were played with. */
  current(): void;
  /** Timers, for a test's clock. */
  setTimer?(f: () => void, ms: number): unknown;
  clearTimer?(t: unknown): void;
}

export class BattleInputsWatch {
  /** The key of the run whose figures the view shows (or is playing): undefined while unknown. */
  private shown: Promise<string | undefined> = Promise.resolve(undefined);
  private timer: unknown;
  /** Bumped by each check and each run: an answer for an older one is dropped. */
  private generation = 0;
  /** The sentence the view shows for a fleet that cannot fight, if any. */
  private blocked: string | undefined;
  private disposed = false;

  constructor(
    private readonly hooks: BattleInputsHooks,
    private readonly delayMs = INPUTS_DELAY_MS,
  ) {}

  /**
   * A run starts: its figures are for the fleets as `inputs` finds them (asked just before the run;
   * a run that fails leaves no key, so the next edit that lets the fleets fight runs them).
   */
  started(inputs: Promise<BattleInputs>): void {
    this.generation++;
    this.blocked = undefined;
    this.shown = inputs.then(
      (i) => ('key' in i ? i.key : undefined),
      () => undefined,
    );
  }

  /** Something a battle may read was edited (a fleet list, a card): check once the edits pause. */
  edited(): void {
    if (this.disposed) return;
    this.clear();
    const set = this.hooks.setTimer ?? ((f: () => void, ms: number) => setTimeout(f, ms));
    this.timer = set(() => {
      this.timer = undefined;
      void this.check();
    }, this.delayMs);
  }

  /** Asks what the battle would play now and acts on it; an answer overtaken by a later check or run is dropped. */
  async check(): Promise<void> {
    const generation = ++this.generation;
    let now: BattleInputs;
    let shown: string | undefined;
    try {
      [now, shown] = await Promise.all([this.hooks.ask(), this.shown]);
    } catch {
      // The server is not there (restarting): the next edit asks again.
      return;
    }
    if (this.disposed || generation !== this.generation) return;
    if ('cannotFight' in now) {
      if (this.blocked !== now.cannotFight) {
        this.blocked = now.cannotFight;
        this.hooks.cannotFight(now.cannotFight);
      }
      return;
    }
    const wasBlocked = this.blocked !== undefined;
    this.blocked = undefined;
    if (now.key === shown) {
      if (wasBlocked) this.hooks.current();
      return;
    }
    this.hooks.changed();
  }

  private clear(): void {
    if (this.timer === undefined) return;
    (this.hooks.clearTimer ?? ((t: unknown) => clearTimeout(t as ReturnType<typeof setTimeout>)))(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }
}
