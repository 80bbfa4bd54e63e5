/**
 * Servers in the wild, at the protocol level, through the whole agent (MCP 2025-11-25
 * basic/lifecycle, basic/utilities/cancellation, server/utilities/pagination, client/roots,
 * client/sampling): requests from the server, crashes between calls, calls that never end,
 * lists that change or page (or loop).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer } from "../../support/run.ts";
import { lines, project, type AgentProcess, received, stopProjects, toolNames, toolResult, type ProjectBasics } from "../../support/mcp.ts";

afterEach(stopProjects);

const logFile = (p: ProjectBasics) => join(p.dir, "fx.log");
const fxTools = (req: Parameters<typeof toolNames>[0]) => toolNames(req).filter((n) => n.startsWith("mcp__fx__"));

describe("the server talks first", () => {
  test("a ping and a notification before the answer: we answer the ping, then get our result", async () => {
    const p = project(
      (b) => ({ fx: fixtureServer("--server-requests-first", "--log-file", logFile(b)) }),
      [reply(toolUse("mcp__fx__echo", { text: "after ping" })), reply(text("done"))],
    );
    const r = await p.run("go");
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(toolResult(p.model.requests[1]!).content).toBe("after ping");
    expect(received(logFile(p)).filter((m) => m.id === "fixture-1")).toEqual([{ jsonrpc: "2.0", id: "fixture-1", result: {} }]);
  });

  test("roots/list is answered with the working directory as a file:// URI", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__roots", {})), reply(text("done"))]);
    expect((await p.run("roots")).code).toBe(0);
    const { roots } = JSON.parse(toolResult(p.model.requests[1]!).content);
    expect(roots).toHaveLength(1);
    expect(roots[0].uri).toBe(pathToFileURL(p.dir).href);
  });

  test("sampling/createMessage is answered by the model, with a stderr note naming the server", async () => {
    const p = project({ fx: fixtureServer() }, [
      reply(toolUse("mcp__fx__sample", { prompt: "Say something nice" })),
      reply(text("sampled: something nice")),
      reply(text("done")),
    ]);
    const r = await p.run("sample");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const sampling = p.model.requests[1]!.body;
    // Sampling requests get the same prompt-caching breakpoints as turns.
    expect(sampling.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Say something nice", cache_control: { type: "ephemeral" } }] }]);
    expect(sampling.max_tokens).toBe(100);
    expect(sampling.tools).toBeUndefined();
    expect(sampling.system).toBeUndefined(); // the server gave no systemPrompt: none is sent, not an empty one
    expect(toolResult(p.model.requests[2]!)).toMatchObject({ content: "sampled: something nice" });
    expect(lines(r.stderr)).toEqual(['MCP server "fx" asked the model for a completion (sampling/createMessage, up to 100 tokens)']);
  });

  test("--no-sampling refuses it: the server gets an error, the model is not asked", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__sample", { prompt: "Say something" })), reply(text("done"))]);
    const r = await p.run("sample", { args: ["--no-sampling"] });
    expect(r.code).toBe(0);
    expect(p.model.requests).toHaveLength(2);
    const result = toolResult(p.model.requests[1]!);
    expect(result.is_error).toBe(true);
    expect(result.content).toStartWith("sampling/createMessage failed: ");
  });
});

describe("calls that end badly", () => {
  test("a server that crashes between calls (--crash-after 1): the first result, then the next call waits for a restart and is answered", async () => {
    let agent!: AgentProcess;
    const p = project({ fx: fixtureServer("--crash-after", "1") }, [
      reply(toolUse("mcp__fx__echo", { text: "first" })),
      // The next call is made once the agent has reported the exit, so it meets a closed server.
      async () => {
        await agent.waitForStderr('MCP server "fx" exited');
        return reply(toolUse("mcp__fx__echo", { text: "second" }));
      },
      reply(text("done")),
    ]);
    agent = p.spawn("twice");
    const r = await agent.done;
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ content: "first" });
    expect(toolResult(p.model.requests[2]!)).toMatchObject({ content: "second" });
    // One line for the crash, naming the restart its next call made; the restart adds none. The
    // restarted process exits after its one call too; whether that is seen before the run ends is a race.
    expect(lines(r.stderr)[0]).toMatch(
      /^MCP server "fx" exited with code 1 \(stderr: .*--crash-after.*\); its next call restarts it \(restart 1 of at most 3 in 5 minutes\)$/,
    );
    expect(r.stderr).not.toContain("restarting it");
  });

  test("a call never answered: MCP_TOOL_TIMEOUT gives the model a timed-out error, and notifications/cancelled names the request", async () => {
    const p = project(
      (b) => ({ fx: fixtureServer("--never-answer-tools", "--log-file", logFile(b)) }),
      [reply(toolUse("mcp__fx__slow", { ms: 1 })), reply(text("done"))],
    );
    const r = await p.run("hang", { env: { MCP_TOOL_TIMEOUT: "300" } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({
      is_error: true,
      content: 'MCP tool slow on server "fx" timed out after 300 ms (MCP_TOOL_TIMEOUT); the call was cancelled',
    });
    const log = received(logFile(p));
    const call = log.find((m) => m.method === "tools/call")!;
    const cancelled = log.filter((m) => m.method === "notifications/cancelled");
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.params.requestId).toBe(call.id);
    expect(cancelled[0]!.params.reason).toBeString();
  });
});

describe("lists", () => {
  test("list_changed after the handshake: the new tool is offered on the next model call, and works", async () => {
    const p = project({ fx: fixtureServer("--list-changed-on-call") }, [
      reply(toolUse("mcp__fx__echo", { text: "trigger" })),
      reply(toolUse("mcp__fx__late_tool", {})),
      reply(text("done")),
    ]);
    const r = await p.run("change");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(fxTools(p.model.requests[0]!)).not.toContain("mcp__fx__late_tool");
    expect(fxTools(p.model.requests[1]!)).toContain("mcp__fx__late_tool");
    expect(toolResult(p.model.requests[2]!)).toMatchObject({ content: "late tool ran" });
  });

  test("paginated lists (--paginate 2) are followed to the end: every tool offered once", async () => {
    const p = project((b) => ({ fx: fixtureServer("--paginate", "2", "--log-file", logFile(b)) }), [reply(text("ok"))]);
    const r = await p.run("hi");
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(fxTools(p.model.requests[0]!)).toHaveLength(14);
    const cursors = received(logFile(p))
      .filter((m) => m.method === "tools/list")
      .map((m) => m.params?.cursor);
    expect(cursors).toEqual([undefined, "page-2", "page-4", "page-6", "page-8", "page-10", "page-12"]);
  });

  test("a cursor that repeats is guarded: one warning naming the server, the run goes on, no duplicate tools", async () => {
    const p = project({ fx: fixtureServer("--paginate", "2", "--repeat-cursor") }, [
      reply(toolUse("mcp__fx__echo", { text: "still works" })),
      reply(text("done")),
    ]);
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const err = lines(r.stderr);
    expect(err).toHaveLength(1);
    expect(err[0]).toContain('MCP server "fx"');
    expect(err[0]).toContain("repeated cursor");
    const names = toolNames(p.model.requests[0]!);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(toolResult(p.model.requests[1]!).content).toBe("still works");
  });
});
