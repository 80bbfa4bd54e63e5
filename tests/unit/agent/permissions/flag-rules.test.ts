/** How a --allowedTools/--disallowedTools value splits into rules (commas and spaces outside parentheses), and which flag rules name nothing the run has. */
import { describe, expect, test } from "bun:test";
import { flagRuleWarnings, scopedFlagRules, splitRuleList } from "../../../../lib/agent/permissions/flag-rules.ts";

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

describe("flagRuleWarnings", () => {
  const base = { allowed: [], disallowed: [], tools: ["Read", "Bash", "Agent", "Task"], servers: ["mcp__fx"], matches: (n: string, r: string) => n === r };
  test("a scoped rule naming a tool the run lacks, or a bare --disallowedTools entry matching nothing, is one line each", () => {
    expect(flagRuleWarnings({ ...base, allowed: ["LSP(./a.ts)", "Bash(ls:*)", "Nope"], disallowed: ["Wat", "Bash(rm:*)", "mcp__fx"] })).toEqual([
      '--allowedTools: no tool named "LSP" for the rule "LSP(./a.ts)"',
      '--disallowedTools: no tool or MCP server named "Wat"',
    ]);
  });
  test("Agent (and Task) are known even when -p does not offer them; Skill and MCP names are left alone", () => {
    expect(flagRuleWarnings({ ...base, disallowed: ["Agent", "Task", "Skill(deploy)", "mcp__later__x(y)"] })).toEqual([]);
  });
});

test("flagRuleWarnings: a --tools name that is no tool is one line; Skill and MCP names are left alone", () => {
  const lines = flagRuleWarnings({
    toolsFlag: ["Read", "Nope", "Skill", "mcp__x__y"],
    allowed: [],
    disallowed: [],
    tools: ["Read"],
    servers: [],
    matches: () => false,
  });
  expect(lines).toEqual(['--tools: no built-in tool named "Nope"']);
});
