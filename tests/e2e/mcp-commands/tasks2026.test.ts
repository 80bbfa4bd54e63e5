/**
 * MCP tasks in their 2026-07-28 form (SEP-2663, extension `io.modelcontextprotocol/tasks`) through
 * the real program's `mcp call`, against our SEP-2663 fixture over stdio and HTTP, checked on the
 * wire: the extension declared per request (only to a server that declares it), a
 * `resultType: "task"` answer followed by `tasks/get` at `pollIntervalMs`, the completed result
 * inlined, `inputRequests` answered by `--elicitation` and sent with `tasks/update`, the timeout
 * sending `tasks/cancel` (never `notifications/cancelled`), and `Mcp-Name: <taskId>` over HTTP.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { declaredCapabilities, ofMethod, received, stopTasks2026, tasks2026Entry } from "../../support/tasks2026.ts";

afterEach(stopTasks2026);

const EXTENSION = "io.modelcontextprotocol/tasks";

async function call(
  transport: "stdio" | "http",
  tool: string,
  args: object,
  flags: string[] = [],
  opts: { argv?: string[]; env?: Record<string, string> } = {},
) {
  const dir = tempDir("tasks2026-");
  const log = join(dir, "received.log");
  writeMcpConfig(dir, { t: await tasks2026Entry(transport, log, ...flags) });
  const r = await runAgent(["mcp", "call", ...(opts.argv ?? []), "t", tool, JSON.stringify(args)], { cwd: dir, env: { MCP_TIMEOUT: "30000", ...opts.env } });
  return { ...r, log };
}

for (const transport of ["stdio", "http"] as const) {
  describe(`${transport}: a SEP-2663 server`, () => {
    test("the extension is declared, the task is polled at pollIntervalMs, its inlined result is the answer", async () => {
      const r = await call(transport, "slow_compute", { seconds: 0.5, label: "tides" }, ["--poll-ms", "150"]);
      expect([r.code, r.stdout]).toEqual([0, "computed tides\n"]);
      const [callReq] = ofMethod(r.log, "tools/call");
      expect(declaredCapabilities(callReq!).extensions).toEqual({ [EXTENSION]: {} });
      expect(callReq!.params.task).toBeUndefined(); // the 2025 form's hint is not sent: the server decides
      const gets = ofMethod(r.log, "tasks/get");
      // 500 ms of work at 150 ms: 3 or 4 polls, every one for the task, declaring the extension too.
      expect(gets.length).toBeGreaterThanOrEqual(3);
      expect(gets.length).toBeLessThanOrEqual(5);
      const taskId = gets[0]!.params.taskId;
      expect(taskId).toMatch(/^task-/);
      for (const g of gets) {
        expect(g.params.taskId).toBe(taskId);
        expect(declaredCapabilities(g).extensions).toEqual({ [EXTENSION]: {} });
        if (transport === "http") expect(g.headers).toEqual({ "mcp-method": "tasks/get", "mcp-name": taskId });
      }
      expect(ofMethod(r.log, "tasks/result")).toEqual([]);
    });

    test("input_required: --elicitation answers the inputRequests, sent back by tasks/update", async () => {
      const r = await call(transport, "confirm_delete", { path: "a.txt" }, ["--poll-ms", "50"], { argv: ["--elicitation", "accept-defaults"] });
      expect([r.code, r.stdout]).toEqual([0, "deleted a.txt\n"]);
      const taskId = ofMethod(r.log, "tasks/get")[0]!.params.taskId;
      const updates = ofMethod(r.log, "tasks/update");
      expect(updates.map((u) => ({ taskId: u.params.taskId, inputResponses: u.params.inputResponses }))).toEqual([
        { taskId, inputResponses: { [`confirm-${taskId}`]: { action: "accept", content: { confirm: true } } } },
      ]);
      if (transport === "http") expect(updates[0]!.headers).toEqual({ "mcp-method": "tasks/update", "mcp-name": taskId });
    });

    test("the tool timeout sends tasks/cancel for the task, never notifications/cancelled", async () => {
      const r = await call(transport, "slow_compute", { seconds: 30 }, ["--stuck", "--poll-ms", "50"], { env: { MCP_TOOL_TIMEOUT: "800" } });
      expect(r.code).toBe(1);
      const taskId = ofMethod(r.log, "tasks/get")[0]!.params.taskId;
      expect(r.stderr).toContain(
        `MCP tool slow_compute on server "t" timed out after 800 ms (MCP_TOOL_TIMEOUT); its task ${taskId} was cancelled (tasks/cancel)`,
      );
      const cancels = ofMethod(r.log, "tasks/cancel");
      expect(cancels.map((c) => c.params.taskId)).toEqual([taskId]);
      if (transport === "http") expect(cancels[0]!.headers).toEqual({ "mcp-method": "tasks/cancel", "mcp-name": taskId });
      expect(ofMethod(r.log, "notifications/cancelled")).toEqual([]);
    });
  });
}

describe("stdio: results and bad answers", () => {
  test("completed with isError: the tool's own error result, exit 1", async () => {
    const r = await call("stdio", "failing_job", {}, ["--job-ms", "100", "--poll-ms", "50"]);
    expect([r.code, r.stdout]).toEqual([1, "the job failed: no such input\n"]);
  });

  test("failed: an error result carrying the JSON-RPC error", async () => {
    const r = await call("stdio", "protocol_error_job", {}, ["--job-ms", "100", "--poll-ms", "50"]);
    expect(r.code).toBe(1);
    const taskId = ofMethod(r.log, "tasks/get")[0]!.params.taskId;
    expect(r.stdout).toBe(
      `MCP tool protocol_error_job on server "t": its task ${taskId} failed: the job failed: the job crashed (JSON-RPC error -32603: the job crashed)\n`,
    );
  });

  test("a task id the server then does not know: one clear line, no hang", async () => {
    const r = await call("stdio", "slow_compute", { seconds: 5 }, ["--forget", "--poll-ms", "50"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/MCP server "t" answered tasks\/get for task task-\S+ with an error: MCP error -32602: Failed to retrieve task: Task not found/);
  });

  test("MRTR first, then a task (SEP-2663 composition): the gathered answer reaches the task's result", async () => {
    const r = await call("stdio", "test_tool_with_task", {}, ["--poll-ms", "50"], { argv: ["--elicitation", "accept-defaults"] });
    expect([r.code, r.stdout]).toEqual([0, "Hello, Ada! (from a task)\n"]);
    expect(ofMethod(r.log, "tools/call").map((c) => Object.keys(c.params.inputResponses ?? {}))).toEqual([[], ["user_name"]]);
  });

  test("a server without the extension: nothing declared, frames as before", async () => {
    const r = await call("stdio", "slow_compute", { seconds: 0, label: "x" }, ["--no-extension"]);
    expect([r.code, r.stdout]).toEqual([0, "computed x\n"]);
    for (const m of received(r.log).filter((m) => m.params?._meta)) expect(declaredCapabilities(m).extensions).toBeUndefined();
    expect(ofMethod(r.log, "tasks/get")).toEqual([]);
  });
});
