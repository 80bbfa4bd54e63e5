/**
 * A task-augmented `tools/call` followed to its result (MCP 2025-11-25, basic/utilities/tasks:
 * §Creating Tasks, §Getting Tasks, §Retrieving Task Results, §Task Status Notification,
 * §Input Required Status, §Cancelling Tasks). `tasks/get` is polled at the task's `pollInterval`,
 * never faster; `notifications/tasks/status` is taken when sent, never relied on; `input_required`
 * and `completed`/`failed` open `tasks/result`, which blocks until the end and carries the
 * server's requests (elicitation, sampling) meanwhile. The tool timeout covers the whole call and
 * stands still while we serve those requests; it and an interrupt send `tasks/cancel`
 * (followed-call.ts holds what both revisions' followers share).
 */
import { ConnectionClosedError, McpError, RequestCancelledError } from "../protocol/errors.ts";
import type { Params, RequestOptions } from "../session/jsonrpc.ts";
import type { CallToolResult, ProgressParams } from "../protocol/protocol.ts";
import { errorMessage, isObject, preview } from "../../shared/values.ts";
import type { TaskPeer } from "./peer.ts";
import { createdTask, isTerminal, readTask, serverOffers, type Task } from "./task.ts";
import { raceAbort } from "../../shared/async.ts";
import { FollowedCall, pollDelay, TaskCallError, type TaskCallOptions } from "./followed-call.ts";

export { CANCEL_WAIT_MS, DEFAULT_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS, TaskCallError, type TaskCallOptions } from "./followed-call.ts";

/** Progress tokens handed out by task calls (unique within the process, so within any session). */
let progressTokens = 0;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Calls `tool` with `params.task: {ttl}` and follows the task. Resolves with the task's
 * CallToolResult as `tasks/result` gave it, an `isError` result for a `failed` or `cancelled`
 * task, or the plain result of a server that answered without a task.
 * @throws TaskCallError (timeout, interrupt, a bad answer: the message says which, and whether
 * the task was cancelled), McpError from `tools/call` or `tasks/result`, ConnectionClosedError.
 */
export function callToolAsTask(peer: TaskPeer, tool: string, args: Record<string, unknown>, opts: TaskCallOptions): Promise<CallToolResult> {
  return new TaskRun(peer, tool, opts).run(args);
}

class TaskRun extends FollowedCall {
  private task: Task | undefined;
  private result: Promise<Outcome> | undefined;
  private wake: (() => void) | undefined;

  async run(args: Record<string, unknown>): Promise<CallToolResult> {
    const { signal, timeoutMs } = this.opts;
    if (signal?.aborted) throw new RequestCancelledError("tools/call", `MCP server "${this.peer.name}"`);
    const unlisten = this.peer.listen("notifications/tasks/status", (params) => this.notified(params));
    // The progressToken stays valid for the task's whole life (§Task Progress Notifications): one of our own, not the request id.
    const progressToken = this.opts.onProgress && `task-progress-${++progressTokens}`;
    const unlistenProgress = progressToken
      ? this.peer.listen(
          "notifications/progress",
          (params) => params?.progressToken === progressToken && this.opts.onProgress!(params as unknown as ProgressParams),
        )
      : () => {};
    try {
      return await this.guarded(async () => {
        const task = Number.isFinite(timeoutMs) ? { ttl: timeoutMs } : {};
        const meta = progressToken ? { _meta: { progressToken } } : {};
        const answer = await this.request("tools/call", { name: this.tool, arguments: args, task, ...meta });
        const created = createdTask(answer);
        // A server may run a task tool at once: its CallToolResult is the result.
        if (!created) {
          if (isObject(answer) && Array.isArray(answer.content)) return answer as CallToolResult;
          throw new TaskCallError(`${this.who()} answered the task-augmented call with neither a task nor a result: ${preview(JSON.stringify(answer) ?? "")}`);
        }
        this.update(created);
        this.track();
        return await this.follow();
      });
    } finally {
      unlisten();
      unlistenProgress();
    }
  }

  protected current(): Task | undefined {
    return this.task;
  }

  /** Polls until the task ends; `tasks/result` once it is input_required, completed or failed. */
  private async follow(): Promise<CallToolResult> {
    let nextPoll = performance.now() + this.interval();
    for (;;) {
      const task = this.task!;
      if (task.status === "cancelled") return this.errorResult(`was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ""}`);
      if (task.status !== "working") this.result ??= this.fetchResult(task.taskId);
      if (isTerminal(task.status)) return this.settle(await this.await(this.result!));
      const event = await this.waitUntil(nextPoll);
      if (event === "result") return this.settle(await this.result!);
      if (event === "poll") {
        // Counted from the poll's sending: the interval holds between requests, without drifting by a round trip each time.
        const sentAt = performance.now();
        this.update(await this.poll(task.taskId));
        nextPoll = sentAt + this.interval();
      }
    }
  }

  /** The task's CallToolResult; a failed task's result is marked and named as failed. */
  private settle(outcome: Outcome): CallToolResult {
    const task = this.task!;
    if (!outcome.ok) {
      if (task.status === "failed") return this.errorResult(`failed${task.statusMessage ? `: ${task.statusMessage}` : ""} (${errorMessage(outcome.error)})`);
      // The server's own error, or a session that ended, speaks for itself.
      const { error } = outcome;
      if (error instanceof McpError || error instanceof ConnectionClosedError || !(error instanceof Error)) throw error;
      throw new TaskCallError(`${this.who()}: tasks/result for task ${task.taskId} failed: ${error.message}`, task.taskId);
    }
    const value = outcome.value;
    if (!isObject(value) || !Array.isArray(value.content)) {
      throw new TaskCallError(`${this.who()}: tasks/result for task ${task.taskId} is not a tool result: ${preview(JSON.stringify(value) ?? "")}`, task.taskId);
    }
    const result = value as CallToolResult;
    if (task.status !== "failed") return result;
    const line = { type: "text", text: `Task ${task.taskId} failed${task.statusMessage ? `: ${task.statusMessage}` : ""}` };
    return { ...result, isError: true, content: [line, ...result.content!] };
  }

  private async poll(taskId: string): Promise<Task> {
    let answer: unknown;
    try {
      answer = await this.request("tasks/get", { taskId });
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      throw new TaskCallError(`${this.who()} answered tasks/get for task ${taskId} with an error: ${error.message}`, taskId);
    }
    const task = readTask(answer);
    if (task?.taskId !== taskId)
      throw new TaskCallError(`${this.who()} answered tasks/get for task ${taskId} with no such task: ${preview(JSON.stringify(answer) ?? "")}`, taskId);
    return task;
  }

  /** `tasks/result`, settled into an Outcome so a failure waits for the loop to read it. */
  private fetchResult(taskId: string): Promise<Outcome> {
    return this.request("tasks/result", { taskId }).then(
      (value) => ({ ok: true as const, value }),
      (error) => ({ ok: false as const, error }),
    );
  }

  /** A request bounded by the call's own clock and interrupt, not a timeout of its own. */
  private request(method: string, params: Params, opts: RequestOptions = {}): Promise<unknown> {
    return this.peer.sendRequest(method, params, { ...opts, signal: this.controller.signal });
  }

  /** Resolves "poll" at `at` (performance.now() ms), "wake" on a status notification, "result" once tasks/result settled. */
  private waitUntil(at: number): Promise<"poll" | "wake" | "result"> {
    return new Promise((resolve, reject) => {
      const signal = this.controller.signal;
      // Stopped while a poll was out: an abort listener added now would never fire.
      if (signal.aborted) return reject(signal.reason);
      let settled = false;
      const wake = () => done("wake");
      // Idempotent: the tasks/result listener of an earlier wait may fire during a later one.
      const done = (event: "poll" | "wake" | "result") => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        if (this.wake === wake) this.wake = undefined;
        resolve(event);
      };
      const onAbort = () => {
        settled = true;
        clearTimeout(timer);
        reject(signal.reason);
      };
      // A timer may fire a little early (its delay is rounded): armed again until `at` has passed, so a poll is never sooner.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        timer = setTimeout(() => (performance.now() >= at ? done("poll") : arm()), Math.max(0, Math.ceil(at - performance.now())));
      };
      arm();
      this.wake = wake;
      signal.addEventListener("abort", onAbort, { once: true });
      void this.result?.then(() => done("result"));
    });
  }

  /** `promise`, or the abort's reason once the call is stopped (a result that never comes). */
  private await<T>(promise: Promise<T>): Promise<T> {
    return raceAbort(promise, this.controller.signal);
  }

  private notified(params: Params): void {
    const task = readTask(params);
    if (!task || task.taskId !== this.task?.taskId) return;
    this.update(task);
    this.wake?.();
  }

  /** Takes a newer view of the task; a terminal status is never undone by a late answer. */
  private update(task: Task): void {
    const old = this.task;
    if (old && isTerminal(old.status)) return;
    // An answer without pollInterval keeps the one the server suggested before.
    this.task = task.pollInterval === undefined && old?.pollInterval !== undefined ? { ...task, pollInterval: old.pollInterval } : task;
    if (old?.status !== task.status || old?.statusMessage !== task.statusMessage) this.opts.onTaskStatus?.(task);
  }

  private interval(): number {
    return pollDelay(this.task?.pollInterval);
  }

  protected cancelRefusal(taskId: string): string | undefined {
    if (!serverOffers(this.peer.capabilities, "cancel")) return `; the server offers no tasks/cancel, so its task ${taskId} may still run`;
    return undefined;
  }

  /** Where the call stopped, and what became of the task; a timeout before any task cancelled the tools/call itself. */
  protected stopDetail(task: Task | undefined, cancelled: string): string {
    const stage = !task
      ? " before the server created its task"
      : isTerminal(task.status)
        ? ` waiting for the result of its task ${task.taskId} (${task.status})`
        : "";
    return `${stage}${this.stopped === "timeout" ? cancelled || "; the call was cancelled" : cancelled}`;
  }
}
