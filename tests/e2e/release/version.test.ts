/**
 * `--version`: a built executable names its version, commit (with "-dirty" for a changed tree) and
 * build date; `bun run index.ts` says "dev" and spawns no git (issue 28, "--version").
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { version } from "../../../package.json";
import { buildStamp, compileArgs } from "../../../scripts/build.ts";
import { BUN, ROOT, tempDir } from "../../support/run.ts";

function run(argv: string[], env: Record<string, string | undefined> = process.env) {
  const p = Bun.spawnSync(argv, { cwd: tempDir(), env, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

describe("--version", () => {
  test("a built executable prints version, this tree's commit and the build date", () => {
    const out = join(tempDir("version-build-"), "agent");
    const head = Bun.spawnSync(["git", "rev-parse", "--short=7", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
    const dirty = () => Bun.spawnSync(["git", "status", "--porcelain"], { cwd: ROOT }).stdout.toString().trim() !== "";
    // Other test files run at the same time and may touch the tree for a moment: the stamp is judged
    // against the tree's state only when it was the same just before and just after stamping.
    const before = dirty();
    const stamp = buildStamp(ROOT, { SOURCE_DATE_EPOCH: "1796083199" });
    const after = dirty();
    expect(stamp.commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
    if (before === after) expect(stamp.commit).toBe(`${head}${before ? "-dirty" : ""}`);
    const build = Bun.spawnSync([BUN, ...compileArgs({ outfile: out, stamp })], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    expect(build.stderr.toString()).not.toContain("error");
    expect(build.exitCode).toBe(0);
    const result = run([out, "--version"]);
    expect(result).toEqual({ code: 0, stdout: `${version} (agent, ${stamp.commit}, 2026-11-30)\n`, stderr: "" });
  }, 120_000);

  test("from source it says dev, without spawning git", () => {
    const bin = tempDir("fake-git-");
    const marker = join(bin, "git-was-run");
    writeFileSync(join(bin, "git"), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
    chmodSync(join(bin, "git"), 0o755);
    const result = run([BUN, "run", join(ROOT, "index.ts"), "--version"], { ...process.env, PATH: `${bin}:${process.env.PATH}` });
    expect(result).toEqual({ code: 0, stdout: `${version} (agent, dev)\n`, stderr: "" });
    expect(existsSync(marker)).toBe(false);
  });
});
