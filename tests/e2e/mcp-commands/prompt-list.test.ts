/**
 * An explicit /mcp__<server>__<prompt> whose prompts/list fails: one line, exit 1, no model call.
 */
import { afterEach, expect, test } from "bun:test";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

test("a failing prompts/list is one stderr line naming the server, not a stack", async () => {
  server = startModelServer([reply(text("unused"))]);
  const dir = tempDir();
  writeMcpConfig(dir, { fx: fixtureServer("--undeclared-prompts", "--prompt-list-error") });
  const r = await runAgent(["-p", "/mcp__fx__greet Ada"], { cwd: dir, model: server.url });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toBe('error: MCP server "fx": prompts/list failed: MCP error -32603: fixture prompts/list error (--prompt-list-error)\n');
  expect(server.requests).toHaveLength(0);
});
