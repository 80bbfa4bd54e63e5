/**
 * A Monitor: a shell command run as a background task (the same process group, environment and
 * stop as a background Bash command, shell-task.ts) whose every stdout line is an event the model
 * hears as a notice. The register coalesces and caps the events (registry.ts). The command's
 * output file keeps every line (capped like a background command's).
 */
import type { TaskInfo, TaskRegistry } from "./registry.ts";
import { startShell } from "./shell-task.ts";
import type { CommandSandbox } from "../../sandbox/sandbox.ts";

export interface MonitorStart {
  command: string;
  description: string;
  cwd: string;
  timeoutMs: number;
  toolUseId?: string;
  sandbox?: CommandSandbox;
}

/** Starts the monitor; @throws Error when it cannot start. */
export function startMonitor(registry: TaskRegistry, o: MonitorStart): TaskInfo {
  const { id, outputFile } = registry.allocate();
  const label = o.description.trim() || o.command;
  // Lines may come before the register knows the task: they wait until it does.
  let known = false;
  const early: string[] = [];
  const summary = `Monitor event: "${label}"`;
  const shell = startShell({
    command: o.command,
    cwd: o.cwd,
    outputFile,
    timeoutMs: o.timeoutMs,
    sandbox: o.sandbox,
    onLine: (line) => (known ? registry.event(id, line, summary) : early.push(line)),
  });
  const done = shell.done.then((end) => {
    if (end.status === "stopped") return { status: "stopped" as const };
    if (end.status === "killed") {
      return {
        status: "killed" as const,
        notice: {
          status: "killed" as const,
          summary: `Monitor "${label}" reached its time limit (${o.timeoutMs} ms) and was stopped`,
          note: "Start a new Monitor if you still need the watch.",
        },
      };
    }
    const how = end.exitCode === 0 ? "" : end.exitCode === null ? ` (killed by ${end.signal ?? "a signal"})` : ` (exit code ${end.exitCode})`;
    return { status: end.status, notice: { status: end.status, summary: `Monitor "${label}" stream ended${how}`, exitCode: end.exitCode } };
  });
  const info = registry.add(
    { id, type: "monitor", label, command: o.command, outputFile, toolUseId: o.toolUseId, timeoutMs: o.timeoutMs },
    { stop: shell.stop, done },
  );
  known = true;
  for (const line of early.splice(0)) registry.event(id, line, summary);
  return info;
}
