/**
 * Starting a server again: one restart at a time per server, and for stdio servers that died
 * after start-up a budget of at most 3 restarts within 5 minutes, so a server that crashes on
 * every call ends as failed instead of being restarted for ever.
 */

export const RESTART_LIMIT = 3;
/** The window the limit counts in, in ms. */
export const RESTART_WINDOW_MS = 5 * 60_000;

/** A sliding window of restart times. */
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

export interface RestartHooks {
  /** Closes what is left of the server and starts it afresh; never rejects. */
  restart(name: string): Promise<void>;
  /** One line for stderr. */
  log(line: string): void;
  /** The budget is spent: the server stays failed, for the given reason. */
  giveUp(name: string, reason: string): void;
}

export class Restarter {
  private readonly budgets = new Map<string, RestartBudget>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly hooks: RestartHooks) {}

  /** The restart under way for `name`, if any. */
  pending(name: string): Promise<void> | undefined {
    return this.running.get(name);
  }

  /** Restarts `name`, joining a restart already under way. */
  run(name: string): Promise<void> {
    let work = this.running.get(name);
    if (!work) {
      work = this.hooks.restart(name).finally(() => this.running.delete(name));
      this.running.set(name, work);
    }
    return work;
  }

  /**
   * A call found `name` dead (it `why`, e.g. "exited with code 1"): starts a restart in the
   * background when the budget allows, else gives up. Returns the call's error text for the model.
   */
  foundDead(name: string, why: string): string {
    let budget = this.budgets.get(name);
    if (!budget) this.budgets.set(name, (budget = new RestartBudget()));
    const number = budget.take();
    if (!number) {
      const reason = `kept exiting (restarted ${RESTART_LIMIT} times in 5 minutes; last: ${why})`;
      this.hooks.giveUp(name, reason);
      return `MCP server "${name}" is not connected: it ${reason}`;
    }
    this.hooks.log(`MCP server "${name}" ${why}; restarting it (restart ${number} of at most ${RESTART_LIMIT} in 5 minutes)`);
    void this.run(name);
    return `MCP server "${name}" had ${why}; it is being restarted: call the tool again`;
  }
}
