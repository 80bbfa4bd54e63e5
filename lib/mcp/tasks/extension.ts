/**
 * The tasks extension of MCP 2026-07-28 (SEP-2663, `io.modelcontextprotocol/tasks`): its
 * declaration (§Capability Negotiation), the flat `CreateTaskResult` (§Task Creation) and the
 * `DetailedTask` of `tasks/get` (§Task Status) with its inlined `result`, `error` or
 * `inputRequests`. Not wire-compatible with the 2025-11-25 form (task.ts): picked by era. Pure.
 */
import { isObject } from "../../shared/values.ts";
import type { TaskStatus } from "./task.ts";

export { serverDeclaresTasks, TASKS_EXTENSION, withTasksExtension } from "../protocol/tasks-extension.ts";

/** A SEP-2663 task: `ttlMs` null is unlimited; `result`, `error`, `inputRequests` as its status inlines them. */
export interface ModernTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  /** `completed`: the request's own result (a CallToolResult, `isError` included). */
  result?: Record<string, unknown>;
  /** `failed`: the JSON-RPC error of the request. */
  error?: { code?: number; message?: string; data?: unknown };
  /** `input_required`: server-to-client requests by key (SEP-2322 `InputRequests`). */
  inputRequests?: Record<string, unknown>;
}

const STATUSES: readonly string[] = ["working", "input_required", "completed", "failed", "cancelled"];

/** `value` as a ModernTask when it has a non-empty string `taskId` and a known `status`; else undefined. */
export function readModernTask(value: unknown): ModernTask | undefined {
  if (!isObject(value) || typeof value.taskId !== "string" || value.taskId === "" || !STATUSES.includes(value.status as string)) return undefined;
  const task: ModernTask = { taskId: value.taskId, status: value.status as TaskStatus };
  if (typeof value.statusMessage === "string") task.statusMessage = value.statusMessage;
  if (value.ttlMs === null || (typeof value.ttlMs === "number" && value.ttlMs >= 0)) task.ttlMs = value.ttlMs;
  if (typeof value.pollIntervalMs === "number" && Number.isFinite(value.pollIntervalMs) && value.pollIntervalMs >= 0)
    task.pollIntervalMs = value.pollIntervalMs;
  if (isObject(value.result)) task.result = value.result;
  if (isObject(value.error)) task.error = value.error as ModernTask["error"];
  if (isObject(value.inputRequests)) task.inputRequests = value.inputRequests;
  return task;
}

/** True for a `tools/call` answer that is a CreateTaskResult (`resultType: "task"`, §Polymorphic Results). */
export function isCreateTaskResult(result: unknown): boolean {
  return isObject(result) && result.resultType === "task";
}
