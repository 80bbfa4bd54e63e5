/**
 * Remote MCP servers through the whole agent (MCP 2025-11-25, basic/transports): `.mcp.json`
 * entries of type http and sse against our HTTP fixture server, with the scripted model.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { httpFixture, lines, project, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";
import { fixtureServer, runAgent } from "../../support/run.ts";

afterEach(stopProjects);
const fixture = httpFixture;

describe("type http (Streamable HTTP)", () => {
  for (const mode of ["json", "sse"]) {
    test(`${mode} replies: the model calls a tool; the session is DELETEd at the end; exit 0 with only the answer on stdout`, async () => {
      const f = fixture(...(mode === "sse" ? ["--sse"] : []));
      const p = project({ remote: { type: "http", url: f.url } }, [reply(toolUse("mcp__remote__echo", { text: "over http" })), reply(text("done"))]);
      const r = await p.run("go");
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      expect(toolNames(p.model.requests[0]!)).toContain("mcp__remote__echo");
      expect(toolResult(p.model.requests[1]!).content).toBe("over http");
      expect(f.requests.filter((q) => q.method === "DELETE")).toHaveLength(1);
      expect(f.sessions.size).toBe(0);
    });
  }

  test("--verbose: the GET stream our own shutdown closes is not reported as broken", async () => {
    // A primed stream is one being read when we close it (the npm everything server primes its GET stream).
    const f = fixture("--prime-get");
    const p = project({ remote: { type: "http", url: f.url } }, [reply(toolUse("mcp__remote__echo", { text: "over http" })), reply(text("done"))]);
    const r = await p.run("go", { args: ["--verbose"] });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(f.requests.some((q) => q.method === "GET")).toBe(true);
    expect(r.stderr).not.toContain("GET stream");
    expect(r.stderr).not.toContain("aborted");
  });

  test("a url without type is http; sampling and roots are served over the POST's stream", async () => {
    const f = fixture("--sse");
    const p = project({ remote: { url: f.url } }, [
      reply(toolUse("mcp__remote__sample", { prompt: "say hi" })),
      reply(text("sampled: hi")),
      reply(toolUse("mcp__remote__roots", {})),
      reply(text("done")),
    ]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[2]!).content).toBe("sampled: hi");
    expect(toolResult(p.model.requests[3]!).content).toContain(`"uri":"file://${p.dir}"`);
  });

  test("a call held open past Bun's own fetch idle timeout still completes (the idle timeout is off)", async () => {
    // BUN_CONFIG_HTTP_IDLE_TIMEOUT=2 makes Bun's default idle cut come within about 8 s; the call takes 10 s.
    const f = fixture();
    const p = project({ remote: { type: "http", url: f.url } }, [reply(toolUse("mcp__remote__slow", { ms: 10_000 })), reply(text("done"))]);
    const r = await p.run("go", { env: { BUN_CONFIG_HTTP_IDLE_TIMEOUT: "2" } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!).content).toBe("slept 10000 ms");
  }, 40_000);

  test("start-up failures are one line naming the server, the status and a bounded body; the others still work", async () => {
    const bad = fixture("--status", "502");
    const closed = fixture();
    const closedUrl = closed.url;
    closed.stop();
    const p = project({ bad: { type: "http", url: bad.url }, gone: { type: "http", url: closedUrl }, ok: fixtureServer() }, [
      reply(toolUse("mcp__ok__echo", { text: "healthy" })),
      reply(text("done")),
    ]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const err = lines(r.stderr);
    expect(err).toHaveLength(2);
    expect(err).toContainEqual(
      expect.stringMatching(/^MCP server "bad" failed to start: HTTP 502 Bad Gateway from http:\/\/127\.0\.0\.1:\d+\/mcp \(body: upstream exploded: /),
    );
    expect(err).toContainEqual(expect.stringMatching(/^MCP server "gone" failed to start: cannot connect to http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/));
    expect(err.every((l) => l.length < 600)).toBe(true);
  });

  test("a static Authorization header from ${VAR} reaches the server; its value is never printed", async () => {
    const f = fixture("--bearer", "s3cret-token");
    const p = project({ remote: { type: "http", url: f.url, headers: { Authorization: "Bearer ${REMOTE_TOKEN}" } } }, [
      reply(toolUse("mcp__remote__echo", { text: "authorized" })),
      reply(text("done")),
    ]);
    const r = await p.run("go", { env: { REMOTE_TOKEN: "s3cret-token" } });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    const get = await runAgent(["mcp", "get", "remote"], { cwd: p.dir, env: { REMOTE_TOKEN: "s3cret-token" } });
    expect(get.stdout).toContain("headers:       Authorization: ***");
    expect(get.stdout + get.stderr).not.toContain("s3cret");
    const list = await runAgent(["mcp", "list"], { cwd: p.dir, env: { REMOTE_TOKEN: "s3cret-token" } });
    expect(list.stdout).toMatch(/^remote\s+connected\s+http http:\/\/127\.0\.0\.1:\d+\/mcp\s+\d+ tools/);
    const unauthorized = await runAgent(["mcp", "list"], { cwd: p.dir, env: { REMOTE_TOKEN: "wrong" } });
    expect(unauthorized.stdout).toContain("HTTP 401 Unauthorized");
    expect(unauthorized.stdout).toContain("the Authorization header in the config was refused");
    expect(unauthorized.stdout + unauthorized.stderr).not.toContain("wrong");
    expect(unauthorized.code).toBe(1);
  });
});

describe("a server that wants a fixed token", () => {
  test("its 401 without OAuth metadata says the token goes in headers, not that mcp login will help", async () => {
    const f = fixture("--bearer", "s3cret-token");
    const p = project({ remote: { type: "http", url: f.url } }, [reply(text("done"))]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(lines(r.stderr)).toEqual([
      `MCP server "remote" failed to start: ${f.url} answered 401: the server publishes no OAuth metadata, so there is nothing to log in to; if it takes a fixed token, set it in the entry's "headers" (e.g. "Authorization": "Bearer \${TOKEN}")`,
    ]);
    const list = await runAgent(["mcp", "list"], { cwd: p.dir });
    expect(list.stdout).toContain("nothing to log in to");
    expect(list.stdout).not.toContain("mcp login");
  });
});

describe("type sse (legacy HTTP+SSE)", () => {
  test("tools through the legacy transport, and an http entry falling back to it", async () => {
    const legacy = fixture();
    const fallback = fixture("--legacy", "404");
    const p = project({ old: { type: "sse", url: legacy.sseUrl }, auto: { type: "http", url: fallback.url } }, [
      reply(toolUse("mcp__old__echo", { text: "legacy" }), toolUse("mcp__auto__add", { a: 2, b: 3 })),
      reply(text("done")),
    ]);
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    const results = p.model.requests[1]!.body.messages.at(-1).content.filter((b: any) => b.type === "tool_result");
    expect(results.map((b: any) => (typeof b.content === "string" ? b.content : b.content[0].text))).toEqual(["legacy", "5"]);
  });
});
