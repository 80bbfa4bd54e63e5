/**
 * What a subagent leaves behind, through the real program in -p: stream-json's task_started,
 * the subagent's messages with parent_tool_use_id, and task_notification (Claude Code's shapes),
 * and its transcript beside the session's (`<session>/subagents/agent-<id>.jsonl` and `.meta.json`).
 * Also: a subagent of a subagent is offered no Agent tool (depth limit 2), and cost counts
 * every subagent's calls at its own model's price.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { reply, startModelServer, text, toolUse, withUsage, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");
const AGENTS = JSON.stringify({ reviewer: { description: "Reviews code", prompt: "REVIEW", tools: ["Read"], model: "haiku" } });

test("stream-json shows the subagent's start, messages and end; its transcript sits beside the session's", async () => {
  const call = toolUse("Agent", { description: "review it", prompt: "P-reviewer", subagent_type: "reviewer" }) as { id: string };
  const model = startModelServer([reply(call as never), reply(text("SUB_DONE")), reply(text("done"))]);
  const cwd = tempDir();
  const config = tempDir("agent-config-");
  try {
    const r = await runAgent(["-p", "go", "--agents", AGENTS, "--output-format", "stream-json"], { cwd, model: model.url, env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // Claude Code's init names the tool Task and lists the agent types.
    expect(events[0]).toMatchObject({ subtype: "init", agents: ["Explore", "general-purpose", "Plan", "reviewer"] });
    expect(events[0].tools).toContain("Task");
    const started = events.find((e) => e.subtype === "task_started");
    expect(started).toMatchObject({
      type: "system",
      tool_use_id: call.id,
      subagent_type: "reviewer",
      description: "review it",
      task_type: "local_agent",
      is_backgrounded: false,
      spawn_depth: 1,
      prompt: "P-reviewer",
    });
    expect(started.task_id).toMatch(/^a[0-9a-f]{16}$/);
    const own = events.filter((e) => e.parent_tool_use_id === call.id);
    expect(own.map((e) => e.type)).toEqual(["user", "assistant"]);
    expect(own.every((e) => e.agent_id === started.task_id && e.session_id === started.session_id)).toBe(true);
    const done = events.find((e) => e.subtype === "task_notification");
    expect(done).toMatchObject({
      task_id: started.task_id,
      tool_use_id: call.id,
      status: "completed",
      summary: "SUB_DONE",
      usage: { total_tokens: 15, tool_uses: 0 },
    });
    // Order: started before its messages, the notification before the parent's tool_result.
    const at = (e: unknown) => events.indexOf(e);
    const result = events.find((e) => e.type === "user" && e.parent_tool_use_id === undefined && JSON.stringify(e.message).includes("tool_result"));
    expect(at(started) < at(own[0]) && at(done) < at(result)).toBe(true);
    // The transcript, as Claude Code stores it.
    expect(done.output_file).toEndWith(`/${started.session_id}/subagents/agent-${started.task_id}.jsonl`);
    const rows = readFileSync(done.output_file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows[0]).toMatchObject({ parentUuid: null, isSidechain: true, agentId: started.task_id, type: "user", sessionId: started.session_id });
    expect(JSON.stringify(rows[0].message)).toContain("P-reviewer");
    expect(rows[1]).toMatchObject({ parentUuid: rows[0].uuid, isSidechain: true, type: "assistant" });
    const meta = JSON.parse(readFileSync(done.output_file.replace(/\.jsonl$/, ".meta.json"), "utf8"));
    expect(meta).toMatchObject({ agentType: "reviewer", isBuiltIn: false, description: "review it", toolUseId: call.id, spawnDepth: 1, finished: true });
    expect(meta.model).toMatch(/^claude-haiku-/);
    // The parent's transcript holds the Agent call and its result, none of the subagent's messages.
    const main = readFileSync(done.output_file.replace(/\/[^/]+\/subagents\/[^/]+$/, `/${started.session_id}.jsonl`), "utf8");
    expect(existsSync(done.output_file)).toBe(true);
    expect(main).not.toContain("isSidechain");
    expect(main).toContain(call.id);
  } finally {
    model.stop();
  }
}, 60_000);

test("depth limit 2: a general-purpose subagent may start one more, which is offered no Agent tool", async () => {
  let subCalls = 0;
  let parentCalls = 0;
  const step: Step = (r) => {
    if (!isSub(r)) return parentCalls++ === 0 ? reply(toolUse("Agent", { description: "outer", prompt: "OUTER" })) : reply(text("done"));
    const first = JSON.stringify(r.body.messages[0]);
    if (first.includes("OUTER")) return subCalls++ === 0 ? reply(toolUse("Agent", { description: "inner", prompt: "INNER" })) : reply(text("outer done"));
    return reply(text("inner done"));
  };
  const model = startModelServer(Array.from({ length: 10 }, () => step));
  try {
    const r = await runAgent(["-p", "go", "--allowedTools", "Agent"], { cwd: tempDir(), model: model.url });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const names = (r: RecordedRequest) => r.body.tools.map((t: { name: string }) => t.name);
    const outer = model.requests.find((q) => isSub(q) && JSON.stringify(q.body.messages[0]).includes("OUTER"))!;
    const inner = model.requests.find((q) => isSub(q) && JSON.stringify(q.body.messages[0]).includes("INNER"))!;
    expect(names(outer)).toContain("Agent");
    expect(names(inner)).not.toContain("Agent");
  } finally {
    model.stop();
  }
}, 60_000);

test("total_cost_usd counts the subagent's calls at its own model's price; usage is the parent's", async () => {
  // Small enough that no automatic compaction starts.
  const usage = { input_tokens: 100_000, output_tokens: 0 };
  const model = startModelServer([
    withUsage(reply(toolUse("Agent", { description: "r", prompt: "p", subagent_type: "reviewer" })), usage),
    withUsage(reply(text("sub")), usage),
    withUsage(reply(text("done")), usage),
  ]);
  try {
    const r = await runAgent(["-p", "go", "--agents", AGENTS, "--output-format", "json", "--model", "claude-sonnet-4-6"], { cwd: tempDir(), model: model.url });
    const result = JSON.parse(r.stdout);
    // Two sonnet-4-6 calls at $3 per million input tokens, one haiku-4-5 call at $1.
    expect(result.total_cost_usd).toBeCloseTo(0.3 + 0.1 + 0.3, 6);
    // The top-level usage is the parent's alone, as in Claude Code.
    expect(result.usage.input_tokens).toBe(200_000);
  } finally {
    model.stop();
  }
}, 60_000);

test("a resumed session whose transcript holds Task calls goes on, and Task still reaches the Agent tool", async () => {
  const cwd = tempDir();
  const config = tempDir("agent-config-");
  const id = crypto.randomUUID();
  const env = { CLAUDE_CONFIG_DIR: config };
  const first = startModelServer([reply(toolUse("Task", { description: "old", prompt: "FIRST" })), reply(text("first report")), reply(text("first done"))]);
  try {
    const r = await runAgent(["-p", "one", "--allowedTools", "Agent", "--session-id", id], { cwd, model: first.url, env });
    expect(r.stdout).toBe("first done\n");
  } finally {
    first.stop();
  }
  const second = startModelServer([
    reply(toolUse("Task", { description: "again", prompt: "SECOND" })),
    reply(text("second report")),
    reply(text("second done")),
  ]);
  try {
    const r = await runAgent(["-p", "two", "--allowedTools", "Agent", "--resume", id], { cwd, model: second.url, env });
    expect([r.code, r.stdout]).toEqual([0, "second done\n"]);
    const history = JSON.stringify(second.requests[0]!.body.messages);
    expect(history).toContain('"name":"Task"');
    expect(history).toContain("first report");
    expect(JSON.stringify(second.requests.at(-1)!.body.messages.at(-1))).toContain("  second report");
  } finally {
    second.stop();
  }
}, 60_000);
