/**
 * OAuth through the whole agent (MCP 2025-11-25 basic/authorization): a real authorization server
 * (oidc-provider) in front of our HTTP fixture server, which checks bearer tokens. Tried as a user
 * would: `mcp login`, then `-p` calls the protected tool, then a token expiry is survived without
 * a new login; a revoked refresh token asks to log in again; `-p` never opens a browser; a
 * step-up in the middle of `mcp call`. Slow (an authorization server per file): SKIP_SLOW=1
 * skips it locally, never under CI.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HttpFixture, startHttpFixture } from "../../../fixtures/servers/http-server.ts";
import { loginAndReconnect } from "../../../lib/cli/oauth/wiring.ts";
import { lazyAuthFor } from "../../../lib/cli/oauth/lazy.ts";
import type { HttpServerConfig } from "../../../lib/mcp/config/load.ts";
import { McpRegistry } from "../../../lib/mcp/registry/registry.ts";
import { lines, project, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { bearerCheck, type OidcServer, resourceMetadata, startOidc } from "../../support/oidc.ts";
import { BUN, ROOT, fixtureServer, runAgent, tempDir } from "../../support/run.ts";

const skip = process.env.SKIP_SLOW === "1" && !process.env.CI;
const BROWSER = `${BUN} ${join(ROOT, "tests/support/oidc-browser.ts")}`;
const PRM_PATH = "/.well-known/oauth-protected-resource/mcp";

let oidc: OidcServer;
let fixture: HttpFixture;
/** Scopes each JSON-RPC method needs; tools/call of echo needs more only in the step-up test. */
let required: (method: string) => string[] = () => ["mcp:read"];

beforeAll(async () => {
  let resource = "";
  fixture = startHttpFixture([], {
    authorize: async (req, body) => {
      const url = new URL(req.url);
      if (url.pathname === PRM_PATH) return resourceMetadata(resource, oidc.issuer, ["mcp:read"]);
      let method = "";
      try {
        method = JSON.parse(body).method ?? "";
      } catch {}
      return bearerCheck(oidc.provider, req, resource, `${url.origin}${PRM_PATH}`, required(method));
    },
  });
  resource = fixture.url;
  oidc = await startOidc({ resource, scopes: ["mcp:read", "mcp:write"] });
});
afterAll(async () => {
  fixture?.stop();
  await oidc?.close();
});
afterEach(() => {
  stopProjects();
  required = () => ["mcp:read"];
});

/** A project whose .mcp.json names the protected server `fx` (and `extra` servers), sharing one config folder across runs. */
function oauthProject(script: Parameters<typeof project>[1], extra: Record<string, unknown> = {}) {
  const config = tempDir("agent-oauth-config-");
  const p = project({ fx: { type: "http", url: fixture.url }, ...extra }, script);
  const env = { CLAUDE_CONFIG_DIR: config };
  const store = join(config, "mcp-oauth.json");
  return {
    ...p,
    store,
    tokens: () => JSON.parse(readFileSync(store, "utf8")).issuers[oidc.issuer][fixture.url].tokens,
    login: (...args: string[]) => runAgent(["mcp", "login", "fx", ...args], { cwd: p.dir, env: { ...env, BROWSER } }),
    run: (prompt: string, opts: { env?: Record<string, string>; args?: string[] } = {}) => p.run(prompt, { args: opts.args, env: { ...env, ...opts.env } }),
    inspect: (...args: string[]) => runAgent(["mcp", ...args], { cwd: p.dir, env: { ...env, BROWSER } }),
  };
}

describe.skipIf(skip)("OAuth with a real authorization server", () => {
  test("mcp login, then -p calls the protected tool, then a token expiry is survived without a new login", async () => {
    const p = oauthProject([
      reply(toolUse("mcp__fx__echo", { text: "first" })),
      reply(text("one")),
      reply(toolUse("mcp__fx__echo", { text: "second" })),
      reply(text("two")),
      reply(toolUse("mcp__fx__echo", { text: "third" })),
      reply(text("three")),
    ]);
    const login = await p.login();
    expect([login.code, login.stdout]).toEqual([0, 'Logged in to MCP server "fx"\n']);
    expect(login.stderr).toContain('Log in to MCP server "fx": http://127.0.0.1:');
    expect(statSync(p.store).mode & 0o777).toBe(0o600);
    const first = p.tokens();
    expect(first.scope).toContain("mcp:read");
    expect(first.refresh_token).toBeString();
    for (const out of [login.stdout, login.stderr]) expect(out).not.toContain(first.access_token);

    // A second process reuses the stored token: no browser (none is given), no new login.
    const one = await p.run("go");
    expect([one.code, one.stdout, one.stderr]).toEqual([0, "one\n", ""]);
    expect(toolResult(p.model.requests[1]!).content).toBe("first");

    // The server forgets the token: the 401 is answered by a refresh, and the rotated refresh token is kept.
    // Under --debug the steps show, never a token.
    await oidc.expireAccessToken(first.access_token);
    const two = await p.run("go", { args: ["--debug"] });
    expect([two.code, two.stdout]).toEqual([0, "two\n"]);
    expect(two.stderr).toContain("oauth fx: token refreshed");
    const second = p.tokens();
    for (const secret of [first.access_token, first.refresh_token, second.access_token, second.refresh_token]) expect(two.stderr).not.toContain(secret);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // Expired on our side: refreshed before it is sent.
    const doc = JSON.parse(readFileSync(p.store, "utf8"));
    doc.issuers[oidc.issuer][fixture.url].tokens.expires_at = Date.now() - 1000;
    writeFileSync(p.store, JSON.stringify(doc));
    const three = await p.run("go");
    expect([three.code, three.stdout, three.stderr]).toEqual([0, "three\n", ""]);
    expect(p.tokens().refresh_token).not.toBe(second.refresh_token);
  }, 60_000);

  test("-p without a token: one needs-authentication line, no browser even with $BROWSER, the run goes on with the other servers", async () => {
    const marker = join(tempDir(), "browser-opened");
    const p = oauthProject([reply(text("fine"))], { local: fixtureServer() });
    const r = await p.run("hi", { env: { BROWSER: `touch ${marker}` } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("fine\n");
    expect(lines(r.stderr)).toEqual(['MCP server "fx" needs authentication: run ./your_program.sh mcp login fx']);
    expect(existsSync(marker)).toBe(false);
    const names = toolNames(p.model.requests[0]!);
    expect(names).toContain("mcp__local__echo");
    expect(names.some((n) => n.startsWith("mcp__fx__"))).toBe(false);
  }, 60_000);

  test("a revoked refresh token: -p says to log in again; mcp logout forgets the server", async () => {
    const p = oauthProject([reply(text("still here"))]);
    expect((await p.login()).code).toBe(0);
    const tokens = p.tokens();
    await oidc.revokeRefreshToken(tokens.refresh_token);
    await oidc.expireAccessToken(tokens.access_token);
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "still here\n"]);
    expect(lines(r.stderr)).toEqual(['MCP server "fx" needs authentication (the saved login was refused; log in again): run ./your_program.sh mcp login fx']);
    const out = await p.inspect("logout", "fx");
    expect([out.code, out.stdout]).toEqual([0, 'Logged out of MCP server "fx" (its tokens and client registration are forgotten)\n']);
    expect(JSON.parse(readFileSync(p.store, "utf8")).issuers).toEqual({});
  }, 60_000);

  test("step-up in the middle of mcp call: a 403 insufficient_scope logs in again with the union of the scopes", async () => {
    required = (method) => (method === "tools/call" ? ["mcp:read", "mcp:write"] : ["mcp:read"]);
    const p = oauthProject([]);
    expect((await p.login()).code).toBe(0);
    expect(p.tokens().scope).not.toContain("mcp:write");
    const r = await p.inspect("call", "fx", "echo", '{"text":"stepped up"}');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("stepped up");
    expect(p.tokens().scope.split(" ")).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
  }, 60_000);

  test("the interactive /mcp login: a server that needs authentication logs in and reconnects, its tools then listed", async () => {
    const saved = { BROWSER: process.env.BROWSER, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR };
    process.env.CLAUDE_CONFIG_DIR = tempDir("agent-oauth-config-");
    process.env.BROWSER = BROWSER;
    const config: HttpServerConfig = { type: "http", name: "fx", url: fixture.url, headers: {} };
    const failures: string[] = [];
    const registry = await McpRegistry.start([config], {
      cwd: tempDir(),
      log: () => {},
      authFor: lazyAuthFor({ allowLogin: false }),
      onServerFailed: (s) => failures.push(String(s.error)),
    });
    try {
      expect(registry.server("fx")).toMatchObject({ status: "failed", needsAuth: true });
      expect(failures).toEqual(["needs authentication: run ./your_program.sh mcp login fx"]);
      const line = await loginAndReconnect({ configured: [config], registry }, "fx", { stderr: () => {} });
      expect(line).toBe('Logged in to MCP server "fx"');
      const now = registry.server("fx")!;
      expect(now.status).toBe("connected");
      expect(now.needsAuth).toBeUndefined();
      expect(now.tools.map((t) => t.name)).toContain("echo");
    } finally {
      await registry.shutdown();
      Object.assign(process.env, saved);
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    }
  }, 60_000);
});
