/**
 * /permissions' listing: a rule for a tool of ours is listed plainly, whether or not this run
 * offers the tool; only a rule for a tool we do not have is marked unused.
 */
import { expect, test } from "bun:test";
import { compileRules } from "../../../../lib/agent/permissions/rules.ts";
import { describeRules } from "../../../../lib/agent/policy/rules-listing.ts";
import type { RunSettings } from "../../../../lib/agent/policy/run-settings.ts";
import type { SettingsFile } from "../../../../lib/agent/settings/files.ts";

const file: SettingsFile = { scope: "project", path: "/p/.claude/settings.json", root: "/p", doc: {} };
const ctx = { cwd: "/p", home: "/home/u", warn: () => {} };

function listing(deny: string[]): string[] {
  const rules = compileRules(
    deny.map((text) => ({ text, behavior: "deny" as const, file })),
    ctx,
  );
  const settings = { cwd: "/p", rules: { rules } } as unknown as RunSettings;
  return describeRules(settings).trimEnd().split("\n");
}

test("rules for this round's tools are not marked unused", () => {
  const names = ["Agent", "Task", "Skill(deploy)", "TaskStop", "Monitor", "TaskCreate", "TodoWrite", "AskUserQuestion", "ExitPlanMode", "WebSearch"];
  for (const line of listing(names)) expect(line).not.toContain("unused");
});

test("a rule for a tool we lack is marked unused, with its file", () => {
  const [line] = listing(["LSP"]);
  expect(line).toContain("LSP");
  expect(line).toContain(".claude/settings.json");
  expect(line).toContain("(unused: no such tool here)");
});
