/**
 * A background agent: a subagent's run (subagents/run.ts, handed in as `run`) registered as a
 * background task under its agent id, with its own abort (TaskStop, shutdown, its time limit), not
 * the turn's. Its report goes to its output file and, as `<result>`, into the notice the model
 * reads when it ends. This file knows nothing of subagents beyond that function.
 */
import { closeSync, constants, openSync, writeSync } from "node:fs";
import type { TaskInfo, TaskRegistry } from "./registry.ts";

export interface AgentTaskStart {
  agentId: string;
  description: string;
  toolUseId?: string;
  timeoutMs: number;
  /** Runs the agent to its report; aborted by TaskStop, shutdown or the time limit. Never throws. */
  run(signal: AbortSignal): Promise<{ content: string; isError?: boolean }>;
}

export function startAgentTask(registry: TaskRegistry, o: AgentTaskStart): TaskInfo {
  const { id, outputFile } = registry.allocate("a", o.agentId);
  const fd = openSync(outputFile, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  closeSync(fd);
  const controller = new AbortController();
  let why: "killed" | "stopped" | undefined;
  const timer = setTimeout(() => {
    why ??= "killed";
    controller.abort(new Error("time limit"));
  }, o.timeoutMs);
  const label = o.description.trim() || "background agent";
  const done = o.run(controller.signal).then((out) => {
    clearTimeout(timer);
    try {
      const out2 = openSync(outputFile, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
      writeSync(out2, `${out.content}\n`);
      closeSync(out2);
    } catch {
      // The report still reaches the model in the notice.
    }
    if (why === "stopped") return { status: "stopped" as const };
    if (why === "killed") {
      return { status: "killed" as const, notice: { status: "killed" as const, summary: `Agent "${label}" was stopped after reaching its time limit` } };
    }
    const status = out.isError ? ("failed" as const) : ("completed" as const);
    return { status, notice: { status, summary: `Agent "${label}" ${out.isError ? "failed" : "finished"}`, result: out.content } };
  });
  return registry.add(
    { id, type: "local_agent", label, outputFile, toolUseId: o.toolUseId, timeoutMs: o.timeoutMs },
    {
      stop: async () => {
        why ??= "stopped";
        controller.abort(new Error("stopped"));
        await done.catch(() => {});
      },
      done,
    },
  );
}
