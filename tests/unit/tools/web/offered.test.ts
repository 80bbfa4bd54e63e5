/**
 * offered.ts: the web tools join -p only through a flag, the environment or the project's files.
 */
import { expect, test } from "bun:test";
import { webToolOffered, type OfferSources } from "../../../../lib/tools/web/offered.ts";

const base: OfferSources = { mode: "print", env: {}, allowedTools: [], rules: [] };

test("the session and host mode offer them by default; -p does not", () => {
  expect(webToolOffered("WebFetch", { ...base, mode: "session" })).toBe(true);
  expect(webToolOffered("WebFetch", { ...base, mode: "host" })).toBe(true);
  expect(webToolOffered("WebFetch", base)).toBe(false);
});

test("-p: a flag, the environment, or a project, local or flag settings rule", () => {
  expect(webToolOffered("WebFetch", { ...base, allowedTools: ["WebFetch(domain:a.test)"] })).toBe(true);
  expect(webToolOffered("WebFetch", { ...base, env: { AGENT_WEB_TOOLS: "1" } })).toBe(true);
  expect(webToolOffered("WebFetch", { ...base, env: { AGENT_WEB_TOOLS: "0" } })).toBe(false);
  for (const scope of ["project", "local", "flag"]) {
    expect(webToolOffered("WebFetch", { ...base, rules: [{ text: "WebFetch", behavior: "allow", scope }] })).toBe(true);
  }
});

test("-p: never a rule in the user's home, a deny rule, or a rule naming another tool", () => {
  expect(webToolOffered("WebFetch", { ...base, rules: [{ text: "WebFetch", behavior: "allow", scope: "user" }] })).toBe(false);
  expect(webToolOffered("WebFetch", { ...base, rules: [{ text: "WebFetch", behavior: "deny", scope: "project" }] })).toBe(false);
  expect(webToolOffered("WebFetch", { ...base, allowedTools: ["WebFetchX", "Bash"] })).toBe(false);
});
