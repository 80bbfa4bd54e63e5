/**
 * One `tools/call`, plain or task-augmented as the server's declarations say (MCP 2025-11-25,
 * basic/utilities/tasks §Tool-Level Negotiation), for the registry: a tool whose `taskSupport`
 * is "required" (or "optional" with the entry's `preferTasks`) is run as a task and followed; any
 * other call is sent exactly as before, and a 2025 task it gets back anyway is refused, not followed.
 * In a 2026-07-28 session a `resultType: "task"` answer (SEP-2663) is followed (rev2026-07-28/follow.ts).
 */
import type { RequestOptions } from "../session/jsonrpc.ts";
import type { CallToolResult, McpTool, ServerCapabilities } from "../protocol/protocol.ts";
import { callToolAsTask, TaskCallError, type TaskCallOptions } from "./follow.ts";
import { isCreateTaskResult } from "./extension.ts";
import type { TaskPeer } from "./peer.ts";
import type { RunningTasks } from "./running.ts";
import { augmentsCall, createdTask, taskSupport, type Task } from "./task.ts";

/** What the caller of a tool call may add: the registry's request options, and the task's status. */
export type ToolCallOptions = RequestOptions & { onTaskStatus?: (task: Task) => void };

export interface ToolCallSession extends TaskPeer {
  callTool(name: string, args: Record<string, unknown>, opts?: RequestOptions): Promise<CallToolResult>;
}

/** What the registry knows of the server: its declarations, its listed tools, the entry's opt-in. */
export interface ToolCallServer {
  capabilities?: ServerCapabilities;
  tools: readonly McpTool[];
  preferTasks?: boolean;
}

/**
 * Calls `tool` on `session`, as a task when `augmentsCall` says so (`opts.timeoutMs` bounds the
 * whole task and is its `ttl`). Resolves with the raw CallToolResult.
 * @throws TaskCallError, and what `McpClient.callTool` throws.
 */
export async function callTool(
  session: ToolCallSession,
  server: ToolCallServer,
  tool: string,
  args: Record<string, unknown>,
  opts: ToolCallOptions & { timeoutMs: number },
  running?: RunningTasks,
): Promise<CallToolResult> {
  const listed = server.tools.find((t) => t.name === tool);
  if (augmentsCall(server.capabilities, listed, server.preferTasks)) {
    const { timeoutMs, signal, onProgress, onTaskStatus } = opts;
    const taskOpts: TaskCallOptions = { timeoutMs, signal, onProgress, onTaskStatus, running };
    return callToolAsTask(session, tool, args, taskOpts);
  }
  const { onTaskStatus: _, ...plain } = opts;
  const result = await session.callTool(tool, args, plain);
  // SEP-2663 (2026-07-28): the server alone decides; a CreateTaskResult is followed to its result.
  if (isCreateTaskResult(result)) {
    const { followModernTask } = await import("./rev2026-07-28/follow.ts");
    const { timeoutMs, signal, onTaskStatus } = opts;
    return followModernTask(session, tool, result, { timeoutMs, signal, onTaskStatus, running });
  }
  const task = createdTask(result);
  if (task) {
    throw new TaskCallError(
      `MCP server "${session.name}" answered a plain call of ${tool} with a task (${task.taskId}), but ${tool} is not a task tool here (taskSupport: ${taskSupport(listed)}); the task was not followed`,
      task.taskId,
    );
  }
  return result;
}
