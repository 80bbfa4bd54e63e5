/**
 * McpRegistry over real fixture server processes: concurrent start, failure reasons, MCP tools
 * as `Tool`s, list_changed refresh, prompts/resources, and a shutdown that leaves nothing running.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../../lib/mcp/config/load.ts";
import { McpRegistry, type RegistryOptions } from "../../lib/mcp/registry/registry.ts";
import { McpToolset } from "../../lib/agent/mcp/tools.ts";
import { mcpReporter } from "../../lib/cli/ui/server-lines.ts";
import type { ToolContext } from "../../lib/tools/tool.ts";
import { BUN, FIXTURE_SERVER, isAlive, tempDir } from "../support/run.ts";
import { gone, received } from "../support/mcp.ts";

const registries: McpRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.shutdown()));
});

const fixture = (name: string, ...flags: string[]): ServerConfig => ({ type: "stdio", name, command: BUN, args: [FIXTURE_SERVER, ...flags], env: {} });

async function start(servers: ServerConfig[], opts: Partial<RegistryOptions> = {}) {
  const lines: string[] = [];
  const log = opts.log ?? ((l: string) => void lines.push(l));
  const registry = await McpRegistry.start(servers, { cwd: tempDir(), log, ...mcpReporter(log, { verbose: opts.verbose }), graceMs: 100, ...opts });
  registries.push(registry);
  return { registry, lines, toolset: new McpToolset(registry, { warn: log }) };
}

const ctx = (): ToolContext => ({ cwd: tempDir(), signal: new AbortController().signal });

function tool(registry: McpToolset, name: string) {
  const found = registry.tools().find((t) => t.name === name);
  if (!found)
    throw new Error(
      `no tool ${name} in ${registry
        .tools()
        .map((t) => t.name)
        .join(", ")}`,
    );
  return found;
}

describe("start", () => {
  test("servers start concurrently: one waits for another listed after it", async () => {
    const dir = tempDir();
    const marker = join(dir, "second-started");
    const waiter: ServerConfig = {
      type: "stdio",
      name: "waiter",
      command: "sh",
      args: ["-c", 'while [ ! -s "$1" ]; do sleep 0.01; done; exec "$2" "$3"', "sh", marker, BUN, FIXTURE_SERVER],
      env: {},
    };
    const { registry } = await start([waiter, fixture("second", "--pid-file", marker)], { startupTimeoutMs: 10_000 });
    expect(registry.snapshot().map((s) => [s.name, s.status])).toEqual([
      ["waiter", "connected"],
      ["second", "connected"],
    ]);
  });

  test("failures never throw: each gets a reason, one log line with its stderr, and its process is gone", async () => {
    const pidFile = join(tempDir(), "pids");
    const { registry, lines } = await start([
      fixture("ok"),
      fixture("early", "--exit-immediately"),
      { type: "stdio", name: "missing", command: "no-such-command-4242", args: [], env: {} },
      fixture("refuses", "--init-error", "--pid-file", pidFile, "--stderr-lines", "2"),
      fixture("old", "--protocol-version", "1999-01-01"),
    ]);
    expect(registry.snapshot().map((s) => [s.name, s.status])).toEqual([
      ["ok", "connected"],
      ["early", "failed"],
      ["missing", "failed"],
      ["refuses", "failed"],
      ["old", "failed"],
    ]);
    expect(lines).toContain(
      'MCP server "early" failed to start: exited with code 1 before the handshake (stderr: [fixture] exiting before reading anything (--exit-immediately))',
    );
    expect(lines).toContain('MCP server "missing" failed to start: command not found: no-such-command-4242');
    expect(lines.find((l) => l.startsWith('MCP server "refuses" failed to start: initialize failed:'))).toContain("(stderr: [fixture] stderr line 1 of 2 | ");
    expect(lines.filter((l) => l.includes("failed to start"))).toHaveLength(4);
    expect(registry.isConnected("ok")).toBe(true);
    expect(registry.isConnected("early")).toBe(false);
    expect(await gone(Number(readFileSync(pidFile, "utf8").trim()))).toBe(true);
  });

  test("prompts/list and resources/list are sent only when declared; an explicit ask treats -32601 as none", async () => {
    const logFile = join(tempDir(), "stdin.log");
    const { registry } = await start([fixture("bare", "--no-prompts", "--no-resources", "--log-file", logFile), fixture("full")]);
    expect(received(logFile).map((m) => m.method)).toEqual(["initialize", "notifications/initialized", "tools/list"]);
    const [bare, full] = registry.snapshot();
    expect([bare!.prompts, bare!.resources]).toEqual([[], []]);
    expect(full!.prompts.map((p) => p.name)).toContain("greet");
    expect(full!.resources.map((r) => r.uri)).toContain("fixture://hello");
    expect(await registry.listPrompts("bare")).toEqual([]);
    expect(await registry.listResources("bare")).toEqual([]);
  });
});

describe("tools", () => {
  test("MCP tools become Tools: API names, object schemas, results through content conversion", async () => {
    const { toolset } = await start([fixture("fx")]);
    const echo = tool(toolset, "mcp__fx__echo");
    expect(echo.inputSchema.type).toBe("object");
    expect(echo.description.length).toBeGreaterThan(0);
    expect(toolset.route("mcp__fx__echo")).toEqual({ server: "fx", tool: "echo" });
    expect(await echo.run({ text: "hi" }, ctx())).toEqual({ content: "hi" });
    expect(await tool(toolset, "mcp__fx__fail").run({}, ctx())).toMatchObject({ isError: true });
    const rpc = await tool(toolset, "mcp__fx__rpc_error").run({}, ctx());
    expect(rpc.isError).toBe(true);
    expect(rpc.content).toContain("fixture rpc error");
  });

  test("odd names are made API-valid and routed back by table; an unusable schema is left out with a warning", async () => {
    const { registry, lines, toolset } = await start([fixture("my.server", "--weird-names", "--bad-schemas")]);
    const names = toolset.tools().map((t) => t.name);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(names.length);
    const dotted = names.find((n) => toolset.route(n)?.tool === "dotted.name")!;
    expect(await tool(toolset, dotted).run({}, ctx())).toBeDefined();
    expect(registry.snapshot()[0]!.tools.length - names.length).toBe(1);
    expect(lines.filter((l) => l.includes("left out"))).toHaveLength(1);
    toolset.tools();
    expect(lines.filter((l) => l.includes("left out"))).toHaveLength(1);
  });

  test("a call over MCP_TOOL_TIMEOUT is an error result for the model, and is cancelled on the wire", async () => {
    const logFile = join(tempDir(), "stdin.log");
    const { toolset } = await start([fixture("fx", "--log-file", logFile)], { toolTimeoutMs: 100 });
    const result = await tool(toolset, "mcp__fx__slow").run({ ms: 60_000 }, ctx());
    expect(result).toEqual({
      isError: true,
      content: 'MCP tool slow on server "fx" timed out after 100 ms (MCP_TOOL_TIMEOUT); the call was cancelled',
    });
    await tool(toolset, "mcp__fx__echo").run({ text: "fence" }, ctx());
    expect(received(logFile).filter((m) => m.method === "notifications/cancelled")).toHaveLength(1);
  });

  test("a server that dies mid-call: exited during the call; the next call finds it dead and waits for its restart", async () => {
    const logged: string[] = [];
    let reported!: (line: string) => void;
    const disconnected = new Promise<string>((resolve) => (reported = resolve));
    const { registry, toolset } = await start([fixture("fx")], {
      log: (l) => {
        logged.push(l);
        if (l.includes("exited")) reported(l);
      },
    });
    const crash = tool(toolset, "mcp__fx__crash");
    expect(await crash.run({}, ctx())).toEqual({ isError: true, content: 'MCP server "fx" exited during the call' });
    expect(await disconnected).toBe(
      'MCP server "fx" exited with code 1 (stderr: [fixture] crash tool called: exiting with code 1); its next call restarts it (restart 1 of at most 3 in 5 minutes)',
    );
    expect(registry.snapshot()[0]!.status).toBe("failed");
    expect(registry.snapshot()[0]!.error).toBe("exited with code 1");
    const tools = registry.snapshot()[0]!.tools;
    const [x, back] = await Promise.all([
      tool(toolset, "mcp__fx__echo").run({ text: "x" }, ctx()),
      tool(toolset, "mcp__fx__echo").run({ text: "back" }, ctx()),
    ]);
    expect([x, back]).toMatchObject([{ content: "x" }, { content: "back" }]);
    // Two calls, one restart, and the death said once: the restart adds no line.
    expect(logged.filter((l) => l.includes("exited with code 1"))).toHaveLength(1);
    expect(logged.filter((l) => l.includes("restart"))).toHaveLength(1);
    expect(registry.snapshot()[0]!.tools).toEqual(tools);
    expect(registry.snapshot()[0]!.status).toBe("connected");
  });

  test("a call cut short by shutdown says so, rather than blaming the server", async () => {
    const { registry, toolset } = await start([fixture("fx", "--never-answer-tools")]);
    const pending = tool(toolset, "mcp__fx__echo").run({ text: "x" }, ctx());
    await registry.shutdown();
    expect(await pending).toEqual({ isError: true, content: 'MCP server "fx" was shut down during the call' });
  });

  test("refresh re-lists after list_changed, and does nothing when nothing changed", async () => {
    const logFile = join(tempDir(), "stdin.log");
    let announced!: () => void;
    const changed = new Promise<void>((resolve) => (announced = resolve));
    const { registry, toolset } = await start([fixture("fx", "--list-changed", "--log-file", logFile)], { onListChanged: () => announced() });
    await changed;
    await registry.refresh();
    expect(toolset.tools().map((t) => t.name)).toContain("mcp__fx__late_tool");
    const lists = () => received(logFile).filter((m) => m.method === "tools/list").length;
    const before = lists();
    await registry.refresh();
    await tool(toolset, "mcp__fx__echo").run({ text: "fence" }, ctx());
    expect(lists()).toBe(before);
  });
});

describe("prompts, resources, raw calls", () => {
  test("getPrompt, readResource and callTool pass through; unknown servers are named in the error", async () => {
    const { registry } = await start([fixture("fx")]);
    const prompt = await registry.getPrompt("fx", "greet", { name: "Ada" });
    expect(JSON.stringify(prompt.messages)).toContain("Ada");
    expect((await registry.readResource("fx", "fixture://hello")).contents[0]?.text).toBe("hello from fixture");
    expect(await registry.callTool("fx", "multi", {})).toMatchObject({ content: [{ text: "one" }, { text: "two" }, { text: "three" }] });
    await expect(registry.getPrompt("nope", "greet", {})).rejects.toThrow('no MCP server named "nope"');
  });
});

describe("shutdown", () => {
  test("closes every server concurrently, grandchildren included, and is idempotent", async () => {
    const pidFile = join(tempDir(), "pids");
    const { registry } = await start([
      fixture("a", "--pid-file", pidFile),
      fixture("b", "--grandchild", "--pid-file", pidFile),
      fixture("c", "--ignore-stdin-eof", "--ignore-sigterm", "--pid-file", pidFile),
    ]);
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(4);
    expect(pids.every(isAlive)).toBe(true);
    const first = registry.shutdown();
    expect(registry.shutdown()).toBe(first);
    await first;
    for (const pid of pids) expect(await gone(pid)).toBe(true);
  });

  test("verbose forwards server stderr lines as [server] line", async () => {
    let seen!: (line: string) => void;
    const forwarded = new Promise<string>((resolve) => (seen = resolve));
    await start([fixture("fx", "--stderr-lines", "1")], { verbose: true, log: (l) => l.includes("stderr line") && seen(l) });
    expect(await forwarded).toBe("[fx] [fixture] stderr line 1 of 1");
  });
});
