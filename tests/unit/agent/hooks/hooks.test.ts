/** Hook matchers and what hook output means (hook-outcome.ts), without processes. */
import { describe, expect, test } from "bun:test";
import { hookOutcome } from "../../../../lib/agent/hooks/hook-outcome.ts";
import { type HookCommand, type HookRun, matcherMatches } from "../../../../lib/agent/hooks/hooks.ts";
import { applySettingsEnv } from "../../../../lib/agent/settings/env.ts";

const hook: HookCommand = { event: "PreToolUse", command: "/h.sh", source: "x" };
const run = (code: number | null, stdout = "", stderr = ""): HookRun => ({ hook, code, stdout, stderr, timedOut: false });

describe("matchers", () => {
  test("* and empty match all; names and | lists are exact; anything else is an unanchored regex", () => {
    expect(matcherMatches(undefined, "Bash")).toBe(true);
    expect(matcherMatches("*", "Bash")).toBe(true);
    expect(matcherMatches("", "Bash")).toBe(true);
    expect(matcherMatches("Edit|Write", "Write")).toBe(true);
    expect(matcherMatches("Edit|Write", "WriteX")).toBe(false);
    expect(matcherMatches("Bash", "Bash2")).toBe(false);
    expect(matcherMatches("mcp__memory__.*", "mcp__memory__create")).toBe(true);
    expect(matcherMatches("mcp__memory__.*", "mcp__other__x")).toBe(false);
    expect(matcherMatches("(", "x")).toBe(false);
  });
});

describe("outcomes", () => {
  test("exit 2 blocks with Claude Code's text; other codes are notices; the strictest decision wins", () => {
    expect(hookOutcome("PreToolUse", "Bash", [run(2, "", "no\n")]).block).toBe("PreToolUse:Bash hook error: [/h.sh]: no\n");
    expect(hookOutcome("PreToolUse", "Bash", [run(1, "", "boom")]).notices).toEqual(["PreToolUse:Bash hook [/h.sh] failed with exit code 1: boom"]);
    const json = (d: string) => run(0, JSON.stringify({ hookSpecificOutput: { permissionDecision: d } }));
    expect(hookOutcome("PreToolUse", "Bash", [json("allow"), json("deny"), json("ask")]).permission?.decision).toBe("deny");
    expect(hookOutcome("PreToolUse", "Bash", [run(0, '{"decision":"approve"}')]).permission?.decision).toBe("allow");
  });

  test("continue:false, systemMessage, suppressOutput; plain stdout is context only for prompts and session starts", () => {
    const out = hookOutcome("Stop", undefined, [run(0, '{"continue":false,"stopReason":"r","systemMessage":"m","suppressOutput":true}')]);
    expect(out).toMatchObject({ stop: "r", notices: ["m"] });
    expect(hookOutcome("PreToolUse", "Bash", [run(0, "plain")]).context).toEqual([]);
    expect(hookOutcome("UserPromptSubmit", undefined, [run(0, "plain")]).context).toEqual(["UserPromptSubmit hook success: plain"]);
    expect(hookOutcome("SessionStart", "startup", [run(0, "plain")]).context).toEqual(["SessionStart:startup hook success: plain"]);
  });

  test("decision block on PostToolUse and Stop; additionalContext", () => {
    const post = hookOutcome("PostToolUse", "Bash", [run(0, '{"decision":"block","reason":"r","hookSpecificOutput":{"additionalContext":"c"}}')]);
    expect(post.block).toBe('PostToolUse:Bash hook blocking error from command: "/h.sh": r');
    expect(post.context).toEqual(["PostToolUse:Bash hook additional context: c"]);
    expect(hookOutcome("Stop", undefined, [run(0, '{"decision":"block","reason":"again"}')]).block).toBe("again");
  });
});

test("settings env: the process wins for ANTHROPIC_*, MCP_PROTOCOL_NEGOTIATION, ENABLE_TOOL_SEARCH, CLAUDE_CONFIG_DIR only", () => {
  const target: Record<string, string | undefined> = { ANTHROPIC_BASE_URL: "proc", ENABLE_TOOL_SEARCH: "false", OTHER: "proc" };
  applySettingsEnv({ ANTHROPIC_BASE_URL: "s", ENABLE_TOOL_SEARCH: "true", OTHER: "s", MCP_PROTOCOL_NEGOTIATION: "legacy" }, target);
  expect(target).toEqual({ ANTHROPIC_BASE_URL: "proc", ENABLE_TOOL_SEARCH: "false", OTHER: "s", MCP_PROTOCOL_NEGOTIATION: "legacy" });
});
