/**
 * MCP tasks (MCP 2025-11-25, basic/utilities/tasks) in host mode, driven by the real Agent SDK:
 * a task tool's status changes arrive as `tool_progress` for its tool_use (never the SDK's own
 * task_started/task_notification), its elicitation is answered by the host's --elicitation, and
 * the host's interrupt() sends tasks/cancel for the task. Slow: SKIP_SLOW=1 skips them locally.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type Options, query, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { npmServer } from "../../support/mcp.ts";
import { type ModelServer, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { sdkOptions } from "../../support/agent-sdk.ts";
import { sent, taskServer } from "../../support/tasks.ts";
import { until } from "../../support/wait.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
const TEST_TIMEOUT_MS = 60_000;

let server: ModelServer | undefined;
afterEach(() => server?.stop());

function options(cwd: string, extra: Partial<Options>): Options {
  return sdkOptions(server!.url, cwd, extra);
}

const toolUseIds = (messages: SDKMessage[]) =>
  messages.flatMap((m) =>
    m.type === "assistant" ? (m.message.content as { type: string; id?: string }[]).filter((b) => b.type === "tool_use").map((b) => b.id) : [],
  );

describe.skipIf(SKIP)("host mode and a task tool", () => {
  test(
    "simulate-research-query: tool_progress for its tool_use while it runs, the report as its result; ambiguous answered by --elicitation",
    async () => {
      const tool = "mcp__everything__simulate-research-query";
      server = startModelServer([
        reply(toolUse(tool, { topic: "solar panels" })),
        reply(toolUse(tool, { topic: "python", ambiguous: true })),
        reply(text("researched")),
      ]);
      const messages: SDKMessage[] = [];
      const q = query({
        prompt: "research twice",
        options: options(tempDir(), {
          mcpServers: { everything: npmServer("everything", ["stdio"]) as any },
          mcpServersDelivery: "initialize",
          extraArgs: { elicitation: "decline" },
        } as Options),
      });
      for await (const m of q) messages.push(m);
      const [first, second] = toolUseIds(messages);
      const progress = messages.filter((m) => m.type === "tool_progress") as any[];
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress[0]).toMatchObject({ tool_use_id: first, tool_name: tool, parent_tool_use_id: null, elapsed_time_seconds: expect.any(Number) });
      expect(progress.some((p) => p.tool_use_id === second)).toBe(true);
      expect(messages.some((m) => m.type === "system" && ["task_started", "task_notification"].includes((m as any).subtype))).toBe(false);
      const results = [server.requests[1]!, server.requests[2]!].map((r) => r.body.messages.at(-1).content[0]);
      expect(String(results[0].content)).toStartWith("# Research Report: solar panels\n");
      expect(String(results[1].content)).toStartWith("# Research Report: python (User declined - using default interpretation)\n");
      expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "researched" });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "interrupt() while a task runs: tasks/cancel for that task, the turn ends interrupted",
    async () => {
      const dir = tempDir();
      const log = join(dir, "t.log");
      server = startModelServer([reply(toolUse("mcp__t__research", { topic: "forever" })), reply(text("unused"))]);
      let release!: () => void;
      const done = new Promise<void>((r) => (release = r));
      async function* prompts(): AsyncGenerator<SDKUserMessage> {
        yield { type: "user", message: { role: "user", content: "go" }, parent_tool_use_id: null };
        await done;
      }
      const q = query({
        prompt: prompts(),
        options: options(dir, { mcpServers: { t: taskServer("--log-file", log, "--stuck") as any }, mcpServersDelivery: "initialize" } as Options),
      });
      let result: any;
      for await (const m of q) {
        // The first status change means the task exists; its first poll names it on the wire.
        if (m.type === "tool_progress") {
          await until(() => sent(log, "tasks/get").length > 0, "the first tasks/get");
          await q.interrupt();
        }
        if (m.type === "result") {
          result = m;
          break;
        }
      }
      release();
      expect(result).toMatchObject({ subtype: "error_during_execution", is_error: true });
      const id = sent(log, "tasks/get")[0]!.msg.params.taskId;
      expect(sent(log, "tasks/cancel").map((c) => c.msg.params)).toEqual([{ taskId: id }]);
    },
    TEST_TIMEOUT_MS,
  );
});
