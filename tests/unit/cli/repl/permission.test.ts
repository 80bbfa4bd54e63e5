/**
 * The session's permission question and answers (lib/cli/repl/permission.ts) over the one decision.
 */
import { describe, expect, test } from "bun:test";
import { parseAnswer, permissionHook } from "../../../../lib/cli/repl/permission.ts";
import { isAllowed } from "../../../../lib/agent/permissions/modes.ts";
import { ruleNamesTool } from "../../../../lib/agent/mcp/names.ts";
import { builtinTools } from "../../../../lib/tools/builtin.ts";
import type { Tool } from "../../../../lib/tools/tool.ts";

describe("permissions", () => {
  /** The built-in tool of that name (its own asksPermission and summary), else an MCP-like tool that asks. */
  const tool = (name: string): Tool =>
    builtinTools().find((t) => t.name === name) ?? { name, description: "", inputSchema: { type: "object" }, run: async () => ({ content: "" }) };
  const routes: Record<string, { server: string; tool: string }> = {
    mcp__fx__echo: { server: "fx", tool: "echo" },
    mcp__fxy__echo: { server: "fxy", tool: "echo" },
  };
  const matches = (toolName: string, rule: string) => ruleNamesTool(rule, toolName, routes[toolName]);

  test("--allowedTools names a tool or a whole MCP server", () => {
    expect(isAllowed("Bash", ["Bash"], matches)).toBe(true);
    expect(isAllowed("Bash", ["Write"], matches)).toBe(false);
    expect(isAllowed("mcp__fx__echo", ["mcp__fx"], matches)).toBe(true);
    expect(isAllowed("mcp__fx__echo", ["mcp__fx__*"], matches)).toBe(true);
    expect(isAllowed("mcp__fxy__echo", ["mcp__fx"], matches)).toBe(false);
    expect(isAllowed("mcp__fx__echo", ["mcp__fx__echo"], matches)).toBe(true);
  });

  test("answers", () => {
    expect(["y", "Yes", " n ", "always", "A", "", "sure", "nothing"].map((a) => parseAnswer(a)?.answer)).toEqual([
      "yes",
      "yes",
      "no",
      "always",
      "always",
      undefined,
      undefined,
      undefined,
    ]);
    expect(parseAnswer("n, use the other file")).toEqual({ answer: "no", reason: "use the other file" });
    expect(parseAnswer("No: too risky")).toEqual({ answer: "no", reason: "too risky" });
  });

  function hook(answers: (string | null)[], extra: { skipAll?: boolean; allowed?: string[] } = {}) {
    const asked: string[] = [];
    const controller = new AbortController();
    const canUse = permissionHook({
      cwd: "/w",
      allowed: new Set(extra.allowed ?? []),
      skipAll: extra.skipAll ?? false,
      signal: controller.signal,
      ask: async (q) => {
        asked.push(q);
        return answers.shift() ?? null;
      },
      onInterrupt: () => controller.abort(),
      matches,
    });
    return { canUse, asked, controller };
  }

  test("Read, Glob and Grep never ask; Bash asks with its command", async () => {
    const { canUse, asked } = hook(["y"]);
    expect(await canUse(tool("Read"), { file_path: "/w/a" })).toBe(true);
    expect(await canUse(tool("Grep"), { pattern: "x" })).toBe(true);
    expect(asked).toEqual([]);
    expect(await canUse(tool("Bash"), { command: "rm -rf build" })).toBe(true);
    expect(asked).toEqual(["Allow Bash(rm -rf build)? [y]es / [n]o / [a]lways for this tool "]);
  });

  test("an unclear answer asks again; always is remembered; no refuses", async () => {
    const { canUse, asked } = hook(["maybe", "a", "n"]);
    expect(await canUse(tool("Write"), { file_path: "/w/x.txt" })).toBe(true);
    expect(asked).toHaveLength(2);
    expect(await canUse(tool("Write"), { file_path: "/w/y.txt" })).toBe(true);
    expect(asked).toHaveLength(2);
    expect(await canUse(tool("mcp__fx__echo"), { text: "hi" })).toBe(false);
    expect(asked[2]).toBe('Allow mcp__fx__echo(text: "hi")? [y]es / [n]o / [a]lways for this tool ');
  });

  test("a refusal with a sentence gives the model that sentence", async () => {
    const { canUse } = hook(["n because the tests are running"]);
    expect(await canUse(tool("Bash"), { command: "x" })).toEqual({
      behavior: "deny",
      message: "The user refused to run Bash. They said: because the tests are running",
    });
  });

  test("skip-all and allowed tools never ask", async () => {
    expect(await hook([], { skipAll: true }).canUse(tool("Bash"), { command: "x" })).toBe(true);
    const { canUse, asked } = hook([], { allowed: ["Edit"] });
    expect(await canUse(tool("Edit"), {})).toBe(true);
    expect(asked).toEqual([]);
  });

  test("Ctrl-C refuses, interrupts the turn, and queued questions are not asked", async () => {
    const { canUse, asked, controller } = hook([null, "y"]);
    const both = Promise.all([canUse(tool("Bash"), { command: "a" }), canUse(tool("Bash"), { command: "b" })]);
    expect(await both).toEqual([false, false]);
    expect(asked).toHaveLength(1);
    expect(controller.signal.aborted).toBe(true);
  });
});
