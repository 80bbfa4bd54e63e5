import { describe, expect, test } from "bun:test";
import { parseOAuthConfig } from "../../../../lib/mcp/auth/oauth-block.ts";
import { chooseScopes, unionScopes } from "../../../../lib/mcp/auth/scope-choice.ts";
import { canonicalResource, isSecureEndpoint, requireSecureEndpoint, resourceCovers } from "../../../../lib/mcp/auth/urls.ts";

describe("canonical resource (RFC 8707)", () => {
  test("lower-case scheme and host, no fragment, no default port, no trailing slash", () => {
    expect(canonicalResource("HTTPS://MCP.Example.com:443/Path/#frag")).toBe("https://mcp.example.com/Path");
    expect(canonicalResource("https://mcp.example.com/")).toBe("https://mcp.example.com");
    expect(canonicalResource("http://127.0.0.1:8080/mcp?tenant=a")).toBe("http://127.0.0.1:8080/mcp?tenant=a");
  });
  test("a resource covers its own URL and URLs below it, never another origin or a sibling prefix", () => {
    expect(resourceCovers("http://h:1/mcp", "http://h:1/mcp")).toBe(true);
    expect(resourceCovers("http://h:1", "http://h:1/mcp")).toBe(true);
    expect(resourceCovers("http://h:1/mcp/", "http://h:1/mcp")).toBe(true);
    expect(resourceCovers("https://evil.example.com/mcp", "http://h:1/mcp")).toBe(false);
    expect(resourceCovers("http://h:1/mc", "http://h:1/mcp")).toBe(false);
    expect(resourceCovers("http://h:1/mcp/deeper", "http://h:1/mcp")).toBe(false);
    expect(resourceCovers("not a url", "http://h:1/mcp")).toBe(false);
  });
  test("https everywhere, http only on loopback (SA-23 exemption)", () => {
    expect(isSecureEndpoint("https://as.example.com/token")).toBe(true);
    expect(isSecureEndpoint("http://127.0.0.1:9/token")).toBe(true);
    expect(isSecureEndpoint("http://localhost:9/token")).toBe(true);
    expect(isSecureEndpoint("http://[::1]:9/token")).toBe(true);
    expect(isSecureEndpoint("http://as.example.com/token")).toBe(false);
    expect(() => requireSecureEndpoint("http://as.example.com/token?x=1", "token endpoint")).toThrow(
      "token endpoint must use https (got http://as.example.com/token)",
    );
  });
});

describe("scope choice", () => {
  test("configured, then challenge, then resource metadata, then none", () => {
    expect(chooseScopes({ configured: ["x"], challenge: "a b", resourceScopes: ["c"] })).toEqual(["x"]);
    expect(chooseScopes({ challenge: "a  b", resourceScopes: ["c"] })).toEqual(["a", "b"]);
    expect(chooseScopes({ resourceScopes: ["c", "d"] })).toEqual(["c", "d"]);
    expect(chooseScopes({})).toBeUndefined();
    expect(chooseScopes({ resourceScopes: [] })).toBeUndefined();
  });
  test("offline_access only when the authorization server lists it, and never alone", () => {
    expect(chooseScopes({ resourceScopes: ["mcp:basic"], serverScopes: ["mcp:basic", "offline_access"] })).toEqual(["mcp:basic", "offline_access"]);
    expect(chooseScopes({ resourceScopes: ["mcp:basic"], serverScopes: ["mcp:basic"] })).toEqual(["mcp:basic"]);
    expect(chooseScopes({ serverScopes: ["offline_access"] })).toBeUndefined();
  });
  test("step-up is the union, in first-seen order", () => {
    expect(unionScopes(["mcp:basic"], ["mcp:basic", "mcp:write"])).toEqual(["mcp:basic", "mcp:write"]);
  });
});

describe("the oauth block", () => {
  test("fields, ${VAR} expansion and defaults", () => {
    const cfg = parseOAuthConfig({ clientId: "${ID}", clientSecret: "s", callbackPort: 8976, scopes: "a b" }, (s) => s.replace("${ID}", "abc"));
    expect(cfg).toEqual({ grantType: "authorization_code", clientId: "abc", clientSecret: "s", callbackPort: 8976, scopes: ["a", "b"] });
    expect(parseOAuthConfig({ scopes: ["a"], assumeS256: true })).toEqual({ grantType: "authorization_code", scopes: ["a"], assumeS256: true });
  });
  test("one reason per problem, naming the field", () => {
    expect(parseOAuthConfig([])).toBe('"oauth" must be an object');
    expect(parseOAuthConfig({ clientID: "x" })).toStartWith('unknown field "oauth.clientID"');
    expect(parseOAuthConfig({ callbackPort: 70000 })).toBe('"oauth.callbackPort" must be a port number (1-65535)');
    expect(parseOAuthConfig({ clientSecret: "s" })).toBe('"oauth.clientSecret" needs "oauth.clientId"');
    expect(parseOAuthConfig({ grantType: "password" })).toStartWith('"oauth.grantType" must be one of');
    expect(parseOAuthConfig({ grantType: "client_credentials", clientId: "c" })).toStartWith('"oauth.grantType" client_credentials needs');
    expect(parseOAuthConfig({ clientMetadataUrl: "http://x/y" })).toBe('"oauth.clientMetadataUrl" must be an https URL with a path');
    expect(parseOAuthConfig({ grantType: "cross_app_access", clientId: "c" })).toStartWith('"oauth.grantType" cross_app_access needs "oauth.clientSecret"');
    expect(parseOAuthConfig({ grantType: "jwt_bearer" })).toBe('"oauth.grantType" jwt_bearer needs one of "oauth.assertionFile" and "oauth.assertionCommand"');
    expect(parseOAuthConfig({ grantType: "jwt_bearer", assertionFile: "a", assertionCommand: "b" })).toStartWith('"oauth.grantType" jwt_bearer needs one of');
    expect(parseOAuthConfig({ assertionFile: "/t" })).toBe('"oauth.assertionFile" and "oauth.assertionCommand" need "oauth.grantType" jwt_bearer');
    expect(parseOAuthConfig({ grantType: "jwt_bearer", assertionFile: "${DIR}/t" }, (s) => s.replace("${DIR}", "/run"))).toEqual({
      grantType: "jwt_bearer",
      assertionFile: "/run/t",
    });
  });
});
