/**
 * When a run keeps checkpoints (Claude Code's rule): on in the session, off in -p and host mode
 * unless CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING, off everywhere with fileCheckpointingEnabled:
 * false (the highest settings file that sets it wins) or CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING.
 */
import { describe, expect, test } from "bun:test";
import { checkpointsOn } from "../../../../lib/agent/checkpoints/open.ts";
import type { SettingsFile } from "../../../../lib/agent/settings/files.ts";

const file = (value: boolean | undefined): SettingsFile => ({
  scope: "user",
  path: "/h/.claude/settings.json",
  root: "/h/.claude",
  doc: { fileCheckpointingEnabled: value },
});

describe("checkpointsOn", () => {
  test("the session: on, unless a setting or the variable turns them off", () => {
    expect(checkpointsOn(true, {})).toBe(true);
    expect(checkpointsOn(true, {}, [file(false)])).toBe(false);
    expect(checkpointsOn(true, { CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING: "1" })).toBe(false);
    // The highest file that sets the key decides.
    expect(checkpointsOn(true, {}, [file(true), file(false)])).toBe(true);
    expect(checkpointsOn(true, {}, [file(undefined), file(false)])).toBe(false);
  });

  test("-p and host mode: only with the variable (the SDK sets it to true)", () => {
    expect(checkpointsOn(false, {})).toBe(false);
    expect(checkpointsOn(false, { CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "1" })).toBe(true);
    expect(checkpointsOn(false, { CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "true" })).toBe(true);
    expect(checkpointsOn(false, { CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "0" })).toBe(false);
    expect(checkpointsOn(false, { CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "1" }, [file(false)])).toBe(false);
  });
});
