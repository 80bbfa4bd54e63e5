/**
 * What a repository's settings file loosens (loosening.ts), the one definition the session's consent
 * (consent.ts) and the run's trust check (run-settings.ts, merge.ts) share: `model` counts, a
 * default `defaultMode` and deny/ask rules do not.
 */
import { describe, expect, test } from "bun:test";
import { looseningItems, looseningKeys, needsTrust } from "../../../../lib/agent/settings/loosening.ts";
import type { SettingsDoc } from "../../../../lib/agent/settings/schema.ts";

describe("what loosens", () => {
  test("each key on its own", () => {
    const cases: [SettingsDoc, string[]][] = [
      [{ hooks: { Stop: [] } }, ["hooks"]],
      [{ env: { FOO: "1" } }, ["env"]],
      [{ model: "opus" }, ["model"]],
      [{ permissions: { defaultMode: "acceptEdits" } }, ["permissions.defaultMode"]],
      [{ permissions: { defaultMode: "default" } }, []],
      [{ permissions: { allow: ["Bash(npm test:*)"] } }, ["permissions.allow"]],
      [{ permissions: { allow: [] } }, []],
      [{ permissions: { additionalDirectories: ["../x"] } }, ["permissions.additionalDirectories"]],
      [{ permissions: { deny: ["Bash"], ask: ["Write"] } }, []],
    ];
    for (const [doc, keys] of cases) expect<unknown>([doc, looseningKeys(doc)]).toEqual([doc, keys]);
  });

  test("without MCP_REQUIRE_APPROVAL only allow rules and additionalDirectories wait for trust; with it, everything that loosens", () => {
    expect(needsTrust({ model: "opus", env: { A: "1" } }, false)).toBe(false);
    expect(needsTrust({ model: "opus" }, true)).toBe(true);
    expect(needsTrust({ permissions: { allow: ["Read"] } }, false)).toBe(true);
    expect(needsTrust({ permissions: { deny: ["Bash"] } }, true)).toBe(false);
  });

  test("the consent question lists every key that loosens, model included", () => {
    const doc: SettingsDoc = {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] }] },
      env: { FOO: "1" },
      model: "opus",
      permissions: { allow: ["Bash(npm test:*)"], defaultMode: "acceptEdits", additionalDirectories: ["../x"], deny: ["Read(.env)"] },
    };
    expect(looseningItems(doc).items).toEqual([
      "hook PreToolUse: ./check.sh",
      "env FOO",
      "model opus",
      "allow Bash(npm test:*)",
      "defaultMode acceptEdits",
      "additionalDirectories ../x",
    ]);
    expect(looseningItems({ permissions: { deny: ["Bash"] } }).items).toEqual([]);
  });

  test("a file without model keeps the fingerprint parts it had before model counted", () => {
    const doc: SettingsDoc = { env: { FOO: "1" }, permissions: { allow: ["Read"] } };
    expect(JSON.stringify(looseningItems(doc).parts)).toBe(JSON.stringify({ env: { FOO: "1" }, allow: ["Read"] }));
  });
});
