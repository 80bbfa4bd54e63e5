/**
 * --disallowedTools names MCP tools as the config and the server wrote them, even when their API
 * names had to be rewritten (MCP names allow `.`; the Messages API does not).
 */
import { afterEach, expect, test } from "bun:test";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

test("a server whose name was rewritten is removed whole by mcp__<name as configured>", async () => {
  server = startModelServer([reply(text("ok"))]);
  const dir = tempDir();
  writeMcpConfig(dir, { "my.srv": fixtureServer(), fx: fixtureServer("--weird-names") });
  const r = await runAgent(["-p", "a", "--disallowedTools", "mcp__my.srv,mcp__fx__dotted.name"], { cwd: dir, model: server.url });
  expect(r.stderr).toBe("");
  const names: string[] = server.requests[0]!.body.tools.map((t: any) => t.name);
  expect(names.filter((n) => n.startsWith("mcp__my_srv"))).toEqual([]);
  expect(names).not.toContain("mcp__fx__dotted_name");
  expect(names).toContain("mcp__fx__has_space");
  expect(names).toContain("mcp__fx__echo");
});
