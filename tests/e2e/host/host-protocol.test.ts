/**
 * Host mode's wire, line by line, through the real program: control requests and their
 * responses (unknown subtypes included), stream events, permission modes without a host to ask,
 * the SDK's flags, and a clean end at EOF with servers shut down.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const HOST = ["--output-format", "stream-json", "--input-format", "stream-json"];
const control = (id: string, request: object) => JSON.stringify({ type: "control_request", request_id: id, request });
const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null });
const parse = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const responseTo = (events: any[], id: string) => events.find((e) => e.type === "control_response" && e.response.request_id === id)?.response;

describe("host mode", () => {
  test("every control request gets one response with its request_id; an unknown subtype is an error naming it", async () => {
    const dir = tempDir();
    const log = join(dir, "exit.log");
    writeMcpConfig(dir, { fx: fixtureServer("--exit-log", log) });
    server = startModelServer([reply(text("fine"))]);
    const stdin = [
      control("i1", { subtype: "initialize" }),
      control("s1", { subtype: "mcp_status" }),
      control("p1", { subtype: "set_permission_mode", mode: "plan" }),
      control("p2", { subtype: "set_permission_mode", mode: "acceptEdits" }),
      control("m1", { subtype: "set_model", model: "claude-other" }),
      control("t1", { subtype: "mcp_toggle", serverName: "fx", enabled: false }),
      control("x1", { subtype: "no_such_thing" }),
      control("r1", { subtype: "mcp_reconnect", serverName: "fx" }),
      control("r2", { subtype: "mcp_reconnect", serverName: "nope" }),
      user("hello"),
    ].join("\n");
    const r = await runAgent(HOST, { cwd: dir, model: server.url, stdin: `${stdin}\n` });
    expect(r.code).toBe(0);
    const events = parse(r.stdout);
    expect(responseTo(events, "i1")).toMatchObject({ subtype: "success", response: { commands: expect.any(Array), models: expect.any(Array) } });
    expect(responseTo(events, "s1").response.mcpServers).toEqual([
      expect.objectContaining({
        name: "fx",
        status: "connected",
        serverInfo: expect.any(Object),
        tools: expect.arrayContaining([expect.objectContaining({ name: "echo" })]),
      }),
    ]);
    expect(responseTo(events, "p1").subtype).toBe("success");
    expect(responseTo(events, "p2").subtype).toBe("success");
    expect(responseTo(events, "x1")).toEqual({
      subtype: "error",
      request_id: "x1",
      error: "no_such_thing: unsupported control request subtype: no_such_thing",
    });
    expect(responseTo(events, "r1").subtype).toBe("success");
    expect(responseTo(events, "r2")).toMatchObject({ subtype: "error", error: expect.stringContaining('no MCP server named "nope"') });
    const init = events.find((e) => e.type === "system" && e.subtype === "init");
    expect(init).toMatchObject({ permissionMode: "acceptEdits", model: "claude-other", mcp_servers: [{ name: "fx", status: "disabled" }], cwd: dir });
    expect(init.tools.some((t: string) => t.startsWith("mcp__fx"))).toBe(false);
    expect(server.requests[0]!.body.model).toBe("claude-other");
    expect(events.find((e) => e.type === "result")).toMatchObject({ subtype: "success", result: "fine", session_id: init.session_id });
    // EOF ended the run: the server's stdin was closed.
    expect(readFileSync(log, "utf8")).toContain("stdin EOF");
  });

  test("--include-partial-messages adds the model's stream events; images and text blocks pass as given", async () => {
    server = startModelServer([reply(text("streamed"))]);
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const content = [
      { type: "text", text: "what is this?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
    ];
    const r = await runAgent([...HOST, "--include-partial-messages"], { cwd: tempDir(), model: server.url, stdin: `${user(content)}\n` });
    const events = parse(r.stdout);
    const kinds = events.filter((e) => e.type === "stream_event").map((e) => e.event.type);
    expect(kinds[0]).toBe("message_start");
    expect(kinds).toContain("content_block_delta");
    expect(kinds.at(-1)).toBe("message_stop");
    expect(server.requests[0]!.body.stream).toBe(true);
    expect(server.requests[0]!.body.messages[0].content.map((b: any) => b.type)).toEqual(["text", "image"]);
  });

  test("--permission-mode default without a host to ask: tools that need permission are denied, Read is not", async () => {
    const dir = tempDir();
    server = startModelServer([reply(toolUse("Bash", { command: "echo hi > out.txt" }), toolUse("Read", { file_path: "x.txt" })), reply(text("ok"))]);
    await Bun.write(join(dir, "x.txt"), "content of x");
    const r = await runAgent([...HOST, "--permission-mode", "default"], { cwd: dir, model: server.url, stdin: `${user("go")}\n` });
    const results = server.requests[1]!.body.messages.at(-1).content;
    expect(results[0]).toMatchObject({ is_error: true, content: "Permission to use Bash was not granted (--permission-mode default)." });
    expect(JSON.stringify(results[1].content)).toContain("content of x");
    expect(parse(r.stdout).at(-1).permission_denials).toHaveLength(1);
  });

  test("-p with --permission-mode acceptEdits: Write runs, Bash is refused unless --allowedTools names it", async () => {
    const dir = tempDir();
    const calls = () => [reply(toolUse("Write", { file_path: "a.txt", content: "A" }), toolUse("Bash", { command: "echo ran" })), reply(text("ok"))];
    server = startModelServer([...calls(), ...calls()]);
    await runAgent(["-p", "go", "--permission-mode", "acceptEdits"], { cwd: dir, model: server.url });
    const first = server.requests[1]!.body.messages.at(-1).content;
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A");
    expect(first[1]).toMatchObject({ is_error: true, content: "Permission to use Bash was not granted (--permission-mode acceptEdits)." });
    await runAgent(["-p", "go", "--permission-mode", "acceptEdits", "--allowedTools", "Bash"], { cwd: dir, model: server.url });
    expect(server.requests[3]!.body.messages.at(-1).content[1].content).toContain("ran");
  });

  test("the SDK's flags: unsupported ones accepted with one --verbose note; plan accepted; an unknown mode and unknown flags refused", async () => {
    server = startModelServer([reply(text("ok"))]);
    const sdkArgs = [...HOST, "--verbose", "--max-thinking-tokens=100", "--setting-sources", "user,project", "--include-hook-events", "--add-dir", "/tmp"];
    const r = await runAgent(sdkArgs, { cwd: tempDir(), model: server.url, stdin: `${user("hi")}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("note: accepted for the Agent SDK and ignored: --max-thinking-tokens --add-dir --include-hook-events");
    expect(parse(r.stdout).at(-1).result).toBe("ok");

    const plan = await runAgent([...HOST, "--permission-mode", "plan"], { cwd: tempDir(), model: server.url, stdin: "" });
    expect([plan.code, plan.stderr.trim()]).toEqual([0, ""]);
    const bad = await runAgent([...HOST, "--permission-mode", "auto"], { cwd: tempDir(), model: server.url, stdin: "" });
    expect([bad.code, bad.stderr.trim()]).toEqual([
      2,
      'error: --permission-mode must be default, acceptEdits, bypassPermissions, dontAsk or plan (got "auto")',
    ]);
    const unknown = await runAgent([...HOST, "--no-such-flag"], { cwd: tempDir(), model: server.url, stdin: "" });
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, "error: unknown option --no-such-flag (see --help)"]);
    const textIn = await runAgent(["--input-format", "stream-json", "-p"], { cwd: tempDir(), model: server.url, stdin: "" });
    expect([textIn.code, textIn.stderr.trim()]).toEqual([2, "error: --input-format stream-json needs --output-format stream-json"]);
  });

  test("a resumed host session continues the saved conversation and reports its session_id", async () => {
    const dir = tempDir();
    const config = tempDir("agent-config-");
    server = startModelServer([reply(text("first")), reply(text("second"))]);
    const env = { CLAUDE_CONFIG_DIR: config };
    const one = parse((await runAgent(HOST, { cwd: dir, model: server.url, env, stdin: `${user("a")}\n` })).stdout).at(-1);
    const two = parse((await runAgent([...HOST, "--resume", one.session_id], { cwd: dir, model: server.url, env, stdin: `${user("b")}\n` })).stdout).at(-1);
    expect(two.session_id).toBe(one.session_id);
    expect(server.requests[1]!.body.messages.filter(conversational).map((m: any) => m.content[0].text)).toEqual(["a", "first", "b"]);
  });
});
