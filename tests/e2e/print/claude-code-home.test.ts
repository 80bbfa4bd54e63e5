/**
 * A Claude Code user's home (fixtures/claude-code-home: a model alias, env with ANTHROPIC_BASE_URL,
 * ENABLE_TOOL_SEARCH and MCP_PROTOCOL_NEGOTIATION, hooks that print to stdout, allow rules for
 * WebFetch and WebSearch and AGENT_WEB_TOOLS=1 and AGENT_SUBAGENTS=1 in its `env` (-p offers those tools only when a flag, the
 * process environment or the project asks), deny rules for tools
 * we lack, defaultMode "plan", a skill) breaks nothing the course checks: mcp-init's line and a
 * 2025 server's first frame are byte-identical to an empty home's, -p declares exactly
 * {roots:{},sampling:{}}, stdout holds only the answer, and the exit code is the same.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const HOME_FIXTURE = join(ROOT, "fixtures", "claude-code-home");

function homes() {
  const claudeUser = tempDir("agent-cc-home-");
  cpSync(HOME_FIXTURE, claudeUser, { recursive: true });
  return { claudeUser, empty: tempDir("agent-empty-home-") };
}

/** One -p run in a fresh project with one 2025-era fixture server logging what it receives. */
async function run(home: string) {
  const dir = tempDir();
  const log = join(dir, "server.log");
  writeMcpConfig(dir, { fx: fixtureServer("--log-file", log) });
  const server = startModelServer([reply(toolUse("Bash", { command: "echo tool ran" })), reply(text("the answer"))]);
  try {
    const r = await runAgent(["-p", "go"], { cwd: dir, model: server.url, env: { HOME: home } });
    return { ...r, home, first: readFileSync(log, "utf8").split("\n")[0]!, requests: server.requests };
  } finally {
    server.stop();
  }
}

describe("a Claude Code user's home", () => {
  test("mcp-init prints the same line", async () => {
    const { claudeUser, empty } = homes();
    const dir = tempDir();
    writeFileSync(
      join(dir, "case.json"),
      JSON.stringify({ id: 1, serverResponse: { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", capabilities: {} } } }),
    );
    const [a, b] = await Promise.all([
      runAgent(["mcp-init", "case.json"], { cwd: dir, env: { HOME: claudeUser } }),
      runAgent(["mcp-init", "case.json"], { cwd: dir, env: { HOME: empty } }),
    ]);
    expect(a).toEqual(b);
    expect(a.stderr).toBe("");
  });

  test("-p: same first frame, exactly {roots, sampling}, only the answer on stdout, same exit code", async () => {
    const { claudeUser, empty } = homes();
    const [cc, plain] = [await run(claudeUser), await run(empty)];
    expect(cc.first).toBe(plain.first);
    expect(JSON.parse(cc.first).params.capabilities).toEqual({ roots: {}, sampling: {} });
    expect(cc.stdout).toBe("the answer\n");
    expect(cc.code).toBe(plain.code);
    expect(cc.code).toBe(0);
    // Such a user sees nothing on stderr: the home's defaultMode "plan" is the session's, never -p's.
    expect(cc.stderr).toBe("");
    // The home's allow rules for WebFetch and WebSearch, and its env's AGENT_WEB_TOOLS and AGENT_SUBAGENTS, add no tool to -p: the same tools as an empty home's (its skill aside).
    const names = (r: typeof cc) => r.requests[0]!.body.tools.map((t: { name: string }) => t.name).filter((n: string) => n !== "Skill");
    expect(names(cc)).toEqual(names(plain));
    expect(names(cc)).not.toContain("WebFetch");
    expect(names(cc)).not.toContain("WebSearch");
    expect(names(cc)).not.toContain("Agent");
    // The process's ANTHROPIC_BASE_URL won over the home's: the scripted model got every call.
    expect(cc.requests).toHaveLength(2);
    expect(cc.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ type: "tool_result", content: "tool ran" });
  });

  test("mcp-init, --version and --help read no settings: a broken file and a hook that would leave a mark change nothing", async () => {
    const { claudeUser } = homes();
    const dir = tempDir();
    const mark = join(dir, "hook-ran");
    mkdirSync(join(dir, ".claude"));
    writeFileSync(
      join(dir, ".claude", "settings.json"),
      JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${mark}` }] }] } }),
    );
    writeFileSync(join(claudeUser, ".claude", "settings.json"), "{ not json");
    writeFileSync(join(dir, "case.json"), JSON.stringify({ id: 1, serverResponse: null }));
    for (const args of [["mcp-init", "case.json"], ["--version"], ["--help"]]) {
      const r = await runAgent(args, { cwd: dir, env: { HOME: claudeUser } });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
    }
    expect(existsSync(mark)).toBe(false);
  });
});
