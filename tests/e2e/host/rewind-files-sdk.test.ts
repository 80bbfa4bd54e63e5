/**
 * The Agent SDK's `rewindFiles()` through the real SDK driving our executable (host mode) with
 * `enableFileCheckpointing`: a dry run reports the files and line counts and changes nothing; the
 * rewind restores the edited file and deletes the created one; without the option the answer says
 * checkpoints are off. Slow (real processes): SKIP_SLOW=1 skips them locally, never in CI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { query, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
const TEST_TIMEOUT_MS = 90_000;

let server: ModelServer | undefined;
afterEach(() => server?.stop());

/** One prompt with a known uuid; the input stays open until `done` so control requests can follow the turn. */
function session(dir: string, enableFileCheckpointing: boolean) {
  const uuid = crypto.randomUUID();
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  async function* input(): AsyncGenerator<SDKUserMessage> {
    yield { type: "user", message: { role: "user", content: "edit the files" }, parent_tool_use_id: null, session_id: "", uuid } as SDKUserMessage;
    await done;
  }
  const env = { ...baseEnv(server!.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
  const q = query({ prompt: input(), options: { pathToClaudeCodeExecutable: PROGRAM, cwd: dir, env, enableFileCheckpointing } });
  return { q, uuid, finish };
}

async function untilResult(q: AsyncIterator<unknown>): Promise<void> {
  for (;;) {
    const next = await q.next();
    if (next.done || (next.value as { type?: string }).type === "result") return;
  }
}

describe.skipIf(SKIP)("the Agent SDK's rewindFiles", () => {
  test(
    "dryRun previews (files, insertions, deletions) without changing anything; the rewind restores and deletes",
    async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\n");
      server = startModelServer([
        reply(toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "two\n", new_string: "2\n2b\n" })),
        reply(toolUse("Write", { file_path: join(dir, "b.txt"), content: "new\nfile\n" })),
        reply(text("done")),
      ]);
      const { q, uuid, finish } = session(dir, true);
      try {
        await untilResult(q);
        const preview = await q.rewindFiles(uuid, { dryRun: true });
        expect(preview).toMatchObject({ canRewind: true, insertions: 4, deletions: 1 });
        expect(preview.filesChanged!.sort()).toEqual([join(dir, "a.txt"), join(dir, "b.txt")]);
        expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("one\n2\n2b\nthree\n");
        expect(existsSync(join(dir, "b.txt"))).toBe(true);

        const done = await q.rewindFiles(uuid);
        expect(done).toMatchObject({ canRewind: true, insertions: 4, deletions: 1 });
        expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
        expect(existsSync(join(dir, "b.txt"))).toBe(false);

        const unknown = await q.rewindFiles(crypto.randomUUID(), { dryRun: true });
        expect(unknown.canRewind).toBe(false);
        expect(unknown.error).toContain("no checkpoint for message");
      } finally {
        finish();
        for await (const _ of q);
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "without enableFileCheckpointing nothing is kept and the answer says so",
    async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "a.txt"), "one\n");
      server = startModelServer([reply(toolUse("Write", { file_path: join(dir, "a.txt"), content: "two\n" })), reply(text("done"))]);
      const { q, uuid, finish } = session(dir, false);
      try {
        await untilResult(q);
        const answer = await q.rewindFiles(uuid, { dryRun: true });
        expect(answer.canRewind).toBe(false);
        expect(answer.error).toContain("checkpointing is off");
      } finally {
        finish();
        for await (const _ of q);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
