/**
 * Shared by the hardening suites: run the real agent against a scripted model that asks for
 * tool calls, and hand back exactly the tool_result blocks the agent sent for them.
 */
import { expect } from "bun:test";
import { reply, startModelServer, text, toolUse, type Block, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { runAgent, type RunResult } from "../../support/run.ts";

export interface ToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: unknown;
  is_error?: boolean;
}

/** One model turn: a single `[toolName, input]` call, or several tool_use blocks in one reply. */
export type Turn = [string, unknown] | Block[];

export interface CallsRun {
  run: RunResult;
  requests: RecordedRequest[];
  /** Per turn, the tool_result blocks of the user message that answered it, in order. */
  results: ToolResult[][];
}

/**
 * Runs the agent in `dir` with `-p`, the model asking for `turns` one reply at a time and then
 * answering "done". Asserts the run succeeded and that each turn got exactly one tool_result per
 * tool_use, matched by id and in order; returns them. `env` is added to the agent's environment.
 */
export async function runTurns(dir: string, turns: Turn[], env?: Record<string, string>): Promise<CallsRun> {
  const blocks = turns.map((t): Block[] => (typeof t[0] === "string" ? [toolUse(t[0], t[1])] : (t as Block[])));
  const script: Step[] = [...blocks.map((b) => reply(...b)), reply(text("done"))];
  const server = startModelServer(script);
  try {
    const run = await runAgent(["-p", "use the tools"], { cwd: dir, model: server.url, env });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("done\n");
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(turns.length + 1);
    const results = blocks.map((sent, i) => {
      const message = server.requests[i + 1]!.body.messages.at(-1);
      expect(message.role).toBe("user");
      const got = message.content.filter((b: { type: string }) => b.type === "tool_result") as ToolResult[];
      expect(got.map((r) => r.tool_use_id)).toEqual(sent.filter((b) => b.type === "tool_use").map((b) => (b as { id: string }).id));
      return got;
    });
    return { run, requests: server.requests, results };
  } finally {
    server.stop();
  }
}

/** The single tool_result of each one-call turn, in order. */
export async function runCalls(dir: string, ...calls: [string, unknown][]): Promise<ToolResult[]> {
  const { results } = await runTurns(dir, calls);
  return results.map((r) => r[0]!);
}

/** A tool_result's content as text (fails the test when it is not a string). */
export function textOf(result: ToolResult): string {
  if (typeof result.content !== "string") throw new Error(`expected string content, got ${JSON.stringify(result.content).slice(0, 200)}`);
  return result.content;
}
