/**
 * Each fixture-server flag, over real pipes: the flag produces its one misbehaviour and the
 * server otherwise stays usable.
 */
import { describe, expect, test } from "bun:test";
import { call, start } from "../support/peers.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LONG_TOOL_NAME } from "../../fixtures/servers/fixture-catalog.ts";
import type { Peer, Received } from "../../fixtures/servers/peer.ts";
import { isAlive, tempDir } from "../support/run.ts";

const isJson = (r: Received) => r.json !== undefined;
const toolNames = async (peer: Peer) => (await peer.request("tools/list")).result.tools.map((t: any) => t.name);

describe("capabilities and handshake", () => {
  test("--no-prompts --no-resources --no-tools-capability-listchanged", async () => {
    const peer = start("--no-prompts", "--no-resources", "--no-tools-capability-listchanged");
    const caps = (await peer.handshake()).result.capabilities;
    expect(caps.tools).toEqual({});
    expect(caps.prompts).toBeUndefined();
    expect(caps.resources).toBeUndefined();
    expect((await peer.request("prompts/list")).error.code).toBe(-32601);
    expect((await peer.request("resources/list")).error.code).toBe(-32601);
  });

  test("--init-error answers initialize with a JSON-RPC error", async () => {
    const init = await start("--init-error").handshake();
    expect(init.error.message).toContain("init error");
  });

  test("--protocol-version answers with the given version", async () => {
    expect((await start("--protocol-version", "1999-01-01").handshake()).result.protocolVersion).toBe("1999-01-01");
  });

  test("--init-delay holds initialize back while ping is answered", async () => {
    const peer = start("--init-delay", "300");
    const init = peer.handshake();
    await peer.request("ping");
    expect(peer.received.some((r) => r.json?.result?.protocolVersion)).toBe(false);
    expect((await init).result.protocolVersion).toBe("2025-11-25");
  });

  test("--exit-immediately exits 1 with a stderr line and no stdout", async () => {
    const peer = start("--exit-immediately");
    expect(await peer.exited).toBe(1);
    expect(peer.stderr).toContain("exit");
    expect(peer.chunks).toHaveLength(0);
  });

  test("--stderr-lines N prints N lines on stderr", async () => {
    const peer = start("--stderr-lines", "3");
    await peer.waitForStderr("stderr line 3 of 3");
    expect(peer.stderr.match(/stderr line \d of 3/g)).toHaveLength(3);
  });
});

describe("output misbehaviours", () => {
  test("--garbage answers every line with non-JSON only", async () => {
    const peer = start("--garbage");
    peer.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    peer.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await peer.waitFor(() => true, 1); // a second line, whatever it is
    expect(peer.received.filter(isJson)).toHaveLength(0);
  });

  test("--banner and --invalid-utf8 put unparseable lines before each response", async () => {
    const peer = start("--banner", "--invalid-utf8");
    await peer.handshake();
    await peer.request("ping");
    const kinds = peer.received.map((r) => (isJson(r) ? "json" : new TextDecoder().decode(r.bytes).startsWith("[fixture] banner") ? "banner" : "bad"));
    expect(kinds).toEqual(["banner", "banner", "bad", "json", "banner", "bad", "json"]);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(peer.received[2]!.bytes)).toThrow();
  });

  test("--crlf ends every line with \\r\\n", async () => {
    const peer = start("--crlf");
    await peer.handshake();
    await peer.request("ping");
    expect(peer.received.length).toBeGreaterThan(0);
    for (const r of peer.received) expect(r.bytes.at(-1)).toBe(0x0d);
  });

  test("--split-writes still delivers whole messages, and echo carries multi-byte characters", async () => {
    const peer = start("--split-writes");
    await peer.handshake();
    expect((await call(peer, "echo", { text: "hi" })).result.content[0].text).toBe("hi é😀");
  });

  test("--coalesce writes a notification and the response in one write", async () => {
    const peer = start("--coalesce");
    await peer.handshake();
    await peer.request("ping");
    const text = peer.chunks.map((c) => new TextDecoder().decode(c));
    expect(text.some((t) => t.includes('"notifications/message"') && t.includes('"id":2'))).toBe(true);
  });

  test("--unknown-id sends a response with a never-used id before each real one", async () => {
    const peer = start("--unknown-id");
    await peer.handshake();
    await peer.request("ping");
    const ids = peer.received.map((r) => r.json.id);
    expect(ids).toEqual(["fixture-unknown-1", 1, "fixture-unknown-2", 2]);
  });
});

describe("server-initiated traffic", () => {
  test("--server-requests-first pings the client and logs before answering tools/call", async () => {
    const peer = start("--server-requests-first");
    await peer.handshake();
    const answer = call(peer, "echo", { text: "x" });
    const ping = (await peer.waitFor((r) => r.json?.method === "ping")).json;
    await peer.waitFor((r) => r.json?.method === "notifications/message");
    expect(peer.received.some((r) => r.json?.id === 2)).toBe(false);
    peer.send({ jsonrpc: "2.0", id: ping.id, result: {} });
    expect((await answer).result.content[0].text).toBe("x");
  });

  test("--list-changed adds late_tool and notifies after initialized", async () => {
    const peer = start("--list-changed");
    await peer.handshake();
    await peer.waitFor((r) => r.json?.method === "notifications/tools/list_changed");
    expect(await toolNames(peer)).toContain("late_tool");
    expect((await call(peer, "late_tool")).result.content[0].text).toBe("late tool ran");
  });
});

describe("lists", () => {
  test("--paginate N pages every list with nextCursor", async () => {
    const peer = start("--paginate", "4");
    await peer.handshake();
    const sizes: number[] = [];
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const res = (await peer.request("tools/list", cursor ? { cursor } : {})).result;
      sizes.push(res.tools.length);
      names.push(...res.tools.map((t: any) => t.name));
      cursor = res.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([4, 4, 4, 2]);
    expect(new Set(names).size).toBe(14);
    expect((await peer.request("prompts/list")).result.nextCursor).toBeUndefined();
    expect((await peer.request("tools/list", { cursor: "bogus" })).error.code).toBe(-32602);
  });

  test("--repeat-cursor returns the same nextCursor forever", async () => {
    const peer = start("--repeat-cursor");
    await peer.handshake();
    const first = (await peer.request("tools/list")).result.nextCursor;
    const second = (await peer.request("tools/list", { cursor: first })).result.nextCursor;
    expect(first).toBeString();
    expect(second).toBe(first);
  });

  test("--weird-names and --bad-schemas add their tools", async () => {
    const peer = start("--weird-names", "--bad-schemas");
    await peer.handshake();
    const tools = (await peer.request("tools/list")).result.tools;
    const byName = new Map(tools.map((t: any) => [t.name, t]));
    expect(LONG_TOOL_NAME).toHaveLength(100);
    for (const n of ["dotted.name", "has space", LONG_TOOL_NAME]) expect(byName.has(n)).toBe(true);
    expect((byName.get("no_schema") as any).inputSchema).toBeUndefined();
    expect((byName.get("string_schema") as any).inputSchema).toEqual({ type: "string" });
    expect((byName.get("anyof_schema") as any).inputSchema.anyOf).toHaveLength(2);
    expect((await call(peer, "dotted.name")).result.content[0].text).toBe("ran dotted.name");
  });
});

describe("--elicitation-tools", () => {
  const textOf = (res: any) => res.result.content[0].text;

  test("elicit sends a form (its default has every kind, each with a default) and returns the answer", async () => {
    const peer = start("--elicitation-tools");
    await peer.handshake();
    expect(await toolNames(peer)).toEqual(expect.arrayContaining(["elicit", "elicit_url", "url_required"]));
    const pending = call(peer, "elicit");
    const req = (await peer.waitFor((r) => r.json?.method === "elicitation/create")).json;
    expect(req.params.mode).toBe("form");
    expect(Object.values(req.params.requestedSchema.properties).every((p: any) => "default" in p)).toBe(true);
    expect(new Set(Object.values(req.params.requestedSchema.properties).map((p: any) => p.type))).toEqual(
      new Set(["string", "integer", "number", "boolean", "array"]),
    );
    peer.send({ jsonrpc: "2.0", id: req.id, result: { action: "accept", content: { name: "Bo" } } });
    expect(JSON.parse(textOf(await pending))).toEqual({ action: "accept", content: { name: "Bo" } });

    const schema = { type: "object", properties: { code: { type: "string" } }, required: ["code"] };
    const given = call(peer, "elicit", { schema, message: "Your code?" });
    const req2 = (await peer.waitFor((r) => r.json?.method === "elicitation/create" && r.json.id !== req.id)).json;
    expect(req2.params).toEqual({ mode: "form", message: "Your code?", requestedSchema: schema });
    peer.send({ jsonrpc: "2.0", id: req2.id, error: { code: -32601, message: "Method not found" } });
    expect((await given).result).toEqual({ content: [{ type: "text", text: "elicitation/create failed: -32601 Method not found" }], isError: true });
  });

  test("elicit_url sends a URL-mode request, then elicitation/complete after an accept; url_required fails with -32042", async () => {
    const peer = start("--elicitation-tools");
    await peer.handshake();
    const pending = call(peer, "elicit_url");
    const req = (await peer.waitFor((r) => r.json?.method === "elicitation/create")).json;
    expect(req.params).toMatchObject({ mode: "url", url: "https://example.com/fixture/connect", elicitationId: expect.any(String) });
    peer.send({ jsonrpc: "2.0", id: req.id, result: { action: "accept" } });
    const complete = (await peer.waitFor((r) => r.json?.method === "notifications/elicitation/complete")).json;
    expect(complete.params).toEqual({ elicitationId: req.params.elicitationId });
    expect(JSON.parse(textOf(await pending))).toEqual({ action: "accept" });
    const failed = (await call(peer, "url_required")).error;
    expect(failed.code).toBe(-32042);
    expect(failed.data.elicitations).toEqual([expect.objectContaining({ mode: "url", url: "https://example.com/fixture/connect" })]);
  });
});

describe("tool-call misbehaviours", () => {
  test("--never-answer-tools reads tools/call and stays silent", async () => {
    const peer = start("--never-answer-tools");
    await peer.handshake();
    peer.send({ jsonrpc: "2.0", id: "never", method: "tools/call", params: { name: "echo", arguments: { text: "x" } } });
    await peer.waitForStderr("will never be answered");
    await peer.request("ping");
    expect(peer.received.some((r) => r.json?.id === "never")).toBe(false);
  });

  test("--crash-after N exits 1 after answering N calls", async () => {
    const peer = start("--crash-after", "2");
    await peer.handshake();
    await call(peer, "add", { a: 1, b: 1 });
    await call(peer, "add", { a: 1, b: 2 });
    expect(await peer.exited).toBe(1);
  });
});

describe("process behaviour", () => {
  test("--ignore-stdin-eof keeps running after stdin closes", async () => {
    const peer = start("--ignore-stdin-eof");
    await peer.handshake();
    void peer.proc.stdin.end();
    await peer.waitForStderr("staying alive");
    peer.proc.kill("SIGTERM");
    await peer.exited;
    expect(peer.proc.signalCode).toBe("SIGTERM");
  });

  test("--ignore-sigterm survives SIGTERM", async () => {
    const peer = start("--ignore-sigterm");
    await peer.handshake();
    peer.proc.kill("SIGTERM");
    await peer.waitForStderr("SIGTERM received");
    expect((await peer.request("ping")).result).toEqual({});
  });

  test("--grandchild --pid-file: a sleeping grandchild in the server's process group", async () => {
    const pidFile = join(tempDir(), "pids");
    const peer = start("--grandchild", "--pid-file", pidFile);
    await peer.handshake();
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    expect(pids[0]).toBe(peer.proc.pid);
    expect(isAlive(pids[1]!)).toBe(true);
    const pgid = Bun.spawnSync(["ps", "-o", "pgid=", "-p", String(pids[1])])
      .stdout.toString()
      .trim();
    expect(Number(pgid)).toBe(peer.proc.pid);
  });

  test("--log-file records every line received", async () => {
    const logFile = join(tempDir(), "log");
    const peer = start("--log-file", logFile);
    await peer.handshake();
    await peer.request("ping");
    const methods = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).method);
    expect(methods).toEqual(["initialize", "notifications/initialized", "ping"]);
  });
});
