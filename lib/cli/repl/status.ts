/** `/status` in the session: the model, the working directory, MCP servers' count, and whether Bash runs in the OS sandbox. */
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";

export function describeStatus(runtime: AgentRuntime): string {
  const o = runtime.opts;
  const servers = runtime.servers();
  const connected = servers.filter((s) => s.status === "connected").length;
  const asked = o.settings?.settings.effective.sandbox.enabled?.value === true;
  return [
    `model: ${runtime.model.model}`,
    `cwd: ${o.cwd}`,
    `MCP servers: ${connected} of ${servers.length} connected`,
    sandboxLine(Boolean(o.sandbox), asked),
    "",
  ].join("\n");
}

/** The sandbox's line: on, off though a settings file asked for it, or off with how to turn it on. */
export function sandboxLine(on: boolean, asked: boolean): string {
  if (on) return "sandbox: on (bubblewrap)";
  if (asked) return "sandbox: off (enabled in the settings, but it could not start here)";
  // A newcomer asking /status learns the one key that turns it on, and where.
  return 'sandbox: off ("sandbox": {"enabled": true} in .claude/settings.json turns it on)';
}
