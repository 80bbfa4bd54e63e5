/**
 * MCP tools through the whole agent: what the model is offered, what the server receives for a
 * call, and what goes back to the model as the tool_result (MCP 2025-11-25 server/tools;
 * Anthropic tool_use / tool_result).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, tempDir } from "../../support/run.ts";
import { lines, offered, project, received, stopProjects, toolNames, toolResult, toolResults } from "../../support/mcp.ts";

afterEach(stopProjects);

const API_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("offered to the model", () => {
  test("as mcp__<server>__<tool>, with description and input_schema, after the built-ins", async () => {
    const p = project({ fx: fixtureServer() }, [reply(text("ok"))]);
    const r = await p.run("hi");
    expect(r.code).toBe(0);
    const tools = [...offered(p.model.requests[0]!).values()];
    const names = toolNames(p.model.requests[0]!);
    expect(names.slice(0, 6)).toEqual(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]);
    expect(names.filter((n) => n.startsWith("mcp__fx__"))).toHaveLength(14);
    expect(tools.find((t) => t.name === "mcp__fx__echo")).toEqual({
      name: "mcp__fx__echo",
      description: "Returns its text argument.",
      input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    });
  });

  test("names with dots, spaces and 100 characters become valid, unique names and are routed back", async () => {
    const logFile = join(tempDir(), "fx.log");
    const p = project({ fx: fixtureServer("--weird-names", "--log-file", logFile) }, [
      (req) => {
        const weird = toolNames(req).filter((n) => /^mcp__fx__(dotted|has|a_tool_name)/.test(n));
        return reply(...weird.map((n) => toolUse(n, {})));
      },
      reply(text("done")),
    ]);
    const r = await p.run("call the odd ones");
    expect(r.code).toBe(0);
    const names = toolNames(p.model.requests[0]!);
    for (const n of names) expect(n).toMatch(API_NAME);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("mcp__fx__dotted_name");
    expect(names).toContain("mcp__fx__has_space");
    // Each offered name reached the server as the tool's own MCP name.
    const called = received(logFile)
      .filter((m) => m.method === "tools/call")
      .map((m) => m.params.name);
    expect(called.sort()).toEqual(["a_tool_name_that_is_far_too_long_for_the_messages_api_".padEnd(100, "x"), "dotted.name", "has space"]);
    expect(
      toolResults(p.model.requests[1]!)
        .map((b) => b.content)
        .sort(),
    ).toEqual([`ran ${"a_tool_name_that_is_far_too_long_for_the_messages_api_".padEnd(100, "x")}`, "ran dotted.name", "ran has space"]);
  });

  test("a server name containing __ is routed by table, not by splitting the name", async () => {
    const p = project({ my__srv: fixtureServer(), my: fixtureServer() }, [reply(toolUse("mcp__my__srv__echo", { text: "to my__srv" })), reply(text("done"))]);
    const r = await p.run("go");
    expect(r.code).toBe(0);
    const names = toolNames(p.model.requests[0]!);
    expect(names).toContain("mcp__my__srv__echo");
    expect(names).toContain("mcp__my__echo");
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ content: "to my__srv" });
  });

  test("schemas are normalised (none → empty object, top-level anyOf merged); a non-object one is left out with a warning", async () => {
    const p = project({ fx: fixtureServer("--bad-schemas") }, [reply(toolUse("mcp__fx__anyof_schema", { id: "1", email: "a@b.c" })), reply(text("ok"))]);
    const r = await p.run("schemas");
    expect(r.code).toBe(0);
    const tools = offered(p.model.requests[0]!);
    expect(tools.get("mcp__fx__no_schema")!.input_schema).toEqual({ type: "object", properties: {} });
    expect(tools.get("mcp__fx__anyof_schema")!.input_schema).toEqual({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" }, email: { type: "string" } },
      required: ["id"],
    });
    expect(tools.has("mcp__fx__string_schema")).toBe(false);
    expect(lines(r.stderr)).toEqual(['MCP server "fx": tool "string_schema" left out: its inputSchema is not an object schema']);
    expect(toolResult(p.model.requests[1]!).content).toBe("ran anyof_schema");
  });
});

describe("calls and results", () => {
  test("a call reaches the server as tools/call with the MCP name and the arguments; text comes back", async () => {
    const logFile = join(tempDir(), "fx.log");
    const p = project({ fx: fixtureServer("--log-file", logFile) }, [reply(toolUse("mcp__fx__add", { a: 2, b: 40 }, "toolu_add")), reply(text("42 it is"))]);
    const r = await p.run("add");
    expect([r.code, r.stdout]).toEqual([0, "42 it is\n"]);
    const call = received(logFile).find((m) => m.method === "tools/call")!;
    expect(call.params).toMatchObject({ name: "add", arguments: { a: 2, b: 40 } });
    expect(toolResult(p.model.requests[1]!)).toEqual({ type: "tool_result", tool_use_id: "toolu_add", content: "42" } as any);
  });

  test("several text blocks are joined with newlines", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__multi", {})), reply(text("ok"))]);
    expect((await p.run("multi")).code).toBe(0);
    expect(toolResult(p.model.requests[1]!).content).toBe("one\ntwo\nthree");
  });

  test("isError: true becomes is_error with the server's text", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__fail", {})), reply(text("ok"))]);
    expect((await p.run("fail")).code).toBe(0);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ is_error: true, content: "fixture failure" });
  });

  test("a JSON-RPC error becomes is_error carrying the error's message", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__rpc_error", {})), reply(text("ok"))]);
    const r = await p.run("rpc");
    expect(r.code).toBe(0);
    const result = toolResult(p.model.requests[1]!);
    expect(result.is_error).toBe(true);
    expect(result.content).toContain("fixture rpc error");
    expect(result.content).toContain('"fx"');
  });

  test("an image block reaches the model as an image inside the tool_result", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__image", {})), reply(text("ok"))]);
    expect((await p.run("image")).code).toBe(0);
    const [block] = toolResult(p.model.requests[1]!).content;
    expect(block).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
  });

  test("structuredContent without content reaches the model as JSON text", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__structured", {})), reply(text("ok"))]);
    expect((await p.run("structured")).code).toBe(0);
    expect(JSON.parse(toolResult(p.model.requests[1]!).content)).toEqual({ temperature: 22.5, conditions: "sunny" });
  });

  test("a crash mid-call: an error result naming the server, never sent again; the next call waits for the restart", async () => {
    const p = project({ fx: fixtureServer(), other: fixtureServer() }, [
      reply(toolUse("mcp__fx__crash", {})),
      reply(toolUse("mcp__fx__echo", { text: "again" })),
      reply(toolUse("mcp__other__echo", { text: "still here" })),
      reply(text("survived")),
    ]);
    const r = await p.run("crash it");
    expect([r.code, r.stdout]).toEqual([0, "survived\n"]);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ is_error: true, content: 'MCP server "fx" exited during the call' });
    expect(toolResult(p.model.requests[2]!)).toMatchObject({ content: "again" });
    expect(toolResult(p.model.requests[3]!)).toMatchObject({ content: "still here" });
    // The crash is reported once, in a line naming the restart its next call makes.
    expect(r.stderr.split('MCP server "fx" exited with code 1').length - 1).toBe(1);
    expect(r.stderr).toMatch(/^MCP server "fx" exited with code 1.*; its next call restarts it \(restart 1 of at most 3 in 5 minutes\)$/m);
  });
});
