/**
 * Following a task (MCP 2025-11-25, basic/utilities/tasks) against a scripted peer, for the answers
 * no real server of ours gives: malformed tasks and results, a cancelled or failed status, a
 * pollInterval of 0, a late answer after the end. The real protocol runs are in tests/e2e/.
 */
import { describe, expect, test } from "bun:test";
import { McpError } from "../../../../lib/mcp/protocol/errors.ts";
import { callToolAsTask, MIN_POLL_INTERVAL_MS, TaskCallError } from "../../../../lib/mcp/tasks/follow.ts";
import type { TaskPeer } from "../../../../lib/mcp/tasks/peer.ts";

type Answer = unknown | ((params: any) => unknown);

/** A peer answering each method from its script (a list is consumed in order, the last repeats); requests are recorded with their times. */
function scripted(script: Record<string, Answer[]>, capabilities: Record<string, unknown> = { tasks: { cancel: {}, requests: { tools: { call: {} } } } }) {
  const sent: { method: string; params: any; at: number }[] = [];
  const listeners = new Map<string, (params: any) => void>();
  const peer: TaskPeer = {
    name: "s",
    capabilities,
    closed: new Promise(() => {}),
    startClock: (ms, expire) => {
      const timer = setTimeout(expire, ms);
      return () => clearTimeout(timer);
    },
    listen: (method, fn) => {
      listeners.set(method, fn);
      return () => listeners.delete(method);
    },
    sendRequest: async <T>(method: string, params: any, opts?: { signal?: AbortSignal }) => {
      // As the real connection does: a request of a call already stopped is refused at once.
      if (opts?.signal?.aborted) throw opts.signal.reason;
      sent.push({ method, params, at: performance.now() });
      const answers = script[method] ?? [];
      const next = answers.length > 1 ? answers.shift() : answers[0];
      const value = typeof next === "function" ? await (next as (p: any) => unknown)(params) : next;
      if (value instanceof Error) throw value;
      return value as T;
    },
  };
  return { peer, sent, notify: (method: string, params: object) => listeners.get(method)?.(params) };
}

const task = (status: string, extra: object = {}) => ({
  taskId: "t1",
  status,
  createdAt: "2025-11-25T10:30:00Z",
  lastUpdatedAt: "2025-11-25T10:30:00Z",
  ...extra,
});
const created = (extra: object = {}) => ({ task: task("working", { pollInterval: 10, ...extra }) });
const done = { content: [{ type: "text", text: "done" }] };
const call = (peer: TaskPeer, timeoutMs = 5000) => callToolAsTask(peer, "research", {}, { timeoutMs });

describe("callToolAsTask", () => {
  test("a plain CallToolResult for a task call is the result; anything else is one clear error", async () => {
    expect(await call(scripted({ "tools/call": [done] }).peer)).toEqual(done);
    const bad = call(scripted({ "tools/call": [{ task: { status: "working" } }] }).peer);
    await expect(bad).rejects.toThrow('MCP server "s" answered the task-augmented call with neither a task nor a result: {"task":{"status":"working"}}');
  });

  test("a pollInterval of 0 is polled no faster than the floor", async () => {
    const s = scripted({
      "tools/call": [created({ pollInterval: 0 })],
      "tasks/get": [task("working"), task("working"), task("completed")],
      "tasks/result": [done],
    });
    expect(await call(s.peer)).toEqual(done);
    const polls = s.sent.filter((r) => r.method === "tasks/get" || r.method === "tools/call");
    // `at` is when the scripted peer saw each request: it trails the client's send by a scheduling delay
    // (a few ms on a loaded machine), which can shorten one gap by that much while the client's own sends keep the floor.
    for (let i = 1; i < polls.length; i++) expect(polls[i]!.at - polls[i - 1]!.at).toBeGreaterThanOrEqual(MIN_POLL_INTERVAL_MS - 5);
  });

  test("cancelled by the server: an error result naming it, no tasks/result", async () => {
    const s = scripted({ "tools/call": [created()], "tasks/get": [task("cancelled", { statusMessage: "Stopped by an admin" })] });
    expect(await call(s.peer)).toEqual({
      isError: true,
      content: [{ type: "text", text: 'MCP tool research on server "s": its task t1 was cancelled by the server: Stopped by an admin' }],
    });
    expect(s.sent.map((r) => r.method)).not.toContain("tasks/result");
  });

  test("failed, and tasks/result errors: an error result with the status message and the error", async () => {
    const s = scripted({
      "tools/call": [created()],
      "tasks/get": [task("failed", { statusMessage: "Rate limited" })],
      "tasks/result": [new McpError(-32603, "upstream 429")],
    });
    expect(await call(s.peer)).toEqual({
      isError: true,
      content: [{ type: "text", text: 'MCP tool research on server "s": its task t1 failed: Rate limited (MCP error -32603: upstream 429)' }],
    });
  });

  test("a tasks/get answer for another task, and a tasks/result that is not a tool result", async () => {
    const other = scripted({ "tools/call": [created()], "tasks/get": [{ ...task("working"), taskId: "t2" }] });
    await expect(call(other.peer)).rejects.toThrow('MCP server "s" answered tasks/get for task t1 with no such task: {"taskId":"t2"');
    const odd = scripted({ "tools/call": [created()], "tasks/get": [task("completed")], "tasks/result": [{ answer: 42 }] });
    await expect(call(odd.peer)).rejects.toThrow(new TaskCallError('MCP server "s": tasks/result for task t1 is not a tool result: {"answer":42}'));
  });

  test("a status notification is taken at once; a late working answer does not undo completed", async () => {
    // The first poll is answered only after the notification said completed, and says working.
    let answerPoll!: (t: object) => void;
    let reached!: () => void;
    const polled = new Promise<void>((resolve) => (reached = resolve));
    const late = () => {
      reached();
      return new Promise((resolve) => (answerPoll = resolve));
    };
    const s = scripted({ "tools/call": [created()], "tasks/get": [late], "tasks/result": [done] });
    const result = call(s.peer);
    await polled;
    s.notify("notifications/tasks/status", task("completed"));
    answerPoll(task("working"));
    expect(await result).toEqual(done);
    expect(s.sent.map((r) => r.method)).toEqual(["tools/call", "tasks/get", "tasks/result"]);
  });

  test("a timeout while a poll is out ends the call at once, not at the next poll", async () => {
    let expire!: () => void;
    const s = scripted({
      "tools/call": [created()],
      "tasks/get": [
        () => {
          expire();
          return task("working", { pollInterval: 600_000 });
        },
      ],
      "tasks/cancel": [task("cancelled")],
    });
    s.peer.startClock = (_ms, fire) => {
      expire = fire;
      return () => {};
    };
    // The clock runs out while the first poll is answered; that answer asks for the next poll in ten
    // minutes. Ending long before then is the behaviour; 30 s only stands in for "never" (the test
    // runner's own timeout does not end a test waiting on a ten-minute timer).
    const ended = callToolAsTask(s.peer, "research", {}, { timeoutMs: 1000 }).catch((e: Error) => e.message);
    expect(await Promise.race([ended, Bun.sleep(30_000).then(() => "still waiting for the next poll")])).toContain(
      "timed out after 1000 ms (MCP_TOOL_TIMEOUT); its task t1 was cancelled (tasks/cancel)",
    );
  }, 60_000);

  test("the timeout of a task still working sends tasks/cancel; without tasks.cancel it says the task may still run", async () => {
    const s = scripted({ "tools/call": [created()], "tasks/get": [task("working")], "tasks/cancel": [task("cancelled")] });
    await expect(call(s.peer, 60)).rejects.toThrow(
      'MCP tool research on server "s" timed out after 60 ms (MCP_TOOL_TIMEOUT); its task t1 was cancelled (tasks/cancel)',
    );
    expect(s.sent.filter((r) => r.method === "tasks/cancel").map((r) => r.params)).toEqual([{ taskId: "t1" }]);
    const bare = scripted({ "tools/call": [created()], "tasks/get": [task("working")] }, { tasks: { requests: { tools: { call: {} } } } });
    await expect(call(bare.peer, 60)).rejects.toThrow("; the server offers no tasks/cancel, so its task t1 may still run");
    expect(bare.sent.map((r) => r.method)).not.toContain("tasks/cancel");
  });
});
