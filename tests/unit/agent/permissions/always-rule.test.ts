/**
 * always-rule.ts: what `[a]lways` keeps for WebFetch (the call's host) and NotebookEdit (accept edits).
 */
import { expect, test } from "bun:test";
import { alwaysFor } from "../../../../lib/agent/permissions/always-rule.ts";

test("WebFetch: a rule for the call's host, saved to the project's local settings", () => {
  expect(alwaysFor("/p", "WebFetch", { url: "https://Docs.Example.com/a?b" })).toEqual({
    rule: "WebFetch(domain:docs.example.com)",
    file: "/p/.claude/settings.local.json",
  });
  expect(alwaysFor("/p", "WebFetch", { url: "http://[::1]:8080/" })).toEqual({ rule: "WebFetch(domain:[::1])", file: "/p/.claude/settings.local.json" });
  expect(alwaysFor("/p", "WebFetch", { url: "nope" })).toBeUndefined();
});

test("NotebookEdit: accept edits, like Edit and Write", () => {
  expect(alwaysFor("/p", "NotebookEdit", { notebook_path: "/p/nb.ipynb" })).toEqual({ acceptEdits: true });
});
