/**
 * Subagents through the real program in -p, with the scripted Messages API and our fixture MCP
 * server: when -p offers the Agent tool (only when asked), the subagent's own request (its prompt,
 * none of the parent's history, the tools its definition allows, its model), the report the parent
 * gets, the `Task` alias, concurrency, and each bad input as one error result or one line.
 * Tool lists are compared with what Claude Code 2.1.332 offers for the same definition.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const systemText = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "");
const toolNames = (r: RecordedRequest) => (r.body.tools as { name: string }[]).map((t) => t.name);
const isSub = (r: RecordedRequest) => systemText(r).includes("You were started by another agent");

/** The tool_result blocks of the parent's last request. */
function results(model: ModelServer): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const parent = model.requests.filter((r) => !isSub(r)).at(-1)!;
  const last = parent.body.messages.at(-1);
  return last.content.filter((b: { type: string }) => b.type === "tool_result").map((b: any) => ({ ...b, content: String(b.content) }));
}

/**
 * A model that answers the parent with `parentFirst` then "done", and every subagent with
 * `sub(request)` (default: a fixed report).
 */
function router(parentFirst: Step, sub: (r: RecordedRequest) => Step | Promise<Step> = () => reply(text("SUB_REPORT line one\nline two"))): Step[] {
  let parentCalls = 0;
  const step: Step = (r) => {
    if (isSub(r)) return sub(r);
    return parentCalls++ === 0 ? parentFirst : reply(text("done"));
  };
  return Array.from({ length: 40 }, () => step);
}

async function run(script: Step[], args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const model = startModelServer(script);
  try {
    const r = await runAgent(["-p", "delegate it", ...args], { cwd: opts.cwd ?? tempDir(), model: model.url, env: opts.env, timeoutMs: 60_000 });
    return { ...r, model };
  } finally {
    model.stop();
  }
}

const AGENTS = JSON.stringify({
  reviewer: { description: "Reviews code", prompt: "REVIEWER_PROMPT_MARKER", tools: ["Read", "Grep"], model: "haiku" },
});

describe("-p offers the Agent tool only when asked", () => {
  test("not by default nor by the home's agents; by --agents, --allowedTools Agent, AGENT_SUBAGENTS=1 or the project's .claude/agents", async () => {
    const offered = async (args: string[], env: Record<string, string> = {}, cwd = tempDir()) => {
      const r = await run([reply(text("ok"))], args, { cwd, env });
      const first = r.model.requests[0]!;
      const listing = JSON.stringify(first.body.messages).includes("Agent types you can start");
      expect(toolNames(first).includes("Agent")).toBe(listing);
      return listing;
    };
    expect(await offered([])).toBe(false);
    const config = tempDir();
    mkdirSync(join(config, "agents"));
    writeFileSync(join(config, "agents", "homey.md"), "---\nname: homey\ndescription: from the home\n---\nHOME\n");
    expect(await offered([], { CLAUDE_CONFIG_DIR: config })).toBe(false);
    expect(await offered(["--agents", AGENTS])).toBe(true);
    expect(await offered(["--allowedTools", "Agent"])).toBe(true);
    expect(await offered([], { AGENT_SUBAGENTS: "1" })).toBe(true);
    const project = tempDir();
    mkdirSync(join(project, ".claude", "agents"), { recursive: true });
    writeFileSync(join(project, ".claude", "agents", "local.md"), "---\nname: local\ndescription: a project agent\n---\nLOCAL\n");
    expect(await offered([], {}, project)).toBe(true);
    // --disallowedTools takes the tool, and with it the listing, off again.
    expect(await offered(["--agents", AGENTS, "--disallowedTools", "Agent"])).toBe(false);
  }, 120_000);
});

describe("the Agent tool", () => {
  test("a general-purpose subagent runs its own conversation and its report comes back indented, with its id and usage", async () => {
    const r = await run(router(reply(toolUse("Agent", { description: "find things", prompt: "SUBTASK: look around" }))), ["--allowedTools", "Agent"]);
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const sub = r.model.requests.filter(isSub);
    expect(sub).toHaveLength(1);
    // Only the task, none of the parent's history.
    expect(sub[0]!.body.messages).toHaveLength(1);
    expect(JSON.stringify(sub[0]!.body.messages[0])).toContain("SUBTASK: look around");
    expect(JSON.stringify(sub[0]!.body.messages)).not.toContain("delegate it");
    // Claude Code 2.1.332 gives general-purpose every tool, Agent included (depth 1 < 2).
    expect(toolNames(sub[0]!)).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "Agent"]));
    const [result] = results(r.model);
    expect(result!.is_error).toBeUndefined();
    expect(result!.content).toContain("\n  SUB_REPORT line one\n  line two\n");
    expect(result!.content).toMatch(/agentId: a[0-9a-f]{16}\n<usage>subagent_tokens: 15 \/ tool_uses: 0 \/ duration_ms: \d+<\/usage>$/);
  }, 60_000);

  test("a --agents JSON agent gets its prompt, its tools only (Read, Grep) and its model (haiku)", async () => {
    const r = await run(router(reply(toolUse("Agent", { description: "review", prompt: "P-reviewer", subagent_type: "reviewer" }))), ["--agents", AGENTS]);
    expect(r.code).toBe(0);
    const sub = r.model.requests.find(isSub)!;
    expect(systemText(sub)).toContain("REVIEWER_PROMPT_MARKER");
    // Claude Code 2.1.332: `tools: Glob, Grep` gives exactly those, although the main thread does not offer them.
    expect(toolNames(sub)).toEqual(["Read", "Grep"]);
    expect(sub.body.model).toMatch(/^claude-haiku-/);
  }, 60_000);

  test("a resumed transcript's `Task` name reaches the Agent tool", async () => {
    const r = await run(router(reply(toolUse("Task", { description: "old name", prompt: "SUBTASK" }))), ["--allowedTools", "Agent"]);
    expect(r.code).toBe(0);
    expect(r.model.requests.filter(isSub)).toHaveLength(1);
    expect(results(r.model)[0]!.content).toContain("SUB_REPORT");
  }, 60_000);

  test("Explore and Plan only read: no Edit, Write or Agent, and Bash under plan mode's read-only policy", async () => {
    for (const type of ["Explore", "Plan"]) {
      const cwd = tempDir();
      let subCalls = 0;
      const sub = () => {
        subCalls++;
        if (subCalls === 1) return reply(toolUse("Bash", { command: "ls" }), toolUse("Bash", { command: "touch made.txt" }));
        return reply(text("SUB_REPORT"));
      };
      const r = await run(router(reply(toolUse("Agent", { description: "look", prompt: "SUBTASK", subagent_type: type })), sub), ["--allowedTools", "Agent"], {
        cwd,
      });
      const subRequests = r.model.requests.filter(isSub);
      const names = toolNames(subRequests[0]!);
      expect(names).toEqual(expect.arrayContaining(["Read", "Glob", "Grep", "Bash"]));
      for (const gone of ["Edit", "Write", "Agent"]) expect(names).not.toContain(gone);
      const [listed, refused] = subRequests[1]!.body.messages.at(-1).content;
      expect(listed.is_error).toBeUndefined();
      expect(refused.is_error).toBe(true);
      expect(String(refused.content)).toStartWith("Plan mode is on");
      expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    }
  }, 60_000);

  test("three Agent calls in one reply run at the same time: every subagent request arrives before any is answered", async () => {
    let arrived = 0;
    let release!: () => void;
    const all = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = ["one", "two", "three"].map((d) => toolUse("Agent", { description: d, prompt: `SUBTASK ${d}` }));
    const r = await run(
      router(reply(...calls), async (req) => {
        if (++arrived === 3) release();
        await all;
        return reply(text(`report for ${JSON.stringify(req.body.messages[0]).match(/SUBTASK (\w+)/)![1]}`));
      }),
      ["--allowedTools", "Agent"],
    );
    expect(r.code).toBe(0);
    const got = results(r.model);
    expect(got.map((g) => g.tool_use_id)).toEqual(calls.map((c) => (c as { id: string }).id));
    expect(got.map((g) => /report for (\w+)/.exec(g.content)![1])).toEqual(["one", "two", "three"]);
  }, 60_000);
});

describe("bad input is one error result or one line", () => {
  test("an unknown type (a path, too) is an error result listing the types", async () => {
    const r = await run(router(reply(toolUse("Agent", { description: "x", prompt: "y", subagent_type: "../../etc/passwd" }))), ["--agents", AGENTS]);
    expect(r.code).toBe(0);
    const [result] = results(r.model);
    expect(result!.is_error).toBe(true);
    expect(result!.content).toBe('No agent type named "../../etc/passwd". The agent types are: Explore, general-purpose, Plan, reviewer.');
    expect(r.model.requests.filter(isSub)).toHaveLength(0);
  }, 60_000);

  test("an unknown model is an error result naming it", async () => {
    const agents = JSON.stringify({ odd: { description: "d", prompt: "p", model: "gpt-7" } });
    const r = await run(router(reply(toolUse("Agent", { description: "x", prompt: "y", subagent_type: "odd" }))), ["--agents", agents]);
    const [result] = results(r.model);
    expect(result!.is_error).toBe(true);
    expect(result!.content).toContain('unknown model "gpt-7"');
  }, 60_000);

  test("a subagent past its maxTurns is an error result, and the parent's turn goes on", async () => {
    const agents = JSON.stringify({ loopy: { description: "d", prompt: "p", tools: ["Read"], maxTurns: 1 } });
    const r = await run(
      router(reply(toolUse("Agent", { description: "x", prompt: "y", subagent_type: "loopy" })), () => reply(toolUse("Read", { file_path: "/nonexistent" }))),
      ["--agents", agents],
    );
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const [result] = results(r.model);
    expect(result!.is_error).toBe(true);
    expect(result!.content).toContain("stopped after 1 model calls (its maxTurns)");
  }, 60_000);

  test("a subagent whose model call fails is an error result, and the parent's turn goes on", async () => {
    const r = await run(
      router(reply(toolUse("Agent", { description: "x", prompt: "y" })), () => ({
        status: 400,
        error: { type: "invalid_request_error", message: "bad sub request" },
      })),
      ["--allowedTools", "Agent"],
    );
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const [result] = results(r.model);
    expect(result!.is_error).toBe(true);
    expect(result!.content).toContain("bad sub request");
  }, 60_000);

  test("--agents that is not a JSON object is one line, a usage error (exit 2), and no model call", async () => {
    const r = await run([reply(text("never"))], ["--agents", "{not json"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("--agents: not valid JSON");
    expect(r.model.requests).toHaveLength(0);
  }, 60_000);
});

describe("MCP tools inside subagents", () => {
  test("tools naming mcp__fx__echo give exactly Read and that tool; no `tools` inherits it; `tools` without MCP gives none", async () => {
    const cwd = tempDir();
    writeMcpConfig(cwd, { fx: fixtureServer() });
    const agents = JSON.stringify({
      withmcp: { description: "d", prompt: "p", tools: ["Read", "mcp__fx__echo"] },
      inherits: { description: "d", prompt: "p", disallowedTools: ["Bash"] },
      nomcp: { description: "d", prompt: "p", tools: ["Read", "Bash"] },
    });
    const names: Record<string, string[]> = {};
    for (const type of ["withmcp", "inherits", "nomcp"]) {
      const r = await run(router(reply(toolUse("Agent", { description: "x", prompt: "y", subagent_type: type }))), ["--agents", agents], { cwd });
      expect(r.code).toBe(0);
      names[type] = toolNames(r.model.requests.find(isSub)!);
    }
    // Claude Code 2.1.332: Read + the named MCP tool in full; Read + Bash only.
    expect(names.withmcp).toEqual(["Read", "mcp__fx__echo"]);
    expect(names.nomcp).toEqual(["Read", "Bash"]);
    expect(names.inherits).toContain("mcp__fx__echo");
    expect(names.inherits).toContain("Agent");
    expect(names.inherits).not.toContain("Bash");
  }, 120_000);

  test("a subagent calls an inherited server's tool through the parent's connection", async () => {
    const cwd = tempDir();
    writeMcpConfig(cwd, { fx: fixtureServer() });
    let subCalls = 0;
    const r = await run(
      router(reply(toolUse("Agent", { description: "x", prompt: "use echo" })), () =>
        subCalls++ === 0 ? reply(toolUse("mcp__fx__echo", { text: "from the subagent" })) : reply(text("echoed")),
      ),
      ["--allowedTools", "Agent"],
      { cwd },
    );
    expect(r.code).toBe(0);
    const second = r.model.requests.filter(isSub)[1]!;
    expect(JSON.stringify(second.body.messages.at(-1))).toContain("from the subagent");
    expect(results(r.model)[0]!.content).toContain("tool_uses: 1");
  }, 60_000);
});

test("skills a definition names are loaded into the subagent's first message; a missing one is a note", async () => {
  const cwd = tempDir();
  mkdirSync(join(cwd, ".claude", "skills", "deploy"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "skills", "deploy", "SKILL.md"), "---\ndescription: Deploy the app\n---\nDEPLOY_STEPS here.\n");
  const agents = JSON.stringify({ shipper: { description: "d", prompt: "p", tools: ["Read"], skills: ["deploy", "missing"] } });
  const r = await run(router(reply(toolUse("Agent", { description: "x", prompt: "ship it", subagent_type: "shipper" }))), ["--agents", agents], { cwd });
  expect(r.code).toBe(0);
  const first = JSON.stringify(r.model.requests.find(isSub)!.body.messages[0]);
  expect(first).toContain("DEPLOY_STEPS here.");
  expect(first).toContain('No skill named \\"missing\\" is available.');
}, 60_000);

test("with tool search on, an agent without `tools` inherits MCP tools through it; one naming an MCP tool gets it in full", async () => {
  const cwd = tempDir();
  writeMcpConfig(cwd, { fx: fixtureServer() });
  const agents = JSON.stringify({ inherits: { description: "d", prompt: "p" }, named: { description: "d", prompt: "p", tools: ["Read", "mcp__fx__echo"] } });
  const names: Record<string, string[]> = {};
  for (const type of ["inherits", "named"]) {
    const r = await run(router(reply(toolUse("Agent", { description: "x", prompt: "y", subagent_type: type }))), ["--agents", agents], {
      cwd,
      env: { ENABLE_TOOL_SEARCH: "true" },
    });
    expect(r.code).toBe(0);
    names[type] = toolNames(r.model.requests.find(isSub)!);
  }
  expect(names.inherits).toContain("ToolSearch");
  expect(names.inherits).not.toContain("mcp__fx__echo");
  expect(names.named).toEqual(["Read", "mcp__fx__echo"]);
}, 120_000);
