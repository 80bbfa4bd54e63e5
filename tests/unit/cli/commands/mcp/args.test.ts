/**
 * The inspector's command line and tool arguments (lib/cli/commands/mcp/args.ts).
 */
import { describe, expect, test } from "bun:test";
import { UsageError } from "../../../../../lib/cli/flags/args.ts";
import { parseInspectorArgs, parseToolArguments } from "../../../../../lib/cli/commands/mcp/args.ts";

describe("command line", () => {
  test("commands, operands and flags", () => {
    expect(parseInspectorArgs(["call", "fx", "echo", '{"text":"a"}', "--json"])).toMatchObject({
      command: "call",
      operands: ["fx", "echo", '{"text":"a"}'],
      json: true,
    });
    expect(parseInspectorArgs(["prompt", "fx", "greet", "--", "--not-a-flag", "x"]).operands).toEqual(["fx", "greet", "--not-a-flag", "x"]);
    expect(parseInspectorArgs(["list", "--mcp-config", "a.json", "--mcp-config", "b.json", "--strict-mcp-config"])).toMatchObject({
      mcpConfig: ["a.json", "b.json"],
      strictMcpConfig: true,
    });
    expect(parseInspectorArgs(["--help"]).help).toBe(true);
  });

  test("usage errors name the problem", () => {
    expect(() => parseInspectorArgs([])).toThrow(UsageError);
    expect(() => parseInspectorArgs(["frob"])).toThrow('unknown command "frob"');
    // Every command the help lists, approve included.
    expect(() => parseInspectorArgs([])).toThrow("missing command (add, add-json, remove, approve, list,");
    expect(() => parseInspectorArgs(["get"])).toThrow("usage: agent mcp get <server>");
    expect(() => parseInspectorArgs(["read", "fx", "u", "extra"])).toThrow("usage: agent mcp read <server> <uri>");
    expect(() => parseInspectorArgs(["list", "--nope"])).toThrow(UsageError);
  });

  test("tool arguments must be a JSON object", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments("{a:1}")).toStartWith("arguments are not valid JSON");
    expect(parseToolArguments("[1]")).toStartWith("arguments must be a JSON object");
    expect(parseToolArguments("null")).toStartWith("arguments must be a JSON object");
  });
});
