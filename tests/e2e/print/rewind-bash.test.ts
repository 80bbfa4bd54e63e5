/**
 * What Bash changed, through the real program: in a git work tree the tree is recorded before a
 * turn's first Bash call, and `--rewind-files` restores a file changed by `sed -i`, brings back a
 * deleted one and deletes a created one, also after a `git checkout` of another branch; the
 * user's index and stash are as they were (`git status --porcelain`, `git stash list`), and no
 * repository-configured command (fsmonitor, hooks, a clean filter) ran. Outside git the rewind
 * says Bash's changes are not tracked.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const ON = { CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "1" };

function git(dir: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** A repository with a commit, a branch `other`, an ignored file, and (unless `clean`) a staged change, an unstaged one and a stash. */
function repo(clean = false) {
  const dir = tempDir();
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "t@example.com");
  git(dir, "config", "user.name", "T");
  writeFileSync(join(dir, "tracked.txt"), "x one\nx two\n");
  writeFileSync(join(dir, "deleted.txt"), "keep me\n");
  writeFileSync(join(dir, ".gitignore"), "ignored.txt\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "one");
  git(dir, "checkout", "-q", "-b", "other");
  writeFileSync(join(dir, "tracked.txt"), "other branch\n");
  writeFileSync(join(dir, "other-only.txt"), "only on other\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "other");
  git(dir, "checkout", "-q", "main");
  writeFileSync(join(dir, "ignored.txt"), "ignored\n");
  if (!clean) {
    writeFileSync(join(dir, "stashed.txt"), "stash me\n");
    git(dir, "add", "stashed.txt");
    git(dir, "stash", "-q");
    writeFileSync(join(dir, "staged.txt"), "staged\n");
    git(dir, "add", "staged.txt");
    writeFileSync(join(dir, "deleted.txt"), "keep me, changed but not staged\n");
  }
  return dir;
}

async function bashTurn(dir: string, config: string, command: string) {
  server = startModelServer([reply(toolUse("Bash", { command })), reply(text("done"))]);
  const run = await runAgent(["-p", "go", "--output-format", "json"], { cwd: dir, model: server.url, env: { CLAUDE_CONFIG_DIR: config, ...ON } });
  expect(run.code).toBe(0);
  const id = JSON.parse(run.stdout.trim().split("\n").at(-1)!).session_id as string;
  const transcript = readFileSync(join(config, "agent-sessions", dir.replace(/[^A-Za-z0-9]/g, "-"), `${id}.jsonl`), "utf8");
  const message = transcript
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((r) => r.type === "message" && r.message.role === "user").id as string;
  return { id, message };
}

describe("Bash's changes and --rewind-files", () => {
  test("sed -i, a created and a deleted file come back; index, stash and status as before; no repository command ran", async () => {
    const dir = repo();
    const config = tempDir("agent-config-");
    const status = git(dir, "status", "--porcelain");
    const stash = git(dir, "stash", "list");
    const index = readFileSync(join(dir, ".git", "index"));
    const refs = git(dir, "for-each-ref");
    // Hostile configuration: any of these running leaves a mark.
    const mark = join(tempDir(), "ran");
    const hook = join(tempDir(), "hook.sh");
    writeFileSync(hook, `#!/bin/sh\necho ran >> ${mark}\ncat\n`);
    chmodSync(hook, 0o755);
    git(dir, "config", "core.fsmonitor", hook);
    git(dir, "config", "filter.evil.clean", hook);
    git(dir, "config", "filter.evil.required", "true");
    writeFileSync(join(dir, ".git", "info", "attributes"), "* filter=evil\n");
    const { id, message } = await bashTurn(dir, config, "sed -i s/x/y/ tracked.txt && echo created > created.txt && rm deleted.txt");
    expect(readFileSync(join(dir, "tracked.txt"), "utf8")).toBe("y one\ny two\n");
    const rewound = await runAgent(["-p", "--resume", id, "--rewind-files", message], { cwd: dir, env: { CLAUDE_CONFIG_DIR: config } });
    expect(rewound.stderr).toBe("");
    expect(rewound.code).toBe(0);
    expect(rewound.stdout).toContain(`restored ${join(dir, "tracked.txt")}`);
    expect(existsSync(mark)).toBe(false);
    // The user's index file itself, byte for byte (before our own git status below refreshes it).
    expect(readFileSync(join(dir, ".git", "index")).equals(index)).toBe(true);
    git(dir, "config", "--unset", "core.fsmonitor");
    writeFileSync(join(dir, ".git", "info", "attributes"), "");
    expect(readFileSync(join(dir, "tracked.txt"), "utf8")).toBe("x one\nx two\n");
    expect(readFileSync(join(dir, "deleted.txt"), "utf8")).toBe("keep me, changed but not staged\n");
    expect(existsSync(join(dir, "created.txt"))).toBe(false);
    expect(readFileSync(join(dir, "ignored.txt"), "utf8")).toBe("ignored\n");
    expect(git(dir, "status", "--porcelain")).toBe(status);
    expect(git(dir, "stash", "list")).toBe(stash);
    expect(git(dir, "for-each-ref")).toBe(refs);
  });

  test("after a git checkout of another branch, the files are as before the turn and the branch's own file is gone", async () => {
    const dir = repo(true);
    const config = tempDir("agent-config-");
    // No attributes here: the snapshot takes its fast path (git add on a private index); fsmonitor must not run there either.
    const mark = join(tempDir(), "ran");
    const hook = join(tempDir(), "hook.sh");
    writeFileSync(hook, `#!/bin/sh\necho ran >> ${mark}\n`);
    chmodSync(hook, 0o755);
    git(dir, "config", "core.fsmonitor", hook);
    const { id, message } = await bashTurn(dir, config, "git -c core.fsmonitor= checkout -q other");
    expect(readFileSync(join(dir, "tracked.txt"), "utf8")).toBe("other branch\n");
    const rewound = await runAgent(["-p", "--resume", id, "--rewind-files", message], { cwd: dir, env: { CLAUDE_CONFIG_DIR: config } });
    expect(rewound.code).toBe(0);
    expect(readFileSync(join(dir, "tracked.txt"), "utf8")).toBe("x one\nx two\n");
    expect(existsSync(join(dir, "other-only.txt"))).toBe(false);
    expect(readFileSync(join(dir, "deleted.txt"), "utf8")).toBe("keep me\n");
    expect(existsSync(mark)).toBe(false);
  });

  test("a file under a line-ending attribute comes back byte for byte (CRLF kept)", async () => {
    const dir = repo(true);
    const config = tempDir("agent-config-");
    writeFileSync(join(dir, ".gitattributes"), "* text=auto\n");
    writeFileSync(join(dir, "crlf.txt"), "a\r\nb\r\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "crlf");
    const { id, message } = await bashTurn(dir, config, "printf 'changed\\n' > crlf.txt");
    expect(readFileSync(join(dir, "crlf.txt"), "utf8")).toBe("changed\n");
    const rewound = await runAgent(["-p", "--resume", id, "--rewind-files", message], { cwd: dir, env: { CLAUDE_CONFIG_DIR: config } });
    expect(rewound.code).toBe(0);
    expect(readFileSync(join(dir, "crlf.txt"), "utf8")).toBe("a\r\nb\r\n");
  });

  test("outside git the rewind says Bash's changes are not tracked", async () => {
    const dir = tempDir();
    const config = tempDir("agent-config-");
    const { id, message } = await bashTurn(dir, config, "echo made > made.txt");
    const rewound = await runAgent(["-p", "--resume", id, "--rewind-files", message], { cwd: dir, env: { CLAUDE_CONFIG_DIR: config } });
    expect(rewound.code).toBe(0);
    expect(rewound.stderr.trim()).toBe("note: Changes made by Bash are not tracked here (not a git work tree).");
    expect(existsSync(join(dir, "made.txt"))).toBe(true);
  });
});
