/**
 * The 2026-07-28 request layer (MCP 2026-07-28, basic/index §_meta, basic/patterns/mrtr,
 * server/utilities/caching) over a scripted connection: the envelope, MRTR rounds, the -32022
 * retry, broken-stream re-sends for safe requests only, list caching; and the listen loop.
 */
import { describe, expect, test } from "bun:test";
import { ConnectionClosedError, McpError } from "../../../../../lib/mcp/protocol/errors.ts";
import type { JsonRpcConnection } from "../../../../../lib/mcp/session/jsonrpc.ts";
import { listen } from "../../../../../lib/mcp/session/listen.ts";
import { MAX_INPUT_ROUNDS, ModernSession } from "../../../../../lib/mcp/session/rev2026-07-28/session.ts";

type Sent = { method: string; params: Record<string, any> };

/** A session whose connection answers each request with `answer(sent, n)` (n = requests so far). */
function session(answer: (sent: Sent, n: number) => unknown, features = {}, capabilities: Record<string, unknown> = { roots: {}, sampling: {} }) {
  const sent: Sent[] = [];
  const conn = {
    request: async (method: string, params: Record<string, any>) => {
      sent.push({ method, params });
      const out = answer({ method, params }, sent.length);
      if (out instanceof Error) throw out;
      return out;
    },
    isClosed: false,
  } as unknown as JsonRpcConnection;
  const s = new ModernSession({ conn, features, capabilities, version: "2026-07-28", server: "m", peer: 'MCP server "m"' });
  return { s, sent };
}

const asking = (requestState?: string) => ({
  resultType: "input_required",
  inputRequests: { ok: { method: "elicitation/create", params: { message: "sure?", requestedSchema: { type: "object", properties: {} } } } },
  ...(requestState ? { requestState } : {}),
});
const elicitation = { elicitation: { url: false, handle: async () => ({ action: "accept", content: {} }) } };

describe("ModernSession", () => {
  test("every request carries the envelope; a missing resultType is complete", async () => {
    const { s, sent } = session(() => ({ content: [] }));
    expect(await s.request("tools/call", { name: "t", arguments: {} })).toEqual({ content: [] });
    expect(sent[0]!.params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { roots: {}, sampling: {} },
      "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "1.0.0" },
    });
  });

  test("input_required: answered by our handler, re-sent with inputResponses and requestState exactly", async () => {
    const { s, sent } = session((_, n) => (n === 1 ? asking("opaque=1") : { resultType: "complete", content: [] }), elicitation);
    await s.request("tools/call", { name: "t", arguments: {} });
    expect(sent[1]!.params.inputResponses).toEqual({ ok: { action: "accept", content: {} } });
    expect(sent[1]!.params.requestState).toBe("opaque=1");
    expect(sent[0]!.params.inputResponses).toBeUndefined();
  });

  test("no requestState in the result: none in the retry", async () => {
    const { s, sent } = session((_, n) => (n === 1 ? asking() : { content: [] }), elicitation);
    await s.request("tools/call", { name: "t" });
    expect("requestState" in sent[1]!.params).toBe(false);
  });

  test("rounds are capped; an unknown resultType is refused; input_required on a list is refused", async () => {
    const { s } = session(() => asking("again"), elicitation);
    await expect(s.request("tools/call", { name: "t" })).rejects.toThrow(`after ${MAX_INPUT_ROUNDS} rounds`);
    await expect(session(() => ({ resultType: "task" })).s.request("tools/call", {})).rejects.toThrow('resultType "task"');
    await expect(session(() => asking()).s.request("tools/list", undefined)).rejects.toThrow("input_required");
  });

  test("a CreateTaskResult (SEP-2663) is handed back only to a tools/call that declared the tasks extension", async () => {
    const task = { resultType: "task", taskId: "t1", status: "working" };
    const declared = { roots: {}, sampling: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
    expect(await session(() => task, {}, declared).s.request("tools/call", { name: "t" })).toEqual(task);
    await expect(session(() => task, {}, declared).s.request("prompts/get", { name: "p" })).rejects.toThrow('resultType "task"');
  });

  test("-32022 is retried once in a revision it names", async () => {
    const refusal = new McpError(-32022, "Unsupported protocol version", { supported: ["2026-07-28"] });
    const { s, sent } = session((_, n) => (n === 1 ? refusal : { tools: [] }));
    expect(await s.request("tools/list", undefined)).toEqual({ tools: [] });
    expect(sent).toHaveLength(2);
    const again = session(() => refusal);
    await expect(again.s.request("tools/list", undefined)).rejects.toBe(refusal);
    expect(again.sent).toHaveLength(2);
  });

  test("a broken reply stream: a list is sent again, a tools/call never", async () => {
    const broken = Object.assign(new Error("the reply stream of x ended before its response"), { name: "ResponseStreamBroken" });
    const lost = () => new ConnectionClosedError("cannot send", false, broken);
    const list = session((_, n) => (n === 1 ? lost() : { tools: [] }));
    expect(await list.s.request("tools/list", undefined)).toEqual({ tools: [] });
    const call = session(() => lost());
    await expect(call.s.request("tools/call", { name: "t" })).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(call.sent).toHaveLength(1);
  });

  test("a list is kept for its ttlMs, until list_changed", async () => {
    const { s, sent } = session(() => ({ tools: [], ttlMs: 60_000 }));
    await s.request("tools/list", undefined);
    await s.request("tools/list", undefined);
    expect(sent).toHaveLength(1);
    s.invalidate("tools");
    await s.request("tools/list", undefined);
    expect(sent).toHaveLength(2);
  });
});

describe("listen", () => {
  test("a dropped stream is reopened; a JSON-RPC refusal ends the loop", async () => {
    const calls: unknown[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    listen(
      { toolsListChanged: true },
      async (params) => {
        calls.push(params);
        if (calls.length === 1) throw new Error("stream dropped");
        done();
        throw new McpError(-32601, "Method not found");
      },
      () => true,
    );
    await finished;
    expect(calls).toEqual([{ notifications: { toolsListChanged: true } }, { notifications: { toolsListChanged: true } }]);
  });
});
