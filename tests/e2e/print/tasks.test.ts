/**
 * MCP tasks (MCP 2025-11-25, basic/utilities/tasks) in `-p`, the real executable with a scripted
 * model: a task tool's result reaches the model as a plain call's would; its server's elicitation
 * comes through tasks/result and is answered by --elicitation, the answer tagged with the task;
 * the timeout, a dying server and Ctrl-C end it with one clear result, tasks/cancel sent; the
 * `initialize` frame does not move.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { npmServer, project, type ProjectBasics, stopProjects, toolResult } from "../../support/mcp.ts";
import { sent, taskLog, taskServer } from "../../support/tasks.ts";
import { until } from "../../support/wait.ts";

afterEach(stopProjects);

const logOf = (p: ProjectBasics) => join(p.dir, "t.log");
const withTasks =
  (...flags: string[]) =>
  (p: ProjectBasics) => ({ t: taskServer("--log-file", logOf(p), ...flags) });
const research = (input: object = { topic: "tides" }) => [reply(toolUse("mcp__t__research", input)), reply(text("done"))];

describe("-p and a task tool", () => {
  test("the task's result is the tool_result; capabilities stay exactly {roots, sampling}", async () => {
    const p = project(withTasks(), research());
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ content: "Report on tides" });
    expect(toolResult(p.model.requests[1]!).is_error).toBeUndefined();
    expect(sent(logOf(p), "initialize")[0]!.msg.params).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: { roots: {}, sampling: {} },
      clientInfo: { name: "claude-code", version: "1.0.0" },
    });
    expect(sent(logOf(p), "tools/call")[0]!.msg.params.task).toEqual({ ttl: 600000 });
  });

  test("input_required: the elicitation comes through tasks/result, --elicitation answers it, tagged with the task", async () => {
    const p = project(withTasks("--elicit"), research({ topic: "rome" }));
    const r = await p.run("go", { args: ["--elicitation", "accept-defaults"] });
    expect(r.code).toBe(0);
    expect(toolResult(p.model.requests[1]!).content).toBe("Report on rome (technical)");
    const log = taskLog(logOf(p));
    const id = sent(logOf(p), "tasks/result")[0]!.msg.params.taskId;
    const answer = log.find((l) => typeof l.msg.id === "string" && l.msg.id.startsWith("srv-"))!.msg;
    expect(answer.result).toEqual({
      action: "accept",
      content: { interpretation: "technical" },
      _meta: { "io.modelcontextprotocol/related-task": { taskId: id } },
    });
    expect(r.stderr).toContain('MCP server "t" asked for input: "Which rome do you mean?" — accepted with its defaults (interpretation)');
  });

  test("the tool timeout: an is_error result saying so, and tasks/cancel for the task", async () => {
    const p = project(withTasks("--stuck"), research());
    // Long enough for the task to be created and polled once on a loaded machine.
    const r = await p.run("go", { env: { MCP_TOOL_TIMEOUT: "3000" } });
    expect(r.code).toBe(0);
    const id = sent(logOf(p), "tasks/get")[0]!.msg.params.taskId;
    expect(toolResult(p.model.requests[1]!)).toMatchObject({
      is_error: true,
      content: `MCP tool research on server "t" timed out after 3000 ms (MCP_TOOL_TIMEOUT); its task ${id} was cancelled (tasks/cancel)`,
    });
    expect(sent(logOf(p), "tasks/cancel").map((c) => c.msg.params)).toEqual([{ taskId: id }]);
  });

  test("a server dying mid-task: the model is told, the run goes on", async () => {
    const p = project(withTasks("--die-mid-task"), research());
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ is_error: true, content: 'MCP server "t" exited during the call' });
  });

  test("Ctrl-C while a task runs: tasks/cancel for it before the server is shut down", async () => {
    const p = project(withTasks("--stuck"), research());
    const agent = p.spawn("go");
    // Wait on the wire: the first poll means the task exists.
    await until(() => sent(logOf(p), "tasks/get").length > 0, "the first tasks/get");
    process.kill(agent.pid, "SIGINT");
    const r = await agent.done;
    expect(r.code).toBe(130);
    const id = sent(logOf(p), "tasks/get")[0]!.msg.params.taskId;
    expect(sent(logOf(p), "tasks/cancel").map((c) => c.msg.params)).toEqual([{ taskId: id }]);
  });
});

describe("-p and the npm everything server's simulate-research-query", () => {
  test("plain and ambiguous (decline, cancel): the report is the tool_result", async () => {
    const everything = { everything: npmServer("everything", ["stdio"]) };
    const script = (input: object) => [reply(toolUse("mcp__everything__simulate-research-query", input)), reply(text("done"))];
    const runs = [
      { input: { topic: "solar panels" }, args: [], report: "# Research Report: solar panels\n" },
      {
        input: { topic: "python", ambiguous: true },
        args: ["--elicitation", "decline"],
        report: "# Research Report: python (User declined - using default interpretation)\n",
      },
      {
        input: { topic: "python", ambiguous: true },
        args: ["--elicitation", "cancel"],
        report: "# Research Report: python (User cancelled - using default interpretation)\n",
      },
    ];
    await Promise.all(
      runs.map(async ({ input, args, report }) => {
        const p = project(everything, script(input));
        const r = await p.run("research", { args });
        expect([r.code, r.stdout]).toEqual([0, "done\n"]);
        const result = toolResult(p.model.requests[1]!);
        expect(result.is_error).toBeUndefined();
        expect(String(result.content)).toStartWith(report);
      }),
    );
  }, 30_000);
});
