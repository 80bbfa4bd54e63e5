/**
 * When a stdio server goes away (McpRegistry over real fixture processes): the next call of one
 * of its tools restarts it, at most 3 times in 5 minutes, a line each time; one that keeps dying
 * ends as failed with its last stderr; `reconnect` starts a server afresh and re-lists it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { ServerConfig } from "../../lib/mcp/config/load.ts";
import { McpRegistry } from "../../lib/mcp/registry/registry.ts";
import { McpToolset } from "../../lib/agent/mcp/tools.ts";
import { mcpReporter } from "../../lib/cli/ui/server-lines.ts";
import type { ToolContext } from "../../lib/tools/tool.ts";
import { BUN, FIXTURE_SERVER, tempDir } from "../support/run.ts";

const registries: McpRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.shutdown()));
});

const fixture = (name: string, ...flags: string[]): ServerConfig => ({ type: "stdio", name, command: BUN, args: [FIXTURE_SERVER, ...flags], env: {} });
const ctx = (): ToolContext => ({ cwd: tempDir(), signal: new AbortController().signal });

/** A registry whose log lines can be awaited: `logged(text, n)` resolves once `n` lines contain `text`. */
async function start(config: ServerConfig) {
  const lines: string[] = [];
  const waiters: { text: string; n: number; resolve: () => void }[] = [];
  const log = (line: string) => {
    lines.push(line);
    for (const w of waiters.splice(0)) {
      if (lines.filter((l) => l.includes(w.text)).length >= w.n) w.resolve();
      else waiters.push(w);
    }
  };
  const registry = await McpRegistry.start([config], { cwd: tempDir(), log, ...mcpReporter(log, {}), graceMs: 100 });
  registries.push(registry);
  const toolset = new McpToolset(registry, { warn: log });
  const echo = (text: string) =>
    toolset
      .tools()
      .find((t) => t.name === "mcp__fx__echo")!
      .run({ text }, ctx());
  const logged = (text: string, n = 1) =>
    new Promise<void>((resolve) => (lines.filter((l) => l.includes(text)).length >= n ? resolve() : waiters.push({ text, n, resolve })));
  return { registry, lines, echo, logged };
}

describe("restart on the next call", () => {
  test("a server that exits after every call is restarted 3 times, then stays failed with its last stderr", async () => {
    const { registry, lines, echo, logged } = await start(fixture("fx", "--crash-after", "1"));
    for (let n = 1; n <= 3; n++) {
      expect(await echo(`call ${n}`)).toMatchObject({ content: `call ${n}` });
      await logged('MCP server "fx" exited with code 1 (stderr:', n);
      expect(await echo("finds it dead")).toEqual({
        isError: true,
        content: 'MCP server "fx" had exited with code 1; it is being restarted: call the tool again',
      });
      expect(lines.at(-1)).toBe(`MCP server "fx" exited with code 1; restarting it (restart ${n} of at most 3 in 5 minutes)`);
    }
    expect(await echo("fourth process")).toMatchObject({ content: "fourth process" });
    await logged('MCP server "fx" exited with code 1 (stderr:', 4);
    expect(await echo("spent")).toEqual({
      isError: true,
      content: 'MCP server "fx" is not connected: it kept exiting (restarted 3 times in 5 minutes; last: exited with code 1)',
    });
    expect(lines.at(-1)).toMatch(/^MCP server "fx" kept exiting \(restarted 3 times in 5 minutes; last: exited with code 1\) \(stderr: .*--crash-after/);
    expect(await echo("after")).toEqual({ isError: true, content: 'MCP server "fx" is not connected' });
    expect(registry.server("fx")).toMatchObject({ status: "failed" });
    // Four exits, three restarts, one give-up: nothing else was said.
    expect(lines).toHaveLength(8);
  });

  test("reconnect starts a server afresh: connected again, tools listed again, the registry's version moved", async () => {
    const { registry, echo, logged } = await start(fixture("fx", "--crash-after", "1"));
    expect(await echo("one")).toMatchObject({ content: "one" });
    await logged("exited with code 1");
    expect(registry.server("fx")).toMatchObject({ status: "failed" });
    const before = registry.version;
    const after = await registry.reconnect("fx");
    expect(after.status).toBe("connected");
    expect(after.tools.map((t) => t.name)).toContain("echo");
    expect(registry.version).toBeGreaterThan(before);
    expect(await echo("two")).toMatchObject({ content: "two" });
    await expect(registry.reconnect("nope")).rejects.toThrow('no MCP server named "nope"');
  });
});
