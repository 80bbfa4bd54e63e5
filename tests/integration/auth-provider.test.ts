/**
 * The OAuth provider against a real authorization server (oidc-provider) and a resource that
 * checks its tokens: concurrent 401s refresh once, a rotated refresh token is what the store
 * keeps, a second process reuses the stored token, a revoked refresh token asks for a new login.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loginInteraction } from "../../lib/cli/oauth/browser-login.ts";
import { OAuthProvider } from "../../lib/mcp/auth/oauth-provider.ts";
import { AuthRequiredError } from "../../lib/mcp/auth/provider.ts";
import { TokenStore } from "../../lib/mcp/auth/store.ts";
import { bearerCheck, type OidcServer, resourceMetadata, startOidc } from "../support/oidc.ts";
import { BUN, ROOT, tempDir } from "../support/run.ts";

let oidc: OidcServer;
let mcp: ReturnType<typeof Bun.serve>;
let resource = "";
const grants: string[] = [];

beforeAll(async () => {
  let base = "";
  mcp = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname === "/.well-known/oauth-protected-resource/mcp") return resourceMetadata(resource, oidc.issuer, ["mcp:read"]);
      const refused = await bearerCheck(oidc.provider, req, resource, `${base}/.well-known/oauth-protected-resource/mcp`, ["mcp:read"]);
      return refused ?? Response.json({ jsonrpc: "2.0", id: 1, result: {} });
    },
  });
  base = `http://127.0.0.1:${mcp.port}`;
  resource = `${base}/mcp`;
  oidc = await startOidc({ resource, scopes: ["mcp:read", "mcp:write"] });
  oidc.provider.on("grant.success", (ctx) => grants.push(String(ctx.oidc.params?.grant_type)));
});
afterAll(async () => {
  mcp.stop(true);
  await oidc.close();
});

const browser = `${BUN} ${join(ROOT, "tests/support/oidc-browser.ts")}`;

function provider(store: TokenStore, withLogin = true) {
  return new OAuthProvider({
    server: "fx",
    url: resource,
    oauth: { grantType: "authorization_code" },
    store,
    interaction: withLogin ? loginInteraction({ terminal: false, env: { BROWSER: browser }, stderr: () => {} }) : undefined,
  });
}

/** One request as a transport sends it: the provider's header, and one retry after a challenge it answered. */
async function call(p: OAuthProvider): Promise<number> {
  const target = { method: "POST", url: resource };
  const credentials = await p.headers(target);
  const send = (headers: Record<string, string>) => fetch(resource, { method: "POST", headers, body: "{}" });
  const res = await send(credentials);
  if ((res.status === 401 || res.status === 403) && (await p.onChallenge(res, { ...target, authorization: credentials.Authorization })))
    return (await send(await p.headers(target))).status;
  return res.status;
}

describe("OAuth provider with oidc-provider", () => {
  test("login, then concurrent 401s after the token died refresh once, and the rotated refresh token is kept", async () => {
    const store = new TokenStore(join(tempDir(), "mcp-oauth.json"));
    const p = provider(store);
    expect(await call(p)).toBe(200);
    const first = store.find(p.key)!.entry.tokens!;
    expect(first.refresh_token).toBeString();
    grants.length = 0;
    await oidc.expireAccessToken(first.access_token);
    expect(await Promise.all([call(p), call(p), call(p)])).toEqual([200, 200, 200]);
    expect(grants).toEqual(["refresh_token"]);
    const now = store.find(p.key)!.entry.tokens!;
    expect(now.refresh_token).not.toBe(first.refresh_token);
    expect(now.access_token).not.toBe(first.access_token);
  }, 30_000);

  test("a second process reuses the stored token, and refreshes it when it has expired", async () => {
    const store = new TokenStore(join(tempDir(), "mcp-oauth.json"));
    const p = provider(store);
    expect(await call(p)).toBe(200);
    grants.length = 0;
    // Another process (no way to log in there) with the same store.
    const other = provider(new TokenStore(store.path), false);
    expect(await call(other)).toBe(200);
    expect(grants).toEqual([]);
    // Past its expiry on our side: refreshed before use, without a 401 round trip.
    await store.update(oidc.issuer, p.key, (e) => ({ ...e, tokens: { ...e!.tokens!, expires_at: Date.now() - 1000 } }));
    expect(await call(other)).toBe(200);
    expect(grants).toEqual(["refresh_token"]);
  }, 30_000);

  test("a revoked refresh token is forgotten, and without a way to log in the server needs authentication", async () => {
    const store = new TokenStore(join(tempDir(), "mcp-oauth.json"));
    const p = provider(store);
    expect(await call(p)).toBe(200);
    const tokens = store.find(p.key)!.entry.tokens!;
    await oidc.revokeRefreshToken(tokens.refresh_token!);
    await oidc.expireAccessToken(tokens.access_token);
    const headless = provider(new TokenStore(store.path), false);
    const err = await call(headless).catch((e) => e);
    expect(err).toBeInstanceOf(AuthRequiredError);
    expect(err.message).toBe('MCP server "fx" needs authentication (the saved login was refused; log in again): run ./your_program.sh mcp login fx');
    expect(store.find(p.key)?.entry?.tokens).toBeUndefined();
    expect(store.find(p.key)?.entry?.client?.kind).toBe("dcr");
  }, 30_000);
});
