import { describe, expect, test } from "bun:test";
import { asksForDpopNonce, authChallenge, bearerChallenge, parseWwwAuthenticate } from "../../../../lib/mcp/auth/www-authenticate.ts";

describe("WWW-Authenticate", () => {
  test("one Bearer challenge with quoted parameters", () => {
    expect(parseWwwAuthenticate('Bearer realm="mcp", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"')).toEqual([
      { scheme: "bearer", params: { realm: "mcp", scope: "a b", resource_metadata: "https://x/.well-known/oauth-protected-resource/mcp" } },
    ]);
  });
  test("several challenges, bare values, any case, token68", () => {
    const got = parseWwwAuthenticate('Basic realm=x, NEGOTIATE abc==, bearer ERROR=insufficient_scope, Scope="mcp:basic mcp:write"');
    expect(got).toEqual([
      { scheme: "basic", params: { realm: "x" } },
      { scheme: "negotiate", params: { token68: "abc==" } },
      { scheme: "bearer", params: { error: "insufficient_scope", scope: "mcp:basic mcp:write" } },
    ]);
  });
  test("escapes and commas inside quotes", () => {
    expect(bearerChallenge('Bearer error_description="a \\"quoted\\", with comma", error=invalid_token')).toEqual({
      error_description: 'a "quoted", with comma',
      error: "invalid_token",
    });
  });
  test("spaces around '=' and empty input", () => {
    expect(bearerChallenge("Bearer scope = read")).toEqual({ scope: "read" });
    expect(parseWwwAuthenticate("")).toEqual([]);
    expect(parseWwwAuthenticate(null)).toEqual([]);
    expect(bearerChallenge("Basic realm=x")).toBeUndefined();
  });
  test("a bare scheme and garbage never throw", () => {
    expect(parseWwwAuthenticate("Bearer")).toEqual([{ scheme: "bearer", params: {} }]);
    expect(() => parseWwwAuthenticate('=,"",Bearer ="x')).not.toThrow();
  });
  test("a DPoP challenge stands in for a missing Bearer one; use_dpop_nonce is recognised only under DPoP", () => {
    expect(authChallenge('DPoP resource_metadata="https://x/prm", algs="ES256"')).toEqual({ resource_metadata: "https://x/prm", algs: "ES256" });
    expect(authChallenge('DPoP error="use_dpop_nonce", Bearer scope="a"')).toEqual({ scope: "a" });
    expect(asksForDpopNonce('DPoP error="use_dpop_nonce", resource_metadata="https://x/prm"')).toBe(true);
    expect(asksForDpopNonce('Bearer error="use_dpop_nonce"')).toBe(false);
  });
});
