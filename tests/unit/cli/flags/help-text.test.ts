/**
 * The `--help` text read as a newcomer would: it names every process-environment switch that turns an
 * opt-in feature on in -p (the README's "Turning features on in -p" table), and speaks no in-house jargon.
 */
import { expect, test } from "bun:test";
import { USAGE } from "../../../../lib/cli/flags/help.ts";

test("--help names each environment switch that turns an opt-in feature on in -p", () => {
  for (const name of [
    "AGENT_BACKGROUND_TASKS=1",
    "AGENT_SUBAGENTS=1",
    "AGENT_WEB_TOOLS=1",
    "CLAUDE_CODE_ENABLE_TODO_TOOLS=1",
    "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=1",
  ]) {
    expect(USAGE).toContain(name);
  }
});

test("--help says which tools are opt-in without in-house words a user cannot know", () => {
  expect(USAGE).toContain("In -p the opt-in tools join only when asked");
  expect(USAGE).not.toMatch(/\bround\b/);
});
