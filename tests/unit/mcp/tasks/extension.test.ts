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

  test("an interrupt while a tasks/get is out: tasks/cancel for the task, and that get is abandoned, never cancelled on the wire", async () => {
    const options: [string, unknown][] = [];
    let outstanding!: () => void;
    const getSent = new Promise<void>((resolve) => (outstanding = resolve));
    const peer: TaskPeer = {
      name: "s",
      capabilities: {},
      closed: new Promise(() => {}),
      startClock: () => () => {},
      listen: () => () => {},
      sendRequest<T>(method: string, _params: unknown, opts?: { signal?: AbortSignal }): Promise<T> {
        options.push([method, opts && { cancellable: (opts as { cancellable?: boolean }).cancellable }]);
        if (method !== "tasks/get") return Promise.resolve({} as T);
        outstanding();
        // Never answered: only the interrupt ends it.
        return new Promise((_, reject) => opts?.signal?.addEventListener("abort", () => reject(opts.signal!.reason)));
      },
      answerInputRequests: async () => undefined,
    };
    const interrupt = new AbortController();
    const created = { resultType: "task", taskId: "t1", status: "working", pollIntervalMs: 0 };
    const following = followModernTask(peer, "tool", created, { timeoutMs: 60_000, signal: interrupt.signal }).catch((e: Error) => e);
    await getSent;
    interrupt.abort();
    expect(await following).toBeInstanceOf(Error);
    // notifications/cancelled goes out only for a request sent cancellable (lib/mcp/session/jsonrpc.ts).
    expect(options.find(([m]) => m === "tasks/get")).toEqual(["tasks/get", { cancellable: false }]);
    expect(options.map(([m]) => m)).toContain("tasks/cancel");
  });
});
