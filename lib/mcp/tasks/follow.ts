/**
 * A task-augmented `tools/call` followed to its result (MCP 2025-11-25, basic/utilities/tasks:
 * §Creating Tasks, §Getting Tasks, §Retrieving Task Results, §Task Status Notification,
 * §Input Required Status, §Cancelling Tasks). `tasks/get` is polled at the task's `pollInterval`,
 * never faster; `notifications/tasks/status` is taken when sent, never relied on; `input_required`
 * and `completed`/`failed` open `tasks/result`, which blocks until the end and carries the
 * server's requests (elicitation, sampling) meanwhile. The tool timeout covers the whole call and
 * stands still while we serve those requests; it and an interrupt send `tasks/cancel`.
 */
import { ConnectionClosedError, McpError, RequestCancelledError } from "../protocol/errors.ts";
import type { Params, RequestOptions } from "../session/jsonrpc.ts";
import type { CallToolResult, ProgressParams } from "../protocol/protocol.ts";
import { errorMessage, isObject, preview } from "../../shared/values.ts";
import type { TaskPeer } from "./peer.ts";
import type { RunningTasks } from "./running.ts";
import { createdTask, isTerminal, readTask, serverOffers, type Task } from "./task.ts";
import { raceAbort } from "../../shared/async.ts";

/** Between polls when the task suggests no `pollInterval`, in ms. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** A `pollInterval` of 0 must not make us spin: the shortest wait between polls, in ms. */
export const MIN_POLL_INTERVAL_MS = 50;
/** How long an interrupted or timed-out call waits for the server to confirm `tasks/cancel`, in ms. */
export const CANCEL_WAIT_MS = 2000;

export interface TaskCallOptions {
  /** The tool timeout (ms): bounds the whole call, and is the `ttl` asked for. */
  timeoutMs: number;
  /** Aborting (Esc, Ctrl-C, the host's interrupt) cancels the task. */
  signal?: AbortSignal;
  onProgress?: RequestOptions["onProgress"];
  /** Each change of the task's status or statusMessage, as polled or notified. */
  onTaskStatus?: (task: Task) => void;
  /** Where the task is kept while it runs, so shutdown can cancel it. */
  running?: RunningTasks;
}

/** A task call that ended without a result; `message` is the one line the model or the user reads. */
export class TaskCallError extends Error {
  constructor(
    message: string,
    /** The task, when the server had created one. */
    readonly taskId?: string,
  ) {
    super(message);
    this.name = "TaskCallError";
  }
}

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

class TaskRun {
  private readonly controller = new AbortController();
  private stopped: "timeout" | "interrupt" | undefined;
  private task: Task | undefined;
  private result: Promise<Outcome> | undefined;
  private wake: (() => void) | undefined;
  private cancelling: Promise<string> | undefined;

  constructor(
    private readonly peer: TaskPeer,
    private readonly tool: string,
    private readonly opts: TaskCallOptions,
  ) {}

  async run(args: Record<string, unknown>): Promise<CallToolResult> {
    const { signal, timeoutMs } = this.opts;
    if (signal?.aborted) throw new RequestCancelledError("tools/call", `MCP server "${this.peer.name}"`);
    const stopClock = Number.isFinite(timeoutMs) ? this.peer.startClock(timeoutMs, () => this.stop("timeout")) : () => {};
    const onAbort = () => this.stop("interrupt");
    signal?.addEventListener("abort", onAbort, { once: true });
    const unlisten = this.peer.listen("notifications/tasks/status", (params) => this.notified(params));
    // The progressToken stays valid for the task's whole life (§Task Progress Notifications): one of our own, not the request id.
    const progressToken = this.opts.onProgress && `task-progress-${++progressTokens}`;
    const unlistenProgress = progressToken
      ? this.peer.listen(
          "notifications/progress",
          (params) => params?.progressToken === progressToken && this.opts.onProgress!(params as unknown as ProgressParams),
        )
      : () => {};
    // A server that dies between polls ends the wait with its reason (pending requests fail by themselves).
    const controller = this.controller; // not `this`: the session may outlive many calls
    void this.peer.closed.then((reason) => controller.abort(reason));
    let forget = () => {};
    try {
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
      forget = this.opts.running?.add(() => this.cancel()) ?? forget;
      return await this.follow();
    } catch (error) {
      if (this.stopped) throw await this.stoppedError();
      throw error;
    } finally {
      stopClock();
      signal?.removeEventListener("abort", onAbort);
      unlisten();
      unlistenProgress();
      forget();
    }
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

  private errorResult(what: string): CallToolResult {
    return { isError: true, content: [{ type: "text", text: `MCP tool ${this.tool} on server "${this.peer.name}": its task ${this.task!.taskId} ${what}` }] };
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
    return Math.max(MIN_POLL_INTERVAL_MS, this.task?.pollInterval ?? DEFAULT_POLL_INTERVAL_MS);
  }

  private stop(why: "timeout" | "interrupt"): void {
    if (this.stopped) return;
    this.stopped = why;
    this.controller.abort(new Error(why));
  }

  /**
   * `tasks/cancel` for a task still running, once (shutdown and the interrupt may both ask).
   * Resolves with what happened, for the error line: "was cancelled (tasks/cancel)", or why not.
   */
  cancel(): Promise<string> {
    this.cancelling ??= (async () => {
      const task = this.task;
      if (!task || isTerminal(task.status)) return "";
      if (!serverOffers(this.peer.capabilities, "cancel")) return `; the server offers no tasks/cancel, so its task ${task.taskId} may still run`;
      try {
        await this.peer.sendRequest("tasks/cancel", { taskId: task.taskId }, { timeoutMs: CANCEL_WAIT_MS });
        return `; its task ${task.taskId} was cancelled (tasks/cancel)`;
      } catch (error) {
        return `; tasks/cancel for its task ${task.taskId} failed: ${errorMessage(error)}`;
      }
    })();
    return this.cancelling;
  }

  /** The line for a call stopped by the timeout or an interrupt, after cancelling its task. */
  private async stoppedError(): Promise<Error> {
    const task = this.task;
    const cancelled = await this.cancel();
    const where = `MCP tool ${this.tool} on server "${this.peer.name}"`;
    const stage = !task
      ? " before the server created its task"
      : isTerminal(task.status)
        ? ` waiting for the result of its task ${task.taskId} (${task.status})`
        : "";
    if (this.stopped === "timeout") {
      return new TaskCallError(
        `${where} timed out after ${this.opts.timeoutMs} ms (MCP_TOOL_TIMEOUT)${stage}${cancelled || "; the call was cancelled"}`,
        task?.taskId,
      );
    }
    return new TaskCallError(`${where} was interrupted${stage}${cancelled}`, task?.taskId);
  }

  private who(): string {
    return `MCP server "${this.peer.name}"`;
  }
}
