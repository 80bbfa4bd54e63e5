/**
 * notifications/progress (MCP 2025-11-25 basic/utilities/progress): asked for and shown as progress
 * lines only when a person watches a terminal; a piped run neither asks nor prints.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { baseEnv, fixtureServer, PROGRAM, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { received } from "../../support/mcp.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const script = () => [reply(toolUse("mcp__fx__slow", { ms: 40 })), reply(text("slept"))];

describe("progress", () => {
  test.skipIf(!Bun.which("script"))("on a terminal: a progressToken is sent and each notification is a stderr line", async () => {
    server = startModelServer(script());
    const dir = tempDir();
    const log = join(dir, "wire.log");
    writeMcpConfig(dir, { fx: fixtureServer("--log-file", log) });
    // script(1) gives the agent a pseudo-terminal for stdin, stdout and stderr.
    const proc = Bun.spawn(["script", "-qec", `${PROGRAM} -p go`, "/dev/null"], {
      cwd: dir,
      env: baseEnv(server.url) as Record<string, string>,
      stdout: "pipe",
      stdin: "ignore",
    });
    const screen = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(screen).toContain("mcp__fx__slow: 0/40 (0%)");
    expect(screen).toContain("mcp__fx__slow: 40/40 (100%)");
    expect(screen).toContain("slept");
    const call = received(log).find((m) => m.method === "tools/call");
    expect(call?.params?._meta?.progressToken).toBeDefined();
  });

  test("piped: no progressToken asked, no progress lines", async () => {
    server = startModelServer(script());
    const dir = tempDir();
    const log = join(dir, "wire.log");
    writeMcpConfig(dir, { fx: fixtureServer("--log-file", log) });
    const r = await runAgent(["-p", "go"], { cwd: dir, model: server.url });
    expect(r.stdout).toBe("slept\n");
    expect(r.stderr).toBe("");
    const call = received(log).find((m) => m.method === "tools/call");
    expect(call?.params?._meta?.progressToken).toBeUndefined();
  });
});
