/**
 * When a stdio server goes away (McpRegistry over real fixture processes): the next call of one
 * of its tools restarts it, at most 3 times in 5 minutes, one line per death naming the restart; one that keeps dying
 * ends as failed with its last stderr; `reconnect` starts a server afresh and re-lists it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
  const logged = (text: string, n = 1): Promise<void> =>
    new Promise<void>((resolve) => (lines.filter((l) => l.includes(text)).length >= n ? resolve() : waiters.push({ text, n, resolve })));
  return { registry, lines, echo, logged, toolset };
}

describe("restart on the next call", () => {
  test("a server that exits after every call: each next call waits for a restart, 3 of them, one line per death, then the server failed, said once with its stderr", async () => {
    const { registry, lines, echo, logged } = await start(fixture("fx", "--crash-after", "1"));
    const tools = registry.server("fx")!.tools;
    expect(await echo("call 1")).toMatchObject({ content: "call 1" });
    for (let n = 1; n <= 3; n++) {
      await logged('MCP server "fx" exited with code 1 (stderr:', n);
      expect(await echo(`call ${n + 1}`)).toMatchObject({ content: `call ${n + 1}` });
      // One line for the death, naming the restart to come; the restart says nothing more.
      expect(lines.filter((l) => l.includes("exited with code 1"))).toHaveLength(n);
      expect(lines.at(-1)).toMatch(
        new RegExp(`^MCP server "fx" exited with code 1 \\(stderr: .*; its next call restarts it \\(restart ${n} of at most 3 in 5 minutes\\)$`),
      );
      // The same list, offered throughout: nothing for the model (or its prompt cache) to notice.
      expect(registry.server("fx")!.tools).toEqual(tools);
    }
    await logged('MCP server "fx" exited with code 1 (stderr:', 4);
    const failed = 'MCP server "fx" failed: it kept exiting (restarted 3 times in 5 minutes; last: exited with code 1)';
    expect(await echo("spent")).toEqual({ isError: true, content: failed });
    expect(lines.at(-1)).toMatch(/^MCP server "fx" kept exiting \(restarted 3 times in 5 minutes; last: exited with code 1\) \(stderr: .*--crash-after/);
    // The fourth death has no restart left to name.
    expect(lines.at(-2)).toMatch(/^MCP server "fx" exited with code 1 \(stderr: .*--crash-after[^;]*\)$/);
    expect(await echo("after")).toEqual({ isError: true, content: failed });
    expect(registry.server("fx")).toMatchObject({ status: "failed", tools });
    // Four deaths, one line each, and the give-up: nothing else was said.
    expect(lines).toHaveLength(5);
    expect(lines.filter((l) => l.includes("restarting it"))).toEqual([]);
  });

  test("a restart that fails counts toward the limit: the call waits through all three, then gets the failure", async () => {
    const marker = join(tempDir(), "broken");
    const { registry, lines, echo, logged } = await start(fixture("fx", "--crash-after", "1", "--exit-if-exists", marker));
    expect(await echo("one")).toMatchObject({ content: "one" });
    await logged("exited with code 1 (stderr:");
    writeFileSync(marker, "");
    expect(await echo("two")).toEqual({
      isError: true,
      content: 'MCP server "fx" failed: it kept exiting (restarted 3 times in 5 minutes; last: exited with code 1 before the handshake)',
    });
    // The death names restart 1; each restart that failed is news of its own, with the next restart's number.
    expect(lines[0]).toEndWith("; its next call restarts it (restart 1 of at most 3 in 5 minutes)");
    expect(lines.slice(1, 3)).toEqual([
      'MCP server "fx" exited with code 1 before the handshake; restarting it (restart 2 of at most 3 in 5 minutes)',
      'MCP server "fx" exited with code 1 before the handshake; restarting it (restart 3 of at most 3 in 5 minutes)',
    ]);
    expect(lines[3]).toMatch(/^MCP server "fx" kept exiting .* \(stderr: \[fixture\] exiting before reading anything/);
    expect(lines).toHaveLength(4);
    expect(registry.server("fx")!.tools.map((t) => t.name)).toContain("echo");
  });

  test("a call in flight when the server dies fails and is not sent again; the next call gets a fresh process", async () => {
    const log = join(tempDir(), "stdin.log");
    const { registry, toolset } = await start(fixture("fx", "--log-file", log));
    const call = (name: string, input: Record<string, unknown>) =>
      toolset
        .tools()
        .find((t) => t.name === `mcp__fx__${name}`)!
        .run(input, ctx());
    expect(await call("crash", {})).toEqual({ isError: true, content: 'MCP server "fx" exited during the call' });
    expect(await call("echo", { text: "back" })).toMatchObject({ content: "back" });
    const sent = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.includes('"tools/call"'));
    expect(sent.filter((l) => l.includes('"crash"'))).toHaveLength(1);
    expect(registry.server("fx")).toMatchObject({ status: "connected" });
  });

  test("a restart slower than the tool timeout: the call says so at the timeout, and a later call finds the server back", async () => {
    const { registry, echo, logged } = await start({ ...fixture("fx", "--crash-after", "1", "--init-delay", "3000"), toolTimeoutMs: 200 });
    expect(await echo("one")).toMatchObject({ content: "one" });
    await logged("exited with code 1 (stderr:");
    // The product's own report of its timeout is the assertion; the clock is not (a loaded machine is slower).
    expect(await echo("two")).toEqual({
      isError: true,
      content: 'MCP server "fx" is restarting and was not back within 200 ms (MCP_TOOL_TIMEOUT); call the tool again',
    });
    await registry.revive("fx");
    while (!registry.isConnected("fx")) await registry.revive("fx");
    expect(await echo("three")).toMatchObject({ content: "three" });
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
