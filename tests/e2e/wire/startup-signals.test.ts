/**
 * A signal while MCP servers are still starting: the servers get the same graceful shutdown as
 * at the end of a run (stdin closed first), and nothing is left behind.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, isAlive, tempDir, writeMcpConfig } from "../../support/run.ts";
import { pidsIn, spawnAgent, survivors } from "../../support/mcp.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

test("SIGTERM while a server is still in its handshake: it sees stdin close, and no process is left", async () => {
  server = startModelServer([reply(text("never"))]);
  const dir = tempDir();
  const exitLog = join(dir, "exit.log");
  const pidFile = join(dir, "pids");
  writeMcpConfig(dir, {
    slow: fixtureServer("--init-delay", "10000", "--stderr-lines", "1", "--exit-log", exitLog, "--pid-file", pidFile, "--grandchild"),
  });
  const agent = spawnAgent(["-p", "hi", "--verbose"], { cwd: dir, model: server.url });
  await agent.waitForStderr("[slow] ");
  process.kill(agent.pid, "SIGTERM");
  const r = await agent.done;
  expect(r.code).toBe(143);
  expect(server.requests).toHaveLength(0);
  expect(existsSync(exitLog) ? readFileSync(exitLog, "utf8").split("\n")[0] : "(no exit log)").toBe("stdin EOF");
  expect(r.stderr).not.toContain("failed to start");
  expect(await survivors(() => pidsIn(pidFile).filter(isAlive))).toEqual([]);
});
