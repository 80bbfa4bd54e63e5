/**
 * Servers in the wild, at the wire level, through the whole agent (MCP 2025-11-25
 * basic/transports#stdio): output that is not JSON-RPC, broken UTF-8, odd line endings and write
 * sizes, responses nobody asked for, and a result of several megabytes on one line. The call
 * must come through unchanged and the run must end normally.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer } from "../../support/run.ts";
import { lines, project, stopProjects, toolResult } from "../../support/mcp.ts";

afterEach(stopProjects);

/** Non-ASCII on purpose: multi-byte characters are what split writes cut in half. */
const MESSAGE = "héllo wörld — 😀 ok";

describe("a tool call still comes through", () => {
  test.each([
    ["--banner", "non-JSON banner lines on stdout at start and before every response"],
    ["--invalid-utf8", "a line of invalid UTF-8 before every response"],
    ["--crlf", "\\r\\n line endings"],
    ["--split-writes", "tiny writes splitting multi-byte characters across reads"],
    ["--coalesce", "a notification and the response in one write"],
    ["--unknown-id", "a response to an id we never used before every response"],
  ])("%s (%s)", async (flag) => {
    const p = project({ fx: fixtureServer(flag) }, [reply(toolUse("mcp__fx__echo", { text: MESSAGE })), reply(text("done"))]);
    const r = await p.run("echo");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    // Skipped lines are diagnostics for --verbose, not noise on every run.
    expect(r.stderr).toBe("");
    // --split-writes makes echo append " é😀", so a character lost at a read boundary shows.
    const expected = flag === "--split-writes" ? `${MESSAGE} é😀` : MESSAGE;
    expect(toolResult(p.model.requests[1]!)).toMatchObject({ content: expected });
    expect(toolResult(p.model.requests[1]!).is_error).toBeUndefined();
  });

  test("all of them at once", async () => {
    const flags = ["--banner", "--invalid-utf8", "--crlf", "--split-writes", "--coalesce", "--unknown-id"];
    const p = project({ fx: fixtureServer(...flags) }, [reply(toolUse("mcp__fx__echo", { text: MESSAGE })), reply(text("done"))]);
    const r = await p.run("echo");
    expect(r.code).toBe(0);
    expect(toolResult(p.model.requests[1]!).content).toBe(`${MESSAGE} é😀`);
  });

  test("--verbose shows each skipped line as a diagnostic naming the server", async () => {
    const p = project({ fx: fixtureServer("--banner", "--invalid-utf8", "--unknown-id") }, [reply(text("done"))]);
    const r = await p.run("hi", { args: ["--verbose"] });
    expect(r.code).toBe(0);
    const err = lines(r.stderr);
    expect(err).toContain('MCP server "fx": skipped a line (line is not JSON): [fixture] banner: server starting, this line is not JSON-RPC');
    expect(err).toContain('MCP server "fx": response to unknown request id "fixture-unknown-1" skipped');
    expect(err.some((l) => l.startsWith('MCP server "fx": a line that is not valid UTF-8 was decoded with replacement characters'))).toBe(true);
  });
});

describe("a very large single-line result", () => {
  const FIVE_MB = 5 * 1024 * 1024;

  test("5 MB on one line is cut to MAX_MCP_OUTPUT_TOKENS (×4 characters) with a note saying so", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__big", { bytes: FIVE_MB })), reply(text("done"))]);
    const r = await p.run("big", { env: { MAX_MCP_OUTPUT_TOKENS: "1000" } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const content: string = toolResult(p.model.requests[1]!).content;
    expect(content.startsWith("x".repeat(4000) + "\n\n[Output truncated")).toBe(true);
    expect(content).toContain(`${FIVE_MB} characters`);
    expect(content).toContain("MAX_MCP_OUTPUT_TOKENS");
    // The head, the note (with the path of the file holding the whole result) and a 1000-character tail.
    expect(content.length).toBeLessThan(4000 + 1000 + 800);
  });

  test("the default limit is 25000 tokens (100000 characters)", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__big", { bytes: FIVE_MB })), reply(text("done"))]);
    const r = await p.run("big");
    expect(r.code).toBe(0);
    const content: string = toolResult(p.model.requests[1]!).content;
    expect(content.indexOf("\n\n[Output truncated")).toBe(100_000);
  });

  test("a result under the limit is not touched", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__big", { bytes: 3999 })), reply(text("done"))]);
    const r = await p.run("big", { env: { MAX_MCP_OUTPUT_TOKENS: "1000" } });
    expect(r.code).toBe(0);
    expect(toolResult(p.model.requests[1]!).content).toBe("x".repeat(3999));
  });
});
