/**
 * `-p --resume <id> --rewind-files <message>` side by side with Claude Code's own executable (from
 * the Agent SDK package, offline, CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=1, the same scripted
 * Edit and Write): both restore the edited file and delete the new one, and both keep the backup
 * under the same name (`<16 hex of sha256(path)>@v1`) with the same bytes. Where the formats
 * differ: the index (Claude Code's transcript rows in `projects/`, ours in `agent-sessions/`), so
 * neither restores from the other's session. Skipped when the executable is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";
import { backupName } from "../../../lib/agent/checkpoints/store.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const HAVE_CLAUDE = existsSync(CLAUDE);
const SLOW = 120_000;

const script = (dir: string) => [
  reply(toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "original", new_string: "changed" })),
  reply(toolUse("Write", { file_path: join(dir, "b.txt"), content: "new\n" })),
  reply(text("done")),
];

/** Runs one program's edit, then its rewind; returns what the files and the backup folder hold. */
async function side(program: "claude" | "agent") {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  const config = join(home, ".claude");
  writeFileSync(join(dir, "a.txt"), "original\n");
  const server = startModelServer(script(dir));
  const env = { ...baseEnv(server.url), HOME: home, CLAUDE_CONFIG_DIR: config, CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "1" } as Record<string, string>;
  const exec = async (args: string[]) => {
    if (program === "agent") return runAgent(args, { cwd: dir, env });
    const proc = Bun.spawn([CLAUDE, ...args], {
      cwd: dir,
      env: { ...env, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  };
  try {
    const edit = await exec(["-p", "edit", "--permission-mode", "acceptEdits", "--output-format", "json"]);
    expect(edit.code).toBe(0);
    const sid = JSON.parse(edit.stdout.trim().split("\n").at(-1)!).session_id as string;
    const folder = join(config, "file-history", sid);
    const backups = readdirSync(folder).filter((f) => /@v\d+$/.test(f));
    const kept = backups.map((f) => readFileSync(join(folder, f), "utf8"));
    const sessions = join(config, program === "claude" ? "projects" : "agent-sessions");
    const transcript = readFileSync(join(sessions, readdirSync(sessions)[0]!, `${sid}.jsonl`), "utf8");
    const rows = transcript
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const user = rows.find((r) => (program === "claude" ? r.type === "user" : r.type === "message" && r.message.role === "user"));
    const rewind = await exec(["-p", "--resume", sid, "--rewind-files", program === "claude" ? user.uuid : user.id]);
    return {
      code: rewind.code,
      a: readFileSync(join(dir, "a.txt"), "utf8"),
      b: existsSync(join(dir, "b.txt")),
      backups,
      expectedName: backupName(join(dir, "a.txt"), 1),
      kept,
      stdout: rewind.stdout,
    };
  } finally {
    server.stop();
  }
}

describe.skipIf(!HAVE_CLAUDE)("--rewind-files side by side with Claude Code", () => {
  test(
    "the same files come back, the new one is deleted, and the backup has the same name and bytes",
    async () => {
      const [cc, ours] = await Promise.all([side("claude"), side("agent")]);
      for (const r of [cc, ours]) {
        expect(r.code).toBe(0);
        expect(r.a).toBe("original\n");
        expect(r.b).toBe(false);
        expect(r.backups).toEqual([r.expectedName]);
        expect(r.kept).toEqual(["original\n"]);
      }
      expect(cc.stdout).toContain("Files rewound to state at message");
      expect(ours.stdout).toContain("Files rewound to their state at message");
    },
    SLOW,
  );
});
