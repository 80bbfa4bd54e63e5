/**
 * Compaction through the real program: automatic in a `-p` run whose scripted usage passes the
 * threshold (a summary request, then a history of summary plus recent messages with every
 * tool_use paired), never for an unknown model or a reply without usage, and `/compact` in the
 * interactive session in a pseudo-terminal.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text, toolUse, withUsage, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { project, stopProjects } from "../../support/mcp.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(async () => {
  stopProjects();
  await stopAgent();
});

// 25,000 characters of output per call: two such results are more than compaction keeps.
const BIG = { command: "printf 'x%.0s' $(seq 1 25000)" };
const SMALL_USAGE = { input_tokens: 1000, output_tokens: 10 };
// 90 % of claude-sonnet-4-6's 1M-token window, past the default 80 %.
const FULL_USAGE = { input_tokens: 100_000, output_tokens: 10, cache_read_input_tokens: 800_000 };

const script = (last: typeof FULL_USAGE | undefined): Step[] => [
  withUsage(reply(toolUse("Bash", BIG)), SMALL_USAGE),
  withUsage(reply(toolUse("Bash", BIG)), SMALL_USAGE),
  last ? withUsage(reply(toolUse("Bash", BIG)), last) : reply(toolUse("Bash", BIG)),
  reply(text("SUMMARY: three large outputs were printed")),
  reply(text("done")),
];

/** Every tool_use answered by a tool_result in the next message, and every tool_result answering one. */
function pairsValid(messages: any[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const uses = messages[i].role === "assistant" ? messages[i].content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id) : [];
    const next = messages[i + 1];
    const answered = next?.role === "user" ? next.content.filter((b: any) => b.type === "tool_result").map((b: any) => b.tool_use_id) : [];
    if (uses.length && JSON.stringify(uses) !== JSON.stringify(answered)) return false;
    const results = messages[i].role === "user" ? messages[i].content.filter((b: any) => b.type === "tool_result").map((b: any) => b.tool_use_id) : [];
    const asked = i > 0 && messages[i - 1].role === "assistant" ? messages[i - 1].content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id) : [];
    if (results.length && JSON.stringify(results) !== JSON.stringify(asked)) return false;
  }
  return messages[0]?.role === "user";
}

const lastText = (req: RecordedRequest) => req.body.messages.at(-1).content.at(-1).text as string;

describe("automatic compaction in -p", () => {
  test("past 80 % of the window: one summary call, then summary plus recent messages, pairs intact", async () => {
    const p = project(undefined, script(FULL_USAGE));
    const r = await p.run("go", { args: ["--output-format", "stream-json"] });
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe("Compacted the conversation (auto, at 900000 tokens): 5 messages summarised, 2 kept.");
    const [, , third, summary, after] = p.model.requests;
    // The summary request is the whole history with the request appended, under the same tools and system.
    expect(summary!.body.messages).toHaveLength(third!.body.messages.length + 2);
    expect(lastText(summary!)).toStartWith("Write a summary of this conversation so far");
    expect(JSON.stringify(summary!.body.tools)).toBe(JSON.stringify(third!.body.tools));
    expect(summary!.body.system).toBe(third!.body.system);
    // After: the summary first, then the last tool_use and its result, as they were.
    const messages = after!.body.messages;
    expect(messages).toHaveLength(3);
    expect(messages[0].content[0].text).toStartWith("This conversation was compacted. A summary of what came before:\n\nSUMMARY: three large outputs");
    expect(messages[1].content[0].type).toBe("tool_use");
    expect(pairsValid(messages)).toBe(true);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const boundary = events.filter((e) => e.subtype === "compact_boundary");
    expect(boundary).toEqual([
      { type: "system", subtype: "compact_boundary", compact_metadata: { trigger: "auto", pre_tokens: 900000 }, session_id: events[0].session_id },
    ]);
    expect(events.at(-1).result).toBe("done");
    // The summary call is counted in the run's usage.
    expect(events.at(-1).usage.cache_read_input_tokens).toBe(800_000);
  });

  test("one message summarised is said in the singular", async () => {
    const p = project(undefined, [withUsage(reply(toolUse("Bash", BIG)), FULL_USAGE), reply(text("SUMMARY: one output")), reply(text("done"))]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(r.stderr.trim()).toBe("Compacted the conversation (auto, at 900000 tokens): 1 message summarised, 2 kept.");
  });

  test("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=95 raises the threshold: no compaction at 90 %", async () => {
    const p = project(undefined, [...script(FULL_USAGE).slice(0, 3), reply(text("done"))]);
    const r = await p.run("go", { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "95" } });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(p.model.requests).toHaveLength(4);
  });

  test("never for an unknown model, nor for replies without usage", async () => {
    const unknown = project(undefined, [...script(FULL_USAGE).slice(0, 3), reply(text("done"))]);
    const a = await unknown.run("go", { args: ["--model", "my-proxy-model"] });
    expect([a.code, a.stdout, a.stderr]).toEqual([0, "done\n", ""]);
    expect(unknown.model.requests).toHaveLength(4);
    // A reply whose usage is missing: the scripted server then sends none at all.
    const bare = project(undefined, [
      { content: [{ type: "tool_use", id: "toolu_b1", name: "Bash", input: BIG }], stop_reason: "tool_use", usage: null },
      reply(text("done")),
    ]);
    const b = await bare.run("go");
    expect([b.code, b.stdout, b.stderr]).toEqual([0, "done\n", ""]);
    expect(bare.model.requests).toHaveLength(2);
  });
});

describe("/compact in the session", () => {
  test(
    "summarises with the instructions, keeps the recent turn, and the next turn sends the summary",
    async () => {
      const { term, server } = await startAgent([
        reply(text("first answer")),
        reply(text("second answer")),
        reply(text("SUMMARY: two questions answered")),
        reply(text("third answer")),
      ]);
      await submit(term, "question one");
      await term.waitFor((s) => s.includes("first answer") && atPrompt(s));
      await submit(term, "question two");
      await term.waitFor((s) => s.includes("second answer") && atPrompt(s));
      await submit(term, "/compact keep the names");
      await term.waitFor((s) => s.includes("Compacted the conversation (manual") && atPrompt(s));
      expect(lastText(server.requests[2]!)).toEndWith("Instructions for the summary: keep the names");
      await submit(term, "question three");
      await term.waitFor((s) => s.includes("third answer") && atPrompt(s));
      // The conversation's own messages: the session's requests also carry the agent listing (a system-role message).
      const messages = server.requests[3]!.body.messages.filter((m: { role: string }) => m.role !== "system");
      expect(messages[0].content[0].text).toContain("SUMMARY: two questions answered");
      expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(messages.at(-1).content.at(-1).text).toBe("question three");
      expect(pairsValid(messages)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
