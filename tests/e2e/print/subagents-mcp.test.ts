/**
 * An agent's own MCP servers through the real program in -p, with the scripted model and our
 * fixture server: started for the agent and absent from the parent's list, shut down before the
 * parent's next request, a server the run already has shared (no second process), a server that
 * fails one stderr line and a note the subagent reads, and a project agent's servers started only
 * in a trusted folder.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, fixtureServer, isAlive, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");
const toolNames = (r: RecordedRequest) => (r.body.tools as { name: string }[]).map((t) => t.name);
const pids = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number) : []);

/** Parent: one Agent call of `type`, then "done" (running `atSecond` first); every subagent request: `sub`. */
function script(type: string, sub: (r: RecordedRequest) => Step, atSecond: () => void = () => {}): Step[] {
  let parent = 0;
  const step: Step = (r) => {
    if (isSub(r)) return sub(r);
    if (parent++ === 0) return reply(toolUse("Agent", { description: "x", prompt: "use your server", subagent_type: type }));
    atSecond();
    return reply(text("done"));
  };
  return Array.from({ length: 20 }, () => step);
}

async function run(steps: Step[], args: string[], cwd: string, env: Record<string, string> = {}) {
  const model = startModelServer(steps);
  try {
    const r = await runAgent(["-p", "go", ...args], { cwd, model: model.url, env, timeoutMs: 60_000 });
    return { ...r, model };
  } finally {
    model.stop();
  }
}

describe("an agent's inline MCP servers", () => {
  test("start for the agent, never reach the parent's list, and are shut down before the parent goes on", async () => {
    const cwd = tempDir();
    const pidFile = join(cwd, "inl.pids");
    const agents = JSON.stringify({
      withserver: { description: "d", prompt: "p", mcpServers: [{ inl: { command: BUN, args: [FIXTURE_SERVER, "--pid-file", pidFile] } }] },
    });
    let subCalls = 0;
    let aliveWhenParentResumed: boolean | undefined;
    const r = await run(
      script(
        "withserver",
        () => (subCalls++ === 0 ? reply(toolUse("mcp__inl__echo", { text: "INLINE_ECHO" })) : reply(text("used it"))),
        () => {
          aliveWhenParentResumed = pids(pidFile).some(isAlive);
        },
      ),
      ["--agents", agents],
      cwd,
    );
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const sub = r.model.requests.filter(isSub);
    expect(toolNames(sub[0]!)).toContain("mcp__inl__echo");
    expect(JSON.stringify(sub[1]!.body.messages.at(-1))).toContain("INLINE_ECHO");
    for (const p of r.model.requests.filter((q) => !isSub(q))) expect(toolNames(p).some((n) => n.startsWith("mcp__inl__"))).toBe(false);
    expect(pids(pidFile)).toHaveLength(1);
    expect(aliveWhenParentResumed).toBe(false);
  }, 60_000);

  test("an inline server named like a configured one is the parent's, not a second process", async () => {
    const cwd = tempDir();
    const pidFile = join(cwd, "fx.pids");
    writeMcpConfig(cwd, { fx: fixtureServer("--pid-file", pidFile) });
    const agents = JSON.stringify({
      sharer: { description: "d", prompt: "p", mcpServers: [{ fx: { command: BUN, args: [FIXTURE_SERVER, "--pid-file", pidFile] } }] },
    });
    const r = await run(
      script("sharer", () => reply(text("ok"))),
      ["--agents", agents],
      cwd,
    );
    expect(r.code).toBe(0);
    expect(toolNames(r.model.requests.find(isSub)!)).toContain("mcp__fx__echo");
    expect(pids(pidFile)).toHaveLength(1);
  }, 60_000);

  test("a server that fails is one stderr line and a note the subagent reads; the run goes on", async () => {
    const cwd = tempDir();
    const agents = JSON.stringify({
      broken: { description: "d", prompt: "p", mcpServers: [{ bad: { command: BUN, args: [FIXTURE_SERVER, "--exit-immediately"] } }] },
    });
    const r = await run(
      script("broken", () => reply(text("no server"))),
      ["--agents", agents],
      cwd,
    );
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(r.stderr.split("\n").filter((l) => l.includes("bad"))).toHaveLength(1);
    expect(JSON.stringify(r.model.requests.find(isSub)!.body.messages[0])).toContain('MCP server \\"bad\\" could not start');
  }, 60_000);

  test("a project agent's servers start only in a trusted folder; otherwise one line says why", async () => {
    const cwd = tempDir();
    const config = tempDir();
    const pidFile = join(cwd, "proj.pids");
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "agents", "repo.md"),
      `---\nname: repo\ndescription: a project agent with a server\nmcpServers:\n  - projsrv:\n      command: ${BUN}\n      args: [${JSON.stringify(FIXTURE_SERVER)}, "--pid-file", ${JSON.stringify(pidFile)}]\n---\nREPO\n`,
    );
    const untrusted = await run(
      script("repo", () => reply(text("ok"))),
      [],
      cwd,
      { CLAUDE_CONFIG_DIR: config },
    );
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain('agent "repo": its MCP servers (projsrv) were not started: this folder is not trusted');
    expect(pids(pidFile)).toEqual([]);
    writeFileSync(join(config, ".claude.json"), JSON.stringify({ projects: { [cwd]: { hasTrustDialogAccepted: true } } }));
    const trusted = await run(
      script("repo", () => reply(text("ok"))),
      [],
      cwd,
      { CLAUDE_CONFIG_DIR: config },
    );
    expect(trusted.code).toBe(0);
    expect(toolNames(trusted.model.requests.find(isSub)!)).toContain("mcp__projsrv__echo");
    expect(pids(pidFile)).toHaveLength(1);
  }, 60_000);
});
