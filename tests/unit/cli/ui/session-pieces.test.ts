/**
 * The pure pieces of the interactive session: permission decisions, tool lines, the
 * start-up status line, colours and history (real files in a temp folder).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { History, HISTORY_SIZE, historyPath } from "../../../../lib/cli/repl/history.ts";
import { parseAnswer, permissionHook } from "../../../../lib/cli/repl/permission.ts";
import { isAllowed } from "../../../../lib/agent/permissions/modes.ts";
import { ruleNamesTool } from "../../../../lib/agent/mcp/names.ts";
import { builtinTools } from "../../../../lib/tools/builtin.ts";
import { colorEnabled, createStyle, plainUnlessColor } from "../../../../lib/cli/ui/style.ts";
import { StartupStatus, summaryLine } from "../../../../lib/cli/ui/startup-status.ts";
import { shortArgs, toolResultLine, toolResultPreview, toolStartLine } from "../../../../lib/cli/ui/tool-lines.ts";
import { PlainLines, TurnView } from "../../../../lib/cli/ui/turn-view.ts";
import { TurnStatus } from "../../../../lib/cli/ui/turn-status.ts";
import type { Tool } from "../../../../lib/tools/tool.ts";
import { tempDir } from "../../../support/run.ts";

const plain = createStyle(false);

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

describe("tool lines", () => {
  test("built-in tools show their main argument, paths relative to cwd", () => {
    expect(shortArgs("Read", { file_path: "/w/src/a.ts" }, "/w")).toBe("src/a.ts");
    expect(shortArgs("Read", { file_path: "/etc/hosts" }, "/w")).toBe("/etc/hosts");
    expect(shortArgs("Bash", { command: "echo a\necho b" }, "/w")).toBe("echo a ⏎ echo b");
    expect(shortArgs("mcp__fx__add", { a: 1, b: "two" }, "/w")).toBe('a: 1, b: "two"');
    expect(shortArgs("Bash", { command: "x".repeat(200) }, "/w")).toHaveLength(80);
    expect(toolStartLine("Glob", { pattern: "**/*.ts" }, "/w", plain)).toBe("● Glob(**/*.ts)");
    const route = { server: "fx", tool: "ping" };
    expect(toolStartLine("mcp__fx__ping", {}, "/w", plain, route)).toBe("● fx › ping (MCP)");
    expect(toolStartLine("mcp__fx__ping", { n: 1 }, "/w", plain, route)).toBe("● fx › ping (MCP)(n: 1)");
  });

  test("results: first line and a count; errors marked; labels when interleaved", () => {
    expect(toolResultLine("one\ntwo\nthree\n", false, plain)).toBe("  ⎿  one (+2 lines)");
    expect(toolResultLine("", false, plain)).toBe("  ⎿  (no output)");
    expect(toolResultLine("boom", true, plain)).toBe("  ⎿  Error: boom");
    expect(toolResultLine([{ type: "image", source: { type: "base64", media_type: "image/png", data: "" } }], false, plain, { label: "Read" })).toBe(
      "  ⎿  Read: [image image/png]",
    );
    expect(toolResultLine("y".repeat(50), false, plain, { maxChars: 10 })).toBe(`  ⎿  ${"y".repeat(9)}…`);
  });
});

describe("turn view", () => {
  test("text prints in whole lines; tool lines below it, labelled when interleaved; progress in place", () => {
    const printed: string[] = [];
    const activity: string[][] = [];
    const screen = { print: (s: string) => printed.push(s), setActivity: (l: string[]) => activity.push(l), setPending: () => {}, columns: 120 };
    const status = new TurnStatus(() => {}, plain);
    const view = new TurnView(screen, plain, "/w", new PlainLines(), status);
    const read = { type: "tool_use" as const, id: "t1", name: "Read", input: { file_path: "/w/a.txt" } };
    const glob = { type: "tool_use" as const, id: "t2", name: "Glob", input: { pattern: "*" } };
    view.text("Let me ");
    view.text("look.");
    expect(printed).toEqual([]);
    view.toolStart(read);
    view.toolProgress(read, "halfway");
    view.toolProgress(read, "almost");
    view.toolEnd(read, { type: "tool_result", tool_use_id: "t1", content: "hello\nworld" });
    view.toolStart(read);
    view.toolStart(glob);
    view.toolEnd(read, { type: "tool_result", tool_use_id: "t1", content: "gone", is_error: true });
    expect(printed.join("")).toBe(["Let me look.\n● Read(a.txt)", "  ⎿  hello\n     world", "● Read(a.txt)", "● Glob(*)", "  ⎿  Read: Error: gone"].join(""));
    expect(activity.slice(0, 3)).toEqual([["  ⋯  halfway"], ["  ⋯  almost"], []]);
  });

  test("a long result shows its first lines and how many more", () => {
    expect(toolResultPreview("a\nb\nc\nd\ne", false, plain)).toBe("  ⎿  a\n     b\n     c\n     … +2 lines");
    // Indentation is the shape of a JSON or code result: kept.
    expect(toolResultPreview('{\n  "action": "cancel"\n}', false, plain)).toBe('  ⎿  {\n       "action": "cancel"\n     }');
  });
});

describe("start-up status", () => {
  const stream = (isTTY: boolean) => {
    const chunks: string[] = [];
    return { chunks, isTTY, write: (s: string) => chunks.push(s) };
  };

  test("on a terminal: a live line with running counts, log lines above it, replaced by the summary", () => {
    const out = stream(true);
    const status = new StartupStatus(out, plain);
    status.start(3);
    status.settle({ status: "connected" });
    status.log('MCP server "db" failed to start: boom');
    status.settle({ status: "failed" });
    status.finish([{ status: "connected" }, { status: "connected" }, { status: "failed" }]);
    expect(out.chunks.join("")).toBe(
      "\r\x1b[Kconnecting 3 MCP servers…" +
        "\r\x1b[Kconnecting 3 MCP servers… 1 connected" +
        '\r\x1b[KMCP server "db" failed to start: boom\nconnecting 3 MCP servers… 1 connected' +
        "\r\x1b[Kconnecting 3 MCP servers… 1 connected, 1 failed" +
        "\r\x1b[KMCP: 2 connected, 1 failed (/mcp for details)\n",
    );
  });

  test("abandoned (the user left while servers connected): the live line is cleared, no summary", () => {
    const out = stream(true);
    const status = new StartupStatus(out, plain);
    status.start(2);
    status.abandon();
    expect(out.chunks.join("")).toBe("\r\x1b[Kconnecting 2 MCP servers…\r\x1b[K");
  });

  test("elsewhere: no live line; nothing at all without servers", () => {
    const out = stream(false);
    const status = new StartupStatus(out, plain);
    status.start(1);
    status.finish([{ status: "connected" }]);
    expect(out.chunks.join("")).toBe("MCP: 1 connected\n");
    expect(summaryLine([], plain)).toBe("");
  });
});

describe("colours", () => {
  test("only on a terminal, and never with NO_COLOR", () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(createStyle(true).red("x")).toBe("\x1b[31mx\x1b[39m");
    expect(createStyle(false).red("x")).toBe("x");
  });

  test("servers' lines keep their codes on a colour stream and lose them elsewhere", () => {
    const seen: string[] = [];
    plainUnlessColor((l) => seen.push(l), true)("\x1b[31mred\x1b[0m");
    plainUnlessColor((l) => seen.push(l), false)("\x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07");
    expect(seen).toEqual(["\x1b[31mred\x1b[0m", "red link"]);
  });
});

describe("history", () => {
  test("lives in $CLAUDE_CONFIG_DIR, else ~/.claude", () => {
    expect(historyPath({ CLAUDE_CONFIG_DIR: "/cfg" })).toBe("/cfg/agent_history");
    expect(historyPath({})).toEndWith("/.claude/agent_history");
  });

  test("entries are appended and loaded newest first, consecutive duplicates once", () => {
    const path = join(tempDir(), "sub", "agent_history");
    const warnings: string[] = [];
    const history = new History(path, (l) => warnings.push(l));
    expect(history.load()).toEqual([]);
    for (const entry of ["one", "two", "two", "  ", "three"]) history.add(entry);
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\ntwo\nthree\n");
    expect(new History(path, () => {}).load()).toEqual(["three", "two", "one"]);
    expect(warnings).toEqual([]);
  });

  test("a file past twice the limit is cut back to the limit", () => {
    const path = join(tempDir(), "agent_history");
    writeFileSync(path, Array.from({ length: 2 * HISTORY_SIZE + 5 }, (_, i) => `e${i}`).join("\n") + "\n");
    const loaded = new History(path, () => {}).load();
    expect(loaded).toHaveLength(HISTORY_SIZE);
    expect(loaded[0]).toBe(`e${2 * HISTORY_SIZE + 4}`);
    expect(readFileSync(path, "utf8").trimEnd().split("\n")).toHaveLength(HISTORY_SIZE);
  });

  test("an unusable folder costs one warning, not the session", () => {
    const dir = tempDir();
    // A file where the folder should be: fails for every user, root included.
    writeFileSync(join(dir, "not-a-folder"), "");
    const warnings: string[] = [];
    const history = new History(join(dir, "not-a-folder", "agent_history"), (l) => warnings.push(l));
    history.add("a");
    history.add("b");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith("warning: history: cannot save history to ");
  });
});
