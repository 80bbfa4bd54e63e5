/**
 * What both revisions' task followers share (lib/mcp/tasks/followed-call.ts), run through each of
 * them against the same scripted peer: the tool timeout, an interrupt and shutdown's cancel send
 * `tasks/cancel` once, the session's end stops the wait with its reason, and the poll floor.
 */
import { describe, expect, test } from "bun:test";
import { callToolAsTask } from "../../../../lib/mcp/tasks/follow.ts";
import { MIN_POLL_INTERVAL_MS, pollDelay, TaskCallError, type TaskCallOptions } from "../../../../lib/mcp/tasks/followed-call.ts";
import type { TaskPeer } from "../../../../lib/mcp/tasks/peer.ts";
import { followModernTask } from "../../../../lib/mcp/tasks/rev2026-07-28/follow.ts";
import { RunningTasks } from "../../../../lib/mcp/tasks/running.ts";

/** A server whose task stays working; each tasks/get waits on `release` when given, so a test decides when the poll ends. */
function workingServer(taskShape: (status: string) => object) {
  const sent: string[] = [];
  let close!: (reason: Error) => void;
  let expire: (() => void) | undefined;
  let pollSeen!: () => void;
  const polled = new Promise<void>((resolve) => (pollSeen = resolve));
  const peer: TaskPeer = {
    name: "s",
    capabilities: { tasks: { cancel: {}, requests: { tools: { call: {} } } } },
    closed: new Promise((resolve) => (close = resolve)),
    startClock: (_ms, fire) => {
      expire = fire;
      return () => (expire = undefined);
    },
    listen: () => () => {},
    sendRequest<T>(method: string, _params: unknown, opts?: { signal?: AbortSignal }): Promise<T> {
      sent.push(method);
      if (method === "tasks/cancel") return Promise.resolve({} as T);
      if (method === "tools/call") return Promise.resolve({ task: taskShape("working") } as T);
      pollSeen();
      // A poll is answered only when the call stops: what ends the wait is under test.
      return new Promise((_, reject) => opts?.signal?.addEventListener("abort", () => reject(opts.signal!.reason)));
    },
  };
  return { peer, sent, polled, close: (reason: Error) => close(reason), expire: () => expire?.() };
}

const revisions = {
  "2025-11-25": {
    shape: (status: string) => ({ taskId: "t1", status, createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", pollInterval: 0 }),
    follow: (peer: TaskPeer, opts: TaskCallOptions) => callToolAsTask(peer, "research", {}, opts),
  },
  "2026-07-28": {
    shape: (status: string) => ({ resultType: "task", taskId: "t1", status, pollIntervalMs: 0 }),
    follow: (peer: TaskPeer, opts: TaskCallOptions) =>
      followModernTask(peer, "research", { resultType: "task", taskId: "t1", status: "working", pollIntervalMs: 0 }, opts),
  },
};

for (const [revision, { shape, follow }] of Object.entries(revisions)) {
  describe(`a followed task call (${revision})`, () => {
    test("the tool timeout while a poll is out: tasks/cancel once, and one line naming the timeout and the cancel", async () => {
      const s = workingServer(shape);
      const ending = follow(s.peer, { timeoutMs: 1234 }).catch((e: Error) => e);
      await s.polled;
      s.expire();
      const error = await ending;
      expect(error).toBeInstanceOf(TaskCallError);
      expect((error as TaskCallError).message).toBe(
        'MCP tool research on server "s" timed out after 1234 ms (MCP_TOOL_TIMEOUT); its task t1 was cancelled (tasks/cancel)',
      );
      expect((error as TaskCallError).taskId).toBe("t1");
      expect(s.sent.filter((m) => m === "tasks/cancel")).toHaveLength(1);
    });

    test("an interrupt and shutdown both asking: tasks/cancel is sent once, and the line says interrupted", async () => {
      const s = workingServer(shape);
      const interrupt = new AbortController();
      const running = new RunningTasks();
      const ending = follow(s.peer, { timeoutMs: 60_000, signal: interrupt.signal, running }).catch((e: Error) => e);
      await s.polled;
      expect(running.size).toBe(1);
      const shutdown = running.cancelAll(5000);
      interrupt.abort();
      await shutdown;
      const error = (await ending) as Error;
      expect(error.message).toBe('MCP tool research on server "s" was interrupted; its task t1 was cancelled (tasks/cancel)');
      expect(s.sent.filter((m) => m === "tasks/cancel")).toHaveLength(1);
      // The call ended: shutdown no longer holds its task.
      expect(running.size).toBe(0);
    });

    test("the session ending between polls ends the call with its reason, and sends nothing more", async () => {
      const s = workingServer(shape);
      const ending = follow(s.peer, { timeoutMs: 60_000 }).catch((e: Error) => e);
      await s.polled;
      const before = s.sent.length;
      s.close(new Error('MCP server "s" exited with code 1'));
      expect(((await ending) as Error).message).toBe('MCP server "s" exited with code 1');
      expect(s.sent.length).toBe(before);
    });
  });
}

test("the poll interval: the task's suggestion, never under the floor, a default without one", () => {
  expect(pollDelay(0)).toBe(MIN_POLL_INTERVAL_MS);
  expect(pollDelay(5000)).toBe(5000);
  expect(pollDelay(undefined)).toBeGreaterThanOrEqual(MIN_POLL_INTERVAL_MS);
});
