/** How a --allowedTools/--disallowedTools value splits into rules: commas and spaces outside parentheses. */
import { expect, test } from "bun:test";
import { scopedFlagRules, splitRuleList } from "../../../../lib/agent/permissions/flag-rules.ts";

test.each([
  ["Bash(npm test:*)", ["Bash(npm test:*)"]],
  ["Read,Bash(git log:*) Edit", ["Read", "Bash(git log:*)", "Edit"]],
  ["  Bash(a, b)  ,, mcp__srv ", ["Bash(a, b)", "mcp__srv"]],
  ["Bash(unclosed x", ["Bash(unclosed x"]],
  ["", []],
])("%p splits into %p", (value, rules) => {
  expect(splitRuleList(value)).toEqual(rules);
});

test("only scoped entries go to the rule engine", () => {
  expect(scopedFlagRules(["Read", "Bash(ls:*)"], ["mcp__x", "Bash(rm:*)"])).toEqual({ allow: ["Bash(ls:*)"], deny: ["Bash(rm:*)"] });
});
