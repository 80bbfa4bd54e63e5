/**
 * Running subagents as the session shows them: the status line names each one's type, task and
 * current tool while it works, and one dim line under its Agent call sums it up when it ends
 * (status, tokens, tool uses, time). Names and descriptions come from files and the model, so every
 * piece goes through `preview` (control characters become spaces).
 */
import type { SubagentEvent } from "../../agent/subagent-event.ts";
import { preview } from "../../shared/values.ts";

interface View {
  line(text: string): void;
}
interface Status {
  set(text: string): void;
}

export function subagentView(view: View, status: Status, dim: (s: string) => string): (e: SubagentEvent) => void {
  return (e) => {
    const who = `${preview(e.subagentType, 40)}: ${preview(e.description, 60)}`;
    if (e.type === "started") status.set(`Agent ${who}…`);
    else if (e.type === "message" && e.message.role === "assistant") {
      const tool = e.message.content.find((b) => b.type === "tool_use") as { name: string } | undefined;
      status.set(tool ? `Agent ${who} · ${preview(tool.name, 60)}…` : `Agent ${who}…`);
    } else if (e.type === "finished") {
      const { total_tokens, tool_uses, duration_ms } = e.usage;
      view.line(
        dim(
          `  ⎿ Agent ${who} ${e.status} · ${total_tokens} tokens · ${tool_uses} ${tool_uses === 1 ? "tool use" : "tool uses"} · ${(duration_ms / 1000).toFixed(1)}s`,
        ),
      );
      status.set("Thinking…");
    }
  };
}
