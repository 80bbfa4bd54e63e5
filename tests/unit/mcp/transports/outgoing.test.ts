import { describe, expect, test } from "bun:test";
import { classify, type Outgoing } from "../../../../lib/mcp/transports/outgoing.ts";
import { prng } from "../../../support/prng.ts";

/** The rule itself, read off the whole parsed message (JSON-RPC 2.0 §4, §5). */
function reference(message: string): Outgoing {
  const m = JSON.parse(message) as { id?: string | number; method?: unknown };
  if (typeof m.method === "string") return m.id === undefined ? { kind: "notification", method: m.method } : { kind: "request", id: m.id, method: m.method };
  return { kind: "response" };
}

describe("classify (the kind of message a POST carries)", () => {
  test("the frames the session layer writes", () => {
    const frames = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: {}, sampling: {} } } },
      { jsonrpc: "2.0", id: 7, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "timed out" } },
      { jsonrpc: "2.0", id: "srv-1", result: { roots: [{ uri: "file:///tmp" }] } },
      { jsonrpc: "2.0", id: 4, error: { code: -32601, message: "Method not found" } },
    ];
    expect(frames.map((f) => classify(JSON.stringify(f)))).toEqual([
      { kind: "request", id: 1, method: "initialize" },
      { kind: "request", id: 7, method: "tools/list" },
      { kind: "notification", method: "notifications/initialized" },
      { kind: "notification", method: "notifications/cancelled" },
      { kind: "response" },
      { kind: "response" },
    ]);
  });

  test("a request is classified from its head: megabytes of params after id and method are never parsed", () => {
    // Not JSON after the head: a whole-message parse would throw.
    expect(classify(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"text":"${"x".repeat(1 << 20)}`)).toEqual({
      kind: "request",
      id: 9,
      method: "tools/call",
    });
    expect(classify(`{"jsonrpc":"2.0","id":2,"result":{"text":"${"y".repeat(1 << 20)}`)).toEqual({ kind: "response" });
  });

  test("members in another order, escapes and whitespace give what the whole message says", () => {
    const messages = [
      '{"method":"tools/call","params":{"name":"a"},"id":5,"jsonrpc":"2.0"}', // id after params: parsed whole
      '{"params":{},"method":"notifications/progress","jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","method":"x/y","params":{"id":1}}', // an id inside params is not the message's
      '{ "jsonrpc" : "2.0" ,\n "id" : "a\\"b" , "method" : "t\\u002fq" }',
      '{"jsonrpc":"2.0","id":null,"method":"m"}',
      '{"jsonrpc":"2.0","method":7,"id":1,"result":{}}',
      '{"\\u0069d":3,"method":"m","params":[]}',
      '{"jsonrpc":"2.0","id":-1.5e3,"method":"m"}',
      '{"result":{},"jsonrpc":"2.0","id":1}',
      "{}",
    ];
    for (const message of messages) expect({ message, kind: classify(message) }).toEqual({ message, kind: reference(message) });
  });

  test("not JSON where a parse is needed throws, as JSON.parse does", () => {
    expect(() => classify('{"params":{"a":}')).toThrow(SyntaxError);
    expect(() => classify("nonsense")).toThrow(SyntaxError);
  });

  test("fuzz: 500 random JSON-RPC objects in random member order agree with the whole-message rule", () => {
    const rand = prng(42);
    const values = [1, 0, -3, 2.5, "s", 'q"uote', "é😀", null, true, { nested: { id: 1, method: "no" } }, [1, "method"]];
    for (let i = 0; i < 500; i++) {
      const members: [string, unknown][] = [["jsonrpc", "2.0"]];
      if (rand.int(3) > 0) members.push(["id", rand.pick(values.slice(0, 8))]);
      if (rand.int(3) > 0) members.push(["method", rand.int(5) === 0 ? rand.pick(values) : `m/${i}`]);
      for (const extra of ["params", "result", "error", "_meta"]) if (rand.int(3) === 0) members.push([extra, rand.pick(values)]);
      for (let j = members.length - 1; j > 0; j--) {
        const k = rand.int(j + 1);
        [members[j], members[k]] = [members[k]!, members[j]!];
      }
      const message = JSON.stringify(Object.fromEntries(members), null, rand.int(2) ? 1 : undefined);
      const valid = !members.some(([k]) => k === "method") || !members.some(([k]) => k === "result" || k === "error");
      if (valid) expect({ message, kind: classify(message) }).toEqual({ message, kind: reference(message) });
    }
  });
});
