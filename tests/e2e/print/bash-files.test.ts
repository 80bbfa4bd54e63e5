/**
 * Read and Edit rules reach into Bash, and a redirection is a write, in -p through the real
 * program and the scripted model: an allow rule for `echo` does not let it write outside the
 * working directory under --permission-mode default; an Edit deny rule stops a redirect, `tee` and
 * `cp` into the folder; a Read deny rule stops `cat`, `head`, `grep` and an input redirect of the file.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { place, projectSettings, resultsOf, runPrint } from "./settings-support.ts";

describe("redirections are writes", () => {
  test("--allowedTools Bash(echo:*) runs echo and its write inside the project, not a write outside it", async () => {
    const p = place();
    const outside = join(tempDir("agent-outside-"), "pwned.txt");
    const run = await runPrint(
      p,
      [reply(toolUse("Bash", { command: `echo pwned > ${outside}` })), reply(toolUse("Bash", { command: "echo fine > inside.txt" }))],
      ["--permission-mode", "default", "--allowedTools", "Bash(echo:*)"],
    );
    expect(existsSync(outside)).toBe(false);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
    expect(readFileSync(join(p.dir, "inside.txt"), "utf8")).toBe("fine\n");
  });

  test("an Edit deny rule stops a redirect, tee and cp into the folder", async () => {
    const p = place();
    mkdirSync(join(p.dir, "protected"));
    writeFileSync(join(p.dir, "src.txt"), "x");
    projectSettings(p, { permissions: { deny: ["Edit(./protected/**)"] } });
    const commands = ["echo x > protected/a.txt", "echo x | tee protected/b.txt", "cp src.txt protected/c.txt", "echo ok > open.txt"];
    const run = await runPrint(
      p,
      commands.map((command) => reply(toolUse("Bash", { command }))),
    );
    expect(["a.txt", "b.txt", "c.txt"].map((f) => existsSync(join(p.dir, "protected", f)))).toEqual([false, false, false]);
    expect(commands.slice(0, 3).map((_, i) => resultsOf(run, i)[0]!.is_error)).toEqual([true, true, true]);
    expect(existsSync(join(p.dir, "open.txt"))).toBe(true);
  });
});

describe("Read deny rules reach Bash's file readers", () => {
  test("cat, head, grep and an input redirect of a denied file are refused; the secret never reaches the model", async () => {
    const p = place();
    mkdirSync(join(p.dir, "secrets"));
    writeFileSync(join(p.dir, "secrets", "key.txt"), "TOPSECRET\n");
    writeFileSync(join(p.dir, "notes.txt"), "plain\n");
    projectSettings(p, { permissions: { deny: ["Read(./secrets/**)"] } });
    const commands = ["cat secrets/key.txt", "head -n 1 secrets/key.txt", "grep -h TOP secrets/key.txt", "cat < secrets/key.txt", "cat notes.txt"];
    const run = await runPrint(
      p,
      commands.map((command) => reply(toolUse("Bash", { command }))),
    );
    expect(commands.slice(0, 4).map((_, i) => resultsOf(run, i)[0]!.is_error)).toEqual([true, true, true, true]);
    expect(resultsOf(run, 4)[0]).toMatchObject({ content: "plain" });
    expect(JSON.stringify(run.requests.map((r) => r.body.messages))).not.toContain("TOPSECRET");
  });
});

test("relative paths are the shell's: after a cd in an earlier call, cat key.txt is the denied file", async () => {
  const p = place();
  mkdirSync(join(p.dir, "secrets"));
  writeFileSync(join(p.dir, "secrets", "key.txt"), "TOPSECRET\n");
  projectSettings(p, { permissions: { deny: ["Read(./secrets/**)"] } });
  const run = await runPrint(p, [reply(toolUse("Bash", { command: "cd secrets" })), reply(toolUse("Bash", { command: "cat key.txt" }))]);
  expect(resultsOf(run, 1)[0]!.is_error).toBe(true);
  expect(JSON.stringify(run.requests.map((r) => r.body.messages))).not.toContain("TOPSECRET");
});
