/**
 * The words of the diagnostics a user sees first, through the real program: servers' colour codes
 * on a plain stderr, a mention naming no server, and how servers' failures read.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { lines, npmServer, project, stopProjects, toolResult, userBlocks } from "../../support/mcp.ts";
import { FIXTURE_SERVER, BUN, fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

afterEach(stopProjects);

const RED = "\\033[31m";
const RESET = "\\033[0m";
/** An `.mcp.json` entry that prints `line` (printf format) on stderr, then runs `then` (a shell command). */
const shellServer = (line: string, then: string) => ({ command: "sh", args: ["-c", `printf '${line}\\n' >&2; ${then}`] });
const fixture = `exec '${BUN}' '${FIXTURE_SERVER}'`;

describe("servers' ANSI colour", () => {
  test("--verbose shows a server's stderr lines without their colour codes when stderr is a pipe", async () => {
    const p = project({ fx: shellServer(`${RED}listening${RESET} on stdio`, fixture) }, [reply(text("ok"))]);
    const r = await p.run("hi", { args: ["--verbose"], env: { NO_COLOR: undefined } });
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toContain("[fx] listening on stdio");
    expect(r.stderr).not.toContain("\x1b");
  });

  test("a failure line quotes the stderr tail without colour codes", async () => {
    const p = project({ bad: shellServer(`${RED}Error: boom${RESET}`, "exit 3") }, [reply(text("ok"))]);
    const r = await p.run("hi");
    expect(r.code).toBe(0);
    // Also: a server that exits before reading says so, not the EPIPE our initialize write met.
    expect(lines(r.stderr)).toEqual(['MCP server "bad" failed to start: exited with code 3 before the handshake (stderr: Error: boom)']);
  });

  test("mcp list shows a failure reason without colour codes", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { bad: shellServer(`${RED}Error: boom${RESET}`, "exit 3") });
    const r = await runAgent(["mcp", "list"], { cwd: dir, env: { ANTHROPIC_API_KEY: undefined, NO_COLOR: undefined } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Error: boom");
    expect(r.stdout + r.stderr).not.toContain("\x1b");
  });
});

describe("a mention naming no server", () => {
  test("is sent as text, with one stderr hint naming the servers that exist", async () => {
    const p = project({ fx: fixtureServer(), docs: fixtureServer() }, [reply(text("ok"))]);
    const r = await p.run("look @nosuch:foo://bar and again @nosuch:foo://bar, not @fx:fixture://hello");
    expect([r.code, r.stdout]).toEqual([0, "ok\n"]);
    expect(lines(r.stderr)).toEqual(['@nosuch:foo://bar: no MCP server named "nosuch" (the MCP servers are "fx", "docs"); sent as plain text']);
    const blocks = userBlocks(p.model.requests[0]!);
    expect(blocks[0].text).toBe("look @nosuch:foo://bar and again @nosuch:foo://bar, not @fx:fixture://hello");
    expect(blocks.map((b: any) => b.text.split("\n")[0])).toEqual([blocks[0].text, '<attachment source="fx:fixture://hello">']);
  });

  test("without any server the hint says so; a missing file and an e-mail address stay quiet", async () => {
    const p = project(undefined, [reply(text("ok"))]);
    const r = await p.run("see @nosuch:foo://bar @missing.txt me@example.com @scope/pkg");
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual(['@nosuch:foo://bar: no MCP server named "nosuch" (no MCP servers are configured); sent as plain text']);
  });
});

describe("a JSON-RPC error states its code once, in front", () => {
  test("a tool call's error reaches the model as one line", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__rpc_error", {})), reply(text("ok"))]);
    expect((await p.run("rpc")).code).toBe(0);
    expect(toolResult(p.model.requests[1]!)).toMatchObject({
      is_error: true,
      content: 'MCP server "fx" returned an error for rpc_error: MCP error -32000: fixture rpc error',
    });
  });

  test("a refused handshake", async () => {
    const p = project({ fx: fixtureServer("--init-error") }, [reply(text("ok"))]);
    const r = await p.run("hi");
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual(['MCP server "fx" failed to start: initialize failed: MCP error -32603: fixture init error (--init-error)']);
  });

  test("the everything server's own prefix is not repeated: mention and inspector", async () => {
    const p = project({ everything: npmServer("everything", ["stdio"]) }, [reply(text("ok"))]);
    const r = await p.run("look @everything:demo://nope");
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(["error: cannot read @everything:demo://nope: MCP error -32602: Resource demo://nope not found"]);
    const read = await runAgent(["mcp", "read", "everything", "demo://nope"], { cwd: p.dir, env: { ANTHROPIC_API_KEY: undefined } });
    expect(read.code).toBe(1);
    expect(lines(read.stderr)).toEqual(["mcp read: MCP error -32602: Resource demo://nope not found"]);
  });
});

describe("servers that cannot start", () => {
  test("a Node stack trace in the stderr tail reads as its lines: the error first, no frames, no stray }", async () => {
    const p = project(({ dir }) => ({ node: { command: "node", args: [`${dir}/indx.js`] } }), [reply(text("ok"))]);
    const r = await p.run("hi");
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(
        /^MCP server "node" failed to start: exited with code 1 before the handshake \(stderr: Error: Cannot find module '.*\/indx\.js' \| Node\.js v[\d.]+\)$/,
      ),
    ]);
  });

  test("a script without #! is named as not executable, with the fix", async () => {
    const p = project({ srv: { command: "./srv.sh" } }, [reply(text("ok"))]);
    writeFileSync(join(p.dir, "srv.sh"), "echo not a server\n");
    chmodSync(join(p.dir, "srv.sh"), 0o755);
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "ok\n"]);
    expect(lines(r.stderr)).toEqual([
      'MCP server "srv" failed to start: cannot start "./srv.sh": not an executable program (no #! line?); run it through its interpreter, e.g. "command": "sh"',
    ]);
  });
});
