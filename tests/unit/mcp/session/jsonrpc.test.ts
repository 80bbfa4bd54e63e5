import { describe, expect, test } from "bun:test";
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from "../../../../lib/mcp/protocol/errors.ts";
import { readLines } from "../../../../lib/mcp/transports/wire/framing.ts";
import { JsonRpcConnection, type JsonRpcConnectionOptions } from "../../../../lib/mcp/session/jsonrpc.ts";
import { initializeRequest } from "../../../../lib/mcp/protocol/protocol.ts";

type Message = Record<string, any>;

/** The rejection reason; a promise that resolves instead fails the test. */
const failure = (promise: Promise<unknown>): Promise<any> =>
  promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error) => error,
  );

/** A connection wired to an in-memory peer: `send` feeds it lines, `sent` records what it wrote. */
function peer(options: Partial<JsonRpcConnectionOptions> = {}) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const sent: Message[] = [];
  const rawSent: string[] = [];
  const notes: string[] = [];
  const waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  const conn = new JsonRpcConnection(readLines(stream), {
    peer: 'MCP server "t"',
    write: (line) => {
      rawSent.push(line);
      const message = JSON.parse(line);
      sent.push(message);
      for (const w of waiters.splice(0))
        if (w.match(message)) w.resolve(message);
        else waiters.push(w);
    },
    log: (note) => notes.push(note),
    ...options,
  });
  return {
    conn,
    sent,
    rawSent,
    notes,
    send: (message: unknown) => controller.enqueue(new TextEncoder().encode(`${JSON.stringify(message)}\n`)),
    raw: (bytes: string | Uint8Array) => controller.enqueue(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes),
    end: () => controller.close(),
    /** Resolves with the first message written (already or later) that matches. */
    nextSent: (match: (m: Message) => boolean) =>
      new Promise<Message>((resolve) => {
        const found = sent.find(match);
        if (found) resolve(found);
        else waiters.push({ match, resolve });
      }),
  };
}

describe("requests and responses", () => {
  test("ids increase and each response settles its own request, whatever the order", async () => {
    const p = peer();
    const first = p.conn.request("tools/list");
    const second = p.conn.request("prompts/list", { cursor: "c" });
    expect(p.sent.map((m) => [m.id, m.method])).toEqual([
      [1, "tools/list"],
      [2, "prompts/list"],
    ]);
    expect(p.sent[1]!.params).toEqual({ cursor: "c" });
    p.send({ jsonrpc: "2.0", id: 2, result: { which: "second" } });
    p.send({ jsonrpc: "2.0", id: 1, result: { which: "first" } });
    expect(await first).toEqual({ which: "first" });
    expect(await second).toEqual({ which: "second" });
  });

  test("requestFrame sends the caller's frame byte for byte", async () => {
    const p = peer();
    const pending = p.conn.requestFrame((id) => initializeRequest(id, { roots: {} }));
    expect(p.rawSent[0]).toBe(JSON.stringify(initializeRequest(1, { roots: {} })));
    p.send({ jsonrpc: "2.0", id: 1, result: {} });
    await pending;
  });

  test("an error response rejects with McpError carrying code, message and data", async () => {
    const p = peer();
    const pending = p.conn.request("tools/call");
    p.send({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "boom", data: { why: 1 } } });
    const error = await failure(pending);
    expect(error).toBeInstanceOf(McpError);
    expect([error.code, error.rpcMessage, error.data]).toEqual([-32000, "boom", { why: 1 }]);
    expect(error.message).toBe("MCP error -32000: boom");
  });

  test("a timeout rejects, sends notifications/cancelled, and a late response is skipped", async () => {
    const p = peer();
    const error = await failure(p.conn.request("tools/call", { name: "slow" }, { timeoutMs: 20 }));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toBe('MCP server "t": tools/call timed out after 20 ms');
    expect(p.sent[1]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "timed out after 20 ms" },
    });
    p.send({ jsonrpc: "2.0", id: 1, result: { late: true } });
    const ping = p.nextSent((m) => m.id === "after");
    p.send({ jsonrpc: "2.0", id: "after", method: "ping" });
    await ping;
    expect(p.notes.some((n) => n.includes("unknown request id 1"))).toBe(true);
  });

  test("initialize is never cancelled: a timeout with cancellable false sends nothing", async () => {
    const p = peer();
    expect(await failure(p.conn.requestFrame((id) => initializeRequest(id, {}), { timeoutMs: 10, cancellable: false }))).toBeInstanceOf(RequestTimeoutError);
    expect(p.sent.map((m) => m.method)).toEqual(["initialize"]);
  });

  test("aborting the signal rejects with RequestCancelledError and cancels on the wire", async () => {
    const p = peer();
    const abort = new AbortController();
    const pending = p.conn.request("tools/call", {}, { signal: abort.signal });
    abort.abort();
    expect(await failure(pending)).toBeInstanceOf(RequestCancelledError);
    expect(p.sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 1 } });
  });

  test("progress notifications reach the request whose progressToken they carry", async () => {
    const p = peer();
    const seen: number[] = [];
    const pending = p.conn.request("tools/call", { name: "x" }, { onProgress: (pr) => seen.push(pr.progress) });
    expect(p.sent[0]!.params).toEqual({ name: "x", _meta: { progressToken: 1 } });
    p.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1, total: 2 } });
    p.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 2, total: 2 } });
    p.send({ jsonrpc: "2.0", id: 1, result: {} });
    await pending;
    expect(seen).toEqual([1, 2]);
  });

  test("end of input rejects every pending request at once, naming the server", async () => {
    const p = peer();
    const pending = [p.conn.request("a"), p.conn.request("b")].map(failure);
    p.end();
    const errors = await Promise.all(pending);
    for (const e of errors) expect(e).toBeInstanceOf(ConnectionClosedError);
    expect(errors[0].message).toContain('MCP server "t"');
    expect(errors[0]).toBe(errors[1]);
    expect(await failure(p.conn.request("c"))).toBe(errors[0]);
  });

  test("a writer that throws rejects the request instead of throwing", async () => {
    const p = peer({
      write: () => {
        throw new Error("EPIPE");
      },
    });
    const error = await failure(p.conn.request("tools/list"));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toContain("EPIPE");
  });
});

describe("incoming messages", () => {
  test("ping is answered with {} and the same id, without a handler", async () => {
    const p = peer();
    p.send({ jsonrpc: "2.0", id: "p-1", method: "ping" });
    expect(await p.nextSent((m) => m.id === "p-1")).toEqual({ jsonrpc: "2.0", id: "p-1", result: {} });
  });

  test("requests: unhandled → -32601, thrown Error → -32603, McpError keeps its code", async () => {
    const bare = peer();
    bare.send({ jsonrpc: "2.0", id: 5, method: "elicitation/create", params: {} });
    expect((await bare.nextSent((m) => m.id === 5)).error).toEqual({ code: -32601, message: "Method not found: elicitation/create" });

    const p = peer({
      onRequest: async (method) => {
        if (method === "roots/list") return { roots: [] };
        if (method === "custom") throw new McpError(-32602, "bad params");
        throw new Error("handler broke");
      },
    });
    p.send({ jsonrpc: "2.0", id: 1, method: "roots/list" });
    p.send({ jsonrpc: "2.0", id: 2, method: "custom" });
    p.send({ jsonrpc: "2.0", id: 3, method: "other" });
    expect(await p.nextSent((m) => m.id === 1)).toEqual({ jsonrpc: "2.0", id: 1, result: { roots: [] } });
    expect((await p.nextSent((m) => m.id === 2)).error).toEqual({ code: -32602, message: "bad params" });
    expect((await p.nextSent((m) => m.id === 3)).error).toEqual({ code: -32603, message: "handler broke" });
  });

  test("notifications/cancelled from the peer aborts our handler, which then sends no response", async () => {
    let aborted!: () => void;
    const wasAborted = new Promise<void>((resolve) => (aborted = resolve));
    const p = peer({
      onRequest: (_method, _params, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => (aborted(), resolve({ late: true })))),
    });
    p.send({ jsonrpc: "2.0", id: 9, method: "sampling/createMessage", params: {} });
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, reason: "user" } });
    await wasAborted;
    p.send({ jsonrpc: "2.0", id: "fence", method: "ping" });
    await p.nextSent((m) => m.id === "fence");
    expect(p.sent.filter((m) => m.id === 9)).toEqual([]);
  });

  test("notifications go to onNotification, in order, and never get a response", async () => {
    const got: [string, unknown][] = [];
    const p = peer({ onNotification: (method, params) => got.push([method, params]) });
    p.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    p.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } });
    p.send({ jsonrpc: "2.0", id: "fence", method: "ping" });
    await p.nextSent((m) => m.id === "fence");
    expect(got).toEqual([
      ["notifications/tools/list_changed", undefined],
      ["notifications/message", { level: "info", data: "hi" }],
    ]);
    expect(p.sent).toHaveLength(1);
  });

  test("garbage lines are skipped with a note and counted; the connection keeps working", async () => {
    const p = peer();
    const pending = p.conn.request("tools/list");
    p.raw("Server started on stdio\n");
    p.raw(new Uint8Array([0xff, 0xfe, 0x0a]));
    p.raw('{"not":"jsonrpc"}\n[]\n{"jsonrpc":"2.0","id":{"x":1},"method":"m"}\n');
    p.send({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    expect(await pending).toEqual({ tools: [] });
    expect(p.conn.stats.skipped).toBe(5);
    expect(p.notes[0]).toBe('MCP server "t": skipped a line (line is not JSON): Server started on stdio');
    expect(p.notes.some((n) => n.includes("not valid UTF-8"))).toBe(true);
  });
});

describe("McpError's line", () => {
  test("states the code once, in front, even when the server's message already did", () => {
    expect(new McpError(-32602, "MCP error -32602: Resource demo://nope not found").message).toBe("MCP error -32602: Resource demo://nope not found");
    expect(new McpError(-32602, "Resource demo://nope not found").message).toBe("MCP error -32602: Resource demo://nope not found");
    expect(new McpError(-32603, "MCP error -32602: inner").message).toBe("MCP error -32603: MCP error -32602: inner");
  });
});
