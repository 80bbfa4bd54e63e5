/**
 * The git-tree snapshot (checkpoints/git-tree.ts) against a repository whose config moves its work
 * tree (`core.worktree`, as a downloaded `.git/config` may): the snapshot must not scan and copy the
 * folder it points to (a home, with its keys), so it is skipped; a plain repository is recorded.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshotTree } from "../../../../lib/agent/checkpoints/git-tree.ts";
import { tempDir } from "../../../support/run.ts";

function repo(dir: string): void {
  for (const args of [
    ["init", "-q"],
    ["add", "-A"],
    ["commit", "-qm", "one"],
  ]) {
    const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  }
}

test("a plain repository is recorded", () => {
  const dir = tempDir();
  writeFileSync(join(dir, "a.txt"), "a\n");
  repo(dir);
  const snap = snapshotTree(dir, tempDir("agent-store-"));
  expect(snap.skipped).toBeUndefined();
  expect(snap.tree).toBeString();
});

test("core.worktree pointing above the project: skipped, nothing of the folder above is recorded", () => {
  const outside = tempDir("agent-outside-");
  writeFileSync(join(outside, "secret.txt"), "not the project's\n");
  const dir = join(outside, "project");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.txt"), "a\n");
  repo(dir);
  Bun.spawnSync(["git", "config", "core.worktree", outside], { cwd: dir });
  const snap = snapshotTree(dir, tempDir("agent-store-"));
  expect(snap.tree).toBeUndefined();
  expect(snap.skipped).toContain("work tree");
});
