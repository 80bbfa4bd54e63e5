/**
 * The task list side by side with Claude Code's own executable (from the Agent SDK package,
 * offline, the same scripted TaskCreate/TaskUpdate/TaskList/TaskGet sequence, deletes, an id
 * issued after the highest was deleted, and an unknown id): the same result texts, and the same files under ~/.claude/tasks/<session>/, byte
 * for byte. Skipped when the executable is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, type Step, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const SLOW = 90_000;

const script = (): Step[] => [
  reply(toolUse("TaskCreate", { subject: "Write tests", description: "Write unit tests for foo", activeForm: "Writing tests" }, "toolu_a1")),
  reply(toolUse("TaskCreate", { subject: "Fix bug", description: "Fix the bug" }, "toolu_a2")),
  reply(toolUse("TaskCreate", { subject: "Ship", description: "Release it" }, "toolu_a3")),
  reply(toolUse("TaskUpdate", { taskId: "1", status: "in_progress", addBlocks: ["2"] }, "toolu_a4")),
  reply(toolUse("TaskUpdate", { taskId: "3", addBlockedBy: ["2"] }, "toolu_a5")),
  reply(toolUse("TaskList", {}, "toolu_a6")),
  reply(toolUse("TaskGet", { taskId: "1" }, "toolu_a7")),
  reply(toolUse("TaskUpdate", { taskId: "9", status: "completed" }, "toolu_a8")),
  reply(toolUse("TaskUpdate", { taskId: "2", status: "deleted" }, "toolu_a9")),
  reply(toolUse("TaskUpdate", { taskId: "3", status: "deleted" }, "toolu_b1")),
  // The highest id was deleted: the next one is still new.
  reply(toolUse("TaskCreate", { subject: "Again", description: "once more" }, "toolu_b2")),
  reply(text("done")),
];

/** One program's run: every tool result by call id, and the task folder's files with their text. */
async function side(program: "claude" | "agent") {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  const server = startModelServer(script());
  const args = ["-p", "track it", "--output-format", "json"];
  const extra = { HOME: home, CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" };
  try {
    let stdout: string;
    if (program === "agent") stdout = (await runAgent(args, { cwd: dir, model: server.url, env: extra })).stdout;
    else {
      const env = { ...baseEnv(server.url), ...extra, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } as Record<string, string>;
      delete env.CLAUDE_CONFIG_DIR;
      const proc = Bun.spawn([CLAUDE, ...args], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      stdout = await new Response(proc.stdout).text();
      await proc.exited;
    }
    const session = JSON.parse(stdout.trim().split("\n").at(-1)!).session_id as string;
    const results: Record<string, unknown> = {};
    for (const m of server.requests.at(-1)!.body.messages)
      for (const b of Array.isArray(m.content) ? m.content : [])
        if (b.type === "tool_result") results[b.tool_use_id] = { content: b.content, is_error: b.is_error === true };
    const folder = join(home, ".claude", "tasks", session);
    const files = Object.fromEntries(readdirSync(folder).map((f) => [f, readFileSync(join(folder, f), "utf8")]));
    return { results, files };
  } finally {
    server.stop();
  }
}

describe.skipIf(!existsSync(CLAUDE))("the task list side by side with Claude Code", () => {
  test(
    "the same results and the same files for create, update with links, list, get, an unknown id and a delete",
    async () => {
      const cc = await side("claude");
      const ours = await side("agent");
      expect(ours.results).toEqual(cc.results);
      expect(ours.files).toEqual(cc.files);
      // What was compared: three creates, the links, the list with its blocker, the delete's unlinking.
      expect(Object.keys(ours.files).sort()).toEqual([".highwatermark", ".lock", "1.json", "4.json"]);
      expect(ours.results.toolu_b2).toEqual({ content: "Task #4 created successfully: Again", is_error: false });
    },
    SLOW,
  );
});
