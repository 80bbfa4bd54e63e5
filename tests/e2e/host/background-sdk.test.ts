/**
 * Background work driven by the official Claude Agent SDK (host mode, real processes): the SDK sees
 * task_started, task_updated and task_notification; its stopTask reaches the task and ends its
 * process group; a finished task's notice becomes a further turn; the host's EOF stops every task.
 * Slow (real processes through the SDK): SKIP_SLOW=1 skips it locally, never in CI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { query, type Options, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, text, toolUse, type ModelServer, type RecordedRequest } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";
import { until } from "../../support/wait.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const pgrep = (marker: string) => Bun.spawnSync(["pgrep", "-f", marker]).stdout.toString().trim();
const lastUser = (req: RecordedRequest) => JSON.stringify(req.body.messages.at(-1));

/** A prompt stream the test ends when it chooses: the host's stdin stays open until then. */
function input(first: string) {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  async function* lines(): AsyncGenerator<SDKUserMessage> {
    yield { type: "user", message: { role: "user", content: first }, parent_tool_use_id: null, session_id: "" };
    await ended;
  }
  return { lines: lines(), end };
}

const options = (url: string): Options => ({
  pathToClaudeCodeExecutable: PROGRAM,
  cwd: tempDir(),
  env: { ...baseEnv(url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>,
});

describe.skipIf(SKIP)("background work through the Agent SDK", () => {
  test("stopTask stops a background command's group; the SDK sees task_started, task_updated and task_notification", async () => {
    const marker = `bgsdkstop${process.pid}`;
    const call = toolUse("Bash", { command: `exec -a ${marker} sleep 300`, run_in_background: true, description: "long sleep" }) as { id: string };
    server = startModelServer([reply(call as never), reply(text("started"))]);
    const prompt = input("start it");
    const q = query({ prompt: prompt.lines, options: options(server.url) });
    const messages: any[] = [];
    for await (const m of q as AsyncIterable<SDKMessage>) {
      messages.push(m);
      if ((m as any).subtype === "task_started") {
        expect(pgrep(marker)).not.toBe("");
      }
      if (m.type === "result") {
        const started = messages.find((e) => e.subtype === "task_started");
        await q.stopTask(started.task_id);
      }
      if ((m as any).subtype === "task_notification") prompt.end();
    }
    const started = messages.find((e) => e.subtype === "task_started");
    expect(started).toMatchObject({ tool_use_id: call.id, description: "long sleep", task_type: "local_bash", is_backgrounded: true });
    expect(started.task_id).toMatch(/^b[a-z0-9]{8}$/);
    expect(messages.find((e) => e.subtype === "task_updated")).toMatchObject({ task_id: started.task_id, patch: { status: "killed" } });
    expect(messages.find((e) => e.subtype === "task_notification")).toMatchObject({ task_id: started.task_id, tool_use_id: call.id, status: "stopped" });
    expect(pgrep(marker)).toBe("");
    // Stopped by the host: the model hears nothing more.
    expect(server.requests.length).toBe(2);
  }, 90_000);

  test("a finished task's notice is a further turn; the host's EOF then stops what still runs", async () => {
    const marker = `bgsdkeof${process.pid}`;
    server = startModelServer([
      reply(toolUse("Bash", { command: "echo quick", run_in_background: true })),
      reply(text("started")),
      (req) => {
        expect(lastUser(req)).toContain("completed (exit code 0)");
        return reply(toolUse("Bash", { command: `exec -a ${marker} sleep 300`, run_in_background: true }));
      },
      reply(text("noticed")),
    ]);
    const prompt = input("go");
    const results: string[] = [];
    const events: any[] = [];
    for await (const m of query({ prompt: prompt.lines, options: options(server.url) }) as AsyncIterable<SDKMessage>) {
      events.push(m);
      if (m.type === "result") results.push((m as any).result);
      if (m.type === "result" && results.length === 2) {
        await until(() => pgrep(marker) !== "");
        prompt.end();
      }
    }
    expect(results).toEqual(["started", "noticed"]);
    expect(events.find((e) => e.subtype === "task_notification")).toMatchObject({
      status: "completed",
      summary: 'Background command "echo quick" completed (exit code 0)',
    });
    await until(() => pgrep(marker) === "");
  }, 90_000);
});
