/**
 * What the views with a form of options share about figures that may be older than the form: the
 * note over figures that are still the previous run's (and the figures greyed), and a new run
 * asked for once the user stops typing. The engagement and battle views each decide when figures
 * are stale and what the note says; this keeps how it is shown and timed in one place.
 */

/** How long after the last keystroke in a form a new run is asked for. */
export const RERUN_DELAY_MS = 600;

/** The note over figures that are still the previous run's, and the elements it greys (`.stale`). */
export class StaleFigures {
  private shown: string | undefined;

  constructor(
    private readonly note: HTMLElement,
    private readonly figures: readonly HTMLElement[],
  ) {
    // Whoever reads the figures with a screen reader hears the note with them.
    for (const f of figures) f.setAttribute('aria-describedby', note.id);
  }

  /** The note shown now, if any. */
  get current(): string | undefined {
    return this.shown;
  }

  /** Says over the figures why they are old (`note`), or clears that (undefined). */
  show(note: string | undefined): void {
    this.shown = note;
    const on = note !== undefined;
    for (const f of this.figures) f.classList.toggle('stale', on);
    this.note.hidden = !on;
    this.note.textContent = note ?? '';
  }
}

/** A run asked for once the user stops typing: each `schedule` replaces the one before. */
export class RerunTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly delayMs = RERUN_DELAY_MS) {}

  schedule(run: () => void): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      run();
    }, this.delayMs);
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
