/**
 * Limits on what a hostile server can make us do, through `-p` with the fault server
 * (fixtures/servers/fault-server.ts): a schema or a result nested past any stack, a burst of
 * sampling requests asking for a million tokens each. Each degrades one tool, one call or one
 * server with one line; the run ends normally with the model's answer and exit 0.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { BUN, fixtureServer, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const FAULT_SERVER = join(ROOT, "fixtures/servers/fault-server.ts");
const fault = (name: string, env: Record<string, string> = {}) => ({ command: BUN, args: [FAULT_SERVER, name], env });

async function print(servers: Record<string, unknown>, script: ReturnType<typeof reply>[], args: string[] = [], env: Record<string, string> = {}) {
  const dir = tempDir();
  writeMcpConfig(dir, servers);
  const model = startModelServer(script);
  try {
    const run = await runAgent(["-p", "go", ...args], { cwd: dir, model: model.url, env, timeoutMs: 60_000 });
    return { ...run, requests: model.requests };
  } finally {
    model.stop();
  }
}

const toolNames = (request: { body: { tools?: { name: string }[] } }) => (request.body.tools ?? []).map((t) => t.name);

describe("a hostile server degrades itself, never the run", () => {
  test("a tool schema nested 100 000 levels: that server fails with one line; the other servers' tools are offered", async () => {
    const run = await print({ fx: fault("list-deep-schema"), ok: fixtureServer() }, [reply(text("answer"))]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("answer\n");
    const names = toolNames(run.requests[0]!);
    expect(names.filter((n) => n.startsWith("mcp__fx__"))).toEqual([]);
    expect(names).toContain("mcp__ok__echo");
    expect(run.stderr).toBe('MCP server "fx" failed the handshake: tools/list answer nested deeper than 1000 levels\n');
  });

  test("a result nested 100 000 levels: that call fails with one line; the run goes on", async () => {
    const run = await print(
      { fx: fault("call-deep-result") },
      [reply(toolUse("mcp__fx__boom", {})), reply(toolUse("mcp__fx__echo", { text: "still here" })), reply(text("answer"))],
      ["--allowedTools", "mcp__fx__boom,mcp__fx__echo"],
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("answer\n");
    const first = run.requests[1]!.body.messages.at(-1).content[0];
    expect(first.is_error).toBe(true);
    expect(first.content).toBe('MCP server "fx" failed the call of boom: its answer nested deeper than 1000 levels');
    expect(run.requests[2]!.body.messages.at(-1).content[0].content).toBe("still here");
  });

  test("a burst of sampling requests: at most the per-server budget reaches the Messages API, the rest are refused; maxTokens is capped", async () => {
    const samples = Array.from({ length: 60 }, () => reply(text("sampled")));
    const run = await print(
      { fx: fault("call-sampling-burst") },
      [reply(toolUse("mcp__fx__boom", {})), ...samples, reply(text("answer"))],
      ["--allowedTools", "mcp__fx__boom"],
      // A fast rate so the test waits on the budget, not the clock; the budget and the cap are the defaults.
      { MCP_SAMPLING_PER_SECOND: "1000" },
    );
    expect(run.code).toBe(0);
    const sampling = run.requests.filter((r) => r.body.messages[0]?.content?.[0]?.text === "spend" || r.body.messages[0]?.content === "spend");
    expect(sampling.length).toBe(50);
    expect(Math.max(...sampling.map((r) => r.body.max_tokens))).toBe(8192);
    const result = run.requests.find((r) => JSON.stringify(r.body.messages.at(-1)).includes("sampling: "))!.body.messages.at(-1).content[0];
    expect(JSON.stringify(result.content)).toContain("sampling: 50 answered, 10 refused");
    expect(run.stderr).toContain('MCP server "fx" used its sampling budget (50 requests this run, MCP_SAMPLING_MAX_REQUESTS): further requests are refused');
  });
});
