/**
 * The tasks a run is following, so that shutdown can cancel them (MCP 2025-11-25,
 * basic/utilities/tasks §Cancelling Tasks): a task left running on a server outlives us otherwise.
 */

/** How long shutdown waits for tasks/cancel answers when no grace is configured, in ms (the stdio close grace). */
export const DEFAULT_CANCEL_BUDGET_MS = 500;

/** Sends `tasks/cancel` for one task; resolves when answered or given up on (never rejects). */
type Cancel = () => Promise<unknown>;

export class RunningTasks {
  private readonly live = new Set<Cancel>();

  /** Keeps `cancel` until the returned function is called (the call ended). */
  add(cancel: Cancel): () => void {
    this.live.add(cancel);
    return () => this.live.delete(cancel);
  }

  get size(): number {
    return this.live.size;
  }

  /** Cancels every task still running, concurrently, waiting at most `budgetMs` for the answers. */
  async cancelAll(budgetMs: number): Promise<void> {
    if (this.live.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)));
    await Promise.race([Promise.allSettled([...this.live].map((cancel) => cancel())), budget]);
    clearTimeout(timer);
  }
}
