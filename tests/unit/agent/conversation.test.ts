/**
 * The conversation owner and tool-name pinning, without processes: rollback, interrupted turns,
 * replay of saved records, and names that keep their routes.
 */
import { describe, expect, test } from "bun:test";
import { Conversation, type TranscriptRecord } from "../../../lib/agent/conversation.ts";
import { pinToolNames } from "../../../lib/agent/tool-pins.ts";
import type { Tool } from "../../../lib/tools/tool.ts";

const user = (t: string) => ({ role: "user" as const, content: [{ type: "text", text: t }] });
const callOf = (id: string) => ({ role: "assistant" as const, content: [{ type: "tool_use", id, name: "Bash", input: {} }] });

function recording() {
  const records: TranscriptRecord[] = [];
  return { records, sink: { write: (r: TranscriptRecord) => records.push(r) } };
}

describe("Conversation", () => {
  test("every append gets an id and a timestamp and reaches the sink; messages are the API's shape", () => {
    const { records, sink } = recording();
    const c = new Conversation("s1", sink);
    c.append(user("hi"));
    c.append({ role: "assistant", content: [{ type: "text", text: "yo" }] }, { usage: { input_tokens: 3, output_tokens: 1 }, model: "m" });
    expect(c.messages).toEqual([user("hi"), { role: "assistant", content: [{ type: "text", text: "yo" }] }]);
    expect(records.map((r) => r.type)).toEqual(["message", "message"]);
    const [a, b] = c.all;
    expect(a!.id).not.toBe(b!.id);
    expect(b!.usage).toEqual({ input_tokens: 3, output_tokens: 1 });
    expect(c.turns).toBe(1);
  });

  test("rollback drops a whole turn, tool_use and tool_result together, and is saved as one record", () => {
    const { records, sink } = recording();
    const c = new Conversation("s1", sink);
    c.append(user("one"));
    const keep = c.all[0]!.id;
    const mark = c.mark();
    c.append(user("two"));
    c.append(callOf("t1"));
    c.append({ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] });
    c.rollback(mark);
    expect(c.messages).toEqual([user("one")]);
    expect(records.at(-1)).toMatchObject({ type: "rollback", to: keep });
    expect(Conversation.replay("s1", records).messages).toEqual([user("one")]);
  });

  test("an interrupted tool call gets an error result; replay closes one a crash left open", () => {
    const c = new Conversation("s1");
    c.append(user("go"));
    c.append(callOf("t1"));
    c.closeInterrupted();
    expect(c.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t1", content: "Interrupted by the user.", is_error: true }],
    });
    c.closeInterrupted();
    expect(c.messages).toHaveLength(3);

    const { records, sink } = recording();
    const d = new Conversation("s2", sink);
    d.append(user("go"));
    d.append(callOf("t2"));
    const resumed = Conversation.replay("s2", records);
    expect(resumed.messages.at(-1)!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "t2", is_error: true });
  });

  test("noteRoutes saves only new or changed names; clear empties and moves to the next session", () => {
    const { records, sink } = recording();
    const c = new Conversation("s1", sink);
    c.noteRoutes({ mcp__a__b: { server: "a", tool: "b" } });
    c.noteRoutes({ mcp__a__b: { server: "a", tool: "b" } });
    expect(records.filter((r) => r.type === "routes")).toHaveLength(1);
    c.append(user("x"));
    const next = recording();
    c.clear({ sessionId: "s2", sink: next.sink });
    expect([c.sessionId, c.messages.length, Object.keys(c.routes).length]).toEqual(["s2", 0, 0]);
    c.append(user("y"));
    expect(next.records).toHaveLength(1);
  });
});

describe("pinToolNames", () => {
  const tool = (name: string): Tool => ({ name, description: "", inputSchema: { type: "object" }, run: async () => ({ content: name }) });
  const table: Record<string, { server: string; tool: string }> = {
    mcp__s__a_b: { server: "s", tool: "a_b" },
    mcp__s__a_b_2: { server: "s", tool: "a.b" },
  };

  test("saved names keep their routes when the namer handed them out the other way round", () => {
    const pins = { mcp__s__a_b: { server: "s", tool: "a.b" }, mcp__s__a_b_2: { server: "s", tool: "a_b" } };
    const { tools, routes } = pinToolNames([tool("Read"), tool("mcp__s__a_b"), tool("mcp__s__a_b_2")], (n) => table[n], pins);
    expect(tools.map((t) => t.name)).toEqual(["Read", "mcp__s__a_b_2", "mcp__s__a_b"]);
    expect(routes).toEqual(pins);
  });

  test("a name a saved one holds for another tool is replaced by a fresh one; unsaved names stay", () => {
    const pins = { mcp__s__a_b: { server: "s", tool: "gone" } };
    const { tools } = pinToolNames([tool("mcp__s__a_b"), tool("mcp__s__a_b_2")], (n) => table[n], pins);
    expect(tools.map((t) => t.name)).toEqual(["mcp__s__a_b_3", "mcp__s__a_b_2"]);
  });

  test("a renamed tool still runs as itself", async () => {
    const pins = { mcp__x: { server: "s", tool: "a_b" } };
    const { tools } = pinToolNames([tool("mcp__s__a_b")], (n) => table[n], pins);
    expect(tools[0]!.name).toBe("mcp__x");
    expect(await tools[0]!.run({}, { cwd: "/", signal: new AbortController().signal })).toEqual({ content: "mcp__s__a_b" });
  });
});
