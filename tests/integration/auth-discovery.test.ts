/**
 * Discovery against real HTTP servers on 127.0.0.1: the order of well-known URLs, the issuer
 * check, the resource check and the https rule.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { discover, ResourceMismatchError } from "../../lib/mcp/auth/discovery.ts";

const servers: { stop(force?: boolean): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

/** A server answering `routes` (path → JSON body, or a function of the base URL); everything else 404. Records the paths asked. */
function serve(routes: Record<string, (base: string) => unknown>) {
  const asked: string[] = [];
  let base = "";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req): Response {
      const path = new URL(req.url).pathname;
      asked.push(path);
      const route = routes[path];
      return route ? Response.json(route(base)) : new Response("nope", { status: 404 });
    },
  });
  servers.push(server);
  base = `http://127.0.0.1:${server.port}`;
  return { base, asked };
}

const asMeta = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  code_challenge_methods_supported: ["S256"],
});

describe("discovery", () => {
  test("path-aware resource metadata first, then the authorization server's path-inserted OIDC document", async () => {
    const as = serve({ "/tenant/.well-known/openid-configuration": (b) => asMeta(`${b}/tenant`) });
    const rs = serve({
      "/.well-known/oauth-protected-resource": (b) => ({ resource: b, authorization_servers: [`${as.base}/tenant`], scopes_supported: ["a"] }),
    });
    const d = await discover(`${rs.base}/mcp`, undefined);
    expect(rs.asked).toEqual(["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]);
    expect(as.asked).toEqual([
      "/.well-known/oauth-authorization-server/tenant",
      "/.well-known/openid-configuration/tenant",
      "/tenant/.well-known/openid-configuration",
    ]);
    expect(d.resource).toBe(rs.base);
    expect(d.authorizationServer.issuer).toBe(`${as.base}/tenant`);
  });

  test("the challenge's resource_metadata is fetched exactly, and nothing else", async () => {
    const as = serve({ "/.well-known/oauth-authorization-server": (b) => asMeta(b) });
    const rs = serve({ "/custom.json": (b) => ({ resource: `${b}/mcp`, authorization_servers: [as.base] }) });
    const d = await discover(`${rs.base}/mcp`, `${rs.base}/custom.json`);
    expect(rs.asked).toEqual(["/custom.json"]);
    expect(d.resource).toBe(`${rs.base}/mcp`);
  });

  test("a resource naming another server stops the flow before the authorization server is asked", async () => {
    const as = serve({ "/.well-known/oauth-authorization-server": (b) => asMeta(b) });
    const rs = serve({ "/.well-known/oauth-protected-resource/mcp": () => ({ resource: "https://evil.example.com/mcp", authorization_servers: [as.base] }) });
    await expect(discover(`${rs.base}/mcp`, undefined)).rejects.toBeInstanceOf(ResourceMismatchError);
    expect(as.asked).toEqual([]);
  });

  test("an issuer that does not match its metadata is refused", async () => {
    const as = serve({ "/.well-known/oauth-authorization-server": () => asMeta("https://someone-else.example") });
    const rs = serve({ "/.well-known/oauth-protected-resource/mcp": (b) => ({ resource: `${b}/mcp`, authorization_servers: [as.base] }) });
    await expect(discover(`${rs.base}/mcp`, undefined)).rejects.toThrow(
      /no authorization server metadata for .* names issuer "https:\/\/someone-else.example"/,
    );
  });

  test("a plain-http authorization server off loopback is refused", async () => {
    const rs = serve({ "/.well-known/oauth-protected-resource/mcp": (b) => ({ resource: `${b}/mcp`, authorization_servers: ["http://as.example.com"] }) });
    await expect(discover(`${rs.base}/mcp`, undefined)).rejects.toThrow("authorization server must use https (got http://as.example.com/)");
  });

  test("2025-03-26: no resource metadata, the origin's metadata, else the default endpoints", async () => {
    const rs = serve({});
    const d = await discover(`${rs.base}/mcp`, undefined);
    expect(d.protectedResource).toBeUndefined();
    expect(d.authorizationServer.authorization_endpoint).toBe(`${rs.base}/authorize`);
    expect(d.authorizationServer.token_endpoint).toBe(`${rs.base}/token`);
    expect(d.authorizationServer.registration_endpoint).toBe(`${rs.base}/register`);
    expect(rs.asked).toEqual(["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"]);
  });
});
