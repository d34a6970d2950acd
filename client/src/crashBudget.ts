/**
 * How many server crashes we tolerate before giving up. Kept free of `vscode` so that the policy
 * is plain data and a clock, easy to reason about and to test.
 */
export interface CrashVerdict {
  /** Restart the server, or stop trying. */
  restart: boolean;
  /** Crashes counted inside the window, this one included. */
  crashes: number;
  /** The most crashes the window allows before we stop. */
  limit: number;
}

export class CrashBudget {
  private times: number[] = [];

  /**
   * @param limit crashes within `windowMs` that make us stop (4 in 3 minutes by default: one crash is
   *   bad luck, a server that dies every few seconds only burns CPU and floods the user).
   */
  constructor(
    readonly limit = 4,
    readonly windowMs = 3 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash now and says whether another restart is worth it. */
  record(): CrashVerdict {
    const t = this.now();
    this.times = this.times.filter((x) => t - x < this.windowMs);
    this.times.push(t);
    return { restart: this.times.length < this.limit, crashes: this.times.length, limit: this.limit };
  }

  /** A restart the user asked for starts with a clean slate. */
  reset(): void {
    this.times = [];
  }
}
