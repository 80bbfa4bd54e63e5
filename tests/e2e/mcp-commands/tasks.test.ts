/**
 * MCP tasks (MCP 2025-11-25, basic/utilities/tasks) through `agent mcp …`, the real executable:
 * `mcp call` runs a task tool to its result (status under --verbose), `mcp tasks`/`mcp task
 * [--cancel]` against a remote server, refused for stdio; what goes on the wire (params.task,
 * the polling interval, tasks/cancel with the task's id) and every bad answer as one clear line.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startEverythingHttp, stopRemotePeers } from "../../support/http-peers.ts";
import { lines, npmServer } from "../../support/mcp.ts";
import { approveProjectServers, baseEnv, PROGRAM, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { httpTaskServer, sent, taskLog, taskServer } from "../../support/tasks.ts";
import { until } from "../../support/wait.ts";

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** A project with the task fixture as "t" (its log in the project) and `extra` entry keys. */
function fixture(flags: string[], extra: Record<string, unknown> = {}) {
  const dir = tempDir("agent-tasks-");
  const log = join(dir, "t.log");
  writeMcpConfig(dir, { t: { ...taskServer("--log-file", log, ...flags), ...extra } });
  return { dir, log };
}

const mcp = (dir: string, args: string[], env: Record<string, string> = {}) =>
  runAgent(["mcp", ...args], { cwd: dir, env: { ANTHROPIC_API_KEY: undefined, ...env } });
const createdId = (log: string): string => sent(log, "tasks/get")[0]?.msg.params.taskId ?? sent(log, "tasks/result")[0]?.msg.params.taskId;

describe("mcp call of a task tool", () => {
  test("required: params.task {ttl} from the tool timeout, tasks/get at pollInterval, then tasks/result; no tasks capability", async () => {
    const { dir, log } = fixture(["--poll-interval", "150", "--stages", "3", "--stage-ms", "150"]);
    const r = await mcp(dir, ["call", "t", "research", '{"topic":"tides"}', "--verbose"]);
    expect([r.code, r.stdout]).toEqual([0, "Report on tides\n"]);
    const [call] = sent(log, "tools/call");
    expect(call!.msg.params).toEqual({ name: "research", arguments: { topic: "tides" }, task: { ttl: 600000 } });
    expect(sent(log, "initialize")[0]!.msg.params.capabilities).toEqual({ roots: {} });
    const polls = sent(log, "tasks/get");
    expect(polls.length).toBeGreaterThanOrEqual(2);
    // Never faster than pollInterval. The server sees each poll after some delay of its own, so one
    // gap between two receipts can be short on a busy machine; but the first poll is sent a
    // pollInterval after the call's answer and each next one a pollInterval after the last, so the
    // n-th poll reaches the server at least n intervals after the call did (less a millisecond per
    // timer, which may fire that early).
    expect(polls.at(-1)!.at - call!.at).toBeGreaterThanOrEqual(polls.length * 149);
    const id = createdId(log);
    expect(polls.every((p) => p.msg.params.taskId === id)).toBe(true);
    expect(sent(log, "tasks/result").map((m) => m.msg.params)).toEqual([{ taskId: id }]);
    const status = lines(r.stderr).filter((l) => l.startsWith('MCP server "t": task'));
    expect(status[0]).toBe(`MCP server "t": task ${id} working — Stage 1 of 3`);
    expect(status.at(-1)).toBe(`MCP server "t": task ${id} completed — Report ready`);
  });

  test("the entry's toolTimeout is the ttl; optional tools stay plain unless preferTasks; a plain tool is plain", async () => {
    const { dir, log } = fixture([], { toolTimeout: 7000 });
    expect((await mcp(dir, ["call", "t", "research", '{"topic":"a"}'])).stdout).toBe("Report on a\n");
    expect((await mcp(dir, ["call", "t", "maybe", '{"topic":"b"}'])).stdout).toBe("maybe answered at once: b\n");
    expect((await mcp(dir, ["call", "t", "plain"])).stdout).toBe("plain answer\n");
    expect(sent(log, "tools/call").map((c) => c.msg.params.task)).toEqual([{ ttl: 7000 }, undefined, undefined]);

    const opted = fixture([], { preferTasks: true });
    expect((await mcp(opted.dir, ["call", "t", "maybe", '{"topic":"c"}'])).stdout).toBe("Report on c\n");
    expect(sent(opted.log, "tools/call")[0]!.msg.params.task).toEqual({ ttl: 600000 });
  });

  test("notifications/tasks/status are taken: the end is seen before the first poll is due", async () => {
    // The first poll is due a minute in: a task ending without a tasks/get can only have been seen through its notification.
    const { dir, log } = fixture(["--notify", "--poll-interval", "60000", "--stage-ms", "50"]);
    const r = await mcp(dir, ["call", "t", "research", '{"topic":"fast"}']);
    expect([r.code, r.stdout]).toEqual([0, "Report on fast\n"]);
    expect(sent(log, "tasks/get")).toEqual([]);
    expect(sent(log, "tasks/result")).toHaveLength(1);
  });

  test("a failed task: exit 1, the result marked and named as failed, with the tool's own content", async () => {
    const { dir } = fixture(["--fail"]);
    const r = await mcp(dir, ["call", "t", "research", '{"topic":"x"}']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Task \S+ failed: The research failed: no sources\nno sources\n$/);
  });
});

describe("bad answers: one clear line, never a hang", () => {
  test("a task for a plain tool is refused, not followed", async () => {
    const { dir, log } = fixture(["--task-for-plain"]);
    const r = await mcp(dir, ["call", "t", "plain"]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(
        /^mcp call: MCP server "t" answered a plain call of plain with a task \(\S+\), but plain is not a task tool here \(taskSupport: forbidden\); the task was not followed$/,
      ),
    ]);
    expect(sent(log, "tasks/get")).toEqual([]);
  });

  test("an unknown task id in tasks/get", async () => {
    const { dir } = fixture(["--unknown-id"]);
    const r = await mcp(dir, ["call", "t", "research", "{}"]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(
        /^mcp call: MCP server "t" answered tasks\/get for task \S+ with an error: MCP error -32602: Failed to retrieve task: Task not found$/,
      ),
    ]);
  });

  test("a status that never changes: the tool timeout ends it and tasks/cancel names the task", async () => {
    const { dir, log } = fixture(["--stuck"]);
    const r = await mcp(dir, ["call", "t", "research", "{}"], { MCP_TOOL_TIMEOUT: "3000" });
    const id = createdId(log);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `mcp call: MCP tool research on server "t" timed out after 3000 ms (MCP_TOOL_TIMEOUT); its task ${id} was cancelled (tasks/cancel)`,
    ]);
    expect(sent(log, "tasks/cancel").map((c) => c.msg.params)).toEqual([{ taskId: id }]);
  });

  test("a server without tasks.cancel is not sent one; the line says the task may still run", async () => {
    const { dir, log } = fixture(["--stuck", "--no-cancel-cap"]);
    const r = await mcp(dir, ["call", "t", "research", "{}"], { MCP_TOOL_TIMEOUT: "3000" });
    expect(lines(r.stderr)).toEqual([
      `mcp call: MCP tool research on server "t" timed out after 3000 ms (MCP_TOOL_TIMEOUT); the server offers no tasks/cancel, so its task ${createdId(log)} may still run`,
    ]);
    expect(sent(log, "tasks/cancel")).toEqual([]);
  });

  test("a result that never comes: the timeout says so, and a completed task is not cancelled", async () => {
    const { dir, log } = fixture(["--no-result", "--stage-ms", "20"]);
    // Long enough for the task to complete first (20 ms stages, polled) on a loaded machine.
    const r = await mcp(dir, ["call", "t", "research", "{}"], { MCP_TOOL_TIMEOUT: "5000" });
    expect(lines(r.stderr)).toEqual([
      `mcp call: MCP tool research on server "t" timed out after 5000 ms (MCP_TOOL_TIMEOUT) waiting for the result of its task ${createdId(log)} (completed); the call was cancelled`,
    ]);
    expect(sent(log, "tasks/cancel")).toEqual([]);
  });

  test("a tasks/result that errors is that error", async () => {
    const { dir } = fixture(["--result-error"]);
    const r = await mcp(dir, ["call", "t", "research", "{}"]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^mcp call: MCP error -32603: tasks\/result exploded for \S+$/)]);
  });

  test("a server dying mid-task", async () => {
    const { dir } = fixture(["--die-mid-task"]);
    const r = await mcp(dir, ["call", "t", "research", "{}"]);
    expect(r.code).toBe(1);
    // The end of its output and its exit race; either names the server, and the exit is reported too.
    expect(lines(r.stderr)[0]).toMatch(/^mcp call: MCP server "t" (closed its output|exited with code 3)/);
    expect(lines(r.stderr)).toContain('MCP server "t" exited with code 3');
  });
});

describe("shutdown", () => {
  test("SIGTERM during mcp call of a task tool: shutdown sends tasks/cancel for it before the server goes", async () => {
    const { dir, log } = fixture(["--stuck"]);
    const env = baseEnv() as Record<string, string>;
    await approveProjectServers(dir, env);
    const proc = Bun.spawn([PROGRAM, "mcp", "call", "t", "research", "{}"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    // The first poll on the wire means the task exists.
    await until(() => sent(log, "tasks/get").length > 0, "the first tasks/get");
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(143);
    const id = sent(log, "tasks/get")[0]!.msg.params.taskId;
    expect(sent(log, "tasks/cancel").map((c) => c.msg.params)).toEqual([{ taskId: id }]);
  });
});

describe("mcp tasks and mcp task", () => {
  test("a remote server: every page listed, one task shown, cancelled, and the errors of each", async () => {
    const http = await httpTaskServer("--seed", "5");
    stops.push(http.stop);
    const dir = tempDir("agent-tasks-");
    writeMcpConfig(dir, { h: { type: "http", url: http.url } });
    const list = await mcp(dir, ["tasks", "h"]);
    expect([list.code, list.stdout]).toEqual([0, "seed-1  working\nseed-2  completed  Done\nseed-3  working\nseed-4  completed  Done\nseed-5  working\n"]);
    const json = JSON.parse((await mcp(dir, ["tasks", "h", "--json"])).stdout);
    expect(json.map((t: { taskId: string }) => t.taskId)).toEqual(["seed-1", "seed-2", "seed-3", "seed-4", "seed-5"]);
    const one = await mcp(dir, ["task", "h", "seed-3"]);
    expect(one.stdout).toMatch(/^taskId: seed-3\nstatus: working\ncreatedAt: \S+\nlastUpdatedAt: \S+\nttl: unlimited\npollInterval: 100 ms\n$/);
    const cancelled = await mcp(dir, ["task", "h", "seed-3", "--cancel"]);
    expect([cancelled.code, cancelled.stdout.split("\n").slice(0, 3)]).toEqual([
      0,
      ["taskId: seed-3", "status: cancelled", "statusMessage: The task was cancelled by request."],
    ]);
    const again = await mcp(dir, ["task", "h", "seed-3", "--cancel"]);
    expect([again.code, lines(again.stderr)]).toEqual([
      1,
      [`mcp task: MCP server "h" answered tasks/cancel for task seed-3: MCP error -32602: Cannot cancel task: already in terminal status 'cancelled'`],
    ]);
    const unknown = await mcp(dir, ["task", "h", "nope"]);
    expect(lines(unknown.stderr)).toEqual([
      `mcp task: MCP server "h" answered tasks/get for task nope: MCP error -32602: Failed to retrieve task: Task not found`,
    ]);
  });

  test("a stdio server: refused with exit 2 before it is started; --cancel only with task", async () => {
    const { dir, log } = fixture([]);
    for (const args of [
      ["tasks", "t"],
      ["task", "t", "x"],
    ]) {
      const r = await mcp(dir, args);
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(lines(r.stderr)).toEqual([
        `mcp ${args[0]}: server "t" is a local (stdio) server: the process started for this command is new and knows no task an earlier one created; use mcp ${args[0]} with a remote (http or sse) server`,
      ]);
    }
    expect(taskLog(log)).toEqual([]);
    const misuse = await mcp(dir, ["tasks", "t", "--cancel"]);
    expect([misuse.code, lines(misuse.stderr)]).toEqual([
      2,
      ["error: --cancel goes with task (usage: agent mcp task <server> <id> [--cancel]) (see agent mcp --help)"],
    ]);
  });
});

describe("the npm everything server's simulate-research-query", () => {
  test("plain, and ambiguous with each --elicitation answer, run to the report", async () => {
    const dir = tempDir("agent-tasks-");
    writeMcpConfig(dir, { everything: npmServer("everything", ["stdio"]) });
    const call = (args: string[], input: object) => mcp(dir, ["call", ...args, "everything", "simulate-research-query", JSON.stringify(input)]);
    const [plain, declined, cancelled, defaults] = await Promise.all([
      call(["--debug"], { topic: "solar panels" }),
      call(["--elicitation", "decline"], { topic: "python", ambiguous: true }),
      call(["--elicitation", "cancel"], { topic: "python", ambiguous: true }),
      call(["--elicitation", "accept-defaults"], { topic: "python", ambiguous: true }),
    ]);
    expect([plain.code, plain.stdout]).toEqual([0, expect.stringMatching(/^# Research Report: solar panels\n/)]);
    expect(plain.stderr).toContain(
      '"method":"tools/call","params":{"name":"simulate-research-query","arguments":{"topic":"solar panels"},"task":{"ttl":600000}}',
    );
    // Four one-second stages at pollInterval 1000: never more polls than seconds.
    expect(plain.stderr.match(/→ \{"jsonrpc":"2\.0","id":\d+,"method":"tasks\/get"/g)?.length).toBeLessThanOrEqual(6);
    expect(declined.stdout).toStartWith("# Research Report: python (User declined - using default interpretation)\n");
    expect(cancelled.stdout).toStartWith("# Research Report: python (User cancelled - using default interpretation)\n");
    // Its one field is required and has no default: accept-defaults declines, saying why.
    expect(defaults.stdout).toStartWith("# Research Report: python (User declined - using default interpretation)\n");
    expect(lines(defaults.stderr)[0]).toContain("declined (--elicitation accept-defaults: the defaults are not a valid answer");
  }, 30_000);
});

describe("the everything server over Streamable HTTP", () => {
  test("simulate-research-query, ambiguous: its elicitation arrives on the tasks/result stream and is answered", async () => {
    const server = await startEverythingHttp("streamableHttp");
    stops.push(stopRemotePeers);
    const dir = tempDir("agent-tasks-");
    writeMcpConfig(dir, { everything: { type: "http", url: server.url } });
    const r = await mcp(dir, ["call", "--elicitation", "decline", "everything", "simulate-research-query", '{"topic":"python","ambiguous":true}']);
    expect([r.code, r.stdout]).toEqual([0, expect.stringMatching(/^# Research Report: python \(User declined - using default interpretation\)\n/)]);
    expect(lines(r.stderr)[0]).toStartWith('MCP server "everything" asked for input: "The research query \\"python\\" could have multiple interpretations.');
  }, 30_000);
});
