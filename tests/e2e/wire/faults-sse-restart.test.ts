/**
 * A legacy HTTP+SSE server (the npm everything server in `sse` mode) killed mid-run and started
 * again at the same URL: the stream's end is its session's end, reported once; its tools stay
 * offered, and the next call reconnects (a new session, within the restart budget) and is answered.
 */
import { afterEach, expect, test } from "bun:test";
import { type RemotePeer, startEverythingHttp, stopRemotePeers } from "../../support/http-peers.ts";
import { type AgentProcess, spawnAgent } from "../../support/mcp.ts";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { tempDir, writeMcpConfig } from "../../support/run.ts";

afterEach(() => stopRemotePeers());

test("the next call after the stream ended reconnects to the server back at its URL", async () => {
  let peer: RemotePeer = await startEverythingHttp("sse");
  const port = Number(new URL(peer.url).port);
  const dir = tempDir();
  writeMcpConfig(dir, { ev: { type: "sse", url: peer.url } });
  let agent!: AgentProcess;
  const model = startModelServer([
    reply(toolUse("mcp__ev__echo", { message: "before" })),
    async () => {
      peer.stop();
      await agent.waitForStderr('MCP server "ev"');
      peer = await startEverythingHttp("sse", port);
      return reply(toolUse("mcp__ev__echo", { message: "after" }));
    },
    reply(text("done")),
  ]);
  try {
    agent = spawnAgent(["-p", "go"], { cwd: dir, model: model.url });
    const r = await agent.done;
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const [before, after] = model.requests.slice(1).map((q) => q.body.messages.at(-1).content[0]);
    expect(JSON.stringify(before.content)).toContain("before");
    expect(after.is_error).toBeUndefined();
    expect(JSON.stringify(after.content)).toContain("after");
    expect(new Set(model.requests.map((q) => JSON.stringify(q.body.tools))).size).toBe(1);
    expect(r.stderr).toContain('MCP server "ev"');
    expect(r.stderr).toContain("its next call restarts it (restart 1 of at most 3 in 5 minutes)");
  } finally {
    model.stop();
  }
}, 60_000);
