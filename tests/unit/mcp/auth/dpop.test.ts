/**
 * DPoP proofs and keys (lib/mcp/auth/dpop.ts, RFC 9449 §4.2): the claims every proof carries,
 * a fresh jti each time, the server's nonce once remembered, and one 0600 key file per
 * authorization server that a second process reuses and `delete` removes.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DpopKeys, dpopHeaders, offersDpop, rememberNonce } from "../../../../lib/mcp/auth/dpop.ts";
import { tempDir } from "../../../support/run.ts";

const part = (jwt: string, i: number) => JSON.parse(Buffer.from(jwt.split(".")[i]!, "base64url").toString()) as Record<string, any>;

describe("DPoP", () => {
  test("a proof per request: dpop+jwt, public jwk only, htm, htu without query or fragment, ath, iat, a new jti", async () => {
    const keys = new DpopKeys(join(tempDir(), "mcp-oauth.json"));
    const handle = await keys.handle("https://as.test");
    const a = await dpopHeaders(handle, "post", "https://mcp.test/mcp?x=1#frag", "token-1");
    const b = await dpopHeaders(handle, "POST", "https://mcp.test/mcp", "token-1");
    expect(a.Authorization).toBe("DPoP token-1");
    const header = part(a.DPoP!, 0);
    const claims = part(a.DPoP!, 1);
    expect(header).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: { kty: "EC", crv: "P-256" } });
    expect(header.jwk.d).toBeUndefined();
    expect(claims).toMatchObject({ htm: "POST", htu: "https://mcp.test/mcp" });
    expect(claims.ath).toBe(new Bun.CryptoHasher("sha256").update("token-1").digest("base64url"));
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(5);
    expect(claims.nonce).toBeUndefined();
    expect(part(b.DPoP!, 1).jti).not.toBe(claims.jti);
  });

  test("a remembered server nonce goes into the next proof to that origin only", async () => {
    const handle = await new DpopKeys(join(tempDir(), "mcp-oauth.json")).handle("https://as.test");
    rememberNonce(handle, new Response(null, { status: 401, headers: { "dpop-nonce": "n-1" } }), "https://mcp.test/mcp");
    expect(part((await dpopHeaders(handle, "POST", "https://mcp.test/mcp", "t")).DPoP!, 1).nonce).toBe("n-1");
    expect(part((await dpopHeaders(handle, "POST", "https://other.test/mcp", "t")).DPoP!, 1).nonce).toBeUndefined();
  });

  test("one key file per authorization server, mode 0600, read back by a new DpopKeys (as the next run does), removed by delete", async () => {
    const store = join(tempDir(), "config", "mcp-oauth.json");
    const first = new DpopKeys(store);
    const jwk = async (keys: DpopKeys, issuer: string) => part((await dpopHeaders(await keys.handle(issuer), "GET", "https://r.test/", "t")).DPoP!, 0).jwk;
    const mine = await jwk(first, "https://as-1.test");
    await jwk(first, "https://as-2.test");
    const dir = join(store, "..", "mcp-oauth-dpop");
    expect(readdirSync(dir)).toHaveLength(2);
    expect(statSync(first.keyPath("https://as-1.test")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(await jwk(new DpopKeys(store), "https://as-1.test")).toEqual(mine);
    first.delete("https://as-1.test");
    expect(existsSync(first.keyPath("https://as-1.test"))).toBe(false);
    expect(await jwk(first, "https://as-1.test")).not.toEqual(mine);
  });

  test("offered only when the authorization server lists ES256", () => {
    expect(offersDpop({ issuer: "x", dpop_signing_alg_values_supported: ["ES256", "RS256"] })).toBe(true);
    expect(offersDpop({ issuer: "x", dpop_signing_alg_values_supported: ["EdDSA"] })).toBe(false);
    expect(offersDpop({ issuer: "x" })).toBe(false);
  });
});
