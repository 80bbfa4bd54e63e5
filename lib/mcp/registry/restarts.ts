/**
 * Starting a server again after its session ended mid-run: one restart at a time per server, a
 * budget of at most 3 restarts within 5 minutes (a restart that fails counts too), and the
 * recovery a tool call waits for: restart until one holds or the budget is spent, within the
 * tool timeout. A server that crashes on every call so ends as failed, said once, instead of
 * being restarted for ever. A death is reported once: the line that reports it already names the
 * restart its next call makes (`nextRestart`), so the restart itself says nothing more; only a
 * restart that fails, news of its own, gets a line.
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
    const number = this.peek(now);
    if (number) this.times.push(now);
    return number;
  }

  /** The number `take` would return now, taking nothing. */
  peek(now = Date.now()): number {
    while (this.times.length && now - this.times[0]! >= this.windowMs) this.times.shift();
    return this.times.length >= this.limit ? 0 : this.times.length + 1;
  }
}

export interface RestartHooks {
  /** Closes what is left of the server and starts it afresh, saying nothing; resolves with why it failed, or undefined once connected. Never rejects. */
  restart(name: string): Promise<string | undefined>;
  /** One line for stderr. */
  log(line: string): void;
  /** The budget is spent: the server stays failed, for the given reason (reported once, by the hook). */
  giveUp(name: string, reason: string): void;
  /** True once the run is shutting down: a recovery then stops, saying nothing. */
  stopping(): boolean;
}

export class Restarter {
  private readonly budgets = new Map<string, RestartBudget>();
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly recovering = new Map<string, Promise<string | undefined>>();
  /** Servers whose budget is spent, with the error result their calls now get. */
  private readonly failed = new Map<string, string>();

  constructor(private readonly hooks: RestartHooks) {}

  /** The restart or recovery under way for `name`, if any. */
  pending(name: string): Promise<unknown> | undefined {
    return this.recovering.get(name) ?? this.running.get(name);
  }

  /** The number of the restart a call would make now (1-based), or 0 when none is left: for the line reporting a death. */
  nextRestart(name: string): number {
    if (this.failed.has(name)) return 0;
    return this.budgets.get(name)?.peek() ?? 1;
  }

  /** The error result for a server that kept failing, once its budget is spent; undefined before. */
  failure(name: string): string | undefined {
    return this.failed.get(name);
  }

  /** Restarts `name` outside the budget (a person asked: `/mcp reconnect`), joining one under way; forgets an earlier give-up. */
  run(name: string): Promise<string | undefined> {
    this.failed.delete(name);
    this.budgets.delete(name);
    return this.once(name);
  }

  /**
   * A call found `name` gone (it `why`, e.g. "exited with code 1"): restarts it, again after a
   * restart that failed, while the budget allows; concurrent callers share one recovery.
   * Resolves undefined once the server is back, or with the call's error result once the budget
   * is spent (the server then stays failed, and `failure(name)` keeps answering that result).
   */
  recover(name: string, why: string): Promise<string | undefined> {
    let work = this.recovering.get(name);
    if (!work) {
      work = this.loop(name, why).finally(() => this.recovering.delete(name));
      this.recovering.set(name, work);
    }
    return work;
  }

  private async loop(name: string, why: string): Promise<string | undefined> {
    let budget = this.budgets.get(name);
    if (!budget) this.budgets.set(name, (budget = new RestartBudget()));
    // The death that brought us here was reported with this restart's number already (nextRestart).
    for (let last = why, reported = true; ; reported = false) {
      const failed = this.failed.get(name);
      if (failed) return failed;
      const number = budget.take();
      if (!number) {
        const reason = `kept exiting (restarted ${RESTART_LIMIT} times in 5 minutes; last: ${last})`;
        const line = `MCP server "${name}" failed: it ${reason}`;
        this.failed.set(name, line);
        this.hooks.giveUp(name, reason);
        return line;
      }
      if (!reported) this.hooks.log(`MCP server "${name}" ${last}; restarting it (restart ${number} of at most ${RESTART_LIMIT} in 5 minutes)`);
      const failure = await this.once(name);
      if (failure === undefined) return undefined;
      if (this.hooks.stopping()) return `MCP server "${name}" was shut down`;
      last = failure;
    }
  }

  private once(name: string): Promise<string | undefined> {
    let work = this.running.get(name) as Promise<string | undefined> | undefined;
    if (!work) {
      work = this.hooks.restart(name).finally(() => this.running.delete(name));
      this.running.set(name, work);
    }
    return work;
  }
}
