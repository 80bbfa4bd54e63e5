/**
 * Two processes on one session (lib/agent/sessions/transcript-lock.ts): while one `-p` run writes
 * a session, a second resuming it says, once, that it cannot save, and still answers; the
 * transcript holds the first run's lines only, each valid, and reads back.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readTranscript } from "../../../lib/agent/sessions/transcript.ts";
import { sessionsDir } from "../../../lib/agent/sessions/sessions.ts";
import { type AgentProcess, spawnAgent } from "../../support/mcp.ts";
import { reply, startModelServer, text } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";
import { until } from "../../support/wait.ts";

test("a second writer of a session is kept out, says so, and still answers", async () => {
  const dir = tempDir();
  const config = tempDir("agent-config-");
  const id = crypto.randomUUID();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let first!: AgentProcess;
  // The first run's first model call waits until the second run is done: the session is held meanwhile.
  const model = startModelServer([
    async () => {
      await held;
      return reply(text("first answer"));
    },
  ]);
  const second = startModelServer([reply(text("second answer"))]);
  try {
    first = spawnAgent(["-p", "first", "--session-id", id], { cwd: dir, model: model.url, env: { CLAUDE_CONFIG_DIR: config } });
    const file = join(sessionsDir(config, dir), `${id}.jsonl`);
    // Its user message is on disk (and the lock taken) before its first model call.
    await until(() => model.requests.length > 0, "the first run's model call");
    const r = await runAgent(["--resume", id, "-p", "second"], { cwd: dir, model: second.url, env: { CLAUDE_CONFIG_DIR: config } });
    expect([r.code, r.stdout]).toEqual([0, "second answer\n"]);
    expect(r.stderr).toBe(`cannot save this session to ${file}: it is being written by another process (pid ${first.pid})\n`);
    release();
    expect(await first.done).toMatchObject({ code: 0, stdout: "first answer\n" });
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    for (const line of lines) JSON.parse(line);
    const { records } = readTranscript(file, (w) => expect(w).toBeUndefined());
    expect(JSON.stringify(records)).not.toContain("second");
    expect(JSON.stringify(records)).toContain("first answer");
  } finally {
    release();
    model.stop();
    second.stop();
  }
}, 30_000);
