/**
 * Streamable HTTP rules through the real program, each against one flag of our HTTP fixture:
 * redirects (307/308 keep method and body; another origin gets neither `Authorization` nor
 * `Mcp-Session-Id`), an expired session (404: one new initialize without the old id, one retry),
 * DELETE at shutdown (bounded when the server never answers, 405 fine) and a 401 without a token.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { HttpFixture, LoggedRequest } from "../../../fixtures/servers/http-server.ts";
import { httpFixture, lines, project, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { join } from "node:path";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

afterEach(stopProjects);
const fixture = httpFixture;

const methodOf = (r: LoggedRequest): string | undefined => (r.body ? JSON.parse(r.body).method : undefined);
const posts = (f: HttpFixture, method: string) => f.requests.filter((r) => r.method === "POST" && methodOf(r) === method);
const echoScript = (said: string) => [reply(toolUse("mcp__remote__echo", { text: said })), reply(text("done"))];

describe("redirects", () => {
  for (const status of ["307", "308"]) {
    test(`${status} on the same origin: every request is sent again to the new URL with its method, body and Authorization`, async () => {
      const f = fixture("--redirect", status);
      const p = project({ remote: { type: "http", url: f.url, headers: { Authorization: "Bearer s3cret" } } }, echoScript("moved"));
      const r = await p.run("go");
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      expect(toolResult(p.model.requests[1]!).content).toBe("moved");
      const asked = f.requests.filter((q) => q.path === "/mcp");
      const moved = f.requests.filter((q) => q.path === "/moved/mcp");
      // Concurrent requests may arrive in any order: compared as sorted lists.
      const sent = (list: LoggedRequest[]) => list.map((q) => `${q.method} ${q.body}`).sort();
      expect(sent(moved)).toEqual(sent(asked));
      expect(new Set(moved.map((q) => q.method))).toEqual(new Set(["POST", "GET", "DELETE"]));
      expect(moved.every((q) => q.headers.authorization === "Bearer s3cret")).toBe(true);
    });
  }

  test("307 to another origin: it never sees the config's headers (Authorization or any other) or Mcp-Session-Id, so the session cannot go on there (one line, exit 0)", async () => {
    const f = fixture("--redirect", "307", "--redirect-cross-origin");
    const headers = { Authorization: "Bearer s3cret", "X-Api-Key": "k3y" };
    const p = project({ remote: { type: "http", url: f.url, headers }, ok: fixtureServer() }, [
      reply(toolUse("mcp__ok__echo", { text: "local" })),
      reply(text("done")),
    ]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(
        /^MCP server "remote" failed the handshake: tools\/list could not be sent: HTTP 400 Bad Request from http:\/\/127\.0\.0\.1:\d+\/mcp .*no Mcp-Session-Id/,
      ),
    ]);
    const away = f.requests.filter((q) => q.origin === "secondary");
    expect(away.map(methodOf)).toContain("initialize");
    for (const q of away) {
      expect([q.headers.authorization, q.headers["x-api-key"], q.headers["mcp-session-id"]].map((h) => h ?? "none")).toEqual(["none", "none", "none"]);
    }
    // The configured origin itself still gets the header meant for it.
    const home = f.requests.filter((q) => q.origin === "primary");
    expect(home.length).toBeGreaterThan(1);
    expect(home.every((q) => q.headers.authorization === "Bearer s3cret" && q.headers["x-api-key"] === "k3y")).toBe(true);
  });
});

describe("an expired session (404)", () => {
  test("one new initialize without the old id, then the request once more: the call runs once and the new session is DELETEd", async () => {
    const f = fixture("--expire-on-call");
    const p = project({ remote: { type: "http", url: f.url } }, echoScript("after expiry"));
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(toolResult(p.model.requests[1]!).content).toBe("after expiry");
    const inits = posts(f, "initialize");
    expect(inits).toHaveLength(2);
    expect(inits.map((q) => q.headers["mcp-session-id"] ?? "none")).toEqual(["none", "none"]);
    const calls = posts(f, "tools/call");
    expect(calls).toHaveLength(2);
    const [old, renewed] = calls.map((q) => q.headers["mcp-session-id"]);
    expect(old).not.toBe(renewed);
    expect(f.sessions.has(old!)).toBe(false);
    expect(f.requests.indexOf(inits[1]!)).toBeGreaterThan(f.requests.indexOf(calls[0]!));
    expect(posts(f, "notifications/initialized")).toHaveLength(2);
    expect(f.requests.filter((q) => q.method === "DELETE").map((q) => q.headers["mcp-session-id"])).toEqual([renewed]);
  });

  test("a 404 again after the new session is an error, not a loop: one line at start-up, exit 0", async () => {
    // Every session is forgotten after its initialize: whatever follows it sees a 404.
    const f = fixture("--expire-after", "1");
    const p = project({ remote: { type: "http", url: f.url }, ok: fixtureServer() }, [reply(text("done"))]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(
        /^MCP server "remote" failed the handshake: tools\/list could not be sent: HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/mcp again after a new session$/,
      ),
    ]);
    // One new session per message that saw the 404 (the initialized notification; then the three lists, together), never a loop.
    expect(posts(f, "initialize").length).toBeLessThanOrEqual(3);
    // Each request went out at most twice: once, and once more in a new session.
    const bodies = f.requests.filter((q) => q.method === "POST" && methodOf(q) !== "initialize" && JSON.parse(q.body).id !== undefined).map((q) => q.body);
    for (const body of new Set(bodies)) expect(bodies.filter((b) => b === body).length).toBeLessThanOrEqual(2);
    // No request was sent without a session while the new one started.
    expect(f.requests.filter((q) => q.method === "POST" && methodOf(q) !== "initialize").every((q) => q.headers["mcp-session-id"] !== undefined)).toBe(true);
    expect(toolNames(p.model.requests[0]!)).toContain("mcp__ok__echo");
  });
});

describe("DELETE at shutdown", () => {
  test("a server that never answers DELETE does not hold the run: it ends with the answer, exit 0", async () => {
    const f = fixture("--slow-delete");
    const p = project({ remote: { type: "http", url: f.url } }, echoScript("bye"));
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    const session = posts(f, "tools/call")[0]!.headers["mcp-session-id"];
    expect(f.requests.filter((q) => q.method === "DELETE").map((q) => q.headers["mcp-session-id"])).toEqual([session]);
  });

  test("405 to DELETE is fine: nothing on stderr", async () => {
    const f = fixture("--no-delete");
    const p = project({ remote: { type: "http", url: f.url } }, echoScript("bye"));
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(f.requests.some((q) => q.method === "DELETE")).toBe(true);
  });
});

test("a 401 without a token and no OAuth metadata: one line naming the server and saying a fixed token goes in headers, the other servers work, exit 0", async () => {
  const f = fixture("--bearer", "tok");
  const p = project({ remote: { type: "http", url: f.url }, ok: fixtureServer() }, [reply(toolUse("mcp__ok__echo", { text: "local" })), reply(text("done"))]);
  const r = await p.run("go");
  expect([r.code, r.stdout]).toEqual([0, "done\n"]);
  expect(lines(r.stderr)).toEqual([
    expect.stringMatching(
      /^MCP server "remote" failed to start: http:\/\/127\.0\.0\.1:\d+\/mcp answered 401: the server publishes no OAuth metadata, so there is nothing to log in to; if it takes a fixed token, set it in the entry's "headers"/,
    ),
  ]);
  expect(r.stderr).not.toContain("mcp login");
  expect(toolNames(p.model.requests[0]!).some((n) => n.startsWith("mcp__remote__"))).toBe(false);
  expect(f.requests.every((q) => q.headers.authorization === undefined)).toBe(true);
});

test("mcp login to a server with a 401 and no OAuth metadata says how to give it a fixed token", async () => {
  const f = fixture("--bearer", "tok");
  const dir = tempDir("agent-login-");
  writeMcpConfig(dir, { remote: { type: "http", url: f.url } });
  // The default endpoints of 2025-03-26 are tried first: the registration is refused before any browser.
  const r = await runAgent(["mcp", "login", "remote"], { cwd: dir, env: { BROWSER: "false", CLAUDE_CONFIG_DIR: join(dir, "config") } });
  expect(r.code).toBe(1);
  expect(lines(r.stderr).at(-1)).toContain("publishes no OAuth metadata");
  expect(r.stderr).toContain(`set it in the entry's "headers" (e.g. "Authorization": "Bearer \${TOKEN}")`);
});
