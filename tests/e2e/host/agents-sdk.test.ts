/**
 * The official Claude Agent SDK's `agents` option driving our executable (host mode): the agent it
 * defines is listed and runs as a subagent with its prompt, tools and model, and the SDK hands the
 * program the subagent's events as Claude Code's: task_started, its messages with
 * parent_tool_use_id, and task_notification. Slow (real processes through the SDK): SKIP_SLOW=1
 * skips it locally, never in CI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { query, type Options, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, text, toolUse, type ModelServer, type RecordedRequest } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");

describe.skipIf(SKIP)("the Agent SDK's agents option", () => {
  test("defines an agent that runs as a subagent, and its events reach the program", async () => {
    const call = toolUse("Agent", { description: "check it", prompt: "P-sdk", subagent_type: "sdkagent" }) as { id: string };
    server = startModelServer([reply(call as never), reply(text("SDK_SUB_DONE")), reply(text("all done"))]);
    const options: Options = {
      pathToClaudeCodeExecutable: PROGRAM,
      cwd: tempDir(),
      env: { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>,
      agents: { sdkagent: { description: "An agent from the SDK", prompt: "SDK_AGENT_PROMPT", tools: ["Read"], model: "haiku" } },
    };
    const messages: SDKMessage[] = [];
    for await (const m of query({ prompt: "delegate", options })) messages.push(m);
    const result = messages.find((m) => m.type === "result") as any;
    expect(result).toMatchObject({ subtype: "success", result: "all done" });
    const sub = server.requests.find(isSub)!;
    expect(JSON.stringify(sub.body.system)).toContain("SDK_AGENT_PROMPT");
    expect(sub.body.tools.map((t: { name: string }) => t.name)).toEqual(["Read"]);
    expect(sub.body.model).toMatch(/^claude-haiku-/);
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("- sdkagent: An agent from the SDK (Tools: Read)");
    const any = messages as any[];
    const init = any.find((m) => m.subtype === "init");
    // Claude Code's init names the tool Task and lists the agent types.
    expect(init.tools).toContain("Task");
    expect(init.agents).toEqual(["Explore", "general-purpose", "Plan", "sdkagent"]);
    expect(any.find((m) => m.subtype === "task_started")).toMatchObject({ tool_use_id: call.id, subagent_type: "sdkagent" });
    expect(any.filter((m) => m.parent_tool_use_id === call.id).map((m) => m.type)).toEqual(["user", "assistant"]);
    expect(any.find((m) => m.subtype === "task_notification")).toMatchObject({ tool_use_id: call.id, status: "completed", summary: "SDK_SUB_DONE" });
  }, 60_000);

  test("canUseTool is told which agent a subagent's call comes from", async () => {
    server = startModelServer([
      reply(toolUse("Agent", { description: "make", prompt: "make a file", subagent_type: "maker" })),
      reply(toolUse("Bash", { command: "true" })),
      reply(text("made")),
      reply(text("all made")),
    ]);
    const asked: { tool: string; agentID?: string }[] = [];
    const options: Options = {
      pathToClaudeCodeExecutable: PROGRAM,
      cwd: tempDir(),
      env: { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>,
      agents: { maker: { description: "Makes files", prompt: "MAKE", tools: ["Bash"] } },
      permissionMode: "default",
      canUseTool: async (tool, input, o) => {
        asked.push({ tool, agentID: (o as { agentID?: string }).agentID });
        return { behavior: "allow", updatedInput: input };
      },
    };
    const messages: SDKMessage[] = [];
    for await (const m of query({ prompt: "delegate", options })) messages.push(m);
    expect((messages.find((m) => m.type === "result") as any).result).toBe("all made");
    const started = (messages as any[]).find((m) => m.subtype === "task_started");
    expect(asked).toEqual([{ tool: "Bash", agentID: started.task_id }]);
  }, 60_000);
});
