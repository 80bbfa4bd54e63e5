/**
 * The task requests a person sends by hand (MCP 2025-11-25, basic/utilities/tasks §Listing Tasks,
 * §Getting Tasks, §Cancelling Tasks): `tasks/list` every page, `tasks/get`, `tasks/cancel`. Each
 * is sent only when the server declared it (`tasks.list`, `tasks.cancel`: TK-01).
 */
import { MAX_PAGES } from "../session/client.ts";
import type { TaskPeer } from "./peer.ts";
import { readTask, serverOffers, type Task } from "./task.ts";
import { isObject, preview } from "../../shared/values.ts";

/** Timeout of one of these requests, in ms (the start-up timeout's default: no task runs here). */
const OP_TIMEOUT_MS = 30_000;

/**
 * Every task the server lists, following `nextCursor` (opaque) to the end, stopping on a repeated one.
 * @throws Error when the server does not declare `tasks.list` or answers without a `tasks` array; McpError.
 */
export async function listTasks(peer: TaskPeer, warn: (line: string) => void): Promise<Task[]> {
  if (!serverOffers(peer.capabilities, "list")) throw new Error(`MCP server "${peer.name}" does not offer tasks/list (no tasks.list capability)`);
  const tasks: Task[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await peer.sendRequest("tasks/list", cursor === undefined ? undefined : { cursor }, { timeoutMs: OP_TIMEOUT_MS });
    const list = isObject(result) ? result.tasks : undefined;
    if (!Array.isArray(list)) throw new Error(`MCP server "${peer.name}": tasks/list result has no "tasks" array`);
    for (const item of list) {
      const task = readTask(item);
      if (task) tasks.push(task);
      else warn(`MCP server "${peer.name}": tasks/list entry skipped (malformed): ${preview(JSON.stringify(item) ?? "")}`);
    }
    const next = (result as Record<string, unknown>).nextCursor;
    if (typeof next !== "string" || next === "") return tasks;
    if (seen.has(next) || page >= MAX_PAGES) {
      warn(
        `MCP server "${peer.name}": tasks/list stopped after ${page} pages (${seen.has(next) ? "repeated cursor" : "too many pages"}); the list may be incomplete`,
      );
      return tasks;
    }
    seen.add(next);
    cursor = next;
  }
}

/** `tasks/get`. @throws McpError (-32602 for an id the server does not know), Error for a malformed answer. */
export async function getTask(peer: TaskPeer, taskId: string): Promise<Task> {
  return expectTask(peer, "tasks/get", await peer.sendRequest("tasks/get", { taskId }, { timeoutMs: OP_TIMEOUT_MS }));
}

/**
 * `tasks/cancel`: resolves with the cancelled task.
 * @throws Error when the server does not declare `tasks.cancel`; McpError (-32602: unknown or already ended).
 */
export async function cancelTask(peer: TaskPeer, taskId: string): Promise<Task> {
  if (!serverOffers(peer.capabilities, "cancel")) throw new Error(`MCP server "${peer.name}" does not offer tasks/cancel (no tasks.cancel capability)`);
  return expectTask(peer, "tasks/cancel", await peer.sendRequest("tasks/cancel", { taskId }, { timeoutMs: OP_TIMEOUT_MS }));
}

function expectTask(peer: TaskPeer, method: string, answer: unknown): Task {
  const task = readTask(answer);
  if (!task) throw new Error(`MCP server "${peer.name}": ${method} answered no task: ${preview(JSON.stringify(answer) ?? "")}`);
  return task;
}
