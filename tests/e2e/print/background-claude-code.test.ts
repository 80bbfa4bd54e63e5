/**
 * One background command side by side with Claude Code's own executable (from the Agent SDK
 * package, offline, the same scripted replies): the same shape of launch result (an id `b` + 8
 * characters, an output file `…/tasks/<id>.output`), the same `<task-notification>` fields and
 * summary, the same number of model calls, and both runs waiting for the command before they
 * exit. The wording around them is each program's own. Skipped when the executable is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type RecordedRequest, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const HAVE_CLAUDE = existsSync(CLAUDE);

/** The text of the last user message of a request, tool results included. */
const lastUser = (req: RecordedRequest): string => {
  const m = req.body.messages.at(-1);
  if (typeof m.content === "string") return m.content;
  return m.content
    .map((b: { text?: string; content?: unknown }) => b.text ?? (typeof b.content === "string" ? b.content : JSON.stringify(b.content)))
    .join("\n");
};

/** What each program shows the model, reduced to its shape. */
async function shape(
  program: "claude" | "agent",
  input: Record<string, unknown> = { command: "echo SIDE_BY_SIDE", run_in_background: true, description: "bg side" },
) {
  const server = startModelServer([reply(toolUse("Bash", input, "toolu_side")), reply(text("started")), reply(text("heard it"))]);
  try {
    const dir = tempDir();
    const home = tempDir("agent-home-");
    const args = ["-p", "run it", "--output-format", "json"];
    let code: number;
    if (program === "agent") code = (await runAgent(args, { cwd: dir, model: server.url, env: { HOME: home, AGENT_BACKGROUND_TASKS: "1" } })).code;
    else {
      const env = { ...baseEnv(server.url), HOME: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } as Record<string, string>;
      delete env.CLAUDE_CONFIG_DIR;
      const proc = Bun.spawn([CLAUDE, ...args, "--allowedTools", "Bash"], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      code = await proc.exited;
    }
    const launch = lastUser(server.requests[1]!);
    const id = launch.match(/ID: (b[a-z0-9]{8})\b/)?.[1];
    const file = launch.match(/(\/\S+\/tasks\/(b[a-z0-9]{8})\.output)/)?.[1];
    const notice = server.requests[2] ? lastUser(server.requests[2]) : "";
    const fields = [...notice.matchAll(/<([a-z-]+)>/g)].map((m) => m[1]).filter((f) => f !== "system-reminder");
    return {
      code,
      calls: server.requests.length,
      idMatchesFile: id !== undefined && file?.endsWith(`/tasks/${id}.output`),
      fields: [...new Set(fields)],
      taskId: notice.includes(`<task-id>${id}</task-id>`),
      toolUseId: notice.includes("<tool-use-id>toolu_side</tool-use-id>"),
      outputFile: file !== undefined && notice.includes(`<output-file>${file}</output-file>`),
      summary: notice.match(/<summary>(.*)<\/summary>/)?.[1],
      status: notice.match(/<status>(.*)<\/status>/)?.[1],
      note: notice.includes("<note>"),
      output: file && existsSync(file) ? await Bun.file(file).text() : undefined,
    };
  } finally {
    server.stop();
  }
}

describe.skipIf(!HAVE_CLAUDE)("a background command side by side with Claude Code", () => {
  test("the same launch result shape, the same notice fields and summary, the same model calls", async () => {
    const cc = await shape("claude");
    const ours = await shape("agent");
    expect(ours).toEqual(cc);
    expect(ours).toMatchObject({ code: 0, calls: 3, summary: 'Background command "bg side" completed (exit code 0)' });
  }, 120_000);

  test("a command stopped at its background time limit: the same notice, status killed, with a note", async () => {
    const input = { command: "sleep 300", run_in_background: true, description: "bg limit", timeout: 1500 };
    const cc = await shape("claude", input);
    const ours = await shape("agent", input);
    expect(ours).toEqual(cc);
    expect(ours).toMatchObject({ status: "killed", note: true, summary: 'Background command "bg limit" was stopped after reaching its background time limit' });
  }, 120_000);
});
