/**
 * Proxies for remote MCP servers through the real program: `HTTP_PROXY` (or `http_proxy`) carries
 * every request to a server at a non-loopback address, `NO_PROXY` (or `no_proxy`) naming the host
 * bypasses it, `HTTPS_PROXY` tunnels https with CONNECT (and `HTTP_PROXY` alone leaves https
 * direct), and loopback (127.0.0.1, localhost) never goes through a proxy; the OAuth requests
 * (the challenge probe, resource and authorization-server metadata) follow the same rule. The
 * proxy is a real forward proxy (tests/support/forward-proxy.ts) that marks what it forwards with
 * `Via`, so the fixture server's own log says which requests came through it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type HttpFixture, startHttpFixture } from "../../../fixtures/servers/http-server.ts";
import { type ForwardProxy, nonLoopbackIPv4, startForwardProxy, VIA } from "../../support/forward-proxy.ts";
import { project, stopProjects, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { makeTestCerts, OPENSSL } from "../../support/tls-certs.ts";

const fixtures: HttpFixture[] = [];
const proxies: ForwardProxy[] = [];
afterEach(async () => {
  stopProjects();
  for (const f of fixtures.splice(0)) f.stop();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

const ip = nonLoopbackIPv4();
if (!ip) console.warn("agent-mcp-http-proxy: this machine has no non-loopback IPv4 address; the tests that need one are skipped");

function fixture(flags: string[], opts: Parameters<typeof startHttpFixture>[1] = {}): HttpFixture {
  const f = startHttpFixture(flags, opts);
  fixtures.push(f);
  return f;
}

async function proxy(): Promise<ForwardProxy> {
  const p = await startForwardProxy();
  proxies.push(p);
  return p;
}

/** The environment's own proxy settings blanked, then `vars`. */
function proxyEnv(vars: Record<string, string>): Record<string, string | undefined> {
  const blank = { HTTP_PROXY: undefined, http_proxy: undefined, HTTPS_PROXY: undefined, https_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };
  return { ...blank, ...vars };
}

const port = (f: HttpFixture) => new URL(f.url).port;
/** What the proxy forwarded to the fixture (it also carries the scripted model's requests). */
const forwardedTo = (p: ForwardProxy, f: HttpFixture) => p.requests.filter((r) => r.includes(`:${port(f)}/`));
const viaProxy = (f: HttpFixture) => f.requests.filter((r) => r.headers.via === VIA);

/** `mcp call remote echo` against `url` with `env`: resolves with the run. */
async function callEcho(url: string, env: Record<string, string | undefined>) {
  const dir = tempDir("agent-proxy-");
  writeMcpConfig(dir, { remote: { type: "http", url } });
  return runAgent(["mcp", "call", "remote", "echo", '{"text":"proxied?"}'], { cwd: dir, env });
}

describe.skipIf(!ip)("a server at a non-loopback address", () => {
  test("-p with HTTP_PROXY: every request to the server (POSTs, the GET stream, DELETE) goes through the proxy", async () => {
    const f = fixture(["--host", ip!]);
    const px = await proxy();
    const p = project({ remote: { type: "http", url: f.url } }, [reply(toolUse("mcp__remote__echo", { text: "through" })), reply(text("done"))]);
    const r = await p.run("go", { env: proxyEnv({ HTTP_PROXY: px.url }) });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(toolResult(p.model.requests[1]!).content).toBe("through");
    expect(new Set(f.requests.map((q) => q.method))).toEqual(new Set(["POST", "GET", "DELETE"]));
    expect(viaProxy(f)).toHaveLength(f.requests.length);
    expect(forwardedTo(px, f)).toContain(`POST ${f.url}`);
  });

  test("lower-case http_proxy is honoured too", async () => {
    const f = fixture(["--host", ip!]);
    const px = await proxy();
    const r = await callEcho(f.url, proxyEnv({ http_proxy: px.url }));
    expect([r.code, r.stdout.trim()]).toEqual([0, "proxied?"]);
    expect(f.requests.length).toBeGreaterThan(2);
    expect(viaProxy(f)).toHaveLength(f.requests.length);
    expect(forwardedTo(px, f)).toHaveLength(f.requests.length);
  });

  for (const [name, value] of [
    ["NO_PROXY", (host: string) => host],
    ["no_proxy", (host: string) => `example.invalid, ${host}`],
    ["NO_PROXY", (host: string, p: string) => `${host}:${p}`],
  ] as const) {
    test(`${name}=${value("<host>", "<port>")} bypasses the proxy`, async () => {
      const f = fixture(["--host", ip!]);
      const px = await proxy();
      const r = await callEcho(f.url, proxyEnv({ HTTP_PROXY: px.url, [name]: value(ip!, port(f)) }));
      expect([r.code, r.stdout.trim()]).toEqual([0, "proxied?"]);
      expect(f.requests.length).toBeGreaterThan(2);
      expect(viaProxy(f)).toEqual([]);
      expect(px.requests).toEqual([]);
    });
  }

  test("a NO_PROXY entry for another port does not bypass it", async () => {
    const f = fixture(["--host", ip!]);
    const px = await proxy();
    const other = port(f) === "1" ? "2" : "1";
    const r = await callEcho(f.url, proxyEnv({ HTTP_PROXY: px.url, NO_PROXY: `${ip}:${other}` }));
    expect([r.code, r.stdout.trim()]).toEqual([0, "proxied?"]);
    expect(viaProxy(f)).toHaveLength(f.requests.length);
  });
});

describe.skipIf(!ip || !OPENSSL)("an https server at a non-loopback address", () => {
  test("HTTPS_PROXY tunnels it with CONNECT; HTTP_PROXY alone is for http and leaves it direct", async () => {
    const certs = makeTestCerts(ip)!;
    const f = fixture(["--host", ip!, "--tls-cert", certs.selfSigned.cert, "--tls-key", certs.selfSigned.key]);
    const px = await proxy();
    const trust = { NODE_EXTRA_CA_CERTS: certs.selfSigned.cert };
    const tunnelled = await callEcho(f.url, proxyEnv({ ...trust, HTTPS_PROXY: px.url }));
    expect([tunnelled.code, tunnelled.stdout.trim(), tunnelled.stderr]).toEqual([0, "proxied?", ""]);
    const tunnels = px.requests.filter((r) => r.startsWith("CONNECT "));
    expect(tunnels.length).toBeGreaterThan(0);
    expect(new Set(tunnels)).toEqual(new Set([`CONNECT ${ip}:${port(f)}`]));
    expect(f.requests.length).toBeGreaterThan(2);

    px.requests.length = 0;
    const direct = await callEcho(f.url, proxyEnv({ ...trust, HTTP_PROXY: px.url }));
    expect([direct.code, direct.stdout.trim()]).toEqual([0, "proxied?"]);
    expect(px.requests).toEqual([]);
  });
});

describe("loopback never goes through a proxy", () => {
  for (const host of ["127.0.0.1", "localhost"]) {
    test(`${host}, with HTTP_PROXY and http_proxy set`, async () => {
      const f = fixture([]);
      const px = await proxy();
      const url = f.url.replace("127.0.0.1", host);
      const p = project({ remote: { type: "http", url } }, [reply(toolUse("mcp__remote__echo", { text: "direct" })), reply(text("done"))]);
      const r = await p.run("go", { env: proxyEnv({ HTTP_PROXY: px.url, http_proxy: px.url }) });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      expect(toolResult(p.model.requests[1]!).content).toBe("direct");
      expect(f.requests.length).toBeGreaterThan(2);
      expect(viaProxy(f)).toEqual([]);
      expect(forwardedTo(px, f)).toEqual([]);
    });
  }
});

describe("OAuth requests follow the same rule", () => {
  const PRM = "/.well-known/oauth-protected-resource/mcp";
  /** A server that wants a token and points at itself as the authorization server, which has no metadata: login fails after discovery. */
  function protectedFixture(host: string): HttpFixture {
    let origin = "";
    const f = fixture(["--host", host], {
      authorize: (req) => {
        const path = new URL(req.url).pathname;
        if (path === PRM) return Response.json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
        if (path.startsWith("/.well-known/")) return new Response("no metadata here", { status: 404 });
        return new Response("unauthorized", { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${origin}${PRM}"` } });
      },
    });
    origin = new URL(f.url).origin;
    return f;
  }

  async function login(f: HttpFixture, env: Record<string, string | undefined>) {
    const dir = tempDir("agent-proxy-oauth-");
    writeMcpConfig(dir, { fx: { type: "http", url: f.url } });
    return runAgent(["mcp", "login", "fx"], { cwd: dir, env: { ...env, BROWSER: "false" } });
  }

  test("loopback: the probe and the metadata requests go direct", async () => {
    const f = protectedFixture("127.0.0.1");
    const px = await proxy();
    const r = await login(f, proxyEnv({ HTTP_PROXY: px.url, http_proxy: px.url }));
    expect([r.code, r.stderr]).toEqual([1, `mcp login: no authorization server metadata for ${new URL(f.url).origin}\n`]);
    expect(f.requests.map((q) => `${q.method} ${q.path}`)).toEqual(expect.arrayContaining(["POST /mcp", `GET ${PRM}`]));
    expect(f.requests.some((q) => q.path.startsWith("/.well-known/oauth-authorization-server"))).toBe(true);
    expect(viaProxy(f)).toEqual([]);
    expect(px.requests).toEqual([]);
  });

  test.skipIf(!ip)("a non-loopback server: the probe and its resource metadata go through HTTP_PROXY", async () => {
    const f = protectedFixture(ip!);
    const px = await proxy();
    const r = await login(f, proxyEnv({ HTTP_PROXY: px.url }));
    expect(r.code).not.toBe(0);
    expect(f.requests.map((q) => `${q.method} ${q.path}`)).toEqual(expect.arrayContaining(["POST /mcp", `GET ${PRM}`]));
    expect(viaProxy(f)).toHaveLength(f.requests.length);
  });
});
