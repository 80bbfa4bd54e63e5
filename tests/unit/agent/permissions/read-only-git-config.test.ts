/**
 * Plan mode's check of the repository a read-only git command would read (read-only/git-config.ts),
 * on real repositories: a config naming a program (written as git reads it, a key on its section's
 * line included), an include, a bare repository found from inside it, and a `commondir` pointing
 * at another config are refused; a clean repository and a folder outside any are not.
 */
import { expect, test } from "bun:test";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findGitDir, gitConfigProblem } from "../../../../lib/agent/permissions/bash/read-only/git-config.ts";
import { tempDir } from "../../../support/run.ts";

function repo(): string {
  const dir = tempDir("agent-gitcfg-");
  const r = Bun.spawnSync(["git", "init", "-q", dir], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return dir;
}

test("a clean repository, and a folder in none, pass", () => {
  const dir = repo();
  mkdirSync(join(dir, "sub"));
  expect(gitConfigProblem(join(dir, "sub"))).toBeUndefined();
  expect(findGitDir(join(dir, "sub"))).toBe(join(dir, ".git"));
});

test("a key on its section's line, as git reads it, is refused", () => {
  const dir = repo();
  appendFileSync(join(dir, ".git", "config"), '[core] fsmonitor = "touch x"\n');
  expect(gitConfigProblem(dir)).toContain("core.fsmonitor");
});

test("a textconv driver, gpg.program and an include are refused", () => {
  for (const text of [
    '[diff "x"]\n\ttextconv = cat\n',
    "[gpg]\n\tprogram = evil\n",
    "[include]\n\tpath = ../other\n",
    '[includeIf "gitdir:/"]\n\tpath = x\n',
  ]) {
    const dir = repo();
    appendFileSync(join(dir, ".git", "config"), text);
    expect(gitConfigProblem(dir)).toBeString();
  }
});

test("a bare repository is found from a folder inside it, and its config is read", () => {
  const dir = tempDir("agent-gitcfg-");
  const r = Bun.spawnSync(["git", "init", "-q", "--bare", join(dir, "x.git")]);
  expect(r.exitCode).toBe(0);
  appendFileSync(join(dir, "x.git", "config"), "[diff]\n\texternal = evil\n");
  expect(findGitDir(join(dir, "x.git", "refs"))).toBe(join(dir, "x.git"));
  expect(gitConfigProblem(join(dir, "x.git", "refs"))).toContain("diff.external");
});

test("a commondir pointing at another folder's config is followed", () => {
  const dir = repo();
  const other = join(dir, "other");
  mkdirSync(other);
  writeFileSync(join(other, "config"), "[core]\n\tfsmonitor = evil\n");
  writeFileSync(join(dir, ".git", "commondir"), "../other\n");
  expect(gitConfigProblem(dir)).toContain("core.fsmonitor");
});
