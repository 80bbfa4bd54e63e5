/**
 * Tool lines (lib/cli/ui/tool-lines.ts): start, result and preview lines.
 */
import { describe, expect, test } from "bun:test";
import { createStyle } from "../../../../lib/cli/ui/style.ts";
import { shortArgs, toolResultLine, toolStartLine } from "../../../../lib/cli/ui/tool-lines.ts";

const plain = createStyle(false);

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
