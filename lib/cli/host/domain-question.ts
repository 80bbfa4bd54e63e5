/**
 * Host mode's question when a sandboxed command asks its proxy for a domain no settings list names:
 * a `can_use_tool` control request for the pseudo-tool `SandboxNetworkAccess` with `{host}` (our
 * name: Claude Code's own shape for this is not measured), asked only with
 * `--permission-prompt-tool stdio`; without it, the domain is refused as in -p.
 */
import type { HostChannel } from "./channel.ts";

let asked = 0;

export function hostDomainQuestion(channel: HostChannel) {
  return async (host: string): Promise<boolean> => {
    const answer = await channel.request({
      subtype: "can_use_tool",
      tool_name: "SandboxNetworkAccess",
      input: { host },
      tool_use_id: `sandbox-network-${++asked}`,
      permission_suggestions: [],
    });
    return answer.behavior === "allow";
  };
}
