/**
 * McpClient against the real fixture server over real pipes: handshake, pagination, calls,
 * server requests, start-up failures and the shutdown sequence.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { McpClient, type McpClientOptions } from "../../lib/mcp/session/client.ts";
import { type ClientFeatures, workingDirectoryRoots } from "../../lib/mcp/session/features.ts";
import { StdioTransport } from "../../lib/mcp/transports/stdio.ts";
import { ConnectionClosedError, McpError, RequestTimeoutError } from "../../lib/mcp/protocol/errors.ts";
import { initializeRequest } from "../../lib/mcp/protocol/protocol.ts";
import { BUN, FIXTURE_SERVER, isAlive, tempDir } from "../support/run.ts";
import { gone, received } from "../support/mcp.ts";
import { until } from "../support/wait.ts";

/** Everything a test started, closed even when the test fails half-way. */
const open: { close(graceMs?: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close(100)));
});

/** Client options, plus the working directory (the server's cwd and our one root) and a sampling handler. */
type Options = Partial<McpClientOptions> & { cwd?: string; sampling?: ClientFeatures["sampling"] };

function spawn(flags: string[], { cwd = tempDir(), sampling, ...opts }: Options = {}): McpClient {
  const transport = StdioTransport.spawn({ name: "fx", command: BUN, args: [FIXTURE_SERVER, ...flags], env: {} }, { cwd });
  const client = new McpClient("fx", transport, { features: { roots: workingDirectoryRoots(cwd), sampling }, ...opts });
  open.push(client);
  return client;
}

async function connected(flags: string[], opts: Options = {}): Promise<McpClient> {
  const client = spawn(flags, opts);
  await client.connect({ timeoutMs: 10_000 });
  return client;
}

describe("handshake", () => {
  test("without a sampling handler the sampling capability is not declared", async () => {
    const logFile = join(tempDir(), "stdin.log");
    await connected(["--log-file", logFile]);
    expect(received(logFile)[0]!.params.capabilities).toEqual({ roots: {} });
  });

  test("sends the exact initialize frame, then notifications/initialized, and keeps what the server declared", async () => {
    const logFile = join(tempDir(), "stdin.log");
    const client = await connected(["--log-file", logFile], { sampling: async () => ({}) });
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo?.name).toBe("fixture");
    expect(Object.keys(client.capabilities)).toEqual(expect.arrayContaining(["tools", "prompts", "resources"]));
    await client.listTools();
    const lines = readFileSync(logFile, "utf8").split("\n");
    expect(lines[0]).toBe(JSON.stringify(initializeRequest(1, { roots: {}, sampling: {} })));
    expect(lines[0]).toBe(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{},"sampling":{}},"clientInfo":{"name":"claude-code","version":"1.0.0"}}}',
    );
    expect(JSON.parse(lines[1]!)).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(client.connected).toBe(true);
  });

  test("an older protocolVersion we speak is accepted; an unknown one is refused clearly", async () => {
    expect((await connected(["--protocol-version", "2024-11-05"])).protocolVersion).toBe("2024-11-05");
    const error = await spawn(["--protocol-version", "1999-01-01"])
      .connect({ timeoutMs: 10_000 })
      .catch((e) => e);
    expect(error.message).toStartWith('answered initialize with unsupported protocolVersion "1999-01-01"');
  });

  test("a hostile stdout (banner, invalid UTF-8, CRLF, split and coalesced writes, unknown ids) still works", async () => {
    const notes: string[] = [];
    const flags = ["--banner", "--invalid-utf8", "--crlf", "--split-writes", "--coalesce", "--unknown-id"];
    const client = await connected(flags, { log: (n) => notes.push(n) });
    const result = await client.callTool("echo", { text: "hi" });
    expect(result.content).toEqual([{ type: "text", text: "hi é😀" }]);
    expect(notes.some((n) => n.includes("not JSON"))).toBe(true);
    expect(notes.some((n) => n.includes("unknown request id"))).toBe(true);
  });
});

describe("lists", () => {
  test("resources are keyed by uri: two that share a name are both listed", async () => {
    const client = await connected(["--same-name-resources"]);
    const uris = (await client.listResources()).map((r) => r.uri);
    expect(uris).toEqual(["fixture://hello", "fixture://blob", "fixture://image", "fixture://hello/copy"]);
  });

  test("pagination follows nextCursor to the end and yields the same list as one page", async () => {
    const logFile = join(tempDir(), "stdin.log");
    const whole = await (await connected([])).listTools();
    const paged = await (await connected(["--paginate", "2", "--log-file", logFile])).listTools();
    expect(paged.map((t) => t.name)).toEqual(whole.map((t) => t.name));
    const requests = received(logFile).filter((m) => m.method === "tools/list");
    expect(requests.length).toBe(Math.ceil(whole.length / 2));
    expect(requests[0]!.params?.cursor).toBeUndefined();
    expect(typeof requests[1]!.params.cursor).toBe("string");
  });

  test("a repeated cursor stops the listing with a warning instead of looping", async () => {
    const warnings: string[] = [];
    const client = await connected(["--paginate", "2", "--repeat-cursor"], { warn: (w) => warnings.push(w) });
    const tools = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("tools/list stopped after 2 pages (repeated cursor");
  });

  test("resource templates: every page of resources/templates/list, completion/complete of a variable, a read of an expansion", async () => {
    const logFile = join(tempDir(), "stdin.log");
    const client = await connected(["--resource-templates", "--paginate", "1", "--log-file", logFile]);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["fixture://notes/{name}", "fixture://users/{id}/profile"]);
    expect(received(logFile).filter((m) => m.method === "resources/templates/list")).toHaveLength(2);
    expect(client.capabilities.completions).toEqual({});
    const answer = await client.complete({ ref: { type: "ref/resource", uri: "fixture://notes/{name}" }, argument: { name: "name", value: "al" } });
    expect(answer.completion.values).toEqual(["alpha", "alpine"]);
    const sent = received(logFile).find((m) => m.method === "completion/complete");
    expect(sent?.params).toEqual({ ref: { type: "ref/resource", uri: "fixture://notes/{name}" }, argument: { name: "name", value: "al" } });
    expect((await client.readResource("fixture://notes/alpha")).contents[0]?.text).toBe("note alpha");
  });

  test("prompts and resources list and fetch", async () => {
    const client = await connected([]);
    expect((await client.listPrompts()).map((p) => p.name)).toContain("greet");
    expect((await client.listResources()).map((r) => r.uri)).toContain("fixture://hello");
    const prompt = await client.getPrompt("greet", { name: "Ada" });
    expect(JSON.stringify(prompt.messages)).toContain("Ada");
    const resource = await client.readResource("fixture://hello");
    expect(resource.contents[0]?.text).toBe("hello from fixture");
  });
});

describe("calls", () => {
  test("results, isError results and JSON-RPC errors come back distinctly", async () => {
    const client = await connected([]);
    expect(await client.callTool("add", { a: 2, b: 3 })).toMatchObject({ content: [{ type: "text", text: "5" }] });
    expect(await client.callTool("fail", {})).toMatchObject({ isError: true });
    const error = await client.callTool("rpc_error", {}).catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect([error.code, error.rpcMessage, error.message]).toEqual([-32000, "fixture rpc error", "MCP error -32000: fixture rpc error"]);
  });

  test("a call that times out is cancelled on the wire and the session stays usable", async () => {
    const logFile = join(tempDir(), "stdin.log");
    const client = await connected(["--log-file", logFile]);
    const error = await client.callTool("slow", { ms: 60_000 }, { timeoutMs: 50 }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toContain("timed out after 50 ms");
    await client.callTool("echo", { text: "still here" });
    const call = received(logFile).find((m) => m.method === "tools/call");
    const cancel = received(logFile).find((m) => m.method === "notifications/cancelled");
    expect(cancel?.params).toEqual({ requestId: call!.id, reason: "timed out after 50 ms" });
  });

  test("the server's requests are answered: ping, roots/list with the cwd, sampling via the handler", async () => {
    const cwd = tempDir("with space-");
    const logs: string[] = [];
    const client = await connected(["--server-requests-first"], {
      cwd,
      log: (l) => logs.push(l),
      sampling: async (params: any) => ({ role: "assistant", content: { type: "text", text: `echo:${params.messages[0].content.text}` }, model: "m" }),
    });
    const roots = await client.callTool("roots", {});
    expect(JSON.stringify(roots)).toContain(JSON.stringify(pathToFileURL(cwd).href).slice(1, -1));
    const sample = await client.callTool("sample", { prompt: "hello" });
    expect(JSON.stringify(sample.content)).toContain("echo:hello");
    expect(logs.some((l) => l.startsWith("[fx] "))).toBe(true);
  });

  test("sampling without a handler is refused, and the server sees an error", async () => {
    const client = await connected([]);
    const result = await client.callTool("sample", { prompt: "hello" });
    expect(JSON.stringify(result)).toContain("sampling is disabled");
  });

  test("list_changed marks the list dirty", async () => {
    let changed!: (kind: string) => void;
    const announced = new Promise<string>((resolve) => (changed = resolve));
    const client = await connected(["--list-changed"], { onListChanged: (kind) => changed(kind) });
    expect(await announced).toBe("tools");
    expect([...client.dirty]).toEqual(["tools"]);
    expect((await client.listTools()).map((t) => t.name)).toContain("late_tool");
  });

  test("a server crashing mid-call rejects the call with ConnectionClosedError", async () => {
    const client = await connected([]);
    const error = await client.callTool("crash", {}).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(client.connected).toBe(false);
  });
});

describe("start-up failures produce the reason", () => {
  const reason = (flags: string[], timeoutMs = 10_000) =>
    spawn(flags)
      .connect({ timeoutMs })
      .then(
        () => "connected",
        (e: Error) => e.message,
      );

  test("command not found", () => {
    expect(() => StdioTransport.spawn({ name: "x", command: "no-such-command-4242", args: [], env: {} }, { cwd: tempDir() })).toThrow(
      "command not found: no-such-command-4242",
    );
  });

  test("exits before the handshake, with its stderr kept", async () => {
    const client = spawn(["--exit-immediately"]);
    const error = await client.connect({ timeoutMs: 10_000 }).catch((e) => e);
    expect(error.message).toBe("exited with code 1 before the handshake");
    expect(await client.transport.closed).toEqual({ reason: "exited with code 1", byUs: false });
    await client.close(100);
    expect(client.diagnostics().stderrTail?.join("\n")).toContain("exiting before reading anything");
    expect(client.diagnostics().pid).toBeGreaterThan(0);
  });

  test("answers initialize with an error", async () => {
    expect(await reason(["--init-error"])).toBe("initialize failed: MCP error -32603: fixture init error (--init-error)");
  });

  test("prints only garbage: times out and says so", async () => {
    // The garbage is in the pipe before the handshake starts, so the short timeout cannot beat it however slowly the server starts.
    const ready = join(tempDir(), "ready");
    const script = `echo '~~ garbage: this is not JSON {{{'; : > ${ready}; exec sleep 1000`;
    const transport = StdioTransport.spawn({ name: "fx", command: "sh", args: ["-c", script], env: {} }, { cwd: tempDir() });
    const client = new McpClient("fx", transport, { features: { roots: () => [] } });
    open.push(client);
    await until(() => existsSync(ready), "the server to print its garbage");
    const error = await client.connect({ timeoutMs: 300 }).catch((e: Error) => e.message);
    expect(error).toBe("no answer to initialize within 300 ms; its output had 1 line(s) that are not JSON-RPC, the last: ~~ garbage: this is not JSON {{{");
  });

  test("too slow: times out", async () => {
    expect(await reason(["--init-delay", "5000"], 100)).toBe("no answer to initialize within 100 ms");
  });
});

describe("shutdown", () => {
  async function pidsAfterClose(flags: string[]): Promise<number[]> {
    const pidFile = join(tempDir(), "pids");
    const client = await connected([...flags, "--pid-file", pidFile]);
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    expect(pids.every(isAlive)).toBe(true);
    await client.close(100);
    return pids;
  }

  test("a well-behaved server exits on stdin EOF", async () => {
    for (const pid of await pidsAfterClose([])) expect(await gone(pid)).toBe(true);
  });

  test("a grandchild holding the pipes dies with the process group", async () => {
    const pids = await pidsAfterClose(["--grandchild"]);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await gone(pid)).toBe(true);
  });

  test("a server ignoring stdin EOF and SIGTERM is killed", async () => {
    for (const pid of await pidsAfterClose(["--ignore-stdin-eof", "--ignore-sigterm"])) expect(await gone(pid)).toBe(true);
  });

  test("writing to a server that closed its stdin neither throws nor leaks an EPIPE rejection", async () => {
    const transport = StdioTransport.spawn({ name: "deaf", command: "sh", args: ["-c", "exec 0<&-; exec sleep 1000"], env: {} }, { cwd: tempDir() });
    open.push(transport);
    const line = "x".repeat(1 << 20);
    for (let i = 0; i < 4; i++) await transport.send(line);
    await transport.close(100);
    expect(transport.exit?.signal).toBe("SIGTERM");
    expect(await transport.closed).toEqual({ reason: "exited with signal SIGTERM", byUs: true });
    await expect(transport.send("late")).rejects.toThrow('MCP server "deaf" is not running');
  });
});
