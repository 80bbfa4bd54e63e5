/**
 * The task's wire shapes and the rules read from a server's declarations (MCP 2025-11-25,
 * basic/utilities/tasks: §Capabilities, §Tool-Level Negotiation, §Data Types): when a
 * `tools/call` is task-augmented, what a `CreateTaskResult` and a `Task` look like, and the
 * related-task `_meta` key (protocol/related-task.ts). Pure: no I/O.
 */
import type { McpTool, ServerCapabilities } from "../protocol/protocol.ts";
import { isObject } from "../../shared/values.ts";

export { RELATED_TASK, tagRelated } from "../protocol/related-task.ts";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

const STATUSES: readonly string[] = ["working", "input_required", "completed", "failed", "cancelled"];

/** A `Task` (§Task): `ttl` and `pollInterval` in ms; `ttl` null means unlimited. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttl?: number | null;
  pollInterval?: number;
}

/** True for `completed`, `failed` and `cancelled`: the task never changes again (§Task Status Lifecycle). */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** `value` as a Task when it has a string `taskId` and a known `status`; else undefined. */
export function readTask(value: unknown): Task | undefined {
  if (!isObject(value) || typeof value.taskId !== "string" || value.taskId === "" || !STATUSES.includes(value.status as string)) return undefined;
  const task: Task = { taskId: value.taskId, status: value.status as TaskStatus };
  if (typeof value.statusMessage === "string") task.statusMessage = value.statusMessage;
  if (typeof value.createdAt === "string") task.createdAt = value.createdAt;
  if (typeof value.lastUpdatedAt === "string") task.lastUpdatedAt = value.lastUpdatedAt;
  if (value.ttl === null || (typeof value.ttl === "number" && value.ttl >= 0)) task.ttl = value.ttl;
  if (typeof value.pollInterval === "number" && Number.isFinite(value.pollInterval) && value.pollInterval >= 0) task.pollInterval = value.pollInterval;
  return task;
}

/**
 * The task of a `tools/call` answer that is a `CreateTaskResult` (`{task: {...}}` and no
 * `content`, §Creating Tasks); undefined for a plain CallToolResult.
 */
export function createdTask(result: unknown): Task | undefined {
  if (!isObject(result) || Array.isArray(result.content) || !isObject(result.task)) return undefined;
  return readTask(result.task);
}

/** `execution.taskSupport` of a listed tool: "required", "optional", or "forbidden" when absent or unknown. */
export function taskSupport(tool: McpTool | undefined): "required" | "optional" | "forbidden" {
  const value = isObject(tool?.execution) ? tool.execution.taskSupport : undefined;
  return value === "required" || value === "optional" ? value : "forbidden";
}

/** The server declared `tasks.requests.tools.call` (TK-01: without it, no call is ever task-augmented). */
export function serverRunsToolTasks(capabilities: ServerCapabilities | undefined): boolean {
  const tasks = capabilities?.tasks;
  return isObject(tasks) && isObject(tasks.requests) && isObject(tasks.requests.tools) && isObject(tasks.requests.tools.call);
}

/** The server declared `tasks.<op>` (`list`, `cancel`): only then may we send `tasks/<op>`. */
export function serverOffers(capabilities: ServerCapabilities | undefined, op: "list" | "cancel"): boolean {
  const tasks = capabilities?.tasks;
  return isObject(tasks) && isObject(tasks[op]);
}

/**
 * Whether a call of `tool` is task-augmented: the server runs tool tasks, and the tool's
 * `taskSupport` is "required" (MUST), or "optional" with the entry's `preferTasks` (MAY).
 * Absent or "forbidden": never (MUST NOT). So a server that works today sees the same frames.
 */
export function augmentsCall(capabilities: ServerCapabilities | undefined, tool: McpTool | undefined, preferTasks = false): boolean {
  if (!serverRunsToolTasks(capabilities)) return false;
  const support = taskSupport(tool);
  return support === "required" || (support === "optional" && preferTasks);
}
