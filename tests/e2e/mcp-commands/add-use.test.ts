/**
 * As a new user would: `mcp add` a server, then `mcp list` and `-p` use it, then `mcp remove`
 * undoes it; once for a stdio server, once for the npm everything server in Streamable HTTP mode.
 */
import { NO_SERVERS } from "../../../lib/cli/ui/server-lines.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, ROOT, runAgent, tempDir } from "../../support/run.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything");
const EVERYTHING_BIN = join(EVERYTHING, JSON.parse(readFileSync(join(EVERYTHING, "package.json"), "utf8")).bin["mcp-server-everything"]);
/** The package targets Node; Bun runs it too when Node is absent. */
const NODE = Bun.which("node") ?? BUN;

let model: ModelServer | undefined;
let everything: Bun.Subprocess | undefined;
afterEach(() => {
  model?.stop();
  everything?.kill("SIGKILL");
  model = everything = undefined;
});

function place() {
  const home = tempDir("agent-home-");
  return { dir: tempDir(), home, env: { HOME: home } };
}

/** A port nothing listens on right now (the everything server takes its port from PORT, and 0 would not say which it got). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response("") });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Starts the everything server over Streamable HTTP; resolves with its /mcp URL once it listens. */
async function startEverythingHttp(): Promise<string> {
  const port = freePort();
  everything = Bun.spawn([NODE, EVERYTHING_BIN, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdout: "ignore", stderr: "pipe" });
  const reader = (everything.stderr as ReadableStream<Uint8Array>).getReader();
  let seen = "";
  while (!seen.includes("listening on port")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the everything server did not start: ${seen}`);
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return `http://127.0.0.1:${port}/mcp`;
}

describe("mcp add, then use, then remove", () => {
  test("a stdio server: mcp list shows it, -p calls its tool, mcp remove undoes it", async () => {
    const p = place();
    expect((await runAgent(["mcp", "add", "fx", "--", BUN, FIXTURE_SERVER], { cwd: p.dir, env: p.env })).code).toBe(0);
    const list = await runAgent(["mcp", "list"], { cwd: p.dir, env: p.env });
    expect(list.stdout).toMatch(/^fx +connected +stdio \S+ \S+fixture-server\.ts {2}14 tools/);
    model = startModelServer([reply(toolUse("mcp__fx__echo", { text: "added by mcp add" })), reply(text("done"))]);
    const run = await runAgent(["-p", "go"], { cwd: p.dir, model: model.url, env: p.env });
    expect([run.code, run.stdout]).toEqual([0, "done\n"]);
    expect(JSON.stringify(model.requests[1]!.body.messages)).toContain("added by mcp add");
    expect((await runAgent(["mcp", "remove", "fx"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runAgent(["mcp", "list"], { cwd: p.dir, env: p.env })).stdout).toBe(`${NO_SERVERS}\n`);
  });

  test("the everything server over HTTP: mcp add --transport http, its tools listed and called, then removed", async () => {
    const p = place();
    const url = await startEverythingHttp();
    expect((await runAgent(["mcp", "add", "--transport", "http", "everything", url], { cwd: p.dir, env: p.env })).code).toBe(0);
    const list = JSON.parse((await runAgent(["mcp", "list", "--json"], { cwd: p.dir, env: p.env })).stdout);
    expect(list).toEqual([expect.objectContaining({ name: "everything", status: "connected", scope: "local" })]);
    expect(list[0].tools).toBeGreaterThan(5);
    const call = await runAgent(["mcp", "call", "everything", "echo", '{"message":"over http"}'], { cwd: p.dir, env: p.env });
    expect(call).toMatchObject({ code: 0 });
    expect(call.stdout).toContain("over http");
    expect((await runAgent(["mcp", "remove", "everything"], { cwd: p.dir, env: p.env })).stdout).toStartWith(
      'Removed MCP server "everything" from local scope',
    );
  }, 30_000);
});
