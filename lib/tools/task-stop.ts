/**
 * TaskStop (Claude Code's name and input: `task_id`, and the older `shell_id`): stops a background
 * task and everything it started. Only ids this session issued are accepted; the register
 * (lib/agent/background) refuses any other id, a path, or a task already over, with one line.
 * The result is Claude Code's JSON object: message, task_id, task_type, command.
 */
import { toolInput } from "./define.ts";
import type { Tool } from "./tool.ts";
import { ToolError } from "./tool-error.ts";

/** What stops a task: the register's `stop`, which throws with the reason it will not. */
export type StopTask = (id: string) => Promise<{ id: string; type: string; label: string; command?: string }>;

const INPUT = toolInput({
  task_id: { type: "string", description: "The id of the background task to stop" },
  shell_id: { type: "string", description: "Deprecated: use task_id" },
});

export function taskStopTool(stop: StopTask): Tool {
  return {
    name: "TaskStop",
    description:
      "Stops a running background task (a background Bash command, a Monitor or a background agent) by its id, together with every process it started.",
    inputSchema: INPUT.schema,
    asksPermission: false,
    summary: (input) => (typeof input.task_id === "string" ? input.task_id : typeof input.shell_id === "string" ? input.shell_id : undefined),
    async run(input) {
      const args = INPUT.parse(input);
      const id = args.task_id ?? args.shell_id;
      if (!id?.trim()) throw new ToolError('Invalid input: "task_id" is required');
      let task: Awaited<ReturnType<StopTask>>;
      try {
        task = await stop(id);
      } catch (err) {
        throw new ToolError((err as Error).message);
      }
      const what = task.command ?? task.label;
      return {
        content: JSON.stringify({
          message: `Stopped task ${task.id} (${what}) and every process it started`,
          task_id: task.id,
          task_type: task.type,
          ...(task.command === undefined ? {} : { command: task.command }),
        }),
      };
    },
  };
}
