/**
 * The npm everything server over HTTP (`streamableHttp` and `sse` modes, MCP 2025-11-25
 * basic/transports) through the whole agent and the inspector: tools, a prompt, a resource, its
 * requests to us (sampling, roots), a long-running tool with progress, and a clean end.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { pathToFileURL } from "node:url";
import { startEverythingHttp, stopRemotePeers } from "../../support/http-peers.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { project, stopProjects, toolNames, toolResults, userBlocks } from "../../support/mcp.ts";
import { baseEnv, PROGRAM, runAgent } from "../../support/run.ts";

afterEach(() => {
  stopProjects();
  stopRemotePeers();
});

const MODES = [
  { mode: "streamableHttp", type: "http" },
  { mode: "sse", type: "sse" },
] as const;

for (const { mode, type } of MODES) {
  describe(`everything in ${mode} mode, as type ${type}`, () => {
    test("tools, sampling and roots through the agent; only the answer on stdout", async () => {
      const server = await startEverythingHttp(mode);
      const p = project({ everything: { type, url: server.url } }, [
        reply(toolUse("mcp__everything__echo", { message: "over the wire" }), toolUse("mcp__everything__get-sum", { a: 2, b: 40 })),
        reply(toolUse("mcp__everything__trigger-sampling-request", { prompt: "name a colour", maxTokens: 20 })),
        reply(text("teal")),
        reply(toolUse("mcp__everything__get-roots-list", {})),
        reply(text("done")),
      ]);
      const r = await p.run("go");
      expect([r.code, r.stdout]).toEqual([0, "done\n"]);
      expect(toolNames(p.model.requests[0]!)).toContain("mcp__everything__echo");
      const [echo, sum] = toolResults(p.model.requests[1]!);
      expect(echo.content).toBe("Echo: over the wire");
      expect(sum.content).toContain("42");
      expect(p.model.requests[2]!.body.messages[0].content[0].text).toContain("name a colour");
      expect(toolResults(p.model.requests[3]!)[0].content).toContain('"text": "teal"');
      expect(toolResults(p.model.requests[4]!)[0].content).toContain(`URI: ${pathToFileURL(p.dir).href}`);
    }, 30_000);

    test("a prompt as a command and a resource as a mention", async () => {
      const server = await startEverythingHttp(mode);
      const p = project({ everything: { type, url: server.url } }, [reply(text("sunny")), reply(text("read it"))]);
      expect((await p.run("/mcp__everything__args-prompt Paris France")).stdout).toBe("sunny\n");
      expect(userBlocks(p.model.requests[0]!)).toEqual([{ type: "text", text: "What's weather in Paris, France?" }]);
      const uri = "demo://resource/static/document/architecture.md";
      expect((await p.run(`summarise @everything:${uri}`)).code).toBe(0);
      expect(userBlocks(p.model.requests[1]!)[1].text).toStartWith(`<attachment source="everything:${uri}">\n`);
    }, 30_000);

    test.skipIf(!Bun.which("script"))(
      "a long-running tool with progress on a terminal",
      async () => {
        const server = await startEverythingHttp(mode);
        const p = project({ everything: { type, url: server.url } }, [
          reply(toolUse("mcp__everything__trigger-long-running-operation", { duration: 1, steps: 3 })),
          reply(text("finished")),
        ]);
        const proc = Bun.spawn(["script", "-qec", `${PROGRAM} -p go`, "/dev/null"], {
          cwd: p.dir,
          env: baseEnv(p.model.url) as Record<string, string>,
          stdout: "pipe",
          stdin: "ignore",
        });
        const screen = await new Response(proc.stdout).text();
        expect(await proc.exited).toBe(0);
        expect(screen).toContain("mcp__everything__trigger-long-running-operation: 1/3");
        expect(screen).toContain("mcp__everything__trigger-long-running-operation: 3/3 (100%)");
        expect(toolResults(p.model.requests[1]!)[0].content).toContain("Long running operation completed");
      },
      30_000,
    );

    test("mcp list, tools and call through the inspector", async () => {
      const server = await startEverythingHttp(mode);
      const p = project({ everything: { type, url: server.url } }, []);
      const env = { ANTHROPIC_API_KEY: undefined };
      const list = await runAgent(["mcp", "list"], { cwd: p.dir, env });
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^everything\\s+connected\\s+${type} ${server.url.replace(/[./]/g, "\\$&")}\\s+\\d+ tools`));
      const tools = await runAgent(["mcp", "tools", "everything"], { cwd: p.dir, env });
      expect(tools.stdout).toContain("get-sum");
      const call = await runAgent(["mcp", "call", "everything", "echo", '{"message":"hi"}'], { cwd: p.dir, env });
      expect([call.code, call.stdout.trim()]).toEqual([0, "Echo: hi"]);
    }, 30_000);
  });
}

describe("everything's priming events", () => {
  test("skipped quietly under --verbose; named under --debug", async () => {
    const server = await startEverythingHttp("streamableHttp");
    const p = project({ everything: { type: "http", url: server.url } }, [
      reply(toolUse("mcp__everything__echo", { message: "hi" })),
      reply(text("done")),
      reply(toolUse("mcp__everything__echo", { message: "hi" })),
      reply(text("done")),
    ]);
    const verbose = await p.run("go", { args: ["--verbose"] });
    expect([verbose.code, verbose.stdout]).toEqual([0, "done\n"]);
    expect(verbose.stderr).not.toContain("skipped an SSE event");
    const debug = await p.run("go", { args: ["--debug"] });
    expect(debug.code).toBe(0);
    expect(debug.stderr).toMatch(/MCP server "everything": skipped an SSE event \(priming, id "[^"]+"\)/);
  }, 30_000);
});
