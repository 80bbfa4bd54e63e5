/**
 * MCP prompts as slash commands through the whole agent: `/mcp__<server>__<prompt> args` →
 * prompts/get → the prompt's messages as the user message (MCP 2025-11-25 server/prompts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text } from "../../support/model-server.ts";
import { fixtureServer, tempDir } from "../../support/run.ts";
import { lines, methods, project, received, stopProjects, userBlocks } from "../../support/mcp.ts";

afterEach(stopProjects);

/** A project with one fixture server "fx" logging what it receives; the model answers "ok". */
function withFixture(...flags: string[]) {
  const logFile = join(tempDir(), "fx.log");
  const p = project({ fx: fixtureServer("--log-file", logFile, ...flags) }, [reply(text("ok"))]);
  const gets = () => received(logFile).filter((m) => m.method === "prompts/get");
  return { p, logFile, gets };
}

describe("prompts/get and the user message", () => {
  test("/mcp__fx__greet Alice sends prompts/get and the prompt's text is the user message", async () => {
    const { p, gets } = withFixture();
    const r = await p.run("/mcp__fx__greet Alice");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "ok\n", ""]);
    expect(gets().map((m) => m.params)).toEqual([{ name: "greet", arguments: { name: "Alice" } }]);
    expect(p.model.requests[0]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Hello Alice", cache_control: { type: "ephemeral" } }] },
    ]);
  });

  test("arguments map by position, with shell-style quotes", async () => {
    const { p, gets } = withFixture();
    const r = await p.run(`/mcp__fx__needs_two "Login fails on Safari" 'very high'`);
    expect(r.code).toBe(0);
    expect(gets()[0]!.params.arguments).toEqual({ title: "Login fails on Safari", priority: "very high" });
    expect(userBlocks(p.model.requests[0]!)).toEqual([{ type: "text", text: 'Create issue "Login fails on Safari" with priority very high' }]);
  });

  test("words beyond the declared arguments join the last one", async () => {
    const { p, gets } = withFixture();
    const r = await p.run("/mcp__fx__greet Alice warmly and at length");
    expect(r.code).toBe(0);
    expect(gets()[0]!.params.arguments).toEqual({ name: "Alice", style: "warmly and at length" });
    expect(userBlocks(p.model.requests[0]!)[0].text).toBe("Hello Alice (warmly and at length)");
  });

  test("an absent optional argument is omitted, not sent empty", async () => {
    const { p, gets } = withFixture();
    expect((await p.run("/mcp__fx__needs_two Crash")).code).toBe(0);
    expect(gets()[0]!.params.arguments).toEqual({ title: "Crash" });
  });

  test("a prompt of several messages (text, image, embedded resource) becomes their blocks, in order", async () => {
    const { p } = withFixture();
    expect((await p.run("/mcp__fx__multi")).code).toBe(0);
    const blocks = userBlocks(p.model.requests[0]!);
    expect(blocks.map((b) => b.type)).toEqual(["text", "image", "text"]);
    expect([blocks[0].text, blocks[2].text]).toEqual(["Here is some context.", "hello from fixture"]);
    expect(blocks[1].source).toMatchObject({ type: "base64", media_type: "image/png" });
  });

  test("prompts on a second page of prompts/list are found (--paginate 2)", async () => {
    const { p } = withFixture("--paginate", "2");
    const r = await p.run("/mcp__fx__needs_two Paged");
    expect(r.code).toBe(0);
    expect(userBlocks(p.model.requests[0]!)[0].text).toBe('Create issue "Paged" with priority normal');
  });
});

describe("prompt names a command word cannot hold", () => {
  test("`weekly report`, `a/b` and `a_b` are listed by /help as typed, and each typed name reaches its own prompt", async () => {
    const { p, gets } = withFixture("--weird-prompt-names");
    const help = await p.run("/help");
    expect(help.code).toBe(0);
    for (const command of ["/mcp__fx__weekly_report", "/mcp__fx__a_b_2", "/mcp__fx__a_b "]) expect(help.stdout).toContain(command);
    expect(help.stdout).not.toContain("/mcp__fx__weekly report");
    expect((await p.run("/mcp__fx__weekly_report Platform")).code).toBe(0);
    expect((await p.run("/mcp__fx__a_b_2")).code).toBe(0);
    expect((await p.run("/mcp__fx__a_b")).code).toBe(0);
    expect(gets().map((m) => m.params)).toEqual([
      { name: "weekly report", arguments: { team: "Platform" } },
      { name: "a/b", arguments: {} },
      { name: "a_b", arguments: {} },
    ]);
    expect(p.model.requests.map((r) => userBlocks(r)[0].text)).toEqual(["Weekly report for Platform", "This is prompt a/b", "This is prompt a_b"]);
  });
});

describe("errors before any model call", () => {
  test("a missing required argument: one usage line, exit 1, no prompts/get sent, no model call", async () => {
    const { p, logFile, gets } = withFixture();
    const r = await p.run("/mcp__fx__needs_two");
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(["error: usage: /mcp__fx__needs_two <title> [priority]"]);
    expect(r.stdout).toBe("");
    expect(gets()).toEqual([]);
    // The server did get its start-up traffic, so the log is being written at all.
    expect(methods(logFile)).toContain("prompts/list");
    expect(p.model.requests).toHaveLength(0);
  });

  test("a JSON-RPC error from prompts/get: one line naming the command and the error, exit 1, no model call", async () => {
    const { p, gets } = withFixture("--prompt-error");
    const r = await p.run("/mcp__fx__greet Bob");
    expect(r.code).toBe(1);
    expect(gets()).toHaveLength(1);
    const err = lines(r.stderr);
    expect(err).toHaveLength(1);
    expect(err[0]).toStartWith("error: /mcp__fx__greet: prompts/get failed: ");
    expect(err[0]).toContain("fixture prompt error (--prompt-error)");
    expect(p.model.requests).toHaveLength(0);
  });

  test("an unknown prompt of a known server is an unknown command, exit 1", async () => {
    const { p, gets } = withFixture();
    const r = await p.run("/mcp__fx__nosuch x");
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(['error: unknown command: /mcp__fx__nosuch (server "fx" has no prompt "nosuch")']);
    expect(gets()).toEqual([]);
    expect(p.model.requests).toHaveLength(0);
  });
});

describe("servers that did not declare prompts", () => {
  test("are not asked prompts/list at start-up, but are on an explicit /mcp__x__y, and the prompt works", async () => {
    const { p, logFile, gets } = withFixture("--undeclared-prompts");
    const r = await p.run("/mcp__fx__greet Carol");
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const seen = methods(logFile);
    // One prompts/list, for the command, after the start-up lists (which had none).
    expect(seen.filter((m) => m === "prompts/list")).toHaveLength(1);
    expect(seen.indexOf("prompts/list")).toBeGreaterThan(Math.max(seen.indexOf("tools/list"), seen.indexOf("resources/list")));
    expect(gets()).toHaveLength(1);
    expect(userBlocks(p.model.requests[0]!)[0].text).toBe("Hello Carol");
  });

  test("a -32601 answer to that prompts/list means no prompts: unknown command, exit 1", async () => {
    const { p, logFile } = withFixture("--no-prompts");
    const r = await p.run("/mcp__fx__greet Dave");
    expect(r.code).toBe(1);
    expect(methods(logFile)).toContain("prompts/list");
    expect(lines(r.stderr)).toEqual(['error: unknown command: /mcp__fx__greet (server "fx" has no prompt "greet")']);
    expect(p.model.requests).toHaveLength(0);
  });

  test("a server name containing __ resolves to the longest configured name", async () => {
    const p = project({ my__srv: fixtureServer(), my: fixtureServer() }, [reply(text("ok"))]);
    const r = await p.run("/mcp__my__srv__greet Erin");
    expect(r.code).toBe(0);
    expect(userBlocks(p.model.requests[0]!)[0].text).toBe("Hello Erin");
  });
});
