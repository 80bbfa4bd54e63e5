/**
 * Built-in slash commands of the interactive session: /help, /clear, /exit, /mcp, /tools, /skills,
 * /model [id], /cost, /status (the sandbox on or off), /compact [instructions], /permissions, /hooks, /tasks (background tasks; `/tasks stop <id>`) and /agents (every agent type with its origin and tools) (the settings' rules and hooks with their files),
 * /plan and /todos (plan-commands.ts), /rewind (turn-runner.ts runs its dialog). Text commands reuse print mode's output (builtins.ts) so both modes agree.
 */
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import type { Conversation } from "../../agent/conversation.ts";
import type { OpenedSession } from "../../agent/sessions/session-open.ts";
import { ToolState } from "../../tools/tool-state.ts";
import { ModelError } from "../../agent/model/model.ts";
import { listCustomCommands } from "../../agent/input/custom-commands.ts";
import { promptCommands, resourceMention } from "../../agent/mcp/names.ts";
import { printBuiltin, SESSION_BUILTINS } from "../commands/builtins.ts";
import { mcpStatus } from "./servers.ts";
import { describeUsage } from "../../agent/model/usage.ts";
import { describeCompaction } from "../../agent/compact.ts";
import { reconnect } from "./reconnect.ts";
import { describeHooks, describeRules } from "../../agent/policy/rules-listing.ts";
import { describeAgents } from "../../agent/subagents/describe.ts";
import type { FileCheckpoints } from "../../agent/checkpoints/tracker.ts";
import type { SessionMode } from "./planning/mode-cycle.ts";
import { planCommand } from "./planning/plan-commands.ts";
import { taskListChanged } from "../../agent/task-list/task-list.ts";
import { describeStatus } from "./status.ts";
import { tasksCommand } from "./background.ts";

/** Built-in command names of the interactive session, without the slash (one list, commands/builtins.ts). */
export const REPL_BUILTINS: ReadonlySet<string> = SESSION_BUILTINS;

/** What the session carries between turns (the model is the AgentRuntime's, so sampling follows /model). */
export interface ReplState {
  conversation: Conversation;
  /** Where the conversation is saved; /clear starts a new session there. */
  session: OpenedSession;
  /** What the tools remember in this conversation (Bash's directory, files seen); `/clear` starts it afresh. */
  tools: ToolState;
  /** File checkpoints (on unless the settings turn them off); `/rewind` goes back to them. */
  checkpoints?: FileCheckpoints;
  /** The permission mode as Shift+Tab and /plan change it (mode-cycle.ts). */
  modes?: SessionMode;
}

/**
 * Runs built-in `name` with `args`; returns the text to print (ending with a newline), or
 * "exit" for /exit. /model with an id switches the model for the following turns;
 * `/mcp reconnect <server>` resolves once the server has started again; /compact [instructions]
 * summarises the conversation (a model call: its text comes as a promise).
 */
export function runBuiltin(name: string, args: string, runtime: AgentRuntime, state: ReplState, signal?: AbortSignal): string | "exit" | Promise<string> {
  switch (name) {
    case "compact":
      return compactCommand(args, runtime, state, signal);
    case "mcp":
      if (/^reconnect\b/.test(args)) return reconnect(args.slice("reconnect".length).trim(), runtime);
      return mcpStatus(runtime);
    case "exit":
      return "exit";
    case "permissions":
      return describeRules(runtime.opts.settings?.settings);
    case "hooks":
      return describeHooks(runtime.opts.settings?.settings);
    case "clear":
      // Claude Code ends the session and starts another: SessionEnd (clear), then SessionStart (clear) with the next prompt.
      void runtime.opts.settings?.sessionEnd("clear");
      runtime.opts.settings?.restart("clear");
      state.conversation.clear(state.session.fresh());
      state.tools = new ToolState(state.tools.projectDir);
      // Later background tasks write to the new session's tasks folder; running ones go on.
      runtime.backgroundWork?.registry.useSession(runtime.opts.cwd, state.conversation.sessionId);
      // The new session's task list (empty) replaces the one drawn under the conversation.
      taskListChanged();
      return "Conversation cleared.\n";
    case "cost":
      return `${describeUsage(runtime.meter)}\n`;
    case "agents":
      return describeAgents(runtime.subagents?.agents);
    case "plan":
    case "todos":
      return planCommand(name, state.modes);
    case "status":
      return describeStatus(runtime);
    case "tasks":
      return tasksCommand(args, runtime.backgroundWork?.registry);
    case "model": {
      if (!args) return `model: ${runtime.model.model}\n`;
      try {
        runtime.setModel(runtime.createModel(args));
      } catch (err) {
        if (!(err instanceof ModelError)) throw err;
        return `error: ${err.message}\n`;
      }
      return `model set to ${args}\n`;
    }
    default:
      return printBuiltin(name, runtime, true);
  }
}

async function compactCommand(instructions: string, runtime: AgentRuntime, state: ReplState, signal?: AbortSignal): Promise<string> {
  try {
    const info = await runtime.compactNow(state.conversation, instructions, signal);
    return info ? `${describeCompaction(info)}\n` : "Nothing to compact yet.\n";
  } catch (err) {
    if (signal?.aborted) throw err;
    return `error: ${err instanceof Error ? err.message : String(err)}\n`;
  }
}

/** Every slash command name without the slash: built-in, custom, and connected servers' MCP prompts. */
export function commandNames(runtime: AgentRuntime): string[] {
  const prompts = runtime.mcpServers().flatMap((s) => (s.status === "connected" ? [...promptCommands(s.name, s.prompts).keys()] : []));
  const skills = (runtime.skills?.all() ?? []).filter((s) => s.userInvocable).map((s) => s.name);
  return [...REPL_BUILTINS, ...skills, ...listCustomCommands(runtime.opts.cwd).map((c) => c.name), ...prompts];
}

/** Connected servers' resources as `server:uri`, for `@` completion. */
export function resourceMentions(runtime: AgentRuntime): string[] {
  return runtime.mcpServers().flatMap((s) => (s.status === "connected" ? s.resources.map((r) => resourceMention(s.name, r.uri)) : []));
}
