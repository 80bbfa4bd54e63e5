/**
 * MCP tasks in their 2026-07-28 form (SEP-2663) in `-p`, the real executable with a scripted model
 * and our SEP-2663 fixture over stdio: the task's inlined result is the tool_result, a failed task
 * an is_error one; `inputRequests` are answered by --elicitation through `tasks/update`; Ctrl-C
 * sends `tasks/cancel` for the running task, never `notifications/cancelled`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { type ProjectBasics, project, stopProjects, toolResult } from "../../support/mcp.ts";
import { BUN } from "../../support/run.ts";
import { declaredCapabilities, ofMethod, TASKS2026_SERVER } from "../../support/tasks2026.ts";
import { until } from "../../support/wait.ts";

afterEach(stopProjects);

const logOf = (p: ProjectBasics) => join(p.dir, "t.log");
const fixture =
  (...flags: string[]) =>
  (p: ProjectBasics) => ({ t: { command: BUN, args: [TASKS2026_SERVER, "--log", logOf(p), "--poll-ms", "50", ...flags] } });
const calling = (tool: string, input: object) => [reply(toolUse(`mcp__t__${tool}`, input)), reply(text("done"))];

describe("-p and a SEP-2663 server", () => {
  test("the task's inlined result is the tool_result; the extension declared on each request", async () => {
    const p = project(fixture(), calling("slow_compute", { seconds: 0.2, label: "tides" }));
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ content: "computed tides" });
    expect(toolResult(p.model.requests[1]!).is_error).toBeUndefined();
    const call = ofMethod(logOf(p), "tools/call")[0]!;
    expect(declaredCapabilities(call)).toEqual({ roots: {}, sampling: {}, extensions: { "io.modelcontextprotocol/tasks": {} } });
    expect(ofMethod(logOf(p), "tasks/get").length).toBeGreaterThan(0);
  });

  test("a failed task: an is_error tool_result with the JSON-RPC error", async () => {
    const p = project(fixture("--job-ms", "100"), calling("protocol_error_job", {}));
    const r = await p.run("go");
    expect(r.code).toBe(0);
    const result = toolResult(p.model.requests[1]!);
    expect(result.is_error).toBe(true);
    expect(result.content).toContain("(JSON-RPC error -32603: the job crashed)");
  });

  test("input_required: --elicitation answers, tasks/update carries it, the result follows", async () => {
    const p = project(fixture(), calling("confirm_delete", { path: "b.txt" }));
    const r = await p.run("go", { args: ["--elicitation", "accept-defaults"] });
    expect(r.code).toBe(0);
    expect(toolResult(p.model.requests[1]!).content).toBe("deleted b.txt");
    const update = ofMethod(logOf(p), "tasks/update")[0]!;
    expect(Object.values(update.params.inputResponses)).toEqual([{ action: "accept", content: { confirm: true } }]);
  });

  test("Ctrl-C while a task runs: tasks/cancel for it, no notifications/cancelled", async () => {
    const p = project(fixture("--stuck"), calling("slow_compute", { seconds: 30 }));
    const agent = p.spawn("go");
    // Wait on the wire: the first poll means the task exists.
    await until(() => ofMethod(logOf(p), "tasks/get").length > 0, "the first tasks/get");
    process.kill(agent.pid, "SIGINT");
    const r = await agent.done;
    expect(r.code).toBe(130);
    const id = ofMethod(logOf(p), "tasks/get")[0]!.params.taskId;
    expect(ofMethod(logOf(p), "tasks/cancel").map((c) => c.params)).toMatchObject([{ taskId: id }]);
    expect(ofMethod(logOf(p), "notifications/cancelled")).toEqual([]);
  });
});
