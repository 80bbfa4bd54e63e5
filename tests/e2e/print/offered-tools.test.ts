/**
 * --tools, Claude Code's flag for the built-in tools offered, through the real program: the first
 * request offers what it names (MCP servers' tools are theirs and stay), "" none, "default" today's set.
 */
import { afterEach, expect, test } from "bun:test";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const offered = async (flags: string[]) => {
  server?.stop();
  server = startModelServer([reply(text("ok"))]);
  const dir = tempDir();
  writeMcpConfig(dir, { fx: fixtureServer() });
  const r = await runAgent(["-p", "hi", ...flags], { cwd: dir, model: server.url });
  expect(r.code).toBe(0);
  return ((server.requests[0]!.body.tools ?? []) as { name: string }[]).map((t) => t.name);
};

test("--tools names the built-in tools offered; MCP tools stay", async () => {
  const named = await offered(["--tools", "Read,Bash"]);
  expect(named.filter((n) => !n.startsWith("mcp__"))).toEqual(["Read", "Bash"]);
  expect(named).toContain("mcp__fx__echo");
  expect((await offered(["--tools", ""])).filter((n) => !n.startsWith("mcp__"))).toEqual([]);
  const all = await offered([]);
  expect(await offered(["--tools", "default"])).toEqual(all);
  expect(all.filter((n) => !n.startsWith("mcp__"))).toEqual(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]);
});

test("a --tools name that is no tool of ours is one stderr line, and the run goes on", async () => {
  server?.stop();
  server = startModelServer([reply(text("ok"))]);
  const r = await runAgent(["-p", "hi", "--tools", "Read,Nope,Task"], { cwd: tempDir(), model: server.url });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("ok\n");
  expect(r.stderr).toBe('--tools: no built-in tool named "Nope"\n');
  expect((server.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)).toEqual(["Read", "Agent"]);
});
