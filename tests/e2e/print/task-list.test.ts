/**
 * The task list in -p, through the real program and a scripted model: offered only when asked
 * (CLAUDE_CODE_ENABLE_TODO_TOOLS, --allowedTools); TaskCreate/TaskUpdate/TaskList/TaskGet with
 * Claude Code's result texts and its files under ~/.claude/tasks/<session>/ (0700, one JSON file
 * per task, .highwatermark); an unknown id and a hand-corrupted task file; TodoWrite instead when
 * CLAUDE_CODE_ENABLE_TASKS=0.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelServer, reply, type Step, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const names = (s: ModelServer) => s.requests[0]!.body.tools.map((t: { name: string }) => t.name) as string[];

/** Runs `steps` (one tool call each), then "done"; the results the model read, in order, and the config folder. */
async function run(steps: Step[], opts: { env?: Record<string, string>; args?: string[]; config?: string } = {}) {
  const config = opts.config ?? tempDir("agent-config-");
  server = startModelServer([...steps, reply(text("done"))]);
  const r = await runAgent(["-p", "track it", "--output-format", "json", ...(opts.args ?? [])], {
    cwd: tempDir(),
    model: server.url,
    env: { CLAUDE_CONFIG_DIR: config, ...opts.env },
  });
  expect(r.code).toBe(0);
  const results = server.requests.slice(1).map((q) => q.body.messages.at(-1).content[0] as { content: string; is_error?: boolean });
  return { config, results, sessionId: JSON.parse(r.stdout).session_id as string, server };
}

const ON = { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" };

describe("the task list in -p", () => {
  test("is not offered unless asked; CLAUDE_CODE_ENABLE_TODO_TOOLS or --allowedTools asks", async () => {
    server = startModelServer([reply(text("ok"))]);
    await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url });
    expect(names(server).filter((n) => /^Task|TodoWrite/.test(n))).toEqual([]);
    server.stop();
    server = startModelServer([reply(text("ok"))]);
    await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url, env: ON });
    expect(names(server).filter((n) => /^Task|TodoWrite/.test(n))).toEqual(["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"]);
    server.stop();
    server = startModelServer([reply(text("ok"))]);
    // Naming one asks for the list: a model that can create tasks can also update them.
    await runAgent(["-p", "hi", "--allowedTools", "TaskCreate"], { cwd: tempDir(), model: server.url });
    expect(names(server).filter((n) => /^Task|TodoWrite/.test(n))).toEqual(["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"]);
  });

  test("TaskCreate, TaskUpdate, TaskList, TaskGet: Claude Code's texts and files", async () => {
    const { config, results, sessionId } = await run(
      [
        reply(toolUse("TaskCreate", { subject: "Write tests", description: "Write unit tests for foo", activeForm: "Writing tests" })),
        reply(toolUse("TaskCreate", { subject: "Fix bug", description: "Fix the bug" })),
        reply(toolUse("TaskUpdate", { taskId: "1", status: "in_progress", addBlocks: ["2"] })),
        reply(toolUse("TaskList", {})),
        reply(toolUse("TaskGet", { taskId: "1" })),
        reply(toolUse("TaskUpdate", { taskId: "9", status: "completed" })),
      ],
      { env: ON },
    );
    expect(results.map((r) => r.content)).toEqual([
      "Task #1 created successfully: Write tests",
      "Task #2 created successfully: Fix bug",
      "Updated task #1 status, blocks",
      "#1 [in_progress] Write tests\n#2 [pending] Fix bug [blocked by #1]",
      "Task #1: Write tests\nStatus: in_progress\nDescription: Write unit tests for foo\nBlocks: #2",
      "Task not found",
    ]);
    const dir = join(config, "tasks", sessionId);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // .highwatermark appears with the first delete (the highest id deleted), as Claude Code writes it.
    expect(readdirSync(dir).sort()).toEqual([".lock", "1.json", "2.json"]);
    expect(JSON.parse(readFileSync(join(dir, "1.json"), "utf8"))).toEqual({
      id: "1",
      subject: "Write tests",
      description: "Write unit tests for foo",
      activeForm: "Writing tests",
      status: "in_progress",
      blocks: ["2"],
      blockedBy: [],
    });
    expect(JSON.parse(readFileSync(join(dir, "2.json"), "utf8")).blockedBy).toEqual(["1"]);
  });

  test("deleting a task removes its file and its id from the others' links", async () => {
    const { config, results, sessionId } = await run(
      [
        reply(toolUse("TaskCreate", { subject: "A", description: "a" })),
        reply(toolUse("TaskCreate", { subject: "B", description: "b" })),
        reply(toolUse("TaskUpdate", { taskId: "2", addBlockedBy: ["1"] })),
        reply(toolUse("TaskUpdate", { taskId: "2", status: "deleted" })),
      ],
      { env: ON },
    );
    expect(results[3]!.content).toBe("Updated task #2 deleted");
    const dir = join(config, "tasks", sessionId);
    expect(readdirSync(dir).filter((f) => f.endsWith(".json"))).toEqual(["1.json"]);
    expect(readFileSync(join(dir, ".highwatermark"), "utf8")).toBe("2");
    expect(JSON.parse(readFileSync(join(dir, "1.json"), "utf8")).blocks).toEqual([]);
  });

  test("a task file edited by hand into invalid JSON is one error result naming the file; the others still list", async () => {
    const config = tempDir("agent-config-");
    let file = "";
    const { results } = await run(
      [
        reply(toolUse("TaskCreate", { subject: "A", description: "a" })),
        reply(toolUse("TaskCreate", { subject: "B", description: "b" })),
        () => {
          // The user edits task 1 by hand between two calls.
          const tasks = join(config, "tasks");
          file = join(tasks, readdirSync(tasks)[0]!, "1.json");
          writeFileSync(file, '{"id": "1", "subject": ');
          return reply(toolUse("TaskGet", { taskId: "1" }));
        },
        reply(toolUse("TaskList", {})),
        reply(toolUse("TaskUpdate", { taskId: "1", status: "completed" })),
      ],
      { env: ON, config },
    );
    expect(results[2]).toMatchObject({ is_error: true, content: `The task file ${file} is not valid JSON (was it edited by hand?); fix it or delete it.` });
    expect(results[3]!.content).toBe(`#2 [pending] B\n#1 [unreadable] The task file ${file} is not valid JSON (was it edited by hand?); fix it or delete it.`);
    expect(results[4]!.is_error).toBe(true);
  });

  test("bad input is one error result: a missing subject, an unknown field, a wrong status", async () => {
    const { results } = await run(
      [
        reply(toolUse("TaskCreate", { description: "no subject" })),
        reply(toolUse("TaskCreate", { subject: "x", description: "y", colour: "red" })),
        reply(toolUse("TaskUpdate", { taskId: "1", status: "done" })),
      ],
      { env: ON },
    );
    expect(results.every((r) => r.is_error === true)).toBe(true);
    expect(results.map((r) => String(r.content))).toEqual([
      expect.stringContaining('"subject" is required'),
      expect.stringContaining('unknown field "colour"'),
      expect.stringContaining('"status" must be one of'),
    ]);
  });

  test("CLAUDE_CODE_ENABLE_TASKS=0: TodoWrite instead, with Claude Code's result; bad items are one error result", async () => {
    const { results, server: s } = await run(
      [
        reply(toolUse("TodoWrite", { todos: [{ content: "Run tests", status: "in_progress", activeForm: "Running tests" }] })),
        reply(toolUse("TodoWrite", { todos: [{ content: "x", status: "doing" }] })),
      ],
      { env: { ...ON, CLAUDE_CODE_ENABLE_TASKS: "0" } },
    );
    expect(names(s).filter((n) => /^Task|TodoWrite/.test(n))).toEqual(["TodoWrite"]);
    expect(results[0]!.content).toStartWith("Todos have been modified successfully.");
    expect(results[1]!.is_error).toBe(true);
    expect(String(results[1]!.content)).toContain("todos[0].activeForm");
    expect(String(results[1]!.content)).toContain("todos[0].status");
  });
});
