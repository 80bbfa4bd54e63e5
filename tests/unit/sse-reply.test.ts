import { describe, expect, test } from "bun:test";
import { SseParser } from "../../lib/mcp/sse.ts";
import { readReplyStream, respondsTo } from "../../lib/mcp/transports/sse-reply.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const event = (message: object) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const response = event({ jsonrpc: "2.0", id: 1, result: { ok: true } });

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
  test("resolves at the response though the stream goes on; what follows it is still delivered, to the stream's end", async () => {
    const b = body();
    const delivered: string[] = [];
    let markSecond!: () => void;
    const second = new Promise<void>((resolve) => (markSecond = resolve));
    const deliver = (m: string) => {
      delivered.push(JSON.parse(m).method ?? `response ${JSON.parse(m).id}`);
      if (delivered.length === 3) markSecond();
    };
    b.write(event({ jsonrpc: "2.0", method: "notifications/progress", params: {} }) + response);
    expect(await readReplyStream(b.stream, new SseParser(), { deliver, requestId: 1 })).toBe(true);
    expect(delivered).toEqual(["notifications/progress", "response 1"]);
    b.write(event({ jsonrpc: "2.0", method: "notifications/message", params: {} }));
    await second;
    expect(delivered).toEqual(["notifications/progress", "response 1", "notifications/message"]);
    b.end();
  });

  test("a stream left open after the response is cancelled once drainMs has passed", async () => {
    const b = body();
    b.write(response);
    expect(await readReplyStream(b.stream, new SseParser(), { deliver: () => {}, requestId: 1, drainMs: 20 })).toBe(true);
    await b.cancelled; // never settles if the drain does not end the stream
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
});
