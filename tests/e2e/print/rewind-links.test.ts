/**
 * A rewind of what Bash changed must never write or delete through a folder that became a symbolic
 * link since the snapshot: a (perhaps sandboxed) command that replaces `sub/` by a link to a folder
 * outside the project would otherwise have the rewind, which runs outside any sandbox, write the
 * snapshot's `sub/note.txt` into that folder, or delete a file there. The rewind refuses with one
 * line, and the outside folder is unchanged. Nor does a repository whose `core.worktree` points
 * above the project make the rewind delete what the user saved there.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const ON = { CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "1" };

function git(dir: string, ...args: string[]): void {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
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

describe("a rewind of Bash's changes and a folder turned into a link", () => {
  test("sub/ replaced by a link to a folder outside: nothing is written or deleted there", async () => {
    const dir = tempDir();
    const outside = tempDir("agent-outside-");
    writeFileSync(join(outside, "keep.txt"), "outside\n");
    git(dir, "init", "-q");
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "note.txt"), "from the repository\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    const config = tempDir("agent-config-");
    // The turn: sub/ goes, a link to the outside folder takes its place.
    const { id, message } = await bashTurn(dir, config, `rm -rf sub && ln -s ${outside} sub`);
    const rewound = await runAgent(["-p", "--resume", id, "--rewind-files", message], { cwd: dir, env: { CLAUDE_CONFIG_DIR: config } });
    expect(readdirSync(outside).sort()).toEqual(["keep.txt"]);
    expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("outside\n");
    expect(rewound.code).not.toBe(0);
    expect(rewound.stderr).toContain(`${join(dir, "sub")} is now a symbolic link; not writing or deleting through it`);
    expect(rewound.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("a repository whose core.worktree points above it (a downloaded .git/config): nothing outside the project is tracked or deleted", async () => {
    const outside = tempDir("agent-outside-");
    const dir = join(outside, "project");
    mkdirSync(dir);
    git(dir, "init", "-q");
    writeFileSync(join(dir, "a.txt"), "a\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    git(dir, "config", "core.worktree", outside);
    const config = tempDir("agent-config-");
    const { id, message } = await bashTurn(dir, config, "echo made > ../made-by-bash.txt");
    // The user saves a file there after the turn.
    writeFileSync(join(outside, "users-own.txt"), "mine\n");
    await runAgent(["-p", "--resume", id, "--rewind-files", message], { cwd: dir, env: { CLAUDE_CONFIG_DIR: config } });
    expect(readFileSync(join(outside, "users-own.txt"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(outside, "made-by-bash.txt"), "utf8")).toBe("made\n");
  });
});
