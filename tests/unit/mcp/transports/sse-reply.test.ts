import { describe, expect, test } from "bun:test";
import { SseParser } from "../../../../lib/mcp/transports/wire/sse.ts";
import { readReplyStream, respondsTo } from "../../../../lib/mcp/transports/sse-reply.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const event = (message: object) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/** A body the test writes to by hand; `cancelled` resolves when the reader cancels it. */
function body() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let markCancelled!: () => void;
  const cancelled = new Promise<void>((resolve) => (markCancelled = resolve));
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => markCancelled(),
  });
  return { stream, write: (text: string) => controller.enqueue(encode(text)), end: () => controller.close(), cancelled };
}

describe("readReplyStream (a POST's SSE reply)", () => {
  test("delivers what comes before the response, resolves true at the response and cancels the rest", async () => {
    const b = body();
    const delivered: string[] = [];
    b.write(event({ jsonrpc: "2.0", method: "notifications/progress", params: {} }) + event({ jsonrpc: "2.0", id: 1, result: { ok: true } }));
    const answered = await readReplyStream(b.stream, new SseParser(), { deliver: (m) => delivered.push(JSON.parse(m).method ?? "response"), requestId: 1 });
    expect({ answered, delivered }).toEqual({ answered: true, delivered: ["notifications/progress", "response"] });
    await b.cancelled; // never settles if the stream is left open
  });

  test("a stream that ends first resolves false; one that breaks first rejects", async () => {
    const ended = body();
    ended.write(event({ jsonrpc: "2.0", id: 2, result: {} }));
    ended.end();
    expect(await readReplyStream(ended.stream, new SseParser(), { deliver: () => {}, requestId: 1 })).toBe(false);
    const broken = new ReadableStream<Uint8Array>({
      pull: (c) => c.error(new Error("connection reset")),
    });
    await expect(readReplyStream(broken, new SseParser(), { deliver: () => {}, requestId: 1 })).rejects.toThrow("connection reset");
  });

  test("an abort before the response ends the read with false and cancels the stream", async () => {
    const b = body();
    const stop = new AbortController();
    const reading = readReplyStream(b.stream, new SseParser(), { deliver: () => {}, requestId: 1, signal: stop.signal });
    stop.abort();
    expect(await reading).toBe(false);
    await b.cancelled;
  });
});

describe("respondsTo", () => {
  test("a result or error with the request's id, not a request or another id", () => {
    expect(respondsTo('{"jsonrpc":"2.0","id":1,"result":{}}', 1)).toBe(true);
    expect(respondsTo('{"result":{},"jsonrpc":"2.0","id":"a"}', "a")).toBe(true);
    expect(respondsTo('{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}', 1)).toBe(true);
    expect(respondsTo('{"jsonrpc":"2.0","id":1,"method":"ping"}', 1)).toBe(false);
    expect(respondsTo('{"jsonrpc":"2.0","id":2,"result":{}}', 1)).toBe(false);
    expect(respondsTo("not json", 1)).toBe(false);
  });

  test("over 1 MiB an event is not parsed again: the response unless it starts like a request", () => {
    const big = "x".repeat(1 << 21);
    expect(respondsTo(`{"jsonrpc":"2.0","id":1,"result":{"text":"${big}"}}`, 1)).toBe(true);
    expect(respondsTo(`{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"text":"${big}"}}`, 1)).toBe(false);
  });
});
