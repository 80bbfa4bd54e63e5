/**
 * The precedence of one permission decision, as a table over the real gate (settings/gate.ts) with
 * real settings files, real PreToolUse hook scripts and flag rules: a deny from any source (a
 * settings file, --disallowedTools, a hook) beats an ask, an ask beats an allow, and an allow (a
 * rule, --allowedTools, a hook's) only skips the mode's question. Nobody can be asked here (-p):
 * an ask refuses in Claude Code's words, and the mode's fallback refuses what no allow covers.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunSettings } from "../../../../lib/agent/policy/run-settings.ts";
import { ToolGate } from "../../../../lib/agent/policy/gate.ts";
import { bashTool } from "../../../../lib/tools/bash.ts";
import { tempDir } from "../../../support/run.ts";

type Hook = "allow" | "deny" | "ask" | undefined;
interface Row {
  settings?: { deny?: string[]; ask?: string[]; allow?: string[] };
  flags?: { allow?: string[]; deny?: string[] };
  hook?: Hook;
  /** --permission-mode given: what no allow covers is refused by the mode. */
  mode?: boolean;
  expect: "allow" | "deny:rule" | "deny:ask" | "deny:hook" | "deny:mode";
}

const RM = "Bash(rm:*)";
const ROWS: [string, Row][] = [
  ["no rule, no mode: runs", { expect: "allow" }],
  ["no rule, a mode: the mode refuses", { mode: true, expect: "deny:mode" }],
  ["a settings allow skips the mode", { settings: { allow: [RM] }, mode: true, expect: "allow" }],
  ["--allowedTools skips the mode", { flags: { allow: [RM] }, mode: true, expect: "allow" }],
  ["a hook's allow skips the mode", { hook: "allow", mode: true, expect: "allow" }],
  ["a settings deny beats --allowedTools", { settings: { deny: [RM] }, flags: { allow: [RM] }, expect: "deny:rule" }],
  ["--disallowedTools beats a settings allow", { settings: { allow: [RM] }, flags: { deny: [RM] }, expect: "deny:rule" }],
  ["a deny rule beats a hook's allow", { settings: { deny: [RM] }, hook: "allow", expect: "deny:rule" }],
  ["a flag deny beats a hook's allow", { flags: { deny: [RM] }, hook: "allow", expect: "deny:rule" }],
  ["a hook's deny beats every allow", { settings: { allow: [RM] }, flags: { allow: [RM] }, hook: "deny", expect: "deny:hook" }],
  ["an ask rule beats --allowedTools", { settings: { ask: [RM] }, flags: { allow: [RM] }, expect: "deny:ask" }],
  ["an ask rule beats a hook's allow", { settings: { ask: [RM] }, hook: "allow", expect: "deny:ask" }],
  ["a hook's ask beats an allow rule", { settings: { allow: [RM] }, hook: "ask", expect: "deny:ask" }],
  ["deny beats ask", { settings: { deny: [RM], ask: [RM] }, expect: "deny:rule" }],
  ["ask beats allow in the same file", { settings: { ask: [RM], allow: [RM] }, mode: true, expect: "deny:ask" }],
];

function place(row: Row): string {
  const dir = tempDir("agent-precedence-");
  const doc: Record<string, unknown> = {};
  if (row.settings) doc.permissions = row.settings;
  if (row.hook) {
    const script = join(dir, "hook.sh");
    const out = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: row.hook, permissionDecisionReason: "hook says" } };
    writeFileSync(script, `#!/bin/sh\necho '${JSON.stringify(out)}'\n`);
    chmodSync(script, 0o755);
    doc.hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: script }] }] };
  }
  mkdirSync(join(dir, ".claude"));
  // --settings: applies without trust, as a repository's allow rules would not.
  writeFileSync(join(dir, "flag.json"), JSON.stringify(doc));
  return dir;
}

describe("one decision: deny, then ask, then allow, then the mode", () => {
  test.each(ROWS)("%s", async (_, row) => {
    const dir = place(row);
    const settings = RunSettings.load({
      cwd: dir,
      env: { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, "config") },
      flag: join(dir, "flag.json"),
      flagRules: { allow: row.flags?.allow ?? [], deny: row.flags?.deny ?? [] },
      warn: () => {},
      managedDir: null,
    });
    const gate = new ToolGate({
      settings,
      route: () => undefined,
      // -p: nobody to ask; with --permission-mode default the mode would ask, so it refuses.
      permissions: { mode: () => (row.mode ? "default" : undefined), flagAllows: () => false },
      notice: () => {},
    });
    const decision = await gate.canUseTool(bashTool, { command: "rm -f x" }, { type: "tool_use", id: "t1", name: "Bash", input: {} });
    const got =
      decision === true || (typeof decision === "object" && decision.behavior === "allow")
        ? "allow"
        : typeof decision === "object" && decision.behavior === "deny"
          ? decision.message.startsWith("Permission to use Bash was not granted")
            ? "deny:mode"
            : decision.message.startsWith("Claude requested permissions") || decision.message === "hook says"
              ? "deny:ask"
              : decision.message.startsWith("PreToolUse:")
                ? "deny:hook"
                : "deny:rule"
          : String(decision);
    expect(got).toBe(row.expect);
  });
});
