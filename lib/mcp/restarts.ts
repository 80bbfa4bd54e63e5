/**
 * How often a stdio server that died after start-up is started again: at most `limit` times
 * within a sliding window (3 in 5 minutes), so a server that crashes on every call ends as failed
 * instead of being restarted for ever.
 */

export const RESTART_LIMIT = 3;
/** The window the limit counts in, in ms. */
export const RESTART_WINDOW_MS = 5 * 60_000;

export class RestartBudget {
  private readonly times: number[] = [];

  constructor(
    readonly limit = RESTART_LIMIT,
    readonly windowMs = RESTART_WINDOW_MS,
  ) {}

  /** Takes one restart when the window has room; returns its number (1-based), or 0 when spent. `now` in ms. */
  take(now = Date.now()): number {
    while (this.times.length && now - this.times[0]! >= this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) return 0;
    this.times.push(now);
    return this.times.length;
  }
}
