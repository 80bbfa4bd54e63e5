/**
 * The task rules read from a server's declarations (MCP 2025-11-25, basic/utilities/tasks
 * §Capabilities, §Tool-Level Negotiation, §Related Task Metadata): when a call is augmented,
 * which answers are tasks, and the related-task tag on our answers.
 */
import { describe, expect, test } from "bun:test";
import { augmentsCall, createdTask, readTask, RELATED_TASK, serverOffers, tagRelated } from "../../../../lib/mcp/tasks/task.ts";

const TASKS = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
const tool = (taskSupport?: unknown) => ({ name: "t", ...(taskSupport === undefined ? {} : { execution: { taskSupport } }) });

describe("augmentsCall", () => {
  test("required always, optional only with preferTasks, absent/forbidden/unknown never", () => {
    expect(augmentsCall(TASKS, tool("required"))).toBe(true);
    expect(augmentsCall(TASKS, tool("optional"))).toBe(false);
    expect(augmentsCall(TASKS, tool("optional"), true)).toBe(true);
    for (const support of [undefined, "forbidden", "sometimes", 1]) expect(augmentsCall(TASKS, tool(support), true)).toBe(false);
  });

  test("never without tasks.requests.tools.call, whatever the tool says (TK-01)", () => {
    for (const caps of [
      {},
      { tasks: {} },
      { tasks: { list: {}, cancel: {} } },
      { tasks: { requests: { tools: {} } } },
      { tasks: { requests: { tools: { call: true } } } },
    ]) {
      expect(augmentsCall(caps, tool("required"), true)).toBe(false);
    }
    expect(augmentsCall(TASKS, undefined)).toBe(false);
  });

  test("tasks/list and tasks/cancel only when declared", () => {
    expect([serverOffers(TASKS, "list"), serverOffers(TASKS, "cancel")]).toEqual([true, true]);
    expect(serverOffers({ tasks: { requests: {} } }, "cancel")).toBe(false);
    expect(serverOffers(undefined, "list")).toBe(false);
  });
});

describe("readTask and createdTask", () => {
  const wire = {
    taskId: "a1",
    status: "working" as const,
    statusMessage: "On it",
    createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:40:00Z",
    ttl: 60000,
    pollInterval: 5000,
  };

  test("a Task keeps the fields of §Task; ttl null is unlimited; bad fields are dropped", () => {
    expect(readTask(wire)).toEqual(wire);
    expect(readTask({ taskId: "b", status: "completed", ttl: null, pollInterval: -1, statusMessage: 3 })).toEqual({
      taskId: "b",
      status: "completed",
      ttl: null,
    });
  });

  test("no task without a string id and a known status", () => {
    for (const bad of [null, {}, { taskId: 1, status: "working" }, { taskId: "", status: "working" }, { taskId: "x", status: "done" }])
      expect(readTask(bad)).toBeUndefined();
  });

  test("a CreateTaskResult is {task} without content; a CallToolResult is not one", () => {
    expect(createdTask({ task: wire })).toEqual(wire);
    expect(createdTask({ task: wire, content: [] })).toBeUndefined();
    expect(createdTask({ content: [{ type: "text", text: "hi" }] })).toBeUndefined();
    expect(createdTask({ task: { status: "working" } })).toBeUndefined();
  });
});

describe("tagRelated", () => {
  test("an answer to a request tagged with a task carries the same tag, keeping its own _meta", () => {
    const params = { message: "?", _meta: { [RELATED_TASK]: { taskId: "t9" } } };
    expect(tagRelated(params, { action: "decline", _meta: { a: 1 } })).toEqual({ action: "decline", _meta: { a: 1, [RELATED_TASK]: { taskId: "t9" } } });
  });

  test("anything else is returned as it was", () => {
    const result = { action: "accept", content: { x: 1 } };
    expect(tagRelated({ message: "?" }, result)).toBe(result);
    expect(tagRelated({ _meta: { [RELATED_TASK]: { taskId: 5 } } }, result)).toBe(result);
    expect(tagRelated(undefined, result)).toBe(result);
  });
});
