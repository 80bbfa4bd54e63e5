/**
 * The tool-use loop in process, with a fake ModelClient and fake tools: concurrency of read-only
 * calls, a max_tokens cut, a refused call, an unknown tool, and a tool that crashes with a bug.
 */
import { describe, expect, test } from "bun:test";
import { Conversation } from "../../../../lib/agent/conversation.ts";
import { runLoop } from "../../../../lib/agent/loop/loop.ts";
import type { LoopOptions } from "../../../../lib/agent/loop/loop-options.ts";
import type { AssistantReply, ContentBlock, ModelRequest, ToolResultContentBlock, ToolUseBlock } from "../../../../lib/agent/messages.ts";
import type { ModelClient } from "../../../../lib/agent/model/model.ts";
import { toolBugReport } from "../../../../lib/agent/turn/tool-bugs.ts";
import type { Tool } from "../../../../lib/tools/tool.ts";
import { ToolError } from "../../../../lib/tools/tool-error.ts";

/** A model that answers from a script, recording each request; the last reply is "done". */
function fakeModel(replies: { content: ContentBlock[]; stop_reason: string }[]) {
  const requests: ModelRequest[] = [];
  const model: ModelClient = {
    model: "fake",
    apiMs: 0,
    preload: () => {},
    create: async (req) => {
      // A copy: the loop keeps appending to the same conversation.
      requests.push(structuredClone(req));
      const next = replies.shift() ?? { content: [{ type: "text", text: "done" }], stop_reason: "end_turn" };
      const reply: AssistantReply = { id: `msg_${requests.length}`, model: "fake", usage: { input_tokens: 1, output_tokens: 1 }, ...next };
      return reply;
    },
  };
  return { model, requests };
}

const call = (name: string, input: Record<string, unknown> = {}, id = `toolu_${name}_${Math.random().toString(36).slice(2, 8)}`): ToolUseBlock => ({
  type: "tool_use",
  id,
  name,
  input,
});

/**
 * A tool that records when it starts and ends. Read-only ones wait at `barrier` until `needed`
 * of them have started: run one after another, the first would wait forever.
 */
function recordingTool(name: string, readOnly: boolean, events: string[], barrier?: { needed: number; arrive: () => Promise<void> }): Tool {
  return {
    name,
    description: name,
    inputSchema: { type: "object" },
    readOnly,
    run: async () => {
      events.push(`start ${name}`);
      await barrier?.arrive();
      events.push(`end ${name}`);
      return { content: `${name} ok` };
    },
  };
}

function barrier(needed: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    needed,
    arrive: () => {
      if (++arrived === needed) open();
      return opened;
    },
  };
}

/** The tool_result blocks the model was sent in its second request. */
function resultsSent(requests: ModelRequest[]): ToolResultContentBlock[] {
  const last = requests[1]!.messages.at(-1)!;
  return (last.content as ToolResultContentBlock[]).filter((b) => b.type === "tool_result");
}

async function run(replies: { content: ContentBlock[]; stop_reason: string }[], tools: Tool[], extra: Partial<LoopOptions> = {}) {
  const { model, requests } = fakeModel(replies);
  const conversation = new Conversation("test-session");
  conversation.append({ role: "user", content: [{ type: "text", text: "go" }] });
  const result = await runLoop(conversation, { model, system: "", tools: () => tools, cwd: "/", ...extra });
  return { result, requests, conversation };
}

describe("the loop with fake tools", () => {
  test("consecutive read-only calls run concurrently; a write waits for them and runs alone", async () => {
    const events: string[] = [];
    const reads = barrier(2);
    const tools = [recordingTool("ReadA", true, events, reads), recordingTool("ReadB", true, events, reads), recordingTool("Write", false, events)];
    const { result, requests } = await run([{ content: [call("ReadA"), call("ReadB"), call("Write")], stop_reason: "tool_use" }], tools);
    expect(events.slice(0, 2).sort()).toEqual(["start ReadA", "start ReadB"]);
    expect(events.slice(2, 4).sort()).toEqual(["end ReadA", "end ReadB"]);
    expect(events.slice(4)).toEqual(["start Write", "end Write"]);
    expect(resultsSent(requests).map((r) => r.content)).toEqual(["ReadA ok", "ReadB ok", "Write ok"]);
    expect(result).toEqual({ text: "done", toolBugs: 0 });
  });

  test("a reply cut by max_tokens: its last tool_use is not run, the model is told, earlier calls run", async () => {
    let ran = 0;
    const tool: Tool = { name: "T", description: "", inputSchema: { type: "object" }, run: async () => ({ content: `ran ${++ran}` }) };
    const { requests } = await run([{ content: [call("T", {}, "first"), call("T", { partial: true }, "cut")], stop_reason: "max_tokens" }], [tool]);
    const results = resultsSent(requests);
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ["first", false],
      ["cut", true],
    ]);
    expect(String(results[1]!.content)).toContain("cut off by max_tokens and was not run");
    expect(ran).toBe(1);
  });

  test("a refused call is not run and the model reads that the user refused it", async () => {
    let ran = false;
    const tool: Tool = { name: "Bash", description: "", inputSchema: { type: "object" }, run: async () => ((ran = true), { content: "" }) };
    const { requests } = await run([{ content: [call("Bash", { command: "rm -rf /" })], stop_reason: "tool_use" }], [tool], {
      canUseTool: async () => false,
    });
    expect(ran).toBe(false);
    expect(resultsSent(requests)[0]).toMatchObject({ is_error: true, content: "The user refused to run Bash." });
  });

  test("an unknown tool gets an is_error result naming it", async () => {
    const { requests } = await run([{ content: [call("Nope")], stop_reason: "tool_use" }], []);
    expect(resultsSent(requests)[0]).toMatchObject({ is_error: true, content: "No such tool: Nope" });
  });

  test("a ToolError is an expected failure; a TypeError is a bug: still an is_error result, but counted and reported", async () => {
    const expected: Tool = {
      name: "Expected",
      description: "",
      inputSchema: { type: "object" },
      run: async () => {
        throw new ToolError("File does not exist: x");
      },
    };
    const buggy: Tool = {
      name: "Buggy",
      description: "",
      inputSchema: { type: "object" },
      run: async (input) => ({ content: (input.missing as { text: string }).text }),
    };
    const bugs: [string, unknown][] = [];
    const { result, requests, conversation } = await run([{ content: [call("Expected"), call("Buggy")], stop_reason: "tool_use" }], [expected, buggy], {
      hooks: { onToolBug: (c, error) => bugs.push([c.name, error]) },
    });
    const [first, second] = resultsSent(requests);
    expect(first).toMatchObject({ is_error: true, content: "File does not exist: x" });
    expect(second!.is_error).toBe(true);
    expect(String(second!.content)).toContain("undefined");
    expect(bugs.map(([name, error]) => [name, (error as Error).constructor.name])).toEqual([["Buggy", "TypeError"]]);
    expect((bugs[0]![1] as Error).stack).toContain("loop.test.ts");
    expect(result.toolBugs).toBe(1);
    // The conversation stays valid: every tool_use has its tool_result.
    expect(conversation.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });
});

describe("the run's report of tool bugs", () => {
  test("the stack under --debug at once, one counted line at the end; nothing when no tool crashed", () => {
    const lines: string[] = [];
    const quiet = toolBugReport((l) => lines.push(l), false);
    expect(quiet.summary()).toBeUndefined();
    quiet.onToolBug(call("Read"), new TypeError("x is undefined"));
    quiet.onToolBug(call("Read"), new TypeError("again"));
    expect(lines).toEqual([]);
    expect(quiet.summary()).toBe("2 tool calls failed with an internal error (a bug in the agent; --debug shows the stack)");
    const debug = toolBugReport((l) => lines.push(l), true);
    debug.onToolBug(call("Grep"), new TypeError("boom"));
    expect(lines[0]).toStartWith("tool Grep crashed: TypeError: boom\n    at ");
    expect(debug.summary()).toBe("1 tool call failed with an internal error (a bug in the agent)");
  });
});
