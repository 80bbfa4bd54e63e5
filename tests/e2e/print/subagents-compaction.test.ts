/**
 * Automatic compaction inside a subagent, through the real program in -p: a subagent whose own
 * conversation passes the threshold gets one summary request of its own, then goes on from the
 * summary; the parent's conversation is not compacted and gets the subagent's report. (No line is
 * printed for a subagent's compaction: the parent's run is what the user follows.)
 */
import { expect, test } from "bun:test";
import { reply, startModelServer, text, toolUse, withUsage, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");
const BIG = { command: "printf 'x%.0s' $(seq 1 25000)" };
const SMALL_USAGE = { input_tokens: 1000, output_tokens: 10 };
// 90 % of a 1M-token window, past the default 80 %.
const FULL_USAGE = { input_tokens: 100_000, output_tokens: 10, cache_read_input_tokens: 800_000 };

test("a subagent's long conversation is compacted on its own; the parent's is not", async () => {
  const sub: Step[] = [
    withUsage(reply(toolUse("Bash", BIG)), SMALL_USAGE),
    withUsage(reply(toolUse("Bash", BIG)), FULL_USAGE),
    reply(text("SUMMARY: the worker printed two large outputs")),
    reply(text("WORKER REPORT")),
  ];
  const parent: Step[] = [reply(toolUse("Agent", { description: "work", prompt: "print things", subagent_type: "worker" })), reply(text("all done"))];
  const model = startModelServer(Array.from({ length: 6 }, () => (r: RecordedRequest) => (isSub(r) ? sub.shift()! : parent.shift()!)) as Step[]);
  try {
    const agents = JSON.stringify({ worker: { description: "d", prompt: "p", tools: ["Bash"] } });
    const r = await runAgent(["-p", "go", "--agents", agents, "--model", "claude-sonnet-4-6"], { cwd: tempDir(), model: model.url, timeoutMs: 60_000 });
    expect([r.code, r.stdout]).toEqual([0, "all done\n"]);
    const subRequests = model.requests.filter(isSub);
    expect(subRequests).toHaveLength(4);
    const [, second, summary, after] = subRequests;
    expect(summary!.body.messages).toHaveLength(second!.body.messages.length + 2);
    expect(after!.body.messages[0].content[0].text).toStartWith("This conversation was compacted. A summary of what came before:\n\nSUMMARY: the worker");
    // The parent's second request still holds its own whole history, with the report.
    const last = model.requests.filter((q) => !isSub(q)).at(-1)!;
    // (the agent listing, the prompt, the Agent call, its result)
    expect(last.body.messages).toHaveLength(4);
    expect(JSON.stringify(last.body.messages.at(-1))).toContain("WORKER REPORT");
  } finally {
    model.stop();
  }
});
