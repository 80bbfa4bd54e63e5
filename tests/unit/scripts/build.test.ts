/**
 * scripts/build.ts: the stamp `--version` prints (commit, "-dirty", build date) and the
 * `bun build` argv that carries it, checked against a real git repository in a temp folder.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_FLAGS, buildStamp, compileArgs, stampDefines } from "../../../scripts/build.ts";
import { tempDir } from "../../support/run.ts";

function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.toString().trim();
}

describe("build stamp", () => {
  test("a clean checkout gives the short commit; a changed or new file adds -dirty; an ignored file does not", () => {
    const repo = tempDir("stamp-");
    git(repo, "init", "-q");
    writeFileSync(join(repo, "a.ts"), "1\n");
    writeFileSync(join(repo, ".gitignore"), "out/\n");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "one");
    const head = git(repo, "rev-parse", "--short=7", "HEAD");
    expect(head).toMatch(/^[0-9a-f]{7}$/);
    expect(buildStamp(repo).commit).toBe(head);
    Bun.spawnSync(["mkdir", "-p", join(repo, "out")]);
    writeFileSync(join(repo, "out", "agent"), "binary");
    expect(buildStamp(repo).commit).toBe(head);
    writeFileSync(join(repo, "b.ts"), "new\n");
    expect(buildStamp(repo).commit).toBe(`${head}-dirty`);
    git(repo, "add", "b.ts");
    git(repo, "commit", "-q", "-m", "two");
    writeFileSync(join(repo, "a.ts"), "2\n");
    expect(buildStamp(repo).commit).toBe(`${git(repo, "rev-parse", "--short=7", "HEAD")}-dirty`);
  });

  test("outside a git checkout the commit is unknown", () => {
    expect(buildStamp(tempDir("no-git-")).commit).toBe("unknown");
  });

  test("the date is UTC YYYY-MM-DD, from SOURCE_DATE_EPOCH when set", () => {
    expect(buildStamp(tempDir(), { SOURCE_DATE_EPOCH: "1796083199" }).date).toBe("2026-11-30");
    expect(buildStamp(tempDir(), {}).date).toBe(new Date().toISOString().slice(0, 10));
  });
});

describe("compile argv", () => {
  test("carries the product flags, the stamp as string defines, the target and its runtime", () => {
    const stamp = { commit: "1a2b3c4-dirty", date: "2026-12-01" };
    expect(stampDefines(stamp)).toEqual(["--define", 'AGENT_BUILD_COMMIT="1a2b3c4-dirty"', "--define", 'AGENT_BUILD_DATE="2026-12-01"']);
    const args = compileArgs({ outfile: "/o/agent-linux-arm64", stamp, target: "bun-linux-arm64", executablePath: "/r/bun" });
    expect(args.slice(0, 1 + BUILD_FLAGS.length)).toEqual(["build", ...BUILD_FLAGS]);
    expect(args).toContain("--target=bun-linux-arm64");
    expect(args).toContain("--compile-executable-path=/r/bun");
    expect(args.slice(-2)).toEqual(["--outfile", "/o/agent-linux-arm64"]);
    expect(compileArgs({ outfile: "/o/a", stamp }).some((a) => a.startsWith("--target"))).toBe(false);
  });
});
