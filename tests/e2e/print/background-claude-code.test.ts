/**
 * One background command side by side with Claude Code's own executable (from the Agent SDK
 * package, offline, the same scripted replies): the same shape of launch result (an id `b` + 8
 * characters, an output file `…/tasks/<id>.output`), the same `<task-notification>` fields and
 * summary, the same number of model calls, and both runs waiting for the command before they
 * exit; a time limit's notice; TaskStop's result object and its refusal of an unknown id. The wording around
 * them is each program's own. Skipped when the executable is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const HAVE_CLAUDE = existsSync(CLAUDE);

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
    const launch = lastUserText(server.requests[1]!);
    const id = launch.match(/ID: (b[a-z0-9]{8})\b/)?.[1];
    const file = launch.match(/(\/\S+\/tasks\/(b[a-z0-9]{8})\.output)/)?.[1];
    const notice = server.requests[2] ? lastUserText(server.requests[2]) : "";
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

  test("TaskStop: the same result object, the same refusal of an unknown id, and no notice after a stop", async () => {
    const stop = async (program: "claude" | "agent") => {
      let stopped: { keys: string[]; task_type: string; command: string } | undefined;
      let unknown: { is_error: boolean; names: boolean } | undefined;
      const server = startModelServer([
        reply(toolUse("Bash", { command: "sleep 300", run_in_background: true, description: "to stop" })),
        (req) => reply(toolUse("TaskStop", { task_id: lastUserText(req).match(/ID: (b[a-z0-9]{8})\b/)![1] })),
        (req) => {
          const r = JSON.parse(req.body.messages.at(-1).content[0].content);
          stopped = { keys: Object.keys(r), task_type: r.task_type, command: r.command };
          return reply(toolUse("TaskStop", { task_id: "nonexistent123" }));
        },
        (req) => {
          const r = req.body.messages.at(-1).content[0];
          unknown = { is_error: r.is_error === true, names: JSON.stringify(r.content).includes("No task found with ID: nonexistent123") };
          return reply(text("stopped"));
        },
        reply(text("never")),
      ]);
      try {
        const dir = tempDir();
        const home = tempDir("agent-home-");
        const args = ["-p", "run it", "--output-format", "json"];
        let code: number;
        if (program === "agent") code = (await runAgent(args, { cwd: dir, model: server.url, env: { HOME: home, AGENT_BACKGROUND_TASKS: "1" } })).code;
        else {
          const env = { ...baseEnv(server.url), HOME: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } as Record<string, string>;
          delete env.CLAUDE_CONFIG_DIR;
          const proc = Bun.spawn([CLAUDE, ...args, "--allowedTools", "Bash,TaskStop"], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
          code = await proc.exited;
        }
        return { code, calls: server.requests.length, stopped, unknown };
      } finally {
        server.stop();
      }
    };
    const cc = await stop("claude");
    const ours = await stop("agent");
    expect(ours).toEqual(cc);
    expect(ours).toMatchObject({ calls: 4, stopped: { task_type: "local_bash", command: "sleep 300" }, unknown: { is_error: true, names: true } });
  }, 120_000);
});
