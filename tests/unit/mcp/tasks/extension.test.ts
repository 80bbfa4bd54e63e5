/**
 * The SEP-2663 shapes (MCP 2026-07-28, extension `io.modelcontextprotocol/tasks`): the declaration
 * only to a server that declares it, the flat CreateTaskResult's discriminator and the DetailedTask
 * read from `tasks/get`; and the follower's dedupe of `inputRequests` keys across polls
 * (§Task Update Requests), with a scripted peer.
 */
import { describe, expect, test } from "bun:test";
import { isCreateTaskResult, readModernTask, withTasksExtension } from "../../../../lib/mcp/tasks/extension.ts";
import { followModernTask } from "../../../../lib/mcp/tasks/rev2026-07-28/follow.ts";
import type { TaskPeer } from "../../../../lib/mcp/tasks/peer.ts";

const EXT = "io.modelcontextprotocol/tasks";

describe("declaration", () => {
  test("added to the client's capabilities only when the server declared it", () => {
    const client = { roots: {}, sampling: {} };
    expect(withTasksExtension(client, { tools: {} })).toBe(client);
    expect(withTasksExtension(client, { extensions: { other: {} } })).toBe(client);
    expect(withTasksExtension(client, { extensions: { [EXT]: {} } })).toEqual({ roots: {}, sampling: {}, extensions: { [EXT]: {} } });
    expect(withTasksExtension({ extensions: { mine: {} } }, { extensions: { [EXT]: {} } })).toEqual({ extensions: { mine: {}, [EXT]: {} } });
  });
});

describe("shapes", () => {
  test("a CreateTaskResult is told by resultType alone", () => {
    expect(isCreateTaskResult({ resultType: "task", taskId: "t" })).toBe(true);
    expect(isCreateTaskResult({ resultType: "complete", content: [] })).toBe(false);
    expect(isCreateTaskResult({ task: { taskId: "t", status: "working" } })).toBe(false); // the 2025 form
  });

  test("a DetailedTask keeps ttlMs, pollIntervalMs and what its status inlines; junk is no task", () => {
    expect(readModernTask({ taskId: "a", status: "completed", ttlMs: null, pollIntervalMs: 5, result: { content: [] }, ttl: 9 })).toEqual({
      taskId: "a",
      status: "completed",
      ttlMs: null,
      pollIntervalMs: 5,
      result: { content: [] },
    });
    expect(readModernTask({ taskId: "a", status: "done" })).toBeUndefined();
    expect(readModernTask({ taskId: "", status: "working" })).toBeUndefined();
    expect(readModernTask({ taskId: "a", status: "working", pollIntervalMs: -1 })).toEqual({ taskId: "a", status: "working" });
  });
});

describe("following", () => {
  test("an inputRequests key still listed on the next poll is answered once", async () => {
    const polls = [
      { taskId: "t1", status: "input_required", inputRequests: { k1: { method: "elicitation/create", params: {} } } },
      { taskId: "t1", status: "input_required", inputRequests: { k1: { method: "elicitation/create", params: {} } } },
      { taskId: "t1", status: "completed", result: { content: [{ type: "text", text: "ok" }], resultType: "complete" } },
    ];
    const sent: [string, unknown][] = [];
    const asked: string[][] = [];
    const peer: TaskPeer = {
      name: "s",
      capabilities: {},
      closed: new Promise(() => {}),
      startClock: () => () => {},
      listen: () => () => {},
      async sendRequest<T>(method: string, params: unknown): Promise<T> {
        sent.push([method, params]);
        return (method === "tasks/get" ? polls.shift() : {}) as T;
      },
      async answerInputRequests(requests: unknown) {
        asked.push(Object.keys(requests as object));
        return { k1: { action: "accept", content: {} } };
      },
    };
    const created = { resultType: "task", taskId: "t1", status: "working", pollIntervalMs: 0 };
    const result = await followModernTask(peer, "tool", created, { timeoutMs: 5000 });
    expect(result).toEqual({ content: [{ type: "text", text: "ok" }] });
    expect(asked).toEqual([["k1"]]);
    expect(sent.map(([m]) => m)).toEqual(["tasks/get", "tasks/update", "tasks/get", "tasks/get"]);
    expect(sent[1]).toEqual(["tasks/update", { taskId: "t1", inputResponses: { k1: { action: "accept", content: {} } } }]);
  });
});
