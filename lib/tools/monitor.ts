/**
 * Monitor (Claude Code's name and input: `description`, `timeout_ms`, `command`): runs a command in
 * the background whose stdout lines arrive as notices, until it ends, its deadline passes or
 * TaskStop stops it. Permission is decided exactly as for a Bash call of the same command
 * (`asBash`). Claude Code's `ws` (a WebSocket to watch) is not supported: the call says so.
 */
import { toolInput } from "./define.ts";
import type { Tool } from "./tool.ts";
import { ToolError } from "./tool-error.ts";
import type { CommandSandbox } from "../sandbox/sandbox.ts";

export const DEFAULT_MONITOR_MS = 300_000;
export const MAX_MONITOR_MS = 1_800_000;

/** What starts the watch (lib/agent/background): the text the model reads back (task id, deadline). */
export type StartMonitor = (req: {
  command: string;
  description: string;
  cwd: string;
  timeoutMs: number;
  callId?: string;
  /** The OS sandbox the command runs in, as the Bash call of that command would (lib/sandbox). */
  sandbox?: CommandSandbox;
}) => string;

const INPUT = toolInput({
  description: { type: "string", required: true, description: "What you are watching, in a few words (shown with each notice)" },
  timeout_ms: {
    type: "integer",
    required: true,
    minimum: 1000,
    maximum: MAX_MONITOR_MS,
    description: `Stop watching after this many milliseconds (default ${DEFAULT_MONITOR_MS}; at most ${MAX_MONITOR_MS}, a longer one is brought down). You get a notice when it passes.`,
  },
  command: { type: "string", description: "A shell command or script; each line it prints on stdout is one event, and its exit ends the watch" },
});

export function monitorTool(start: StartMonitor): Tool {
  return {
    name: "Monitor",
    description: [
      "Watches a command in the background: every line it prints on stdout reaches you as a notice, until the command exits, timeout_ms passes or you stop it with TaskStop.",
      "- Use it for things you would otherwise poll: a log to tail (`tail -f log | grep --line-buffered ERROR`), a build or a server to wait for.",
      "- Keep the output to the lines that matter (filter with grep --line-buffered): a flood is cut, and the cut is said.",
      "- It runs as a Bash command would, under the same permissions.",
    ].join("\n"),
    inputSchema: INPUT.schema,
    asksPermission: true,
    asBash: true,
    summary: (input) => (typeof input.command === "string" ? input.command : undefined),
    async run(input, ctx) {
      if (input.ws !== undefined) throw new ToolError("Monitor cannot watch a WebSocket (ws) here: give a command instead");
      const args = INPUT.parse(input);
      if (!args.command?.trim()) throw new ToolError('Invalid input: "command" is required');
      const cwd = ctx.toolState?.shellDirectory().cwd ?? ctx.cwd;
      // Judged as the Bash call of its command, and run in the sandbox that call would run in.
      const sandbox = ctx.sandbox?.({ command: args.command });
      return { content: start({ command: args.command, description: args.description, cwd, timeoutMs: args.timeout_ms, callId: ctx.callId, sandbox }) };
    },
  };
}
