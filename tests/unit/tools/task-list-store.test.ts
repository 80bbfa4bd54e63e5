/**
 * The task list's files (tools/task-list/store.ts) against hostile ids: a path-like id given to the
 * tools finds nothing, and a task file whose own `id` field is path-like (edited by hand, or by
 * another program) is refused, so no update or delete ever writes outside the session's folder.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TaskStore } from "../../../lib/tools/task-list/store.ts";
import { taskListTools } from "../../../lib/tools/task-list/task-tools.ts";
import { tempDir } from "../../support/run.ts";

function setup() {
  const root = tempDir("agent-tasks-");
  const dir = join(root, "tasks", "session");
  mkdirSync(dir, { recursive: true });
  const store = new TaskStore(dir);
  const tools = Object.fromEntries(taskListTools(() => store).map((t) => [t.name, t]));
  const call = (name: string, input: Record<string, unknown>) => tools[name]!.run(input, {} as never);
  return { root, dir, call };
}

test("a path-like taskId finds no task and writes nothing", async () => {
  const { root, dir, call } = setup();
  for (const taskId of ["../../x", "/etc/passwd", "1/../2", "..", "1.json"]) {
    const r = await call("TaskUpdate", { taskId, status: "in_progress" });
    expect(String(r.content)).toBe("Task not found");
  }
  expect(readdirSync(dir).filter((n) => !n.startsWith("."))).toEqual([]);
  expect(readdirSync(root)).toEqual(["tasks"]);
});

test("a task file whose own id is path-like is refused: an update writes nothing outside the folder", async () => {
  const { root, dir, call } = setup();
  const doc = { id: "../../escaped", subject: "s", description: "d", status: "pending", blocks: [], blockedBy: [] };
  writeFileSync(join(dir, "1.json"), JSON.stringify(doc));
  const r = await call("TaskUpdate", { taskId: "1", status: "in_progress" }).catch((e: Error) => ({ content: e.message }));
  expect(String(r.content)).toContain("1.json");
  expect(existsSync(join(root, "escaped.json"))).toBe(false);
  const d = await call("TaskUpdate", { taskId: "1", status: "deleted" }).catch((e: Error) => ({ content: e.message }));
  expect(String(d.content)).toContain("1.json");
  expect(readdirSync(root)).toEqual(["tasks"]);
});
