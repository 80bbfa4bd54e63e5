/**
 * The Agent tool, with Claude Code's name and input schema (CC-AGENT-NOTES §1.1): `description`,
 * `prompt`, `subagent_type` (general-purpose when absent), `model` and `run_in_background`: with
 * it, where the run has background work, the agent runs as a background task (its report comes as a
 * notice); elsewhere it runs in the foreground.
 * A call named `Task` (Claude Code's older name, in resumed transcripts) reaches it too. Agent
 * calls of one reply run at the same time; the subagent itself is run.ts.
 */
import type { LoopOptions, NestedTool } from "../loop/loop-options.ts";
import type { ToolContext, ToolOutput } from "../../tools/tool.ts";
import { DEFAULT_AGENT_TYPE } from "./builtin.ts";
import { printable } from "./parse.ts";
import { runSubagent, type SubagentCall, type SubagentDeps } from "./run.ts";
import { newAgentId } from "./report.ts";
import { AGENT_TOOL, AGENT_TOOL_ALIAS } from "./toolset.ts";
import type { AgentDefinition } from "./types.ts";

const DESCRIPTION = `Start a subagent: a separate agent that works on one task with its own tools and context, then reports back. Use it for work that is independent of your current thread, such as a broad search of the codebase, or to keep long explorations out of your own context.

- Pick an agent type with subagent_type; the types available are listed in a message from the system. Without one, general-purpose is used.
- The subagent sees none of this conversation: the prompt must hold everything it needs to know, and say what it should report.
- Its final message comes back to you as this tool's result; the user does not see it, so pass on what matters.
- Several Agent calls in one reply run at the same time.`;

export function agentTool(agents: () => readonly AgentDefinition[], deps: SubagentDeps): NestedTool {
  return {
    name: AGENT_TOOL,
    aliases: [AGENT_TOOL_ALIAS],
    concurrent: true,
    description: DESCRIPTION,
    asksPermission: false,
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        description: { type: "string", description: "A short (3-5 word) description of the task" },
        prompt: { type: "string", description: "The task for the agent to perform" },
        subagent_type: { type: "string", description: "The type of specialized agent to use for this task" },
        model: {
          type: "string",
          enum: ["sonnet", "opus", "haiku", "fable", "inherit"],
          description: "Optional model for this agent; without it, the agent's own model, else yours.",
        },
        run_in_background: {
          type: "boolean",
          description:
            "true runs the agent in the background where this session has background work: you get its id at once and a notice with its report when it ends. Otherwise it runs in the foreground and you wait for its result.",
        },
      },
      required: ["description", "prompt"],
      additionalProperties: false,
    },
    summary: (input) => (typeof input.description === "string" ? printable(input.description) : undefined),
    async run(): Promise<ToolOutput> {
      return { isError: true, content: "The Agent tool runs only inside a conversation." };
    },
    async runInLoop(input: Record<string, unknown>, ctx: ToolContext, parent: LoopOptions): Promise<ToolOutput> {
      const prompt = input.prompt;
      const description = input.description;
      if (typeof prompt !== "string" || !prompt.trim()) return { isError: true, content: "Agent: prompt must be a non-empty string." };
      if (typeof description !== "string") return { isError: true, content: "Agent: description must be a string." };
      const type = input.subagent_type === undefined || input.subagent_type === "" ? DEFAULT_AGENT_TYPE : input.subagent_type;
      if (typeof type !== "string") return { isError: true, content: "Agent: subagent_type must be a string." };
      const all = agents();
      const def = all.find((a) => a.name === type);
      if (!def) {
        return { isError: true, content: `No agent type named "${printable(type)}". The agent types are: ${all.map((a) => a.name).join(", ")}.` };
      }
      if (input.model !== undefined && typeof input.model !== "string") return { isError: true, content: "Agent: model must be a string." };
      const call = { def, prompt, description, model: input.model as string | undefined };
      if (input.run_in_background === true && deps.startInBackground) {
        const launched = startInBackground(call, ctx, parent, deps);
        if (launched) return launched;
      }
      return runSubagent(call, ctx, parent, deps);
    },
  };
}

/**
 * Starts the subagent as a background task: the call answers at once with its id and output file.
 * Its run has its own abort (TaskStop, shutdown), not the turn's, and shows no events in a turn
 * that will have ended. Undefined when the run has no background work.
 */
function startInBackground(call: SubagentCall, ctx: ToolContext, parent: LoopOptions, deps: SubagentDeps): ToolOutput | undefined {
  const agentId = newAgentId();
  const quiet: LoopOptions = { ...parent, hooks: { ...parent.hooks, onSubagent: undefined } };
  let started: { id: string; outputFile: string } | undefined;
  try {
    started = deps.startInBackground?.({
      agentId,
      description: call.description,
      toolUseId: ctx.callId,
      run: async (signal) => {
        const out = await runSubagent(call, { ...ctx, signal }, quiet, deps, agentId);
        return { content: typeof out.content === "string" ? out.content : JSON.stringify(out.content), isError: out.isError };
      },
    });
  } catch (err) {
    return { isError: true, content: `Agent: could not start it in the background: ${(err as Error).message}` };
  }
  if (!started) return undefined;
  return {
    content: [
      `The agent was started in the background. agentId: ${started.id}`,
      "A notice with its report will come when it finishes. Until then, do not guess what it will find, and do not start it again; go on with other work or wait.",
      `output_file: ${started.outputFile}`,
    ].join("\n"),
  };
}
