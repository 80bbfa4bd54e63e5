/**
 * Servers under the user's control, through the whole agent with the scripted model: per-server
 * options (disabled, includeTools/excludeTools, timeout, toolTimeout, cwd), the agent's own
 * credentials withheld from servers, a server that fails after initialize, and entries from the
 * user scopes shadowing the project's.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir } from "../../support/run.ts";
import { lines, project, stopProjects, toolNames, toolResults } from "../../support/mcp.ts";

afterEach(stopProjects);

const done = [reply(text("done"))];
const results = (p: ReturnType<typeof project>, i = 1) => toolResults(p.model.requests[i]!).map((b) => (b.is_error ? `error: ${b.content}` : b.content));
const fxTools = (p: ReturnType<typeof project>) => toolNames(p.model.requests[0]!).filter((n) => n.startsWith("mcp__fx__"));

describe("per-server options", () => {
  test('"disabled": true: never started, no tools offered, /mcp says so', async () => {
    const p = project((b) => ({ fx: { ...fixtureServer("--pid-file", join(b.dir, "fx.pid")), disabled: true }, other: fixtureServer() }), done);
    const r = await p.run("hi");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(fxTools(p)).toEqual([]);
    expect(existsSync(join(p.dir, "fx.pid"))).toBe(false);
    const table = await p.run("/mcp");
    expect(table.stdout).toBe("fx: disabled (by its entry)\nother: connected\n");
  });

  test("includeTools narrows, excludeTools removes, and a name that matches nothing is one warning line", async () => {
    const p = project({ fx: { ...fixtureServer(), includeTools: ["echo", "add", "nope"], excludeTools: ["add"] } }, done);
    const r = await p.run("hi");
    expect(r.code).toBe(0);
    expect(fxTools(p)).toEqual(["mcp__fx__echo"]);
    expect(lines(r.stderr)).toEqual(['MCP server "fx": includeTools names no tool of the server: nope']);
  });

  test('"timeout" (ms) bounds this server\'s start-up instead of MCP_TIMEOUT', async () => {
    const p = project({ slow: { ...fixtureServer("--init-delay", "3000"), timeout: 200 }, fx: fixtureServer() }, done);
    const r = await p.run("hi", { env: { MCP_TIMEOUT: "20000" } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('MCP server "slow" failed to start: no answer to initialize within 200 ms');
  });

  test('"toolTimeout" (ms) bounds one call of this server instead of MCP_TOOL_TIMEOUT', async () => {
    const p = project({ fx: { ...fixtureServer(), toolTimeout: 300 } }, [reply(toolUse("mcp__fx__slow", { ms: 5000 })), ...done]);
    const r = await p.run("hi", { env: { MCP_TOOL_TIMEOUT: "60000" } });
    expect(r.code).toBe(0);
    expect(results(p)).toEqual([expect.stringMatching(/^error: MCP tool slow on server "fx" timed out after 300 ms/)]);
  });

  test('"cwd" is the server\'s working directory, relative to the project; a missing one fails that server', async () => {
    const p = project({ fx: { ...fixtureServer(), cwd: "sub/dir" }, gone: { ...fixtureServer(), cwd: "missing" } }, [
      reply(toolUse("mcp__fx__cwd", {})),
      ...done,
    ]);
    mkdirSync(join(p.dir, "sub/dir"), { recursive: true });
    const r = await p.run("hi");
    expect(r.code).toBe(0);
    expect(results(p)).toEqual([join(p.dir, "sub/dir")]);
    expect(lines(r.stderr)).toEqual([`MCP server "gone" failed to start: working directory not found: ${join(p.dir, "missing")}`]);
  });
});

describe("the agent's credentials stay with the agent", () => {
  const askEnv = (...names: string[]) => [reply(...names.map((name) => toolUse("mcp__fx__env", { name }))), ...done];

  test("ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN are not inherited; the rest of the environment is", async () => {
    const p = project({ fx: fixtureServer() }, askEnv("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "AGENT_TEST_MARKER"));
    const r = await p.run("env", { env: { ANTHROPIC_AUTH_TOKEN: "auth-token-value" } });
    expect(r.code).toBe(0);
    expect(results(p)).toEqual(["error: env: ANTHROPIC_API_KEY is not set", "error: env: ANTHROPIC_AUTH_TOKEN is not set", p.marker]);
  });

  test('a server that names the key in its "env" gets it', async () => {
    const p = project({ fx: { ...fixtureServer(), env: { ANTHROPIC_API_KEY: "${ANTHROPIC_API_KEY}" } } }, askEnv("ANTHROPIC_API_KEY"));
    const r = await p.run("env");
    expect(r.code).toBe(0);
    // The scripted model's key (tests/support/run.ts).
    expect(results(p)).toEqual(["test-key"]);
  });
});

describe("a server whose initialize works but whose tools/list fails", () => {
  test("is skipped with a line saying it failed the handshake; mcp list and get show the reason, capabilities and instructions", async () => {
    const p = project({ fx: fixtureServer("--tools-list-error"), ok: fixtureServer() }, done);
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(lines(r.stderr)).toEqual(['MCP server "fx" failed the handshake: tools/list answered -32603 fetch failed']);
    const env = { ANTHROPIC_API_KEY: undefined };
    const list = await runAgent(["mcp", "list"], { cwd: p.dir, env });
    expect(list.code).toBe(1);
    expect(list.stdout).toMatch(
      /^fx +failed +stdio .*fixture-server\.ts --tools-list-error {2}failed the handshake: tools\/list answered -32603 fetch failed; capabilities: logging, tools \(listChanged\), /m,
    );
    const get = await runAgent(["mcp", "get", "fx"], { cwd: p.dir, env });
    expect(get.stdout).toContain("  status:        failed: failed the handshake: tools/list answered -32603 fetch failed");
    expect(get.stdout).toMatch(/ {2}server: +fixture /);
    expect(get.stdout).toContain("  instructions:");
  });
});

describe("scopes through the agent", () => {
  test("a local entry shadows the project's: the agent runs the local one, and mcp list says which won", async () => {
    const home = tempDir("agent-home-");
    const p = project((b) => ({ fx: fixtureServer("--pid-file", join(b.dir, "project.pid")) }), done);
    const local = fixtureServer("--pid-file", join(p.dir, "local.pid"));
    writeFileSync(join(home, ".claude.json"), JSON.stringify({ projects: { [p.dir]: { mcpServers: { fx: local } } } }));
    const r = await p.run("hi", { env: { HOME: home } });
    expect(r.code).toBe(0);
    expect([existsSync(join(p.dir, "local.pid")), existsSync(join(p.dir, "project.pid"))]).toEqual([true, false]);
    const list = await runAgent(["mcp", "list"], { cwd: p.dir, env: { HOME: home } });
    expect(list.stdout.split("\n")[1]).toBe("    local (~/.claude.json); shadows project (.mcp.json)");
  });
});
