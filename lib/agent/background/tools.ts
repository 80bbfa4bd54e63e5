/**
 * The tools of background work, bound to the process's register: Bash's form with
 * run_in_background, TaskStop and (monitor.ts) Monitor. Whether the model is offered them is
 * offered-tools.ts's one rule (TaskStop and Monitor are opt-in); Bash takes its background form
 * only where TaskStop is offered, so a task the model starts is always one it can stop.
 */
import type { Tool } from "../../tools/tool.ts";
import { bashTool, bashToolWithBackground, MAX_BACKGROUND_TIMEOUT_MS } from "../../tools/bash.ts";
import { taskStopTool } from "../../tools/task-stop.ts";
import { monitorTool } from "../../tools/monitor.ts";
import { startMonitor } from "./monitor-task.ts";
import { type AgentTaskStart, startAgentTask } from "./agent-task.ts";
import { ToolError } from "../../tools/tool-error.ts";
import { MAX_OUTPUT_FILE_BYTES } from "./shell-task.ts";
import { processTasks, type TaskRegistry } from "./registry.ts";

export interface BackgroundWork {
  registry: TaskRegistry;
  /** The opt-in tools, for the offer rule to filter: TaskStop, Monitor. */
  tools: Tool[];
  /** Starts a background agent (the Agent tool's run_in_background); its id and output file. */
  startAgent(o: Omit<AgentTaskStart, "timeoutMs">): { id: string; outputFile: string };
  /** `offered` with Bash in its background form when TaskStop is among them. */
  withBackgroundBash(offered: Tool[]): Tool[];
}

/** What a background shell and a monitor take from their tool's request: the call's id names the task's tool_use. */
function commandStart<R extends { command: string; description?: string; cwd: string; timeoutMs: number; callId?: string; sandbox?: unknown }>(req: R) {
  return {
    command: req.command,
    description: req.description as R["description"],
    cwd: req.cwd,
    timeoutMs: req.timeoutMs,
    toolUseId: req.callId,
    sandbox: req.sandbox as R["sandbox"],
  };
}

const MB = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export function backgroundWork(registry: TaskRegistry = processTasks()): BackgroundWork {
  const bash = bashToolWithBackground((req) => {
    let task: ReturnType<TaskRegistry["startShell"]>;
    try {
      task = registry.startShell(commandStart(req));
    } catch (err) {
      throw new ToolError(`Could not start the command in the background: ${(err as Error).message}`);
    }
    return [
      `Command running in the background with ID: ${task.id}. Its output (stdout and stderr) is written to: ${task.outputFile} (the first ${MB(MAX_OUTPUT_FILE_BYTES)} are kept).`,
      `It is stopped after ${req.timeoutMs} ms. You will get a notice when it ends: do not poll or sleep waiting for it. For interim output, Read that file; to end it early, call TaskStop with its ID.`,
    ].join("\n");
  });
  const taskStop = taskStopTool(async (id) => {
    const t = await registry.stop(id);
    return { id: t.id, type: t.type, label: t.label, ...(t.command === undefined ? {} : { command: t.command }) };
  });
  const monitor = monitorTool((req) => {
    let task: ReturnType<typeof startMonitor>;
    try {
      task = startMonitor(registry, commandStart(req));
    } catch (err) {
      throw new ToolError(`Could not start the monitor: ${(err as Error).message}`);
    }
    return [
      `Monitor started (task ${task.id}; it stops after ${req.timeoutMs} ms unless the command ends first, and you get one notice then: start a new one if you still need the watch).`,
      "Each stdout line of the command reaches you as a notice. Keep working: do not poll or sleep. A notice may come while you wait for the user; it is not their reply.",
      `Every line is also kept in ${task.outputFile}.`,
    ].join("\n");
  });
  return {
    registry,
    tools: [taskStop, monitor],
    startAgent: (o) => startAgentTask(registry, { ...o, timeoutMs: MAX_BACKGROUND_TIMEOUT_MS }),
    withBackgroundBash: (offered) => (offered.includes(taskStop) ? offered.map((t) => (t === bashTool ? bash : t)) : offered),
  };
}
