/**
 * Servers' `elicitation/create` (MCP 2025-11-25, client/elicitation) through the real executable
 * with nobody to ask: `--elicitation accept-defaults|decline|cancel` declares form mode and
 * answers; without it nothing is declared and the request is refused. The fixture server's
 * `--elicitation-tools` and the npm everything server's `trigger-elicitation-request` ask.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { lines, npmServer, project, type ProjectBasics, received, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";

afterEach(stopProjects);

const logFile = (p: ProjectBasics) => join(p.dir, "fx.log");
const withFixture = (p: ProjectBasics) => ({ fx: fixtureServer("--elicitation-tools", "--log-file", logFile(p)) });
const initializeCapabilities = (p: ProjectBasics) => received(logFile(p)).find((m) => m.method === "initialize")?.params.capabilities;

/** Runs one `-p` turn in which the model calls `tool` with `input`; returns the run and the tool_result. */
async function callOnce(tool: string, input: Record<string, unknown>, args: string[]) {
  const p = project(withFixture, [reply(toolUse(`mcp__fx__${tool}`, input)), reply(text("done"))]);
  const r = await p.run("ask", { args });
  expect([r.code, r.stdout]).toEqual([0, "done\n"]);
  return { p, r, result: toolResult(p.model.requests[1]!) };
}

describe("--elicitation", () => {
  test("accept-defaults: form mode declared, the schema's defaults sent, one stderr line naming the server", async () => {
    const { p, r, result } = await callOnce("elicit", {}, ["--elicitation", "accept-defaults"]);
    expect(initializeCapabilities(p)).toEqual({ roots: {}, sampling: {}, elicitation: { form: {} } });
    expect(result.is_error).toBeUndefined();
    expect(JSON.parse(result.content)).toEqual({
      action: "accept",
      content: { name: "Ada", email: "ada@example.com", age: 36, score: 9.5, verified: true, color: "green", size: "s", tags: ["a", "c"] },
    });
    expect(lines(r.stderr)).toEqual([
      'MCP server "fx" asked for input: "Tell the fixture about yourself" — accepted with its defaults (name, email, age, score, verified, color, size, tags) (--elicitation accept-defaults)',
    ]);
  });

  test("accept-defaults declines when a required field has no default, and says why", async () => {
    const schema = { type: "object", properties: { code: { type: "string", title: "Code" } }, required: ["code"] };
    const { r, result } = await callOnce("elicit", { schema, message: "Your code?" }, ["--elicitation", "accept-defaults"]);
    expect(JSON.parse(result.content)).toEqual({ action: "decline" });
    expect(lines(r.stderr)).toEqual([
      'MCP server "fx" asked for input: "Your code?" — declined (--elicitation accept-defaults: the defaults are not a valid answer: Code is required (field "code"))',
    ]);
  });

  test("decline and cancel arrive as such", async () => {
    for (const policy of ["decline", "cancel"]) {
      const { r, result } = await callOnce("elicit", {}, ["--elicitation", policy]);
      expect(JSON.parse(result.content)).toEqual({ action: policy });
      expect(lines(r.stderr)).toEqual([
        `MCP server "fx" asked for input: "Tell the fixture about yourself" — ${policy === "decline" ? "declined" : "cancelled"} (--elicitation ${policy})`,
      ]);
    }
  });

  test("a URL-mode request is refused under any policy: the capability is form only", async () => {
    const { result } = await callOnce("elicit_url", {}, ["--elicitation", "accept-defaults"]);
    expect(result.is_error).toBe(true);
    expect(result.content).toStartWith("elicitation/create failed: -32602 ");
    expect(result.content).toContain("URL mode is not offered");
  });

  test("without the flag nothing is declared, and the request is refused with -32601", async () => {
    const { p, r, result } = await callOnce("elicit", {}, []);
    expect(initializeCapabilities(p)).toEqual({ roots: {}, sampling: {} });
    expect(result.is_error).toBe(true);
    expect(result.content).toStartWith("elicitation/create failed: -32601 ");
    expect(r.stderr).toBe("");
  });

  test("a bad value is a usage error: one line, exit 2, in -p and in mcp", async () => {
    const dir = tempDir();
    for (const argv of [
      ["-p", "hi", "--elicitation", "yes"],
      ["mcp", "list", "--elicitation", "yes"],
    ]) {
      const r = await runAgent(argv, { cwd: dir });
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain('--elicitation must be accept-defaults, decline or cancel (got "yes")');
      expect(r.stdout).toBe("");
    }
  });

  test("host mode (stream-json) takes the flag too: the answer reaches the tool, the line goes to stderr, stdout stays JSON", async () => {
    const p = project(withFixture, [reply(toolUse("mcp__fx__elicit", {})), reply(text("done"))]);
    const message = JSON.stringify({ type: "user", message: { role: "user", content: "ask" }, parent_tool_use_id: null });
    const host = ["--output-format", "stream-json", "--input-format", "stream-json", "--elicitation", "cancel"];
    const r = await runAgent(host, { cwd: p.dir, model: p.model.url, stdin: `${message}\n` });
    expect(r.code).toBe(0);
    for (const line of r.stdout.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    expect(JSON.parse(toolResult(p.model.requests[1]!).content)).toEqual({ action: "cancel" });
    expect(r.stderr).toContain('MCP server "fx" asked for input: "Tell the fixture about yourself" — cancelled (--elicitation cancel)');
  });

  test("mcp call --elicitation accept-defaults answers the form; the result on stdout, the line on stderr", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { fx: fixtureServer("--elicitation-tools") });
    const r = await runAgent(["mcp", "call", "--elicitation", "accept-defaults", "fx", "elicit", "{}"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: "accept", content: { name: "Ada" } });
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^MCP server "fx" asked for input: .* — accepted with its defaults/)]);
  });
});

describe("MCP_TOOL_TIMEOUT while we answer the server", () => {
  test("a sampling request answered after the tool's whole timeout: the call still succeeds", async () => {
    const p = project(withFixture, [
      reply(toolUse("mcp__fx__sample", { prompt: "take your time" })),
      // The model behind sampling is slower than MCP_TOOL_TIMEOUT: the tool call's clock stands still meanwhile.
      async () => {
        await Bun.sleep(3000);
        return reply(text("worth the wait"));
      },
      reply(text("done")),
    ]);
    const r = await p.run("sample", { env: { MCP_TOOL_TIMEOUT: "1500" } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[2]!)).toMatchObject({ content: "worth the wait" });
  });
});

describe("URL elicitation required (-32042)", () => {
  test("the tool's error names the page to open and why, for the model to tell the user", async () => {
    const { result } = await callOnce("url_required", {}, []);
    expect(result.is_error).toBe(true);
    expect(result.content).toBe(
      'MCP server "fx" needs the user to open a page before url_required can run: https://example.com/fixture/connect ("Authorize the fixture to read your files"). Ask the user to open it and finish there, then call url_required again.',
    );
  });
});

describe("the npm everything server's trigger-elicitation-request", () => {
  const everything = (args: string[], script: Parameters<typeof project>[1]) => {
    const p = project({ everything: npmServer("everything", ["stdio"]) }, script);
    return { p, run: () => p.run("ask", { args }) };
  };

  test("listed only once elicitation is declared; decline and cancel reach it", async () => {
    const none = everything([], [reply(text("done"))]);
    expect((await none.run()).code).toBe(0);
    expect(toolNames(none.p.model.requests[0]!)).not.toContain("mcp__everything__trigger-elicitation-request");
    for (const [policy, said] of [
      ["decline", "User declined"],
      ["cancel", "User cancelled"],
    ] as const) {
      const e = everything(["--elicitation", policy], [reply(toolUse("mcp__everything__trigger-elicitation-request", {})), reply(text("done"))]);
      const r = await e.run();
      expect(r.code).toBe(0);
      expect(JSON.stringify(toolResult(e.p.model.requests[1]!).content)).toContain(said);
      expect(lines(r.stderr).filter((l) => l.startsWith('MCP server "everything" asked for input'))).toHaveLength(1);
    }
  });

  test("accept-defaults declines its form: the required name has no default", async () => {
    const e = everything(["--elicitation", "accept-defaults"], [reply(toolUse("mcp__everything__trigger-elicitation-request", {})), reply(text("done"))]);
    const r = await e.run();
    expect(r.code).toBe(0);
    expect(JSON.stringify(toolResult(e.p.model.requests[1]!).content)).toContain("User declined");
    expect(r.stderr).toContain('the defaults are not a valid answer: String is required (field "name")');
  });
});
