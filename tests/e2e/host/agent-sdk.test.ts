/**
 * The official Claude Agent SDK driving our executable: `query()` with
 * `pathToClaudeCodeExecutable` pointing at your_program.sh, against the scripted model. These
 * start real processes through the SDK and are slow: SKIP_SLOW=1 skips them locally, never in CI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSdkMcpServer, query, tool, type Options, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { fixtureServer, tempDir } from "../../support/run.ts";
import { collect, sdkOptions } from "../../support/agent-sdk.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
if (SKIP) console.warn("SKIP_SLOW=1: skipping the Agent SDK tests");

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const TEST_TIMEOUT_MS = 60_000;

/** Options for a query against `server` in `cwd`, with a config folder of its own. */
function options(cwd: string, extra: Partial<Options> = {}, config = tempDir("agent-config-")): Options {
  return sdkOptions(server!.url, cwd, extra, config);
}

/** The result events; `any` so that success and error fields can both be read. */
const resultOf = (messages: SDKMessage[]) => messages.filter((m) => m.type === "result") as any[];

/** A user message for streaming input. */
const userMessage = (textIn: string): SDKUserMessage => ({
  type: "user",
  message: { role: "user", content: textIn },
  parent_tool_use_id: null,
});

/** A step that answers only once `release` is called (a model call to interrupt). */
function held(step: Step): { step: Step; arrived: Promise<void>; release(): void } {
  let release!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const seen = new Promise<void>((r) => (arrived = r));
  return {
    step: async () => {
      arrived();
      await gate;
      return step;
    },
    arrived: seen,
    release,
  };
}

describe.skipIf(SKIP)("the Agent SDK runs our executable", () => {
  test(
    "one prompt: system/init with our session, then the answer as a success result",
    async () => {
      server = startModelServer([reply(text("Hello from the agent."))]);
      const messages = await collect(query({ prompt: "say hello", options: options(tempDir()) }));
      const init = messages.find((m) => m.type === "system" && m.subtype === "init") as any;
      expect(init.tools).toContain("Read");
      expect(init.model).toBe("claude-sonnet-4-6");
      const [result] = resultOf(messages);
      expect(result).toMatchObject({ subtype: "success", is_error: false, result: "Hello from the agent.", num_turns: 1, session_id: init.session_id });
      expect(result!.usage.output_tokens).toBe(5);
      expect(server.requests[0]!.body.messages[0].content).toMatchObject([{ type: "text", text: "say hello" }]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "streaming input: three user messages are one conversation of three turns",
    async () => {
      server = startModelServer([reply(text("one")), reply(text("two")), reply(text("three"))]);
      let answered!: () => void;
      let next = new Promise<void>((r) => (answered = r));
      async function* prompts() {
        for (const t of ["first", "second", "third"]) {
          yield userMessage(t);
          await next;
          next = new Promise<void>((r) => (answered = r));
        }
      }
      const results: string[] = [];
      for await (const m of query({ prompt: prompts(), options: options(tempDir()) })) {
        if (m.type === "result") {
          results.push(m.subtype === "success" ? m.result : m.subtype);
          answered();
        }
      }
      expect(results).toEqual(["one", "two", "three"]);
      expect(server.requests[2]!.body.messages.filter(conversational).map((m: any) => m.content[0].text)).toEqual(["first", "one", "second", "two", "third"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "interrupt() stops the running turn and the session takes the next message",
    async () => {
      const slow = held(reply(text("too late")));
      server = startModelServer([slow.step, reply(text("after the interrupt"))]);
      let second!: () => void;
      const secondAllowed = new Promise<void>((r) => (second = r));
      async function* prompts() {
        yield userMessage("take your time");
        await secondAllowed;
        yield userMessage("now answer");
      }
      const q = query({ prompt: prompts(), options: options(tempDir()) });
      const results: any[] = [];
      void slow.arrived.then(() => q.interrupt());
      for await (const m of q) {
        if (m.type !== "result") continue;
        results.push(m);
        if (results.length === 1) second();
        else break;
      }
      slow.release();
      expect(results[0]).toMatchObject({ subtype: "error_during_execution", is_error: true });
      expect(results[1]).toMatchObject({ subtype: "success", result: "after the interrupt" });
      // Nothing had streamed: one user message, the interrupt marked, then the next input (never two user messages in a row).
      const messages = server.requests[1]!.body.messages.filter(conversational);
      expect(messages.map((m: any) => m.role)).toEqual(["user"]);
      expect(messages[0].content.map((b: any) => b.text)).toEqual(["take your time", "[Request interrupted by user]", "now answer"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "canUseTool denies Bash and allows Write with an updated input",
    async () => {
      const dir = tempDir();
      server = startModelServer([
        reply(toolUse("Bash", { command: "touch bash-ran" }), toolUse("Write", { file_path: "note.txt", content: "from the model" })),
        reply(text("done")),
      ]);
      const asked: string[] = [];
      const canUseTool: Options["canUseTool"] = async (name, input) => {
        asked.push(name);
        if (name === "Bash") return { behavior: "deny", message: "no shell today" };
        return { behavior: "allow", updatedInput: { ...input, content: "from the host" } };
      };
      const messages = await collect(query({ prompt: "work", options: options(dir, { canUseTool }) }));
      expect(asked).toEqual(["Bash", "Write"]);
      expect(existsSync(join(dir, "bash-ran"))).toBe(false);
      expect(readFileSync(join(dir, "note.txt"), "utf8")).toBe("from the host");
      const results = server.requests[1]!.body.messages.at(-1).content;
      expect(results[0]).toMatchObject({ type: "tool_result", is_error: true, content: "no shell today" });
      expect(results[1].is_error).toBeUndefined();
      const [result] = resultOf(messages);
      expect(result!.permission_denials).toEqual([{ tool_name: "Bash", tool_use_id: expect.any(String), tool_input: { command: "touch bash-ran" } }]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "allowedTools and disallowedTools apply before canUseTool: an allowed tool runs unasked, a disallowed one is not offered",
    async () => {
      const dir = tempDir();
      server = startModelServer([reply(toolUse("Bash", { command: "echo allowed > ran.txt" })), reply(text("ok"))]);
      const asked: string[] = [];
      const canUseTool: Options["canUseTool"] = async (name) => {
        asked.push(name);
        return { behavior: "deny", message: "no" };
      };
      await collect(query({ prompt: "go", options: options(dir, { canUseTool, allowedTools: ["Bash"], disallowedTools: ["Write"] }) }));
      expect(asked).toEqual([]);
      expect(readFileSync(join(dir, "ran.txt"), "utf8")).toBe("allowed\n");
      const offered = server.requests[0]!.body.tools.map((t: any) => t.name);
      expect(offered).toContain("Bash");
      expect(offered).not.toContain("Write");
    },
    TEST_TIMEOUT_MS,
  );

  test.each(["argv", "initialize"] as const)(
    "mcpServers (delivered by %s): a stdio server and a createSdkMcpServer tool, both called by the model",
    async (delivery) => {
      const calls: unknown[] = [];
      const inproc = createSdkMcpServer({
        name: "inproc",
        version: "1.0.0",
        tools: [
          tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async ({ a, b }) => {
            calls.push({ a, b });
            return { content: [{ type: "text", text: String(a + b) }] };
          }),
        ],
      });
      server = startModelServer([reply(toolUse("mcp__inproc__add", { a: 2, b: 3 }), toolUse("mcp__fx__echo", { text: "hi" })), reply(text("5, and hi"))]);
      const messages = await collect(
        query({
          prompt: "use both",
          options: options(tempDir(), { mcpServers: { inproc, fx: fixtureServer() as any }, mcpServersDelivery: delivery } as Options),
        }),
      );
      const init = messages.find((m) => m.type === "system" && m.subtype === "init") as any;
      expect(init.mcp_servers).toEqual(
        expect.arrayContaining([
          { name: "inproc", status: "connected" },
          { name: "fx", status: "connected" },
        ]),
      );
      expect(calls).toEqual([{ a: 2, b: 3 }]);
      const results = server.requests[1]!.body.messages.at(-1).content;
      expect(results[0].content).toBe("5");
      expect(JSON.stringify(results[1].content)).toContain("hi");
      expect(resultOf(messages)[0]!.result).toBe("5, and hi");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "resume: a second query with the first one's session id carries its conversation",
    async () => {
      const dir = tempDir();
      const config = tempDir("agent-config-");
      server = startModelServer([reply(text("Noted: blue.")), reply(text("Blue."))]);
      const first = resultOf(await collect(query({ prompt: "my colour is blue", options: options(dir, {}, config) })))[0]!;
      const second = resultOf(await collect(query({ prompt: "what is my colour?", options: options(dir, { resume: first.session_id }, config) })))[0]!;
      expect(second.session_id).toBe(first.session_id);
      expect(second.result).toBe("Blue.");
      expect(server.requests[1]!.body.messages.filter(conversational).map((m: any) => m.content[0].text)).toEqual([
        "my colour is blue",
        "Noted: blue.",
        "what is my colour?",
      ]);
    },
    TEST_TIMEOUT_MS,
  );
});
