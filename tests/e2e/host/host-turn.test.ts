/**
 * Host mode runs the same turn as -p and the session (lib/agent/turn/turn.ts), through the real Agent SDK:
 * tool search with a 400-tool server, auto-compaction past the threshold, and the interrupted
 * turn's bookkeeping (the streamed text kept, `[Request interrupted by user]`, never two user
 * messages in a row). SKIP_SLOW=1 skips them locally, never in CI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { query, type Options, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, text, toolUse, withUsage, type ModelServer, type Step } from "../../support/model-server.ts";
import { BUN, baseEnv, PROGRAM, ROOT, tempDir } from "../../support/run.ts";
import { collect, sdkOptions } from "../../support/agent-sdk.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
const TEST_TIMEOUT_MS = 60_000;

let server: ModelServer | undefined;
afterEach(() => server?.stop());

function options(cwd: string, extra: Partial<Options> = {}): Options {
  return sdkOptions(server!.url, cwd, extra);
}

const userMessage = (content: string): SDKUserMessage => ({ type: "user", message: { role: "user", content }, parent_tool_use_id: null });

describe.skipIf(SKIP)("host mode runs the shared turn", () => {
  test(
    "tool search: with a 400-tool server the first request carries the built-ins and ToolSearch, as in -p",
    async () => {
      const cwd = tempDir();
      const survey = { command: BUN, args: [join(ROOT, "fixtures/servers/survey-server.ts"), "--except", "github"] };
      writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { survey } }));
      server = startModelServer([reply(text("ok"))]);
      // claude-haiku-4-5's 200K window: the definitions pass 10 % of it.
      const messages = await collect(query({ prompt: "hi", options: options(cwd, { model: "claude-haiku-4-5" }) }));
      expect((messages.find((m) => m.type === "result") as any).result).toBe("ok");
      const names = server.requests[0]!.body.tools.map((t: any) => t.name) as string[];
      expect(names).toContain("ToolSearch");
      expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
      const init = messages.find((m) => m.type === "system" && m.subtype === "init") as any;
      expect(init.tools.filter((n: string) => n.startsWith("mcp__survey__")).length).toBeGreaterThan(350);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "auto-compaction past 80 % of the window: a summary call, then the summary plus recent messages, and a compact_boundary event",
    async () => {
      // 25,000 characters of output per call: two such results are more than compaction keeps.
      const big = { command: "printf 'x%.0s' $(seq 1 25000)", description: "print" };
      const full = { input_tokens: 100_000, output_tokens: 10, cache_read_input_tokens: 800_000 };
      server = startModelServer([
        withUsage(reply(toolUse("Bash", big)), { input_tokens: 1000, output_tokens: 10 }),
        withUsage(reply(toolUse("Bash", big)), { input_tokens: 1000, output_tokens: 10 }),
        withUsage(reply(toolUse("Bash", big)), full),
        reply(text("SUMMARY: three outputs")),
        reply(text("done")),
      ]);
      const messages = await collect(query({ prompt: "go", options: options(tempDir()) }));
      expect((messages.find((m) => m.type === "result") as any).result).toBe("done");
      const [, , third, summary, after] = server.requests;
      expect(summary!.body.messages).toHaveLength(third!.body.messages.filter(conversational).length + 2);
      expect(summary!.body.messages.at(-1).content.at(-1).text).toStartWith("Write a summary of this conversation so far");
      expect(after!.body.messages[0].content[0].text).toStartWith("This conversation was compacted. A summary of what came before:\n\nSUMMARY: three outputs");
      expect(after!.body.messages.filter(conversational)).toHaveLength(3);
      const boundary = messages.find((m) => m.type === "system" && (m as any).subtype === "compact_boundary") as any;
      expect(boundary.compact_metadata).toEqual({ trigger: "auto", pre_tokens: 900_000 });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "interrupt() while the reply streams, then a new message: the streamed text is kept, the marker follows, no two user messages in a row",
    async () => {
      let streamed!: () => void;
      const started = new Promise<void>((r) => (streamed = r));
      const never = new Promise<void>(() => {});
      const slow: Step = () => {
        streamed();
        return { content: [text("I am talking slowly")], stop_reason: "end_turn", stall: never };
      };
      server = startModelServer([slow, reply(text("after the interrupt"))]);
      let second!: () => void;
      const secondAllowed = new Promise<void>((r) => (second = r));
      async function* prompts() {
        yield userMessage("talk slowly");
        await secondAllowed;
        yield userMessage("after");
      }
      const config = tempDir("agent-config-");
      const env = { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: config } as Record<string, string>;
      const q = query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: PROGRAM, cwd: tempDir(), env, includePartialMessages: true } });
      // The interrupt comes once the first text delta has reached the program (its stream_event).
      const results: any[] = [];
      let sessionId = "";
      void started;
      for await (const m of q) {
        if (m.type === "stream_event" && (m as any).event?.type === "content_block_delta" && !results.length) void q.interrupt();
        if (m.type !== "result") continue;
        sessionId = m.session_id;
        results.push(m);
        if (results.length === 1) second();
        else break;
      }
      expect(results[0]).toMatchObject({ subtype: "error_during_execution", is_error: true });
      expect(results[1]).toMatchObject({ subtype: "success", result: "after the interrupt" });
      const messages = server.requests[1]!.body.messages.filter(conversational);
      expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(messages[1].content).toMatchObject([{ type: "text", text: "I am talking slowly" }]);
      expect(messages[2].content.map((b: any) => b.text)).toEqual(["[Request interrupted by user]", "after"]);
      // The saved transcript has the same shape.
      const saved = new Bun.Glob(`agent-sessions/*/${sessionId}.jsonl`).scanSync({ cwd: config }).next().value as string;
      // Replayed as --resume reads it: a rollback line drops what followed the message it names.
      const kept: any[] = [];
      for (const line of (await Bun.file(join(config, saved)).text()).trim().split("\n")) {
        const record = JSON.parse(line);
        if (record.type === "message") kept.push(record);
        if (record.type === "rollback") kept.splice(record.to === null ? 0 : kept.findIndex((m) => m.id === record.to) + 1);
      }
      const roles = kept.map((l) => l.message.role);
      expect(roles.slice(0, 3)).toEqual(["user", "assistant", "user"]);
      expect(kept[2].message.content.map((b: any) => b.text)).toEqual(["[Request interrupted by user]", "after"]);
      for (let i = 1; i < roles.length; i++) expect(`${roles[i - 1]} ${roles[i]}`).not.toBe("user user");
    },
    TEST_TIMEOUT_MS,
  );
});
