/**
 * Routing `agent [flags] mcp …` to the inspector (lib/cli/flags/args.ts, inspectorArgv).
 */
import { describe, expect, test } from "bun:test";
import { inspectorArgv } from "../../../../lib/cli/flags/args.ts";

describe("routing `agent [flags] mcp …` to the inspector", () => {
  test("the first positional `mcp`, whatever flags come first, which are passed on", () => {
    expect(inspectorArgv(["mcp", "list"])).toEqual(["list"]);
    expect(inspectorArgv(["--strict-mcp-config", "mcp", "list"])).toEqual(["--strict-mcp-config", "list"]);
    expect(inspectorArgv(["--mcp-config", "x.json", "mcp", "tools", "fx"])).toEqual(["--mcp-config", "x.json", "tools", "fx"]);
    expect(inspectorArgv(["--mcp-config=x.json", "--json", "mcp", "list"])).toEqual(["--mcp-config=x.json", "--json", "list"]);
    // The inspector refuses flags it does not know; routing does not judge them.
    expect(inspectorArgv(["--model", "m", "mcp", "list"])).toEqual(["--model", "m", "list"]);
  });

  test("`mcp` as a flag's value, a prompt, or after -p / -- is not the inspector", () => {
    expect(inspectorArgv(["--model", "mcp", "hello"])).toBeUndefined();
    expect(inspectorArgv(["--model", "mcp"])).toBeUndefined();
    expect(inspectorArgv(["-p", "mcp"])).toBeUndefined();
    expect(inspectorArgv(["mcp", "list", "--print"])).toBeUndefined();
    expect(inspectorArgv(["-pv", "mcp"])).toBeUndefined();
    expect(inspectorArgv(["--", "mcp", "list"])).toBeUndefined();
    expect(inspectorArgv(["tell", "me", "about", "mcp"])).toBeUndefined();
    expect(inspectorArgv([])).toBeUndefined();
  });
});
