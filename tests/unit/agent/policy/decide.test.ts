/**
 * The one permission decision (decide.ts), as a table: the hooks' decision, the settings rule, the
 * flags and the mode, in every order that matters. A deny from any source beats an ask, an ask beats
 * an allow; a hook's allow and the flags skip only the mode's question; dontAsk never asks.
 */
import { describe, expect, test } from "bun:test";
import { type CallFacts, decide } from "../../../../lib/agent/policy/decide.ts";
import type { PermissionMode } from "../../../../lib/agent/permissions/modes.ts";

const BASH = { name: "Bash" };
const READ = { name: "Read", asksPermission: false };
const WRITE = { name: "Write" };
const MCP = { name: "mcp__fx__echo" };

type Row = [string, Partial<CallFacts>, "allow" | "deny" | "ask"];

const facts = (f: Partial<CallFacts>): CallFacts => ({ tool: BASH, input: { command: "ls" }, flagAllows: false, mode: "default", ...f });

describe("sources combined", () => {
  const rows: Row[] = [
    ["nothing said, default mode: Bash asks", {}, "ask"],
    ["nothing said, no mode set (-p without the flag): runs", { mode: undefined }, "allow"],
    ["a deny rule beats a hook's allow", { hook: { decision: "allow" }, rule: { behavior: "deny", path: false } }, "deny"],
    ["a deny rule beats the flags", { flagAllows: true, rule: { behavior: "deny", path: false } }, "deny"],
    ["a deny rule beats bypassPermissions", { mode: "bypassPermissions", rule: { behavior: "deny", path: false } }, "deny"],
    ["a hook's deny beats an allow rule", { hook: { decision: "deny" }, rule: { behavior: "allow", path: false } }, "deny"],
    ["a hook's deny beats bypassPermissions", { hook: { decision: "deny" }, mode: "bypassPermissions" }, "deny"],
    ["a hook's ask beats an allow rule", { hook: { decision: "ask" }, rule: { behavior: "allow", path: false } }, "ask"],
    ["an ask rule beats a hook's allow", { hook: { decision: "allow" }, rule: { behavior: "ask", path: false } }, "ask"],
    ["an ask rule beats the flags", { flagAllows: true, rule: { behavior: "ask", path: false } }, "ask"],
    ["an ask rule asks even in bypassPermissions", { mode: "bypassPermissions", rule: { behavior: "ask", path: false } }, "ask"],
    ["an ask rule asks even with no mode set", { mode: undefined, rule: { behavior: "ask", path: false } }, "ask"],
    ["a hook's deny beats a hook-less ask rule", { hook: { decision: "deny" }, rule: { behavior: "ask", path: false } }, "deny"],
    ["a deny rule beats a hook's ask", { hook: { decision: "ask" }, rule: { behavior: "deny", path: false } }, "deny"],
    ["a hook's allow skips the mode's question", { hook: { decision: "allow" } }, "allow"],
    ["an allow rule skips the mode's question", { rule: { behavior: "allow", path: false } }, "allow"],
    ["the flags skip the mode's question", { flagAllows: true }, "allow"],
    ["dontAsk refuses what nothing allowed", { mode: "dontAsk" }, "deny"],
    ["dontAsk turns an ask rule into a deny", { mode: "dontAsk", rule: { behavior: "ask", path: false } }, "deny"],
    ["dontAsk runs what a rule allows", { mode: "dontAsk", rule: { behavior: "allow", path: false } }, "allow"],
    ["dontAsk runs what the flags allow", { mode: "dontAsk", flagAllows: true }, "allow"],
  ];
  for (const [name, f, want] of rows) test(name, () => expect(decide(facts(f)).behavior).toBe(want));
});

describe("modes, by tool", () => {
  const table: [PermissionMode | undefined, Record<string, "allow" | "deny" | "ask">][] = [
    [undefined, { Bash: "allow", Read: "allow", Write: "allow", mcp__fx__echo: "allow" }],
    ["default", { Bash: "ask", Read: "allow", Write: "ask", mcp__fx__echo: "ask" }],
    ["acceptEdits", { Bash: "ask", Read: "allow", Write: "allow", mcp__fx__echo: "ask" }],
    ["bypassPermissions", { Bash: "allow", Read: "allow", Write: "allow", mcp__fx__echo: "allow" }],
    ["dontAsk", { Bash: "deny", Read: "allow", Write: "deny", mcp__fx__echo: "deny" }],
  ];
  for (const [mode, want] of table) {
    test(`${mode ?? "no mode"}`, () => {
      const got = Object.fromEntries([BASH, READ, WRITE, MCP].map((tool) => [tool.name, decide(facts({ tool, mode })).behavior]));
      expect(got).toEqual(want);
    });
  }
});

describe("what the model reads", () => {
  test("a deny rule in Claude Code's words; a path rule's own text", () => {
    expect(decide(facts({ rule: { behavior: "deny", path: false } }))).toEqual({
      behavior: "deny",
      message: "Permission to use Bash with command ls has been denied.",
    });
    expect(decide(facts({ tool: { name: "Read" }, rule: { behavior: "deny", path: true } }))).toEqual({
      behavior: "deny",
      message: "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>",
    });
  });

  test("a hook's reason, or Claude Code's words when it gave none; a rule's or hook's ask is forced (no always)", () => {
    expect(decide(facts({ hook: { decision: "deny", reason: "no rm" } }))).toEqual({ behavior: "deny", message: "PreToolUse:Bash hook error: no rm" });
    expect(decide(facts({ hook: { decision: "ask", reason: "sure?" } }))).toEqual({ behavior: "ask", message: "sure?", forced: true });
    expect(decide(facts({ rule: { behavior: "ask", path: false } }))).toEqual({
      behavior: "ask",
      message: "Claude requested permissions to use Bash, but you haven't granted it yet.",
      forced: true,
    });
  });

  test("the mode's question names the mode, for a mode with nobody to ask", () => {
    expect(decide(facts({ mode: "acceptEdits" }))).toEqual({
      behavior: "ask",
      message: "Permission to use Bash was not granted (--permission-mode acceptEdits).",
    });
    expect(decide(facts({ mode: "dontAsk" }))).toEqual({ behavior: "deny", message: "Permission to use Bash was not granted (--permission-mode dontAsk)." });
  });
});

describe("plan mode", () => {
  const refused = { allowed: false as const, message: "Plan mode is on: no" };
  const allowed = { allowed: true as const };
  const rows: Row[] = [
    ["what plan mode allows runs without a question", { mode: "plan", plan: allowed }, "allow"],
    ["what plan mode refuses is refused", { mode: "plan", plan: refused }, "deny"],
    ["plan mode's refusal beats the flags", { mode: "plan", plan: refused, flagAllows: true }, "deny"],
    ["plan mode's refusal beats an allow rule", { mode: "plan", plan: refused, rule: { behavior: "allow", path: false } }, "deny"],
    ["plan mode's refusal beats a hook's allow", { mode: "plan", plan: refused, hook: { decision: "allow" } }, "deny"],
    ["a deny rule beats what plan mode allows", { mode: "plan", plan: allowed, rule: { behavior: "deny", path: false } }, "deny"],
    ["an ask rule still asks for what plan mode allows", { mode: "plan", plan: allowed, rule: { behavior: "ask", path: false } }, "ask"],
    ["no plan check at all: refused (fails closed)", { mode: "plan" }, "deny"],
    ["ExitPlanMode in plan mode asks, past the flags", { tool: { name: "ExitPlanMode" }, mode: "plan", plan: allowed, flagAllows: true }, "ask"],
    ["ExitPlanMode outside plan mode is refused", { tool: { name: "ExitPlanMode" }, mode: "acceptEdits" }, "deny"],
    ["ExitPlanMode with no mode set is refused", { tool: { name: "ExitPlanMode" }, mode: undefined }, "deny"],
    ["AskUserQuestion asks even in bypassPermissions", { tool: { name: "AskUserQuestion" }, mode: "bypassPermissions" }, "ask"],
    ["AskUserQuestion is refused in dontAsk", { tool: { name: "AskUserQuestion" }, mode: "dontAsk" }, "deny"],
    ["a deny rule beats AskUserQuestion's question", { tool: { name: "AskUserQuestion" }, rule: { behavior: "deny", path: false } }, "deny"],
  ];
  for (const [name, f, want] of rows) test(name, () => expect(decide(facts(f)).behavior).toBe(want));
  test("the refusal's message is plan mode's", () => {
    expect(decide(facts({ mode: "plan", plan: refused }))).toEqual({ behavior: "deny", message: "Plan mode is on: no" });
  });
});
