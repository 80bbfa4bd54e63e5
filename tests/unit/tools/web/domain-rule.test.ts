/**
 * domain-rule.ts: WebFetch(domain:…) names one host, `*.` its subdomains, and nothing else.
 */
import { expect, test } from "bun:test";
import { domainSpecCovers, hostOfInput, ruleNamesHost } from "../../../../lib/tools/web/domain-rule.ts";

test("domain: names the host exactly; *. names subdomains", () => {
  expect(domainSpecCovers("domain:example.com", "example.com")).toBe(true);
  expect(domainSpecCovers("domain:example.com", "EXAMPLE.com.")).toBe(true);
  expect(domainSpecCovers("domain:example.com", "www.example.com")).toBe(false);
  expect(domainSpecCovers("domain:example.com", "example.com.evil.test")).toBe(false);
  expect(domainSpecCovers("domain:*.example.com", "www.example.com")).toBe(true);
  expect(domainSpecCovers("domain:*.example.com", "example.com")).toBe(false);
  expect(domainSpecCovers("host:example.com", "example.com")).toBe(false);
});

test("only WebFetch(domain:…) rules name a host; bare WebFetch names none", () => {
  expect(ruleNamesHost("WebFetch(domain:127.0.0.1)", "127.0.0.1")).toBe(true);
  expect(ruleNamesHost("WebFetch", "127.0.0.1")).toBe(false);
  expect(ruleNamesHost("Bash(domain:127.0.0.1)", "127.0.0.1")).toBe(false);
  expect(ruleNamesHost("WebFetch(domain:[::1])", "::1")).toBe(true);
});

test("the host of a call's url, or undefined", () => {
  expect(hostOfInput({ url: "https://Example.com:8443/x" })).toBe("example.com");
  expect(hostOfInput({ url: "http://[::1]:80/" })).toBe("::1");
  expect(hostOfInput({ url: "not a url" })).toBeUndefined();
  expect(hostOfInput({})).toBeUndefined();
});
