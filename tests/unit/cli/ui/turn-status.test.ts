import { expect, test } from "bun:test";
import { TurnStatus } from "../../../../lib/cli/ui/turn-status.ts";
import { createStyle } from "../../../../lib/cli/ui/style.ts";
import { mcpCallName } from "../../../../lib/cli/ui/tool-lines.ts";
import { PlainLines, TurnView } from "../../../../lib/cli/ui/turn-view.ts";

test("the status line says what Esc does: interrupt the turn, or cancel the question on screen", () => {
  const shown: (string | undefined)[] = [];
  const status = new TurnStatus((l) => shown.push(l), createStyle(false));
  status.start();
  try {
    expect(shown.at(-1)).toMatch(/Thinking… \(0s · esc to interrupt\)$/);
    status.asking("Waiting for your answer to fx…");
    expect(shown.at(-1)).toMatch(/Waiting for your answer to fx… \(0s · esc to cancel\)$/);
    status.set("Running Bash…");
    expect(shown.at(-1)).toMatch(/Running Bash… \(0s · esc to interrupt\)$/);
  } finally {
    status.stop();
  }
  expect(shown.at(-1)).toBeUndefined();
});

test("a running MCP tool is named as server › tool in the status line, not by its API name", () => {
  const shown: (string | undefined)[] = [];
  const plain = createStyle(false);
  const status = new TurnStatus((l) => shown.push(l), plain);
  const screen = { print: () => {}, setActivity: () => {}, setPending: () => {}, columns: 80 };
  const route = { server: "fx", tool: "echo" };
  const view = new TurnView(screen, plain, "/w", new PlainLines(), status, undefined, (call) => mcpCallName(call.name, route));
  status.start();
  try {
    view.toolStart({ type: "tool_use", id: "t1", name: "mcp__fx__echo", input: {} });
    expect(shown.at(-1)).toMatch(/Running fx › echo… \(/);
  } finally {
    status.stop();
  }
});
