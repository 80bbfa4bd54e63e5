/**
 * Servers and configs that fail, through the whole agent: each failure is one stderr line naming
 * the server (or the file), the healthy servers still work, and the run exits 0
 * (MCP 2025-11-25 basic/lifecycle; Claude Code `.mcp.json` conventions).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, runAgent } from "../../support/run.ts";
import { lines, project, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";

afterEach(stopProjects);

const echoThenDone = () => [reply(toolUse("mcp__ok__echo", { text: "healthy" })), reply(text("done"))];

describe("servers that fail to start", () => {
  test("missing command, instant exit, garbage, initialize error: one line each, the healthy server still called, exit 0", async () => {
    const p = project(
      {
        ok: fixtureServer(),
        missing: { command: "no-such-command-4242", args: [] },
        early: fixtureServer("--exit-immediately"),
        garbage: fixtureServer("--garbage"),
        refuses: fixtureServer("--init-error", "--stderr-lines", "2"),
      },
      echoThenDone(),
    );
    // Long enough for a loaded machine to start the garbage server and read its garbage before the timeout.
    const r = await p.run("go", { env: { MCP_TIMEOUT: "5000" } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!).content).toBe("healthy");
    const names = toolNames(p.model.requests[0]!).filter((n) => n.startsWith("mcp__"));
    expect(names.every((n) => n.startsWith("mcp__ok__"))).toBe(true);

    const err = lines(r.stderr);
    expect(err).toHaveLength(4);
    const line = (server: string) => err.filter((l) => l.startsWith(`MCP server "${server}" failed to start: `));
    expect(line("missing")).toEqual(['MCP server "missing" failed to start: command not found: no-such-command-4242']);
    // The server's own stderr is shown with its failure.
    expect(line("early")).toEqual([
      'MCP server "early" failed to start: exited with code 1 before the handshake (stderr: [fixture] exiting before reading anything (--exit-immediately))',
    ]);
    expect(line("garbage")).toHaveLength(1);
    expect(line("garbage")[0]).toContain("no answer to initialize within 5000 ms");
    expect(line("garbage")[0]).toContain("not JSON-RPC");
    expect(line("refuses")).toHaveLength(1);
    expect(line("refuses")[0]).toContain("initialize failed: MCP error -32603: fixture init error (--init-error)");
    expect(line("refuses")[0]).toContain("[fixture] stderr line 2 of 2");
  });

  test("a server answering initialize with the wrong id: the timeout line says which id it answered", async () => {
    const p = project({ ok: fixtureServer(), astray: fixtureServer("--wrong-init-id") }, echoThenDone());
    // Long enough for a loaded machine to start the server and read its stray answer before the timeout.
    const r = await p.run("go", { env: { MCP_TIMEOUT: "5000" } });
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual([
      'MCP server "astray" failed to start: no answer to initialize within 5000 ms; it answered request id 1001, which we never sent',
    ]);
  });

  test("an unsupported protocolVersion is refused with a line naming the version", async () => {
    const p = project({ ok: fixtureServer(), old: fixtureServer("--protocol-version", "1999-01-01") }, echoThenDone());
    const r = await p.run("go");
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^MCP server "old" failed to start: .*unsupported protocolVersion "1999-01-01"/)]);
    expect(toolResult(p.model.requests[1]!).content).toBe("healthy");
  });

  test("an older protocolVersion we speak is accepted", async () => {
    const p = project({ ok: fixtureServer("--protocol-version", "2024-11-05") }, echoThenDone());
    const r = await p.run("go");
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(toolResult(p.model.requests[1]!).content).toBe("healthy");
  });

  test("/mcp lists each server with its status and reason, without a model call", async () => {
    const p = project({ ok: fixtureServer(), early: fixtureServer("--exit-immediately") }, []);
    const r = await p.run("/mcp");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok: connected\nearly: failed (exited with code 1 before the handshake)\n");
    expect(p.model.requests).toHaveLength(0);
  });
});

describe("broken configuration", () => {
  test("invalid JSON in .mcp.json: one line naming the file and the position, the run goes on without servers", async () => {
    const p = project(undefined, [reply(text("no servers, still fine"))]);
    writeFileSync(join(p.dir, ".mcp.json"), '{\n  "mcpServers": {\n    "fx": { "command": "bun", }\n  }\n}\n');
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "no servers, still fine\n"]);
    const err = lines(r.stderr);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^\.mcp\.json: invalid JSON at line 3:\d+/);
    expect(toolNames(p.model.requests[0]!).some((n) => n.startsWith("mcp__"))).toBe(false);
    // `/mcp` says the config could not be used, not that there is none.
    const table = await p.run("/mcp");
    expect([table.code, table.stdout]).toEqual([0, "No MCP servers could be loaded (the lines at start-up say why).\n"]);
  });

  test("an entry without command is skipped with a line naming it; the others start", async () => {
    const p = project({ nocmd: { args: ["x"] }, ok: fixtureServer() }, echoThenDone());
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(lines(r.stderr)).toEqual(['.mcp.json: server "nocmd": "command" must be a non-empty string; skipped']);
    expect(toolResult(p.model.requests[1]!).content).toBe("healthy");
  });

  test("an http server that cannot be reached fails with one line naming it; the others still work", async () => {
    const p = project({ remote: { type: "http", url: "http://127.0.0.1:9/mcp" }, ok: fixtureServer() }, echoThenDone());
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(lines(r.stderr)).toEqual(['MCP server "remote" failed to start: cannot connect to http://127.0.0.1:9: ECONNREFUSED']);
  });

  test("an entry with an unknown type is skipped with a line naming it and the field", async () => {
    const p = project({ remote: { type: "websocket", url: "ws://127.0.0.1:9" }, ok: fixtureServer() }, echoThenDone());
    const r = await p.run("go");
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^\.mcp\.json: server "remote": "type" is "websocket": not a transport/)]);
  });

  test("an --mcp-config value that gives no servers is a usage error before anything starts: -p and mcp", async () => {
    const p = project({ fx: fixtureServer("--pid-file", "fx.pid") }, [reply(text("never"))]);
    const missing = await p.run("hi", { args: ["--mcp-config", "missing.json"] });
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([2, "", "error: MCP config missing.json: file not found\n"]);
    const bad = await p.run("hi", { args: ["--mcp-config", "{bad"] });
    expect([bad.code, lines(bad.stderr)]).toEqual([2, [expect.stringMatching(/^error: MCP config \(inline JSON\): invalid JSON at line 1:2/)]]);
    expect(p.model.requests).toHaveLength(0);
    expect(existsSync(join(p.dir, "fx.pid"))).toBe(false);
    const list = await runAgent(["--mcp-config", "missing.json", "mcp", "list"], { cwd: p.dir });
    expect([list.code, list.stdout, list.stderr]).toEqual([2, "", "error: MCP config missing.json: file not found\n"]);
  });

  test("--mcp-config adds servers from a file and inline JSON; --strict-mcp-config ignores .mcp.json", async () => {
    const p = project({ ignored: fixtureServer() }, [reply(text("one")), reply(text("two"))]);
    writeFileSync(join(p.dir, "extra.json"), JSON.stringify({ mcpServers: { file: fixtureServer() } }));
    const inline = JSON.stringify({ mcpServers: { inline: fixtureServer() } });
    const r = await p.run("hi", { args: ["--mcp-config", "extra.json", "--mcp-config", inline] });
    expect(r.code).toBe(0);
    const servers = (i: number) =>
      new Set(
        toolNames(p.model.requests[i]!)
          .filter((n) => n.startsWith("mcp__"))
          .map((n) => n.split("__")[1]),
      );
    expect(servers(0)).toEqual(new Set(["ignored", "file", "inline"]));
    const strict = await p.run("hi", { args: ["--strict-mcp-config", "--mcp-config", "extra.json"] });
    expect(strict.code).toBe(0);
    expect(servers(1)).toEqual(new Set(["file"]));
  });
});
