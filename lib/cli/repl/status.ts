/** `/status` in the session: the model, the working directory, MCP servers' count, and whether Bash runs in the OS sandbox. */
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";

export function describeStatus(runtime: AgentRuntime): string {
  const o = runtime.opts;
  const servers = runtime.servers();
  const connected = servers.filter((s) => s.status === "connected").length;
  const asked = o.settings?.settings.effective.sandbox.enabled?.value === true;
  const sandbox = o.sandbox ? "on (bubblewrap)" : asked ? "off (enabled in the settings, but it could not start here)" : "off";
  return [`model: ${runtime.model.model}`, `cwd: ${o.cwd}`, `MCP servers: ${connected} of ${servers.length} connected`, `sandbox: ${sandbox}`, ""].join("\n");
}
