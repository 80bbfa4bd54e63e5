/**
 * `agent mcp tasks <server>` and `agent mcp task <server> <id> [--cancel]` (MCP 2025-11-25,
 * basic/utilities/tasks), and the status lines of `mcp call --verbose` for a task tool. Tasks
 * live in the server's session: only a remote server can still know one an earlier run started.
 */
import type { ServerConfig } from "../../../mcp/config/load.ts";
import { McpError } from "../../../mcp/protocol/errors.ts";
import type { McpRegistry } from "../../../mcp/registry/registry.ts";
import { cancelTask, getTask, listTasks } from "../../../mcp/tasks/ops.ts";
import type { Task } from "../../../mcp/tasks/task.ts";

/** The line a task command gets for a stdio server (exit 2: it can never work), or undefined for a remote one. */
export function stdioRefusal(command: "tasks" | "task", config: ServerConfig): string | undefined {
  if (config.type !== "stdio") return undefined;
  return `mcp ${command}: server "${config.name}" is a local (stdio) server: the process started for this command is new and knows no task an earlier one created; use mcp ${command} with a remote (http or sse) server`;
}

/** One `--verbose` stderr line per status change of a task tool's task. */
export function taskStatusLine(server: string, task: Task): string {
  return `MCP server "${server}": task ${task.taskId} ${task.status}${task.statusMessage ? ` — ${task.statusMessage}` : ""}`;
}

/**
 * Runs `tasks` or `task`; `out` prints text or, with --json, the raw value.
 * @throws Error (the command's failure line), McpError from the server.
 */
export async function runTaskCommand(
  command: "tasks" | "task",
  operands: { server: string; taskId?: string; cancel: boolean },
  registry: McpRegistry,
  out: (text: string, raw: unknown) => Promise<unknown>,
  warn: (line: string) => void,
): Promise<void> {
  const peer = registry.taskPeer(operands.server);
  if (command === "tasks") {
    const tasks = await listTasks(peer, warn);
    await out(tasks.length ? tasks.map(taskRow).join("\n") : "No tasks.", tasks);
    return;
  }
  const taskId = operands.taskId!;
  try {
    const task = operands.cancel ? await cancelTask(peer, taskId) : await getTask(peer, taskId);
    await out(taskDetails(task), task);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    throw new Error(`MCP server "${operands.server}" answered ${operands.cancel ? "tasks/cancel" : "tasks/get"} for task ${taskId}: ${error.message}`);
  }
}

/** `<id>  <status>  <statusMessage>`: one line of `mcp tasks`. */
function taskRow(task: Task): string {
  return [task.taskId, task.status, task.statusMessage ?? ""].join("  ").trimEnd();
}

/** Every field of one task, one `key: value` a line. */
function taskDetails(task: Task): string {
  const ttl = task.ttl === null ? "unlimited" : task.ttl === undefined ? undefined : `${task.ttl} ms`;
  const rows: [string, string | undefined][] = [
    ["taskId", task.taskId],
    ["status", task.status],
    ["statusMessage", task.statusMessage],
    ["createdAt", task.createdAt],
    ["lastUpdatedAt", task.lastUpdatedAt],
    ["ttl", ttl],
    ["pollInterval", task.pollInterval === undefined ? undefined : `${task.pollInterval} ms`],
  ];
  return rows
    .filter((r): r is [string, string] => r[1] !== undefined)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
}
