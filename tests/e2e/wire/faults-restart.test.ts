/**
 * A stdio server that dies mid-run keeps its place (the built binary in `-p`, the scripted model,
 * real server processes): its tools stay offered, byte for byte, in every request; the next call
 * waits for the restart instead of failing; the model never reads "No such tool".
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelServer, type RecordedRequest, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { type AgentProcess, npmServer, spawnAgent } from "../../support/mcp.ts";
import { fixtureServer, tempDir, writeMcpConfig } from "../../support/run.ts";
import { until } from "../../support/wait.ts";

const models: ModelServer[] = [];
afterEach(() => {
  for (const m of models.splice(0)) m.stop();
});

/** The tool names of `server` a request offered. */
const offered = (req: RecordedRequest, server: string): string[] =>
  req.body.tools.map((t: { name: string }) => t.name).filter((n: string) => n.startsWith(`mcp__${server}__`));
/** The last message's tool_result blocks: what the model read. */
const results = (req: RecordedRequest) =>
  req.body.messages.at(-1).content.map((b: { content: unknown; is_error?: boolean }) => [b.content, b.is_error ?? false]);

/** The pid of the process whose environment holds `NAME=value`, if one is running. */
function pidWithEnv(entry: string): number | undefined {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry)) return Number(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}

/** Resolves once `agent`'s stderr holds `text` `n` times (the agent's own report of a death is the event a next call must follow). */
async function reported(agent: AgentProcess, text: string, n: number): Promise<void> {
  await agent.waitForStderr(text);
  await until(() => agent.stderr().split(text).length - 1 >= n, `${n} reports of ${JSON.stringify(text)}`);
}

describe("a server that dies between calls keeps its tools", () => {
  test("one that exits after each call: every request offers the same tools and every call is answered", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer("--crash-after", "1") });
    // Each call goes out once the agent has seen the last process exit: a call sent into a process
    // already exiting fails ("exited during the call"), as it must, since it may have run.
    let agent!: AgentProcess;
    const died = 'MCP server "fx" exited with code 1 (stderr:';
    const after = (n: number, step: ReturnType<typeof reply>) => async () => {
      await reported(agent, died, n);
      return step;
    };
    const model = startModelServer([
      reply(toolUse("mcp__fx__echo", { text: "one" })),
      after(1, reply(toolUse("mcp__fx__echo", { text: "two" }))),
      after(2, reply(toolUse("mcp__fx__echo", { text: "three" }))),
      reply(text("done")),
    ]);
    models.push(model);
    agent = spawnAgent(["-p", "go"], { cwd: dir, model: model.url });
    const r = await agent.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(model.requests.map((q) => results(q)).slice(1)).toEqual([[["one", false]], [["two", false]], [["three", false]]]);
    const first = JSON.stringify(model.requests[0]!.body.tools);
    for (const q of model.requests) expect(JSON.stringify(q.body.tools)).toBe(first);
    expect(offered(model.requests[0]!, "fx")).toContain("mcp__fx__echo");
    expect(r.stderr).toContain("; its next call restarts it (restart 2 of at most 3 in 5 minutes)\n");
    expect(r.stderr).not.toContain("restarting it");
  });

  test("server-memory killed with SIGTERM between calls: the next call waits for it and reads the graph it wrote", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.jsonl");
    writeMcpConfig(dir, { mem: npmServer("memory", [], { MEMORY_FILE_PATH: file }) });
    let agent!: AgentProcess;
    const entity = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };
    const model = startModelServer([
      reply(toolUse("mcp__mem__create_entities", { entities: [entity] })),
      async () => {
        // Killed from outside after its first call, as a user's `kill` or an OOM killer would.
        process.kill(pidWithEnv(`MEMORY_FILE_PATH=${file}`)!, "SIGTERM");
        await agent.waitForStderr('MCP server "mem" exited with signal SIGTERM');
        return reply(toolUse("mcp__mem__read_graph", {}));
      },
      reply(text("done")),
    ]);
    models.push(model);
    agent = spawnAgent(["-p", "go"], { cwd: dir, model: model.url });
    const r = await agent.done;
    expect(r.code).toBe(0);
    const [[graph, isError]] = results(model.requests[2]!);
    expect(isError).toBe(false);
    expect(String(graph)).toContain("wrote the first program");
    expect(offered(model.requests[2]!, "mem")).toEqual(offered(model.requests[0]!, "mem"));
    expect(r.stderr).toMatch(/^MCP server "mem" exited with signal SIGTERM.*; its next call restarts it \(restart 1 of at most 3 in 5 minutes\)$/m);
  });
});
