/**
 * Print-mode flags with Claude Code's names and shapes, through the real program.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

describe("--output-format", () => {
  test("json prints one result object", async () => {
    server = startModelServer([reply(toolUse("Glob", { pattern: "*" })), reply(text("the answer"))]);
    const r = await runAgent(["-p", "go", "--output-format", "json"], { cwd: tempDir(), model: server.url });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!);
    expect(result.type).toBe("result");
    expect(result.subtype).toBe("success");
    expect(result.is_error).toBe(false);
    expect(result.result).toBe("the answer");
    expect(result.num_turns).toBe(2);
    expect(result.duration_ms).toBeGreaterThanOrEqual(result.duration_api_ms);
    expect(result.usage).toEqual({ input_tokens: 20, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    // The default model is in the price table: 20 input and 10 output tokens at $3 and $15 per million.
    expect(result.total_cost_usd).toBeCloseTo((20 * 3 + 10 * 15) / 1e6, 12);
    expect(result.session_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("json with --max-turns reports error_max_turns", async () => {
    server = startModelServer([reply(toolUse("Glob", { pattern: "*" })), reply(text("late"))]);
    const r = await runAgent(["-p", "go", "--output-format", "json", "--max-turns", "1"], { cwd: tempDir(), model: server.url });
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result.subtype).toBe("error_max_turns");
    expect(result.is_error).toBe(true);
    expect(result.errors).toEqual(["reached --max-turns 1 before the model finished"]);
  });

  test("stream-json prints init, assistant and user events, then the result", async () => {
    server = startModelServer([reply(toolUse("Glob", { pattern: "*.x" }, "toolu_s1")), reply(text("streamed"))]);
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer(), broken: { command: "no-such-command-here" } });
    const r = await runAgent(["-p", "go", "--output-format", "stream-json"], { cwd: dir, model: server.url });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(["system", "assistant", "user", "assistant", "result"]);
    const [init, first, user, , result] = events;
    expect(init.subtype).toBe("init");
    expect(init.cwd).toBe(dir);
    expect(init.tools).toContain("Read");
    expect(init.tools).toContain("mcp__fx__echo");
    expect(init.mcp_servers).toEqual([
      { name: "fx", status: "connected" },
      { name: "broken", status: "failed" },
    ]);
    expect(typeof init.model).toBe("string");
    expect(first.message.content[0]).toMatchObject({ type: "tool_use", id: "toolu_s1", name: "Glob" });
    expect(user.message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_s1" });
    expect(result).toMatchObject({ type: "result", subtype: "success", result: "streamed", num_turns: 2 });
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
  });
});

describe("MCP config flags", () => {
  test("--mcp-config adds servers from a file or a JSON string; --strict-mcp-config ignores .mcp.json", async () => {
    server = startModelServer([reply(text("1")), reply(text("2"))]);
    const dir = tempDir();
    writeMcpConfig(dir, { local: fixtureServer() });
    writeFileSync(join(dir, "extra.json"), JSON.stringify({ mcpServers: { fromfile: fixtureServer() } }));
    const inline = JSON.stringify({ mcpServers: { inline: fixtureServer() } });
    await runAgent(["-p", "a", "--mcp-config", "extra.json", "--mcp-config", inline], { cwd: dir, model: server.url });
    const names = (i: number) => server!.requests[i]!.body.tools.map((t: any) => t.name).filter((n: string) => n.endsWith("__echo"));
    expect(names(0)).toEqual(["mcp__local__echo", "mcp__fromfile__echo", "mcp__inline__echo"]);
    await runAgent(["-p", "b", "--strict-mcp-config", "--mcp-config", inline], { cwd: dir, model: server.url });
    expect(names(1)).toEqual(["mcp__inline__echo"]);
  });

  test("--disallowedTools removes a built-in tool and a whole server", async () => {
    server = startModelServer([reply(text("ok"))]);
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer(), other: fixtureServer() });
    await runAgent(["-p", "a", "--disallowedTools", "Bash,mcp__fx", "--disallowedTools", "mcp__other__add"], { cwd: dir, model: server.url });
    const names: string[] = server.requests[0]!.body.tools.map((t: any) => t.name);
    expect(names).not.toContain("Bash");
    expect(names.some((n) => n.startsWith("mcp__fx__"))).toBe(false);
    expect(names).toContain("mcp__other__echo");
    expect(names).not.toContain("mcp__other__add");
    expect(names).toContain("Read");
  });

  test("a --disallowedTools entry that names nothing is reported", async () => {
    server = startModelServer([reply(text("ok"))]);
    const r = await runAgent(["-p", "a", "--disallowedTools", "Bsh,mcp__nosuch,Bash"], { cwd: tempDir(), model: server.url });
    expect(r.stdout).toBe("ok\n");
    expect(r.stderr).toBe('--disallowedTools: no tool or MCP server named "Bsh"\n--disallowedTools: no tool or MCP server named "mcp__nosuch"\n');
  });
});

describe("`mcp` that is not the inspector", () => {
  test("a -p prompt `mcp` and a --model value `mcp` go to the model", async () => {
    server = startModelServer([reply(text("1")), reply(text("2"))]);
    const dir = tempDir();
    const prompt = await runAgent(["-p", "mcp"], { cwd: dir, model: server.url });
    expect(prompt).toMatchObject({ code: 0, stdout: "1\n" });
    expect(server.requests[0]!.body.messages[0].content[0].text).toBe("mcp");
    const model = await runAgent(["--model", "mcp", "hello"], { cwd: dir, model: server.url });
    expect(model).toMatchObject({ code: 0, stdout: "2\n" });
    expect(server.requests[1]!.body).toMatchObject({ model: "mcp", messages: [{ content: [{ text: "hello" }] }] });
  });
});

describe("system prompt flags", () => {
  test("--system-prompt replaces the identity; --append-system-prompt appends", async () => {
    server = startModelServer([reply(text("1")), reply(text("2"))]);
    const dir = tempDir();
    await runAgent(["-p", "a", "--system-prompt", "You are a pirate."], { cwd: dir, model: server.url });
    await runAgent(["-p", "b", "--append-system-prompt", "Always answer in French."], { cwd: dir, model: server.url });
    const [replaced, appended] = server.requests.map((r) => r.body.system as string);
    expect(replaced!.startsWith("You are a pirate.")).toBe(true);
    expect(replaced).not.toContain("coding agent");
    expect(appended).toContain("coding agent");
    expect(appended!.trimEnd().endsWith("Always answer in French.")).toBe(true);
  });
});

describe("diagnostics", () => {
  test("--verbose shows server stderr prefixed with [server]; without it stderr stays quiet", async () => {
    server = startModelServer([reply(text("quiet")), reply(text("loud"))]);
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer("--stderr-lines", "2") });
    const quiet = await runAgent(["-p", "a"], { cwd: dir, model: server.url });
    expect(quiet.stdout).toBe("quiet\n");
    expect(quiet.stderr).toBe("");
    const loud = await runAgent(["-p", "a", "--verbose"], { cwd: dir, model: server.url });
    expect(loud.stdout).toBe("loud\n");
    expect(loud.stderr).toMatch(/^\[fx\] /m);
    expect(loud.stderr).toContain("MCP: 1 connected");
  });

  test("--debug shows the JSON-RPC traffic on stderr", async () => {
    server = startModelServer([reply(text("dbg"))]);
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer() });
    const r = await runAgent(["-p", "a", "--debug"], { cwd: dir, model: server.url });
    expect(r.stdout).toBe("dbg\n");
    expect(r.stderr).toContain('"method":"initialize"');
    expect(r.stderr).toContain('"method":"tools/list"');
  });
});
