/**
 * Plan mode against a hostile repository, through the real program and a scripted model: commands
 * that read as read-only but would run a program the repository ships (a PATH set by `printf -v`,
 * a textconv driver in the config of a bare repository the repository carries, reached by `git -C`
 * or by a `cd` in an earlier call) are refused with plan mode's message, and nothing runs. A clean
 * repository's `git log -p` still runs.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Block, type ModelServer, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
};

/** A project holding a program named `ls`, and a bare repository whose config runs `evil` as a textconv driver. */
function hostileProject(): { dir: string; marker: string } {
  const dir = tempDir();
  const marker = join(dir, "PWNED");
  const evil = join(dir, "evil");
  writeFileSync(evil, `#!/bin/sh\ntouch '${marker}'\ncat "$1"\n`);
  chmodSync(evil, 0o755);
  writeFileSync(join(dir, "ls"), `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(join(dir, "ls"), 0o755);
  const src = join(dir, "src");
  mkdirSync(src);
  git(src, "init", "-q");
  writeFileSync(join(src, "f"), "a\n");
  git(src, "add", "f");
  git(src, "commit", "-qm", "one");
  writeFileSync(join(src, "f"), "b\n");
  git(src, "commit", "-qam", "two");
  git(dir, "clone", "-q", "--bare", src, "vendor.git");
  git(dir, "config", "-f", "vendor.git/config", "diff.x.textconv", evil);
  mkdirSync(join(dir, "vendor.git", "info"), { recursive: true });
  writeFileSync(join(dir, "vendor.git", "info", "attributes"), "* diff=x\n");
  return { dir, marker };
}

/** One -p run in plan mode whose model makes `calls` one after another, then answers; the tool results it read. */
async function planRun(dir: string, calls: Block[]) {
  const config = tempDir("agent-config-");
  server = startModelServer([...calls.map((c) => reply(c)), reply(text("the plan"))]);
  const r = await runAgent(["-p", "plan it", "--permission-mode", "plan"], { cwd: dir, model: server.url, env: { CLAUDE_CONFIG_DIR: config } });
  expect(r.code).toBe(0);
  return server.requests.slice(1).map((req) => req.body.messages.at(-1).content[0] as { content: unknown; is_error?: boolean });
}

const bash = (command: string) => toolUse("Bash", { command });

describe("plan mode in a hostile repository", () => {
  test("the proof works outside plan mode: git -C vendor.git log -p runs the repository's textconv program", () => {
    const { dir, marker } = hostileProject();
    Bun.spawnSync(["git", "-C", "vendor.git", "log", "-p"], { cwd: dir });
    expect(existsSync(marker)).toBe(true);
  });

  test("printf -v PATH then ls is refused, and the repository's ls does not run", async () => {
    const { dir, marker } = hostileProject();
    const [result] = await planRun(dir, [bash("printf -v PATH . ; ls")]);
    expect(result!.is_error).toBe(true);
    expect(JSON.stringify(result!.content)).toContain("Plan mode is on");
    expect(existsSync(marker)).toBe(false);
  });

  test("git -C into a bare repository whose config names a program is refused, and it does not run", async () => {
    const { dir, marker } = hostileProject();
    const [result] = await planRun(dir, [bash("git -C vendor.git log -p")]);
    expect(result!.is_error).toBe(true);
    expect(JSON.stringify(result!.content)).toContain("Plan mode is on");
    expect(JSON.stringify(result!.content)).toContain("git config");
    expect(existsSync(marker)).toBe(false);
  });

  test("a cd into it in one call, then git log -p in the next, is refused at the second", async () => {
    const { dir, marker } = hostileProject();
    const [first, second] = await planRun(dir, [bash("cd vendor.git/refs"), bash("git log -p")]);
    expect(first!.is_error).toBeFalsy();
    expect(second!.is_error).toBe(true);
    expect(JSON.stringify(second!.content)).toContain("Plan mode is on");
    expect(existsSync(marker)).toBe(false);
  });

  test("a clean repository's git log -p runs", async () => {
    const { dir } = hostileProject();
    const [result] = await planRun(join(dir, "src"), [bash("git log -p")]);
    expect(result!.is_error).toBeFalsy();
    expect(JSON.stringify(result!.content)).toContain("+b");
  });

  test("a cd and git in one command: git is checked from where the cd leads (and a clean one runs)", async () => {
    const { dir, marker } = hostileProject();
    const [hostile, clean] = await planRun(dir, [bash("cd vendor.git/refs && git log -p"), bash("cd src && git log --oneline")]);
    expect(hostile!.is_error).toBe(true);
    expect(JSON.stringify(hostile!.content)).toContain("git config");
    expect(existsSync(marker)).toBe(false);
    expect(clean!.is_error).toBeFalsy();
    expect(JSON.stringify(clean!.content)).toContain("two");
  });
});
