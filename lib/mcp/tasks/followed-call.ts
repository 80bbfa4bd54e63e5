/**
 * What following a task call is in either revision (MCP 2025-11-25 basic/utilities/tasks, and
 * SEP-2663's tasks extension of 2026-07-28): the tool timeout over the whole call, standing still
 * while we serve the server's requests; an interrupt; the session's end; the poll interval and its
 * floor; `tasks/cancel` sent at most once (the interrupt and shutdown may both ask) with a bounded
 * wait; and the one line a stopped call ends with. How a revision polls, reads its task and takes
 * the result stays in its own follower (follow.ts, rev2026-07-28/follow.ts).
 */
import type { CallToolResult, ProgressParams } from "../protocol/protocol.ts";
import { errorMessage } from "../../shared/values.ts";
import type { TaskPeer } from "./peer.ts";
import type { RunningTasks } from "./running.ts";
import { isTerminal, type Task, type TaskStatus } from "./task.ts";

/** What the shared part reads of a task, in either revision. */
export type TaskView = { taskId: string; status: TaskStatus };

/** Between polls when the task suggests no interval, in ms. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** An interval of 0 must not make us spin: the shortest wait between polls, in ms. */
export const MIN_POLL_INTERVAL_MS = 50;
/** How long an interrupted or timed-out call waits for the server to confirm `tasks/cancel`, in ms. */
export const CANCEL_WAIT_MS = 2000;

export interface TaskCallOptions {
  /** The tool timeout (ms): bounds the whole call, and is the `ttl` asked for. */
  timeoutMs: number;
  /** Aborting (Esc, Ctrl-C, the host's interrupt) cancels the task. */
  signal?: AbortSignal;
  onProgress?: (progress: ProgressParams) => void;
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

/** The wait between polls the task suggests (ms), never under the floor. */
export function pollDelay(suggested: number | undefined): number {
  return Math.max(MIN_POLL_INTERVAL_MS, suggested ?? DEFAULT_POLL_INTERVAL_MS);
}

/** One task call being followed; a revision's follower supplies the task and what it does with it. */
export abstract class FollowedCall {
  /** Aborted when the call stops (timeout, interrupt) or the session ends: every request of the call is abandoned. */
  protected readonly controller = new AbortController();
  protected stopped: "timeout" | "interrupt" | undefined;
  private cancelling: Promise<string> | undefined;
  private forget = () => {};

  constructor(
    protected readonly peer: TaskPeer,
    protected readonly tool: string,
    protected readonly opts: TaskCallOptions,
  ) {}

  /** The task as last seen, once the server created it. */
  protected abstract current(): TaskView | undefined;

  /**
   * What a stopped call's line says after "timed out after N ms (MCP_TOOL_TIMEOUT)" or "was
   * interrupted", given the task as it was when the call stopped and what `cancel` said (empty
   * when nothing was left to cancel).
   */
  protected abstract stopDetail(task: TaskView | undefined, cancelled: string): string;

  /** Why `tasks/cancel` is not sent for a running task (the line's tail), or undefined to send it. */
  protected cancelRefusal(_taskId: string): string | undefined {
    return undefined;
  }

  /**
   * Runs `body` under the call's clock, its interrupt and the session's end. A call stopped by
   * the timeout or an interrupt cancels its task and throws its one line instead of what `body` threw.
   */
  protected async guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
    const { signal, timeoutMs } = this.opts;
    const stopClock = Number.isFinite(timeoutMs) ? this.peer.startClock(timeoutMs, () => this.stop("timeout")) : () => {};
    const onAbort = () => this.stop("interrupt");
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    // A server that dies between polls ends the wait with its reason (pending requests fail by themselves).
    const controller = this.controller; // not `this`: the session may outlive many calls
    void this.peer.closed.then((reason) => controller.abort(reason));
    try {
      return await body();
    } catch (error) {
      if (this.stopped) throw await this.stoppedError();
      throw error;
    } finally {
      stopClock();
      signal?.removeEventListener("abort", onAbort);
      this.forget();
    }
  }

  /** Keeps the task among the running ones until the call ends, so shutdown can cancel it. */
  protected track(): void {
    this.forget = this.opts.running?.add(() => this.cancel()) ?? this.forget;
  }

  /**
   * `tasks/cancel` for a task still running, once (shutdown and the interrupt may both ask).
   * Resolves with what happened, for the error line: "; its task T was cancelled (tasks/cancel)", or why not.
   */
  cancel(): Promise<string> {
    this.cancelling ??= (async () => {
      const task = this.current();
      if (!task || isTerminal(task.status)) return "";
      const refusal = this.cancelRefusal(task.taskId);
      if (refusal !== undefined) return refusal;
      try {
        await this.peer.sendRequest("tasks/cancel", { taskId: task.taskId }, { timeoutMs: CANCEL_WAIT_MS });
        return `; its task ${task.taskId} was cancelled (tasks/cancel)`;
      } catch (error) {
        return `; tasks/cancel for its task ${task.taskId} failed: ${errorMessage(error)}`;
      }
    })();
    return this.cancelling;
  }

  /** An `isError` result naming the task: `what` it did ("failed: …", "was cancelled by the server"). */
  protected errorResult(what: string): CallToolResult {
    return {
      isError: true,
      content: [{ type: "text", text: `MCP tool ${this.tool} on server "${this.peer.name}": its task ${this.current()?.taskId} ${what}` }],
    };
  }

  protected who(): string {
    return `MCP server "${this.peer.name}"`;
  }

  private stop(why: "timeout" | "interrupt"): void {
    if (this.stopped) return;
    this.stopped = why;
    this.controller.abort(new Error(why));
  }

  /** The line for a call stopped by the timeout or an interrupt, after cancelling its task. */
  private async stoppedError(): Promise<Error> {
    const task = this.current();
    const detail = this.stopDetail(task, await this.cancel());
    const how = this.stopped === "timeout" ? `timed out after ${this.opts.timeoutMs} ms (MCP_TOOL_TIMEOUT)` : "was interrupted";
    return new TaskCallError(`MCP tool ${this.tool} on server "${this.peer.name}" ${how}${detail}`, task?.taskId);
  }
}
