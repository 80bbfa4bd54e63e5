/**
 * A SEP-2663 task (MCP 2026-07-28, extension `io.modelcontextprotocol/tasks`: §Task Polling,
 * §Task Update Requests, §Task Cancellation) followed to its result: `tasks/get` at the task's
 * `pollIntervalMs`; `completed` inlines the CallToolResult, `failed` its JSON-RPC error;
 * `input_required` is answered by our own handlers and sent back with `tasks/update`, each key
 * once; the tool timeout (standing still while we serve those requests), an interrupt and
 * shutdown send `tasks/cancel`, never `notifications/cancelled` (TK-11). The clock, the interrupt
 * and the cancel are shared with the 2025 follower (../followed-call.ts).
 */
import { McpError } from "../../protocol/errors.ts";
import type { CallToolResult } from "../../protocol/protocol.ts";
import { isObject, preview } from "../../../shared/values.ts";
import { readModernTask, type ModernTask } from "../extension.ts";
import { FollowedCall, pollDelay, TaskCallError, type TaskCallOptions } from "../followed-call.ts";
import type { TaskPeer } from "../peer.ts";
import { raceAbort, sleep } from "../../../shared/async.ts";

/**
 * Follows `created` (a `tools/call` CreateTaskResult) to a CallToolResult: the task's own result,
 * or an `isError` result for a failed or cancelled task.
 * @throws TaskCallError (timeout, interrupt, an unknown id, a malformed answer), ConnectionClosedError.
 */
export async function followModernTask(peer: TaskPeer, tool: string, created: unknown, opts: TaskCallOptions): Promise<CallToolResult> {
  const first = readModernTask(created);
  if (!first) throw new TaskCallError(`MCP server "${peer.name}" answered ${tool} with a malformed task: ${preview(JSON.stringify(created) ?? "")}`);
  return new ModernRun(peer, tool, first, opts).run();
}

class ModernRun extends FollowedCall {
  private readonly answered = new Set<string>();

  constructor(
    peer: TaskPeer,
    tool: string,
    private task: ModernTask,
    opts: TaskCallOptions,
  ) {
    super(peer, tool, opts);
  }

  run(): Promise<CallToolResult> {
    return this.guarded(() => {
      this.track();
      this.opts.onTaskStatus?.({ taskId: this.task.taskId, status: this.task.status, statusMessage: this.task.statusMessage });
      return this.follow();
    });
  }

  protected current(): ModernTask {
    return this.task;
  }

  /** A task is always there to name; `cancel` said what became of it. */
  protected stopDetail(_task: ModernTask, cancelled: string): string {
    return cancelled;
  }

  private async follow(): Promise<CallToolResult> {
    // Counted from each poll's sending (the task's creation first): the interval holds between requests.
    let lastPoll = performance.now();
    for (;;) {
      const task = this.task;
      if (task.status === "completed") return this.completed(task);
      if (task.status === "failed") {
        const e = task.error;
        const detail = e ? `JSON-RPC error${typeof e.code === "number" ? ` ${e.code}` : ""}: ${e.message ?? "no message"}` : "no error given";
        return this.errorResult(`failed${task.statusMessage ? `: ${task.statusMessage}` : ""} (${detail})`);
      }
      if (task.status === "cancelled") return this.errorResult(`was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ""}`);
      if (task.status === "input_required") await this.answer(task);
      await this.sleep(pollDelay(task.pollIntervalMs) - (performance.now() - lastPoll));
      lastPoll = performance.now();
      this.update(await this.poll());
    }
  }

  private completed(task: ModernTask): CallToolResult {
    const result = task.result;
    if (!isObject(result) || !Array.isArray(result.content))
      throw new TaskCallError(`${this.who()}: task ${task.taskId} completed without a tool result: ${preview(JSON.stringify(result) ?? "")}`, task.taskId);
    const { resultType: _, ...plain } = result;
    return plain as CallToolResult;
  }

  /** Answers the keys not answered before (SEP-2663: dedupe across polls), then `tasks/update`. */
  private async answer(task: ModernTask): Promise<void> {
    const fresh = Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => !this.answered.has(key)));
    if (Object.keys(fresh).length === 0) return;
    if (!this.peer.answerInputRequests) throw new TaskCallError(`${this.who()}: task ${task.taskId} asks for input this session cannot give`, task.taskId);
    const inputResponses = await this.peer.answerInputRequests(fresh, this.controller.signal);
    for (const key of Object.keys(fresh)) this.answered.add(key);
    if (!inputResponses) return;
    await this.send("tasks/update", { taskId: task.taskId, inputResponses });
  }

  private async poll(): Promise<ModernTask> {
    const id = this.task.taskId;
    const answer = await this.send("tasks/get", { taskId: id });
    const task = readModernTask(answer);
    if (task?.taskId !== id)
      throw new TaskCallError(`${this.who()} answered tasks/get for task ${id} with no such task: ${preview(JSON.stringify(answer) ?? "")}`, id);
    return task;
  }

  /** A request bounded by the call's clock and interrupt; a server error names the method and task. */
  private async send(method: string, params: Record<string, unknown>): Promise<unknown> {
    try {
      // Abandoned, not cancelled on the wire: a task is ended with tasks/cancel alone, never
      // notifications/cancelled (TK-11), even when the interrupt lands while a tasks/get is out.
      return await this.peer.sendRequest(method, params, { signal: this.controller.signal, cancellable: false });
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      throw new TaskCallError(`${this.who()} answered ${method} for task ${this.task.taskId} with an error: ${error.message}`, this.task.taskId);
    }
  }

  private update(task: ModernTask): void {
    const old = this.task;
    this.task = task.pollIntervalMs === undefined && old.pollIntervalMs !== undefined ? { ...task, pollIntervalMs: old.pollIntervalMs } : task;
    if (old.status !== task.status || old.statusMessage !== task.statusMessage)
      this.opts.onTaskStatus?.({ taskId: task.taskId, status: task.status, statusMessage: task.statusMessage });
  }

  /** Waits `ms`, or rejects with the abort's reason once the call is stopped. */
  private sleep(ms: number): Promise<void> {
    const signal = this.controller.signal;
    return raceAbort(sleep(ms, signal), signal);
  }
}
