/**
 * Compaction (lib/agent/compact.ts) over a fake model and a real Conversation: where the kept
 * messages start (never between a tool_use and its tool_result), the one summary call and the
 * history it leaves, a failed or empty summary leaving the conversation as it was, and when
 * automatic compaction is due.
 */
import { describe, expect, test } from "bun:test";
import { AutoCompactor, autoCompactPercent, compact, describeCompaction, keepFrom } from "../../../lib/agent/compact.ts";
import { Conversation } from "../../../lib/agent/conversation.ts";
import type { MessageParam } from "../../../lib/agent/messages.ts";
import type { ModelClient } from "../../../lib/agent/model.ts";

const user = (text: string): MessageParam => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): MessageParam => ({ role: "assistant", content: [{ type: "text", text }] });
const call = (id: string): MessageParam => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: "ls" } }] });
const result = (id: string, size = 10): MessageParam => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "x".repeat(size) }] });

/** A model whose every reply is `reply` (or whose call throws it), recording what it was asked. */
function fakeModel(reply: string | Error) {
  const asked: Parameters<ModelClient["create"]>[0][] = [];
  const model = {
    model: "claude-sonnet-4-6",
    apiMs: 0,
    preload() {},
    async create(request: Parameters<ModelClient["create"]>[0]) {
      asked.push(request);
      if (reply instanceof Error) throw reply;
      return { content: [{ type: "text", text: reply }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 }, model: "claude-sonnet-4-6" };
    },
  } as unknown as ModelClient;
  return { model, asked };
}

function conversationOf(messages: MessageParam[]): Conversation {
  const c = new Conversation("s");
  for (const m of messages) c.append(m);
  return c;
}

describe("keepFrom", () => {
  test("keeps whole recent turns, at most two prompts", () => {
    const messages = [user("one"), assistant("a1"), user("two"), assistant("a2"), user("three"), assistant("a3")];
    expect(keepFrom(messages)).toBe(2);
  });

  test("in one long turn it starts at an assistant message, so a tool_use keeps its tool_result", () => {
    const big = 15_000;
    const messages = [user("go"), call("t1"), result("t1", big), call("t2"), result("t2", big), call("t3"), result("t3", big)];
    const from = keepFrom(messages);
    expect(messages[from]!.role).toBe("assistant");
    expect(from).toBe(3);
  });

  test("nothing fits: keeps nothing", () => {
    const messages = [user("go"), call("t1"), result("t1", 50_000)];
    expect(keepFrom(messages)).toBe(messages.length);
  });
});

describe("compact", () => {
  test("one summary call with the whole history and the request; the history becomes summary plus recent messages", async () => {
    const c = conversationOf([user("one"), assistant("a1"), user("two"), assistant("a2"), user("three"), assistant("a3")]);
    const { model, asked } = fakeModel("SUMMARY of one");
    const info = await compact(c, { model, system: "SYS", tools: [] }, "keep the paths", "manual");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.system).toBe("SYS");
    expect(asked[0]!.messages).toHaveLength(7);
    expect(JSON.stringify(asked[0]!.messages.at(-1))).toContain("Instructions for the summary: keep the paths");
    expect(info).toEqual({ trigger: "manual", summarised: 2, kept: 4, preTokens: undefined });
    const after = c.messages;
    expect(after[0]!.role).toBe("user");
    expect(JSON.stringify(after[0])).toContain("This conversation was compacted. A summary of what came before:\\n\\nSUMMARY of one");
    // The first kept prompt joins the summary's message, so roles still alternate.
    expect(JSON.stringify(after[0])).toContain('"two"');
    expect(after.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  test("a failed or empty summary leaves the conversation as it was", async () => {
    const messages = [user("one"), assistant("a1"), user("two"), assistant("a2")];
    const failing = conversationOf(messages);
    await expect(compact(failing, { model: fakeModel(new Error("overloaded")).model, system: "", tools: [] }, "", "auto")).rejects.toThrow("overloaded");
    expect(failing.messages).toEqual(messages);
    const empty = conversationOf(messages);
    await expect(compact(empty, { model: fakeModel("   ").model, system: "", tools: [] }, "", "auto")).rejects.toThrow("summary was empty");
    expect(empty.messages).toEqual(messages);
  });

  test("an empty conversation: nothing to compact, no call", async () => {
    const { model, asked } = fakeModel("x");
    expect(await compact(new Conversation("s"), { model, system: "", tools: [] }, "", "manual")).toBeUndefined();
    expect(asked).toHaveLength(0);
  });
});

describe("automatic compaction", () => {
  test("due past the share of the window, judged once per reply; never for a model not in the table", () => {
    const c = new Conversation("s");
    c.append(user("go"));
    c.append(assistant("a"), { usage: { input_tokens: 100_000, output_tokens: 1, cache_read_input_tokens: 800_000 } as never, model: "claude-sonnet-4-6" });
    expect(new AutoCompactor(80).due(c, "some-unknown-model")).toBeUndefined();
    const auto = new AutoCompactor(80);
    expect(auto.due(c, "claude-sonnet-4-6")).toBe(900_000);
    expect(auto.due(c, "claude-sonnet-4-6")).toBeUndefined();
    expect(new AutoCompactor(95).due(c, "claude-sonnet-4-6")).toBeUndefined();
  });

  test("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: a share from 1 to 100, else one line and the default", () => {
    const warned: string[] = [];
    expect(autoCompactPercent("95", (l) => warned.push(l))).toBe(95);
    expect(autoCompactPercent(undefined, (l) => warned.push(l))).toBe(80);
    expect(autoCompactPercent("150", (l) => warned.push(l))).toBe(80);
    expect(warned).toEqual(['CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "150" is not a percentage from 1 to 100; using 80']);
  });

  test("the status line, singular and plural", () => {
    expect(describeCompaction({ trigger: "auto", preTokens: 900, summarised: 1, kept: 2 })).toBe(
      "Compacted the conversation (auto, at 900 tokens): 1 message summarised, 2 kept.",
    );
    expect(describeCompaction({ trigger: "manual", summarised: 3, kept: 0 })).toBe("Compacted the conversation (manual): 3 messages summarised, 0 kept.");
  });
});
