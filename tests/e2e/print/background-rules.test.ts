/**
 * Deny rules hold for background work, through the real program in -p: a subagent started with
 * Agent's run_in_background meets the project's deny rules on Bash, Read and Edit as the parent
 * does; a background Bash command meets a Bash deny rule; a deny rule that cannot be parsed denies
 * the background command and a Monitor's too (fail closed); a server-wide MCP deny rule and
 * --disallowedTools naming a server hold for an agent's own inline server. The file each refused
 * call aims at survives.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, type ModelServer, type RecordedRequest, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const BG = { AGENT_BACKGROUND_TASKS: "1" };
const isSub = (req: RecordedRequest) => JSON.stringify(req.body.system ?? "").includes("You were started by another agent");

function project(deny: string[]): string {
  const dir = tempDir();
  mkdirSync(join(dir, ".claude"));
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ permissions: { deny } }));
  writeFileSync(join(dir, "victim.txt"), "keep\n");
  writeFileSync(join(dir, "secret.txt"), "TOP-SECRET\n");
  return dir;
}

test("a Bash deny rule that cannot be parsed refuses a Monitor's command; the file survives", async () => {
  const dir = project(["Bash(rm"]);
  server = startModelServer([
    reply(toolUse("Monitor", { command: "rm victim.txt; echo gone", description: "watch", timeout_ms: 60_000 })),
    reply(text("refused")),
    reply(text("unexpected turn")),
  ]);
  const r = await runAgent(["-p", "watch", "--permission-mode", "bypassPermissions"], { cwd: dir, model: server.url, env: BG });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("refused\n");
  expect(server.requests[1]!.body.messages.at(-1).content[0].is_error).toBe(true);
  expect(existsSync(join(dir, "victim.txt"))).toBe(true);
});

test("a background subagent meets the project's deny rules on Bash, Read and Edit", async () => {
  const dir = project(["Bash(rm:*)", "Read(./secret.txt)", "Edit(./victim.txt)"]);
  const subSteps = [
    reply(toolUse("Bash", { command: "rm victim.txt" })),
    reply(toolUse("Read", { file_path: join(dir, "secret.txt") })),
    reply(toolUse("Write", { file_path: join(dir, "victim.txt"), content: "gone\n" })),
    reply(text("SUB_REPORT")),
  ];
  let sub = 0;
  const route = (req: RecordedRequest) =>
    isSub(req) ? subSteps[sub++]! : lastUserText(req).includes("<task-notification>") ? reply(text("got the report")) : reply(text("launched it"));
  server = startModelServer([reply(toolUse("Agent", { description: "bg", prompt: "P-bg", run_in_background: true })), ...Array(8).fill(route)]);
  const r = await runAgent(["-p", "delegate", "--permission-mode", "bypassPermissions"], { cwd: dir, model: server.url, env: { ...BG, AGENT_SUBAGENTS: "1" } });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("got the report\n");
  expect(readFileSync(join(dir, "victim.txt"), "utf8")).toBe("keep\n");
  const subResults = server.requests
    .filter(isSub)
    .slice(1)
    .map((q) => q.body.messages.at(-1).content.find((c: { type: string }) => c.type === "tool_result"));
  expect(subResults.map((c) => c.is_error)).toEqual([true, true, true]);
  expect(JSON.stringify(subResults)).not.toContain("TOP-SECRET");
});

for (const [name, deny] of [
  ["a Bash deny rule", ["Bash(rm:*)"]],
  ["a Bash deny rule that cannot be parsed", ["Bash(rm"]],
] as const) {
  test(`${name} refuses a background Bash command; the file survives`, async () => {
    const dir = project([...deny]);
    server = startModelServer([
      reply(toolUse("Bash", { command: "rm victim.txt", run_in_background: true, description: "clean" })),
      reply(text("refused")),
      reply(text("unexpected turn")),
    ]);
    const r = await runAgent(["-p", "clean", "--permission-mode", "bypassPermissions"], { cwd: dir, model: server.url, env: BG });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("refused\n");
    const result = server.requests[1]!.body.messages.at(-1).content[0];
    expect(result.is_error).toBe(true);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
  });
}

test("a server-wide MCP deny rule refuses a subagent's call to its own inline server's tool; the server never sees it", async () => {
  const dir = project(["mcp__inl"]);
  const log = join(dir, "inl.log");
  const agents = JSON.stringify({
    withserver: { description: "d", prompt: "p", mcpServers: [{ inl: { command: BUN, args: [FIXTURE_SERVER, "--log-file", log] } }] },
  });
  let parent = 0;
  let sub = 0;
  const step = (req: RecordedRequest) => {
    if (isSub(req)) return sub++ === 0 ? reply(toolUse("mcp__inl__echo", { text: "INLINE_ECHO" })) : reply(text("SUB"));
    return parent++ === 0 ? reply(toolUse("Agent", { description: "x", prompt: "use it", subagent_type: "withserver" })) : reply(text("done"));
  };
  server = startModelServer(Array(10).fill(step));
  const r = await runAgent(["-p", "go", "--agents", agents, "--permission-mode", "bypassPermissions"], {
    cwd: dir,
    model: server.url,
    env: { AGENT_SUBAGENTS: "1" },
  });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("done\n");
  const result = server.requests
    .filter(isSub)[1]
    ?.body.messages.at(-1)
    .content.find((c: { type: string }) => c.type === "tool_result");
  expect(result?.is_error).toBe(true);
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").not.toContain("tools/call");
});

test("--disallowedTools naming the server refuses a subagent's call to its own inline server's tool; the server never sees it", async () => {
  const dir = project([]);
  const log = join(dir, "inl.log");
  const agents = JSON.stringify({
    withserver: { description: "d", prompt: "p", mcpServers: [{ inl: { command: BUN, args: [FIXTURE_SERVER, "--log-file", log] } }] },
  });
  let parent = 0;
  let sub = 0;
  const step = (req: RecordedRequest) => {
    if (isSub(req)) return sub++ === 0 ? reply(toolUse("mcp__inl__echo", { text: "INLINE_ECHO" })) : reply(text("SUB"));
    return parent++ === 0 ? reply(toolUse("Agent", { description: "x", prompt: "use it", subagent_type: "withserver" })) : reply(text("done"));
  };
  server = startModelServer(Array(10).fill(step));
  const r = await runAgent(["-p", "go", "--agents", agents, "--permission-mode", "bypassPermissions", "--disallowedTools", "mcp__inl"], {
    cwd: dir,
    model: server.url,
    env: { AGENT_SUBAGENTS: "1" },
  });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("done\n");
  const result = server.requests
    .filter(isSub)[1]
    ?.body.messages.at(-1)
    .content.find((c: { type: string }) => c.type === "tool_result");
  expect(result?.is_error).toBe(true);
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").not.toContain("tools/call");
});
