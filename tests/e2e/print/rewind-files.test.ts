/**
 * Checkpoints and `-p --resume <id> --rewind-files <message id>` through the real program: what
 * is kept (Claude Code's file-history layout, modes, transcript rows), -p keeping nothing without
 * CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING, the setting that turns them off, the rewind itself
 * (restored, deleted, a later change by the user, a planted symlink, a folder, a read-only file,
 * a damaged checkpoint, an unknown id, a prompt given with it), a checkpoint that cannot be
 * written, and a kill -9 in the middle of a rewind.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, runAgent, tempDir } from "../../support/run.ts";
import { until } from "../../support/wait.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const ON = { CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "1" };

function setup() {
  const dir = tempDir();
  const config = tempDir("agent-config-");
  return { dir, config, env: { CLAUDE_CONFIG_DIR: config } };
}

const rows = (config: string, dir: string, id: string) =>
  readFileSync(join(config, "agent-sessions", dir.replace(/[^A-Za-z0-9]/g, "-"), `${id}.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));

/** The ids of the session's user prompts, in order. */
const userIds = (config: string, dir: string, id: string): string[] =>
  rows(config, dir, id)
    .filter((r) => r.type === "message" && r.message.role === "user" && typeof r.message.content[0]?.text === "string")
    .map((r) => r.id);

const sessionIdOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!).session_id as string;

/** One -p turn that Edits a.txt and Writes b.txt (new), with checkpoints on. */
async function editingTurn(dir: string, env: Record<string, string>, extra: Record<string, string> = ON) {
  server = startModelServer([
    reply(toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "original", new_string: "changed" })),
    reply(toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "changed", new_string: "changed twice" })),
    reply(toolUse("Write", { file_path: join(dir, "b.txt"), content: "new file\n" })),
    reply(text("done")),
  ]);
  const run = await runAgent(["-p", "edit", "--output-format", "json"], { cwd: dir, model: server.url, env: { ...env, ...extra } });
  expect(run.code).toBe(0);
  return sessionIdOf(run.stdout);
}

describe("checkpoints in -p", () => {
  test("without the variable -p keeps nothing: no file-history folder, no checkpoint rows", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    const id = await editingTurn(dir, env, {});
    expect(existsSync(join(config, "file-history"))).toBe(false);
    expect(rows(config, dir, id).some((r) => r.type === "file-history-snapshot")).toBe(false);
  });

  test("settings fileCheckpointingEnabled: false turns them off even with the variable", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(config, "settings.json"), JSON.stringify({ fileCheckpointingEnabled: false }));
    writeFileSync(join(dir, "a.txt"), "original\n");
    await editingTurn(dir, env);
    expect(existsSync(join(config, "file-history"))).toBe(false);
  });

  test("with the variable: the pre-turn content in Claude Code's layout, absent recorded as absent; the rewind restores and deletes", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    const id = await editingTurn(dir, env);
    const folder = join(config, "file-history", id);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    // Two Edits of a.txt in one turn: one backup, the content before the turn. b.txt was new: no file.
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{16}@v1$/);
    expect(readFileSync(join(folder, files[0]!), "utf8")).toBe("original\n");
    expect(statSync(join(folder, files[0]!)).mode & 0o777).toBe(0o600);
    const [message] = userIds(config, dir, id);
    const snapshots = rows(config, dir, id).filter((r) => r.type === "file-history-snapshot");
    expect(snapshots[0]).toMatchObject({ messageId: message, isSnapshotUpdate: false, snapshot: { messageId: message, trackedFileBackups: {} } });
    const last = snapshots.at(-1)!.snapshot.trackedFileBackups;
    expect(last[join(dir, "a.txt")]).toMatchObject({ backupFileName: files[0], version: 1 });
    expect(last[join(dir, "b.txt")]).toMatchObject({ backupFileName: null, version: 1 });

    const rewound = await runAgent(["-p", "--resume", id, "--rewind-files", message!], { cwd: dir, env });
    expect(rewound.stderr).toBe("");
    expect(rewound.code).toBe(0);
    expect(rewound.stdout).toContain(`Files rewound to their state at message ${message}`);
    expect(rewound.stdout).toContain(`restored ${join(dir, "a.txt")}`);
    expect(rewound.stdout).toContain(`deleted ${join(dir, "b.txt")}`);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("original\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
  });

  test("refused with a prompt, without --resume, and for an unknown message id: one line each", async () => {
    const { dir, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    const id = await editingTurn(dir, env);
    const withPrompt = await runAgent(["-p", "--resume", id, "--rewind-files", id, "hello"], { cwd: dir, env });
    expect(withPrompt.code).toBe(2);
    expect(withPrompt.stderr.trim().split("\n")).toHaveLength(1);
    expect(withPrompt.stderr).toContain("cannot be used with a prompt");
    const alone = await runAgent(["-p", "--rewind-files", id], { cwd: dir, env });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--resume");
    const unknown = await runAgent(["-p", "--resume", id, "--rewind-files", "no-such-message"], { cwd: dir, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe("error: no checkpoint for message no-such-message in this session");
    const overwriteAlone = await runAgent(["-p", "--resume", id, "--rewind-overwrite", "hello"], { cwd: dir, env });
    expect([overwriteAlone.code, overwriteAlone.stderr.trim()]).toEqual([2, "error: --rewind-overwrite needs --rewind-files <message uuid>"]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("changed twice\n");
  });

  test("a file the user changed since stops the rewind (named, nothing changed) unless --rewind-overwrite", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    const id = await editingTurn(dir, env);
    const [message] = userIds(config, dir, id);
    writeFileSync(join(dir, "a.txt"), "the user's own change\n");
    const refused = await runAgent(["-p", "--resume", id, "--rewind-files", message!], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain(`changed since by someone other than the agent: ${join(dir, "a.txt")}`);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("the user's own change\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(true);
    const forced = await runAgent(["-p", "--resume", id, "--rewind-files", message!, "--rewind-overwrite"], { cwd: dir, env });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("original\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
  });

  test("a planted symlink is replaced, never written or deleted through", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    const id = await editingTurn(dir, env);
    const [message] = userIds(config, dir, id);
    const outside = tempDir();
    writeFileSync(join(outside, "secret"), "keep me\n");
    writeFileSync(join(outside, "other"), "keep me too\n");
    rmSync(join(dir, "a.txt"));
    symlinkSync(join(outside, "secret"), join(dir, "a.txt"));
    rmSync(join(dir, "b.txt"));
    symlinkSync(join(outside, "other"), join(dir, "b.txt"));
    const run = await runAgent(["-p", "--resume", id, "--rewind-files", message!, "--rewind-overwrite"], { cwd: dir, env });
    expect(run.code).toBe(0);
    expect(readFileSync(join(outside, "secret"), "utf8")).toBe("keep me\n");
    expect(readFileSync(join(outside, "other"), "utf8")).toBe("keep me too\n");
    expect(statSync(join(dir, "a.txt")).isFile()).toBe(true);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("original\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
  });

  test("a folder where the file was, a read-only file, a damaged or deleted checkpoint: one line, no file changed", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    const id = await editingTurn(dir, env);
    const [message] = userIds(config, dir, id);
    const rewind = () => runAgent(["-p", "--resume", id, "--rewind-files", message!, "--rewind-overwrite"], { cwd: dir, env });
    const untouched = () => {
      expect(existsSync(join(dir, "b.txt"))).toBe(true);
    };

    rmSync(join(dir, "a.txt"));
    mkdirSync(join(dir, "a.txt"));
    let run = await rewind();
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${join(dir, "a.txt")} is now a folder`);
    untouched();
    rmSync(join(dir, "a.txt"), { recursive: true });

    writeFileSync(join(dir, "a.txt"), "changed twice\n");
    chmodSync(join(dir, "a.txt"), 0o444);
    run = await rewind();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(dir, "a.txt")} is read-only`);
    untouched();
    chmodSync(join(dir, "a.txt"), 0o644);

    const folder = join(config, "file-history", id);
    const [backup] = readdirSync(folder);
    writeFileSync(join(folder, backup!), "damaged");
    run = await rewind();
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("is damaged");
    untouched();

    rmSync(folder, { recursive: true });
    run = await rewind();
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("cannot be read (ENOENT)");
    untouched();
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("changed twice\n");
  });

  test("a checkpoint that cannot be written: the tool still runs, one line says it was skipped", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    // file-history as a plain file: every backup write fails, as on a full disk.
    writeFileSync(join(config, "file-history"), "");
    server = startModelServer([reply(toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "original", new_string: "changed" })), reply(text("done"))]);
    const run = await runAgent(["-p", "edit"], { cwd: dir, model: server.url, env: { ...env, ...ON } });
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("changed\n");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`checkpoint skipped for ${join(dir, "a.txt")}`);
  });

  test("a kill -9 in the middle of a rewind leaves every file old or new, and the next start completes it", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    writeFileSync(join(dir, "c.txt"), "c original\n");
    server = startModelServer([
      reply(toolUse("Write", { file_path: join(dir, "a.txt"), content: "a new\n" })),
      reply(toolUse("Write", { file_path: join(dir, "b.txt"), content: "b new\n" })),
      reply(toolUse("Write", { file_path: join(dir, "c.txt"), content: "c new\n" })),
      reply(text("done")),
    ]);
    const first = await runAgent(["-p", "edit", "--output-format", "json"], { cwd: dir, model: server.url, env: { ...env, ...ON } });
    const id = sessionIdOf(first.stdout);
    const [message] = userIds(config, dir, id);
    const marker = join(tempDir(), "paused");
    const proc = Bun.spawn([PROGRAM, "-p", "--resume", id, "--rewind-files", message!], {
      cwd: dir,
      env: { ...baseEnv(), ...env, AGENT_TEST_REWIND_PAUSE: marker } as Record<string, string>,
      stdout: "ignore",
      stderr: "ignore",
    });
    await until(() => existsSync(marker), "the rewind to pause between files");
    proc.kill("SIGKILL");
    await proc.exited;
    const states = {
      a: readFileSync(join(dir, "a.txt"), "utf8"),
      b: existsSync(join(dir, "b.txt")) ? readFileSync(join(dir, "b.txt"), "utf8") : null,
      c: readFileSync(join(dir, "c.txt"), "utf8"),
    };
    expect(["original\n", "a new\n"]).toContain(states.a);
    expect([null, "b new\n"]).toContain(states.b);
    expect(["c original\n", "c new\n"]).toContain(states.c);
    // Cut mid-way: some file is new, some old.
    expect(states.a).toBe("original\n");
    expect(states.c).toBe("c new\n");
    const again = await runAgent(["-p", "--resume", id, "--rewind-files", message!], { cwd: dir, env });
    expect(again.stderr).toContain("finished a rewind that was cut short");
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("original\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(readFileSync(join(dir, "c.txt"), "utf8")).toBe("c original\n");
    expect(readdirSync(dir).filter((f) => f.includes(".rewind-"))).toEqual([]);
  });

  test("checkpoints expire with their session after cleanupPeriodDays; a folder that is not one of our sessions is left alone", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    const id = await editingTurn(dir, env);
    const theirs = join(config, "file-history", crypto.randomUUID());
    mkdirSync(theirs, { recursive: true });
    writeFileSync(join(theirs, "0123456789abcdef@v1"), "Claude Code's\n");
    const old = new Date(Date.now() - 3 * 86_400_000);
    utimesSync(join(config, "agent-sessions", dir.replace(/[^A-Za-z0-9]/g, "-"), `${id}.jsonl`), old, old);
    utimesSync(theirs, old, old);
    writeFileSync(join(config, "settings.json"), JSON.stringify({ cleanupPeriodDays: 2 }));
    server = startModelServer([reply(text("hi"))]);
    const run = await runAgent(["-p", "hello"], { cwd: dir, model: server.url, env });
    expect(run.code).toBe(0);
    expect(existsSync(join(config, "file-history", id))).toBe(false);
    expect(readFileSync(join(theirs, "0123456789abcdef@v1"), "utf8")).toBe("Claude Code's\n");
  });

  test("a subagent's Write is tracked under the parent's turn", async () => {
    const { dir, config, env } = setup();
    writeFileSync(join(dir, "a.txt"), "original\n");
    let subCalls = 0;
    let parentCalls = 0;
    const step = (r: { body: { system?: unknown } }) => {
      if (JSON.stringify(r.body.system ?? "").includes("You were started by another agent"))
        return subCalls++ === 0 ? reply(toolUse("Write", { file_path: join(dir, "a.txt"), content: "by the subagent\n" })) : reply(text("sub done"));
      return parentCalls++ === 0 ? reply(toolUse("Agent", { description: "edit", prompt: "change a.txt" })) : reply(text("done"));
    };
    server = startModelServer(Array.from({ length: 10 }, () => step));
    const run = await runAgent(["-p", "delegate", "--allowedTools", "Agent", "--output-format", "json"], {
      cwd: dir,
      model: server.url,
      env: { ...env, ...ON },
    });
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("by the subagent\n");
    const id = sessionIdOf(run.stdout);
    const [message] = userIds(config, dir, id);
    const rewound = await runAgent(["-p", "--resume", id, "--rewind-files", message!], { cwd: dir, env });
    expect(rewound.code).toBe(0);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("original\n");
  });
});
