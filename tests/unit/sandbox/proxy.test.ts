/**
 * The sandbox proxy's pure parts: which domains a pattern names, the verdict of the lists (deny
 * first), and the target of a request head (CONNECT's authority, an absolute URL rewritten to origin form).
 */
import { describe, expect, test } from "bun:test";
import { domainMatches, domainVerdict } from "../../../lib/sandbox/domains.ts";
import { originHead, requestTarget } from "../../../lib/sandbox/proxy.ts";
import { LAUNCHER, proxyEnv, withBridge } from "../../../lib/sandbox/network.ts";

describe("domains", () => {
  test("exact names, *.suffix for names below it only, * for all; case and a trailing dot ignored", () => {
    expect(domainMatches("GitHub.com.", "github.com")).toBe(true);
    expect(domainMatches("api.github.com", "*.github.com")).toBe(true);
    expect(domainMatches("github.com", "*.github.com")).toBe(false);
    expect(domainMatches("evilgithub.com", "*.github.com")).toBe(false);
    expect(domainMatches("x.y", "*")).toBe(true);
    expect(domainMatches("[::1]", "::1")).toBe(true);
  });

  test("deniedDomains win over allowedDomains; a name on neither is unknown", () => {
    const lists = { allowed: ["*.example.com", "pypi.org"], denied: ["bad.example.com"] };
    expect(domainVerdict("bad.example.com", lists)).toBe("deny");
    expect(domainVerdict("good.example.com", lists)).toBe("allow");
    expect(domainVerdict("npmjs.org", lists)).toBe("unknown");
  });
});

describe("requestTarget", () => {
  test("CONNECT host:port is a tunnel; an absolute http URL becomes origin form; anything else is refused", () => {
    expect(requestTarget("CONNECT Example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n")).toEqual({ host: "example.com", port: 443, tunnel: true });
    expect(requestTarget("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n")).toEqual({ host: "::1", port: 8443, tunnel: true });
    expect(requestTarget("GET http://a.test:8080/p?q=1 HTTP/1.1\r\nHost: a.test\r\n\r\n")).toEqual({
      host: "a.test",
      port: 8080,
      tunnel: false,
      line: "GET /p?q=1 HTTP/1.1",
    });
    expect(requestTarget("GET /relative HTTP/1.1\r\n\r\n")).toBeUndefined();
    expect(requestTarget("GET ftp://a.test/ HTTP/1.1\r\n\r\n")).toBeUndefined();
    expect(requestTarget("CONNECT a.test HTTP/1.1\r\n\r\n")).toBeUndefined();
    // A name with control characters never reaches a question on the terminal.
    expect(requestTarget("CONNECT a\u001b[2Jb.test:443 HTTP/1.1\r\n\r\n")).toBeUndefined();
  });
});

test("originHead: origin-form line, the client's connection headers replaced by Connection: close", () => {
  const head = "GET http://a.test/x HTTP/1.1\r\nHost: a.test\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive\r\nKeep-Alive: 5\r\nAccept: */*\r\n\r\n";
  expect(originHead("GET /x HTTP/1.1", head)).toBe("GET /x HTTP/1.1\r\nHost: a.test\r\nAccept: */*\r\nConnection: close\r\n\r\n");
});

describe("network", () => {
  test("both cases of every proxy variable, NO_PROXY emptied; the launcher runs the bridge before the command", () => {
    expect(proxyEnv(3128)).toEqual({
      NO_PROXY: "",
      no_proxy: "",
      HTTP_PROXY: "http://127.0.0.1:3128",
      http_proxy: "http://127.0.0.1:3128",
      HTTPS_PROXY: "http://127.0.0.1:3128",
      https_proxy: "http://127.0.0.1:3128",
      ALL_PROXY: "http://127.0.0.1:3128",
      all_proxy: "http://127.0.0.1:3128",
    });
    expect(withBridge(["bash", "-c", "x"], ["/bin/agent"], 3128, "/s/proxy.sock")).toEqual([
      "/bin/bash",
      "-c",
      LAUNCHER,
      "sandbox-launcher",
      "/bin/agent",
      "__sandbox-bridge",
      "3128",
      "/s/proxy.sock",
      "--",
      "bash",
      "-c",
      "x",
    ]);
  });
});
