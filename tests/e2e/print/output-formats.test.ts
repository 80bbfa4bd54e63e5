/**
 * What the program leaves on stdout and stderr at the edges, through the real program: an error
 * nobody expected is one stderr line (the stack only with --debug) and json still gets its result
 * object; a reader that closes the pipe early is not an error; a slow reader gets every byte.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { approveProjectServers, PROGRAM, baseEnv, fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

/** A Messages API endpoint whose 200 reply is not JSON: input from outside the agent cannot parse. */
function garbledModel(): string {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response("this is not json", { headers: { "content-type": "application/json" } }),
  });
  stop = () => server.stop(true);
  return `http://127.0.0.1:${server.port}`;
}

/** `env` without the undefined entries baseEnv uses to mean "unset". */
function processEnv(model?: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = { ...baseEnv(model), ...extra };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

describe("an unexpected error", () => {
  test("is one stderr line and exit 1, with no stack", async () => {
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), model: garbledModel() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toStartWith("error: ");
    expect(r.stderr).toContain("JSON");
  });

  test("still gives json its error result object", async () => {
    const r = await runAgent(["-p", "hi", "--output-format", "json"], { cwd: tempDir(), model: garbledModel() });
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true });
    expect(result.result).toContain("JSON");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  test("shows its stack with --debug", async () => {
    const r = await runAgent(["-p", "hi", "--debug"], { cwd: tempDir(), model: garbledModel() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*\n\s+at /m);
  });
});

describe("stdout as a pipe", () => {
  test("a reader that leaves early (| head -c 10) ends the writing quietly: exit 0, nothing on stderr", async () => {
    const model: ModelServer = startModelServer([reply(text("y".repeat(2_000_000)))]);
    stop = () => model.stop();
    const dir = tempDir();
    // Far more than a pipe holds, so the agent is still writing when head has gone.
    const script = '{ "$0" -p hi 2>"$ERR_FILE"; echo $? >"$CODE_FILE"; } | head -c 10';
    const env = processEnv(model.url, { ERR_FILE: join(dir, "err"), CODE_FILE: join(dir, "code") });
    const shell = Bun.spawn(["sh", "-c", script, PROGRAM], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    const [head] = await Promise.all([new Response(shell.stdout).text(), shell.exited]);
    expect(head).toBe("y".repeat(10));
    expect(readFileSync(join(dir, "err"), "utf8")).toBe("");
    expect(readFileSync(join(dir, "code"), "utf8").trim()).toBe("0");
  });

  test("a slow reader gets all of `agent mcp call`'s output before the program exits", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer() });
    const env = processEnv();
    // The inspector starts a project's server only once it is approved (mcp approve).
    await approveProjectServers(dir, env);
    const agent = Bun.spawn([PROGRAM, "mcp", "call", "fx", "big", '{"bytes":3000000}'], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    let bytes = 0;
    for await (const chunk of agent.stdout) {
      bytes += chunk.length;
      // The slowness is the condition under test (output still queued when the program is done), not a wait.
      await Bun.sleep(10);
    }
    expect(await agent.exited).toBe(0);
    expect(bytes).toBe(3_000_000 + 1);
  }, 30_000);
});
