/**
 * The masks of missing protected paths: made before bubblewrap starts, kept while any call holds
 * them, removed by the last release only while still empty, so nothing a person wrote is deleted.
 */
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { holdPlaceholders, isPlaceholder } from "../../../lib/sandbox/placeholders.ts";
import { tempDir } from "../../support/run.ts";

test("made on hold, kept while another call holds them, removed by the last release; a file with content stays", () => {
  const dir = tempDir("agent-placeholders-");
  const file = { path: join(dir, ".envrc"), folder: false };
  const folder = { path: join(dir, ".claude"), folder: true };
  const first = holdPlaceholders([file, folder]);
  const second = holdPlaceholders([file]);
  expect([existsSync(file.path), existsSync(folder.path), isPlaceholder(file.path)]).toEqual([true, true, true]);
  first();
  first();
  expect([existsSync(file.path), existsSync(folder.path)]).toEqual([true, false]);
  second();
  expect([existsSync(file.path), isPlaceholder(file.path)]).toEqual([false, false]);
  const third = holdPlaceholders([file]);
  writeFileSync(file.path, "someone's own\n", { mode: 0o644 });
  third();
  expect(existsSync(file.path)).toBe(true);
});

test("nestedProtected: existing protected names in subfolders down to the depth, not in node_modules, not the top's", async () => {
  const { nestedProtected } = await import("../../../lib/sandbox/nested.ts");
  const { mkdirSync } = await import("node:fs");
  const dir = tempDir("agent-nested-");
  for (const d of [".claude", "a/.git/hooks", "a/b/.claude", "a/b/c/d/.claude", "node_modules/x/.claude"]) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, "a", "b", ".mcp.json"), "{}");
  mkdirSync(join(dir, "e/.git"), { recursive: true });
  writeFileSync(join(dir, "e/.git/config"), "[core]\n");
  expect(nestedProtected(dir, 3).sort()).toEqual(
    [join(dir, "a/.git/hooks"), join(dir, "e/.git/config"), join(dir, "a/b/.claude"), join(dir, "a/b/.mcp.json")].sort(),
  );
});
