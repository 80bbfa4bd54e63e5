/**
 * The permission gate every mode's turn runs (gate.ts), over a fake run's settings: PreToolUse
 * hooks' outcomes (here given, not run), real compiled rules, and a mode's part (its mode, its
 * flags, how it asks). The decision itself is decide.test.ts's table; this checks the wiring: what
 * reaches the mode's question, updated input, blocks and stops, and no question without an asker.
 */
import { describe, expect, test } from "bun:test";
import type { HookOutcome } from "../../../../lib/agent/hooks/hook-outcome.ts";
import type { ToolUseBlock } from "../../../../lib/agent/messages.ts";
import type { PermissionMode } from "../../../../lib/agent/permissions/modes.ts";
import { compileRules, PermissionRules } from "../../../../lib/agent/permissions/rules.ts";
import { type ModePermissions, ToolGate } from "../../../../lib/agent/policy/gate.ts";
import type { RunSettings } from "../../../../lib/agent/policy/run-settings.ts";
import type { Tool } from "../../../../lib/tools/tool.ts";

const BASH: Tool = { name: "Bash", description: "", inputSchema: { type: "object" }, run: async () => ({ content: "" }) };
const call = (input: Record<string, unknown>): ToolUseBlock => ({ type: "tool_use", id: "t1", name: "Bash", input });

/** A run's settings with `deny`/`ask`/`allow` rules and a PreToolUse outcome (none when absent). */
function settings(rules: { deny?: string[]; ask?: string[]; allow?: string[] }, pre?: Partial<HookOutcome>): RunSettings {
  const file = { scope: "project" as const, path: "/w/.claude/settings.json", root: "/w", doc: {} };
  const ctx = { cwd: "/w", home: "/h", warn: () => {} };
  const texts = (["deny", "ask", "allow"] as const).flatMap((behavior) => (rules[behavior] ?? []).map((text) => ({ text, behavior, file })));
  const fake = {
    cwd: "/w",
    rules: new PermissionRules(compileRules(texts, ctx), ctx),
    listens: (event: string) => event === "PreToolUse" && pre !== undefined,
    fire: async () => ({ context: [], notices: [], ...pre }),
  };
  return fake as unknown as RunSettings;
}

/** A mode's part; `answers` are what its question returns, in order, and `asked` records the messages. */
function mode(m: PermissionMode | undefined, opts: { flags?: boolean; answers?: (boolean | object)[] } = {}) {
  const asked: { input: Record<string, unknown>; message: string }[] = [];
  const part: ModePermissions = {
    mode: () => m,
    flagAllows: () => opts.flags ?? false,
    ask: opts.answers
      ? async (_tool, input, _call, message) => {
          asked.push({ input, message });
          return (opts.answers!.shift() ?? false) as boolean;
        }
      : undefined,
  };
  return { part, asked };
}

const gate = (s: RunSettings | undefined, part: ModePermissions) => new ToolGate({ settings: s, route: () => undefined, permissions: part, notice: () => {} });

describe("what reaches the mode's question", () => {
  test("the mode asks; the answer is the decision", async () => {
    const { part, asked } = mode("default", { answers: [true] });
    expect(await gate(undefined, part).canUseTool(BASH, { command: "ls" }, call({ command: "ls" }))).toBe(true);
    expect(asked).toEqual([{ input: { command: "ls" }, message: "Permission to use Bash was not granted (--permission-mode default)." }]);
  });

  test("nobody to ask (-p): the ask is refused with what the model reads", async () => {
    const { part } = mode("acceptEdits");
    expect(await gate(undefined, part).canUseTool(BASH, { command: "ls" }, call({ command: "ls" }))).toEqual({
      behavior: "deny",
      message: "Permission to use Bash was not granted (--permission-mode acceptEdits).",
    });
  });

  test("a hook's ask reaches the question with its reason, even in bypassPermissions", async () => {
    const { part, asked } = mode("bypassPermissions", { answers: [false] });
    const s = settings({}, { permission: { decision: "ask", reason: "check the target first" } });
    expect(await gate(s, part).canUseTool(BASH, { command: "rm x" }, call({ command: "rm x" }))).toBe(false);
    expect(asked.map((a) => a.message)).toEqual(["check the target first"]);
  });

  test("the flags skip the mode's question but not an ask rule", async () => {
    const { part, asked } = mode("default", { flags: true, answers: [true] });
    expect(await gate(settings({}), part).canUseTool(BASH, { command: "ls" }, call({ command: "ls" }))).toBe(true);
    expect(asked).toEqual([]);
    expect(await gate(settings({ ask: ["Bash(git push:*)"] }), part).canUseTool(BASH, { command: "git push" }, call({ command: "git push" }))).toBe(true);
    expect(asked.map((a) => a.message)).toEqual(["Claude requested permissions to use Bash, but you haven't granted it yet."]);
  });
});

describe("hooks' outcomes", () => {
  test("a hook's allow never beats a deny rule, and the question is never asked", async () => {
    const { part, asked } = mode("default", { answers: [true] });
    const s = settings({ deny: ["Bash(rm:*)"] }, { permission: { decision: "allow" } });
    expect(await gate(s, part).canUseTool(BASH, { command: "rm -rf /" }, call({ command: "rm -rf /" }))).toEqual({
      behavior: "deny",
      message: "Permission to use Bash with command rm -rf / has been denied.",
    });
    expect(asked).toEqual([]);
  });

  test("updatedInput is what the rules, the question and the tool see", async () => {
    const { part, asked } = mode("default", { answers: [true] });
    const s = settings({ allow: ["Bash(echo safe)"] }, { updatedInput: { command: "echo safe" } });
    expect(await gate(s, part).canUseTool(BASH, { command: "echo x" }, call({ command: "echo x" }))).toEqual({
      behavior: "allow",
      updatedInput: { command: "echo safe" },
    });
    const asking = settings({}, { updatedInput: { command: "echo safer" } });
    expect(await gate(asking, part).canUseTool(BASH, { command: "echo x" }, call({ command: "echo x" }))).toEqual({
      behavior: "allow",
      updatedInput: { command: "echo safer" },
    });
    expect(asked.map((a) => a.input)).toEqual([{ command: "echo safer" }]);
  });

  test("a block refuses with its text; continue: false stops the run after this step", async () => {
    const { part } = mode(undefined);
    expect(await gate(settings({}, { block: "not on Fridays" }), part).canUseTool(BASH, {}, call({}))).toEqual({ behavior: "deny", message: "not on Fridays" });
    const stopping = gate(settings({}, { stop: "enough" }), part);
    expect(await stopping.canUseTool(BASH, {}, call({}))).toEqual({ behavior: "deny", message: "Operation stopped by hook: enough" });
    expect(stopping.halted()).toBe(true);
  });

  test("without settings, nothing runs after a tool and nothing is changed", async () => {
    const { part } = mode(undefined);
    const g = gate(undefined, part);
    expect(await g.canUseTool(BASH, { command: "ls" }, call({ command: "ls" }))).toBe(true);
    expect(await g.afterTool(call({}), {}, { content: "out" })).toEqual({});
  });
});
