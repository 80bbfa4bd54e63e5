/** The dim line under a finished subagent's Agent call: its counts, in words that agree with them. */
import { expect, test } from "bun:test";
import type { SubagentEvent } from "../../../../lib/agent/subagent-event.ts";
import { subagentView } from "../../../../lib/cli/repl/subagent-view.ts";

function finishedLine(toolUses: number): string {
  const lines: string[] = [];
  const show = subagentView({ line: (t) => lines.push(t) }, { set: () => {} }, (s) => s);
  const event: SubagentEvent = {
    type: "finished",
    agentId: "a1",
    toolUseId: "toolu_1",
    subagentType: "Explore",
    description: "look around",
    status: "completed",
    summary: "done",
    usage: { total_tokens: 30, tool_uses: toolUses, duration_ms: 4000 },
  };
  show(event);
  return lines[0]!;
}

test("one tool use is singular, other counts plural", () => {
  expect(finishedLine(1)).toBe("  ⎿ Agent Explore: look around completed · 30 tokens · 1 tool use · 4.0s");
  expect(finishedLine(0)).toContain("· 0 tool uses ·");
  expect(finishedLine(3)).toContain("· 3 tool uses ·");
});
