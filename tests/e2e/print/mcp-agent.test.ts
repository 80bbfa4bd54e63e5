/**
 * MCP through the real program: `.mcp.json` in a temp dir, the fixture server, the scripted
 * model. What the model sees in tool_result blocks, what the user sees on stderr, and that no
 * server process outlives the run.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelServer, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { gone, withoutBreakpoints } from "../../support/mcp.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

/** The tool_result blocks of the model request at `index`. */
function toolResults(index: number): any[] {
  const body = server!.requests[index]!.body;
  return withoutBreakpoints(body.messages.at(-1).content.filter((b: any) => b.type === "tool_result"));
}

/** One MCP tool call by the model, then "done". */
async function callOnce(tool: string, input: unknown, servers: Record<string, unknown>, env: Record<string, string> = {}) {
  server = startModelServer([reply(toolUse(tool, input)), reply(text("done"))]);
  const dir = tempDir();
  writeMcpConfig(dir, servers);
  const result = await runAgent(["-p", "go"], { cwd: dir, model: server.url, env });
  return { ...result, dir, results: toolResults(1) };
}

describe("MCP tools in the agent", () => {
  test("a tool call round-trips; a failing server is one stderr line and the run goes on", async () => {
    const r = await callOnce("mcp__fx__echo", { text: "hello" }, { fx: fixtureServer(), bad: fixtureServer("--exit-immediately") });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(r.results).toEqual([{ type: "tool_result", tool_use_id: expect.any(String), content: "hello" }]);
    expect(r.stderr.trim().split("\n")).toEqual([
      'MCP server "bad" failed to start: exited with code 1 before the handshake (stderr: [fixture] exiting before reading anything (--exit-immediately))',
    ]);
    const names = server!.requests[0]!.body.tools.map((t: any) => t.name);
    expect(names).toContain("mcp__fx__echo");
    expect(names.some((n: string) => n.startsWith("mcp__bad__"))).toBe(false);
  });

  test("a hostile stdout (banner, invalid UTF-8, CRLF, split writes) does not disturb the call", async () => {
    const flags = ["--banner", "--invalid-utf8", "--crlf", "--split-writes", "--coalesce", "--unknown-id"];
    const r = await callOnce("mcp__fx__echo", { text: "hello" }, { fx: fixtureServer(...flags) });
    expect(r.results[0].content).toBe("hello é😀");
    expect(r.stderr).toBe("");
  });

  test("MCP_TOOL_TIMEOUT turns a slow call into an is_error result saying so", async () => {
    const r = await callOnce("mcp__fx__slow", { ms: 60_000 }, { fx: fixtureServer() }, { MCP_TOOL_TIMEOUT: "200" });
    expect(r.code).toBe(0);
    expect(r.results[0].is_error).toBe(true);
    expect(r.results[0].content).toContain("timed out after 200 ms");
  });

  test("a server dying mid-call is an is_error result, not a crash", async () => {
    const r = await callOnce("mcp__fx__crash", {}, { fx: fixtureServer() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(r.results[0]).toMatchObject({ is_error: true, content: 'MCP server "fx" exited during the call' });
  });

  test("servers run in the agent's directory with config env added to the inherited environment", async () => {
    const config = { ...fixtureServer(), env: { FIXTURE_VALUE: "from-config" } };
    const value = await callOnce("mcp__fx__env", { name: "FIXTURE_VALUE" }, { fx: config });
    expect(value.results[0].content).toBe("from-config");
    const path = await callOnce("mcp__fx__env", { name: "PATH" }, { fx: config });
    expect(path.results[0].content).toBe(process.env.PATH);
    const cwd = await callOnce("mcp__fx__cwd", {}, { fx: fixtureServer() });
    expect(cwd.results[0].content).toBe(cwd.dir);
  });

  test("tools announced with list_changed reach the model by its next call", async () => {
    server = startModelServer([reply(toolUse("mcp__fx__echo", { text: "x" })), reply(text("done"))]);
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer("--list-changed") });
    await runAgent(["-p", "go"], { cwd: dir, model: server.url });
    expect(server.requests.at(-1)!.body.tools.map((t: any) => t.name)).toContain("mcp__fx__late_tool");
  });

  test("no server process, grandchildren included, outlives the run", async () => {
    const pidFile = join(tempDir(), "pids");
    const r = await callOnce(
      "mcp__fx__echo",
      { text: "x" },
      {
        plain: fixtureServer("--pid-file", pidFile),
        family: fixtureServer("--grandchild", "--pid-file", pidFile),
        stubborn: fixtureServer("--ignore-stdin-eof", "--ignore-sigterm", "--pid-file", pidFile),
      },
    );
    expect(r.code).toBe(0);
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(4);
    for (const pid of pids) expect(await gone(pid)).toBe(true);
  });
});
