/** proxyFor: the proxy choice for one URL from an environment (lib/shared/proxy.ts). */
import { describe, expect, test } from "bun:test";
import { proxyFor } from "../../../lib/shared/proxy.ts";

const P = "http://proxy.test:3128";

describe("proxyFor", () => {
  test("HTTP_PROXY for http, HTTPS_PROXY for https, upper case before lower", () => {
    expect(proxyFor("http://mcp.test/mcp", { HTTP_PROXY: P })).toBe(P);
    expect(proxyFor("http://mcp.test/mcp", { http_proxy: P })).toBe(P);
    expect(proxyFor("https://mcp.test/mcp", { HTTP_PROXY: P })).toBe(false);
    expect(proxyFor("https://mcp.test/mcp", { https_proxy: P })).toBe(P);
    expect(proxyFor("https://mcp.test/mcp", { HTTPS_PROXY: P, https_proxy: "http://other.test" })).toBe(P);
    expect(proxyFor("http://mcp.test/mcp", {})).toBe(false);
  });

  test("loopback is always direct", () => {
    for (const url of [
      "http://127.0.0.1:8080/mcp",
      "http://127.9.9.9/",
      "http://localhost:1/",
      "http://app.localhost/",
      "http://[::1]:3000/mcp",
      "https://LOCALHOST/",
    ]) {
      expect(proxyFor(url, { HTTP_PROXY: P, HTTPS_PROXY: P })).toBe(false);
    }
  });

  test("NO_PROXY: *, a host, a suffix with or without the dot, a port", () => {
    const env = (NO_PROXY: string) => ({ HTTP_PROXY: P, NO_PROXY });
    expect(proxyFor("http://mcp.test/", env("*"))).toBe(false);
    expect(proxyFor("http://mcp.test/", env("other.test, mcp.test"))).toBe(false);
    expect(proxyFor("http://a.corp.test/", env(".corp.test"))).toBe(false);
    expect(proxyFor("http://a.corp.test/", env("corp.test"))).toBe(false);
    expect(proxyFor("http://notcorp.test/", env("corp.test"))).toBe(P);
    expect(proxyFor("http://mcp.test:8080/", env("mcp.test:8080"))).toBe(false);
    expect(proxyFor("http://mcp.test:8081/", env("mcp.test:8080"))).toBe(P);
    expect(proxyFor("http://mcp.test/", env("mcp.test:80"))).toBe(false);
    expect(proxyFor("http://10.1.2.3/", { HTTP_PROXY: P, no_proxy: "10.1.2.3" })).toBe(false);
  });
});
